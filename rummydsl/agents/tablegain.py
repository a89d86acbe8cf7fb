"""Whether the top discard helps a hand that may lay off onto table melds, asked of
the per-suit tables: the greedy draw decision of a going-out game (BR) with table
melds some card might extend.

The question (:meth:`GreedyAgent._pile_helps_going_out
<rummydsl.agents.basic.GreedyAgent._pile_helps_going_out>`) is whether some discard
from the hand with the card leaves less deadwood, once melded and laid off, than the
hand now. A lay-off extends each table meld at most once, by a group of cards (chains
included) with which the meld forms a kind; the cards laid off count for nothing, and
the rest is arranged as a hand with no table. So the least deadwood with the table is
the least, over every way the cards may extend the melds, of the least deadwood of the
cards left, which the per-suit tables answer at once (and the knock question of the
cards left, for the best discard). The ways are few: the cards that may join a meld
are read from the kinds' shapes (:func:`~.extendable._joiners`) and every group of them
is judged by the kinds. This is the same figure as one search with the table
(:func:`~rummydsl.melds.discards.discard_deadwoods`), without listing every meld of the
hand and the table's cards together.

None (ask the search) wherever the tables do not answer or the shapes say too little:
wild cards in the hand or on a kept meld, kinds locked to the kind laid, a wrapping
deck, a kind of no known shape, a card at several sequence positions, or too many ways.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import Card
from .extendable import _joiners, _kept

__all__ = ["pile_helps_with_table"]

#: The most cards that may join one meld, and ways to extend the kept melds, asked here.
MOST_JOINERS = 6
MOST_WAYS = 64


def pile_helps_with_table(rules: Any, deck: Any, hand: Sequence[Card], card: Card,
                          melds: Sequence[Any]) -> bool | None:
    """Whether taking ``card`` and discarding another card of ``hand`` leaves less
    deadwood, melded and laid off onto ``melds`` (each with ``cards``), than ``hand``
    does now (module docstring); None where this cannot answer it."""
    kept = _kept(rules, deck)
    if kept.loose or rules.kind_locked:
        return None
    mask = 1 << card.id
    if card.wild:
        return None
    for held in hand:
        if held.wild:
            return None
        mask |= 1 << held.id
    if rules.table_deadwood(mask, discard=True) is None:  # not the per-suit tables' to answer
        return None
    ways = [0]  # the card-id masks the kept melds may take, together (0: none laid off)
    cards = deck.cards
    for meld in melds:
        group = meld.cards
        if any(c.wild for c in group):
            return None
        joiners = _joiners(kept, group, mask)
        if joiners is None or joiners.bit_count() > MOST_JOINERS:
            return None
        if not joiners:
            continue
        ids = []
        rest = joiners
        while rest:
            low = rest & -rest
            ids.append(low)
            rest ^= low
        takes = []
        for subset in range(1, 1 << len(ids)):
            taken = 0
            extended = list(group)
            for i, bit in enumerate(ids):
                if subset >> i & 1:
                    taken |= bit
                    extended.append(cards[bit.bit_length() - 1])
            if rules.kinds_bits(extended):
                takes.append(taken)
        if not takes:
            continue
        ways = ways + [way | taken for way in ways for taken in takes if not way & taken]
        if len(ways) > MOST_WAYS:
            return None
    hand_mask = mask ^ (1 << card.id)
    table_deadwood = rules.table_deadwood
    now = min(table_deadwood(hand_mask ^ way) if hand_mask ^ way else 0
              for way in ways if not way >> card.id & 1)
    for way in ways:
        left = mask ^ way
        if left and table_deadwood(left, discard=True) < now:
            return True
    return False
