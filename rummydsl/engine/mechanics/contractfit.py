"""Whether a hand might hold a lay-down that meets the contract, told from counts (SK-5, CR-2).

Every meld step of a player who has not gone down lists the lay-downs that meet the
contract (:func:`.meldlist._contract_melds`); most hands hold none, and building their
groups to find that out was most of a random contract game. :func:`may_meet` answers
"none" for most of them from the hand's counts, before any group is built, and never
for a hand that holds one (``tests/engine/test_contract_listing.py`` holds it to the
whole listing). It reads:

- each kind's shape, a necessary condition of its melds (:class:`~rummydsl.melds.KindShape`):
  a same-rank kind's natural cards share a rank, a sequence kind's take distinct
  positions of one window no longer than the meld (of one suit where it keeps one);
- the listing's wild cards: a listed group with wild cards holds the hand's first ones
  (:func:`.meldlist._wild_groups`), so of disjoint groups at most one has any;
- per kind, the most melds of natural cards alone the hand could make, and a lower bound
  on the wild cards ``t`` melds of it take (:func:`_kind_count`);
- the contract, judged on kinds and sizes alone (all a contract reads of its melds,
  with the round), once per collection of kinds for a hand size (:func:`_vectors`).

A hand can meet the contract only if some collection of kinds that meets it fits these
counts: every kind at most its natural melds, but for one that may take one meld more,
with wild cards enough for it.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence, TypeVar

from ...cards import Card
from ...errors import RummyDslError

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["may_meet", "kinds_used"]

_T = TypeVar("_T")


class _Kind(NamedTuple):
    """One meld kind's shape, as :func:`may_meet` reads it."""

    family: str
    low: int
    """The fewest cards of a meld of the kind (at least 1)."""
    high: int | None
    same_suit: bool


_PLANS: dict[int, tuple[object, "tuple[tuple[_Kind, ...], tuple[int, ...], _Buckets] | None"]] = {}

#: Per contract predicate: the collections of kinds (a count per kind) that meet it, by
#: (hand size, fewest and most melds, least and most cards a meld); ``None`` when the
#: contract failed on kinds and sizes alone (then every hand may meet it).
_VECTORS: dict[int, tuple[object, dict[tuple[int, int, int, int, int], "list[tuple[int, ...]] | None"]]] = {}


def may_meet(rnd: Round, hand: Sequence[Card], fewest: int, most: int, small: int, big: int) -> bool:
    """Whether ``hand`` might hold a collection of disjoint listed melds that meets the
    round's contract: ``False`` only when it holds none (the listing would be empty).

    ``fewest`` to ``most`` melds of ``small`` to ``big`` cards each, as the listing
    searches. Variants whose kinds have no known shape, whose wild cards' meanings
    read the hand, or whose contract is no compiled contract always may."""
    known = _collections(rnd, len(hand), fewest, most, small, big)
    if known is None:
        return True
    (plan, cheap_first, buckets), vectors = known
    if not vectors:
        return False
    wilds = 0
    by_rank: dict[int, int] = {}
    by_suit: dict[int, int] = {}
    codes = _card_codes(rnd.variant.deck)
    for card in hand:
        code = codes[card.id]
        if code is None:
            wilds += 1
        else:
            order, suit, bit = code
            by_rank[order] = by_rank.get(order, 0) + 1
            by_suit[suit] = by_suit.get(suit, 0) + bit
    counts: dict[int, tuple[int, list[int], int]] = {}  # by kind, as a collection asks (same-rank ones first)
    for vector in vectors:
        over = -1
        for j in cheap_first:
            count = vector[j]
            if not count:
                continue
            got = counts.get(j)
            if got is None:
                got = counts[j] = _kind_count(rnd.variant.deck, plan[j], by_rank, by_suit, buckets)
            if count > got[0]:  # more than its natural melds: the one meld with wild cards
                if over >= 0 or not wilds or count > got[0] + 1:
                    break
                over = j
        else:
            if over < 0:
                return True
            count = vector[over]
            _natural, costs, low = counts[over]
            if sum(costs[:count]) + max(0, count - len(costs)) * low <= wilds:
                return True
    return False


_Buckets = dict[tuple[int, int], tuple[int, tuple[int, ...]]]


def kinds_used(rnd: Round, size: int, fewest: int, most: int, small: int, big: int) -> tuple[bool, ...] | None:
    """Whether each kind (in ``kind_names`` order) is in some collection of kinds that
    meets the round's contract (:func:`_vectors`) for a hand of ``size`` cards: a meld of
    none of these kinds is in no lay-down. ``None`` where :func:`may_meet` cannot tell."""
    got = _collections(rnd, size, fewest, most, small, big)
    if got is None:
        return None
    (plan, _cheap_first, _buckets), vectors = got
    return tuple(any(vector[j] for vector in vectors) for j in range(len(plan)))


_Collections = tuple[tuple[tuple[_Kind, ...], tuple[int, ...], _Buckets], list[tuple[int, ...]]]

#: Per round's solver (its contract judged in the round): :func:`_collections`' answers
#: by (hand size, fewest and most melds, least and most cards a meld).
_KNOWN: dict[int, tuple[object, dict[tuple[int, int, int, int, int], "_Collections | None"]]] = {}

#: Per deck: each card's (rank order, suit index, its count's bit in a suit's code), by
#: card id; ``None`` for a wild card (:func:`may_meet`).
_CODES: dict[int, tuple[object, "list[tuple[int, int, int] | None]"]] = {}


def _card_codes(deck: Any) -> list[tuple[int, int, int] | None]:
    """Each of ``deck``'s cards as :func:`may_meet` counts it, by card id (kept per deck)."""

    def build() -> list[tuple[int, int, int] | None]:
        codes: list[tuple[int, int, int] | None] = [None] * (max((card.id for card in deck.cards), default=-1) + 1)
        for card in deck.cards:
            if not card.wild:
                order = card.rank.order
                codes[card.id] = (order, card.suit.index, 1 << (_RANK_BITS * order))
        return codes

    return _kept(_CODES, deck, 16, build)


def _kept(store: dict[int, tuple[object, _T]], owner: object, limit: int, build: Callable[[], _T]) -> _T:
    """What ``store`` keeps for ``owner`` (by its identity), built the first time; the
    oldest of ``limit`` dropped."""
    got = store.get(id(owner))
    if got is None or got[0] is not owner:
        if len(store) >= limit:
            store.pop(next(iter(store)))
        got = store[id(owner)] = (owner, build())
    return got[1]


def _collections(rnd: Round, size: int, fewest: int, most: int, small: int, big: int) -> _Collections | None:
    """The kinds' plan (:func:`_plan`) and the collections of kinds that meet the round's
    contract for a hand of ``size`` cards (:func:`_vectors`); ``None`` where they cannot
    be told: kinds of no known shape, wild cards whose meanings read the hand, a contract
    that is no compiled contract or fails on kinds and sizes. Kept per round's solver."""
    memo = _kept(_KNOWN, rnd.rules, 32, dict)
    key = (size, fewest, most, small, big)
    if key in memo:
        return memo[key]
    known = memo[key] = _collections_of(rnd, size, fewest, most, small, big)
    return known


def _collections_of(rnd: Round, size: int, fewest: int, most: int, small: int, big: int) -> _Collections | None:
    """:func:`_collections`, worked out."""
    rules = rnd.rules
    meets = rules.contract
    if rules.wild_unique_card or meets is None or not isinstance(getattr(meets, "names", None), frozenset):
        return None
    planned = _plan(rnd)
    if planned is None:
        return None
    vectors = _vectors(meets, planned[0], rules.kind_names, size, fewest, most, small, big)
    return None if vectors is None else (planned, vectors)


def _plan(rnd: Round) -> tuple[tuple[_Kind, ...], tuple[int, ...], _Buckets] | None:
    """Each kind's shape in ``kind_names`` order, the kinds' places with the same-rank ones
    first (the cheaper to count), and the sequence buckets judged so far (:func:`_bucket`),
    kept by the kinds' dictionary; ``None`` when some kind has no known shape."""
    rules = rnd.rules
    kinds = rules.kinds
    got = _PLANS.get(id(kinds))
    if got is None or got[0] is not kinds:
        plan = tuple(_Kind(shape.family, max(1, shape.min_size), shape.max_size, shape.same_suit)
                     for shape in (rules.shapes[name] for name in rules.kind_names))
        if len(_PLANS) >= 16:
            _PLANS.pop(next(iter(_PLANS)))
        known = all(kind.family in ("same_rank", "sequence") for kind in plan)
        cheap_first = tuple(sorted(range(len(plan)), key=lambda j: plan[j].family != "same_rank"))
        got = _PLANS[id(kinds)] = (kinds, (plan, cheap_first, {}) if known else None)
    return got[1]


#: Bits a rank's count takes in a bucket's code (:func:`may_meet`).
_RANK_BITS = 8


def _kind_count(deck: Any, kind: _Kind, by_rank: dict[int, int], by_suit: dict[int, int],
                buckets: _Buckets) -> tuple[int, list[int], int]:
    """For one kind: the most disjoint melds of the hand's natural cards alone it could
    make, the wild cards each further meld takes at least (sorted: the ``t`` cheapest sum
    to a lower bound on the wild cards of ``t`` disjoint melds; past them each takes a
    whole meld's ``low``), and ``low``. ``by_rank`` counts the hand's natural cards of
    each rank, ``by_suit`` codes each suit's (a count a rank, :data:`_RANK_BITS` bits
    each).

    A same-rank meld of ``low`` or more takes its naturals from one rank: a rank of ``c``
    cards makes ``c // low`` natural melds, then one short of ``low - c % low``. A
    sequence takes one card a position of one window, of one suit where the kind keeps
    one (:func:`_bucket`)."""
    low = kind.low
    costs: list[int] = []
    natural = 0
    if kind.family == "same_rank":
        for count in by_rank.values():
            natural += count // low
            if count % low:
                costs.append(low - count % low)
        costs.extend([0] * natural)
    else:
        for code in (by_suit.values() if kind.same_suit else (sum(by_suit.values()),) if by_suit else ()):
            judged = buckets.get((code, low))
            if judged is None:
                if len(buckets) >= 1 << 16:
                    buckets.clear()
                judged = buckets[(code, low)] = _bucket(deck, code, low)
            natural += judged[0]
            costs.extend(judged[1])
    costs.sort()
    return natural, costs, low


def _bucket(deck: Any, code: int, low: int) -> tuple[int, tuple[int, ...]]:
    """For one bucket of a sequence kind (its count of each rank, :data:`_RANK_BITS` bits
    a rank from the lowest): the most disjoint sequences of ``low`` or more of its cards
    alone, and the wild cards one, two ... more of them take at least, while under
    ``low``. The natural ones lie in runs of consecutive held positions, ``cards // low``
    each; one sequence takes at least the positions its best window of ``low`` misses,
    ``t`` of them ``t * low`` less the cards. A wrapping deck counts cards only."""
    levels: list[int] = []  # levels[k]: the positions held more than k times, a bit each
    cards = 0
    spot_of = _spots(deck)
    # a rank's count is one byte of the code (:data:`_RANK_BITS` is 8), order 0 unused
    for order, count in enumerate(code.to_bytes((code.bit_length() + 7) // 8, "little")):
        if count:
            cards += count
            spots = spot_of[order]
            for k in range(count):
                if k < len(levels):
                    levels[k] |= spots
                else:
                    levels.append(spots)
    if deck.wrap or not levels:
        natural, short = cards // low, max(0, low - cards)
    else:
        held = levels[0]
        natural = 0
        rest = held
        while rest:  # runs of consecutive held positions
            lowest = rest & -rest
            run = ((rest + lowest) ^ rest) & rest
            if run.bit_count() >= low:
                natural += sum((level & run).bit_count() for level in levels) // low
            rest ^= run
        window = (1 << low) - 1
        short = low
        rest = held
        while rest:
            lowest = rest & -rest
            short = min(short, low - ((held // lowest) & window).bit_count())
            rest ^= lowest
    costs = []
    before = 0
    for t in range(1, cards // low + 2):
        need = max(short, t * low - cards)
        if need - before >= low:
            break
        costs.append(need - before)
        before = need
    return natural, tuple(costs)


#: Per deck: the positions each rank may take in a sequence, a bit each, by rank order.
_SPOTS: dict[int, tuple[object, tuple[int, ...]]] = {}


def _spots(deck: Any) -> tuple[int, ...]:
    """The sequence positions of each of ``deck``'s ranks as a bit mask, by rank order
    (index 0 unused), kept per deck (:func:`_bucket`)."""

    def build() -> tuple[int, ...]:
        spots = [0]
        for rank in deck.ranks:
            bits = 0
            for position in deck.sequence_positions(rank):
                bits |= 1 << position
            spots.append(bits)
        return tuple(spots)

    return _kept(_SPOTS, deck, 16, build)


def _vectors(meets: Callable[..., Any], plan: Sequence[_Kind], names: Sequence[str], size: int, fewest: int,
             most: int, small: int, big: int) -> list[tuple[int, ...]] | None:
    """The collections of kinds (a count per kind) whose melds, of sizes their shapes and
    ``small``..``big`` allow and ``size`` cards in all at most, can meet ``meets``; kept
    per contract. ``None`` if the contract failed on them (:class:`RummyDslError`)."""
    memo = _kept(_VECTORS, meets, 32, dict)
    key = (size, fewest, most, small, big)
    if key in memo:
        return memo[key]
    reads_sizes = bool(getattr(meets, "names") & {"size", "cards"})
    found: list[tuple[int, ...]] = []
    tops = [size if kind.high is None else min(size, kind.high) for kind in plan]
    try:
        for count in range(max(1, fewest), most + 1):
            for combo in itertools.combinations_with_replacement(range(len(plan)), count):
                lows = [max(plan[j].low, small) for j in combo]
                highs = [min(big, tops[j]) for j in combo]
                if sum(lows) > size or any(lo > hi for lo, hi in zip(lows, highs)):
                    continue
                if _met(meets, [names[j] for j in combo], lows, highs, size, reads_sizes):
                    vector = [0] * len(plan)
                    for j in combo:
                        vector[j] += 1
                    found.append(tuple(vector))
    except RummyDslError:
        memo[key] = None
        return None
    memo[key] = found
    return found


def _met(meets: Callable[..., Any], kinds: list[str], lows: list[int], highs: list[int], size: int,
         reads_sizes: bool) -> bool:
    """Whether melds of ``kinds`` (sorted), of sizes ``lows``..``highs`` each and ``size``
    cards in all at most, can meet ``meets``: a contract that reads no size is asked
    once; the melds of one kind take their sizes in rising order (a contract reads its
    melds as a collection)."""
    if not reads_sizes:
        return bool(meets([(kind, (None,) * low) for kind, low in zip(kinds, lows)]))
    sizes: list[int] = []

    def fill(at: int, left: int) -> bool:
        if at == len(kinds):
            return bool(meets([(kind, (None,) * n) for kind, n in zip(kinds, sizes)]))
        start = lows[at]
        if at and kinds[at] == kinds[at - 1]:
            start = max(start, sizes[-1])
        for n in range(start, min(highs[at], left - sum(lows[at + 1:])) + 1):
            sizes.append(n)
            if fill(at + 1, left - n):
                return True
            sizes.pop()
        return False

    return fill(0, size)
