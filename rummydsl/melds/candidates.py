"""Candidate melds from the kinds' shapes: every group of some cards that is a meld.

The groups are listed from each kind's :class:`~rummydsl.melds.KindShape`
(groups of one rank: every subset of a rank's cards with 0 or more wilds;
sequences: one card per sequence position over a window, wilds filling gaps and
ends, the ace at each of its positions, wrap only where the deck declares it;
family ``any``: every subset) and each is judged by the predicates, so the
predicates alone decide what a meld is.

Cards are *local*: bit ``i`` of a local mask is ``natural_ids[i]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from ..limits import MAX_MELD_WORK
from .core import MeldCore, WorkBoundError, bits_of

__all__ = ["Candidate", "Emit", "candidates", "generate", "PoolMelds"]

Emit = Callable[[int, int, int], None]
"""Receives one group: ``emit(local mask, card-id mask, wild cards)``."""

_Grow = Callable[[int, int, int, int, int, int, "_Grow"], None]
""":func:`_sequences`' recursion, passed itself."""


Candidate = tuple[int, int, int, int]
"""A group of a hand that is a meld: ``(local mask, wild cards, natural card-id mask,
kinds bitmask)``; the local mask's bit ``i`` is ``natural_ids[i]``. A plain tuple:
a named tuple costs about half a microsecond more per candidate, and a hand has
hundreds (a tenth of a Ginski solve)."""


def candidates(core: MeldCore, natural_ids: Sequence[int], wilds: int, *, short: bool = False,
               work: list[int] | None = None) -> list[Candidate]:
    """Every group of the given natural cards plus 0..``wilds`` wild cards that is a meld.

    With ``short`` (wild-free hands only), a family whose kinds all split
    (:func:`~rummydsl.melds.shapes.split_sizes`) stops below the size from which its
    melds split into smaller ones: the cost search needs no more.

    ``work`` is the question's work left (``[count]``, shared with the search): each
    group generated takes one, and running out raises :class:`WorkBoundError`
    naming the kinds of the family being generated.
    """
    seen: set[int] = set()
    out: list[Candidate] = []
    shift = len(natural_ids) + 1
    judge = core._judge
    judged = core._judged
    size = core._size
    left = work if work is not None else [MAX_MELD_WORK]
    family: list[int] = [0]

    def emit(local_mask: int, natural_mask: int, k: int) -> None:
        key = (k << shift) | local_mask
        if key in seen:
            return
        left[0] -= 1
        if left[0] < 0:
            raise WorkBoundError(core._family_kinds[family[0]])
        seen.add(key)
        kinds = judged.get(natural_mask | (k << size))
        if kinds is None:
            kinds = judge(natural_mask, k)
        if kinds:
            out.append((local_mask, k, natural_mask, kinds))

    for f, shape in enumerate(core._families):
        family[0] = f
        top_size = shape.max_size
        cap = core._family_caps[f]
        if short and cap is not None and (top_size is None or cap < top_size):
            top_size = cap
        if shape.per_suit:
            by_suit: dict[int, list[int]] = {}
            suit_of = core._suit_index
            for i, cid in enumerate(natural_ids):
                by_suit.setdefault(suit_of[cid], []).append(i)
            for members in by_suit.values():
                generate(core, shape.family, natural_ids, members, wilds, shape.min_size, top_size, emit)
        else:
            generate(core, shape.family, natural_ids, range(len(natural_ids)), wilds,
                     shape.min_size, top_size, emit)
        top = wilds if shape.max_size is None else min(wilds, shape.max_size)
        for k in range(max(shape.min_size, 1), top + 1):
            emit(0, 0, k)  # groups of wild cards alone
    return out


class PoolMelds:
    """The melds :func:`candidates` finds among some natural cards and 0..``wilds`` wild
    cards, as ``(natural card-id mask, wild cards)``, without the work bound or the local
    masks (:meth:`melds`): each family's groups are listed per pool (a suit's cards for a
    family kept in one suit, a rank's cards for groups of one rank, as :func:`candidates`
    splits them), judged, and the melds kept by ``(family, the pool's card-id mask, wilds)``,
    so a pool met again costs one lookup. With ``ranks`` (the caller's word that renaming
    the suits keeps every meld a meld, and card ``suit * ranks + r`` is the ``r``-th rank of
    its suit) a pool of one suit's cards is kept as the same ranks in suit 0 and shifted
    back, so that one listing answers for every suit. A group two families list comes
    twice, and the groups of wild cards alone (mask 0) once per family; the order is not
    :func:`candidates`' (callers that take the least of something over the melds need
    neither)."""

    def __init__(self, core: MeldCore, ranks: int = 0) -> None:
        self.core = core
        self.ranks = ranks
        self.memo: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}
        """The melds of a pool: by (family, pool card-id mask, wild cards)."""
        span = max(core._rank_order, default=0) + 1
        self._pool_of = [tuple((max(core._suit_index[c], 0) if shape.per_suit else 0) * span
                               + (core._rank_order[c] if shape.family == "same_rank" else 0)
                               for c in range(core._size)) for shape in core._families]
        """Per family: card id -> the pool it falls in (suit and rank as the family splits)."""
        self._grouped: dict[tuple[int, int, int], tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = {}
        """A pool's melds by lowest card id (:meth:`by_lowest`): by (family, pool card-id mask, wild cards)."""
        self._alone: dict[int, tuple[tuple[int, int], ...]] = {}
        """Wild cards -> the groups of wild cards alone that meld, once per family."""
        naturals = [c.id for c in core._cards if not c.wild]
        self.pool_masks: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(1 << d for d in naturals if pool_of[d] == pool_of[c]) for c in range(core._size))
            for pool_of in self._pool_of)
        """Per family: card id -> the card-id mask of the natural cards of its pool."""
        self._counts: dict[int, list[int]] = {}

    def melds(self, natural_ids: Sequence[int], wilds: int) -> list[tuple[int, int]]:
        """The melds of the natural cards ``natural_ids`` and 0..``wilds`` wild cards (class docs)."""
        core = self.core
        memo = self.memo
        ranks = self.ranks
        out: list[tuple[int, int]] = []
        for f, shape in enumerate(core._families):
            pool_of = self._pool_of[f]
            pools: dict[int, int] = {}
            for cid in natural_ids:
                where = pool_of[cid]
                pools[where] = pools.get(where, 0) | 1 << cid
            per_suit = ranks and shape.per_suit
            for pool in pools.values():
                shift = 0
                if per_suit:
                    shift = (pool & -pool).bit_length() - 1
                    shift -= shift % ranks
                    pool >>= shift
                got = memo.get((f, pool, wilds))
                if got is None:
                    got = self._listed(f, pool, wilds)
                if shift:
                    out.extend([(natural << shift, k) for natural, k in got])
                else:
                    out.extend(got)
        if wilds:
            out.extend(self.wild_alone(wilds))
        return out

    def by_lowest(self, part: int, wilds: int) -> dict[int, list[tuple[int, int]]]:
        """:meth:`melds` of the natural cards of card-id mask ``part`` (their groups of wild
        cards alone left out), by each group's lowest card id: each pool's groups kept by
        lowest card in the pool's own suit too, so that a pool met again costs one lookup
        and a list extended per card. The pools are read by mask (:attr:`pool_masks`: a
        pool's cards of the part at once), not card by card."""
        out: dict[int, list[tuple[int, int]]] = {}
        m = part
        while m:
            low = m & -m
            out[low.bit_length() - 1] = []
            m ^= low
        grouped = self._grouped
        f = 0
        for masks in self.pool_masks:
            m = part
            while m:
                pool = part & masks[(m & -m).bit_length() - 1]
                m ^= pool
                got = grouped.get((f, pool, wilds))
                if got is None:
                    got = self._group(f, pool, wilds)
                for cid, melds in got:
                    out[cid] += melds
            f += 1
        return out

    def wild_counts(self, wilds: int) -> list[int]:
        """The wild card counts of :meth:`wild_alone`'s groups, each once (kept)."""
        got = self._counts.get(wilds)
        if got is None:
            got = self._counts[wilds] = []
            for _, k in self.wild_alone(wilds):
                if k not in got:
                    got.append(k)
        return got

    def _group(self, f: int, pool: int, wilds: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """Family ``f``'s melds of the pool ``pool`` by lowest card id (for :meth:`by_lowest`), kept."""
        shift = 0
        listed = pool
        if self.ranks and self.core._families[f].per_suit:
            shift = (pool & -pool).bit_length() - 1
            shift -= shift % self.ranks
            listed >>= shift
        melds = self.memo.get((f, listed, wilds))
        if melds is None:
            melds = self._listed(f, listed, wilds)
        by: dict[int, list[tuple[int, int]]] = {}
        for natural, k in melds:
            natural <<= shift
            by.setdefault((natural & -natural).bit_length() - 1, []).append((natural, k))
        grouped = self._grouped
        if len(grouped) >= GENERATED_LIMIT:
            grouped.clear()
        got = grouped[(f, pool, wilds)] = tuple((cid, tuple(group)) for cid, group in by.items())
        return got

    def _listed(self, f: int, pool: int, wilds: int) -> tuple[tuple[int, int], ...]:
        """Family ``f``'s melds of the pool ``pool`` (a card-id mask), listed, judged and kept."""
        core = self.core
        shape = core._families[f]
        judge = core._judge
        judged = core._judged
        size = core._size
        ids = list(bits_of(pool))
        found: list[tuple[int, int]] = []

        def record(_local: int, natural_mask: int, k: int) -> None:
            kinds = judged.get(natural_mask | (k << size))
            if kinds is None:
                kinds = judge(natural_mask, k)
            if kinds:
                found.append((natural_mask, k))

        if shape.family == "sequence":
            _sequences(core, ids, range(len(ids)), wilds, shape.min_size, shape.max_size, record)
        else:  # groups of one rank (the pool is one rank's cards), or any subset
            _subsets(range(len(ids)), ids, wilds, shape.min_size, shape.max_size, record)
        memo = self.memo
        if len(memo) >= GENERATED_LIMIT:
            memo.clear()
        got = memo[(f, pool, wilds)] = tuple(found)
        return got

    def wild_alone(self, wilds: int) -> tuple[tuple[int, int], ...]:
        """The groups of 1..``wilds`` wild cards alone that meld, once per family that lists them (kept)."""
        got = self._alone.get(wilds)
        if got is None:
            got = self._alone[wilds] = self._wild_alone(wilds)
        return got

    def _wild_alone(self, wilds: int) -> tuple[tuple[int, int], ...]:
        core = self.core
        out = []
        for shape in core._families:
            top = wilds if shape.max_size is None else min(wilds, shape.max_size)
            for k in range(max(shape.min_size, 1), top + 1):
                kinds = core._judged.get(k << core._size)
                if kinds is None:
                    kinds = core._judge(0, k)
                if kinds:
                    out.append((0, k))
        return tuple(out)


GENERATED_LIMIT = 1 << 16
"""Pools whose groups a solver keeps (:func:`_replayed`) before it starts again."""

REPLAY_MOST = 8
"""The most cards of a pool whose groups are kept: a bigger one's are listed as they
are emitted, so that the work bound stops a listing that runs away."""


def generate(core: MeldCore, family: str, natural_ids: Sequence[int], members: Iterable[int], wilds: int,
             lo: int, hi: int | None, emit: Emit) -> None:
    """Emit the groups of ``family`` over the local cards ``members``, sized ``lo``..``hi``."""
    if family == "same_rank":
        by_rank: dict[int, list[int]] = {}
        order = core._rank_order
        for i in members:
            by_rank.setdefault(order[natural_ids[i]], []).append(i)
        for same in by_rank.values():
            _replayed(core, "subsets", natural_ids, same, wilds, lo, hi, emit)
    elif family == "sequence":
        _replayed(core, "sequences", natural_ids, list(members), wilds, lo, hi, emit)
    else:
        _subsets(list(members), natural_ids, wilds, lo, hi, emit)


def _replayed(core: MeldCore, how: str, natural_ids: Sequence[int], pool: list[int], wilds: int, lo: int,
              hi: int | None, emit: Emit) -> None:
    """Emit what :func:`_subsets` or :func:`_sequences` emits over the local cards ``pool``,
    kept per solver by the pool's cards: the groups depend on those cards alone (a suit's
    cards for a family kept in one suit, a rank's for groups of one rank), which recur
    from hand to hand. The key is the pool's cards in their order, which decides the
    order of the groups (a search with table melds lists the hand's cards, then the
    table's: the same cards in another order), so the groups come out as listed afresh."""
    if len(pool) > REPLAY_MOST:
        if how == "subsets":
            _subsets(pool, natural_ids, wilds, lo, hi, emit)
        else:
            _sequences(core, natural_ids, pool, wilds, lo, hi, emit)
        return
    ids = [natural_ids[i] for i in pool]
    key = (how, tuple(ids), wilds, lo, hi)
    memo = core._generated
    groups = memo.get(key)
    if groups is None:
        found: list[tuple[int, int, int]] = []

        def record(local_mask: int, natural_mask: int, k: int) -> None:
            found.append((local_mask, natural_mask, k))

        if how == "subsets":
            _subsets(range(len(ids)), ids, wilds, lo, hi, record)
        else:
            _sequences(core, ids, range(len(ids)), wilds, lo, hi, record)
        if len(memo) >= GENERATED_LIMIT:
            memo.clear()
        groups = memo[key] = tuple(found)
    local_of = [1 << i for i in pool]
    for pool_mask, natural_mask, k in groups:
        local_mask = 0
        while pool_mask:
            low = pool_mask & -pool_mask
            local_mask |= local_of[low.bit_length() - 1]
            pool_mask ^= low
        emit(local_mask, natural_mask, k)


def _subsets(pool: Sequence[int], natural_ids: Sequence[int], wilds: int, lo: int, hi: int | None,
             emit: Emit) -> None:
    """Emit every subset of ``pool`` (local cards) with each wild count that keeps
    its size within ``lo``..``hi``."""
    n = len(pool)
    top = n if hi is None else min(n, hi)
    for r in range(1, top + 1):
        kmin = max(0, lo - r)
        kmax = wilds if hi is None else min(wilds, hi - r)
        if kmin > kmax:
            continue
        for combo in itertools.combinations(pool, r):
            local_mask = 0
            natural_mask = 0
            for i in combo:
                local_mask |= 1 << i
                natural_mask |= 1 << natural_ids[i]
            for k in range(kmin, kmax + 1):
                emit(local_mask, natural_mask, k)


def _sequences(core: MeldCore, natural_ids: Sequence[int], members: Iterable[int], wilds: int, lo: int,
               hi: int | None, emit: Emit) -> None:
    """Emit every sequence: one card per position over a window, wilds in the gaps."""
    positions_count = core._sequence_length
    wrap = core._wrap
    period = core._rank_count
    by_position: dict[int, list[int]] = {}
    positions = core._positions
    for i in members:
        for p in positions[natural_ids[i]]:
            by_position.setdefault(p, []).append(i)
    longest = positions_count if hi is None else min(positions_count, hi)
    if wrap:
        longest = period if hi is None else min(period, hi)

    def at(p: int) -> Sequence[int]:
        if wrap:
            p = (p - 1) % period + 1
        return by_position.get(p, ())

    def grow(start: int, last: int, local_mask: int, natural_mask: int, count: int, gaps: int, grow: _Grow) -> None:
        # emit this natural set with every wild count that can fill it (the recursion is
        # passed itself: a closure naming itself is a cycle only the collector frees)
        kmin = max(gaps, lo - count, 0)
        kmax = wilds if hi is None else min(wilds, hi - count)
        for k in range(kmin, kmax + 1):
            emit(local_mask, natural_mask, k)
        # extend to a later position, leaving p - last - 1 gaps for wilds
        limit = start + longest - 1
        if not wrap:
            limit = min(limit, positions_count)
        p = last + 1
        while p <= limit:
            new_gaps = gaps + (p - last - 1)
            if new_gaps > wilds:
                break
            if hi is not None and count + 1 + new_gaps > hi:
                break
            for i in at(p):
                bit = 1 << i
                if not local_mask & bit:
                    grow(start, p, local_mask | bit, natural_mask | (1 << natural_ids[i]), count + 1, new_gaps, grow)
            p += 1

    starts = sorted(by_position) if not wrap else list(range(1, period + 1))
    for a in starts:
        for i in at(a):
            grow(a, a, 1 << i, 1 << natural_ids[i], 1, 0, grow)
