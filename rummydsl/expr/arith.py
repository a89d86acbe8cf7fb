"""The integer arithmetic of expressions, bounded by :data:`~rummydsl.limits.MAX_EXPR_INT`.

A ``+``, ``-`` or ``*`` (and a unary ``-`` or a ``sum``) that would pass the limit
raises :class:`~rummydsl.errors.ExpressionError` with rule ``expr-limit``, quoting the
expression; a product is refused from its operands' sizes, before it is computed.

>>> from rummydsl.expr.parser import parse
>>> add = bounded_arith("+", parse("a + b"), "a + b")
>>> add(2, 3)
5
>>> add(MAX_EXPR_INT, 1)
Traceback (most recent call last):
...
rummydsl.errors.ExpressionError: 1:1: integer too large: the '+' in 'a + b' would give a number beyond ... (the largest an expression may compute)
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from rummydsl.errors import ExpressionError
from rummydsl.expr import ast
from rummydsl.limits import MAX_EXPR_INT

__all__ = ["ARITH", "runtime_error", "too_large", "bounded_arith"]

ARITH: dict[str, Callable[[Any, Any], Any]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
"""The unbounded operators of ``+``, ``-`` and ``*``."""


def runtime_error(node: ast.Node, message: str) -> ExpressionError:
    """The ``expr-runtime`` error ``message`` at ``node`` (a division by zero, a missing player...)."""
    return ExpressionError(message, node.line, node.column, "expr-runtime")


# The bit lengths of two factors whose product is certainly past MAX_EXPR_INT:
# |a| >= 2**(la - 1) and |b| >= 2**(lb - 1), so |a * b| >= 2**(la + lb - 2).
_PRODUCT_BITS = MAX_EXPR_INT.bit_length() + 2


def _quoted(text: str, limit: int = 60) -> str:
    """``text`` quoted with ``!r``, shortened to about ``limit`` characters."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")


def too_large(node: ast.Node, text: str, op: str) -> ExpressionError:
    """The ``expr-limit`` error of the operation ``op`` at ``node`` in ``text``."""
    where = f" in {_quoted(text)}" if text else ""
    return ExpressionError(
        f"integer too large: the '{op}'{where} would give a number beyond "
        f"{MAX_EXPR_INT:,} (the largest an expression may compute)",
        node.line, node.column, "expr-limit")


def bounded_arith(op: str, node: ast.Node, text: str) -> Callable[[Any, Any], Any]:
    """``+``, ``-`` or ``*`` of two ints that raises ``expr-limit`` past
    :data:`MAX_EXPR_INT`; a product is refused before it is computed."""
    limit = MAX_EXPR_INT
    if op == "*":
        def mul(a: Any, b: Any) -> Any:
            if a.bit_length() + b.bit_length() >= _PRODUCT_BITS:
                raise too_large(node, text, op)
            value = a * b
            if not -limit <= value <= limit:
                raise too_large(node, text, op)
            return value
        return mul
    plain = ARITH[op]

    def add_or_sub(a: Any, b: Any) -> Any:
        value = plain(a, b)
        if not -limit <= value <= limit:
            raise too_large(node, text, op)
        return value
    return add_or_sub
