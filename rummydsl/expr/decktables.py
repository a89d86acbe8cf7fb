"""Per-deck lookups by card id, and the meld predicates that read them.

A meld pattern's ``same``, ``distinct``, ``count_distinct`` and ``consecutive`` are
closures over a deck's :class:`DeckTables` (rank order, suit, colour and sequence
positions by card id), built once per deck; each takes a meld's frame
``(size, natural card ids, wilds)``.

>>> from rummydsl.cards import Deck
>>> deck = Deck.preset("standard52")
>>> run = consecutive(deck_tables(deck))
>>> ids = [c.id for c in deck.parse_cards("QH KH AH")]
>>> run((3, ids, 0)), run((3, ids[:2], 1))
(False, True)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Sequence

__all__ = ["DeckTables", "deck_tables", "MeldFrame", "meld_predicate", "consecutive"]

MeldFrame = tuple[int, list[int], int]
"""A meld's frame: ``(size, natural card ids, wilds)``."""


@dataclass(frozen=True)
class DeckTables:
    """Lookups by card id, built once per deck for the closures."""

    order: tuple[int, ...]
    """Rank order by card id (0 for a wild card)."""
    suit: tuple[int, ...]
    """Suit index by card id (-1 for a wild card)."""
    colour: tuple[str | None, ...]
    """Colour name by card id (``None`` for a wild card)."""
    colour_index: tuple[int, ...]
    """Colour number by card id (-1 for a wild card)."""
    pips: tuple[int, ...]
    """Pips by card id: the number a rank's symbol or an alias spells (``T`` → 10), else its order."""
    wild: tuple[bool, ...]
    positions: tuple[tuple[int, ...], ...]
    """Sequence positions by rank order (index 0 unused)."""
    ranks: int
    suits: int
    colours: int
    wrap: bool


def _pips(rank: Any) -> int:
    for spelling in (rank.symbol, *getattr(rank, "aliases", ())):
        if spelling.isdigit():
            return int(spelling)
    return int(rank.order)


def deck_tables(deck: Any) -> DeckTables:
    """The :class:`DeckTables` of ``deck`` (cached per deck).

    >>> from rummydsl.cards import Deck
    >>> tables = deck_tables(Deck.from_spec({"preset": "standard52", "ace": "both"}))
    >>> tables.order[:3], tables.positions[1], tables.pips[9]
    ((1, 2, 3), (1, 14), 10)
    """
    try:
        return _cached_tables(deck)
    except TypeError:  # an unhashable deck-like object
        return _build_tables(deck)


@lru_cache(maxsize=64)
def _cached_tables(deck: Any) -> DeckTables:
    return _build_tables(deck)


def _build_tables(deck: Any) -> DeckTables:
    cards = deck.cards
    size = max((c.id for c in cards), default=-1) + 1
    order = [0] * size
    suit = [-1] * size
    colour: list[str | None] = [None] * size
    colour_index = [-1] * size
    pips = [0] * size
    wild = [True] * size
    colours: list[str] = []
    for s in deck.suits:
        if s.colour not in colours:
            colours.append(s.colour)
    for card in cards:
        if card.wild or card.rank is None or card.suit is None:
            continue
        i = card.id
        order[i] = card.rank.order
        suit[i] = card.suit.index
        colour[i] = card.suit.colour
        colour_index[i] = colours.index(card.suit.colour)
        pips[i] = _pips(card.rank)
        wild[i] = False
    positions: list[tuple[int, ...]] = [()]
    positions += [tuple(deck.sequence_positions(rank)) for rank in deck.ranks]
    return DeckTables(tuple(order), tuple(suit), tuple(colour), tuple(colour_index), tuple(pips),
                      tuple(wild), tuple(positions), len(deck.ranks), len(deck.suits), len(colours),
                      bool(deck.wrap))


def meld_predicate(tables: DeckTables, name: str, selector: str) -> Callable[[MeldFrame], Any]:
    """The closure of ``name(selector)`` in a meld pattern: ``same``, ``distinct``,
    ``count_distinct`` (of ``rank``, ``suit`` or ``colour``) or ``consecutive(rank)``,
    each with its own choice of wild cards (:mod:`rummydsl.expr.compile`)."""
    table: Sequence[Any]
    count: int
    if selector == "rank":
        table, count = tables.order, tables.ranks
    elif selector == "suit":
        table, count = tables.suit, tables.suits
    else:
        table, count = tables.colour_index, tables.colours
    if name == "same":
        def same(x: MeldFrame) -> bool:
            nat = x[1]
            if not nat:
                return True
            first = table[nat[0]]
            for i in nat:
                if table[i] != first:
                    return False
            return True
        return same
    if name == "count_distinct":
        def count_distinct(x: MeldFrame) -> int:
            seen = 0
            for i in x[1]:
                seen |= 1 << table[i]
            return min(seen.bit_count() + x[2], count)
        return count_distinct
    if name == "distinct":
        def distinct(x: MeldFrame) -> bool:
            seen = 0
            nat = x[1]
            for i in nat:
                bit = 1 << table[i]
                if seen & bit:
                    return False
                seen |= bit
            return count - len(nat) >= x[2]
        return distinct
    return consecutive(tables)

def consecutive(tables: DeckTables) -> Callable[[MeldFrame], bool]:
    """The closure of ``consecutive(rank)``: the natural ranks differ and a window of
    ``size`` sequence positions holds one position of each (``deck.wrap`` goes round)."""
    order = tables.order
    positions = tables.positions
    n = tables.ranks
    single = tuple(ps[0] if len(ps) == 1 else 0 for ps in positions[1:])
    single = (0,) + single  # index by order

    if tables.wrap:
        def consecutive_wrap(x: MeldFrame) -> bool:
            size = x[0]
            if size > n:
                return False
            seen = 0
            for i in x[1]:
                bit = 1 << order[i]
                if seen & bit:
                    return False
                seen |= bit
            if not seen:
                return True
            present = [o for o in range(1, n + 1) if seen >> o & 1]
            gap = present[0] + n - present[-1] - 1
            for a, b in zip(present, present[1:]):
                if b - a - 1 > gap:
                    gap = b - a - 1
            return n - gap <= size
        return consecutive_wrap

    def consecutive(x: MeldFrame) -> bool:
        size = x[0]
        if size > n:
            return False
        seen = 0
        lo = 1 << 30
        hi = -1
        several: list[tuple[int, ...]] | None = None
        for i in x[1]:
            o = order[i]
            bit = 1 << o
            if seen & bit:
                return False
            seen |= bit
            p = single[o]
            if p:
                if p < lo:
                    lo = p
                if p > hi:
                    hi = p
            elif several is None:
                several = [positions[o]]
            else:
                several.append(positions[o])
        if several is None:
            return hi - lo < size
        if len(several) == 1:  # the usual case: one ace, low or high
            for p in several[0]:
                a = p if p < lo else lo
                b = p if p > hi else hi
                if b - a < size:
                    return True
            return False
        for choice in itertools.product(*several):
            a = min(lo, *choice)
            b = max(hi, *choice)
            if b - a < size:
                return True
        return False
    return consecutive
