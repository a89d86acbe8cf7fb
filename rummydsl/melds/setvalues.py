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

Also here, to keep the tables' module short: the knock question's tables
(:func:`discard_tables`) and the ranks held in three of five suits (:func:`three_of_five`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["discard_tables", "rank_values", "rank_values_of", "three_of_five"]

_KEPT = 32
_TABLES: dict[int, tuple[Any, tuple[tuple[int, ...], ...]]] = {}
"""Each suit's table of the value of any rank mask, by the suit tables' object (the last few kept)."""


def rank_values(tables: Any, a: int, b: int, c: int, d: int, ranks: int) -> int:
    """The value of the cards of ``ranks`` (a rank mask) among a hand's cards of each of the
    four suits of ``tables``'s deck (``a`` to ``d``, the rank masks held in each suit)."""
    got = _TABLES.get(id(tables))
    if got is None or got[0] is not tables:
        got = _TABLES[id(tables)] = (tables, _build(tables))
        if len(_TABLES) > _KEPT:
            _TABLES.pop(next(iter(_TABLES)))
    V0, V1, V2, V3 = got[1]
    return int(V0[a & ranks] + V1[b & ranks] + V2[c & ranks] + V3[d & ranks])


def rank_values_of(tables: Any, masks: tuple[int, ...], ranks: int) -> int:
    """:func:`rank_values` for any number of suits: ``masks`` holds each suit's rank mask, in order."""
    got = _TABLES.get(id(tables))
    if got is None or got[0] is not tables:
        got = _TABLES[id(tables)] = (tables, _build(tables))
        if len(_TABLES) > _KEPT:
            _TABLES.pop(next(iter(_TABLES)))
    return int(sum(V[m & ranks] for V, m in zip(got[1], masks)))


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


def discard_tables(self: Any) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], tuple[int, ...]]:
    """The knock-question tables of the suit tables ``self`` (:class:`~.suittables.SuitTables`):
    ``[suit][rank mask]`` the best discard's key less the mask's deadwood * K, and its card id;
    and the card ids from the most valuable down (the penalty of the key)."""
    values = self.core.values
    F, R, S, K = self.natural_count, self.rank_count, self.suit_count, self.natural_count
    order = sorted(range(F), key=lambda cid: (values[cid], cid), reverse=True)
    penalty = [0] * F
    for i, cid in enumerate(order):
        penalty[cid] = i
    big = 1 << 62
    keys: list[tuple[int, ...]] = []
    cards: list[tuple[int, ...]] = []
    for s in range(S):
        deadwood = self.deadwood_by_suit[s]
        bits = [(1 << r, penalty[s * R + r], s * R + r) for r in range(R)]
        key_of = [big] * (1 << R)
        card_of = [-1] * (1 << R)
        for m in range(1, 1 << R):
            best = big
            card = -1
            for bit, p, cid in bits:
                if m & bit:
                    v = deadwood[m ^ bit] * K + p
                    if v < best:
                        best, card = v, cid
            key_of[m] = best - deadwood[m] * K
            card_of[m] = card
        keys.append(tuple(key_of))
        cards.append(tuple(card_of))
    return keys, cards, tuple(order)


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
