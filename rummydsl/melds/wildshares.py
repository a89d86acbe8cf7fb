"""Sharing a hand's wild cards out among its parts (:mod:`.wildwindows`): a small knapsack.

A hand with wild cards splits into parts no meld crosses; its least deadwood is the
least, over the ways of sharing the ``w`` wild cards out among the parts, of the sum of
each part's least deadwood with its share (``(w + 1) ** 2`` steps a part,
:func:`_combine`); with one wild card, the part it gains most in takes it (:func:`_gains`).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["INFINITE", "WILDS_MOST", "PartCosts"]

WILDS_MOST = 4
"""The most wild cards of a hand the parts take (a hand with more takes the general search)."""

INFINITE = 1 << 62

_NONE = tuple((0,) + (INFINITE,) * w for w in range(WILDS_MOST + 1))
"""No part yet: nothing with no wild card, nothing possible with more."""

#: A part's least deadwood by share of wild cards (index ``j``), and the same without
#: each of its cards (card id -> the vector).
PartCosts = tuple[tuple[int, ...], dict[int, tuple[int, ...]]]


def _discard_deadwoods_one(got: Sequence[PartCosts]) -> tuple[dict[int, int], int]:
    """:meth:`~.wildwindows.WildWindows.discard_deadwoods` of a hand with one wild card, from its parts'
    costs: the wild card goes to the part it gains most in (the best other part's when
    the discard's part is that one)."""
    total, first, second, first_at = _gains(got)
    out: dict[int, int] = {}
    for i, ((a, _), each) in enumerate(got):
        rest = total - a  # the other parts, no wild card
        gain = second if i == first_at else first  # the wild card in the best other part
        if gain >= INFINITE:  # no other part: the wild card stays in this one
            for cid, (_, e1) in each.items():
                out[cid] = rest + e1
        else:
            for cid, (e0, e1) in each.items():
                out[cid] = min(rest + gain + e0, rest + e1)
    return out, total


def _gains(got: Sequence[PartCosts]) -> tuple[int, int, int, int]:
    """Of the parts' costs with one wild card: the sum of their least deadwoods with none,
    the two least gains (deadwood with the wild card, less without) and the part of the least."""
    total = 0
    first = second = INFINITE
    first_at = -1
    for i, ((a, b), _) in enumerate(got):
        total += a
        gain = b - a
        if gain < first:
            first, second, first_at = gain, first, i
        elif gain < second:
            second = gain
    return total, first, second, first_at


def _combine(best: Sequence[int], vector: Sequence[int], w: int) -> list[int]:
    """``best`` (the least sum of the parts so far by wild cards used, ``0..w``) with one
    more part's (or combination's) least deadwood by wild cards, ``vector``."""
    if w == 1:  # most hands with a wild card hold one
        b0 = best[0]
        return [b0 + vector[0], min(b0 + vector[1], best[1] + vector[0])]
    if w == 2:  # the same written out (the sums past INFINITE never win: best[0] is a number)
        b0, b1, b2 = best[0], best[1], best[2]
        v0, v1, v2 = vector[0], vector[1], vector[2]
        return [b0 + v0, min(b0 + v1, b1 + v0), min(b0 + v2, b1 + v1, b2 + v0)]
    if w == 3:
        b0, b1, b2, b3 = best[0], best[1], best[2], best[3]
        v0, v1, v2, v3 = vector[0], vector[1], vector[2], vector[3]
        return [b0 + v0, min(b0 + v1, b1 + v0), min(b0 + v2, b1 + v1, b2 + v0),
                min(b0 + v3, b1 + v2, b2 + v1, b3 + v0)]
    new = [INFINITE] * (w + 1)
    for t in range(w + 1):
        have = best[t]
        if have >= INFINITE:
            continue
        for j in range(w + 1 - t):
            v = have + vector[j]
            if v < new[t + j]:
                new[t + j] = v
    return new
