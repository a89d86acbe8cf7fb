"""The figures of a variant under play, summed game by game, and their comparison.

Game-level figures are one number per game (who won it, how many rounds it took),
so when two variants are played from the same seeds with the same deals, game
``i`` under one pairs with game ``i`` under the other and the tests are paired.
Round-level figures (how a round ended, its turns and points, whether its dealer
won) are rates and means over rounds: a rule change changes how many rounds a game
has, so rounds never pair, and their tests are always for independent samples.
Each round is dealt from a fresh shuffle, and the built-in agents do not look at
the score, so rounds are close to independent draws.

>>> [f.key for f in figure_specs(2, ["gin", "knock"])][:5]
['win.P1', 'win.P2', 'win.dealer', 'win.first', 'rounds_per_game']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Sequence

from ..engine.actions import player_name
from ..record import PlayedGame
from ..simulate import Interval
from .quality import QualityFigures
from .quality_diff import OUTCOME_KEY, PairedOutcomes
from .stats import (
    Histogram,
    Mean,
    PairedDifference,
    Rate,
    Test,
    holm,
    mcnemar,
    mean_difference_interval,
    paired_t,
    rate_difference_interval,
    two_proportions,
    welch,
)

__all__ = [
    "Figure",
    "figure_specs",
    "ArmFigures",
    "PairFigures",
    "Comparison",
    "FigureRow",
    "figure_rows",
    "ENDING_ORDER",
    "ENDING_LABELS",
    "HISTOGRAMS",
    "ALPHA",
]

ENDING_ORDER: tuple[str, ...] = ("knock_not_undercut", "undercut", "gin", "big_gin", "out", "stock_end", "void")
"""How a round ends, in the order tables list them: a partition of the rounds, so a knock
is either ``knock_not_undercut`` or ``undercut`` (a knock the defender won). (``simulate``'s
``knock`` is every knock, as the language's ``knock`` is: the sum of the two.)"""

ENDING_LABELS: dict[str, str] = {"knock_not_undercut": "knock, not undercut"}
"""Labels of the endings whose key does not read well with its underscores made spaces."""

HISTOGRAMS: dict[str, str] = {
    "turns_per_round": "turns per round",
    "points_per_round": "points per round",
    "rounds_per_game": "rounds per game",
}
"""The distributions kept (as bounded histograms), with their labels."""

ALPHA = 0.05
"""A difference is marked significant when its Holm-adjusted p-value is below this."""


@dataclass(frozen=True)
class Figure:
    """One figure a table shows: its key, its label, a rate or a mean, per game or per round."""

    key: str
    label: str
    kind: Literal["rate", "mean"]
    level: Literal["game", "round"]


def figure_specs(players: int, endings: Sequence[str]) -> list[Figure]:
    """The figures of a run with ``players`` seats, whose rounds ended in the ways ``endings``."""
    specs = [Figure(f"win.{player_name(p)}", f"{player_name(p)} wins the game", "rate", "game")
             for p in range(players)]
    specs += [
        Figure("win.dealer", "the first dealer wins the game", "rate", "game"),
        Figure("win.first", "the first to play wins the game", "rate", "game"),
        Figure("rounds_per_game", "rounds per game", "mean", "game"),
        Figure("round_win.dealer", "the dealer wins the round", "rate", "round"),
        Figure("round_win.first", "the first to play wins the round", "rate", "round"),
    ]
    known = [e for e in ENDING_ORDER if e in endings] + sorted(set(endings) - set(ENDING_ORDER))
    specs += [Figure(f"ending.{e}", f"rounds ending: {ENDING_LABELS.get(e, e.replace('_', ' '))}", "rate", "round")
              for e in known]
    specs += [
        Figure("turns_per_round", "turns per round", "mean", "round"),
        Figure("points_per_round", "points per round", "mean", "round"),
    ]
    return specs


def _ending(ending: str, undercut: bool) -> str:
    """How a round ended, a knock told as undercut or not."""
    if ending == "knock":
        return "undercut" if undercut else "knock_not_undercut"
    return ending


@dataclass
class ArmFigures:
    """The figures of one variant, summed game by game (no per-game list kept)."""

    players: int
    games: int = 0
    rounds: int = 0
    rates: dict[str, Rate] = field(default_factory=dict)
    means: dict[str, Mean] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)
    histograms: dict[str, Histogram] = field(default_factory=dict)
    quality: QualityFigures = field(init=False)
    """The game-quality metrics (:mod:`~rummydsl.lab.quality`) of the same games."""

    def __post_init__(self) -> None:
        self.quality = QualityFigures(self.players)
        for p in range(self.players):
            self.rates.setdefault(f"win.{player_name(p)}", Rate())
        for key in ("win.dealer", "win.first", "round_win.dealer", "round_win.first"):
            self.rates.setdefault(key, Rate())
        for key in ("rounds_per_game", "turns_per_round", "points_per_round"):
            self.means.setdefault(key, Mean())
        for key in HISTOGRAMS:
            self.histograms.setdefault(key, Histogram())

    def add(self, played: PlayedGame) -> dict[str, float]:
        """Count one finished game (the caller leaves out games that stopped early);
        returns its game-level figures (for pairing)."""
        assert played.result is not None, f"a game that stopped early is not counted: {played.stopped!r}"
        n = self.players
        self.games += 1
        quality = self.quality.add(played)
        for rnd in played.rounds:
            self.rounds += 1
            ending = _ending(rnd.ending, rnd.undercut)
            self.endings[ending] = self.endings.get(ending, 0) + 1
            self.means["turns_per_round"].add(rnd.turns)
            self.histograms["turns_per_round"].add(rnd.turns)
            points = sum(rnd.points)
            self.means["points_per_round"].add(points)
            self.histograms["points_per_round"].add(points)
            if rnd.winner is not None:
                self.rates["round_win.dealer"].add(rnd.winner == rnd.dealer)
                self.rates["round_win.first"].add(rnd.winner == rnd.first)
        winner = played.result.winner
        values: dict[str, float] = {f"win.{player_name(p)}": float(winner == p) for p in range(n)}
        values["win.dealer"] = float(winner == played.first_dealer)
        values["win.first"] = float(winner == (played.first_dealer + 1) % n)
        for key, value in values.items():
            self.rates[key].add(bool(value))
        values.update({f"quality.{key}": value for key, value in quality.items()})
        values["rounds_per_game"] = float(len(played.rounds))
        self.means["rounds_per_game"].add(len(played.rounds))
        self.histograms["rounds_per_game"].add(len(played.rounds))
        return values

    def rate(self, figure: Figure) -> Rate:
        """The rate of a rate figure (an ending's rate is over all rounds)."""
        if figure.key.startswith("ending."):
            return Rate(self.endings.get(figure.key[len("ending."):], 0), self.rounds)
        return self.rates[figure.key]

    def estimate(self, figure: Figure) -> Interval:
        """The figure with its 95% interval (Wilson for rates, t for means, a count's never below 0)."""
        if figure.kind == "rate":
            return self.rate(figure).interval()
        mean = self.means[figure.key]
        # turns and rounds are counts; points are one where none was below 0 (500 Rum's can be)
        return mean.interval(0.0 if figure.key != "points_per_round" or mean.lowest >= 0 else None)


@dataclass
class PairFigures:
    """Per-game differences of every game-level figure between two variants, the same seeds."""

    differences: dict[str, PairedDifference] = field(default_factory=dict)
    outcomes: PairedOutcomes = field(default_factory=PairedOutcomes)
    """How each seed's two games ended (the paired bootstrap of the whole-run quality metrics)."""

    def add(self, a: dict[str, float], b: dict[str, float]) -> None:
        """Take the game-level figures of one seed's game under both variants."""
        for key, value in a.items():
            if key == OUTCOME_KEY:
                self.outcomes.add(value, b[key])
            else:
                self.differences.setdefault(key, PairedDifference()).add(value, b[key])


@dataclass
class Comparison:
    """One figure of one variant against the first: the difference, its test and verdict."""

    variant: int
    """The index of the variant compared with the first (from 1)."""
    difference: Interval
    test: Test
    p_holm: float | None = None
    significant: bool = False
    discordant: tuple[int, int] | None = None
    """For a paired 0/1 figure: the games where only the first variant, and only this one, had it."""

    def as_json(self) -> dict[str, Any]:
        """The comparison as a JSON object."""
        return {"variant": self.variant, "difference": self.difference.as_json(), "test": self.test.name,
                "p": None if self.test.p is None else round(self.test.p, 6),
                "p_holm": None if self.p_holm is None else round(self.p_holm, 6),
                "significant": self.significant,
                **({} if self.discordant is None else {"discordant": list(self.discordant)})}


@dataclass
class FigureRow:
    """A figure across the variants of a run: estimates, counts, and comparisons with the first."""

    figure: Figure
    estimates: list[Interval]
    counts: list[tuple[int, int] | None]
    """Successes and trials of a rate, per variant (``None`` for a mean)."""
    comparisons: list[Comparison]

    def as_json(self) -> dict[str, Any]:
        """The row as a JSON object (the ``figures`` items of ``compare --json``)."""
        values = []
        for estimate, count in zip(self.estimates, self.counts):
            value: dict[str, Any] = estimate.as_json()
            if count is not None:
                value["count"], value["of"] = count
            values.append(value)
        return {"key": self.figure.key, "label": self.figure.label, "kind": self.figure.kind,
                "level": self.figure.level, "values": values,
                "comparisons": [c.as_json() for c in self.comparisons]}


def _compare(figure: Figure, k: int, a: ArmFigures, b: ArmFigures, pair: PairFigures | None) -> Comparison:
    """The difference ``b - a`` of one figure, with the test that fits it."""
    if pair is not None and figure.level == "game":
        paired = pair.differences.get(figure.key, PairedDifference())
        interval = paired.differences.interval()
        if figure.kind == "rate":
            return Comparison(k, interval, mcnemar(paired.only_a, paired.only_b),
                              discordant=(paired.only_a, paired.only_b))
        return Comparison(k, interval, paired_t(paired.differences))
    if figure.kind == "rate":
        ra, rb = a.rate(figure), b.rate(figure)
        return Comparison(k, rate_difference_interval(ra, rb), two_proportions(ra, rb))
    ma, mb = a.means[figure.key], b.means[figure.key]
    return Comparison(k, mean_difference_interval(ma, mb), welch(ma, mb))


def figure_rows(arms: Sequence[ArmFigures], pairs: Sequence[PairFigures | None]) -> list[FigureRow]:
    """Every figure of every variant, each later variant compared with the first.

    ``pairs[k - 1]`` holds the paired differences of variant ``k`` against variant 0,
    or ``None`` when their deals differ (then every test is for independent samples).
    The p-values of all the comparisons of the run form one family for Holm's correction.
    """
    endings = sorted({e for arm in arms for e in arm.endings})
    rows: list[FigureRow] = []
    for figure in figure_specs(arms[0].players, endings):
        estimates = [arm.estimate(figure) for arm in arms]
        counts: list[tuple[int, int] | None] = []
        for arm in arms:
            rate = arm.rate(figure) if figure.kind == "rate" else None
            counts.append(None if rate is None else (rate.successes, rate.trials))
        comparisons = [_compare(figure, k, arms[0], arms[k], pairs[k - 1]) for k in range(1, len(arms))]
        rows.append(FigureRow(figure, estimates, counts, comparisons))
    every = [c for row in rows for c in row.comparisons]
    for comparison, adjusted in zip(every, holm([c.test.p for c in every])):
        comparison.p_holm = adjusted
        comparison.significant = adjusted is not None and adjusted < ALPHA
    return rows
