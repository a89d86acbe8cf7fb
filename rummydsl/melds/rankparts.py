"""A wild-free hand's parts and rank patterns read from its ranks, for suit-blind kinds.

The rank windows (:mod:`.rankwindows`) split a hand into *parts*, the classes of cards
linked in chains, by following each card's links. Under suit-blind kinds
(:func:`~rummydsl.melds.shapes.suit_blind`: Skarney's runs and poker sequences) a link
never reads a suit: two cards are linked when their ranks are (the same rank for a
``same_rank`` family, adjacent sequence positions for a ``sequence`` family of any suit).
Then a part is the hand's cards of one connected piece of the ranks it holds, and its
rank pattern (:mod:`.rankclasses`) is the hand's pattern less the fields of the other
ranks. When each rank is one class (its cards share one value), :class:`RankParts`
reads a hand

- by bytes of its card-id mask: one table lookup per byte gives those cards' pattern,
  and the pattern's nonzero fields are the ranks held;
- then its parts by the ranks held, one lookup in a table of every set of ranks (the
  pieces by lowest sequence position, as the classes are numbered): each
  part as the card-id mask of its ranks' cards (the hand's cards there are the part)
  and the field mask of its ranks (the hand's pattern there is the part's),

instead of one step per card and link. :meth:`RankParts.build` checks that every card's
links are its rank's (else the hand is split by its links, as before). The tables depend
only on the deck's ranks, links and classes, and are built once a process for each
(:data:`PIECES_KEPT` kept).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import MeldCore
    from .rankclasses import RankClasses

__all__ = ["RankParts", "MOST_RANKS", "PIECES_KEPT", "pieces_of"]

MOST_RANKS = 14
"""The most ranks a deck may have for :class:`RankParts` (its table has ``2 ** ranks`` entries)."""

PIECES_KEPT = 8
"""How many decks' tables of pieces the process keeps (the oldest is dropped first)."""

#: Held ranks (a pattern's guard bits) -> (card-id mask, field mask) of each connected piece, lowest first.
Pieces = dict[int, tuple[tuple[int, int], ...]]

_PIECES: dict[Hashable, Pieces] = {}


class RankParts:
    """A deck's natural cards by bytes and ranks, for reading a hand's parts; build with :meth:`build`."""

    def __init__(self, classes: RankClasses, size: int, pieces: Pieces) -> None:
        self.classes = classes
        card_inc = classes.card_inc
        tables = []
        for low in range(0, size, 8):
            table = [0] * 256
            for byte in range(1, 256):
                bit = byte & -byte
                cid = low + bit.bit_length() - 1
                table[byte] = table[byte ^ bit] + (card_inc[cid] if cid < size else 0)
            tables.append(table)
        self.tables = tuple(tables)
        """Byte ``i`` of a card-id mask -> the pattern of its cards (ids ``8 * i`` to ``8 * i + 7``)."""
        self.ones = sum(classes.inc)
        """One card of each class: ``((pattern | guards) - ones) & guards`` is the guard bit of each field held."""
        self.pieces = pieces
        self.totals: dict[int, int] = {}  # a pattern's cards' value

    @classmethod
    def build(cls, core: MeldCore, links: Sequence[int], classes: RankClasses) -> RankParts | None:
        """The tables of ``core``'s deck, or ``None`` when some card's links (``links``:
        card id -> the mask of the natural cards linked to it) are not those of its
        rank, the cards of a rank are not linked to each other, a rank's cards are of
        two classes, or the deck has more than :data:`MOST_RANKS` ranks."""
        naturals = [c.id for c in core._cards if not c.wild]
        count = classes.count
        if not naturals or count > MOST_RANKS:
            return None
        rank_of = core._rank_order
        class_of = classes.class_of
        rank_class: dict[int, int] = {}
        for cid in naturals:
            if rank_class.setdefault(rank_of[cid], class_of[cid]) != class_of[cid]:
                return None  # a rank of two values: its cards are two classes
        columns = classes.class_cards
        class_links = [0] * count  # class -> the classes its cards link to
        for cid in naturals:
            for j, column in enumerate(columns):
                if links[cid] & column:
                    class_links[class_of[cid]] |= 1 << j
        for cid in naturals:  # each link is its rank's: every card of each linked rank, but the card itself
            k = class_of[cid]
            want = sum(column for j, column in enumerate(columns) if class_links[k] >> j & 1)
            if links[cid] != want & ~(1 << cid) or (columns[k] != 1 << cid and not class_links[k] >> k & 1):
                return None  # (two cards of a rank held alone would be two parts, not one)
        key = (tuple(class_links), columns, classes.width)
        pieces = _PIECES.get(key)
        if pieces is None:
            pieces = pieces_of(class_links, columns, classes.width)
            if len(_PIECES) >= PIECES_KEPT:
                _PIECES.pop(next(iter(_PIECES)))
            _PIECES[key] = pieces
        return cls(classes, core._size, pieces)

    def split(self, mask: int) -> tuple[list[int], list[int]]:
        """The parts of the wild-free hand ``mask`` (card-id masks, by lowest sequence
        position) and their patterns."""
        pattern = 0
        rest = mask
        for table in self.tables:
            pattern += table[rest & 255]
            rest >>= 8
        classes = self.classes
        parts = []
        keys = []
        for column, fields in self.pieces[((pattern | classes.guards) - self.ones) & classes.guards]:
            parts.append(mask & column)
            keys.append(pattern & fields)
        return parts, keys

    def total(self, key: int) -> int:
        """The value of the cards of pattern ``key``, kept."""
        got = self.totals.get(key)
        if got is None:
            value = self.classes.value
            got = sum(value[k] * n for k, n in self.classes._counts(key))
            if len(self.totals) >= 1 << 16:
                self.totals.clear()
            self.totals[key] = got
        return got


def pieces_of(links: Sequence[int], columns: Sequence[int], width: int) -> Pieces:
    """For every set of classes (as the guard bits of their fields, ``width`` bits each):
    its connected pieces under ``links`` (class -> the classes it links to), lowest
    first, each as (the card-id mask of its classes' cards ``columns``, their fields'
    mask). Built by adding the classes one at a time, highest last: a class joins the
    pieces of the lower set it links to into one."""
    count = len(links)
    field = (1 << width) - 1
    guard = 1 << (width - 1)
    # by the set of classes as a plain bit mask: (classes, column, fields) of each piece
    found: list[tuple[tuple[int, int, int], ...]] = [()]
    for top in range(count):
        unit = 1 << top
        own = (unit, columns[top], field << (top * width))
        for lower in range(unit):
            joined = [own]
            kept = []
            for piece in found[lower]:
                if piece[0] & links[top]:
                    joined.append(piece)
                else:
                    kept.append(piece)
            if len(joined) > 1:
                merged = (sum(p[0] for p in joined), sum(p[1] for p in joined), sum(p[2] for p in joined))
                kept.append(merged)
                kept.sort(key=lambda piece: piece[0] & -piece[0])
            else:
                kept.append(own)
            found.append(tuple(kept))
    out: Pieces = {}
    for classes, pieces in enumerate(found):
        guards = 0
        m = classes
        while m:
            bit = m & -m
            guards |= guard << ((bit.bit_length() - 1) * width)
            m ^= bit
        out[guards] = tuple((column, fields) for _, column, fields in pieces)
    return out
