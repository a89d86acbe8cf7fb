"""The semantic checks of scoring and of the game.

A game that can never end because no round scores (``game-end``), scoring cases that
never apply or that nobody matches (``score-none``,
``score-stock-end``, ``score-unused``), a stock-end case that reads the ender nobody is
(``score-ender``), formulas that compute integers past the limit on a sample round
(``expr-limit``), and the game's modes and bonuses (``game-mode``,
``game-bonus-lowest``).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..endings import SCORED_ENDING_NAMES
from ..errors import ExpressionError
from ..expr import SimpleRoundView
from ..limits import MAX_EXPR_INT
from .model import Variant
from .semantics_report import KeyPath, Report

__all__ = ["check_scoring", "check_integer_sizes", "check_game", "names_through_lets"]


def check_scoring(variant: Variant, report: Report) -> None:
    """Scoring cases that nobody scores by, or that never apply, and stock-end cases
    that read the ender (``score-*``)."""
    endless = variant.game.deals is None
    if not variant.scoring.cases and endless:
        report.error(("scoring", "round"), "no scoring case: nobody ever scores, so no game reaches its target "
                     f"of {variant.game.target} (add a case, or end the game after 'game.deals')", "game-end")
    elif not variant.scoring.cases:
        report.warn(("scoring", "round"), "no scoring case: nobody ever scores", "score-none")
    elif endless and (zero_at := _scores_nothing(variant)) is not None:
        report.error(zero_at, "every round scores 0: each scoring case gives 0 points (or the "
                     "multiplier is 0), so no game reaches its target of "
                     f"{variant.game.target} (give a case points, or end the game after 'game.deals')", "game-end")
    used: set[str] = set()
    for case in variant.scoring.cases:
        used |= set(getattr(case.when, "names", ()) or ())
    for _, compiled in variant.scoring.lets:
        used |= set(getattr(compiled, "names", ()) or ())
    if variant.stock.at_floor == "stock_end" and "stock_end" not in used:
        report.warn(("stock", "at_floor"), "the round ends at the stock floor, but no scoring case tests "
                    "'stock_end': such rounds score nothing", "score-stock-end")
    _check_stock_end_ender(variant, report)
    if variant.knock is None:
        for index, case in enumerate(variant.scoring.cases):
            names = set(getattr(case.when, "names", ()) or ())
            if names & {"knock", "gin", "big_gin"} and not names & {"out", "stock_end"}:
                report.warn(("scoring", "round", index, "when"), "this case tests a knock, but the variant "
                            "has no 'knock': it never applies", "score-unused")


def _scores_nothing(variant: Variant) -> KeyPath | None:
    """Where it is shown that every round scores 0, if it is: the multiplier is the
    constant 0, or every case's points are absent or the constant 0. (A formula that
    reads the round is not worked out here: ``check --play`` shows what games do.)"""
    view = SimpleRoundView(players=("P1", "P2"), ender="P1", ending="knock", hand_size=variant.hand_size)

    def zero(formula: Any) -> bool:
        if formula is None:
            return True
        if not getattr(formula, "constant", False):
            return False
        try:
            return bool(formula.fn(view, "P1", {}) == 0)
        except (ExpressionError, TypeError, ValueError):
            return False

    scoring = variant.scoring
    if scoring.multiplier is not None and zero(scoring.multiplier):
        return ("scoring", "multiplier")
    if any(case.when is None for case in scoring.cases):
        return None
    written = (variant.data.get("scoring") or {}).get("round") or ()
    if len(written) != len(scoring.cases):
        return None  # a case that did not build: its error is reported
    for case, data in zip(scoring.cases, written):
        for field in ("points", "ender", "others"):
            formula = getattr(case, field)
            if formula is None and isinstance(data, Mapping) and data.get(field) is not None:
                return None  # written but not built (an error in it is reported): not known to be 0
            if not zero(formula):
                return None
    if scoring.cases:
        return ("scoring", "round")
    return None


_KNOCK_OR_OUT = frozenset({"knock", "gin", "big_gin", "out"})


def names_through_lets(variant: Variant, compiled: Any) -> set[str]:
    """The names an expression uses, with those of every ``let`` it uses, transitively."""
    lets = dict(variant.scoring.lets)
    names = set(getattr(compiled, "names", ()) or ())
    todo = [n for n in names if n in lets]
    while todo:
        for name in getattr(lets[todo.pop()], "names", ()) or ():
            if name not in names:
                names.add(name)
                if name in lets:
                    todo.append(name)
    return names


def _check_stock_end_ender(variant: Variant, report: Report) -> None:
    """A round ended at the stock floor has no ender (docs/language.md, the score
    context): a case that can apply then must not use ``ender`` (nor a ``let`` that
    does), nor give ``ender`` points. A case can apply at the stock end when its
    ``when`` names ``stock_end`` or names none of the other endings."""
    if variant.stock.at_floor != "stock_end":
        return
    for index, case in enumerate(variant.scoring.cases):
        when = names_through_lets(variant, case.when)
        if "stock_end" not in when and when & _KNOCK_OR_OUT:
            continue
        base: KeyPath = ("scoring", "round", index)
        if "ender" in when:
            report.error(base + ("when",), "this case can apply when the round ends at the stock floor, "
                         "where nobody ended it, but 'when' uses 'ender'", "score-ender")
        for field in ("points", "ender", "others"):
            compiled = getattr(case, field)
            if compiled is None:
                continue
            if field == "ender":
                report.error(base + (field,), "this case can apply when the round ends at the stock floor, "
                             "where nobody ended it, so 'ender' points go to nobody; give them with "
                             "'points', or test another ending in 'when'", "score-ender")
            elif "ender" in names_through_lets(variant, compiled):
                report.error(base + (field,), f"this case can apply when the round ends at the stock floor, "
                             f"where nobody ended it, but '{field}' uses 'ender'", "score-ender")


def check_integer_sizes(variant: Variant, report: Report) -> None:
    """Score a sample round of each ending, every player holding the most deadwood a
    hand can: a formula that computes an integer past
    :data:`~rummydsl.limits.MAX_EXPR_INT` there (``let`` formulas that square each
    other) is an error in place, not a failure in the middle of a game. Other
    failures (a formula asking what the sample round does not have) are left to
    the checks that own them."""
    if not variant.card_values:
        return
    players = tuple(f"P{i}" for i in range(1, variant.players + 1))
    worst = sum(sorted(variant.card_values, reverse=True)[: variant.max_hand_size])
    scoring = variant.scoring
    reported: set[KeyPath] = set()

    def run(path: KeyPath, formula: Any, view: Any, p: Any, lets: dict[str, Any], ending: str) -> Any:
        try:
            return formula.fn(view, p, lets)
        except ExpressionError as problem:
            if problem.rule == "expr-limit" and path not in reported:
                reported.add(path)
                report.error_inside(path, problem, f" (scoring a sample {ending} round, every deadwood {worst})")
            raise

    for ending in SCORED_ENDING_NAMES:
        view = SimpleRoundView(players=players, ender=players[0], ending=ending, hand_size=variant.hand_size,
                               deadwoods={p: worst for p in players},
                               card_value=lambda card: variant.card_values[card.id])
        lets: dict[str, Any] = {}
        try:
            for name, formula in scoring.lets:
                lets[name] = run(("scoring", "let", name), formula, view, None, lets, ending)
        except ExpressionError:
            continue  # later formulas may need this one
        factor = 1
        if scoring.multiplier is not None:
            try:
                factor = int(run(("scoring", "multiplier"), scoring.multiplier, view, None, lets, ending))
            except (ExpressionError, TypeError, ValueError):
                pass
        for index, case in enumerate(scoring.cases):
            for field, per_player in (("when", False), ("points", True), ("ender", False), ("others", True)):
                formula = getattr(case, field)
                if formula is None:
                    continue
                for p in players if per_player else (None,):
                    try:
                        value = run(("scoring", "round", index, field), formula, view, p, lets, ending)
                    except ExpressionError:
                        break
                    if field != "when" and isinstance(value, int):
                        _check_sample_points(variant, report, reported, (index, field), value, factor, ending)


def _check_sample_points(variant: Variant, report: Report, reported: set[KeyPath], case: tuple[int, str],
                         value: int, factor: int, ending: str) -> None:
    """A sample round's points ``value`` of scoring case ``case`` (index, field), times the
    multiplier ``factor``, and that round alone as a game's final figure (doubled by a
    shutout, with the game bonus and a box): each past
    :data:`~rummydsl.limits.MAX_EXPR_INT` is an error in place (rule ``expr-limit``),
    which play would otherwise meet in the middle of a game."""
    index, field = case
    sample = f"scoring a sample {ending} round, scoring.round[{index}].{field} gives {value:,}"
    points = value * factor
    if abs(points) > MAX_EXPR_INT:
        key: KeyPath = ("scoring", "multiplier")
        if key not in reported:
            reported.add(key)
            report.error(key, f"integer too large: the points times the multiplier ({value:,} times {factor:,}, "
                         f"{sample}) would be beyond {MAX_EXPR_INT:,} (the most a score may be)", "expr-limit")
        return
    game = variant.game
    figure = abs(points)
    if points > 0:  # the winner's figure: doubled by a shutout, with the bonuses
        figure = figure * (2 if game.shutout in ("double_total", "double_hand_points") else 1)
        figure += abs(game.game_bonus) + abs(game.box_bonus)
    if figure > MAX_EXPR_INT:
        bonus = ", a shutout, the game and box bonus" if points > 0 else ""
        key = ("scoring", "round", index, field)
        if key not in reported:
            reported.add(key)
            report.error(key, f"integer too large: one such round makes a final figure of {figure:,} (the "
                         f"points {points:,}{bonus}; {sample}), beyond "
                         f"{MAX_EXPR_INT:,} (the most a total may be)", "expr-limit")


def check_game(variant: Variant, report: Report) -> None:
    """The game's modes exclude each other (``game-mode``); bonuses with the lowest
    total winning (``game-bonus-lowest``)."""
    game = variant.game
    if game.hollywood_games and game.match_games_to_win:
        report.error(("game", "hollywood"), "'hollywood' and 'match' cannot both be set", "game-mode")
    if game.deals is not None and game.hollywood_games:
        report.error(("game", "deals"), "'deals' and 'hollywood' cannot both be set: a shared score sheet "
                     "closes each game at its target", "game-mode")
    if game.winner == "lowest" and (game.game_bonus or game.box_bonus or game.shutout != "none"):
        report.warn(("game", "winner"), "the lowest total wins, but game_bonus, box_bonus or shutout add "
                    "points at the end (they would count against the winner)", "game-bonus-lowest")
