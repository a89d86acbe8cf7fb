"""Where in its file a formula that failed in play was written.

A :class:`~rummydsl.errors.FormulaError` names the key path of the formula
(``scoring.round[0].ender``) and the place inside its text; :func:`formula_location`
reads the variant's file (and the files it extends) again and turns both into a
``path:line:col``. It runs once, when a game stops, never while games are played.

>>> from rummydsl.variant import load_variant
>>> str(formula_location(load_variant("gin_rummy"), ("scoring", "multiplier"))).endswith("gin_rummy.yaml:66:15")
True
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import ExpressionError, FormulaError, Location, RummyDslError, format_path
from .model import Variant

__all__ = ["formula_location", "describe_play_failure"]


def formula_location(variant: Variant, key: Sequence[str | int], line: int = 0, column: int = 0) -> Location:
    """The file place of ``key`` (inside its scalar at ``line``:``column`` when given), in
    whichever file of the ``extends`` chain wrote it; the nearest enclosing key the files
    have, else the variant's file."""
    from .extends import resolve

    try:
        positions: Any = resolve(variant.path).positions
    except (RummyDslError, OSError):
        return Location(variant.path)
    path = tuple(key)
    while path and path not in positions:
        path = path[:-1]
    if not path:
        return Location(variant.path, 1, 1)
    if path == tuple(key) and line:
        try:
            inside: Location = positions.inside_scalar(path, line, column)
            return inside
        except (RummyDslError, LookupError, ValueError):
            pass
    node: Location = positions.value(path)
    return node


def describe_play_failure(variant: Variant, problem: ExpressionError, round_number: int) -> str:
    """One line for a formula that failed while a game was played: the file place of the
    formula, which formula, what failed, the variant and the round.

    >>> from rummydsl.variant import load_variant
    >>> gin = load_variant("gin_rummy")
    >>> text = describe_play_failure(gin, FormulaError("division by zero", 1, 3, "expr-runtime",
    ...                                                ("scoring", "multiplier"), "1"), 4)
    >>> text.split(": ", 1)[1]
    "scoring.multiplier '1': division by zero (variant 'gin_rummy', round 4)"
    """
    where = f" (variant {variant.id!r}, round {round_number})"
    if isinstance(problem, FormulaError) and problem.key:
        place = formula_location(variant, problem.key, problem.line, problem.column)
        text = f" {problem.text!r}" if problem.text else ""
        return f"{place}: {format_path(problem.key)}{text}: {problem.message}{where}"
    return f"{Location(variant.path)}: {problem.message if problem.line else problem}{where}"

