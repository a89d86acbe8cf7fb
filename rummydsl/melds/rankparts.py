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

- by chunks of its card-id mask (a suit's ids when each suit's ids read one class each,
  then one table serves every suit; else bytes): two table lookups per chunk give those
  cards' pattern and the ranks they hold;
- then its parts by the ranks held, one lookup in a table of every set of ranks (the
  pieces by lowest sequence position, as the classes are numbered): each part as the
  card-id mask of its ranks' cards (the hand's cards there are the part) and the field
  mask of its ranks (the hand's pattern there is the part's; a part's value is its
  pattern's, :meth:`~.rankclasses.RankClasses.pattern_value`),

instead of one step per card and link. :meth:`RankParts.build` checks that every card's
links are its rank's (else the hand is split by its links, as before). The tables depend
only on the deck's ranks, links and classes, and are built once a process for each
(:data:`PIECES_KEPT` kept).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..cards import Card
    from .core import MeldCore
    from .rankclasses import RankClasses

__all__ = ["RankParts", "MOST_RANKS", "PIECES_KEPT", "pieces_of"]

MOST_RANKS = 14
"""The most ranks a deck may have for :class:`RankParts` (its table has ``2 ** ranks`` entries)."""

PIECES_KEPT = 8
"""How many decks' tables of pieces the process keeps (the oldest is dropped first)."""

#: Held ranks (a bit per class) -> (card-id mask, field mask) of each connected piece,
#: lowest first.
Pieces = list[tuple[tuple[int, int], ...]]

_PIECES: dict[Hashable, Pieces] = {}  # by (links, columns, width)
_CHUNKS: dict[Hashable, list[tuple[list[int], list[int]]]] = {}  # RankParts.tables, by (width, *chunks)


class RankParts:
    """A deck's natural cards by chunks of ids and ranks, for reading a hand's parts; build with :meth:`build`."""

    def __init__(self, classes: RankClasses, size: int, pieces: Pieces) -> None:
        self.classes = classes
        card_inc, class_of, values = classes.card_inc, classes.class_of, classes.core.values

        def signature(low: int, width: int) -> tuple[tuple[int, int, int] | None, ...]:
            return tuple((card_inc[cid], class_of[cid], values[cid]) if cid < size and class_of[cid] >= 0
                         else None for cid in range(low, low + width))

        # chunks of one class each (a deck by suits: a suit's cards, one of each rank) share
        # one table, so a hand takes a lookup a suit; else bytes, a table each
        width = classes.count
        if width > 8 and len({signature(low, width) for low in range(0, size, width)}) == 1:
            chunks = [signature(0, width)]
        else:
            width = 8
            chunks = [signature(low, width) for low in range(0, size, width)]
        known = (width, *chunks)
        tables = _CHUNKS.get(known)
        if tables is None:
            tables = _chunk_tables(chunks, width)
            if len(_CHUNKS) >= PIECES_KEPT:
                _CHUNKS.pop(next(iter(_CHUNKS)))
            _CHUNKS[known] = tables
        self.chunk = width
        """Bits of the card-id mask each table reads."""
        self.tables = tuple(tables) * (-(-size // width) if len(chunks) == 1 else 1)
        """Chunk ``i`` of :attr:`chunk` bits of a card-id mask -> (the pattern of its cards, the ranks
        they hold (a bit per class))."""
        self.cards = classes.core._cards
        self.card_chunks: tuple[list[tuple[Card, ...] | None], ...] = tuple(
            [None] * (1 << width) for _ in range(-(-size // width)))
        """Chunk ``i`` of a card-id mask -> the deck's cards there by id (:meth:`cards_of`; filled as met)."""
        self.pieces = pieces
        """Held ranks -> each piece's (card-id mask, field mask); a part's value is its
        pattern's (:meth:`.RankClasses.pattern_value`)."""

    @classmethod
    def build(cls, core: MeldCore, links: Sequence[int], classes: RankClasses) -> RankParts | None:
        """The tables of ``core``'s deck, or ``None`` when some card's links (``links``:
        card id -> the mask of the natural cards linked to it) are not those of its
        rank, the cards of a rank are not linked to each other, a rank's cards are of
        two classes, or the deck has more than :data:`MOST_RANKS` ranks."""
        naturals = [c.id for c in core._cards if not c.wild]
        count = classes.count
        if not naturals or count > MOST_RANKS or min(core.values[cid] for cid in naturals) < 0:
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
        pattern = ranks = 0
        rest = mask
        width = self.chunk
        low = (1 << width) - 1
        for patterns, held in self.tables:
            chunk = rest & low
            pattern += patterns[chunk]
            ranks |= held[chunk]
            rest >>= width
        parts = []
        keys = []
        for column, fields in self.pieces[ranks]:
            parts.append(mask & column)
            keys.append(pattern & fields)
        return parts, keys


    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The deck's cards of card-id mask ``mask``, by id (``MeldCore._cards_of``), a
        chunk of :attr:`chunk` bits at a time: a chunk's cards are kept once met."""
        out: tuple[Card, ...] = ()
        width = self.chunk
        low = (1 << width) - 1
        shift = 0
        for known in self.card_chunks:
            chunk = mask & low
            if chunk:
                got = known[chunk]
                if got is None:
                    got = known[chunk] = self._chunk_cards(chunk, shift)
                out += got
            mask >>= width
            if not mask:
                break
            shift += width
        return out

    def _chunk_cards(self, chunk: int, shift: int) -> tuple[Card, ...]:
        cards = self.cards
        out = []
        while chunk:
            low = chunk & -chunk
            out.append(cards[low.bit_length() - 1 + shift])
            chunk ^= low
        return tuple(out)


def _chunk_tables(chunks: Sequence[tuple[tuple[int, int, int] | None, ...]],
                  width: int) -> list[tuple[list[int], list[int]]]:
    """For each chunk (id -> (pattern unit, class, value), or None for no natural card): every
    set of its ids (a ``width``-bit index) -> (their pattern, the classes they hold as bits)."""
    tables = []
    for chunk in chunks:
        patterns = [0] * (1 << width)
        ranks = [0] * (1 << width)
        for index in range(1, 1 << width):
            bit = index & -index
            card = chunk[bit.bit_length() - 1]
            rest = index ^ bit
            if card is None:
                patterns[index], ranks[index] = patterns[rest], ranks[rest]
            else:
                patterns[index] = patterns[rest] + card[0]
                ranks[index] = ranks[rest] | 1 << card[1]
        tables.append((patterns, ranks))
    return tables


def pieces_of(links: Sequence[int], columns: Sequence[int], width: int) -> Pieces:
    """For every set of classes (a bit mask, the list's index): its connected pieces
    under ``links`` (class -> the classes it links to), lowest first, each as (the
    card-id mask of its classes' cards ``columns`` and their fields' mask, ``width`` bits
    each). Built by adding the classes one at a time, highest last: a class joins the
    pieces of the lower set it links to into one."""
    count = len(links)
    field = (1 << width) - 1
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
    return [tuple(piece[1:] for piece in pieces) for pieces in found]
