"""What a meld pattern says for certain, read from its checked syntax tree.

The meld solver enumerates candidate groups by shape (cards of one rank, or
sequences), and the semantic checks probe only the sizes a pattern can accept.
Both need *necessary* conditions of a pattern, which its top-level ``and``s give:
``size >= 3``, ``size in 3..4``, ``size <= set_max`` (an option, read at its
value), ``same(rank)``, ``same(suit)``, ``consecutive(rank)``. Anything else
(an ``or``, a ``not``, a conditional) says nothing here; the compiled predicate
always has the last word.

>>> from rummydsl.cards import Deck
>>> from rummydsl.expr import BOOL, Context, Env, compile_expression
>>> env = Env(Context.MELD, Deck.preset("rumski70"), options={"set_max": 5})
>>> compile_expression("size >= 3 and size <= set_max and same(rank)", env, BOOL).facts
PatternFacts(min_size=3, max_size=5, same_rank=True, same_suit=False, consecutive=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rummydsl.expr import ast

__all__ = ["PatternFacts", "ContractFacts", "pattern_facts", "contract_facts", "bounds_of"]


@dataclass(frozen=True)
class PatternFacts:
    """Necessary conditions of a meld pattern: every group it accepts has them."""

    min_size: int = 1
    """No accepted group has fewer cards."""
    max_size: int | None = None
    """No accepted group has more cards (``None``: no bound)."""
    same_rank: bool = False
    """The natural cards of an accepted group share one rank."""
    same_suit: bool = False
    """The natural cards of an accepted group share one suit."""
    consecutive: bool = False
    """The natural cards of an accepted group take distinct sequence positions in one run."""


@dataclass(frozen=True)
class ContractFacts:
    """Necessary conditions of a contract: how many melds it can take."""

    min_melds: int = 1
    """No collection of fewer melds meets it."""
    max_melds: int | None = None
    """No collection of more melds meets it (``None``: no bound)."""
    min_size: int = 1
    """Every meld of a collection that meets it has at least this many cards (from ``all(size ...)``)."""
    max_size: int | None = None
    """Every meld of a collection that meets it has at most this many cards (``None``: no bound)."""


def bounds_of(node: ast.Expr, bindings: Mapping[int, tuple[str, Any]], name: str) -> tuple[int, int | None]:
    """The least and greatest values the context name ``name`` (``size``, ``count``)
    can have where ``node`` holds, from its top-level ``and``s; ``(1, None)`` if none."""
    low, high = 1, None
    for part in _conjuncts(node):
        if isinstance(part, ast.Compare) and _is_name(part.left, bindings, name):
            bound = _number(part.right, bindings)
            if bound is None:
                continue
            if part.op in (">=", ">", "=="):
                low = max(low, bound + (part.op == ">"))
            if part.op in ("<=", "<", "=="):
                top = bound - (part.op == "<")
                high = top if high is None else min(high, top)
        elif (isinstance(part, ast.InOp) and part.op == "in" and _is_name(part.left, bindings, name)
              and isinstance(part.right, ast.Range)):
            first, last = _number(part.right.low, bindings), _number(part.right.high, bindings)
            if first is not None:
                low = max(low, first)
            if last is not None:
                high = last if high is None else min(high, last)
    return low, high


def pattern_facts(node: ast.Expr, bindings: Mapping[int, tuple[str, Any]]) -> PatternFacts:
    """The facts of a checked meld pattern; ``bindings`` resolve option names
    (the checker's ``Checked.bindings``)."""
    same_rank = same_suit = consecutive = False
    for part in _conjuncts(node):
        if isinstance(part, ast.Call) and len(part.args) == 1 and isinstance(part.args[0], ast.Name):
            attribute = part.args[0].id
            same_rank |= part.func == "same" and attribute == "rank"
            same_suit |= part.func == "same" and attribute == "suit"
            consecutive |= part.func == "consecutive"
    low, high = bounds_of(node, bindings, "size")
    return PatternFacts(low, high, same_rank, same_suit, consecutive)


def contract_facts(node: ast.Expr, bindings: Mapping[int, tuple[str, Any]]) -> ContractFacts:
    """The facts of a checked contract (``count == 3 and all(size == 3)``: 3 melds of 3 cards).

    A contract by deal (CR-2), ``c ? a : b``, has what both branches have: the fewer
    melds and smaller melds of the two, and a bound only where both have one.
    """
    if isinstance(node, ast.Conditional):
        one = contract_facts(node.then, bindings)
        two = contract_facts(node.otherwise, bindings)
        return ContractFacts(min(one.min_melds, two.min_melds), _loose(one.max_melds, two.max_melds),
                             min(one.min_size, two.min_size), _loose(one.max_size, two.max_size))
    low, high = bounds_of(node, bindings, "count")
    size_low, size_high = 1, None
    for part in _conjuncts(node):
        if isinstance(part, ast.Call) and part.func == "all" and len(part.args) == 1:
            lo, hi = bounds_of(part.args[0], bindings, "size")
            size_low = max(size_low, lo)
            if hi is not None:
                size_high = hi if size_high is None else min(size_high, hi)
    return ContractFacts(low, high, size_low, size_high)


def _loose(one: int | None, two: int | None) -> int | None:
    """The larger of two upper bounds (``None``, no bound, if either has none)."""
    return None if one is None or two is None else max(one, two)


def _conjuncts(node: ast.Expr) -> list[ast.Expr]:
    found: list[ast.Expr] = []
    stack = [node]
    while stack:
        part = stack.pop()
        if isinstance(part, ast.BoolOp) and part.op == "and":
            stack += [part.right, part.left]
        else:
            found.append(part)
    return found


def _is_name(part: ast.Expr, bindings: Mapping[int, tuple[str, Any]], name: str) -> bool:
    return isinstance(part, ast.Name) and bindings.get(id(part), ("", None)) == ("context", name)


def _number(part: ast.Expr, bindings: Mapping[int, tuple[str, Any]]) -> int | None:
    """An integer literal, or an option's integer value."""
    if isinstance(part, ast.IntLit):
        return part.value
    if isinstance(part, ast.Name):
        kind, value = bindings.get(id(part), ("", None))
        if kind == "option" and isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
