"""Meld shapes: what every meld of a kind must look like (the solver's search hint).

A :class:`KindShape` is read from a compiled meld pattern's facts
(:func:`shape_of_pattern`) and only ever *narrows* the groups the solver lists;
the kinds' predicates still decide what a meld is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from ..errors import MeldError
from ..expr import ast
from ..expr.facts import PatternFacts

__all__ = ["Family", "KindShape", "MergedShape", "shape_of_pattern", "merge_shapes", "split_sizes", "suit_blind"]

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


# -- which melds split into smaller melds (the cost search's short candidate list) ----

#: Conjuncts that every sub-group of a meld keeps, given its size is still in bounds:
#: ``same(rank)``, ``same(suit)``, ``distinct(suit)``, ``distinct(rank)`` and
#: ``consecutive(rank)`` (a window of a sequence is a sequence).
_HEREDITARY_CALLS = {("same", "rank"), ("same", "suit"), ("distinct", "suit"), ("distinct", "rank"),
                     ("consecutive", "rank")}


def _conjunct_kinds(node: Any) -> tuple[frozenset[tuple[str, str]], bool] | None:
    """The hereditary calls of a pattern's top-level ``and``s, and whether one more
    conjunct is ``not same(suit)``; ``None`` when any other conjunct is there (an
    ``or``, a conditional, ``naturals``, ``size % 2``...). A bound on ``size`` (a
    number or an option, read by the pattern's facts) is allowed."""
    calls: set[tuple[str, str]] = set()
    not_same_suit = False
    stack = [node]
    while stack:
        part = stack.pop()
        if isinstance(part, ast.BoolOp) and part.op == "and":
            stack += [part.left, part.right]
        elif isinstance(part, ast.Call) and len(part.args) == 1 and isinstance(part.args[0], ast.Name) \
                and (part.func, part.args[0].id) in _HEREDITARY_CALLS:
            calls.add((part.func, part.args[0].id))
        elif (isinstance(part, ast.Not) and isinstance(part.operand, ast.Call) and part.operand.func == "same"
              and len(part.operand.args) == 1 and isinstance(part.operand.args[0], ast.Name)
              and part.operand.args[0].id == "suit"):
            not_same_suit = True
        elif isinstance(part, ast.Compare) and _is_size(part.left) and (
                (part.op in (">=", ">", "==") and isinstance(part.right, ast.IntLit))
                or (part.op in ("<=", "<") and isinstance(part.right, (ast.IntLit, ast.Name)))):
            continue  # a least size only as a number (the facts read it for sure); a greatest may be an option
        elif isinstance(part, ast.InOp) and part.op == "in" and _is_size(part.left) \
                and isinstance(part.right, ast.Range) and isinstance(part.right.low, ast.IntLit) \
                and isinstance(part.right.high, (ast.IntLit, ast.Name)):
            continue
        else:
            return None
    return frozenset(calls), not_same_suit


def _is_size(node: Any) -> bool:
    return isinstance(node, ast.Name) and node.id == "size"


def split_sizes(kinds: Mapping[str, object]) -> dict[str, int | None]:
    """For each kind, the size from which every *wild-free* meld of it splits into two
    smaller wild-free melds (of it or another kind), or ``None`` when that is not known.

    A kind qualifies when its pattern is only conjuncts that every window or subset of
    a meld keeps (``same``/``distinct`` of rank or suit, ``consecutive(rank)``) and
    bounds on ``size`` read by its facts: a meld of ``2 * min_size`` cards or more splits
    into a first piece of ``min_size`` cards (the lowest sequence positions, or any
    cards of a set) and the rest, both of the kind. A kind with one more conjunct
    ``not same(suit)`` (Skarney's poker, SK-3.3) qualifies when another qualifying kind
    has the same conjuncts plus ``same(suit)`` (the run), at most its least size and
    no smaller greatest size: each piece is then of one kind or the other. Splitting
    keeps the cost (a meld's cards cost the same in one meld or two), so the cost
    search may leave out the melds that split; the canonical arrangement is still
    read with them (:mod:`.search`).

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.expr import BOOL, Context, Env, compile_expression
    >>> env = Env(Context.MELD, Deck.preset("standard52"))
    >>> pats = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)",
    ...         "poker": "size >= 3 and consecutive(rank) and not same(suit)", "odd": "size >= 3 and size % 2 == 1"}
    >>> split_sizes({k: compile_expression(t, env, BOOL) for k, t in pats.items()})
    {'set': 6, 'run': 6, 'poker': 6, 'odd': None}
    """
    read: dict[str, tuple[frozenset[tuple[str, str]], bool, int, int | None]] = {}
    for name, predicate in kinds.items():
        facts = getattr(predicate, "facts", None)
        node = getattr(predicate, "ast", None)
        if not isinstance(facts, PatternFacts) or node is None:
            continue
        got = _conjunct_kinds(node)
        if got is not None:
            read[name] = (got[0], got[1], max(facts.min_size, 1), facts.max_size)
    out: dict[str, int | None] = {}
    for name in kinds:
        if name not in read:
            out[name] = None
            continue
        calls, not_same_suit, low, high = read[name]
        if not not_same_suit:
            out[name] = 2 * low
            continue
        partners = [other_low for other, (other_calls, other_not, other_low, other_high) in read.items()
                    if other != name and not other_not and other_calls == calls | {("same", "suit")}
                    and other_low <= low and (other_high is None or (high is not None and other_high >= high))]
        out[name] = 2 * low if partners else None
    return out


def suit_blind(kinds: Mapping[str, object]) -> bool:
    """Whether being a meld never depends on suits: every kind's pattern is conjuncts
    :func:`split_sizes` reads with no suit in them, except pairs that say the same
    with ``same(suit)`` and with ``not same(suit)`` and the same size bounds (Skarney's
    run and poker, SK-3.2 and SK-3.3: together, any sequence). Then two cards of one
    rank and one value are interchangeable for the cost of an arrangement.

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.expr import BOOL, Context, Env, compile_expression
    >>> env = Env(Context.MELD, Deck.preset("standard52"))
    >>> skarney = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)",
    ...            "poker": "size >= 3 and consecutive(rank) and not same(suit)"}
    >>> suit_blind({k: compile_expression(t, env, BOOL) for k, t in skarney.items()})
    True
    >>> del skarney["poker"]
    >>> suit_blind({k: compile_expression(t, env, BOOL) for k, t in skarney.items()})
    False
    """
    read: dict[str, tuple[frozenset[tuple[str, str]], bool, int, int | None]] = {}
    for name, predicate in kinds.items():
        facts = getattr(predicate, "facts", None)
        node = getattr(predicate, "ast", None)
        if not isinstance(facts, PatternFacts) or node is None:
            return False
        got = _conjunct_kinds(node)
        if got is None:
            return False
        read[name] = (got[0], got[1], facts.min_size, facts.max_size)
    same_suit = ("same", "suit")
    for name, (calls, not_same, low, high) in read.items():
        suits = {call for call in calls if call[1] == "suit"}
        if not suits and not not_same:
            continue
        if not_same and not suits:
            pair = calls | {same_suit}
            wanted_not = False
        elif suits == {same_suit} and not not_same:
            pair = calls - {same_suit}
            wanted_not = True
        else:
            return False
        if not any(other_calls == pair and other_not == wanted_not and (other_low, other_high) == (low, high)
                   for other_calls, other_not, other_low, other_high in read.values()):
            return False
    return True
