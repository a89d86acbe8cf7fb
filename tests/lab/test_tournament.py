"""``rummydsl tournament``: paired seatings, the rating formula, the same figures for any
number of workers, the command's JSON and its refusals."""

from __future__ import annotations

import io
import json
import math
import random
from typing import Any

import pytest

from rummydsl.cli import main
from rummydsl.lab.ratings import PRIOR_DRAWS, bootstrap, bradley_terry
from rummydsl.lab.tournament import TournamentPlan, run_tournament, seatings


def test_every_pair_meets_in_every_seating() -> None:
    assert seatings(3, 2) == [(0, 1, (0, 1)), (0, 1, (1, 0)), (0, 2, (0, 2)), (0, 2, (2, 0)),
                              (1, 2, (1, 2)), (1, 2, (2, 1))]
    three = [seats for a, b, seats in seatings(2, 3)]
    assert sorted(three) == sorted({s for s in __import__("itertools").product((0, 1), repeat=3)} - {(0, 0, 0), (1, 1, 1)})


def test_two_agents_rate_as_the_log_of_their_padded_scores() -> None:
    """By hand: with one drawn game added, 7 wins of 10 are 7.5 of 11; the strengths
    stand as 7.5 : 3.5, so the ratings are +-200 log10(7.5 / 3.5)."""
    a, b = bradley_terry(2, {(0, 1): (7.0, 10)})
    assert a == pytest.approx(200 * math.log10(7.5 / 3.5), abs=1e-6)
    assert b == pytest.approx(-a)


def test_the_fit_meets_bradley_terrys_equations_on_a_small_made_up_set() -> None:
    """Three agents, each pair 20 games: at the fit, each agent's expected score equals its
    score (prior draws included), and the ratings average 0."""
    scores = {(0, 1): (14.0, 20), (0, 2): (17.5, 20), (1, 2): (11.0, 20)}
    ratings = bradley_terry(3, scores)
    strength = [10 ** (r / 400) for r in ratings]
    for k in range(3):
        won = expected = 0.0
        for (x, y), (score, games) in scores.items():
            if k not in (x, y):
                continue
            other = y if k == x else x
            mine = score if k == x else games - score
            won += mine + PRIOR_DRAWS / 2
            expected += (games + PRIOR_DRAWS) * strength[k] / (strength[k] + strength[other])
        assert expected == pytest.approx(won, rel=1e-6)
    assert sum(ratings) == pytest.approx(0, abs=1e-6)
    assert ratings[0] > ratings[1] > ratings[2]


def test_the_bootstrap_is_reproducible_from_its_seed_and_holds_the_estimate() -> None:
    rng = random.Random(1)
    deals = [{(0, 1): (float(rng.random() < 0.7) + float(rng.random() < 0.7), 2)} for _ in range(60)]
    one, two = bootstrap(2, deals, seed=9, draws=100), bootstrap(2, deals, seed=9, draws=100)
    assert one == two
    total = {(0, 1): (sum(d[(0, 1)][0] for d in deals), 120)}
    estimate = bradley_terry(2, total)
    assert all(low <= r <= high for r, (low, high) in zip(estimate, one))


def _figures(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.as_json()
    for agent in data["agents"]:
        del agent["ms_per_move"], agent["most_seconds_in_a_game"]  # the clock's, not the games'
    return data


@pytest.mark.parametrize("agents", [["greedy", "random"], ["ismcts:iters=3:depth=2:visits=2", "heuristic", "simple"]])
def test_the_figures_are_the_same_for_any_number_of_workers(agents: list[str]) -> None:
    games = 3 if len(agents) == 2 else 1
    one = run_tournament(TournamentPlan("gin_rummy", agents, seed=4, games=games, workers=1))
    two = run_tournament(TournamentPlan("gin_rummy", agents, seed=4, games=games, workers=2))
    assert _figures(one) == _figures(two)
    assert one.games == games * len(seatings(len(agents), 2))


def test_paired_seats_play_the_same_deal() -> None:
    """Both seatings of a deal are one game seed: the same cards, the agents swapped."""
    from rummydsl.lab.tournament import _Tasks

    tasks = _Tasks("gin_rummy.yaml", ["greedy", "simple"], seatings(2, 2), 3, seed=2, players=None)
    assert [(t.seed, t.agents) for t in tasks][:2] == [(tasks[0].seed, "greedy,simple"), (tasks[0].seed, "simple,greedy")]
    assert tasks[2].seed != tasks[0].seed and len(tasks) == 6


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_command_prints_designs_json() -> None:
    code, out, err = run("tournament", "gin_rummy", "--agents", "greedy,random", "--games", "2", "--seed", "1",
                         "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"variant", "games", "agents", "pairs"} <= set(data)
    assert data["games"] == 4 and data["variant"] == "gin_rummy"
    assert [set(a) >= {"name", "rating", "low", "high"} for a in data["agents"]] == [True, True]
    assert set(data["pairs"][0]) >= {"a", "b", "games", "a_wins", "b_wins", "draws"}


def test_the_command_prints_a_table() -> None:
    code, out, err = run("tournament", "gin_rummy", "--agents", "greedy,random", "--games", "1", "--seed", "1",
                         "--workers", "1")
    assert code == 0, err
    assert "rating" in out and "greedy" in out and "95% (paired)" in out


@pytest.mark.parametrize("argv,code,message", [
    (["--agents", "greedy"], 1, "a tournament needs two agents or more"),
    (["--agents", "greedy,greedy"], 1, "an agent is named twice"),
    (["--agents", "greedy,clever"], 1, "unknown agent 'clever'"),
    (["--agents", "greedy,ismcts:iters=x"], 1, "ismcts's iters must be a number"),
    (["--agents", "greedy,random", "--games", "0"], 2, "--games must be at least 1"),
])
def test_the_command_refuses_bad_flags_clearly(argv: list[str], code: int, message: str) -> None:
    full = ["tournament", "gin_rummy", "--seed", "1", *argv]
    if "--games" not in argv:
        full += ["--games", "1"]
    got, out, err = run(*full)
    assert got == code and message in err and "Traceback" not in err
