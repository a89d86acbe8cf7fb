"""The knock question's tables of the per-suit tables (:class:`~.suittables.SuitTables`):
for each suit and rank mask, the best single discard's key and card, keyed
``deadwood * K + penalty`` so that the documented tie-break (highest value, then highest
id) falls out of one ``min`` (docs/performance.md, "Meld solver", item 3). Built on the
first knock question a solver is asked.
"""

from __future__ import annotations

from typing import Any

__all__ = ["discard_tables"]


def discard_tables(tables: Any) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], tuple[int, ...]]:
    """The knock-question tables of the suit tables ``tables`` (:class:`~.suittables.SuitTables`):
    ``[suit][rank mask]`` the best discard's key less the mask's deadwood * K, and its card id;
    and the card ids from the most valuable down (the penalty of the key)."""
    values = tables.core.values
    F, R, S, K = tables.natural_count, tables.rank_count, tables.suit_count, tables.natural_count
    order = sorted(range(F), key=lambda cid: (values[cid], cid), reverse=True)
    penalty = [0] * F
    for i, cid in enumerate(order):
        penalty[cid] = i
    big = 1 << 62
    keys: list[tuple[int, ...]] = []
    cards: list[tuple[int, ...]] = []
    for s in range(S):
        deadwood = tables.deadwood_by_suit[s]
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
