"""``rummydsl compare``: the same seeds under each variant, paired where the deals agree,
identical figures for any number of workers, every figure with its interval and test."""

from __future__ import annotations

import json

import pytest

from rummydsl.lab.run import Arm, Plan, run_lab

from .conftest import run


def _json(*argv: str) -> dict[str, object]:
    code, out, err = run(*argv, "--json")
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def _figures(data: dict[str, object]) -> dict[str, dict[str, object]]:
    figures = data["figures"]
    assert isinstance(figures, list)
    return {f["key"]: f for f in figures}


def test_the_first_variant_plays_the_games_simulate_plays() -> None:
    data = _json("compare", "gin_rummy", "oklahoma_gin", "--games", "8", "--seed", "5", "--workers", "1")
    code, out, _ = run("simulate", "gin_rummy", "--games", "8", "--seed", "5", "--json")
    simulated = json.loads(out)
    figures = _figures(data)
    assert figures["win.P1"]["values"][0]["count"] == simulated["wins"]["P1"]
    assert figures["win.dealer"]["values"][0]["count"] == simulated["dealer"]["games"]["won"]
    assert figures["turns_per_round"]["values"][0]["value"] == simulated["turns_per_round"]["mean"]


def test_a_variant_against_itself_differs_in_nothing() -> None:
    data = _json("compare", "gin_rummy", "gin_rummy", "--games", "6", "--seed", "2", "--workers", "1")
    assert data["paired"] == [{"variant": 1, "paired": True, "why": "the same deals from the same seeds",
                               "changed_winners": 0}]
    assert [v["label"] for v in data["variants"]] == ["gin_rummy", "gin_rummy"]
    for figure in _figures(data).values():
        first, second = figure["values"]
        assert first == second
        (comparison,) = figure["comparisons"]
        assert comparison["difference"]["value"] == 0 and not comparison["significant"]


def test_same_deals_pair_and_other_decks_do_not() -> None:
    result = run_lab(Plan([Arm.load("gin_rummy"), Arm.load("oklahoma_gin"), Arm.load("skarney_gin")],
                          seed=4, games=3))
    assert result.paired == [True, False]
    tests = {row.figure.key: [c.test.name for c in row.comparisons] for row in result.rows}
    assert tests["win.P1"] == ["McNemar exact", "two-proportion z"]
    assert tests["rounds_per_game"] == ["paired t", "Welch t"]
    assert tests["turns_per_round"] == ["Welch t", "Welch t"]  # rounds never pair
    assert tests["round_win.dealer"] == ["two-proportion z", "two-proportion z"]


def test_the_same_figures_for_one_worker_and_two() -> None:
    argv = ("compare", "gin_rummy", "straight_gin", "--games", "6", "--seed", "11")
    one, two = _json(*argv, "--workers", "1"), _json(*argv, "--workers", "2")
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_text_table_has_every_figure_with_intervals_and_marks() -> None:
    code, out, err = run("compare", "gin_rummy", "oklahoma_gin", "--games", "30", "--seed", "1", "--workers", "1")
    assert (code, err) == (0, "")
    assert "oklahoma_gin against gin_rummy: paired by seed" in out
    for label in ("P1 wins the game", "the first dealer wins the game", "rounds per game",
                  "the dealer wins the round", "rounds ending: knock, not undercut", "turns per round", "points per round"):
        assert label in out
    assert "McNemar" in out and "Welch t" in out and "Holm" in out
    # Oklahoma's low knock limits make rounds longer: 30 games show it.
    turns = next(line for line in out.splitlines() if line.startswith("turns per round"))
    assert turns.rstrip().endswith("*")
    assert "seeds (" in out and "had a different winner" in out


def test_json_shape() -> None:
    data = _json("compare", "gin_rummy", "oklahoma_gin", "--games", "3", "--seed", "1", "--workers", "1")
    assert {"command", "seed", "agents", "games", "seconds", "stop_reason", "variants", "baseline", "paired",
            "correction", "figures", "histograms"} <= set(data)
    assert data["command"] == "compare" and data["games"] == 3 and data["baseline"] == "gin_rummy"
    assert data["correction"]["method"] == "holm"
    figure = _figures(data)["win.P1"]
    assert set(figure) == {"key", "label", "kind", "level", "values", "comparisons"}
    assert set(figure["values"][0]) == {"value", "low", "high", "count", "of"}
    assert {"variant", "difference", "test", "p", "p_holm", "significant", "discordant"} <= set(figure["comparisons"][0])
    histograms = data["histograms"]
    assert set(histograms) == {"turns_per_round", "points_per_round", "rounds_per_game"}
    assert sum(count for _, count in histograms["rounds_per_game"][0]) == 3


@pytest.mark.parametrize("argv,code,message", [
    (["gin_rummy", "--games", "2", "--seed", "1"], 2, "give at least two variants"),
    (["gin_rummy", "straight_gin", "--games", "0", "--seed", "1"], 2, "--games must be at least 1, got 0"),
    (["gin_rummy", "straight_gin", "--until", "2", "--seed", "1"], 2, "--until must be a width between 0 and 1"),
    (["gin_rummy", "straight_gin", "--games", "2", "--seed", "1", "--workers", "0"], 2, "got 0"),
    (["gin_rummy", "gin_rumy", "--games", "2", "--seed", "1"], 1, "did you mean 'gin_rummy'"),
    (["gin_rummy", "ginski_four", "--games", "2", "--seed", "1"], 1, "compare variants with the same number"),
    (["gin_rummy", "straight_gin", "--games", "2", "--seed", "1", "--agents", "clever"], 1, "unknown agent 'clever'"),
    (["gin_rummy", "straight_gin", "--games", "2"], 2, "--seed"),
])
def test_bad_input_is_one_clear_line_before_any_game(argv: list[str], code: int, message: str,
                                                     no_play: None) -> None:
    got, out, err = run("compare", *argv)
    assert got == code and out == ""
    assert message in err


def test_until_stops_once_every_rate_is_narrow_enough_and_says_why() -> None:
    arms = [Arm.load("gin_rummy"), Arm.load("straight_gin")]
    wide = run_lab(Plan(arms, seed=1, until=0.95, check_every=4))
    assert wide.games == 4 and "narrower than 0.95 after 4 games" in wide.stop_reason
    capped = run_lab(Plan(arms, seed=1, until=0.001, max_games=6, check_every=3))
    assert capped.games == 6 and "reached the cap of 6 games" in capped.stop_reason
    twice = run_lab(Plan(arms, seed=1, until=0.95, check_every=4, workers=2))
    assert [r.estimates for r in twice.rows] == [r.estimates for r in wide.rows]


def test_until_from_the_command_line_reports_why_it_stopped() -> None:
    data = _json("compare", "gin_rummy", "straight_gin", "--until", "0.4", "--max-games", "5", "--seed", "1",
                 "--workers", "1")
    assert data["games"] == 5 and "reached the cap of 5 games (--max-games)" in data["stop_reason"]
    assert data["until"] == 0.4 and data["widest_rate_interval"]["width"] >= 0.4


def test_progress_on_stderr_when_asked() -> None:
    code, out, err = run("compare", "gin_rummy", "straight_gin", "--games", "3", "--seed", "1", "--workers", "1",
                         "--progress")
    assert code == 0 and "3/3 games" in err and "games/s" in err and "left" in err


def test_no_progress_on_a_pipe_by_default() -> None:
    code, _, err = run("compare", "gin_rummy", "straight_gin", "--games", "2", "--seed", "1", "--workers", "1")
    assert (code, err) == (0, "")


def test_tasks_are_made_as_they_are_read_from_simulates_seeds() -> None:
    from itertools import islice

    from rummydsl.lab.run import _Tasks
    from rummydsl.simulate import game_seeds

    tasks = _Tasks(["a.yaml", "b.yaml"], 10 ** 9, 1, "greedy")  # a billion games: no list is built
    first = list(islice(tasks, 6))
    assert len(tasks) == 2 * 10 ** 9
    assert [(t.variant, t.index, t.seed) for t in first] == [
        (path, index, seed) for index, seed in enumerate(game_seeds(1, 3)) for path in ("a.yaml", "b.yaml")]
    assert tasks[3] == first[3]


def test_a_failing_program_agent_stops_the_run_with_one_line() -> None:
    import shlex
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "cli" / "bots" / "bot.py"
    agent = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(bot))} garbage 3"
    code, out, err = run("compare", "gin_rummy", "straight_gin", "--games", "2", "--seed", "1", "--workers", "1",
                         "--agents", f"greedy,{agent}")
    assert code == 1 and out == ""
    assert err.startswith("rummydsl compare: game 1 of gin_rummy: P2: ") and "hello there" in err


@pytest.mark.parametrize("variant,setting", [
    ("oklahoma_gin", "options.oklahoma_ace=gin_only,one"),
    ("gin_rummy", "deal.rotation=next,winner_deals"),
])
def test_sweeps_of_words(variant: str, setting: str) -> None:
    code, out, err = run("sweep", variant, "--set", setting, "--games", "2", "--seed", "1", "--workers", "1")
    assert (code, err) == (0, ""), err
    assert "slope/unit" not in out and setting.split("=")[0] in out


def test_compare_and_simulate_count_knocks_alike() -> None:
    """simulate's 'knock' is every knock (undercuts included, as the language's 'knock');
    compare's endings partition the rounds: 'knock, not undercut' plus 'undercut' is
    simulate's 'knock', on the same games (issue 23)."""
    import io
    import json

    from rummydsl.cli import main

    out = io.StringIO()
    assert main(["simulate", "gin_rummy", "--games", "6", "--seed", "5", "--json"], stdout=out,
                stderr=io.StringIO()) == 0
    simulated = json.loads(out.getvalue())
    out = io.StringIO()
    assert main(["compare", "gin_rummy", "gin_rummy", "--games", "6", "--seed", "5", "--json"], stdout=out,
                stderr=io.StringIO()) == 0
    compared = {f["key"]: f for f in json.loads(out.getvalue())["figures"]}
    counts = {key: compared[key]["values"][0]["count"] for key in compared if key.startswith("ending.")}
    assert "ending.knock" not in counts
    rounds = compared["ending.undercut"]["values"][0]["of"]
    assert sum(counts.values()) == rounds
    assert counts["ending.knock_not_undercut"] + counts["ending.undercut"] == simulated["endings"]["knock"]["count"]
    assert counts["ending.undercut"] == simulated["undercuts"]["count"]
