"""The play screen: what the person sees at their move, drawn from an observation.

:func:`render_observation` prints the round, the scores, the piles, the table, the
person's hand sorted by suit and rank (every pack together), its best melds (a legal
contract lay-down where a contract applies), the contract in words and whether the hand
holds it, the best discard or offer, and the legal moves numbered; lay-downs that differ
only in suits fold into one line each (:func:`listing`), ``all`` lists every one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from ..engine.actions import Action, Discard, Meld, Offer, player_name
from ..errors import RummyDslError
from .words import contract_words

if TYPE_CHECKING:
    from ..cards import Card
    from ..engine.observe import Observation
    from ..melds import MeldRules
    from ..variant.model import Variant

__all__ = ["render_observation", "ordered", "suggested_first", "listing", "sort_cards", "cards_text", "melds_text", "contract_text",
           "FOLD_FROM"]

_RULE = "-" * 64

FOLD_FROM = 12
"""A listing of more moves than this folds lay-downs that differ only in suits."""


def cards_text(cards: Sequence[Card]) -> str:
    """Cards in the notation, ``-`` for none."""
    return " ".join(str(c) for c in cards) if cards else "-"


def _suit_rank(card: Card) -> tuple[int, int, int, int]:
    if card.wild or card.suit is None or card.rank is None:
        return (1, 0, 0, card.copy)
    return (0, card.suit.index, card.rank.order, card.copy)


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards by suit, then rank, the copies of a face side by side (every pack together),
    wild cards last.

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.from_spec({"preset": "standard52", "packs": 2, "wilds": 2})
    >>> cards = [deck.cards[i] for i in (104, 64, 14, 52, 0)]   # *, KS, 2H, AS, AS
    >>> " ".join(str(c) for c in sort_cards(cards))
    'AS AS KS 2H *'
    """
    return sorted(cards, key=_suit_rank)


def _melds_text(melds: Iterable[Sequence[Card]]) -> str:
    return " ".join("[" + cards_text(m) + "]" for m in melds)

_CONTRACTS: dict[int, tuple[object, str | None]] = {}
"""Contract words by the predicate they word (kept with it, so an id is never reused)."""


def contract_text(variant: Variant, rules: MeldRules, most: int) -> str | None:
    """The contract judged by ``rules`` (bound to a round: CR-2) in words, or ``None``."""
    contract = getattr(rules, "contract", None)
    if variant.contract is None or contract is None:
        return None
    known = _CONTRACTS.get(id(contract))
    if known is None or known[0] is not contract:
        from ..variant.semantics_probe import sample_melds

        known = (contract, contract_words(contract, sample_melds(variant), most))
        if len(_CONTRACTS) > 64:
            _CONTRACTS.clear()
        _CONTRACTS[id(contract)] = known
    return known[1]


def _meld_order(meld: Sequence[Card], top: int) -> list[Card]:
    """A meld's cards by rank for the eye, an ace after the king in a run that holds both."""
    high = len({c.rank.order for c in meld if c.rank is not None}) == len(meld) and \
        {1, top} <= {c.rank.order for c in meld if c.rank is not None}
    return sorted(meld, key=lambda c: (c.wild, 0 if c.rank is None else
                                       (top + 1 if high and c.rank.order == 1 else c.rank.order),
                                       0 if c.suit is None else c.suit.index))


def melds_text(melds: Iterable[Sequence[Card]], top: int = 13) -> str:
    """Melds in brackets, each meld's cards by rank (``top``: the deck's highest rank)."""
    return " ".join("[" + cards_text(_meld_order(m, top)) + "]" for m in melds)


def _same_melds(melds: Iterable[Iterable[Card]]) -> frozenset[frozenset[Card]]:
    return frozenset(frozenset(m) for m in melds)


def _hand_lines(observation: Observation, legal: Sequence[Action]) -> tuple[list[str], Action | None]:
    """The person's hand sorted, its best melds and deadwood, the contract (in words,
    and whether the hand holds it), and the best discard or offer; and the legal
    lay-down of those best melds, if there is one."""
    hand = sort_cards(observation.hand)
    lines = [f"your hand ({len(hand)}): {cards_text(hand)}"]
    rules = observation.rules
    variant = observation.variant
    top = len(variant.deck.ranks)
    suggested: Action | None = None
    try:
        best = rules.solve(hand)
        shown = best.melds
        deadwood = f"   deadwood: {best.deadwood} ({cards_text(sort_cards(best.unmatched))})"
        melds = melds_text(best.melds, top) or "none"
        if variant.contract is not None:
            words = contract_text(variant, rules, len(hand) + 1) or "as 'rummydsl explain' words it"
            if observation.met_contract[observation.player]:
                lines.append(f"  contract: {words} - met (your melds are on the table)")
            else:
                laid = rules.solve(hand, contract=True)
                if laid.contract:
                    lines.append(f"  contract: {words} - you hold it: you may lay it down")
                    extra = [m for m in laid.melds if m not in laid.contract_melds]
                    if not variant.contract.then_meld_same_turn:
                        extra = []
                    shown = tuple(laid.contract_melds) + tuple(extra)
                    more = f" + {melds_text(extra, top)}" if extra else ""
                    deadwood = f"   deadwood: {laid.deadwood} ({cards_text(sort_cards(laid.unmatched))})"
                    melds = melds_text(laid.contract_melds, top) + more
                else:
                    lines.append(f"  contract: {words} - not held yet")
                    melds = "none" if not best.melds else f"none meet the contract (in hand: {melds})"
                    shown = ()
        lines.insert(1, f"  best melds: {melds}{deadwood}")
        if shown:
            want = _same_melds(shown)
            suggested = next((a for a in legal if isinstance(a, Meld) and _same_melds(a.melds) == want), None)
        verb = "offer" if any(isinstance(a, Offer) for a in legal) else (
            "discard" if any(isinstance(a, Discard) for a in legal) else None)
        if verb is not None:
            after = rules.solve_discard(hand)
            if after.discard is not None:
                lines.append(f"  best {verb}: {after.discard} (deadwood after: {after.deadwood})")
    except RummyDslError:
        pass  # a hand the solver cannot judge (too many cards): the cards alone are shown
    return lines, suggested


def _shape(action: Action) -> tuple[object, ...] | None:
    """What a lay-down is but for suits: each meld's ranks (``None`` for any other move)."""
    if not isinstance(action, Meld) or not action.melds:
        return None
    return tuple(tuple("*" if card.wild or card.rank is None else card.rank.symbol
                       for card in sorted(meld, key=lambda c: (c.wild, c.rank.order if c.rank else 0)))
                 for meld in action.melds)


def listing(legal: Sequence[Action], every: bool = False, best: Action | None = None) -> list[str]:
    """The numbered moves. Past :data:`FOLD_FROM` moves (and unless ``every``), the
    lay-downs of the same ranks in other suits (which ace goes where) fold into one line,
    ``best`` (the suggested lay-down) where it is one of them, else the first: ``ordered``
    keeps each such group together.

    >>> import random
    >>> from rummydsl.variant import load_variant
    >>> from rummydsl.engine import Round
    >>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
    >>> listing(ordered(rnd.legal_actions()))
    ['  1  P1 draw discard', '  2  P1 pass']
    """
    width = len(str(len(legal)))
    fold = not every and len(legal) > FOLD_FROM
    lines: list[str] = []
    number = 0
    folded = 0
    while number < len(legal):
        shape = _shape(legal[number]) if fold else None
        last = number
        while shape is not None and last + 1 < len(legal) and _shape(legal[last + 1]) == shape:
            last += 1
        group = legal[number:last + 1]
        shown = group.index(best) if best in group else 0
        notes = ["best melds"] if best is not None and group[shown] == best else []
        if last > number:
            notes.append(f"{number + 1}-{last + 1}: the same ranks in other suits")
            folded += last - number
        note = f"   ({'; '.join(notes)})" if notes else ""
        lines.append(f"  {number + shown + 1:>{width}}  {group[shown]}{note}")
        number = last + 1
    if folded:
        lines.append(f"  ({folded} lay-downs like those above are folded: 'all' lists all {len(legal)} moves)")
    return lines


def render_observation(observation: Observation, legal: Sequence[Action], every: bool = False) -> str:
    """What the person sees at their move: the whole public table and their own hand.

    >>> import random
    >>> from rummydsl.variant import load_variant
    >>> from rummydsl.engine import Round
    >>> from rummydsl.engine.observe import Observation
    >>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
    >>> text = render_observation(Observation(rnd, 0), list(rnd.legal_actions()))
    >>> "  1  P1 draw discard" in text and "stock: 31 cards" in text
    True
    """
    me = observation.player
    n = observation.players
    scores = " . ".join(f"{player_name(p)} {observation.scores[p]}" for p in range(n))
    to_move = observation.to_move
    lines = [_RULE,
             f"round {observation.number}: {player_name(me)} (you) to move, phase {observation.phase}",
             f"scores: {scores}    dealer: {player_name(observation.dealer)}"]
    if observation.sat_out is not None:  # G3-1
        sitter = observation.sat_out
        lines[-1] += f"    sits out: {player_name(sitter)}{' (you)' if sitter == me else ''}"
    limit = observation.knock_limit
    if observation.variant.knock is not None and limit is None:
        lines[-1] += "    knock: any deadwood"
    elif observation.variant.knock is not None and limit is not None and limit >= 0:
        lines[-1] += f"    knock limit: {limit}"
    top = observation.top_discard
    size = len(observation.discards)
    pile = f"discard pile: {top} on top ({size} card{'s' if size != 1 else ''})" if top is not None else (
        "discard pile: empty" if observation.variant.has_discard_pile else "")
    lines.append(f"stock: {observation.stock_size} cards    {pile}".rstrip())
    if observation.turn_overs:
        times = "once" if observation.turn_overs == 1 else f"{observation.turn_overs} times"
        lines[-1] += f"    (the pile was turned over {times})"
    draw = observation.variant.step("draw")
    if draw is not None and draw.discard_depth == "any" and size > 1:
        lines.append(f"  the pile, bottom first: {cards_text(observation.discards)}")  # R5-2: spread out
    others = [p for p in range(n) if p != me and p != observation.sat_out]
    sizes = observation.hand_sizes
    lines.append("hands: " + ", ".join(f"{player_name(p)} {sizes[p]} card{'s' if sizes[p] != 1 else ''}"
                                       for p in others))
    for p in others:
        known = observation.known(p)
        if known:
            lines.append(f"  {player_name(p)} is known to hold: {cards_text(sort_cards(known))}")
    table = [(p, i, m) for p, melds in enumerate(observation.table) for i, m in enumerate(melds)]
    if table:
        lines.append("table:")
        for p, i, meld in table:
            laid = [f"{player_name(who)} {card}" for card, who in zip(meld.cards, meld.by) if who != p]
            credit = f"   (laid off: {', '.join(laid)})" if laid else ""
            in_order = _meld_order(meld.cards, len(observation.variant.deck.ranks))
            lines.append(f"  {player_name(p)}#{i + 1} {meld.kind}: {cards_text(in_order)}{credit}")
    ender = observation.ender
    if ender is not None:
        shown = observation.shown(ender) or ()
        melds = melds_text(shown, len(observation.variant.deck.ranks)) or "none"
        lines.append(f"{player_name(ender)} ended the round: melds {melds}, deadwood {observation.ender_deadwood}")
    void = observation.variant.void
    if void.at_discard_draw is not None:
        lines.append(f"draws from the discard pile this round: {observation.discard_draws} "
                     f"(the round is void at draw {void.at_discard_draw})")
    if (observation.phase == "showdown" and to_move == me and observation.shown(me) is None
            and observation.variant.deadwood_arrangement == "as_shown"):
        lines.append("you are scored on the melds you show: 'meld [..] [..]' ('meld []' shows none); "
                     "'done' alone shows your least arrangement")
    if observation.offered is not None and to_move == me:
        lines.append(f"you are offered: {observation.offered}")
    if observation.buy_limit:  # CR-4
        lines.append(f"buys this deal: you {observation.bought[me]} of {observation.buy_limit}")
        if observation.phase == "buy" and top is not None:
            lines.append(f"{player_name(observation.turn_player)} draws from the stock: you may buy {top} "
                         "with a penalty card from the stock")
    hand, best = _hand_lines(observation, legal)
    lines.extend(hand)
    lines.append("moves:")
    lines.extend(listing(legal, every, best))
    return "\n".join(lines) + "\n"


def suggested_first(observation: Observation, legal: Sequence[Action]) -> list[Action]:
    """``legal`` with the suggested lay-down (the best melds, when they are a legal move)
    first among the lay-downs of the same ranks, so that a folded line shows it under the
    first number of its group."""
    best = _hand_lines(observation, legal)[1]
    moves = list(legal)
    if best is None:
        return moves
    shape = _shape(best)
    at = moves.index(best)
    start = at
    while start > 0 and _shape(moves[start - 1]) == shape:
        start -= 1
    moves.insert(start, moves.pop(at))
    return moves


def ordered(legal: Iterable[Action]) -> list[Action]:
    """The legal moves as the person sees them: verbs in the engine's order, cards sorted.

    >>> import random
    >>> from rummydsl.variant import load_variant
    >>> from rummydsl.engine import Round
    >>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
    >>> [str(a) for a in ordered(rnd.legal_actions())]
    ['P1 draw discard', 'P1 pass']
    """
    actions = list(legal)
    first: dict[type, int] = {}
    for index, action in enumerate(actions):
        first.setdefault(type(action), index)

    def key(action: Action) -> tuple[int, tuple[int, int, int, int]]:
        card = getattr(action, "card", None)
        return first[type(action)], (-1, 0, 0, 0) if card is None else _suit_rank(card)

    ordered = sorted(actions, key=key)
    groups: dict[object, list[Action]] = {}  # a lay-down's group of the same ranks, kept together
    for action in ordered:
        groups.setdefault(_shape(action) or id(action), []).append(action)
    return [action for group in groups.values() for action in group]


