"""Meld patterns and contracts in words: ``three or four cards of the same rank``,
``two sets and a run``.

A pattern or contract that is a chain of ``and`` over the usual predicates reads as
one noun phrase; any other part is added as a clause by the
:class:`~rummydsl.explainer.say.Speaker`.

>>> from rummydsl.expr.parser import parse
>>> from rummydsl.variant import load_variant
>>> gin = load_variant("gin_rummy")
>>> meld_words(gin, parse("size >= 3 and same(suit) and consecutive(rank)"))
'three or more cards of one suit in sequence'
>>> contract_words(gin, parse("count == 3 and any(size == 4) and count_where(size == 3) == 2"))
'three melds: at least one of four cards, and exactly two of three cards'
>>> contract_words(gin, parse("count == 2 and count_where(kind == set) == 1 and count_where(kind == run) == 1"))
'a set and a run'
"""

from __future__ import annotations

from typing import Any

from ..expr import ast
from ..variant.model import Variant
from .say import Speaker, Unworded, number
from .words import raw, unparse

__all__ = ["meld_words", "contract_words"]


def _conjuncts(node: Any) -> list[Any]:
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _int(node: Any) -> int | None:
    return node.value if isinstance(node, ast.IntLit) else None


def _is(node: Any, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def meld_words(variant: Variant, tree: Any) -> str:
    """A meld pattern as a noun phrase (its formula, recorded as raw, where it has none)."""
    try:
        return _meld(Speaker(variant, "meld"), tree)
    except Unworded:
        return raw(unparse(tree))


def _meld(speak: Speaker, tree: Any) -> str:
    if isinstance(tree, ast.BoolOp) and tree.op == "or":
        return f"either {_meld(speak, tree.left)}, or {_meld(speak, tree.right)}"
    low: int | None = None
    high: int | None = None
    parts: list[str] = []
    for part in _conjuncts(tree):
        bounds = _size_bounds(part)
        if bounds is not None:
            if bounds[0] is not None:
                low = bounds[0] if low is None else max(low, bounds[0])
            if bounds[1] is not None:
                high = bounds[1] if high is None else min(high, bounds[1])
            continue
        parts.append(_meld_part(speak, part))
    size = _size_words(low, high)
    in_sequence = "in sequence" in parts
    if in_sequence:
        parts.remove("in sequence")
    head = " ".join([size] + [p for p in parts if p.startswith("of one ") or p.startswith("of the same")])
    if in_sequence:
        head += " in sequence"
    shapes = [p for p in parts if p.startswith("each of") or p.startswith("not all") or p.startswith("of ")
              and not p.startswith("of one ") and not p.startswith("of the same")]
    rest = [p for p in parts if not p.startswith("of one ") and not p.startswith("of the same") and p not in shapes]
    return ", ".join([head] + shapes + rest)


def _size_bounds(node: Any) -> tuple[int | None, int | None] | None:
    """The bounds on ``size`` that ``node`` sets, if it is a size test."""
    if isinstance(node, ast.InOp) and not node.negated and _is(node.left, "size") and isinstance(node.right, ast.Range):
        low, high = _int(node.right.low), _int(node.right.high)
        if low is not None and high is not None:
            return low, high
    if isinstance(node, ast.Compare) and _is(node.left, "size") and _int(node.right) is not None:
        n = _int(node.right)
        assert n is not None
        return {"==": (n, n), ">=": (n, None), ">": (n + 1, None), "<=": (None, n),
                "<": (None, n - 1)}.get(node.op)
    return None


def _size_words(low: int | None, high: int | None) -> str:
    if low is None and high is None:
        return "cards"
    if high is None:
        return f"{number(low or 0)} or more cards"
    if low is None or low <= 1:
        return f"at most {number(high)} cards"
    if low == high:
        return f"{number(low)} cards"
    if high == low + 1:
        return f"{number(low)} or {number(high)} cards"
    return f"{number(low)} to {number(high)} cards"


_SHAPES = {("same", "rank"): "of the same rank", ("same", "suit"): "of one suit",
           ("same", "colour"): "of one colour", ("distinct", "suit"): "each of a different suit",
           ("distinct", "rank"): "each of a different rank", ("distinct", "colour"): "each of a different colour",
           ("consecutive", "rank"): "in sequence"}


def _meld_part(speak: Speaker, node: Any) -> str:
    if isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
        shape = _SHAPES.get((node.func, node.args[0].id))
        if shape is not None:
            return shape
    if isinstance(node, ast.Not) and isinstance(node.operand, ast.Call) and len(node.operand.args) == 1:
        shape = _SHAPES.get((node.operand.func, getattr(node.operand.args[0], "id", "")))
        if shape is not None and shape.startswith("of "):
            return {"of the same rank": "not all of the same rank"}.get(shape, "not all " + shape)
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and _int(node.right) is not None:
        n = _int(node.right)
        assert n is not None
        what = {"naturals": "natural (not wild)", "wilds": "wild"}.get(node.left.id)
        if what is not None:
            return f"{_amount(node.op, n)} of them {what}"
    if (isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) and node.left.func == "count_distinct"
            and _int(node.right) is not None and isinstance(node.left.args[0], ast.Name)):
        n = _int(node.right)
        assert n is not None
        plural = {"colour": "colours"}.get(node.left.args[0].id, node.left.args[0].id + "s")
        return f"of {_amount(node.op, n)} different {plural}"
    return f"where {speak.clause(node)}"


def _amount(op: str, n: int) -> str:
    """``at least two``: a comparison with a count."""
    return {">=": "at least ", ">": "more than ", "<=": "at most ", "<": "fewer than ", "==": "exactly ",
            "!=": "other than "}[op] + number(n)


def contract_words(variant: Variant, tree: Any) -> str:
    """A contract (one deal's, ``round`` filled in) as a noun phrase: what the melds of
    a first lay-down must be (its formula, recorded as raw, where it has none)."""
    speak = Speaker(variant, "contract")
    try:
        return _contract(speak, tree)
    except Unworded:
        return raw(unparse(tree))


def _contract(speak: Speaker, tree: Any) -> str:
    if isinstance(tree, ast.BoolOp) and tree.op == "or":
        return f"either {_contract(speak, tree.left)}, or {_contract(speak, tree.right)}"
    if isinstance(tree, ast.Conditional):
        return (f"{_contract(speak, tree.then)} if {speak.clause(tree.test)}, otherwise "
                f"{_contract(speak, tree.otherwise)}")
    count: int | None = None
    kinds: dict[str, int] = {}
    every: list[str] = []
    other: list[str] = []
    for part in _conjuncts(tree):
        if isinstance(part, ast.Compare) and _is(part.left, "count") and part.op == "==" and _int(part.right):
            count = _int(part.right)
        elif _kind_count(part) is not None:
            kind, n = _kind_count(part)  # type: ignore[misc]
            kinds[kind] = n
        elif isinstance(part, ast.Call) and part.func == "all" and len(part.args) == 1:
            every.append(speak.meld_clause(part.args[0]))
        elif isinstance(part, ast.Call) and part.func == "any" and len(part.args) == 1:
            other.append(f"at least one {speak.meld_clause(part.args[0])}")
        elif (isinstance(part, ast.Compare) and isinstance(part.left, ast.Call) and part.left.func == "count_where"
              and part.op == "==" and _int(part.right) is not None):
            n = _int(part.right)
            assert n is not None
            other.append(f"exactly {number(n)} {speak.meld_clause(part.left.args[0])}")
        else:
            other.append(speak.clause(part))
    kind_of_all = [e[2:] for e in every if e.startswith("a ") and " " not in e[2:]]
    if count is not None and len(kind_of_all) == 1 and not kinds:
        kinds = {kind_of_all[0]: count}
        every = [e for e in every if e[2:] != kind_of_all[0]]
    if kinds and (count is None or sum(kinds.values()) == count):
        head = " and ".join(_counted(n, kind) for kind, n in kinds.items())
    elif count is not None:
        head = f"{number(count)} meld{'s' if count != 1 else ''}"
        other = [f"exactly {_counted(n, kind)}" for kind, n in kinds.items()] + other
    else:
        head = "melds"
        other = [f"exactly {_counted(n, kind)}" for kind, n in kinds.items()] + other
    if every:
        head += " " + " and ".join(e for e in every) + (" each" if count != 1 else "")
    return head + (": " + ", and ".join(other) if other else "")


def _kind_count(node: Any) -> tuple[str, int] | None:
    """``count_where(kind == set) == 2`` as (set, 2)."""
    if (isinstance(node, ast.Compare) and node.op == "==" and isinstance(node.left, ast.Call)
            and node.left.func == "count_where" and _int(node.right) is not None):
        inner = node.left.args[0]
        if isinstance(inner, ast.Compare) and inner.op == "==" and _is(inner.left, "kind") \
                and isinstance(inner.right, ast.Name):
            n = _int(node.right)
            assert n is not None
            return inner.right.id, n
    return None


def _counted(n: int, kind: str) -> str:
    return f"a {kind}" if n == 1 else f"{number(n)} {kind}s"
