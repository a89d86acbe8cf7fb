"""The rank classes' memos filled at once for every small part, for :mod:`.rankwindows`.

A new hand's parts are mostly patterns (:mod:`.rankclasses`) seen before only in part:
its walk (:meth:`~.rankclasses.RankClasses.walk_loose`) asks the least deadwood of new
patterns, and their searches list new melds. Every part is one connected piece of the
classes (:mod:`.rankparts`) holding 1 to all of each class's cards, and the pieces of up to
:data:`PREFILL_MOST` cards are few (about 1,500 patterns for one pack of 13 ranks), so a
solver in steady use fills, once, for each such pattern: its least deadwood, the melds
of each of its classes, the least deadwood each of those leaves, and those that leave
the least (:meth:`~.rankclasses.RankClasses.tight`: the first step of a walk from any
card). It does so after :data:`PREFILL_AFTER` parts walked afresh (about 190 hands of
ten cards), so a solver asked a few hands never pays for it (about 25 ms of CPU for one
pack, some five times what those walks cost). The memos' answers are the
same filled or not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rankclasses import CLASS_MEMO_LIMIT

if TYPE_CHECKING:
    from ..cards import Card
    from .rankclasses import RankClasses
    from .rankparts import RankParts

__all__ = ["PREFILL_AFTER", "PREFILL_MOST", "prefill", "small_parts", "whole_meld"]

PREFILL_AFTER = 256
"""Parts walked afresh (not kept by card set) before a solver fills its memos."""

PREFILL_MOST = 7
"""The most cards of a pattern :func:`prefill` fills."""


def small_parts(classes: RankClasses, parts: RankParts, most: int) -> list[int]:
    """The patterns of every part of at most ``most`` cards (and at least one): each
    connected piece of classes (one piece in :attr:`.RankParts.pieces`) with 1 to all of
    each class's cards."""
    out: list[int] = []
    members, inc = classes.members, classes.inc
    for held in range(1, len(parts.pieces)):
        if held.bit_count() > most or len(parts.pieces[held]) != 1:
            continue
        ks = [k for k in range(classes.count) if held >> k & 1]
        found = [(0, 0)]  # (pattern, cards)
        for k in ks:
            found = [(key + n * inc[k], size + n) for key, size in found
                     for n in range(1, min(len(members[k]), most - size) + 1)]
        out += [key for key, _size in found]
    return out


def prefill(classes: RankClasses, parts: RankParts, most: int = PREFILL_MOST) -> None:
    """Fill ``classes``' memos for every part of at most ``most`` cards (module docs)."""
    least, tight, field = classes.least, classes.tight, classes.field
    width = classes.width
    for key in small_parts(classes, parts, most):
        least(key)
        rest, k = key, 0
        while rest:
            if rest & field:
                tight(k, key)
            rest >>= width
            k += 1


def whole_meld(classes: RankClasses, mask: int, key: int) -> tuple[tuple[Card, ...], frozenset[str]]:
    """The cards and kind names of the wild-free cards ``mask`` (of pattern ``key``) as one
    meld: :meth:`~.rankclasses.RankClasses.walk_loose`'s arrangement of a part that melds
    whole and holds no smaller meld (no meld leaves less than none; at its lowest card the
    whole part is the largest meld that leaves that). For :mod:`.rankwindows`, which reads a
    part of just a meld's fewest cards this way instead of walking it."""
    named = classes.group_names[not mask & classes.off_suit[(mask & -mask).bit_length() - 1]]
    got_names = named.get(key)
    if got_names is None:
        if len(named) >= CLASS_MEMO_LIMIT:
            named.clear()
        got_names = named[key] = classes.core._names(classes.kinds(mask, key))
    return classes.cards_of(mask), got_names
