"""``reward=`` as an expression of the score language, checked before any play.

An environment's reward may be written as an expression in the reward context
(docs/language.md, "Reward context"): the names of the score context that a round's
result settles, ``p`` the seat rewarded, and ``points(q)``, ``total(q)``. It is worked out
for every seat dealt in when a round ends (a seat sitting the round out gets 0), and is
that seat's reward for the step that ended it; every other step rewards 0.

>>> from rummydsl.variant import load_variant
>>> reward = RewardExpression.compile("points(p) - sum(points(q) for q in others(p))",
...                                   load_variant("gin_rummy"))
>>> reward.text
'points(p) - sum(points(q) for q in others(p))'

A bad expression is refused where it is written, its place in the string (or in the
file it was read from) first::

    >>> RewardExpression.compile("points(p) - deadwod(p)", load_variant("gin_rummy"))
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: reward:1:13: unknown function 'deadwod'; did you mean 'deadwood'?
      points(p) - deadwod(p)
                  ^
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..errors import ExpressionError, FormulaError, Location
from ..expr import INT, Context, Env, compile_expression
from ..expr.compiled import Compiled

if TYPE_CHECKING:
    from ..engine.round import Round
    from ..engine.state import RoundResult
    from ..variant.model import Variant

__all__ = ["RewardExpression", "RewardView"]


class RewardView:
    """What a reward expression reads: a round as its result left it (the round's own
    upcard, dealer, number and hand size; who ended it, how, everyone's deadwood and
    points; the game totals before and after it)."""

    __slots__ = ("players", "dealer", "round", "hand_size", "upcard", "ender", "ending", "turns",
                 "undercut", "_deadwoods", "_points", "_scores", "_values")

    def __init__(self, rnd: Round, result: RoundResult) -> None:
        self.players: tuple[int, ...] = tuple(rnd.seated)
        self.dealer: int = rnd.dealer
        self.round: int = rnd.number
        self.hand_size: int = rnd.hand_size
        self.upcard: Card | None = rnd.upcard
        self.ender: int | None = result.ender
        self.ending: str = result.ending.value
        self.turns: int = result.turns
        self.undercut: bool = result.undercut
        self._deadwoods = result.deadwoods
        self._points = result.points
        self._scores = tuple(rnd.scores)
        self._values = rnd.values

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def void(self) -> bool:
        return self.ending == "void"

    @property
    def opponents(self) -> tuple[int, ...]:
        """Every player dealt in but the ender, in seat order from the ender's left."""
        players = self.players
        if self.ender is None or self.ender not in players:
            return players
        at = players.index(self.ender)
        return players[at + 1:] + players[:at]

    def others(self, player: int) -> tuple[int, ...]:
        return tuple(q for q in self.players if q != player)

    def value(self, card: Card) -> int:
        return int(self._values[card.id])

    def score(self, player: int) -> int:
        """``player``'s game total before the round."""
        return self._scores[player] if self._scores else 0

    def total(self, player: int) -> int:
        """``player``'s game total after the round: :meth:`score` plus :meth:`points`."""
        return self.score(player) + self._points[player]

    def points(self, player: int) -> int:
        """What ``player`` scored in the round (the multiplier included)."""
        return self._points[player]

    def deadwood(self, player: int) -> int:
        """``player``'s deadwood at the end of the round (after lay-offs)."""
        got = self._deadwoods[player]
        if got is None:
            raise ExpressionError(f"P{player + 1}'s hand was too large for the meld solver: its deadwood "
                                  "is not known", 0, 0, "hand-too-large")
        return got


@dataclass(frozen=True)
class RewardExpression:
    """A checked, compiled ``reward=`` expression (:meth:`compile`)."""

    text: str
    where: str
    """What errors name: ``reward`` for a string, the file's path for a file."""
    compiled: Compiled

    @classmethod
    def compile(cls, source: str | Path, variant: Variant) -> RewardExpression:
        """Check and compile ``source`` (the expression, or a :class:`~pathlib.Path` to a
        file holding it) in the reward context of ``variant`` (its deck and options).

        :raises ExpressionError: for a malformed expression, an unknown name, a wrong type:
            its message starts with the place (``reward:1:13:`` in a string,
            ``path:line:column:`` in a file) and quotes the line under a caret.
        :raises VariantError: for a file that cannot be read.
        """
        if isinstance(source, Path):
            try:
                text = source.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as problem:
                from ..errors import Diagnostic, VariantError

                raise VariantError([Diagnostic(Location(str(source)), f"cannot read the reward: {problem}",
                                               "io")]) from None
            where = str(source)
            text = text.rstrip("\n")
        else:
            text, where = source, "reward"
        env = Env(Context.REWARD, variant.deck, options=variant.options, has_upcard=variant.deal.upcard)
        try:
            compiled = compile_expression(text, env, INT)
        except ExpressionError as problem:
            raise _placed(problem, where, text) from None
        return cls(text, where, compiled)

    def rewards(self, rnd: Round, result: RoundResult, sat_out: int | None) -> list[float]:
        """Each seat's reward for the round ``rnd`` that ended with ``result`` (0 for the
        seat that sat it out).

        :raises FormulaError: naming the reward, for an expression that fails on this
            round (a division by zero, a number past the limit, a deadwood not known).
        """
        view = RewardView(rnd, result)
        fn = self.compiled.fn
        out = [0.0] * len(result.points)
        for p in view.players:
            if p == sat_out:
                continue
            try:
                out[p] = float(fn(view, p, None))
            except ExpressionError as problem:
                raise FormulaError(problem.message, problem.line, problem.column, problem.rule,
                                   (self.where,), self.text) from None
        return out


def _placed(problem: ExpressionError, where: str, text: str) -> ExpressionError:
    """``problem`` with its place in front (``where:line:column``) and the line quoted."""
    line, column = problem.line, problem.column
    place = Location(where, line, column)
    message = f"{place}: {problem.message}"
    lines = text.splitlines() or [""]
    if 1 <= line <= len(lines):
        message += f"\n  {lines[line - 1]}\n  {' ' * max(0, column - 1)}^"
    error = ExpressionError(problem.message, line, column, problem.rule)
    error.location = place
    error.args = (message,)
    return error
