"""Ratings of agents from the games between them: Bradley-Terry on the Elo scale, with a
bootstrap over deals for the 95% intervals.

The Bradley-Terry model gives each agent a strength ``s`` so that ``a`` beats ``b``
with probability ``s_a / (s_a + s_b)``. :func:`bradley_terry` fits it by Hunter's
(2004) minorise-maximise iteration from the score matrix (a win counts 1, a draw 1/2
to each side), with one drawn game added between every pair that met (a weak prior,
so that an agent that won or lost everything still gets a finite strength). Ratings
are ``400 * log10(s)``, shifted so that they average 0: a 100-point gap is a 64%
expected score, as with Elo.

The intervals (:func:`bootstrap`) are percentile intervals: the deals played (each
deal with all its seatings, so the pairing of seats stays whole) are drawn again with
replacement, the model refitted on each draw, and the 2.5% and 97.5% quantiles of
each rating kept; the draws come from a generator seeded by the run's seed, so the
intervals are the same on every run of one command.

>>> scores = {(0, 1): (7.0, 10)}   # agent 0 scored 7 of 10 games against agent 1
>>> [round(r, 2) for r in bradley_terry(2, scores)]
[66.2, -66.2]
>>> round(200 * math.log10(7.5 / 3.5), 2)   # by hand: strengths in the ratio (7 + 1/2) : (3 + 1/2)
66.2
"""

from __future__ import annotations

import math
import random
from typing import Mapping, Sequence

__all__ = ["bradley_terry", "bootstrap", "PRIOR_DRAWS", "BOOTSTRAP_DRAWS"]

PRIOR_DRAWS = 1.0
"""Drawn games added between every pair that met (the weak prior)."""

BOOTSTRAP_DRAWS = 400
"""How many times the deals are drawn again for the intervals."""

_ITERATIONS = 500
_TOLERANCE = 1e-10


def bradley_terry(agents: int, scores: Mapping[tuple[int, int], tuple[float, int]]) -> list[float]:
    """The rating of each agent (Elo scale, mean 0) from ``scores[(a, b)] = (a's score, games)``
    for ``a < b`` (a's wins plus half its draws, of ``games`` between them)."""
    wins = [0.0] * agents
    games: dict[tuple[int, int], float] = {}
    for (a, b), (score, count) in scores.items():
        if count <= 0:
            continue
        wins[a] += score + PRIOR_DRAWS / 2
        wins[b] += count - score + PRIOR_DRAWS / 2
        games[(a, b)] = count + PRIOR_DRAWS
    strength = [1.0] * agents
    for _ in range(_ITERATIONS):
        denominator = [0.0] * agents
        for (a, b), padded in games.items():
            share = padded / (strength[a] + strength[b])
            denominator[a] += share
            denominator[b] += share
        new = [wins[k] / denominator[k] if denominator[k] > 0 else strength[k] for k in range(agents)]
        mean_log = sum(math.log(x) for x in new) / agents
        new = [x / math.exp(mean_log) for x in new]
        change = max(abs(x - y) for x, y in zip(new, strength))
        strength = new
        if change < _TOLERANCE:
            break
    return [400 * math.log10(x) for x in strength]


def bootstrap(agents: int, deals: Sequence[Mapping[tuple[int, int], tuple[float, int]]], seed: int,
              draws: int = BOOTSTRAP_DRAWS) -> list[tuple[float, float]]:
    """Each agent's 95% percentile interval of :func:`bradley_terry`, the deals drawn
    again with replacement ``draws`` times (each deal's scores as :func:`bradley_terry`
    takes them) from ``random.Random(seed)``."""
    if not deals:
        return [(0.0, 0.0)] * agents
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(agents)]
    n = len(deals)
    for _ in range(draws):
        summed: dict[tuple[int, int], tuple[float, int]] = {}
        for _pick in range(n):
            for pair, (score, count) in deals[rng.randrange(n)].items():
                was = summed.get(pair, (0.0, 0))
                summed[pair] = (was[0] + score, was[1] + count)
        for k, rating in enumerate(bradley_terry(agents, summed)):
            samples[k].append(rating)
    return [(_quantile(s, 0.025), _quantile(s, 0.975)) for s in samples]


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (linear between order statistics)."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)
