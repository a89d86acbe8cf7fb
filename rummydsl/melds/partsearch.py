"""A part's search: the general search's recursion cut to what a part of a hand needs.

:mod:`.wildwindows` splits a hand with wild cards into parts no meld crosses and asks each
part's least deadwood with each share of the wild cards, and without each of its cards.
:func:`part_search` answers those questions as the general search
(:class:`~rummydsl.melds.search.HandSearch`) does, without what a part never has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from .candidates import PoolMelds
from .core import MeldCore

__all__ = ["PART_MOST", "PartMelds", "part_melds", "part_search"]

INFINITE = 1 << 62


_Least = Callable[[int, int, "_Least"], int]
"""The recursion of :func:`part_search`, passed itself."""

PartMelds = tuple[dict[int, list[tuple[int, int]]], list[int]]
"""A part's melds: by lowest card id, ``(natural card-id mask, wild cards)``, fewest wild
cards first; and the wild card counts of the groups of wild cards alone that meld, each once."""


def part_melds(part: int, w: int, pools: PoolMelds) -> PartMelds:
    """The melds of the natural cards ``part`` and 0..``w`` wild cards (:data:`PartMelds`),
    each card's by wild cards, fewest first (a search's state with fewer wild cards stops
    at the first meld needing more)."""
    by_lowest = pools.by_lowest(part, w)
    if w:
        for melds in by_lowest.values():
            melds.sort(key=_wild_count)
    return by_lowest, pools.wild_counts(w)


_wild_count = itemgetter(1)


def part_search(core: MeldCore, part: int, w: int, pools: PoolMelds,
                melds: PartMelds | None = None, memo: dict[int, int] | None = None,
                values: Sequence[int] | None = None, base: int = 0) -> Callable[[int, int], int]:
    """The general search's recursion (:meth:`~rummydsl.melds.search.HandSearch.least_cost`)
    for the natural cards ``part`` (a card-id mask) and ``w`` wild cards, cut to what a
    part needs: no table melds, no discard, melds free, the cards by their own ids.
    ``least(mask, wilds)`` is the least deadwood of the part's cards ``mask`` with
    ``wilds`` wild cards. The general search's cost of a state is that deadwood times
    ``unit + 1`` (an unmatched card costs its value in deadwood and in the unmatched
    value, a meld nothing), which for values of 0 or more reads back as the deadwood, so
    the two agree state by state; the melds are
    the same groups as the search's candidates (:class:`~rummydsl.melds.candidates.PoolMelds`,
    kept by pool; ``melds``, if given, :func:`part_melds`'s). No work bound:
    the caller takes this only for parts too small to reach it (:data:`PART_MOST`).

    A state's least deadwood depends on its cards and wild cards alone, not on the part
    it was met in, so ``memo`` (by ``wilds << size | mask``), if given, may be shared by
    the searches of every part of one solver (:mod:`.partstates`).

    ``values`` (card id -> value), if given, are the cards' values instead of the
    solver's: a part searched in its shape's cards (:mod:`.partshapes`), each standing
    for a card some ranks higher. The memo's keys are then ``(base | wilds) << size |
    mask``, ``base`` (a multiple of 8) naming the values, so that one table holds the
    states of every such search.
    """
    shift = core._size
    if values is None:
        values = core.values
    wild_dead = core._wild_value
    by_lowest, wild_melds = melds if melds is not None else part_melds(part, w, pools)
    if memo is None:
        memo = {}
    get = memo.get

    def least(mask: int, tag: int, least: _Least) -> int:
        # ``tag``: ``base | wilds``, the state's key less its mask, so a move's key is
        # ``tag - k << shift | rest``. The memo is read before each call (most states
        # are met again); values are 0 or more, so a state that reaches 0 tries nothing
        # more. The recursion is passed itself (``least``), not read from the enclosing
        # scope: a closure naming itself is a reference cycle, which only the garbage
        # collector frees
        if mask:
            wilds = tag & 7
            low = mask & -mask
            c = low.bit_length() - 1
            best = INFINITE
            for natural, k in by_lowest[c]:
                if k > wilds:  # (the melds by wild cards, fewest first)
                    break
                if natural & mask == natural:
                    rest = mask ^ natural
                    left = tag - k
                    v = get(left << shift | rest)
                    if v is None:
                        v = least(rest, left, least)
                    if v < best:
                        best = v
                        if not v:
                            break
            if best:
                rest = mask ^ low
                v = get(tag << shift | rest)
                if v is None:
                    v = least(rest, tag, least)
                v += values[c]
                if v < best:
                    best = v
        elif tag & 7:
            wilds = tag & 7
            best = INFINITE
            for k in wild_melds:
                if k <= wilds:
                    v = get(tag - k << shift)
                    if v is None:
                        v = least(0, tag - k, least)
                    if v < best:
                        best = v
            if best:
                v = get(tag - 1 << shift)
                if v is None:
                    v = least(0, tag - 1, least)
                v += wild_dead
                if v < best:
                    best = v
        else:
            best = 0
        memo[tag << shift | mask] = best
        return best

    def ask(mask: int, wilds: int) -> int:
        tag = base | wilds
        got = get(tag << shift | mask)
        return least(mask, tag, least) if got is None else got

    return ask


PART_MOST = 15
"""The most natural cards of a part :func:`_part_search` takes (with at most
:data:`~rummydsl.melds.wildwindows.WILDS_MOST` wild cards): the general search's candidates (distinct groups of the
part's cards and wild cards) and the states of one of its questions are each at most
``2 ** 15 * 5``, well within :data:`~rummydsl.limits.MAX_MELD_WORK`, so it never stops
such a search and the cut search needs no bound."""
