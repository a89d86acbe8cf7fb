"""The figures of simulate: Wilson intervals, Student t intervals, per-game seeds,
and the merge of game summaries (checked against hand-worked numbers)."""

from __future__ import annotations

import io
import math
import time

import pytest

from rummydsl.progress import Progress
from rummydsl.record import PlayedGame, RoundSummary
from rummydsl.simulate import GameOutcome, Statistics, game_seeds, mean_interval, t975, wilson


@pytest.mark.parametrize("k,n,low,high", [
    (8, 10, 0.4902, 0.9433),   # Wilson (1927) score interval, z = 1.96
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got.value == k / n
    assert math.isclose(got.low, low, abs_tol=1e-4) and math.isclose(got.high, high, abs_tol=1e-4)


def test_student_t_quantiles_join_the_expansion_smoothly() -> None:
    assert t975(1) == 12.7062 and t975(10) == 2.2281
    assert math.isclose(t975(31), 2.0395, abs_tol=2e-4)
    assert math.isclose(t975(60), 2.0003, abs_tol=2e-4)
    assert math.isclose(t975(120), 1.9799, abs_tol=2e-4)
    assert t975(10_000) > 1.95996


def test_mean_interval() -> None:
    got = mean_interval([2, 4, 4, 4, 5, 5, 7, 9])  # mean 5, sample sd 2.138
    half = 2.3646 * 2.13809 / math.sqrt(8)
    assert got.value == 5 and math.isclose(got.high - 5, half, rel_tol=1e-4)
    assert mean_interval([3]).low == mean_interval([3]).high == 3
    assert mean_interval([]).value == 0


def test_a_count_s_interval_stops_at_zero() -> None:
    # 1 and 42: mean 21.5, standard error 28.99 / sqrt(2) = 20.5, t(1) = 12.7062: the plain interval starts at -238.98
    plain = mean_interval([1, 42])
    assert math.isclose(plain.low, 21.5 - 12.7062 * 20.5, abs_tol=1e-6)
    counted = mean_interval([1, 42], floor=0)
    assert (counted.value, counted.low, counted.high) == (21.5, 0.0, plain.high)
    assert mean_interval([20, 21, 22], floor=0) == mean_interval([20, 21, 22])  # far from 0: unchanged


def test_simulate_on_few_hands_prints_no_count_below_zero() -> None:
    """Issue 20: 'gin_rummy --hands 2' printed turns per round 21.50 [-35.68, 78.68]."""
    import json

    from .conftest import run

    code, out, _ = run("simulate", "gin_rummy", "--hands", "2", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["turns_per_round"]["low"] == 0.0
    assert all(item["low"] >= 0 for item in data["mean_points"].values())
    _, text, _ = run("simulate", "gin_rummy", "--hands", "2", "--seed", "1")
    assert "turns per round: 11.00 [0.00, " in text and "[-" not in text


def test_points_that_can_be_negative_keep_the_plain_interval() -> None:
    stats = Statistics("v", 2, ["greedy", "greedy"], 1, mode="hands")
    stats.per_unit_points = [[-30, 10, 5], [1, 40]]
    data = stats.as_json(0.0)
    assert data["mean_points"]["P1"]["low"] < 0 and data["mean_points"]["P2"]["low"] == 0.0


def test_game_seeds_are_a_prefix_and_depend_on_the_seed() -> None:
    assert game_seeds(3, 4) == game_seeds(3, 10)[:4]
    assert game_seeds(3, 4) != game_seeds(4, 4)
    assert all(0 <= s < 2 ** 64 for s in game_seeds(3, 100))


def summary(dealer: int, ending: str, points: tuple[int, int], undercut: bool = False) -> RoundSummary:
    winner = points.index(max(points)) if max(points) > 0 else None
    ender = None if winner is None else (1 - winner if undercut else winner)
    return RoundSummary(dealer, 1 - dealer, ending, ender, undercut, 10, points, winner)


def test_hands_are_counted_by_who_scored() -> None:
    stats = Statistics("gin_rummy", 2, ["greedy", "random"], 1, mode="hands")
    rounds = [summary(0, "knock", (20, 0)), summary(1, "gin", (0, 45)), summary(0, "void", (0, 0)),
              summary(1, "knock", (30, 0), undercut=True)]
    for index, rnd in enumerate(rounds):
        stats.add(GameOutcome(index, 0, PlayedGame([rnd], first_dealer=rnd.dealer)))
    assert (stats.games, stats.hands) == (0, 4)
    assert stats.wins == [2, 1] and stats.points == [50, 45]
    assert stats.endings == {"knock": 2, "gin": 1, "void": 1} and stats.undercuts == 1
    assert stats.decided_rounds == 3
    assert stats.dealer_round_wins == 2 and stats.first_round_wins == 1  # hands 1, 2; hand 4
    figures = stats.as_json(0.0)
    assert figures["wins"] == {"P1": 2, "P2": 1} and figures["endings"]["void"]["count"] == 1
    assert "games" not in figures["dealer"]


def test_a_stopped_game_counts_nothing_but_is_named() -> None:
    stats = Statistics("gin_rummy", 2, ["greedy", "greedy"], 1)
    stats.add(GameOutcome(2, 0, PlayedGame([summary(0, "knock", (20, 0))], stopped="P2: no answer")))
    assert (stats.games, stats.hands, stats.stopped) == (0, 0, ["game 3: P2: no answer"])


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_only_on_a_terminal() -> None:
    plain = io.StringIO()
    progress = Progress(plain, 10, unit="games")
    progress.started -= 5
    progress.update(5)
    progress.close()
    assert plain.getvalue() == ""
    screen = FakeTerminal()
    progress = Progress(screen, 10, unit="games")
    progress.update(1)
    assert screen.getvalue() == ""  # a run this short draws nothing
    progress.started = time.monotonic() - 5
    progress.update(5)
    assert "5/10 games" in screen.getvalue() and "#" * 15 in screen.getvalue()
    progress.close()
    assert screen.getvalue().endswith("\r" + " " * 79 + "\r")
