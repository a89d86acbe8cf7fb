"""Meld shapes: what every meld of a kind must look like (the solver's search hint).

A :class:`KindShape` is read from a compiled meld pattern's facts
(:func:`shape_of_pattern`) and only ever *narrows* the groups the solver lists;
the kinds' predicates still decide what a meld is. Which melds split into smaller
ones (:func:`split_sizes`) and whether suits never matter (:func:`suit_blind`) are
read from the patterns' syntax trees in :mod:`rummydsl.expr.facts` (the variant's
checks ask them too) and importable from here; whether a contract reads only its melds'
sizes and count is :func:`blind_contract`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ..errors import MeldError
from ..expr.facts import PatternFacts, split_sizes, suit_blind

__all__ = ["Family", "KindShape", "MergedShape", "shape_of_pattern", "merge_shapes", "split_sizes", "suit_blind",
           "blind_contract"]

Family = Literal["same_rank", "sequence", "any"]


@dataclass(frozen=True)
class KindShape:
    """What every meld of one kind must look like: the solver's search hint.

    A shape is a *necessary* condition the solver uses to list candidate groups;
    the kind's predicate still decides. ``same_rank``: the natural cards share
    one rank. ``sequence``: the natural cards take distinct sequence positions
    inside one window no longer than the group (wild cards fill the rest).
    ``any``: no structure known; every subset is tried (slow for big hands).

    >>> KindShape("sequence", 3, same_suit=True)
    KindShape(family='sequence', min_size=3, max_size=None, same_suit=True)
    >>> KindShape("spiral")
    Traceback (most recent call last):
    ...
    rummydsl.errors.MeldError: unknown meld shape family 'spiral' (expected 'same_rank', 'sequence' or 'any')

    :raises MeldError: for an unknown family.
    """

    family: Family = "any"
    """``same_rank``, ``sequence`` or ``any``."""
    min_size: int = 1
    """No meld of this kind has fewer cards."""
    max_size: int | None = None
    """No meld of this kind has more cards (``None``: no bound)."""
    same_suit: bool = False
    """The natural cards of every meld of this kind share one suit."""

    def __post_init__(self) -> None:
        if self.family not in ("same_rank", "sequence", "any"):
            raise MeldError(f"unknown meld shape family {self.family!r} "
                            "(expected 'same_rank', 'sequence' or 'any')")


class MergedShape(NamedTuple):
    """One candidate generator to run: the loosest bounds of the kinds of a family."""

    family: Family
    per_suit: bool
    """Every kind of the family keeps one suit: generate suit by suit."""
    min_size: int
    max_size: int | None


def shape_of_pattern(predicate: object) -> KindShape:
    """The :class:`KindShape` of a compiled meld pattern, from its
    :class:`~rummydsl.expr.PatternFacts` (the pattern's top-level ``and``s:
    ``same(rank)``, ``consecutive(rank)``, ``same(suit)``, bounds on ``size``).

    Anything else (a plain Python function) gives ``KindShape("any")``, which is
    always correct but slower.

    >>> shape_of_pattern(len)
    KindShape(family='any', min_size=1, max_size=None, same_suit=False)
    """
    facts = getattr(predicate, "facts", None)
    if not isinstance(facts, PatternFacts):
        return KindShape("any")
    family: Family = "sequence" if facts.consecutive else "same_rank" if facts.same_rank else "any"
    return KindShape(family, facts.min_size, facts.max_size, facts.same_suit)


def merge_shapes(shapes: Iterable[KindShape]) -> list[MergedShape]:
    """The generators to run, one per family with the loosest bounds of its kinds.

    A family is enumerated per suit only when every kind of that family keeps
    one suit; a family ``any`` covers everything, so it is then the only one.

    >>> merge_shapes([KindShape("same_rank", 3, 4), KindShape("sequence", 3, same_suit=True)])
    [MergedShape(family='same_rank', per_suit=False, min_size=3, max_size=4), \
MergedShape(family='sequence', per_suit=True, min_size=3, max_size=None)]
    """
    merged: dict[Family, tuple[bool, int, int | None]] = {}
    for shape in shapes:
        if shape.family in merged:
            suit, lo, hi = merged[shape.family]
            suit = suit and shape.same_suit
            lo = min(lo, shape.min_size)
            hi = None if hi is None or shape.max_size is None else max(hi, shape.max_size)
        else:
            suit, lo, hi = shape.same_suit, shape.min_size, shape.max_size
        merged[shape.family] = (suit, lo, hi)
    if "any" in merged:
        values = list(merged.values())
        lo = min(v[1] for v in values)
        his = [v[2] for v in values]
        hi = None if any(h is None for h in his) else max(h for h in his if h is not None)
        return [MergedShape("any", all(v[0] for v in values), lo, hi)]
    return [MergedShape(fam, suit, lo, hi) for fam, (suit, lo, hi) in merged.items()]


BLIND_CONTRACT_NAMES = frozenset({"count", "cards", "size", "all", "any", "min", "max", "abs", "sum", "count_where"})
"""The names a contract may read for :meth:`.rankclasses.RankClasses.holds`: its melds' sizes and count,
never their kinds, cards or the round."""


def blind_contract(contract: object) -> bool:
    """Whether a compiled contract reads only its melds' sizes and count (and options):
    then whether a hand meets it depends on the hand's rank pattern alone, under suit-blind
    kinds (a permutation of cards within their classes maps melds to melds)."""
    names = getattr(contract, "names", None)
    options: object = getattr(contract, "options", frozenset())
    return isinstance(names, frozenset) and isinstance(options, frozenset) and names - options <= BLIND_CONTRACT_NAMES
