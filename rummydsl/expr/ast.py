"""Typed syntax trees of expressions, with positions.

The parser (:mod:`rummydsl.expr.parser`) turns the Lark tree into these frozen
dataclasses; the checker (:mod:`rummydsl.expr.check`) gives every node a type, and
the compiler (:mod:`rummydsl.expr.compile`) turns the checked tree into closures.

Every node has ``line`` and ``column``: where the node starts inside the expression
text, counting from 1 (the loader adds the position of the YAML scalar).

>>> from rummydsl.expr.parser import parse
>>> parse("order + 1")
BinOp(line=1, column=1, op='+', left=Name(line=1, column=1, id='order'), right=IntLit(line=1, column=9, value=1))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Iterator, Literal, Union

__all__ = [
    "Node",
    "IntLit",
    "BoolLit",
    "Name",
    "Attribute",
    "Call",
    "Aggregate",
    "ListExpr",
    "Neg",
    "Not",
    "BinOp",
    "BoolOp",
    "Compare",
    "InOp",
    "Range",
    "Conditional",
    "Expr",
    "children",
    "walk",
]

ArithOp = Literal["+", "-", "*", "//", "%"]
CompareOp = Literal["==", "!=", "<", "<=", ">", ">="]


@dataclass(frozen=True, kw_only=True, eq=False, repr=False)
class Node:
    """The base of every node: its place in the expression text."""

    line: int = 1
    """The 1-based line where the node starts."""
    column: int = 1
    """The 1-based column where the node starts."""

    # Every node is a frozen dataclass. Its __repr__, __eq__ and __hash__ are these
    # shared ones, which do exactly what @dataclass would write for each class
    # (fields in order; equal only to the same class): generating them for every
    # class cost several milliseconds of import time.

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in _field_names(type(self))) + ")"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            names = _field_names(type(self))
            return tuple(getattr(self, n) for n in names) == tuple(getattr(other, n) for n in names)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in _field_names(type(self))))


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


@dataclass(frozen=True, eq=False, repr=False)
class IntLit(Node):
    """An integer literal: ``42`` (also a numeric rank symbol such as ``10``)."""

    value: int


@dataclass(frozen=True, eq=False, repr=False)
class BoolLit(Node):
    """``true`` or ``false``."""

    value: bool


@dataclass(frozen=True, eq=False, repr=False)
class Name(Node):
    """A bare name: a context name, an option, a ``let``, a loop variable, or a symbol."""

    id: str


@dataclass(frozen=True, eq=False, repr=False)
class Attribute(Node):
    """``obj.name``: an attribute of a card (``upcard.rank``)."""

    obj: "Expr"
    name: str


@dataclass(frozen=True, eq=False, repr=False)
class Call(Node):
    """``func(arg, ...)``: a function call."""

    func: str
    args: tuple["Expr", ...]


@dataclass(frozen=True, eq=False, repr=False)
class Aggregate(Node):
    """``func(element for var in iterable)``: sum, min, max, count, any or all over a list."""

    func: str
    element: "Expr"
    var: str
    iterable: "Expr"
    var_line: int = 1
    """Where the loop variable is written (for error messages)."""
    var_column: int = 1


@dataclass(frozen=True, eq=False, repr=False)
class ListExpr(Node):
    """``[a, b, ...]``: a list literal."""

    items: tuple["Expr", ...]


@dataclass(frozen=True, eq=False, repr=False)
class Neg(Node):
    """``-operand``: integer negation."""

    operand: "Expr"


@dataclass(frozen=True, eq=False, repr=False)
class Not(Node):
    """``not operand``: boolean negation."""

    operand: "Expr"


@dataclass(frozen=True, eq=False, repr=False)
class BinOp(Node):
    """``left op right`` for the integer operators ``+ - * // %``."""

    op: ArithOp
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True, eq=False, repr=False)
class BoolOp(Node):
    """``left and right`` / ``left or right`` (short-circuit)."""

    op: Literal["and", "or"]
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True, eq=False, repr=False)
class Compare(Node):
    """``left op right`` for ``== != < <= > >=`` (comparisons do not chain)."""

    op: CompareOp
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True, eq=False, repr=False)
class InOp(Node):
    """``left in right`` / ``left not in right``: membership in a list or a range."""

    op: Literal["in", "not in"]
    left: "Expr"
    right: "Expr"

    @property
    def negated(self) -> bool:
        """Whether this is ``not in``."""
        return self.op == "not in"


@dataclass(frozen=True, eq=False, repr=False)
class Range(Node):
    """``low..high``: an inclusive range, only on the right of ``in``."""

    low: "Expr"
    high: "Expr"


@dataclass(frozen=True, eq=False, repr=False)
class Conditional(Node):
    """``test ? then : otherwise`` (right-associative)."""

    test: "Expr"
    then: "Expr"
    otherwise: "Expr"


Expr = Union[
    IntLit,
    BoolLit,
    Name,
    Attribute,
    Call,
    Aggregate,
    ListExpr,
    Neg,
    Not,
    BinOp,
    BoolOp,
    Compare,
    InOp,
    Range,
    Conditional,
]
"""Any expression node."""


def children(node: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of ``node``, left to right.

    >>> from rummydsl.expr.parser import parse
    >>> [type(c).__name__ for c in children(parse("a ? 1 : b"))]
    ['Name', 'IntLit', 'Name']
    """
    if isinstance(node, (IntLit, BoolLit, Name)):
        return ()
    if isinstance(node, Attribute):
        return (node.obj,)
    if isinstance(node, (Call, ListExpr)):
        return node.args if isinstance(node, Call) else node.items
    if isinstance(node, Aggregate):
        return (node.element, node.iterable)
    if isinstance(node, (Neg, Not)):
        return (node.operand,)
    if isinstance(node, (BinOp, BoolOp, Compare, InOp)):
        return (node.left, node.right)
    if isinstance(node, Range):
        return (node.low, node.high)
    return (node.test, node.then, node.otherwise)


def walk(node: Expr) -> Iterator[Expr]:
    """Every node of the tree, parents before children (iterative, no recursion).

    >>> from rummydsl.expr.parser import parse
    >>> [n.id for n in walk(parse("min(a, b) + c")) if isinstance(n, Name)]
    ['a', 'b', 'c']
    """
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))
