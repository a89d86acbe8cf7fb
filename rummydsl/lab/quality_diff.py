"""Differences between two variants in the whole-run quality metrics, with bootstrap 95% intervals.

Balance, first-player advantage, fairness, drawishness and completion
(:data:`WHOLE_RUN`) are figures of a whole set of games, not means of one value a
game, so the paired t test of the per-game metrics does not apply to them. Each
depends only on how many games ended each way: who won, whether the first to play
won, whether the game was drawn, whether it completed (a game's *outcome*,
:func:`outcome_code`). A run counts its games' outcomes (and, where the variants pair,
the outcomes of each seed's pair of games), so the bootstrap needs no list of games:
drawing ``N`` games with replacement from a run of ``N`` is drawing the counts of each
outcome from a multinomial distribution with the observed shares (:func:`multinomial`,
exact, through :func:`binomial`).

:func:`whole_run_differences` gives, for each metric, the difference ``b - a`` of the
observed values, the 2.5% and 97.5% percentiles of :data:`REPLICATES` bootstrap
differences, and a two-sided bootstrap p-value. Where the variants pair, the pairs of
games are drawn together (a paired bootstrap: the deal's luck is the same on both
sides); else each variant's games are drawn on their own. The generator is seeded from
the run's seed, so the same run gives the same intervals, whatever its workers.

>>> a, b = {outcome_code(0, True, False, True): 6, outcome_code(1, False, False, True): 4}, {}
>>> b[outcome_code(0, True, False, True)] = 5; b[outcome_code(1, False, False, True)] = 5
>>> round(whole_run_values(a, 2)["balance"], 3), whole_run_values(b, 2)["balance"]
(0.8, 1.0)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..simulate import Interval
from .quality import decode_outcome, fairness, outcome_code

__all__ = ["WHOLE_RUN", "REPLICATES", "OUTCOME_KEY", "outcome_code", "whole_run_values", "binomial", "multinomial",
           "PairedOutcomes", "BootstrapDifference", "whole_run_differences"]

WHOLE_RUN: tuple[str, ...] = ("balance", "advantage", "fairness", "drawishness", "completion")
"""The quality metrics of a whole set of games (the rest, :data:`~rummydsl.lab.quality.PER_GAME`, are means)."""

REPLICATES = 2000
"""Bootstrap replicates of a difference (the interval's ends move by about 0.1 of its width
from one seed to another at this count)."""

OUTCOME_KEY = "quality.outcome"
"""The key of a game's :func:`outcome_code` among the game-level values a lab run pairs."""

_SMALL = 32
"""Below this many trials :func:`binomial` counts uniforms one by one."""


def whole_run_values(counts: Mapping[int, int], players: int) -> dict[str, float]:
    """Each metric of :data:`WHOLE_RUN` from the counts of the outcomes (the formulas of
    docs/lab.md, "Game quality"; the values :class:`~rummydsl.lab.quality.QualityFigures` gives)."""
    games = sum(counts.values())
    if games == 0:
        return {"balance": 1.0, "advantage": 0.0, "fairness": fairness(0.0, players), "drawishness": 0.0,
                "completion": 0.0}
    wins = [0] * players
    first = drawn = completed = 0
    for code, count in counts.items():
        winner, won_first, was_drawn, was_completed = decode_outcome(code)
        if winner is not None and winner < players:
            wins[winner] += count
        first += won_first * count
        drawn += was_drawn * count
        completed += was_completed * count
    advantage = first / games
    return {"balance": 1 - (max(wins) - min(wins)) / games if players > 1 else 1.0, "advantage": advantage,
            "fairness": fairness(advantage, players), "drawishness": drawn / games, "completion": completed / games}


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A draw from the binomial distribution (``n`` trials of chance ``p``), exactly, in about
    ``log2(n)`` steps: the middle one of ``n`` sorted uniforms is a beta variate, and the
    uniforms on either side of it are uniform again on their side (Knuth, *The Art of Computer
    Programming* 2, 3.4.1 F); below :data:`_SMALL` trials, uniforms are counted one by one.

    >>> rng = random.Random(1)
    >>> binomial(rng, 10, 0.0), binomial(rng, 10, 1.0), 0 <= binomial(rng, 10_000, 0.3) <= 10_000
    (0, 10, True)
    """
    p = min(1.0, max(0.0, p))
    found = 0
    while n > _SMALL and 0.0 < p < 1.0:
        middle = 1 + n // 2
        x = rng.betavariate(middle, n + 1 - middle)  # the middle-th smallest of n uniforms
        if x < p:  # it and the ones below it are under p; the n - middle above are uniform on (x, 1)
            found += middle
            n, p = n - middle, (p - x) / (1 - x)
        else:  # the middle - 1 below it are uniform on (0, x)
            n, p = middle - 1, p / x
    if p <= 0.0:
        return found
    if p >= 1.0:
        return found + n
    return found + sum(1 for _ in range(n) if rng.random() < p)


def multinomial(rng: random.Random, n: int, weights: Sequence[int]) -> list[int]:
    """``n`` draws shared among the cells in proportion to ``weights`` (a multinomial draw, each
    cell a binomial draw of what the cells before it left).

    >>> multinomial(random.Random(2), 10, [0, 5, 0])
    [0, 10, 0]
    >>> sum(multinomial(random.Random(2), 1000, [3, 1, 6]))
    1000
    """
    left, mass = n, sum(weights)
    out: list[int] = []
    for weight in weights:
        drawn = binomial(rng, left, weight / mass) if mass > 0 and left > 0 else 0
        out.append(drawn)
        left -= drawn
        mass -= weight
    return out


@dataclass
class PairedOutcomes:
    """The outcomes of each seed's pair of games (the first variant's, the other's), counted."""

    joint: Counter[tuple[int, int]] = field(default_factory=Counter)

    def add(self, a: float, b: float) -> None:
        """Count one pair of games by their :func:`outcome_code` values."""
        self.joint[(int(a), int(b))] += 1


@dataclass(frozen=True)
class BootstrapDifference:
    """A metric's difference ``b - a`` with its percentile bootstrap 95% interval and p-value."""

    interval: Interval
    p: float
    method: str
    """``"paired bootstrap"`` (pairs of games drawn together) or ``"bootstrap"`` (each variant's own)."""


def _percentiles(values: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% percentiles: the ``ceil(0.025 B)``-th and ``ceil(0.975 B)``-th of the
    ``B`` sorted values (for 2000: the 50th and the 1950th)."""
    ordered = sorted(values)
    count = len(ordered)
    return ordered[max(0, math.ceil(0.025 * count) - 1)], ordered[max(0, math.ceil(0.975 * count) - 1)]


def whole_run_differences(a: Mapping[int, int], b: Mapping[int, int], players: int, *,
                          paired: PairedOutcomes | None, seed: int, variant: int = 1,
                          replicates: int = REPLICATES) -> dict[str, BootstrapDifference]:
    """Each metric of :data:`WHOLE_RUN`: variant ``b``'s value less ``a``'s, from their outcome
    counts, with a bootstrap interval: over the pairs of games ``paired`` holds where the
    variants pair (a paired bootstrap), else over each variant's games on its own. The
    p-value is twice the smaller share of replicates at or below 0 and at or above 0 (at most 1).
    The generator is ``random.Random(f"quality bootstrap {seed} {variant}")`` (``seed``: the run's;
    ``variant``: the later variant's index): the same counts and seed give the same answer.
    """
    observed_a, observed_b = whole_run_values(a, players), whole_run_values(b, players)
    rng = random.Random(f"quality bootstrap {seed} {variant}")
    draws: dict[str, list[float]] = {key: [] for key in WHOLE_RUN}
    if paired is not None:
        cells = sorted(paired.joint)
        weights = [paired.joint[cell] for cell in cells]
        total = sum(weights)
        for _ in range(replicates):
            side_a: Counter[int] = Counter()
            side_b: Counter[int] = Counter()
            for (code_a, code_b), count in zip(cells, multinomial(rng, total, weights)):
                side_a[code_a] += count
                side_b[code_b] += count
            _record(draws, whole_run_values(side_a, players), whole_run_values(side_b, players))
    else:
        cells_a, cells_b = sorted(a), sorted(b)
        weights_a, weights_b = [a[c] for c in cells_a], [b[c] for c in cells_b]
        for _ in range(replicates):
            alone_a = dict(zip(cells_a, multinomial(rng, sum(weights_a), weights_a)))
            alone_b = dict(zip(cells_b, multinomial(rng, sum(weights_b), weights_b)))
            _record(draws, whole_run_values(alone_a, players), whole_run_values(alone_b, players))
    method = "paired bootstrap" if paired is not None else "bootstrap"
    out: dict[str, BootstrapDifference] = {}
    for key in WHOLE_RUN:
        values = draws[key]
        low, high = _percentiles(values) if values else (0.0, 0.0)
        below = sum(1 for v in values if v <= 0)
        above = sum(1 for v in values if v >= 0)
        p = min(1.0, 2 * min(below, above) / len(values)) if values else 1.0
        out[key] = BootstrapDifference(Interval(observed_b[key] - observed_a[key], low, high), p, method)
    return out


def _record(draws: dict[str, list[float]], a: Mapping[str, float], b: Mapping[str, float]) -> None:
    for key in WHOLE_RUN:
        draws[key].append(b[key] - a[key])
