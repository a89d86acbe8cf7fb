"""Putting melds on the table and laying off (SK-5, SK-6; the defenders' lay-offs of GR-7).

The meld step lets the player put down melds and add cards to table melds,
then say ``done`` (when the step is ``optional``; otherwise only once nothing
more can be put down). With a contract (SK-5) the first lay-down must meet it
while melds stay ``concealed_until_met``; after it, more melding in the same
turn only with ``then_meld_same_turn`` (SK-5.4), new melds only with
``new_melds_after`` (false: only lay-offs, CR-3), and lay-offs onto one's own
melds (``add_to_own``) or the others' (``add_to_opponents``). A player who has
met the contract and empties their hand here goes out (SK-8); going out before
meeting it is refused, and so is any meld or lay-off that would empty the hand
when ``going_out.final_discard`` is ``required`` (BR-3: the last card must be
discarded), or that would leave only the card taken from the pile this turn when
the discard step may not throw it (the turn could not end). A table meld keeps the kind it was laid as with
``kind_locked`` (SK-3.4); otherwise it may change kind as it grows.

The functions here judge groups for the other mechanics too (a knock's melds,
a defender's lay-offs).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ...cards import Card
from ...errors import IllegalActionError, RummyDslError
from ...variant.model import MeldStep
from ..actions import Action, Done, Layoff, Meld, player_name
from ..state import Phase, TableMeld
from .base import Mechanic
from .discard import barred
from .layoffs import (FINAL_DISCARD_REASON, LAST_CARD_REASON, TAKEN_LAST_REASON, _fits, _last_card_fits,
                      apply_layoff, check_layoff, final_discard_required, last_card_stays, layoff_targets,
                      list_layoffs, only_taken_left)

from ..fields import Field, seat_map
if TYPE_CHECKING:
    from ..round import Round

__all__ = [
    "MeldMechanic",
    "judge_melds",
    "first_kind",
    "layoff_targets",
    "check_layoff",
    "apply_layoff",
    "list_layoffs",
    "single_melds",
    "MAX_LISTED",
    "final_discard_required",
    "FINAL_DISCARD_REASON",
    "TAKEN_LAST_REASON",
    "too_few_left",
    "only_taken_left",
]

FIELDS: tuple[Field, ...] = (
    Field("met_contract", lambda rnd: [rnd.variant.contract is None] * rnd.players, "list",
          json=lambda rnd, text: seat_map(rnd.met_contract)),
    Field("melded_turns", lambda rnd: [0] * rnd.players, "list", json=lambda rnd, text: seat_map(rnd.melded_turns)),
    Field("laid_this_turn", lambda rnd: False, json=lambda rnd, text: rnd.laid_this_turn, turn=True),
    Field("contract_now", lambda rnd: False, turn=True),
)
"""``met_contract`` by seat; ``melded_turns``: in how many of their turns each seat put
a card on the table (BR-5); ``laid_this_turn``; ``contract_now``: the contract was met
this turn (SK-5.4)."""


#: Hands with wild cards list melds of at most this many cards (any size is still accepted).
MAX_LISTED = 6

Judged = list[tuple[tuple[Card, ...], str]]

def first_kind(rnd: Round, cards: Sequence[Card], pool: Sequence[Card]) -> str:
    """The first declared kind the group forms (the kind it is laid as)."""
    kinds = rnd.rules.kinds_of(cards, hand=pool)
    return next(k for k in rnd.rules.kind_names if k in kinds)


def judge_melds(rnd: Round, player: int, melds: Sequence[Sequence[Card]], pool: Sequence[Card],
                what: str) -> Judged:
    """The melds, made of distinct cards of ``pool``, each with the kind it is laid as.

    :raises IllegalActionError: (reason only) for a card not in ``pool`` or a group
        that forms no kind.
    """
    used: set[int] = set()
    out: Judged = []
    for meld in melds:
        cards = []
        for card in meld:
            held = rnd.find(pool, card, used)
            if held is None:
                raise IllegalActionError("", f"{player_name(player)} has no {card} {what}")
            used.add(held.id)
            cards.append(held)
        kinds = rnd.rules.kinds_of(cards, hand=pool)
        if not kinds:
            text = " ".join(str(c) for c in meld)
            raise IllegalActionError("", f"[{text}] is not a meld of this variant "
                                         f"(kinds: {', '.join(rnd.rules.kind_names)})")
        out.append((tuple(cards), next(k for k in rnd.rules.kind_names if k in kinds)))
    return out


def contract_ok(rnd: Round, melds: Sequence[tuple[tuple[Card, ...], str]], pool: Sequence[Card]) -> bool:
    """Whether the melds meet the contract, for some choice of each meld's kind."""
    contract = rnd.variant.contract
    if contract is None:
        return True
    choices = [sorted(rnd.rules.kinds_of(cards, hand=pool)) for cards, _ in melds]
    for kinds in itertools.product(*choices):
        if rnd.rules.contract is not None and rnd.rules.contract(
                [(kind, cards) for kind, (cards, _) in zip(kinds, melds)]):
            return True
    return False


def would_meet(rnd: Round, player: int, judged: Judged, pool: Sequence[Card]) -> bool:
    """Whether ``player`` has met the contract once ``judged`` is on the table."""
    if rnd.met_contract[player]:
        return True
    contract = rnd.variant.contract
    assert contract is not None
    if contract.concealed_until_met:
        return contract_ok(rnd, judged, pool)
    on_table = [(tuple(m.cards), m.kind) for m in rnd.table[player]]
    return contract_ok(rnd, [*on_table, *judged], pool)


def too_few_left(rnd: Round, player: int, judged: Judged, hand: Sequence[Card]) -> str | None:
    """Why putting ``judged`` down would leave ``player`` too few cards, or None.

    An emptied hand goes out, which needs the contract met (SK-8, CR-5) and is
    refused under ``final_discard: required`` (BR-3). A player who has still not
    met the contract must also keep two cards where the turn ends with a discard:
    the last card could not be discarded.
    """
    left = len(hand) - sum(len(cards) for cards, _ in judged)
    if left > 1:
        return None
    if left == 1:
        used = {c.id for cards, _ in judged for c in cards}
        if only_taken_left(rnd, [c for c in hand if c.id not in used]):
            return TAKEN_LAST_REASON
    if left == 0 and final_discard_required(rnd):
        return FINAL_DISCARD_REASON
    if left == 1 and last_card_stays(rnd):
        used = {c.id for cards, _ in judged for c in cards}
        card = next(c for c in hand if c.id not in used)
        new = [TableMeld(list(cards), kind) for cards, kind in judged]
        if not _last_card_fits(rnd, player, card, hand, new):
            return LAST_CARD_REASON
    if rnd.variant.contract is None or would_meet(rnd, player, judged, hand):
        return None
    if left == 0:
        return "a player cannot go out before meeting the contract"
    if rnd.variant.step("discard") is not None:
        return ("a player who has not met the contract keeps two cards: the last one could not be "
                "discarded, since going out before meeting the contract is refused")
    return None


def single_melds(rnd: Round, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every group of the hand that forms a meld, each once.

    Groups are listed from the kinds' shapes (one rank; one card per sequence
    position) and judged by the kinds' patterns. Hands with wild cards list groups
    of up to :data:`MAX_LISTED` cards by the shapes too (:func:`_wild_groups`);
    kinds with no known shape try every group of up to that many cards.
    """
    rules = rnd.rules
    cards = sorted(hand, key=lambda c: c.id)
    shapes = rules.shapes.values()
    low = max(1, min((shape.min_size for shape in shapes), default=3))
    families = {shape.family for shape in shapes}
    groups: list[tuple[Card, ...]] = []
    if "any" in families:
        for size in range(low, min(len(cards), MAX_LISTED) + 1):
            groups.extend(itertools.combinations(cards, size))
    elif any(c.wild for c in cards):
        groups.extend(_wild_groups(rnd, cards, low))
    else:
        if "same_rank" in families:
            by_rank: dict[int, list[Card]] = {}
            for card in cards:
                assert card.rank is not None
                by_rank.setdefault(card.rank.order, []).append(card)
            for same in by_rank.values():
                for size in range(low, len(same) + 1):
                    groups.extend(itertools.combinations(same, size))
        if "sequence" in families:
            one_suit = all(shape.same_suit for shape in shapes if shape.family == "sequence") and all(
                card.suit is not None for card in cards)
            groups.extend(_sequences(rnd, cards, low, one_suit))
    found = []
    seen: set[int] = set()
    unique = rules.wild_unique_card
    kinds_bits = rules.kinds_bits
    may_form = _shape_test(rnd)
    memo = _melds_memo(rules)
    for group in groups:
        key = 0
        for card in group:
            key |= 1 << card.id
        if key in seen:
            continue
        seen.add(key)
        if unique and any(c.wild for c in group):  # its wild cards' meanings read the hand
            if may_form(group) and rules.kinds_of(group, hand=hand):
                found.append(group)
            continue
        forms = memo.get(key)
        if forms is None:
            if len(memo) >= _MELDS_MEMO_LIMIT:
                memo.clear()
            forms = memo[key] = may_form(group) and bool(kinds_bits(group))
        if forms:
            found.append(group)
    return found


#: The most groups :func:`_melds_memo` keeps for one set of kinds (then it starts again).
_MELDS_MEMO_LIMIT = 1 << 18

_MELDS_MEMO: dict[int, tuple[object, dict[int, bool]]] = {}


def _melds_memo(rules: Any) -> dict[int, bool]:
    """Whether each group (a bitmask of card ids) forms a kind, as :func:`single_melds`
    has judged it: by the kinds' dictionary, which the solvers of one variant's deals
    share (``with_contract``), so that a hand's groups are judged once a game, not at
    every listing. The last few kept."""
    kinds = rules.kinds
    got = _MELDS_MEMO.get(id(kinds))
    if got is None or got[0] is not kinds:
        if len(_MELDS_MEMO) >= 16:
            _MELDS_MEMO.pop(next(iter(_MELDS_MEMO)))
        got = _MELDS_MEMO[id(kinds)] = (kinds, {})
    return got[1]


def _shape_test(rnd: Round) -> Callable[[Sequence[Card]], bool]:
    """A quick necessary condition for a group to form a kind, from the kinds' shapes
    (each a necessary condition, :class:`~rummydsl.melds.KindShape`): its size within
    some kind's bounds, and its natural cards of one rank (``same_rank``), or of one
    suit where the shape keeps one, at distinct sequence positions in a window no
    longer than the group (``sequence``). The patterns still decide; a kind of no
    known shape, cards with several positions and wrapping decks pass."""
    positions = rnd.positions
    shapes = [(shape.family, shape.min_size, shape.max_size, shape.same_suit)
              for shape in rnd.rules.shapes.values()]
    if any(family == "any" for family, _, _, _ in shapes):
        return lambda group: True

    def may_form(group: Sequence[Card]) -> bool:
        size = len(group)
        naturals = [c for c in group if not c.wild]
        for family, low, high, same_suit in shapes:
            if size < low or (high is not None and size > high):
                continue
            if not naturals:
                return True
            ranks = [c.rank.order if c.rank is not None else None for c in naturals]
            if None in ranks:
                return True
            if family == "same_rank":
                if ranks.count(ranks[0]) == len(ranks):
                    return True
                continue
            if same_suit:
                suits = [c.suit.index if c.suit is not None else None for c in naturals]
                if None in suits:
                    return True
                if suits.count(suits[0]) != len(suits):
                    continue
            if positions is None:
                return True
            spots = [positions[c.id] for c in naturals]
            if -1 in spots:
                return True
            if len(set(spots)) == len(spots) and max(spots) - min(spots) < size:
                return True
        return False

    return may_form


def _wild_groups(rnd: Round, cards: Sequence[Card], low: int) -> Iterator[tuple[Card, ...]]:
    """Groups of up to :data:`MAX_LISTED` cards of a hand with wild cards, by the kinds'
    shapes: natural cards of one rank (a same-rank kind) or of one suit (a sequence
    kind that keeps one suit; any naturals otherwise), each with 0, 1, 2 ... of the
    wild cards (the wild cards are taken in hand order: they stand for any card)."""
    wilds = [c for c in cards if c.wild]
    naturals = [c for c in cards if not c.wild]
    buckets: list[list[Card]] = []
    for shape in rnd.rules.shapes.values():
        if shape.family == "same_rank":
            by_rank: dict[int, list[Card]] = {}
            for card in naturals:
                assert card.rank is not None
                by_rank.setdefault(card.rank.order, []).append(card)
            buckets.extend(by_rank.values())
        elif shape.same_suit:
            by_suit: dict[int, list[Card]] = {}
            for card in naturals:
                assert card.suit is not None
                by_suit.setdefault(card.suit.index, []).append(card)
            buckets.extend(by_suit.values())
        else:
            buckets.append(naturals)
    for bucket in buckets:
        for size in range(1, min(len(bucket), MAX_LISTED) + 1):
            for chosen in itertools.combinations(bucket, size):
                for extra in range(0, min(len(wilds), MAX_LISTED - size) + 1):
                    if size + extra >= low:
                        yield (*chosen, *wilds[:extra])
    for size in range(low, min(len(wilds), MAX_LISTED) + 1):  # wild cards alone, where a kind allows it
        yield tuple(wilds[:size])


def _sequences(rnd: Round, cards: Sequence[Card], low: int, one_suit: bool = False) -> Iterator[tuple[Card, ...]]:
    """Groups of one card per position over windows of consecutive sequence positions.

    With ``one_suit`` (every sequence kind keeps one suit, and every other kind is of
    one rank, which no group of distinct positions is) only the groups of one suit,
    in the order of the whole product: the first card's suit, then that suit's cards
    at each further position.
    """
    deck = rnd.variant.deck
    at: dict[int, list[Card]] = {}
    for card in cards:
        assert card.rank is not None
        for position in deck.sequence_positions(card.rank):
            at.setdefault(position, []).append(card)
    for start in sorted(at):
        window: list[list[Card]] = []
        position = start
        while position in at:
            window.append(at[position])
            position += 1
            if len(window) >= low:
                if one_suit:
                    choices: Iterator[tuple[Card, ...]] = (
                        (first, *rest) for first in window[0] for rest in itertools.product(*(
                            [c for c in spot if c.suit.index == first.suit.index]  # type: ignore[union-attr]
                            for spot in window[1:])))
                else:
                    choices = itertools.product(*window)
                for choice in choices:
                    if len({c.id for c in choice}) == len(choice):
                        yield tuple(choice)


def _contract_melds(rnd: Round, player: int) -> Iterator[Meld]:
    """Every lay-down from this hand that meets the contract (SK-5), each once.

    A depth-first search over disjoint candidate melds, bounded by what the
    contract's facts say (how many melds, how big each may be); each collection
    is judged by the contract itself, for every choice of kinds (once per
    collection of kinds and sizes: that is all a contract reads of the melds).
    A branch is entered only if some collection of the candidates' shapes that
    includes it meets the contract (judged once per collection of shapes), so
    the lay-downs listed, and their order, are those of the whole search.
    """
    contract = rnd.variant.contract
    assert contract is not None
    hand = rnd.hands[player]
    facts = getattr(contract.melds, "facts", None)
    fewest = getattr(facts, "min_melds", 1)
    most = getattr(facts, "max_melds", None) or rnd.rules.contract_max_melds or 4
    small = getattr(facts, "min_size", 1)
    big = getattr(facts, "max_size", None) or len(hand)
    candidates = [group for group in single_melds(rnd, hand) if small <= len(group) <= big]
    kinds = [sorted(rnd.rules.kinds_of(group, hand=hand)) for group in candidates]
    masks = [sum(1 << c.id for c in group) for group in candidates]
    meets = rnd.rules.contract  # judged in this round (a contract by deal, CR-2)
    assert meets is not None

    # a contract reads only each meld's kind and size (and the round): a collection is
    # judged as its multiset of (kinds, size) shapes, a count per shape packed in an int
    shape_ids: dict[tuple[tuple[str, ...], int], int] = {}
    sids = [shape_ids.setdefault((tuple(kinds[i]), len(candidates[i])), len(shape_ids))
            for i in range(len(candidates))]
    width = max(most, 1).bit_length() + 1
    codes = [1 << (width * sid) for sid in sids]
    avail = [sids.count(sid) for sid in range(len(shape_ids))]
    first = [sids.index(sid) for sid in range(len(shape_ids))]
    seen: dict[int, bool] = {}

    def judged(chosen: list[int], key: int) -> bool:
        got = seen.get(key)
        if got is None:
            got = seen[key] = any(
                meets([(kind, candidates[i]) for kind, i in zip(choice, chosen)])
                for choice in itertools.product(*(kinds[i] for i in chosen)))
        return got

    reach: dict[int, bool] = {}
    full = (1 << width) - 1

    def reachable(key: int, count: int) -> bool:
        """Whether some collection of these shapes holding ``key``'s melds (each shape at
        most as often as the candidates have it) meets the contract: a branch of the
        search that cannot is skipped (it would list nothing)."""
        got = reach.get(key)
        if got is None:
            got = False
            if count >= fewest:
                chosen = [first[sid] for sid in range(len(avail)) for _ in range(key >> (width * sid) & full)]
                got = any(meets([(kind, candidates[i]) for kind, i in zip(choice, chosen)])
                          for choice in itertools.product(*(kinds[i] for i in chosen)))
            if not got and count < most:
                got = any(key >> (width * sid) & full < avail[sid] and reachable(key + (1 << width * sid), count + 1)
                          for sid in range(len(avail)))
            reach[key] = got
        return got

    prune = [True]

    def worth(key: int, count: int) -> bool:
        if not prune[0]:
            return True
        try:
            return reachable(key, count)
        except RummyDslError:  # the contract failed on some shapes: search as before, to meet it there
            prune[0] = False
            return True

    listed: set[str] = set()  # with several packs, copies of a face make the same lay-down twice

    def search(start: int, used: int, chosen: list[int], key: int) -> Iterator[Meld]:
        if len(chosen) >= fewest and judged(chosen, key):
            meld = Meld(player, tuple(candidates[i] for i in chosen))
            text = str(meld)
            if text not in listed:
                listed.add(text)
                yield meld
        if len(chosen) == most:
            return
        for i in range(start, len(candidates)):
            if not masks[i] & used and worth(key + codes[i], len(chosen) + 1):
                chosen.append(i)
                yield from search(i + 1, used | masks[i], chosen, key + codes[i])
                chosen.pop()

    yield from search(0, 0, [], 0)


class MeldMechanic(Mechanic):
    phase = Phase.MELD

    @staticmethod
    def _step(rnd: Round) -> MeldStep:
        step = rnd.variant.turn[rnd.step]
        assert isinstance(step, MeldStep)
        return step

    def options(self, rnd: Round, player: int) -> list[Action]:
        """The melds and lay-offs the player may make now, one action each."""
        out: list[Action] = []
        hand = rnd.hands[player]
        contract = rnd.variant.contract
        if contract is not None and not rnd.met_contract[player] and contract.concealed_until_met:
            for meld in _contract_melds(rnd, player):
                if sum(map(len, meld.melds)) >= len(hand) - 1 and too_few_left(
                        rnd, player, [(group, first_kind(rnd, group, hand)) for group in meld.melds],
                        hand) is not None:
                    continue
                out.append(meld)
            return out
        if contract is not None and rnd.contract_now and not contract.then_meld_same_turn:
            return out
        if contract is not None and rnd.met_contract[player] and not contract.new_melds_after:
            out.extend(list_layoffs(rnd, player))  # CR-3: after going down, only lay-offs
            return out
        for group in single_melds(rnd, hand):
            if len(group) >= len(hand) - 1 and too_few_left(
                    rnd, player, [(group, first_kind(rnd, group, hand))], hand) is not None:
                continue
            out.append(Meld(player, (group,)))
        out.extend(list_layoffs(rnd, player))
        return out

    def legal(self, rnd: Round, player: int) -> Iterator[Action]:
        from .deep import keeps_use, pending

        options = self.options(rnd, player)
        if pending(rnd) is not None:  # R5-3: keep the deep-drawn card meldable, and meld it
            yield from (action for action in options if keeps_use(rnd, action))
            return
        yield from options
        if (self._step(rnd).optional or not options) and not self._last_card_held(rnd, player):
            yield Done(player)

    def check(self, rnd: Round, action: Action) -> str | None:
        from .deep import keeps_use, pending, pending_reason

        if isinstance(action, (Meld, Layoff)):
            if isinstance(action, Meld):
                rnd.plan(action, self._check_meld(rnd, action))
            else:
                check_layoff(rnd, action)
            if not keeps_use(rnd, action):
                return (f"this would leave {rnd.must_meld} (drawn from deep in the discard pile) "
                        f"with no meld or lay-off this turn (R5-3)")
            return None
        if isinstance(action, Done):
            if pending(rnd) is not None:
                return pending_reason(rnd)
            if not self._step(rnd).optional and self.options(rnd, action.player):
                return "melding is not optional in this variant: put down what you can"
            if self._last_card_held(rnd, action.player):
                return ("the last card cannot be discarded (going_out.final_discard: forbidden): "
                        "lay it off to go out")
            return None
        return "this is the meld step: meld, lay off, or 'done'"

    @staticmethod
    def _last_card_held(rnd: Round, player: int) -> bool:
        """Whether ``player`` holds one card that may not be discarded and can be laid off
        (``forbidden``): the turn may not go on to the discard step."""
        hand = rnd.hands[player]
        return len(hand) == 1 and last_card_stays(rnd) and _last_card_fits(rnd, player, hand[0], hand)

    @staticmethod
    def _check_meld(rnd: Round, action: Meld) -> Judged:
        player = action.player
        hand = rnd.hands[player]
        judged = judge_melds(rnd, player, action.melds, hand, "in hand")
        contract = rnd.variant.contract
        if contract is not None and not rnd.met_contract[player]:
            if contract.concealed_until_met and not contract_ok(rnd, judged, hand):
                raise IllegalActionError("", "the first melds put down must meet the contract")
        elif contract is not None and rnd.contract_now and not contract.then_meld_same_turn:
            raise IllegalActionError("", "no more melding in the turn the contract was met")
        elif contract is not None and not contract.new_melds_after:
            raise IllegalActionError("", "after meeting the contract a player only lays off: "
                                         "no new melds (contract.new_melds_after: false)")
        reason = too_few_left(rnd, player, judged, hand)
        if reason is not None:
            raise IllegalActionError("", reason)
        return judged

    def apply(self, rnd: Round, action: Action) -> None:
        player = action.player
        if isinstance(action, Done):
            rnd.next_step()
            return
        if isinstance(action, Layoff):
            apply_layoff(rnd, action)
        else:
            assert isinstance(action, Meld)
            hand = rnd.hands[player]
            judged = rnd.planned(action) or self._check_meld(rnd, action)
            meets = would_meet(rnd, player, judged, hand)
            for cards, kind in judged:
                for card in cards:
                    rnd.remove(player, card)
                rnd.table[player].append(TableMeld(list(cards), kind, [player] * len(cards)))
            if not rnd.met_contract[player] and meets:
                rnd.met_contract[player] = True
                rnd.contract_now = True
        rnd.put_on_table(player)
        rnd.goes_out(player)  # SK-8, BR-3: going out by melding or laying off
