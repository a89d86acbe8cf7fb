"""A wild-free hand's canonical arrangement read by its parts' rank patterns, for :mod:`.rankwindows`.

With suit-blind kinds whose links are their ranks' (:mod:`.rankparts`) on a direct hand
(:attr:`.RankWindows.direct`), each part of the hand is read by its pattern
(:mod:`.rankclasses`): a part of fewer cards than the least meld is all deadwood (its
pattern's value), one of just a meld's fewest cards is that meld or all deadwood
(:func:`~.rankprefill.whole_meld`), and a larger one walks its pattern
(:meth:`~.rankclasses.RankClasses.walk_loose`, kept per card set). The arrangement is the
union of the parts' (module docs of :mod:`.rankwindows`), its melds by first card.
:func:`arrange_by_ranks` is :meth:`.RankWindows.arrangement`'s loop for that case alone,
without the questions the general loop asks a part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .core import Arrangement
from .rankprefill import PREFILL_AFTER, prefill, whole_meld

if TYPE_CHECKING:
    from ..cards import Card
    from .rankclasses import PartWalk, RankClasses
    from .rankparts import RankParts

__all__ = ["ArrangedWindows", "arrange_by_ranks", "by_first_card"]


class ArrangedWindows(Protocol):
    """What :func:`arrange_by_ranks` reads of the hand's :class:`~.rankwindows.RankWindows`."""

    fewest: int
    arrangements: dict[int, PartWalk]
    memo_limit: int
    _walks: int
    _last_keys: list[int]

    def parts(self, mask: int) -> list[int]: ...


def by_first_card(parts: int, melds: list[tuple[Card, ...]], kinds: list[frozenset[str]]
                  ) -> tuple[tuple[tuple[Card, ...], ...], tuple[frozenset[str], ...]]:
    """The melds of ``parts`` parts (each part's in order) and their kinds, by first card."""
    if parts > 1 and len(melds) == 2:  # the most common case: one comparison
        if melds[0][0].id > melds[1][0].id:
            return (melds[1], melds[0]), (kinds[1], kinds[0])
        return tuple(melds), tuple(kinds)
    if parts > 1 and len(melds) > 1:  # (first cards differ: no meld is compared)
        _, sorted_melds, sorted_kinds = zip(*sorted(zip([meld[0].id for meld in melds], melds, kinds)))
        return sorted_melds, sorted_kinds
    return tuple(melds), tuple(kinds)


def arrange_by_ranks(windows: ArrangedWindows, classes: RankClasses, by_ranks: RankParts, mask: int,
                     holds: bool) -> Arrangement:
    """The canonical arrangement of the wild-free hand ``mask`` (module docs), with
    :attr:`Arrangement.contract` ``holds``."""
    deadwood = 0
    melds: list[tuple[Card, ...]] = []
    kinds: list[frozenset[str]] = []
    loose = 0  # the unmatched cards, read out by id at the end
    fewest = windows.fewest
    memo = windows.arrangements
    parts = windows.parts(mask)
    values, judged = classes.pattern_values, classes.judged
    for part, key in zip(parts, windows._last_keys):
        size = part.bit_count()
        if size <= fewest:  # by its pattern: fewer cards than a meld, or a meld's fewest
            if size == fewest and (judged.get(key) or (key not in judged and classes.melds_pattern(key))):
                meld, names = whole_meld(classes, part, key)
                melds.append(meld)
                kinds.append(names)
                continue
            deadwood += values.get(key) or classes.pattern_value(key)
            loose |= part
            continue
        kept = memo.get(part)
        if kept is None:
            if windows._walks < PREFILL_AFTER:
                windows._walks += 1
                if windows._walks == PREFILL_AFTER:
                    prefill(classes, by_ranks)
            kept = classes.walk_loose(part, key)
            if len(memo) >= windows.memo_limit:
                memo.clear()
            memo[part] = kept
        deadwood += kept[0]
        melds += kept[1]
        kinds += kept[2]
        loose |= kept[3]
    if len(melds) < 2:
        sorted_melds, sorted_kinds = tuple(melds), tuple(kinds)
    else:
        sorted_melds, sorted_kinds = by_first_card(len(parts), melds, kinds)
    # tuple.__new__ skips the named tuple's Python-level __new__ (as MeldRules.solve does)
    return tuple.__new__(Arrangement, (deadwood, sorted_melds, sorted_kinds, by_ranks.cards_of(loose), holds,
                                       (), None, (), ()))
