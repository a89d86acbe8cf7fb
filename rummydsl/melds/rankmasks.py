"""Tables over the rank masks of one suit, for :mod:`.suittables`.

A suit's cards of a hand are a rank mask (bit ``r``: the rank of order ``r + 1``).
"""

from __future__ import annotations

__all__ = ["lowest_bits", "suit_table", "disjoint_unions"]


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
    its lowest rank: among the best steps the largest meld, else none (unmatched)."""
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
