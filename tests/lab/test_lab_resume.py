"""``compare --out``/``--resume`` and ``sweep --out``/``--resume`` (issue 12): a run killed
part way resumes to exactly the figures (``--json`` less ``seconds``) and the out-file of
an uninterrupted run; a cut-short last line is dropped and its task played again; a file
of another run, or a corrupt or reordered one, is a clear error naming the file and the
line, before any game, and is left as it was."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from .conftest import run

pytestmark = pytest.mark.xdist_group("lab-resume")  # each run played through once, on one test worker

COMPARE = ("compare", "gin_rummy", "straight_gin", "--games", "30", "--seed", "21", "--agents", "greedy,random")
SWEEP = ("sweep", "gin_rummy", "--set", "knock.limit=5,10", "--games", "20", "--seed", "7")
SMALL = ("compare", "gin_rummy", "oklahoma_gin", "--games", "5", "--seed", "4")


def figures(*argv: str) -> dict[str, object]:
    """``--json`` of ``rummydsl ARGV`` less ``seconds``, the one figure that may differ."""
    code, out, err = run(*argv, "--json")
    assert (code, err) == (0, ""), err
    printed = json.loads(out)
    assert isinstance(printed, dict)
    printed.pop("seconds")
    return printed


def out_file(tmp_path: Path, *argv: str, name: str = "run.jsonl") -> Path:
    out = tmp_path / name
    code, _, err = run(*argv, "--workers", "1", "--out", str(out))
    assert (code, err) == (0, ""), err
    return out


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., tuple[dict[str, object], bytes]]:
    """``uninterrupted(*ARGV)``: the figures (``--json`` less ``seconds``) and the out-file
    of ARGV played through on one worker, each ARGV played once for the module (the
    figures and the file come from one run: ``--json`` and ``--out`` together)."""
    played: dict[tuple[str, ...], tuple[dict[str, object], bytes]] = {}

    def run_through(*argv: str) -> tuple[dict[str, object], bytes]:
        if argv not in played:
            out = tmp_path_factory.mktemp("whole") / "whole.jsonl"
            played[argv] = figures(*argv, "--workers", "1", "--out", str(out)), out.read_bytes()
        printed, whole = played[argv]
        return json.loads(json.dumps(printed)), whole  # a copy: nothing a test changes is shared

    return run_through


@pytest.fixture(scope="module")
def small_run(uninterrupted: Callable[..., tuple[dict[str, object], bytes]]) -> bytes:
    """The out-file of SMALL, played once for the module."""
    return uninterrupted(*SMALL)[1]


@pytest.fixture
def small(small_run: bytes, tmp_path: Path) -> Path:
    """A copy of SMALL's out-file to edit."""
    path = tmp_path / "small.jsonl"
    path.write_bytes(small_run)
    return path


def outcomes(path: Path) -> int:
    """Complete outcome lines in an out-file now (a line being written is not counted)."""
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("argv,workers", [(COMPARE, "1"), (COMPARE, "2"), (SWEEP, "2")])
def test_a_killed_run_resumes_to_the_figures_and_file_of_an_uninterrupted_run(
        argv: tuple[str, ...], workers: str, tmp_path: Path,
        uninterrupted: Callable[..., tuple[dict[str, object], bytes]]) -> None:
    out = tmp_path / "run.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "rummydsl.cli", *argv, "--workers", workers, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    while outcomes(out) < 5:
        if proc.poll() is not None:
            raise AssertionError(f"the run ended (exit {proc.returncode}) before it could be killed: "
                                 f"{proc.stderr.read().decode() if proc.stderr else ''}")
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)   # the run and its workers at once, as a power cut would
    proc.wait()
    if proc.stderr:
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    games = int(argv[argv.index("--games") + 1])
    arms = 2
    assert 5 <= outcomes(out) < games * arms
    resumed = figures(*argv, "--workers", workers, "--resume", str(out))
    whole_figures, whole = uninterrupted(*argv)
    assert resumed == whole_figures
    assert out.read_bytes() == whole   # every task once, in task order


def test_the_out_file_names_the_run_then_holds_each_task_in_order(tmp_path: Path) -> None:
    lines = [json.loads(line) for line in out_file(tmp_path, *SWEEP[:-4], "--games", "3", "--seed", "7")
             .read_text().splitlines()]
    header = lines[0]
    assert (header["type"], header["run"], header["command"], header["seed"], header["games"]) == (
        "lab", 1, "sweep", 7, 3)
    assert header["agents"] == ["greedy", "greedy"] and header["until"] is None
    assert [arm["label"] for arm in header["arms"]] == ["knock.limit=5", "knock.limit=10"]
    assert all(arm["base"] == "gin_rummy" and "extends: gin_rummy" in arm["text"]
               and len(arm["variant_sha256"]) == 64 for arm in header["arms"])
    assert [(line["game"], line["variant"]) for line in lines[1:]] == [
        (game, label) for game in (1, 2, 3) for label in ("knock.limit=5", "knock.limit=10")]
    assert lines[1]["seed"] == lines[2]["seed"]   # game i of each variant from the same seed


def test_a_line_cut_short_is_dropped_and_its_task_played_again(
        tmp_path: Path, uninterrupted: Callable[..., tuple[dict[str, object], bytes]]) -> None:
    whole_figures, text = uninterrupted(*SMALL)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(text[:text.index(b"\n", len(text) // 2) + 25])   # ends inside an outcome line
    assert figures(*SMALL, "--workers", "1", "--resume", str(cut)) == whole_figures
    assert cut.read_bytes() == text


def test_a_finished_run_resumes_to_its_figures_playing_nothing(small: Path, no_play: None) -> None:
    before = small.read_bytes()
    resumed = figures(*SMALL, "--resume", str(small))
    assert small.read_bytes() == before
    assert resumed["games"] == 5


def test_an_until_run_resumes_to_the_same_stop(
        tmp_path: Path, uninterrupted: Callable[..., tuple[dict[str, object], bytes]]) -> None:
    argv = ("compare", "gin_rummy", "straight_gin", "--until", "0.6", "--max-games", "12", "--seed", "2")
    whole_figures, whole = uninterrupted(*argv)
    lines = whole.split(b"\n")
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[:8]) + b"\n")
    assert figures(*argv, "--workers", "1", "--resume", str(cut)) == whole_figures
    assert cut.read_bytes() == whole


@pytest.mark.parametrize("changed,difference", [
    (("--seed", "5"), "seed: the file has 4, the command 5"),
    (("--games", "6"), "games: the file has 5, the command 6"),
    (("oklahoma_gin", "straight_gin"),
     "variants: the file has ['gin_rummy', 'oklahoma_gin'], the command ['gin_rummy', 'straight_gin']"),
])
def test_a_run_of_another_command_is_refused_naming_the_difference(
        changed: tuple[str, str], difference: str, small: Path, no_play: None) -> None:
    out = small
    before = out.read_bytes()
    argv = list(SMALL)
    position = argv.index(changed[0])
    argv[position + (1 if changed[0].startswith("--") else 0)] = changed[1]
    code, printed, err = run(*argv, "--resume", str(out))
    assert (code, printed) == (1, "")
    assert err == (f"rummydsl compare: {out}:1: the run in the file is not this command's run: {difference}\n")
    assert out.read_bytes() == before


def test_a_simulate_run_or_a_sweep_run_is_not_a_compare_run(tmp_path: Path, no_play: None) -> None:
    out = tmp_path / "sim.jsonl"
    out.write_text('{"type": "run", "run": 1}\n')
    code, _, err = run(*SMALL, "--resume", str(out))
    assert code == 1
    assert err == (f"rummydsl compare: {out}:1: the first line must be a compare or sweep run header "
                   "(type 'lab', as --out writes it), got type 'run'\n")


@pytest.mark.parametrize("edit,message", [
    (lambda lines: lines[:2] + lines[3:], "expected game 1 of oklahoma_gin here, got game 2 of 'gin_rummy'"),
    (lambda lines: lines[:2] + [b"{not json"] + lines[3:], "not a JSON line: "),
    (lambda lines: lines[:1] + [lines[1].replace(b'"seed":', b'"seed":1', 1)] + lines[2:],
     "game 1 was played from seed 1"),
])
def test_a_corrupt_or_reordered_file_is_an_error_naming_the_line(
        edit: object, message: str, small: Path, no_play: None) -> None:
    whole = small
    lines = whole.read_bytes().split(b"\n")[:-1]
    edited = edit(lines)  # type: ignore[operator]
    whole.write_bytes(b"\n".join(edited) + b"\n")
    before = whole.read_bytes()
    code, printed, err = run(*SMALL, "--resume", str(whole))
    assert (code, printed) == (1, "")
    assert err.startswith(f"rummydsl compare: {whole}:"), err
    assert message in err
    assert whole.read_bytes() == before


def test_out_refuses_a_file_that_holds_something(tmp_path: Path, no_play: None) -> None:
    out = tmp_path / "run.jsonl"
    out.write_text("something\n")
    code, _, err = run(*SMALL, "--out", str(out))
    assert code == 1
    assert err == (f"rummydsl compare: {out}: the file is not empty (a run to go on with --resume?); "
                   "remove it to start the run again\n")
    assert out.read_text() == "something\n"


def test_out_and_resume_do_not_go_together(tmp_path: Path, no_play: None) -> None:
    code, _, err = run(*SMALL, "--out", str(tmp_path / "a"), "--resume", str(tmp_path / "b"))
    assert code == 2 and "argument --resume: not allowed with argument --out" in err


def test_a_changed_house_rule_is_refused_naming_the_variant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\nknock: {limit: '7'}\n")
    argv = ("compare", "gin_rummy", str(house), "--games", "2", "--seed", "3")
    out = out_file(tmp_path, *argv)
    before = out.read_bytes()
    house.write_text("rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\nknock: {limit: '8'}\n")
    monkeypatch.setattr("rummydsl.lab.run.run_tasks", lambda *a, **k: pytest.fail("a game was played"))
    code, printed, err = run(*argv, "--resume", str(out))
    assert (code, printed) == (1, "")
    assert err.startswith(f"rummydsl compare: {out}:1: the run in the file is not this command's run: "
                          "the rules of 'house' have changed since the run began (variant sha256 "), err
    assert out.read_bytes() == before
