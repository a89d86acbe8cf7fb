"""``fast``: a cheap, sensible playout policy for the search agents, for every variant.

The greedy and heuristic agents ask the meld solver before nearly every choice; in a
playout that is most of the cost (docs/agents.md, "Speed"). :class:`FastAgent` asks it
only to knock. It judges a card by its **links**: the cards of the hand it could share
a three-card meld with, read from the variant's meld shapes (a rank family links cards
of one rank, a sequence family cards at most two places apart, in one suit where the
kind keeps one; a wild card links everything), worked out once per deck as bit masks.

- **Draw, upcard, answer an offer**: take the card when it and two held cards it links
  with form a meld (asked of ``kinds_of``, memoised); else the stock, a pass, a decline.
- **Discard, offer**: a card of no three-card meld with two held cards before one that
  only links with a held card, before one of such a meld; the dearest first. Where no
  knock can be legal (by the same test) the discard is chosen without listing the
  legal actions (their knocks cost meld searches).
- **Meld**: the put that takes the most cards from the hand; lay-offs likewise; then done.
- **Knock** and the phases above do not cover (buys, claims, deep draws): as
  :class:`~rummydsl.agents.basic.GreedyAgent` plays them.

It is weaker than greedy but several times faster, so a search can afford more
playouts; the search agents still measure their moves against the heuristic agent's
(``rollout=fast``, docs/agents.md).

>>> import random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Game, play_game
>>> result = play_game(Game(load_variant("ginski"), random.Random(2)), [FastAgent()] * 3)
>>> result.winner in (0, 1, 2)
True
"""

from __future__ import annotations

from typing import Sequence

from ..cards import Card, Deck
from ..engine.actions import Action, Decline, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, Take
from ..engine.observe import Observation
from ..melds import MeldRules
from .basic import GreedyAgent

__all__ = ["FastAgent", "links", "forms_meld"]

_LINKS: dict[int, tuple[object, list[int], dict[tuple[int, int, int], bool]]] = {}
"""By solver (one per variant and deal, the last few kept; the entry holds the solver, so
its id is not reused while it is kept): :func:`links`, and which triples of card ids
form a meld (:func:`forms_meld`)."""


def _entry(rules: MeldRules) -> tuple[object, list[int], dict[tuple[int, int, int], bool]]:
    got = _LINKS.get(id(rules))
    if got is not None and got[0] is rules:
        return got
    masks = _links(rules.deck, list(rules.shapes.values()), len(rules.kind_names) > len(rules.shapes))
    if len(_LINKS) >= 32:
        _LINKS.pop(next(iter(_LINKS)))
    got = _LINKS[id(rules)] = (rules, masks, {})
    return got


def links(rules: MeldRules) -> list[int]:
    """For each card id of ``rules``' deck, the bit mask of the card ids it could share a
    three-card meld with, by the meld kinds' shapes (a kind of no known shape links all).

    >>> from rummydsl.engine.match import Match
    >>> m = Match.new("gin_rummy", seed=1)
    >>> rules = m.view(0).rules
    >>> deck = rules.deck
    >>> seven, eight, queen = deck.parse_cards("7H 8H QS")
    >>> bool(links(rules)[seven.id] >> eight.id & 1), bool(links(rules)[seven.id] >> queen.id & 1)
    (True, False)
    """
    return _entry(rules)[1]


def _links(deck: Deck, shapes: Sequence[object], unknown: bool) -> list[int]:
    cards = deck.cards
    every = (1 << len(cards)) - 1
    positions = [deck.sequence_positions(c.rank) if c.rank is not None else () for c in cards]
    span = deck.max_sequence_position
    masks = []
    for x in cards:
        if x.wild or x.rank is None or unknown or any(getattr(s, "family", "any") == "any" for s in shapes):
            masks.append(every & ~(1 << x.id))
            continue
        mask = 0
        for y in cards:
            if y is x:
                continue
            if y.wild or y.rank is None or _linked(x, y, positions, span, deck.wrap, shapes):
                mask |= 1 << y.id
        masks.append(mask)
    return masks


def _linked(x: Card, y: Card, positions: list[tuple[int, ...]], span: int, wrap: bool,
            shapes: Sequence[object]) -> bool:
    assert x.rank is not None and y.rank is not None
    for shape in shapes:
        family = getattr(shape, "family")
        if getattr(shape, "same_suit", False) and x.suit is not y.suit:
            continue
        if family == "same_rank" and x.rank.order == y.rank.order:
            return True
        if family == "sequence":
            for p in positions[x.id]:
                for q in positions[y.id]:
                    gap = abs(p - q)
                    if wrap:
                        gap = min(gap, span - gap)
                    if 1 <= gap <= 2:
                        return True
    return False


def _forms_meld(rules: MeldRules, card: Card, hand: Sequence[Card], partners: int) -> bool:
    """Whether ``card`` and two cards of ``hand`` it links with form a meld."""
    near = [c for c in hand if partners >> c.id & 1 and c is not card]
    for i, one in enumerate(near):
        for two in near[i + 1:]:
            if forms_meld(rules, card, one, two):
                return True
    return False


def forms_meld(rules: MeldRules, one: Card, two: Card, three: Card) -> bool:
    """Whether three cards form a meld of ``rules`` (``kinds_of``, memoised by card ids)."""
    a, b, c = sorted((one.id, two.id, three.id))
    triples = _entry(rules)[2]
    got = triples.get((a, b, c))
    if got is None:
        got = triples[(a, b, c)] = bool(rules.kinds_of([one, two, three]))
    return got


class FastAgent:
    """The cheap playout policy (module docstring)."""

    def __init__(self) -> None:
        self.greedy = GreedyAgent()

    def act(self, observation: Observation) -> Action:
        quick = self._without_listing(observation)
        if quick is not None:
            return quick
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        phase = observation.phase
        if any(isinstance(a, Knock) for a in legal):
            return self.greedy.act(observation)
        rules = observation.rules
        masks = links(rules)
        hand = observation.hand
        if phase in ("draw", "upcard", "answer"):
            if phase == "draw" and GreedyAgent._deep_variant(observation):
                return next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), legal[0])
            card = observation.offered if phase == "answer" else observation.top_discard
            take: Action | None
            other: Action | None
            if phase == "answer":
                take = next((a for a in legal if isinstance(a, Take)), None)
                other = next((a for a in legal if isinstance(a, Decline)), None)
            else:
                take = next((a for a in legal if isinstance(a, Draw) and a.source == "discard"), None)
                other = next((a for a in legal if (isinstance(a, Draw) and a.source == "stock")
                              or isinstance(a, Pass)), None)
            if take is not None and other is not None and card is not None:
                return take if _forms_meld(rules, card, hand, masks[card.id]) else other
            return other or take or legal[0]
        if phase in ("discard", "offer"):
            options = [a for a in legal if isinstance(a, (Discard, Offer))]
            if not options:
                return legal[0]
            taken = observation.taken
            options = [a for a in options if a.card is not taken] or options
            worth = _worth(rules, hand)
            values = observation.variant.card_values

            def keep(action: Discard | Offer) -> tuple[int, int, int]:
                return (worth[action.card.id], -values[action.card.id], -action.card.id)

            return min(options, key=keep)
        if phase in ("meld", "showdown"):
            puts = [a for a in legal if isinstance(a, (Meld, Layoff))]
            if not puts:
                return next((a for a in legal if isinstance(a, Done)), legal[0])

            def gone(action: Meld | Layoff) -> int:
                return sum(len(m) for m in action.melds) if isinstance(action, Meld) else 1

            return max(puts, key=gone)
        return self.greedy.act(observation)

    @staticmethod
    def _without_listing(observation: Observation) -> Action | None:
        """A move found without listing the legal actions, where listing costs meld searches:
        a discard when no knock can be legal (the cards of no three-card meld with two other
        held cards are deadwood in every arrangement, and one discard takes away at most the
        dearest card), and ``done`` in an optional meld step when the hand cannot meet its
        contract."""
        if observation.to_move != observation.player:
            return None
        phase = observation.phase
        variant = observation.variant
        hand = observation.hand
        rules = observation.rules
        if phase == "discard" and len(hand) > 1:
            limit = observation.knock_limit
            if variant.knock is not None and limit is None:
                return None
            values = variant.card_values
            worth = _worth(rules, hand)
            if variant.knock is not None:
                assert limit is not None
                lone = sum(values[c.id] for c in hand if worth[c.id] < 2)
                if lone - max(values[c.id] for c in hand) <= limit:
                    return None
            taken = observation.taken
            options = [c for c in hand if c is not taken]
            if not options:
                return None
            card = min(options, key=lambda c: (worth[c.id], -values[c.id], -c.id))
            return Discard(observation.player, card)
        if phase == "meld" and variant.contract is not None and not observation.met_contract[observation.player]:
            step = variant.step("meld")
            if step is not None and getattr(step, "optional", False) and not rules.holds_contract(hand):
                return Done(observation.player)
        return None


def _worth(rules: MeldRules, hand: Sequence[Card]) -> dict[int, int]:
    """Each held card's worth to the hand, by card id: 2 if it forms a three-card meld with
    two other held cards, 1 if it links with one, else 0."""
    masks = links(rules)
    held = 0
    for c in hand:
        held |= 1 << c.id
    out = {}
    for c in hand:
        partners = masks[c.id] & held & ~(1 << c.id)
        out[c.id] = 2 if partners and _forms_meld(rules, c, hand, partners) else 1 if partners else 0
    return out
