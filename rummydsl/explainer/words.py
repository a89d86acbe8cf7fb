"""How ``explain`` writes: wrapped lines and bullets, formulas with the options filled in, YAML values.

>>> from rummydsl.variant import load_variant
>>> okla = load_variant("oklahoma_gin")
>>> filled(okla.knock.limit, okla)
'upcard.rank == A ? 0 : value(upcard)'
>>> bullet("a short rule")
['- a short rule']
"""

from __future__ import annotations

import operator
import textwrap
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, Mapping

from ..expr import ast
from ..variant.model import Variant

__all__ = ["wrap", "bullet", "text_of", "filled", "folded", "fold_tree", "unparse", "show", "ordinal", "raw",
           "collecting_raw"]

_RAW: ContextVar[list[str] | None] = ContextVar("rummydsl_explain_raw", default=None)


def raw(formula: str) -> str:
    """``formula``, shown as written because ``explain`` has no words for it yet; noted
    for :func:`collecting_raw` (the tests check that no shipped variant needs it)."""
    seen = _RAW.get()
    if seen is not None:
        seen.append(formula)
    return formula


@contextmanager
def collecting_raw() -> Iterator[list[str]]:
    """Collect the formulas :func:`raw` shows while the block runs."""
    token = _RAW.set([])
    try:
        seen = _RAW.get()
        assert seen is not None
        yield seen
    finally:
        _RAW.reset(token)


_WIDTH = 78


def wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _WIDTH, initial_indent=indent,
                         subsequent_indent=" " * len(indent)) or [indent]


def bullet(text: str) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _WIDTH, initial_indent="- ", subsequent_indent="  ")


def text_of(compiled: Any) -> str:
    return " ".join(str(getattr(compiled, "text", compiled)).split())


def filled(compiled: Any, variant: Variant, constants: Mapping[str, Any] | None = None) -> str:
    """A formula with each option's value in place of its name, and the choices
    those values decide made (``true ? a : b`` is ``a``).

    >>> from rummydsl.variant import load_variant
    >>> okla = load_variant("oklahoma_gin")
    >>> filled(okla.knock.limit, okla)
    'upcard.rank == A ? 0 : value(upcard)'
    >>> filled(okla.scoring.multiplier, okla)
    'upcard.suit == S ? 2 : 1'
    """
    node = getattr(compiled, "ast", None)
    if node is None:
        return text_of(compiled)
    return unparse(folded(compiled, variant, constants))


def folded(compiled: Any, variant: Variant, constants: Mapping[str, Any] | None = None) -> Any:
    """The tree of ``compiled`` folded by :func:`_fold` (option values and ``constants``)."""
    values: dict[str, Any] = {name: option.value for name, option in variant.options.items()}
    values.update(constants or {})
    words = {value for option in variant.options.values() for value in option.one_of or ()}
    return _fold(compiled.ast, values, words)


def fold_tree(tree: Any, values: Mapping[str, Any], words: set[str]) -> Any:
    """A parsed tree with ``values`` (options, ``round``) in place of their names and
    the choices they decide made; ``words`` are the values of string options."""
    return _fold(tree, values, words)


_INT_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                ">": operator.gt, ">=": operator.ge}


def _fold(node: Any, options: Mapping[str, Any], words: set[str]) -> Any:
    """``node`` with options replaced by their values and constant choices made."""
    def fold(child: Any) -> Any:
        return _fold(child, options, words)

    if isinstance(node, ast.Name) and node.id in options:
        value = options[node.id]
        if isinstance(value, bool):
            return ast.BoolLit(value)
        if isinstance(value, int):
            return ast.IntLit(value)
        return ast.Name(str(value))
    if isinstance(node, ast.Conditional):
        test = fold(node.test)
        if isinstance(test, ast.BoolLit):
            return fold(node.then if test.value else node.otherwise)
        return ast.Conditional(test, fold(node.then), fold(node.otherwise))
    if isinstance(node, ast.Compare):
        left, right = fold(node.left), fold(node.right)
        if (node.op in ("==", "!=") and isinstance(left, ast.Name) and isinstance(right, ast.Name)
                and left.id in words and right.id in words):
            return ast.BoolLit((left.id == right.id) == (node.op == "=="))
        if isinstance(left, ast.IntLit) and isinstance(right, ast.IntLit):  # 'round == 1' with round filled in
            return ast.BoolLit(_INT_COMPARE[node.op](left.value, right.value))
        return ast.Compare(node.op, left, right)
    if isinstance(node, ast.BoolOp):
        left, right = fold(node.left), fold(node.right)
        if isinstance(left, ast.BoolLit):
            if left.value == (node.op == "and"):
                return right
            return left
        return ast.BoolOp(node.op, left, right)
    if isinstance(node, ast.Not):
        operand = fold(node.operand)
        return ast.BoolLit(not operand.value) if isinstance(operand, ast.BoolLit) else ast.Not(operand)
    if isinstance(node, ast.BinOp):
        return ast.BinOp(node.op, fold(node.left), fold(node.right))
    if isinstance(node, ast.Neg):
        return ast.Neg(fold(node.operand))
    if isinstance(node, ast.InOp):
        return ast.InOp(node.op, fold(node.left), fold(node.right))
    if isinstance(node, ast.Range):
        return ast.Range(fold(node.low), fold(node.high))
    if isinstance(node, ast.Call):
        return ast.Call(node.func, tuple(fold(a) for a in node.args))
    if isinstance(node, ast.Aggregate):
        return ast.Aggregate(node.func, fold(node.element), node.var, fold(node.iterable))
    if isinstance(node, ast.ListExpr):
        return ast.ListExpr(tuple(fold(item) for item in node.items))
    if isinstance(node, ast.Attribute):
        return ast.Attribute(fold(node.obj), node.name)
    return node


_PRECEDENCE = {"?": 1, "or": 2, "and": 3, "not": 4, "cmp": 5, "+": 6, "-": 6, "*": 7, "//": 7, "%": 7,
               "neg": 8}


def unparse(node: Any, outer: int = 0) -> str:
    """An expression tree as text, with only the parentheses it needs."""
    def wrap(text: str, own: int) -> str:
        return f"({text})" if own < outer else text

    if isinstance(node, ast.IntLit):
        return str(node.value)
    if isinstance(node, ast.BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{unparse(node.obj, 9)}.{node.name}"
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(unparse(a) for a in node.args)})"
    if isinstance(node, ast.Aggregate):
        return f"{node.func}({unparse(node.element)} for {node.var} in {unparse(node.iterable)})"
    if isinstance(node, ast.ListExpr):
        return f"[{', '.join(unparse(item) for item in node.items)}]"
    if isinstance(node, ast.Range):
        return f"{unparse(node.low, 9)}..{unparse(node.high, 9)}"
    if isinstance(node, ast.Neg):
        return wrap(f"-{unparse(node.operand, 8)}", 8)
    if isinstance(node, ast.Not):
        return wrap(f"not {unparse(node.operand, 4)}", 4)
    if isinstance(node, ast.BinOp):
        own = _PRECEDENCE[node.op]
        return wrap(f"{unparse(node.left, own)} {node.op} {unparse(node.right, own + 1)}", own)
    if isinstance(node, ast.BoolOp):
        own = _PRECEDENCE[node.op]
        return wrap(f"{unparse(node.left, own)} {node.op} {unparse(node.right, own + 1)}", own)
    if isinstance(node, (ast.Compare, ast.InOp)):
        return wrap(f"{unparse(node.left, 6)} {node.op} {unparse(node.right, 6)}", 5)
    if isinstance(node, ast.Conditional):
        return wrap(f"{unparse(node.test, 2)} ? {unparse(node.then, 2)} : {unparse(node.otherwise, 1)}", 1)
    return str(node)


def show(value: Any) -> str:
    """A YAML value as it would be written in a file (flow style), never a
    Python repr.

    >>> show({"limit": 10, "big_gin": True, "turn": ("draw", {"discard": None})})
    '{limit: 10, big_gin: true, turn: [draw, {discard: null}]}'
    >>> show(None)
    '(none)'
    """
    if value is None:
        return "(none)"
    if isinstance(value, Mapping) and set(value) >= {"value"}:
        return show(value["value"])
    return _flow(value)


def _flow(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    text = str(value)
    if isinstance(value, str) and (not text or any(c in text for c in ",:{}[]#") or text != text.strip()):
        return '"' + text.replace('"', '\\"') + '"'
    return text


def ordinal(n: int) -> str:
    """``n`` as an ordinal in figures: 1st, 2nd, 3rd, 4th, 11th, 50th, 101st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 50, 101, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '50th', '101st', '112th']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
