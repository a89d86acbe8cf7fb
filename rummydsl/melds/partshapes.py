"""A part's shape: its suit pattern moved down to the lowest rank, searched once for every rank it sits at.

:mod:`.wildwindows` keeps a part's least deadwoods by its suit pattern (its suits' rank
masks sorted, :class:`~.partstates.Placings`), so a part met in other suits is answered at
once. Its search is run on cards of the pattern too, moved down by the part's lowest rank
``d`` (the *shape*), each card standing for the card ``d`` ranks higher, with that card's
value (:func:`values_at`): the same search as the part's, card for renamed card, where
moving every card by some ranks turns a meld into a meld and a non-meld into a non-meld
(:func:`shifts`). Then the melds listed for the shape (:func:`~.partsearch.part_melds`)
and the pools they are listed from serve every part of that shape, whatever its suits and
its ranks, and the search states of parts renamed into one another are one table's
entries (by ``d`` and the shape's cards, :func:`~.partsearch.part_search`'s ``base``).

>>> from rummydsl.melds import MeldRules
>>> from rummydsl.melds.partstates import Placings
>>> from rummydsl.variant import load_variant
>>> rules = MeldRules.from_variant(load_variant("ginski"))
>>> part = sum(1 << c.id for c in rules.check_hand("4B 5B 6B 7G"))
>>> shape, d = shape_of(Placings(5, 13)(part)[0], 13, True)
>>> d, bin(shape & 0x1FFF), bin(shape >> 13 & 0x1FFF)
(3, '0b1000', '0b111')
>>> shifts(rules, (5, 13))
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .candidates import PoolMelds
from .core import MeldCore, bits_of
from .partsearch import PartMelds, part_melds, part_search
from .partstates import Placings, lazy_search, shared_states

__all__ = ["SHAPES_LIMIT", "Shapes", "shape_of", "shifts", "values_at"]

SHAPES_LIMIT = 1 << 10
"""Part shapes whose melds a solver keeps before it starts again."""


class Shapes:
    """The searches of a solver's parts by their shapes (module docs), on a deck laid out
    as ``grid`` (``(suits, ranks)``, :attr:`~.wildwindows.WildWindows.grid`): the parts'
    placings ``placed``, the pools' melds ``pools`` and the table of search states
    ``states`` are the solver's wild windows'."""

    def __init__(self, core: MeldCore, pools: PoolMelds, states: dict[int, int], placed: Placings,
                 grid: tuple[int, int]) -> None:
        self.core = core
        self.pools = pools
        self.states = states
        self.placed = placed
        self.ranks = grid[1]
        self.moves = shifts(core, grid)
        """Whether the shapes are moved down to their lowest rank (else each is its pattern)."""
        self.melds: dict[int, PartMelds] = {}
        """A shape's melds (:func:`~.partsearch.part_melds`), by ``shape << 3 | w``."""
        self._values: dict[int, list[int]] = {}
        """``d`` -> the values of a shape's cards moved down by ``d`` ranks (:func:`values_at`)."""

    def shaped(self, part: int) -> tuple[int, int, Sequence[int]]:
        """The shape of the part ``part`` (a card-id mask of natural cards), the ranks ``d``
        it was moved down by, and for each suit of the deck its place in the shape: the
        part's card ``s * ranks + r`` is the shape's ``place[s] * ranks + r - d``."""
        pattern, _, place = self.placed(part)
        shape, d = shape_of(pattern, self.ranks, self.moves)
        return shape, d, place

    def asker(self, shape: int, d: int, w: int) -> Callable[[int, int], int]:
        """``least(mask, wilds)`` of the shape ``shape`` moved down by ``d`` ranks with ``w``
        wild cards (``mask``: some of the shape's cards), reading the shared states first
        and listing the shape's melds (kept) only for a state not met yet."""
        return lazy_search(self.states, self.core._size, lambda: self._search(shape, d, w), d << 3)

    def _melds(self, shape: int, w: int) -> PartMelds:
        key = shape << 3 | w
        melds = self.melds.get(key)
        if melds is None:
            kept = self.melds
            if len(kept) >= SHAPES_LIMIT:
                kept.clear()
            melds = kept[key] = part_melds(shape, w, self.pools)
        return melds

    def _search(self, shape: int, d: int, w: int) -> Callable[[int, int], int]:
        melds = self._melds(shape, w)
        values = self._values.get(d)
        if values is None:
            values = self._values[d] = values_at(self.core, self.ranks, d)
        return part_search(self.core, shape, w, self.pools, melds, shared_states(self.states), values, d << 3)

    def own(self, part: int, w: int) -> tuple[PartMelds, Callable[[int, int], int]]:
        """The part's melds and ``least(mask, wilds)`` of its search, in the part's own
        cards (:meth:`~.wildwindows.WildWindows.searched`'s), from its shape's: each mask
        renamed into the shape's cards and each meld back."""
        ranks = self.ranks
        full = (1 << ranks) - 1
        shape, d, place = self.shaped(part)
        moves = [(s * ranks + d, place[s] * ranks) for s in range(len(place)) if part >> s * ranks & full]
        least = self.asker(shape, d, w)

        by_lowest, wild_melds = self._melds(shape, w)
        if len(moves) == 1:  # (a part of one suit: one move each way, the lowest card kept)
            (src, dst), = moves
            return (_Renamed(by_lowest, src, dst), wild_melds), lambda mask, wilds: least(mask >> src << dst, wilds)
        out: dict[int, list[tuple[int, int]]] = {cid: [] for cid in bits_of(part)}
        for group in by_lowest.values():
            for natural, k in group:
                back = 0
                for src, dst in moves:
                    back |= (natural >> dst & full) << src
                out[(back & -back).bit_length() - 1].append((back, k))

        def ask(mask: int, wilds: int) -> int:
            into = 0
            for src, dst in moves:
                into |= (mask >> src & full) << dst
            return least(into, wilds)

        return (out, wild_melds), ask

    def each(self, part: int, w: int, cids: Iterable[int], each: dict[int, tuple[int, ...]]) -> None:
        """``each[cid]`` for the part's cards ``cids``: the part's least deadwoods with
        ``0..w`` wild cards without the card, from its shape's search."""
        ranks = self.ranks
        shape, d, place = self.shaped(part)
        least = self.asker(shape, d, w)
        top = range(w + 1)
        for cid in cids:
            rest = shape ^ 1 << place[cid // ranks] * ranks + cid % ranks - d
            each[cid] = tuple([least(rest, j) for j in top])


class _Renamed(dict[int, list[tuple[int, int]]]):
    """A part of one suit's melds by lowest card (:meth:`Shapes.own`), each card's renamed
    from its shape's when first read: the walk reads a few of its cards' alone."""

    __slots__ = ("by_lowest", "src", "dst")

    def __init__(self, by_lowest: dict[int, list[tuple[int, int]]], src: int, dst: int) -> None:
        super().__init__()
        self.by_lowest = by_lowest
        self.src = src
        self.dst = dst

    def __missing__(self, cid: int) -> list[tuple[int, int]]:
        src, dst = self.src, self.dst
        got = self[cid] = [(natural >> dst << src, k) for natural, k in self.by_lowest[cid - src + dst]]
        return got


def shifts(core: MeldCore, grid: tuple[int, int]) -> bool:
    """Whether moving every card of a part by the same number of ranks keeps each meld a
    meld and each non-meld a non-meld, on a deck of suit-symmetric kinds laid out as
    ``grid`` (:attr:`~.wildwindows.WildWindows.grid`, which checks that): the deck does
    not wrap, and each rank has one sequence position, the ``r``-th rank's ``r`` above the
    first's. The kinds read ranks only through ``same``, ``distinct``, ``count_distinct``
    and ``consecutive`` (:func:`~rummydsl.expr.facts.suit_symmetric`), and a group of
    distinct ranks fits a window of ``size`` positions at one place as at another wherever
    it fits in the deck."""
    if core._wrap:
        return False
    _, ranks = grid
    positions = core._positions
    first = positions[0]
    if len(first) != 1:
        return False
    return all(positions[r] == (first[0] + r,) for r in range(ranks))


def shape_of(pattern: int, ranks: int, moved: bool) -> tuple[int, int]:
    """The shape of a part of suit pattern ``pattern`` (a card-id mask on a grid of
    ``ranks`` ranks a suit) and the ranks ``d`` it was moved down by: its lowest rank with
    ``moved``, else 0 (the pattern itself)."""
    if not moved:
        return pattern, 0
    full = (1 << ranks) - 1
    low = 0
    m = pattern
    while m:
        low |= m & full
        m >>= ranks
    d = (low & -low).bit_length() - 1
    return pattern >> d, d  # (no suit's cards cross into the suit below: each is d or more up)


def values_at(core: MeldCore, ranks: int, d: int) -> list[int]:
    """The values of a shape's cards moved down by ``d`` ranks: card ``suit * ranks + r``
    worth the card ``d`` ranks higher (the rest, never in such a shape, their own)."""
    own = core.values
    natural = core._natural_mask
    return [own[c + d] if natural >> c & 1 and c % ranks + d < ranks else v for c, v in enumerate(own)]
