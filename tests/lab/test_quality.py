"""The game-quality metrics (rummydsl/lab/quality.py) on small made-up sets of games: each value
is worked out by hand from the formulas of docs/lab.md ("Game quality")."""

from __future__ import annotations

import math

import pytest

from rummydsl.engine import GameResult
from rummydsl.lab.quality import QUALITY, QualityFigures, balance_interval, fairness, fairness_interval, game_shape
from rummydsl.lab.stats import Z95
from rummydsl.record import PlayedGame, RoundSummary
from rummydsl.simulate import Interval, t975, wilson


def game(rounds: list[tuple[int, ...]], winner: int, turns: int = 10, first_dealer: int = 0,
         figures: tuple[int, ...] | None = None) -> PlayedGame:
    """A game whose rounds scored ``rounds`` (points per seat), each ``turns`` long."""
    summaries = [RoundSummary(0, 1, "knock", 0, False, turns, points, None) for points in rounds]
    totals = tuple(sum(r[p] for r in rounds) for p in range(len(rounds[0])))
    return PlayedGame(summaries, GameResult(winner, figures or totals, totals, len(rounds)), first_dealer)


# The made-up set: three two-player games (first dealer P1, so P2 plays first).
# A: P2 leads, P1 comes back: totals (0,20) (30,20) (110,20); P1 wins.
# B: P1 leads throughout: (25,0) (50,0) (100,0); P1 wins.
# C: P1 leads, then P2: (10,0) (10,30) (10,105); P2 wins.
A = game([(0, 20), (30, 0), (80, 0)], winner=0)
B = game([(25, 0), (25, 0), (50, 0)], winner=0)
C = game([(10, 0), (0, 30), (0, 75)], winner=1)


def test_the_lead_history_of_one_game_by_hand() -> None:
    a = game_shape(A, 2)
    # leaders {P2}, {P1}, {P1}: one change in two steps
    assert (a.rounds, a.turns, a.lead_changes, a.lead_change) == (3, 30, 1, 0.5)
    # behind only after round 1, by 20 of 20 points: deficit 20 / (2 * 20) = 1/2
    assert (a.behind, a.drama, a.security) == (1, pytest.approx(math.sqrt(0.5)), pytest.approx(2 / 3))
    # P1 leads alone from round 2 to the end: one round of three was played before
    assert (a.decided_at, a.decisiveness) == (1, pytest.approx(1 / 3))
    b = game_shape(B, 2)
    assert (b.lead_changes, b.behind, b.drama, b.security, b.decided_at) == (0, 0, 0.0, 1.0, 0)
    c = game_shape(C, 2)
    # P2 behind after round 1 (10 of 10 points: deficit 1/2); after round 2 it leads (30 to 10)
    assert (c.lead_changes, c.behind, c.drama, c.decided_at) == (1, 1, pytest.approx(math.sqrt(0.5)), 1)


def test_a_drawn_game_and_a_lowest_wins_game() -> None:
    tied = game([(10, 0), (0, 10)], winner=0, figures=(10, 10))
    shape = game_shape(tied, 2)
    assert shape.drawn and shape.decided_at == 2  # never led alone at the end: it was never decided
    # the lowest total wins (penalty points): P1 ends on 5 against 40, and led (was lower) throughout
    low = game([(5, 20), (0, 20)], winner=0)
    shape = game_shape(low, 2)
    assert (shape.behind, shape.lead_changes, shape.decided_at) == (0, 0, 0)


def test_drama_with_three_seats_measures_the_gap_to_the_best_other_seat() -> None:
    # totals (0, 30, 10): the winner P1 is 30 behind P2 of 40 points dealt: deficit 30 / 80
    three = game([(0, 30, 10), (100, 0, 0)], winner=0)
    shape = game_shape(three, 3)
    assert shape.drama == pytest.approx(math.sqrt(30 / 40 / 2))
    assert (shape.behind, shape.lead_changes, shape.decided_at) == (1, 1, 1)


def test_the_set_of_three_games_by_hand() -> None:
    figures = QualityFigures(2)
    for played in (A, B, C):
        figures.add(played)
    got = figures.estimates()
    assert list(got) == list(QUALITY)
    # wins: P1 2, P2 1 -> balance 1 - |2/3 - 1/3| = 2/3
    assert got["balance"].value == pytest.approx(2 / 3)
    # P2 played first in every game and won one: advantage 1/3, fairness 1/3 * 2
    assert got["advantage"] == wilson(1, 3)
    assert got["fairness"].value == pytest.approx(2 / 3)
    assert got["drawishness"].value == 0.0 and got["completion"].value == 1.0
    assert got["duration_turns"].value == 30.0 and got["duration_rounds"].value == 3.0
    assert got["duration_turns"].low == got["duration_turns"].high == 30.0  # every game alike
    # lead change 1/2, 0, 1/2: mean 1/3, t interval with s = sqrt(1/12)
    mean, s = 1 / 3, math.sqrt(((1 / 6) ** 2 * 2 + (1 / 3) ** 2) / 2)
    half = t975(2) * s / math.sqrt(3)
    assert got["lead_change"].value == pytest.approx(mean)
    assert got["lead_change"].high == pytest.approx(min(1.0, mean + half))
    assert got["lead_change"].low == pytest.approx(max(0.0, mean - half))
    assert got["drama"].value == pytest.approx(2 * math.sqrt(0.5) / 3)
    assert got["security"].value == pytest.approx((2 / 3 + 1 + 2 / 3) / 3)
    assert got["decisiveness"].value == pytest.approx((1 / 3 + 0 + 1 / 3) / 3)
    assert set(figures.as_json()["drama"]) == {"value", "low", "high"}


def test_a_forfeit_counts_as_won_but_not_completed() -> None:
    figures = QualityFigures(2)
    figures.add(A)
    figures.add(PlayedGame([], None, 0, "P1 ran over its time budget"), winner=1)
    got = figures.estimates()
    assert figures.wins == [1, 1] and got["completion"].value == 0.5 and got["balance"].value == 1.0
    assert figures.means["drama"].count == 1  # a forfeited game has no lead history to average


def test_fairness_is_cardstocks_tent() -> None:
    assert fairness(0.25, 4) == 1.0 and fairness(0.0, 4) == 0.0 and fairness(1.0, 4) == 0.0
    assert fairness(0.5, 4) == pytest.approx(-4 / 3 * 0.5 + 4 / 3)
    # an interval holding the even share reaches 1; one beside it maps end to end
    assert fairness_interval(Interval(0.55, 0.45, 0.65), 2) == Interval(pytest.approx(0.9), pytest.approx(0.7), 1.0)
    assert fairness_interval(Interval(0.7, 0.6, 0.8), 2) == Interval(pytest.approx(0.6), pytest.approx(0.4),
                                                                     pytest.approx(0.8))


def test_balance_interval_by_hand() -> None:
    # 3 seats, 100 games: 50, 30, 20 wins; widest pair P1-P3, d = 0.3,
    # variance (0.5 + 0.2 - 0.09) / 100
    got = balance_interval([50, 30, 20], 100)
    half = Z95 * math.sqrt(0.61 / 100)
    assert got.value == pytest.approx(0.7)
    assert (got.low, got.high) == (pytest.approx(0.7 - half), pytest.approx(0.7 + half))
    assert balance_interval([50, 50], 100).high == 1.0


def test_compare_pairs_the_per_game_metrics_of_the_same_deals() -> None:
    """Paired by seed, a per-game metric's difference is the mean of the games' differences,
    so with every game counted on both sides it is the difference of the two means; variants
    whose deals differ give no differences."""
    import json

    from rummydsl.lab.quality import PER_GAME

    from .conftest import run

    code, out, err = run("compare", "gin_rummy", "oklahoma_gin", "skarney_gin", "--games", "3", "--seed", "2",
                         "--workers", "1", "--json")
    assert code == 0, err
    gin, oklahoma, skarney = json.loads(out)["quality"]
    assert "differences" not in gin and skarney["differences"] is None
    assert set(PER_GAME) <= set(oklahoma["differences"]) and oklahoma["unpaired_differences"] is None
    for key in PER_GAME:
        got = oklahoma["differences"][key]
        want = oklahoma["metrics"][key]["value"] - gin["metrics"][key]["value"]
        assert got["value"] == pytest.approx(want, abs=1e-5)
        assert got["low"] <= got["value"] <= got["high"] and (got["p"] is None or 0 <= got["p"] <= 1)
