"""What the cards on the table are worth to the players who laid them (R5-1, R5-4, R5-6).

Every table card is credited to the player who put it there (:class:`TableMeld`'s
``by``): the one who laid the meld down, or the one who laid the card off, whoever's
meld it lies in. ``melded(p)`` in the score context is the total, over the table cards
credited to ``p``, of the variant's ``melded_value`` (the card's ``card_value`` by
default), an expression that also sees the meld's ``kind``, its ``size`` and the card's
``position`` in it.

A card's position counts from 1 at the low end. In a meld of a sequence kind (its
pattern says ``consecutive(rank)``) the cards are taken in sequence order as the meld
lies: an ace with two places stands where the meld puts it (first in A-2-3, last in
Q-K-A), and wild cards stand in the gaps they fill, any left over at the high end (at
the low end where the high end is the top of the sequence). In any other meld the
cards count in the order they were laid.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Sequence

from ...cards import Card, Deck
from ...expr.compile import deck_tables
from ..state import TableMeld

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["sequence_order", "meld_order", "melded_total"]


def sequence_order(deck: Deck, cards: Sequence[Card]) -> list[int] | None:
    """The indices of ``cards`` from the low end of the sequence they form, or None when
    they form none (two natural cards of one rank, no window holds them, a wrapping deck).

    >>> deck = Deck.from_spec({"preset": "standard52", "ace": "both"})
    >>> cards = deck.parse_cards("3H AH 2H")
    >>> [str(cards[i]) for i in sequence_order(deck, cards)]
    ['AH', '2H', '3H']
    >>> cards = deck.parse_cards("AH QH KH")
    >>> [str(cards[i]) for i in sequence_order(deck, cards)]
    ['QH', 'KH', 'AH']
    """
    if deck.wrap:
        return None
    tables = deck_tables(deck)
    top = max((p for spots in tables.positions for p in spots), default=0)
    size = len(cards)
    naturals = [i for i, c in enumerate(cards) if not c.wild]
    wilds = [i for i, c in enumerate(cards) if c.wild]
    choices = [tables.positions[tables.order[cards[i].id]] for i in naturals]
    for chosen in itertools.product(*choices):
        if len(set(chosen)) != len(chosen):
            continue
        low = min(chosen, default=1)
        if chosen and max(chosen) - low >= size:
            continue
        start = min(low, max(1, top - size + 1)) if top else low
        at = {spot: index for spot, index in zip(chosen, naturals)}
        order: list[int] = []
        spare = list(wilds)
        for spot in range(start, start + size):
            if spot in at:
                order.append(at[spot])
            elif spare:
                order.append(spare.pop(0))
        return order + spare
    return None


def meld_order(rnd: Round, meld: TableMeld) -> list[int]:
    """The indices of ``meld``'s cards by position: sequence order for a sequence kind,
    else as laid."""
    for kind in rnd.variant.meld_kinds:
        if kind.name == meld.kind:
            facts = kind.pattern.facts
            if getattr(facts, "consecutive", False):
                order = sequence_order(rnd.variant.deck, meld.cards)
                if order is not None:
                    return order
            break
    return list(range(len(meld.cards)))


def melded_total(rnd: Round, player: int) -> int:
    """The total melded value of the table cards credited to ``player`` (``melded(p)``)."""
    formula = rnd.variant.melded_value
    values = rnd.values
    total = 0
    for melds in rnd.table:
        for meld in melds:
            if player not in meld.by:
                continue
            if formula is None:
                total += sum(values[c.id] for c, who in zip(meld.cards, meld.by) if who == player)
                continue
            size = len(meld.cards)
            for position, index in enumerate(meld_order(rnd, meld), start=1):
                if meld.by[index] == player:
                    card = meld.cards[index]
                    total += int(formula.fn(card, values[card.id], meld.kind, position, size))
    return total
