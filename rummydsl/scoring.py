"""Scoring a round and settling a game, by a variant's formulas and game settings.

The engine builds a :class:`~rummydsl.expr.RoundView` of a finished round (who
ended it, how, everyone's deadwood after lay-offs) and asks :func:`score_round`
for the points; at the end of a game :func:`final_figures` adds the game bonus,
the boxes and any shutout (GR-10.5). Both are generic: everything
variant-specific comes from the variant file.

>>> from rummydsl.variant import load_variant
>>> from rummydsl.expr import SimpleRoundView
>>> gin = load_variant("gin_rummy")
>>> score_round(gin, SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 7, "P2": 17}))
{'P1': 10, 'P2': 0}
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping

from .errors import ExpressionError, FormulaError, format_path
from .limits import MAX_EXPR_INT
from .variant.model import ScoreCase, Variant

__all__ = ["score_round", "matching_case", "final_figures", "held_total"]


class _Lets(dict[str, Any]):
    """The round's ``let`` values, each worked out on first use.

    Lazy, so a formula that a round never reaches costs nothing and cannot fail:
    a stock-end round has no knock, and a let such as ``deadwood(ender)`` that only
    the knock cases use is never evaluated for it.
    """

    def __init__(self, variant: Variant, view: Any) -> None:
        super().__init__()
        self._formulas = dict(variant.scoring.lets)
        self._view = view

    def __missing__(self, name: str) -> Any:
        formula = self._formulas[name]
        value = _named(("scoring", "let", name), formula, self._view, None, self)
        self[name] = value
        return value


def _named(key: tuple[str | int, ...], formula: Any, view: Any, p: Any, lets: Any) -> Any:
    """``formula``'s value; a failure names the formula (its key path and text): a hand
    too large for the meld solver (rule ``hand-too-large``) as the formula that asked its
    deadwood, any other failure (a division by zero, an integer past its limit) as a
    :class:`~rummydsl.errors.FormulaError` that keeps the place inside the formula."""
    try:
        return formula.fn(view, p, lets)
    except FormulaError:
        raise  # a let this formula uses, already named
    except ExpressionError as problem:
        if problem.rule != "hand-too-large":
            raise FormulaError(problem.message, problem.line, problem.column, problem.rule, key,
                               str(getattr(formula, "text", ""))) from None
        if problem.message.startswith("scoring."):
            raise
        raise ExpressionError(f"{format_path(key)} {formula.text!r}: {problem.message}", 0, 0,
                              "hand-too-large") from None


def _seat(player: Any) -> str:
    """A player of a round view as messages show it (``P2``)."""
    return f"P{player + 1}" if isinstance(player, int) else str(player)


def _past(value: int) -> str:
    """How a number past the limit is past it: ``more than 9,223,...`` or ``less than -9,223,...``."""
    return f"more than {MAX_EXPR_INT:,}" if value > 0 else f"less than -{MAX_EXPR_INT:,}"


def _times(value: int, factor: int, player: Any, formula: Any) -> int:
    """``value * factor``, held to :data:`~rummydsl.limits.MAX_EXPR_INT`.

    :raises FormulaError: rule ``expr-limit`` at ``scoring.multiplier``, beyond it.
    """
    product = value * factor
    if -MAX_EXPR_INT <= product <= MAX_EXPR_INT:
        return product
    raise FormulaError(f"{_seat(player)}'s {value:,} points times the multiplier {factor:,} would be "
                       f"{_past(product)}, beyond what a score may be", 0, 0, "expr-limit",
                       ("scoring", "multiplier"), str(getattr(formula, "text", "")))


def _lets(variant: Variant, view: Any) -> dict[str, Any]:
    return _Lets(variant, view)


def matching_case(variant: Variant, view: Any) -> ScoreCase | None:
    """The first scoring case whose ``when`` holds for this round, or None."""
    lets = _lets(variant, view)
    for case in variant.scoring.cases:
        if case.when.fn(view, None, lets):
            return case
    return None


def score_round(variant: Variant, view: Any) -> dict[Any, int]:
    """Points each player wins this round (GR-9, SK-10, GS-7): the first case that
    holds, times the multiplier; nobody scores when no case holds."""
    lets = _lets(variant, view)
    players = tuple(view.players)
    points = {player: 0 for player in players}
    for index, case in enumerate(variant.scoring.cases):
        where = ("scoring", "round", index)
        if not _named(where + ("when",), case.when, view, None, lets):
            continue
        if case.points is not None:
            for player in players:
                points[player] = int(_named(where + ("points",), case.points, view, player, lets))
        if case.ender is not None:
            points[view.ender] = int(_named(where + ("ender",), case.ender, view, None, lets))
        if case.others is not None:
            for player in players:
                if player != view.ender:
                    points[player] = int(_named(where + ("others",), case.others, view, player, lets))
        multiplier = variant.scoring.multiplier
        if multiplier is None:
            return points
        factor = int(_named(("scoring", "multiplier"), multiplier, view, None, lets))
        return {player: _times(value, factor, player, multiplier) for player, value in points.items()}
    return points


def final_figures(variant: Variant, points: Mapping[Hashable, int],
                  wins: Mapping[Hashable, int]) -> dict[Hashable, int]:
    """Each player's final figure at game end (GR-10.5).

    The winner is the highest total of hand points; everyone gets the box bonus per
    won hand, the winner the game bonus, and a shutout (every other player scored
    nothing) changes the winner's figure as ``game.shutout`` says (GR-10.4); with
    ``game.shutout_per: each_loser`` (G3-3) it applies once for each loser who scored
    nothing (doubling adds the figure again each time, ``flat_100`` adds 100 each). With no
    players there is nothing to settle: the answer is empty.

    >>> from rummydsl.variant import load_variant
    >>> final_figures(load_variant("gin_rummy"), {"P1": 104, "P2": 27}, {"P1": 4, "P2": 1})
    {'P1': 304, 'P2': 52}
    >>> final_figures(load_variant("gin_rummy"), {"P1": 104, "P2": 0}, {"P1": 4, "P2": 0})
    {'P1': 608, 'P2': 0}
    """
    game = variant.game
    if not points:
        return {}
    winner = max(points, key=lambda player: points[player])
    blanked = [points[player] == 0 for player in points if player != winner]
    if game.shutout_per == "each_loser":  # G3-3: once for each loser who scored nothing
        times = sum(blanked)
    else:
        times = 1 if all(blanked) else 0
    figures: dict[Hashable, int] = {}
    for player, hand_points in points.items():
        boxes = game.box_bonus * wins.get(player, 0)
        if player != winner:
            figures[player] = held_total(hand_points + boxes, player, "final figure", ("game", "box_bonus"))
            continue
        if game.shutout == "double_hand_points":
            hand_points += hand_points * times
        figure = hand_points + game.game_bonus + boxes
        if game.shutout == "double_total":
            figure += figure * times
        elif game.shutout == "flat_100":
            figure += 100 * times
        figures[player] = held_total(figure, player, "final figure", ("game", "shutout") if times else ("game",))
    return figures


SHEET_SETTING: tuple[str, ...] = ("game", "hollywood")
"""The variant key of a shared score sheet (several games scored at once), the setting a
sheet's figure past :data:`~rummydsl.limits.MAX_EXPR_INT` is blamed on."""


def held_total(value: int, player: Any, what: str, key: tuple[str | int, ...], detail: str = "") -> int:
    """``value`` if it is within :data:`~rummydsl.limits.MAX_EXPR_INT` either side of 0.

    Game totals and final figures are held to the limit of every formula's values, so
    a record never carries a number another engine cannot hold.

    :raises FormulaError: rule ``expr-limit`` at ``key`` (the setting or the section to
        blame), naming the player and ``what`` the number is.

    >>> held_total(12, 0, "game total", ("scoring", "round"))
    12
    >>> held_total(2**63, 1, "game total", ("scoring", "round"))
    Traceback (most recent call last):
    ...
    rummydsl.errors.FormulaError: scoring.round: P2's game total would be more than 9,223,372,036,854,775,807, beyond what a total may be
    """
    if -MAX_EXPR_INT <= value <= MAX_EXPR_INT:
        return value
    raise FormulaError(f"{_seat(player)}'s {what} would be {_past(value)}, beyond what a total may be"
                       f"{detail}", 0, 0, "expr-limit", key)
