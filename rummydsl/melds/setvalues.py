"""The value of a hand's cards of some ranks, suit by suit, from tables built once per
suit tables: what :meth:`SuitTables.deadwood <rummydsl.melds.suittables.SuitTables.deadwood>`
takes off the runs' deadwood for a floor of the least deadwood that chooses no set (the
knock question of most turns, engine/mechanics/knock.py).

A set takes only cards of the ranks held in three suits or more out of the suits, and
taking a card out of a suit lowers that suit's least deadwood by at most its value
(adding it back unmatched to any arrangement of the rest gives the suit with it): so the
runs' deadwood less the value of every card of those ranks is never above the least
deadwood. Values below 0 count as 0, so that the value of all those cards is at least
that of the cards any set takes.

Also here: the ranks held in three of five suits (:func:`three_of_five`), which the
floor of a five-suit deck reads.
"""

from __future__ import annotations

from typing import Any

__all__ = ["rank_values", "rank_values_of", "three_of_five"]

_KEPT = 32
_TABLES: dict[int, tuple[Any, tuple[tuple[int, ...], ...]]] = {}
"""Each suit's table of the value of any rank mask, by the suit tables' object (the last few kept)."""


def rank_values(tables: Any, a: int, b: int, c: int, d: int, ranks: int) -> int:
    """The value of the cards of ``ranks`` (a rank mask) among a hand's cards of each of the
    four suits of ``tables``'s deck (``a`` to ``d``, the rank masks held in each suit)."""
    V0, V1, V2, V3 = _values_of(tables)
    return int(V0[a & ranks] + V1[b & ranks] + V2[c & ranks] + V3[d & ranks])


def rank_values_of(tables: Any, masks: tuple[int, ...], ranks: int) -> int:
    """:func:`rank_values` for any number of suits: ``masks`` holds each suit's rank mask, in order."""
    return int(sum(V[m & ranks] for V, m in zip(_values_of(tables), masks)))


def _values_of(tables: Any) -> tuple[tuple[int, ...], ...]:
    """Each suit's value table of ``tables`` (built on first use, the last few kept)."""
    got = _TABLES.get(id(tables))
    if got is None or got[0] is not tables:
        got = _TABLES[id(tables)] = (tables, _build(tables))
        if len(_TABLES) > _KEPT:
            _TABLES.pop(next(iter(_TABLES)))
    return got[1]


def _build(tables: Any) -> tuple[tuple[int, ...], ...]:
    R = tables.rank_count
    values = tables.core.values
    built = []
    for shift in tables.suit_shifts:
        cards = [max(0, values[shift + r]) for r in range(R)]
        table = [0] * (1 << R)
        for m in range(1, 1 << R):
            low = m & -m
            table[m] = table[m ^ low] + cards[low.bit_length() - 1]
        built.append(tuple(table))
    return tuple(built)


def three_of_five(a: int, b: int, c: int, d: int, e: int) -> int:
    """The ranks held in three or more of five suits' rank masks (counted bit by bit)."""
    one, two = a | b, a & b
    three = two & c
    two |= one & c
    one |= c
    three |= two & d
    two |= one & d
    one |= d
    return three | (two & e)
