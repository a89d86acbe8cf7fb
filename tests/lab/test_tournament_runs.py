"""``rummydsl tournament`` as a long run: ``--out``/``--resume`` (a run cut short resumes to the
figures of an uninterrupted one, for one worker or two), ``--budget`` (with a fake clock: the
seat that runs over forfeits, no timing asserted), ``--report``, and the game-quality metrics."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import run

pytestmark = pytest.mark.xdist_group("tournament-runs")  # the tournament played through once, on one test worker

TOURNEY = ("tournament", "gin_rummy", "--agents", "greedy,heuristic,random", "--games", "3", "--seed", "11")


def figures(*argv: str) -> dict[str, Any]:
    """``--json`` of ``rummydsl ARGV`` less what the clock decides."""
    code, out, err = run(*argv, "--json")
    assert (code, err) == (0, ""), err
    data: dict[str, Any] = json.loads(out)
    for agent in data["agents"]:
        del agent["ms_per_move"], agent["most_seconds_in_a_game"]
    return data


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], bytes]:
    """The figures and out-file of TOURNEY played without a break, with one worker."""
    out = tmp_path_factory.mktemp("whole") / "run.jsonl"
    data = figures(*TOURNEY, "--workers", "1", "--out", str(out))
    return data, out.read_bytes()


def _lines(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.splitlines()]


def _games(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Outcome lines less the clock's numbers."""
    return [{k: v for k, v in line.items() if k != "seconds"} for line in lines[1:]]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_run_cut_short_resumes_to_the_same_figures_and_file(whole: tuple[dict[str, Any], bytes],
                                                             tmp_path: Path, workers: str) -> None:
    data, file = whole
    assert data["games"] == 18 and data["quality"]["completion"]["value"] == 1.0
    lines = file.split(b"\n")
    cut = tmp_path / "cut.jsonl"
    # the header, 7 whole games and half of the 8th: a kill in the middle of a line
    cut.write_bytes(b"\n".join(lines[:8]) + b"\n" + lines[8][: len(lines[8]) // 2])
    again = figures(*TOURNEY, "--workers", workers, "--resume", str(cut))
    assert again == data
    assert _games(_lines(cut.read_bytes())) == _games(_lines(file))


def test_the_figures_are_the_same_for_one_worker_or_two(whole: tuple[dict[str, Any], bytes]) -> None:
    assert figures(*TOURNEY, "--workers", "2") == whole[0]


def test_resume_refuses_another_run_naming_the_difference(whole: tuple[dict[str, Any], bytes], tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(whole[1])
    code, out, err = run("tournament", "gin_rummy", "--agents", "greedy,random", "--games", "3", "--seed", "11",
                         "--workers", "1", "--resume", str(path))
    assert code == 1 and "agents: the file has ['greedy', 'heuristic', 'random']" in err
    assert f"{path}:1" in err and "Traceback" not in err
    lines = whole[1].split(b"\n")
    lines[3], lines[4] = lines[4], lines[3]
    path.write_bytes(b"\n".join(lines))
    code, out, err = run(*TOURNEY, "--workers", "1", "--resume", str(path))
    assert code == 1 and f"{path}:4" in err and "expected game 3" in err
    assert path.read_bytes() == b"\n".join(lines)  # left as it was


def test_out_refuses_a_file_that_holds_a_run(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text("something\n")
    code, out, err = run(*TOURNEY, "--workers", "1", "--out", str(path))
    assert code == 1 and "not empty" in err


class FakeClock:
    """A clock that moves one second each time it is read: every decision (read before and after) takes 1 s."""

    def __init__(self) -> None:
        self.ticks = itertools.count()

    def __call__(self) -> float:
        return float(next(self.ticks))


def test_the_seat_that_runs_over_its_budget_forfeits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every decision costs 1 s on the fake clock and the budget is 5 s: the seat asked a sixth
    time first runs over, and its agent loses the game to the other."""
    monkeypatch.setattr("rummydsl.simulate.CLOCK", FakeClock())
    out_path = tmp_path / "run.jsonl"
    code, out, err = run("tournament", "gin_rummy", "--agents", "greedy,heuristic", "--games", "4", "--seed", "3",
                         "--workers", "1", "--budget", "5s", "--json", "--out", str(out_path))
    assert code == 0, err
    data = json.loads(out)
    assert data["budget"] == 5.0
    games = _lines(out_path.read_bytes())[1:]
    assert len(games) == 8
    lost = {"greedy": 0, "heuristic": 0}
    for game in games:
        seats = game["agents"].split(",")
        over = int(game["over_budget"][1:]) - 1
        assert game["moves"][over] == 6 and game["moves"][1 - over] <= 5
        assert game["result"] is None and "ran over its time budget" in game["stopped"]
        lost[seats[over]] += 1
    assert [a["forfeits"] for a in data["agents"]] == [lost["greedy"], lost["heuristic"]]
    pair = data["pairs"][0]
    assert (pair["a"], pair["a_wins"], pair["b_wins"]) == ("greedy", lost["heuristic"], lost["greedy"])
    assert data["quality"]["completion"]["value"] == 0.0
    code, out, err = run("tournament", "gin_rummy", "--agents", "greedy,heuristic", "--games", "4", "--seed", "3",
                         "--workers", "1", "--budget", "5s")
    assert "games forfeited on time: greedy" in out


def test_a_budget_nobody_reaches_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rummydsl.simulate.CLOCK", FakeClock())
    argv = ("tournament", "gin_rummy", "--agents", "greedy,random", "--games", "2", "--seed", "3", "--workers", "1")
    with_budget = figures(*argv, "--budget", "100m")
    without = figures(*argv)
    assert with_budget.pop("budget") == 6000.0 and without.pop("budget") is None
    assert with_budget == without


@pytest.mark.parametrize("budget,message", [("fast", "--budget must be a time such as 30s"),
                                            ("0s", "--budget must be more than 0")])
def test_a_bad_budget_is_a_usage_error(budget: str, message: str) -> None:
    code, out, err = run(*TOURNEY, "--workers", "1", "--budget", budget)
    assert code == 2 and message in err


def test_the_report_holds_ratings_pairs_and_quality(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from rummydsl.lab.quality import QUALITY
    from rummydsl.lab.tournament_report import TOURNAMENT_PLOTS

    page = tmp_path / "t.html"
    code, out, err = run("tournament", "gin_rummy", "--agents", "greedy,random", "--games", "1", "--seed", "1",
                         "--workers", "1", "--report", str(page))
    assert code == 0 and f"wrote {page}" in out
    text = page.read_text(encoding="utf-8")
    for key in TOURNAMENT_PLOTS:
        assert f"id='{key}'" in text and "src='data:image/png;base64," in text
    for key in QUALITY:
        assert f"id='quality-{key}'" in text
    assert "http" not in text.lower().replace("http-equiv", "")


def test_a_report_to_a_missing_folder_is_refused_before_play(tmp_path: Path) -> None:
    code, out, err = run(*TOURNEY, "--workers", "1", "--report", str(tmp_path / "no" / "t.html"))
    assert code == 1 and "no folder" in err
