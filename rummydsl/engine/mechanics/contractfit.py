"""Whether a hand might hold a lay-down that meets the contract, told from counts (SK-5, CR-2).

Every meld step of a player who has not gone down lists the lay-downs that meet the
contract (:func:`.contractlist._contract_melds`); most hands hold none, and building their
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
  on the wild cards ``t`` melds of it take (:func:`_same_rank_costs`, :func:`_bucket`);
- the contract, judged on kinds and sizes alone (all a contract reads of its melds,
  with the round), once per collection of kinds for a hand size (:func:`_vectors`).

A hand can meet the contract only if some collection of kinds that meets it fits these
counts: every kind at most its natural melds, but for one that may take one meld more,
with wild cards enough for it.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from ...cards import Card
from ...errors import RummyDslError
from .keep import kept

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["may_meet", "kinds_used"]



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
_VECTORS: dict[int, tuple[object, object, dict[tuple[int, int, int, int, int], "list[tuple[int, ...]] | None"]]] = {}


def may_meet(rnd: Round, hand: Sequence[Card], fewest: int, most: int, small: int, big: int) -> bool:
    """Whether ``hand`` might hold a collection of disjoint listed melds that meets the
    round's contract: ``False`` only when it holds none (the listing would be empty).

    ``fewest`` to ``most`` melds of ``small`` to ``big`` cards each, as the listing
    searches. Variants whose kinds have no known shape, whose wild cards' meanings
    read the hand, or whose contract is no compiled contract always may."""
    memo = kept(_KNOWN, rnd.rules, 32, dict)
    key = (len(hand), fewest, most, small, big)
    known = memo.get(key, _UNKNOWN)
    if known is _UNKNOWN:
        known = _collections(rnd, len(hand), fewest, most, small, big)
    if known is None:
        return True
    (plan, cheap_first, buckets), vectors = known
    if not vectors:
        return False
    deck = rnd.variant.deck
    layout = _LAST_LAYOUT[1] if _LAST_LAYOUT[0] is deck else _layout(deck)
    total = sum(map(layout.codes.__getitem__, map(_ID, hand)))  # every count of the hand, a byte each
    wilds = total >> layout.wild_shift
    mask = layout.mask
    by_suit = [code for code in [total >> shift & mask for shift in layout.shifts] if code]
    by_rank = sum(by_suit).to_bytes(layout.width, "little") if layout.sums_fit else layout.rank_counts(by_suit)
    # each kind's natural melds, as a collection asks (same-rank ones first): a collection
    # fits when no kind takes more, but for one meld more of one kind with wild cards enough
    naturals: dict[int, int] = {}
    for vector in vectors:
        over = -1
        for j in cheap_first:
            count = vector[j]
            if not count:
                continue
            natural = naturals.get(j)
            if natural is None:
                kind = plan[j]
                natural = naturals[j] = (
                    _same_rank_natural(by_rank, kind.low) if kind.family == "same_rank"
                    else _sequence_natural(deck, kind, by_suit, buckets))
            if count > natural:  # more than its natural melds: the one meld with wild cards
                if over >= 0 or not wilds or count > natural + 1:
                    break
                over = j
        else:
            if over < 0:
                return True
            count = vector[over]
            kind = plan[over]
            costs = _same_rank_costs(by_rank, kind.low) if kind.family == "same_rank" else sorted(
                cost for judged in _sequence_buckets(deck, kind, by_suit, buckets) for cost in judged[1])
            if sum(costs[:count]) + max(0, count - len(costs)) * kind.low <= wilds:
                return True
    return False


_UNKNOWN: Any = object()  # (not yet asked: :data:`_KNOWN`)
_ID = operator.attrgetter("id")


_Buckets = dict[int, dict[int, tuple[int, tuple[int, ...]]]]


def kinds_used(rnd: Round, size: int, fewest: int, most: int, small: int, big: int) -> tuple[bool, ...] | None:
    """Whether each kind (in ``kind_names`` order) is in some collection of kinds that
    meets the round's contract (:func:`_vectors`) for a hand of ``size`` cards: a meld of
    none of these kinds is in no lay-down. ``None`` where :func:`may_meet` cannot tell."""
    got = _collections(rnd, size, fewest, most, small, big)
    if got is None:
        return None
    (plan, _cheap_first, _buckets), vectors = got
    return tuple(any(vector[j] for vector in vectors) for j in range(len(plan)))


#: The kinds' plan and the collections of kinds that meet the contract (:func:`may_meet`).
_Collections = tuple[tuple[tuple[_Kind, ...], tuple[int, ...], _Buckets], list[tuple[int, ...]]]

#: Per round's solver (its contract judged in the round): :func:`_collections`' answers
#: by (hand size, fewest and most melds, least and most cards a meld).
_KNOWN: dict[int, tuple[object, object, dict[tuple[int, int, int, int, int], "_Collections | None"]]] = {}

class _Layout:
    """How :func:`may_meet` counts a hand of one deck in one int: a byte a (suit, rank
    order) and the wild cards above them, each card's share of the sum by its id. A
    suit's slice of the sum is its bucket code (:func:`_bucket`): a byte a rank order,
    from order 0 (unused)."""

    __slots__ = ("codes", "wild_shift", "slot", "suits", "mask", "sums_fit", "shifts", "width")

    def __init__(self, deck: Any) -> None:
        naturals = [card for card in deck.cards if not card.wild]
        self.slot = _RANK_BITS * (max((card.rank.order for card in naturals), default=0) + 1)
        self.suits = max((card.suit.index for card in naturals), default=-1) + 1
        self.mask = (1 << self.slot) - 1
        self.wild_shift = self.slot * self.suits
        self.shifts = tuple(self.slot * suit for suit in range(self.suits))  # (each suit's slice)
        self.width = self.slot // _RANK_BITS  # (the bytes of a slice)
        codes = [0] * (max((card.id for card in deck.cards), default=-1) + 1)
        for card in deck.cards:
            codes[card.id] = (1 << self.wild_shift) if card.wild else (
                1 << (self.slot * card.suit.index + _RANK_BITS * card.rank.order))
        self.codes = codes
        copies: dict[tuple[int, int], int] = {}
        for card in naturals:
            face = (card.suit.index, card.rank.order)
            copies[face] = copies.get(face, 0) + 1
        self.sums_fit = max(copies.values(), default=0) * self.suits < 1 << _RANK_BITS

    def rank_counts(self, suit_codes: Sequence[int]) -> Sequence[int]:
        """The hand's natural cards of each rank, by rank order, from its suits' codes."""
        width = self.width
        if self.sums_fit:  # no rank's count over a byte: the codes' sum counts them
            return sum(suit_codes).to_bytes(width, "little")
        counts = [0] * width
        for code in suit_codes:
            for order, count in enumerate(code.to_bytes(width, "little")):
                counts[order] += count
        return counts


#: Per deck: its :class:`_Layout`.
_LAYOUTS: dict[int, tuple[object, object, _Layout]] = {}


def _layout(deck: Any) -> _Layout:
    """``deck``'s :class:`_Layout`, kept per deck (the last one asked also in :data:`_LAST_LAYOUT`)."""
    layout = kept(_LAYOUTS, deck, 16, lambda: _Layout(deck))
    _LAST_LAYOUT[:] = [deck, layout]
    return layout


#: The deck :func:`_layout` was last asked about, and its layout (a game asks about one deck).
_LAST_LAYOUT: list[Any] = [None, None]


def _collections(rnd: Round, size: int, fewest: int, most: int, small: int, big: int) -> _Collections | None:
    """The kinds' plan (:func:`_plan`) and the collections of kinds that meet the round's
    contract for a hand of ``size`` cards (:func:`_vectors`); ``None`` where they cannot
    be told: kinds of no known shape, wild cards whose meanings read the hand, a contract
    that is no compiled contract or fails on kinds and sizes. Kept per round's solver."""
    memo = kept(_KNOWN, rnd.rules, 32, dict)
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
    if vectors is None:
        return None
    return planned, vectors


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


def _same_rank_natural(by_rank: Sequence[int], low: int) -> int:
    """The most disjoint melds of ``low`` or more natural cards of one rank that cards
    counted ``by_rank`` (by rank order) could make: a rank of ``c`` cards makes
    ``c // low``."""
    if isinstance(by_rank, bytes) and low < 256:
        return sum(by_rank.translate(_tables(low)[0]))
    return sum(count // low for count in by_rank)


def _same_rank_costs(by_rank: Sequence[int], low: int) -> list[int]:
    """The wild cards each further same-rank meld of ``low`` or more takes at least, sorted:
    none for the natural ones (:func:`_same_rank_natural`), then ``low - c % low`` for a rank
    of ``c`` cards short of a whole meld (the ``t`` cheapest sum to a lower bound on the wild
    cards of ``t`` disjoint melds; past them each takes a whole meld's ``low``)."""
    if isinstance(by_rank, bytes) and low < 256:
        short = by_rank.translate(_tables(low)[1])
        costs = [0] * sum(by_rank.translate(_tables(low)[0]))
        for need in range(1, low):
            costs.extend([need] * short.count(need))
        return costs
    costs = [low - count % low for count in by_rank if count % low]
    costs.extend([0] * _same_rank_natural(by_rank, low))
    costs.sort()
    return costs


#: Per meld size ``low``: a rank's count to its natural melds, and to the cards its
#: last meld lacks (0 for none), as :meth:`bytes.translate` tables.
_TABLES: dict[int, tuple[bytes, bytes]] = {}


def _tables(low: int) -> tuple[bytes, bytes]:
    """:data:`_TABLES` for ``low`` (less than 256)."""
    got = _TABLES.get(low)
    if got is None:
        got = _TABLES[low] = (bytes(count // low for count in range(256)),
                              bytes(low - count % low if count % low else 0 for count in range(256)))
    return got


def _sequence_buckets(deck: Any, kind: _Kind, by_suit: Sequence[int],
                      buckets: _Buckets) -> list[tuple[int, tuple[int, ...]]]:
    """:func:`_bucket` of each bucket a sequence kind takes its melds from (a suit's
    natural cards where it keeps one suit, all of them otherwise; ``by_suit`` codes the
    suits that have some), judged once per code (kept in ``buckets``)."""
    low = kind.low
    kept = buckets.get(low)
    if kept is None:
        kept = buckets[low] = {}
    out = []
    for code in (by_suit if kind.same_suit else (sum(by_suit),) if by_suit else ()):
        judged = kept.get(code)
        if judged is None:
            if len(kept) >= 1 << 16:
                kept.clear()
            judged = kept[code] = _bucket(deck, code, low)
        out.append(judged)
    return out


def _sequence_natural(deck: Any, kind: _Kind, by_suit: Sequence[int], buckets: _Buckets) -> int:
    """The natural melds of :func:`_sequence_buckets`' buckets, summed (as it keeps them)."""
    low = kind.low
    kept = buckets.get(low)
    if kept is None:
        kept = buckets[low] = {}
    natural = 0
    for code in (by_suit if kind.same_suit else (sum(by_suit),) if by_suit else ()):
        judged = kept.get(code)
        if judged is None:
            if len(kept) >= 1 << 16:
                kept.clear()
            judged = kept[code] = _bucket(deck, code, low)
        natural += judged[0]
    return natural


def _bucket(deck: Any, code: int, low: int) -> tuple[int, tuple[int, ...]]:
    """For one bucket of a sequence kind (its count of each rank, :data:`_RANK_BITS` bits
    a rank from the lowest): the most disjoint sequences of ``low`` or more of its cards
    alone, and the wild cards one, two ... more of them take at least, while under
    ``low``. The natural ones lie in runs of consecutive held positions, ``cards // low``
    each; one sequence takes at least the positions its best window of ``low`` misses,
    ``t`` of them ``t * low`` less the cards. A wrapping deck counts cards only.

    Read in ints of a byte a place (:class:`_Positions`): the code moved to a byte a
    sequence position, a 1 a held position, and one product summing those over each
    window of ``low``; the runs are read only where some window is all held."""
    table = _by_position(deck)
    if table is None or low >= 256:
        return _bucket_by_levels(deck, code, low)
    if table.sums_fit:  # (no sum of a code's bytes reaches 256: one product sums them)
        cards = (code * table.ones) >> table.top_shift & 255
    else:
        cards = sum(code.to_bytes(table.orders, "little"))
    if deck.wrap or not cards:
        return _costs(cards, low, cards // low, max(0, low - cards))
    spots = 0  # a byte a sequence position: its rank's count
    for mask, shift in table.moves:
        spots |= (code & mask) << shift if shift >= 0 else (code & mask) >> -shift
    held = (((spots & table.low7) + table.low7) | spots) >> 7 & table.held_ones  # a 1 a held position
    span = min(low, table.positions)
    widest = max((held * table.windows[span]).to_bytes(table.positions + span, "little"))
    natural = 0
    if widest >= low:  # some run of consecutive held positions is ``low`` long or more
        for run in spots.to_bytes(table.positions, "little").split(b"\0"):
            if len(run) >= low:
                natural += sum(run) // low
    return _costs(cards, low, natural, low - widest)


class _Positions(NamedTuple):
    """How :func:`_bucket` reads a deck's bucket codes a byte a sequence position."""

    orders: int
    """The bytes of a code (a rank order each, from 0)."""
    moves: tuple[tuple[int, int], ...]
    """The code's bytes that one shift takes to their positions: (a mask, the shift in bits)."""
    positions: int
    """The sequence positions (from 0)."""
    low7: int
    """0x7f a position."""
    held_ones: int
    """1 a position."""
    windows: tuple[int, ...]
    """By a window's length ``n``: 1 in each of the ``n`` lowest bytes (the product by it
    sums each byte with the ``n - 1`` below it)."""
    sums_fit: bool
    """Whether a bucket's cards (the deck's natural cards at most) number under 256."""
    ones: int
    """1 a rank order (the product by it sums a code's bytes into its top one)."""
    top_shift: int
    """Where that sum stands in the product."""


#: Per deck: its :class:`_Positions`, or ``None`` where some position is taken by two
#: ranks, or the ranks' orders are not 1, 2, 3 ... (:func:`_bucket` then counts by levels).
_BY_POSITION: dict[int, tuple[object, object, "_Positions | None"]] = {}


def _by_position(deck: Any) -> _Positions | None:
    """Where :func:`_bucket` reads each sequence position's count in a bucket's code,
    kept per deck (:data:`_BY_POSITION`)."""

    def build() -> _Positions | None:
        if [rank.order for rank in deck.ranks] != list(range(1, len(deck.ranks) + 1)):
            return None
        spots = _spots(deck)
        orders = len(spots)
        top = max((spot.bit_length() for spot in spots), default=0)
        if not top:
            return None
        taken = 0
        moves: dict[int, int] = {}  # by shift (the position less the order, in bits): the bytes it moves
        for order, spot in enumerate(spots):
            for position in range(top):
                if spot >> position & 1:
                    if taken >> position & 1:
                        return None
                    taken |= 1 << position
                    shift = _RANK_BITS * (position - order)
                    moves[shift] = moves.get(shift, 0) | 255 << (_RANK_BITS * order)
        held_ones = sum(1 << (_RANK_BITS * position) for position in range(top))
        windows = tuple(sum(1 << (_RANK_BITS * k) for k in range(n)) for n in range(top + 1))
        naturals = sum(1 for card in deck.cards if not card.wild)
        return _Positions(orders, tuple((mask, shift) for shift, mask in sorted(moves.items())), top,
                          0x7F * held_ones, held_ones, windows, naturals < 256,
                          sum(1 << (_RANK_BITS * order) for order in range(orders)), _RANK_BITS * (orders - 1))

    return kept(_BY_POSITION, deck, 16, build)


def _bucket_by_levels(deck: Any, code: int, low: int) -> tuple[int, tuple[int, ...]]:
    """:func:`_bucket` for any deck: each position held at least once, twice ... a bit mask each."""
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
    return _costs(cards, low, natural, short)


def _costs(cards: int, low: int, natural: int, short: int) -> tuple[int, tuple[int, ...]]:
    """:func:`_bucket`'s answer for a bucket of ``cards`` cards whose natural sequences
    number ``natural``, and whose best window of ``low`` misses ``short`` positions
    (kept: a few hundred such answers serve every bucket)."""
    key = (cards, low, natural, short)
    got = _COSTS.get(key)
    if got is None:
        costs = []
        before = 0
        for t in range(1, cards // low + 2):
            need = max(short, t * low - cards)
            if need - before >= low:
                break
            costs.append(need - before)
            before = need
        if len(_COSTS) >= 1 << 12:
            _COSTS.clear()
        got = _COSTS[key] = (natural, tuple(costs))
    return got


#: :func:`_costs`' answers, by its arguments.
_COSTS: dict[tuple[int, int, int, int], tuple[int, tuple[int, ...]]] = {}


#: Per deck: the positions each rank may take in a sequence, a bit each, by rank order.
_SPOTS: dict[int, tuple[object, object, tuple[int, ...]]] = {}


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

    return kept(_SPOTS, deck, 16, build)


def _vectors(meets: Callable[..., Any], plan: Sequence[_Kind], names: Sequence[str], size: int, fewest: int,
             most: int, small: int, big: int) -> list[tuple[int, ...]] | None:
    """The collections of kinds (a count per kind) whose melds, of sizes their shapes and
    ``small``..``big`` allow and ``size`` cards in all at most, can meet ``meets``; kept
    per contract. ``None`` if the contract failed on them (:class:`RummyDslError`)."""
    memo = kept(_VECTORS, meets, 32, dict)
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
