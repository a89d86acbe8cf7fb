"""Game-quality metrics of a set of played games, after Ludii's Evaluation metrics and CardStock's heuristics.

Each metric is defined in docs/lab.md ("Game quality") with its formula and its
source; the code follows those formulas. Two kinds:

- metrics of the set's outcomes (Ludii's *balance*, *advantage* of the first player,
  *drawishness*, *completion*; CardStock's *fairness*), from counts;
- metrics of each game's *lead history* (the running totals of the round points,
  one entry after each round), averaged over the games: *duration* (turns and
  rounds), *lead change*, *drama*, *security* and *decisiveness*.

Everything is summed game by game (:class:`QualityFigures`): no list of games is
kept, so a run of a million games costs no more memory than a run of ten.

>>> from rummydsl.record import PlayedGame, RoundSummary
>>> from rummydsl.engine import GameResult
>>> def rnd(points):
...     return RoundSummary(0, 1, "knock", 0, False, 10, points, None)
>>> game = PlayedGame([rnd((0, 20)), rnd((30, 0)), rnd((80, 0))], GameResult(0, (110, 20), (110, 20), 3), 0)
>>> shape = game_shape(game, 2)
>>> shape.lead_changes, shape.behind, round(shape.drama, 4), shape.decided_at
(1, 1, 0.7071, 1)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..simulate import Interval, wilson
from .stats import Z95, Mean, Rate

if TYPE_CHECKING:
    from ..record import PlayedGame

__all__ = ["GameShape", "game_shape", "QualityFigures", "QUALITY", "PER_GAME", "fairness", "balance_interval",
           "fairness_interval", "outcome_code", "decode_outcome"]

QUALITY: dict[str, tuple[str, str, str]] = {
    "balance": ("balance", "1 - the widest gap between two seats' win rates", "Ludii Balance"),
    "advantage": ("first-player advantage", "the first to play wins the game", "Ludii AdvantageP1"),
    "fairness": ("fairness", "the first player's win rate against an even share", "CardStock Fairness"),
    "drawishness": ("drawishness", "games drawn (the top final figure shared)", "Ludii Drawishness"),
    "completion": ("completion", "games that end with one winner", "Ludii Completion"),
    "duration_turns": ("duration (turns)", "turns per game", "Ludii DurationTurns"),
    "duration_rounds": ("duration (rounds)", "rounds per game", "Ludii DurationTurns, counted in rounds"),
    "lead_change": ("lead change", "share of rounds after which the leader changed", "Ludii LeadChange"),
    "drama": ("drama", "how far behind the winner was, when it was", "CardStock Drama"),
    "security": ("security", "share of rounds the winner was not behind", "CardStock Security"),
    "decisiveness": ("decisiveness", "share of the game played before the winner led for good",
                     "Ludii DecisivenessTurns"),
}
"""Every metric: its key, its name, what it measures and its source (the formulas: docs/lab.md)."""

PER_GAME: tuple[str, ...] = ("duration_turns", "duration_rounds", "lead_change", "drama", "security", "decisiveness")
"""The metrics that are a mean of one value a game: two variants played from the same seeds
pair on these, game by game (``compare``'s paired differences)."""


@dataclass(frozen=True)
class GameShape:
    """One game's lead history summed up: what the per-game metrics average."""

    rounds: int
    turns: int
    winner: int | None
    drawn: bool
    lead_changes: int
    """Rounds ``k >= 2`` after which the set of leaders differed from that after round ``k - 1``."""
    behind: int
    """Rounds after which the eventual winner was strictly behind the best other seat."""
    drama: float
    """The mean of ``sqrt(deficit)`` over those rounds (0 when it never was behind)."""
    decided_at: int
    """Rounds played before the winner led alone for good (``rounds``: it never did)."""

    @property
    def lead_change(self) -> float:
        return self.lead_changes / (self.rounds - 1) if self.rounds > 1 else 0.0

    @property
    def security(self) -> float:
        return 1 - self.behind / self.rounds if self.rounds else 1.0

    @property
    def decisiveness(self) -> float:
        return self.decided_at / self.rounds if self.rounds else 0.0


def game_shape(played: PlayedGame, players: int) -> GameShape:
    """The lead history of one finished game (``played.result`` set).

    The totals after round ``k`` are the sums of the rounds' points up to ``k``. The
    better total is the higher one, unless the winner ends with the strictly lowest
    total and not the highest (a game the lowest figure wins, as Contract Rummy).
    """
    result = played.result
    assert result is not None, "a game without a result has no lead history"
    totals = [0] * players
    history: list[list[int]] = []
    turns = 0
    for rnd in played.rounds:
        turns += rnd.turns
        for seat, points in enumerate(rnd.points[:players]):
            totals[seat] += points
        history.append(list(totals))
    winner = result.winner
    figures = list(result.figures)
    drawn = sum(1 for f in figures if f == figures[winner]) > 1 if figures else False
    lowest = bool(history) and min(history[-1]) == history[-1][winner] < max(history[-1])
    sign = -1 if lowest else 1

    def leaders(row: list[int]) -> frozenset[int]:
        best = max(sign * x for x in row)
        return frozenset(p for p, x in enumerate(row) if sign * x == best)

    changes = behind = 0
    roots = 0.0
    decided = len(history)
    previous: frozenset[int] | None = None
    for k, row in enumerate(history):
        now = leaders(row)
        if previous is not None and now != previous:
            changes += 1
        previous = now
        others = [sign * x for p, x in enumerate(row) if p != winner]
        gap = (max(others) if others else 0) - sign * row[winner]
        if gap > 0:
            behind += 1
            spread = sum(abs(x) for x in row) or 1
            roots += math.sqrt(min(1.0, gap / spread) / 2)
        if now == frozenset((winner,)):
            decided = min(decided, k)
        else:
            decided = len(history)
    return GameShape(len(history), turns, winner, drawn, changes, behind, roots / behind if behind else 0.0,
                     decided)


def outcome_code(winner: int | None, first: bool, drawn: bool, completed: bool) -> int:
    """One number for how a game ended: its winner (``None``: -1), whether the first to play
    won, whether it was drawn, whether it completed.

    >>> outcome_code(1, True, False, True), outcome_code(None, False, True, False)
    (21, 2)
    """
    return (((-1 if winner is None else winner) + 1) * 2 + first) * 4 + drawn * 2 + completed


def decode_outcome(code: int) -> tuple[int | None, bool, bool, bool]:
    """The winner, first-won, drawn and completed of an :func:`outcome_code`.

    >>> decode_outcome(outcome_code(1, True, False, True))
    (1, True, False, True)
    """
    winner = (code >> 3) - 1
    return (None if winner < 0 else winner), bool(code & 4), bool(code & 2), bool(code & 1)


def fairness(rate: float, players: int) -> float:
    """CardStock's fairness of a first player's win rate ``rate`` with ``players`` seats:
    1 at an even share, falling linearly to 0 at a rate of 0 and of 1.

    >>> fairness(0.5, 2), fairness(0.25, 2), fairness(0.75, 2), round(fairness(0.5, 3), 4)
    (1.0, 0.5, 0.5, 0.75)
    """
    if players < 2:
        return 1.0
    if rate <= 1 / players:
        return rate * players
    return players / (players - 1) * (1 - rate)


def fairness_interval(rate: Interval, players: int) -> Interval:
    """The interval of :func:`fairness` from the rate's interval (the map is monotone on each
    side of the even share, so its range over the rate's interval is exact)."""
    ends = [fairness(rate.low, players), fairness(rate.high, players)]
    high = 1.0 if rate.low <= 1 / players <= rate.high else max(ends)
    return Interval(fairness(rate.value, players), min(ends), high)


def balance_interval(wins: list[int], games: int) -> Interval:
    """Ludii's balance, ``1 - max |w_p - w_q|`` over pairs of seats (``w``: win rates), with the
    95% normal interval of the widest pair's difference (multinomial variance
    ``(w_p + w_q - (w_p - w_q)^2) / games``) mapped through ``1 - |d|``.

    >>> b = balance_interval([60, 40], 100)
    >>> round(b.value, 3), round(b.low, 3), round(b.high, 3)
    (0.8, 0.608, 0.992)
    """
    if games <= 0 or len(wins) < 2:
        return Interval(1.0, 1.0, 1.0)
    rates = [w / games for w in wins]
    gap, p, q = max((abs(rates[a] - rates[b]), a, b) for a in range(len(rates)) for b in range(a + 1, len(rates)))
    d = abs(rates[p] - rates[q])
    half = Z95 * math.sqrt(max(0.0, rates[p] + rates[q] - d * d) / games)
    low, high = d - half, d + half
    far = max(abs(low), abs(high))
    near = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return Interval(1 - gap, max(0.0, 1 - far), min(1.0, 1 - near))


def _clip(interval: Interval, low: float = 0.0, high: float = 1.0) -> Interval:
    return Interval(interval.value, max(low, interval.low), min(high, interval.high))


@dataclass
class QualityFigures:
    """The quality metrics of one set of games, summed game by game."""

    players: int
    games: int = 0
    """Games begun and counted (a game that stopped early, e.g. forfeited on time, counts here)."""
    wins: list[int] = field(default_factory=list)
    first_wins: Rate = field(default_factory=Rate)
    draws: Rate = field(default_factory=Rate)
    completed: Rate = field(default_factory=Rate)
    means: dict[str, Mean] = field(default_factory=dict)
    outcomes: Counter[int] = field(default_factory=Counter)
    """How many games ended each way, by :func:`outcome_code` (what the whole-run metrics
    depend on: the bootstrap of their differences draws from it, :mod:`~rummydsl.lab.quality_diff`)."""

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        for key in PER_GAME:
            self.means.setdefault(key, Mean())

    def add(self, played: PlayedGame, winner: int | None = None) -> dict[str, float]:
        """Count one game and return its :data:`PER_GAME` values and its ``outcome``
        (:func:`outcome_code`), for pairing. A game that
        stopped early with ``winner`` given (a forfeit on time) counts as won but not
        completed, and has no values; one without a result otherwise is refused."""
        self.games += 1
        first = played.rounds[0].first if played.rounds else (played.first_dealer + 1) % self.players
        if played.result is None:
            assert winner is not None, f"a game that stopped early is not counted: {played.stopped!r}"
            self.wins[winner] += 1
            self.first_wins.add(winner == first)
            self.draws.add(False)
            self.completed.add(False)
            self.outcomes[outcome_code(winner, winner == first, False, False)] += 1
            return {}
        shape = game_shape(played, self.players)
        if shape.winner is not None:
            self.wins[shape.winner] += 1
        self.first_wins.add(shape.winner == first)
        self.draws.add(shape.drawn)
        complete = not shape.drawn and played.stopped is None
        self.completed.add(complete)
        code = outcome_code(shape.winner, shape.winner == first, shape.drawn, complete)
        self.outcomes[code] += 1
        values = {"duration_turns": float(shape.turns), "duration_rounds": float(shape.rounds),
                  "lead_change": shape.lead_change, "drama": shape.drama, "security": shape.security,
                  "decisiveness": shape.decisiveness}
        for key, value in values.items():
            self.means[key].add(value)
        return {**values, "outcome": float(code)}

    def estimates(self) -> dict[str, Interval]:
        """Every metric of :data:`QUALITY` with its 95% interval."""
        advantage = self.first_wins.interval()
        out: dict[str, Interval] = {
            "balance": balance_interval(self.wins, self.games),
            "advantage": advantage,
            "fairness": fairness_interval(advantage, self.players),
            "drawishness": self.draws.interval(),
            "completion": self.completed.interval(),
        }
        bounded: dict[str, Callable[[Interval], Interval]] = {
            "duration_turns": lambda i: _clip(i, 0.0, math.inf), "duration_rounds": lambda i: _clip(i, 0.0, math.inf)}
        for key, mean in self.means.items():
            out[key] = bounded.get(key, _clip)(mean.interval())
        return {key: out[key] for key in QUALITY}

    def as_json(self) -> dict[str, Any]:
        """``{key: {"value", "low", "high"}}`` for every metric (docs/lab.md, "Game quality")."""
        return {key: interval.as_json() for key, interval in self.estimates().items()}
