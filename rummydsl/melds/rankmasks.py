"""Tables over the rank masks of one suit, for :mod:`.suittables`.

A suit's cards of a hand are a rank mask (bit ``r``: the rank of order ``r + 1``).
"""

from __future__ import annotations

from typing import Sequence

__all__ = ["connected_parts", "lowest_bits", "suit_table", "suit_table_reference", "disjoint_unions", "set_tie_key", "walk_tie_key"]


def connected_parts(mask: int, links: Sequence[int]) -> list[int]:
    """``mask`` split into the parts its bits' ``links`` (card id -> the mask of the cards a
    meld may put beside it) connect, each part a mask, by lowest bit."""
    out = []
    while mask:
        low = mask & -mask
        part = low
        frontier = links[low.bit_length() - 1] & mask  # (a card linked to none: a part alone)
        if frontier:
            part |= frontier
            while True:
                reach = 0
                while frontier:
                    low = frontier & -frontier
                    reach |= links[low.bit_length() - 1]
                    frontier ^= low
                frontier = reach & mask & ~part
                if not frontier:
                    break
                part |= frontier
        out.append(part)
        mask ^= part
    return out


def lowest_bits(mask: int) -> list[int]:
    """The lowest bits of ``mask``, one per set bit, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def suit_table(R: int, melds: set[int], values: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Least deadwood of every rank mask of one suit, and the canonical meld taking
    its lowest rank: among the best steps the largest meld, else none (unmatched).

    Built a block at a time, lowest rank from the top down: the masks whose lowest
    rank is ``r`` first take "rank ``r`` unmatched" (the mask without it, plus its
    value), then each meld of lowest rank ``r``, smallest mask first, takes the
    masks holding it where it is at least as good (so on equal deadwood the meld
    beats leaving the card unmatched and the larger meld beats the smaller). The
    masks holding a meld ``M`` whose bits from ``r`` up to its top have no gap are
    one slice of the table (``M``, then every ``2 ** top``-th), read against the
    slice of the masks with nothing below ``top``; a meld with gaps (a wrap-around
    run) takes one slice per filling of up to two gap bits, else one mask at a time.
    Same tables as trying every meld at every mask (:func:`suit_table_reference`).

    >>> deadwood, lowest_meld = suit_table(4, {0b0111, 0b1110, 0b1111}, (1, 2, 3, 4))
    >>> deadwood[0b1111], bin(lowest_meld[0b1111]), deadwood[0b1011], lowest_meld[0b1011]
    (0, '0b1111', 7, 0)
    """
    size = 1 << R
    deadwood = [0] * size
    lowest_meld = [0] * size
    by_lowest: list[list[int]] = [[] for _ in range(R)]
    for meld in sorted(melds):
        by_lowest[(meld & -meld).bit_length() - 1].append(meld)
    for r in range(R - 1, -1, -1):
        low = 1 << r
        value = values[r]
        # rank r unmatched: the block of masks of lowest rank r, from the masks above it
        deadwood[low::low * 2] = [d + value for d in deadwood[::low * 2]]
        for meld in by_lowest[r]:
            top = meld.bit_length()
            step = 1 << top
            gaps = (step - 1) & ~meld & -(low * 2)  # ranks between r and the top not in the meld
            if gaps.bit_count() > 2:
                _meld_one_by_one(deadwood, lowest_meld, meld, low, size)
                continue
            fill = gaps
            while True:
                target = slice(meld | fill, size, step)
                so_far = deadwood[target]
                with_meld = deadwood[fill::step]  # the masks less the meld
                best = [w if w < f else f for f, w in zip(so_far, with_meld)]
                deadwood[target] = best
                lowest_meld[target] = [meld if w == b else c
                                       for w, b, c in zip(with_meld, best, lowest_meld[target])]
                if not fill:
                    break
                fill = (fill - 1) & gaps
    return deadwood, lowest_meld


def _meld_one_by_one(deadwood: list[int], lowest_meld: list[int], meld: int, low: int, size: int) -> None:
    """:func:`suit_table`'s step for one meld of lowest rank ``low`` (a bit), mask by mask."""
    free = (size - 1) & ~meld & -(low * 2)  # ranks above the lowest, outside the meld
    rest = free
    while True:
        m = meld | rest
        v = deadwood[rest]
        if v <= deadwood[m]:
            deadwood[m] = v
            lowest_meld[m] = meld
        if not rest:
            break
        rest = (rest - 1) & free


def suit_table_reference(R: int, melds: set[int], values: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """:func:`suit_table` mask by mask, every meld tried at every mask (slower; the
    reference the tests hold it to).

    >>> suit_table_reference(4, {0b0111, 0b1110, 0b1111}, (1, 2, 3, 4)) == suit_table(
    ...     4, {0b0111, 0b1110, 0b1111}, (1, 2, 3, 4))
    True
    """
    by_lowest: list[list[int]] = [[] for _ in range(R)]
    for m in sorted(melds, reverse=True):
        by_lowest[(m & -m).bit_length() - 1].append(m)
    size = 1 << R
    deadwood = [0] * size
    lowest_meld = [0] * size
    for m in range(1, size):
        low = m & -m
        r = low.bit_length() - 1
        best = deadwood[m ^ low] + values[r]
        choice = 0
        for meld in by_lowest[r]:
            if meld & m == meld:
                v = deadwood[m ^ meld]
                if v < best or (v == best and not choice):
                    best, choice = v, meld
        deadwood[m] = best
        lowest_meld[m] = choice
    return deadwood, lowest_meld


def disjoint_unions(sub: int, melds: list[int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every non-empty union of disjoint melds inside ``sub``, once each, with its
    canonical packing (at the lowest card, the largest meld)."""
    inside = [m for m in melds if m & sub == m]
    found: dict[int, tuple[int, ...]] = {}

    def canonical(packing: tuple[int, ...]) -> list[tuple[int, int]]:
        return sorted(((m & -m), -m) for m in packing)

    def grow(start: int, used: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(inside)):
            m = inside[i]
            if not m & used:
                u = used | m
                picked = chosen + (m,)
                if u not in found or canonical(picked) < canonical(found[u]):
                    found[u] = picked
                grow(i + 1, u, picked)

    grow(0, 0, ())
    return tuple(sorted(found.items()))


# Tie keys. The canonical order compares two arrangements of a hand at its lowest card
# whose group differs, preferring the group of the larger code (a meld ``mask * 2 + 1``,
# an unmatched card ``mask * 2``; masks of card ids, a card's id ``suit * R + rank``).
# On the per-suit tables every group holding a card lies in the card's suit (runs,
# unmatched) or its rank (sets), so its mask compares as its bits there, packed in id
# order (the other suits at the card's rank below the card's suit, the card's suit's
# R ranks, the other suits above), then the meld flag: that is the card's field,
# ``R + S`` bits wide. A tie key sums the fields of a hand's cards, each shifted to
# its place (the lowest card id in the highest field, the last card's at bit 0), so
# comparing two keys of the same hand is the canonical order, as one integer compare.


def set_tie_key(mask: int, rank: int, R: int, S: int) -> int:
    """The fields of the cards of the set ``mask`` (cards of ``rank``, a card-id mask),
    for a deck of ``S`` suits of ``R`` ranks.

    One rank, four suits, the set of suits 0, 1 and 3: its mask ``1011`` then the
    meld flag, in the 5-bit fields of cards 0, 1 and 3 (card 2 is not in it):

    >>> format(set_tie_key(0b1011, 0, 1, 4), "020b")
    '10111101110000010111'
    """
    suits = 0  # the set's suits, as a suit mask
    while mask:
        low = mask & -mask
        mask ^= low
        suits |= 1 << ((low.bit_length() - 1) // R)
    width = R + S
    top = width * (R * S - 1 - rank)  # the place of suit 0's card of the rank
    key = 0
    rest = suits
    while rest:
        low = rest & -rest
        rest ^= low
        s = low.bit_length() - 1
        packed = (suits & (low - 1)) | (1 << (s + rank)) | ((suits >> (s + 1)) << (s + R))
        key += (packed * 2 + 1) << (top - width * R * s)
    return key


def walk_tie_key(lowest_meld: Sequence[int], mask: int, suit: int, R: int, S: int) -> int:
    """The fields of suit ``suit``'s cards ``mask`` (a rank mask) in its canonical walk
    (``lowest_meld``: :func:`suit_table`'s second table), for ``S`` suits of ``R`` ranks.

    A run of the three ranks of a one-suit deck comes before the same cards unmatched:

    >>> lowest_meld = suit_table(3, {0b111}, (1, 2, 3))[1]
    >>> walk_tie_key(lowest_meld, 0b111, 0, 3, 1) > walk_tie_key([0] * 8, 0b111, 0, 3, 1)
    True
    """
    width = R + S
    key = 0  # the fields placed within the suit (its rank 0 highest), shifted into place at the end
    rest = mask
    while rest:
        meld = lowest_meld[rest]
        if meld:
            rest ^= meld
            field = (meld << suit) * 2 + 1
            while meld:
                low = meld & -meld
                meld ^= low
                key += field << (width * (R - low.bit_length()))
        else:
            low = rest & -rest
            rest ^= low
            r = low.bit_length() - 1
            key += 1 << (width * (R - 1 - r) + r + suit + 1)  # the card's bit, no meld flag
    return key << (width * (R * S - R - suit * R))


def mask_sum(table: Sequence[int], mask: int) -> int:
    """The sum of ``table[i]`` over the bits ``i`` set in ``mask`` (a card-id mask's
    values, or its rank-class pattern).

    >>> mask_sum((1, 10, 100), 0b101)
    101
    """
    total = 0
    while mask:
        low = mask & -mask
        total += table[low.bit_length() - 1]
        mask ^= low
    return total
