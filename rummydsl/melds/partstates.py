"""What the part searches of one solver share: their states, and each part's suit pattern.

:mod:`.wildwindows` asks many parts of many hands with wild cards, one search each
(:func:`~.partsearch.part_search`); two things those searches work out again and again
are kept here, once a solver:

* A search state's least deadwood depends on its cards and wild cards alone, not on the
  part it was met in: a meld of the state's natural cards and at most its wild cards is
  a meld of any part holding them (every part's melds are every group of its own cards
  with at most its ``w`` wild cards, and a state of it has at most ``w``), and an
  unmatched card costs its value wherever it is. So one table of states, by
  ``wilds << size | mask``, serves every part's search (:data:`STATES_LIMIT`): a part
  grown by one card reads most of its states from the part it grew from, the same part
  with another number of wild cards all of the states they share, and a discard's rest
  that was a state of an earlier search costs nothing. The table holds ints alone, so the
  collector never walks it (a closure's memo kept open lives into its older
  generations).
* A part's suit pattern (:meth:`Placings.__call__`), which a new part's costs and then its
  discards each ask.

>>> from rummydsl.melds import MeldRules
>>> from rummydsl.variant import load_variant
>>> rules = MeldRules.from_variant(load_variant("ginski"))
>>> part = sum(1 << c.id for c in rules.check_hand("4B 5B 6B 7G"))  # suits 1 and 2 of 5, 13 ranks
>>> pattern, order, place = Placings(5, 13)(part)
>>> bin(pattern & 0x1FFF), bin(pattern >> 13 & 0x1FFF), order, place
('0b1000000', '0b111000', (2, 1, 0, 3, 4), (2, 1, 0, 3, 4))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["STATES_LIMIT", "Placing", "Placings", "lazy_search", "shared_states"]

STATES_LIMIT = 1 << 17
"""Part search states a solver keeps (:func:`shared_states`) before it starts again."""

PLACINGS_LIMIT = 1 << 15
"""Parts whose placing a solver keeps before it starts again."""

Placing = tuple[int, Sequence[int], Sequence[int]]
"""A part's pattern (its suits' rank masks sorted from the largest, in suits ``0, 1,
...``), for each place of the pattern the part's suit it was, and for each suit of the
deck its place in the pattern."""


def shared_states(states: dict[int, int]) -> dict[int, int]:
    """``states``, the solver's table of part search states (module docs), emptied first
    once it holds :data:`STATES_LIMIT` of them: for a search about to be opened."""
    if len(states) >= STATES_LIMIT:
        states.clear()
    return states


class Placings:
    """The placing (:data:`Placing`) of parts of a deck of ``suits`` suits of ``ranks`` ranks, whose
    natural card ``suit * ranks + r`` is of the ``r``-th rank (the grid of
    :attr:`~.wildwindows.WildWindows.grid`), kept by part."""

    def __init__(self, suits: int, ranks: int) -> None:
        self.suits = suits
        self.ranks = ranks
        self._kept: dict[int, Placing] = {}
        self._full = (1 << ranks) - 1
        self._shifts = tuple(s * ranks for s in range(suits))
        self._suits = range(suits)
        self._place = [0] * suits

    def __call__(self, part: int) -> Placing:
        """The placing of the part ``part`` (a card-id mask of natural cards)."""
        got = self._kept.get(part)
        if got is not None:
            return got
        ranks = self.ranks
        full = self._full
        masks = [part >> shift & full for shift in self._shifts]
        order = sorted(self._suits, key=masks.__getitem__, reverse=True)
        pattern = 0
        place = self._place[:]
        shift = 0
        for i, s in enumerate(order):
            pattern |= masks[s] << shift
            place[s] = i
            shift += ranks
        kept = self._kept
        if len(kept) >= PLACINGS_LIMIT:
            kept.clear()
        got = kept[part] = (pattern, tuple(order), tuple(place))
        return got


def lazy_search(states: dict[int, int], shift: int, opened: Callable[[], Callable[[int, int], int]],
                base: int = 0) -> Callable[[int, int], int]:
    """``least(mask, wilds)`` of a part's search (:func:`~.partsearch.part_search`, opened
    by ``opened()``), reading the shared ``states`` (by ``(base | wilds) << shift | mask``)
    first: the part's melds are listed and its search opened only for a state not met yet (a
    part met before inside a larger one, or a discard whose rest was a state of an
    earlier search, costs no listing)."""
    get = states.get
    search: list[Callable[[int, int], int]] = []

    def least(mask: int, wilds: int) -> int:
        got = get((base | wilds) << shift | mask)
        if got is not None:
            return got
        if not search:
            search.append(opened())
        return search[0](mask, wilds)

    return least
