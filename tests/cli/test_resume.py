"""``simulate --out`` and ``--resume``: a run killed part way (the whole run, or a worker
process) resumes to exactly the statistics of an uninterrupted run; a cut-short last line
is dropped and written again; a corrupt, reordered or foreign out-file is a clear error
naming the file and the line, and is left as it was."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from rummydsl.resources import variants_dir

from .conftest import read_log, run

pytestmark = pytest.mark.xdist_group("resume")  # each run played through once, on one test worker

GAMES = 40
"""Games of the killed runs: enough that a run cannot end between two polls of its file."""


def without_time(text: str) -> dict[str, object]:
    figures = json.loads(text)
    assert isinstance(figures, dict)
    figures.pop("seconds")
    return figures


Played = Callable[..., tuple[dict[str, object], bytes]]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``played(*ARGV)``: the figures (``--json`` less ``seconds``) and the out-file of
    ``simulate ARGV`` played through, each ARGV played once for the module (the figures and
    the file come from one run: ``--json`` and ``--out`` together, which writes the file
    ``--out`` alone writes)."""
    runs: dict[tuple[str, ...], tuple[dict[str, object], bytes]] = {}

    def play(*argv: str) -> tuple[dict[str, object], bytes]:
        if argv not in runs:
            out = tmp_path_factory.mktemp("whole") / "whole.jsonl"
            code, printed, err = run("simulate", *argv, "--json", "--out", str(out))
            assert (code, err) == (0, ""), err
            runs[argv] = without_time(printed), out.read_bytes()
        figures, whole = runs[argv]
        return json.loads(json.dumps(figures)), whole  # a copy: nothing a test changes is shared

    return play


def uninterrupted(played: Played, *argv: str) -> dict[str, object]:
    """The figures of ``simulate ARGV`` played through."""
    return played(*argv)[0]


def whole_file(played: Played, tmp_path: Path, *argv: str, name: str = "whole.jsonl") -> Path:
    """A copy, in ``tmp_path``, of the out-file of ``simulate ARGV`` played through."""
    path = tmp_path / name
    path.write_bytes(played(*argv)[1])
    return path


def same_run(a: Path, b: Path) -> bool:
    """The same run file, byte for byte, but for the header's ``variant_path`` (a note for
    people: a killed run started as ``python -m`` may find the shipped file in the source
    tree, the test process in site-packages)."""
    head_a, _, rest_a = a.read_bytes().partition(b"\n")
    head_b, _, rest_b = b.read_bytes().partition(b"\n")
    header_a, header_b = json.loads(head_a), json.loads(head_b)
    header_a.pop("variant_path")
    header_b.pop("variant_path")
    return header_a == header_b and rest_a == rest_b


def outcomes(path: Path) -> int:
    """Complete outcome lines in an out-file now (a line being written is not counted)."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return 0
    return max(0, text.count(b"\n") - 1)


def start(*argv: str, capture: bool = False) -> subprocess.Popen[bytes]:
    """``rummydsl simulate ARGV`` as a process of its own group (to kill it with its workers);
    with ``capture`` its standard output is kept."""
    return subprocess.Popen([sys.executable, "-m", "rummydsl.cli", "simulate", *argv],
                            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def wait_for(proc: subprocess.Popen[bytes], ready: Callable[[], bool]) -> None:
    """Poll until ``ready()``; the run must still be going (it was started with plenty to do)."""
    while not ready():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended (exit {proc.returncode}) before it could be killed: "
                                 f"{proc.stderr.read().decode() if proc.stderr else ''}")
        time.sleep(0.01)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the run and its worker processes at once (as a power cut would)."""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    if proc.stderr:
        proc.stderr.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_killed_run_resumes_to_the_figures_of_an_uninterrupted_run(workers: str, tmp_path: Path,
                                                                    played: Played) -> None:
    out = tmp_path / "run.jsonl"
    argv = ("gin_rummy", "--games", str(GAMES), "--seed", "21", "--agents", "greedy,random")
    proc = start(*argv, "--workers", workers, "--out", str(out))
    wait_for(proc, lambda: outcomes(out) >= 3)
    kill_group(proc)
    assert proc.returncode == -signal.SIGKILL
    done = outcomes(out)
    assert 3 <= done < GAMES
    code, printed, err = run("simulate", *argv, "--workers", workers, "--resume", str(out), "--json")
    assert (code, err) == (0, ""), err
    assert without_time(printed) == uninterrupted(played, *argv)
    assert same_run(out, whole_file(played, tmp_path, *argv))  # every game once, in game order


def _children(pid: int) -> list[int]:
    """The pool's worker processes of ``pid`` (Linux: read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == pid and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the pool's workers in /proc")
def test_a_run_whose_worker_process_died_plays_its_games_again_and_finishes(tmp_path: Path,
                                                                           played: Played) -> None:
    """A killed worker breaks the pool; a new pool plays the lost games again from their
    seeds: the run ends by itself with the figures and out-file of an uninterrupted run."""
    out = tmp_path / "run.jsonl"
    argv = ("gin_rummy", "--games", str(GAMES), "--seed", "8", "--agents", "random,greedy")
    proc = start(*argv, "--workers", "2", "--out", str(out), "--json", capture=True)
    wait_for(proc, lambda: outcomes(out) >= 2 and len(_children(proc.pid)) == 2)
    os.kill(_children(proc.pid)[0], signal.SIGKILL)  # the pool loses that worker's games
    printed, err = proc.communicate()
    assert (proc.returncode, err.decode()) == (0, ""), err.decode()
    assert without_time(printed.decode()) == uninterrupted(played, *argv)
    assert same_run(out, whole_file(played, tmp_path, *argv))  # every game once, in game order


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the pool's workers in /proc")
def test_a_run_stopped_after_a_worker_died_resumes_to_the_same_figures(tmp_path: Path, played: Played) -> None:
    out = tmp_path / "run.jsonl"
    argv = ("gin_rummy", "--games", str(GAMES), "--seed", "8", "--agents", "random,greedy")
    proc = start(*argv, "--workers", "2", "--out", str(out))
    wait_for(proc, lambda: outcomes(out) >= 2 and len(_children(proc.pid)) == 2)
    os.kill(_children(proc.pid)[0], signal.SIGKILL)
    kill_group(proc)  # stopped by a person before it finished
    assert outcomes(out) < GAMES
    code, printed, err = run("simulate", *argv, "--resume", str(out), "--json", "--workers", "2")
    assert (code, err) == (0, ""), err
    assert without_time(printed) == uninterrupted(played, *argv)


def out_file(tmp_path: Path, *argv: str, name: str = "run.jsonl") -> Path:
    out = tmp_path / name
    code, _, err = run("simulate", *argv, "--out", str(out))
    assert (code, err) == (0, ""), err
    return out


RUN = ("skarney_gin", "--hands", "12", "--seed", "4", "--agents", "random")


def test_the_out_file_is_a_header_then_one_line_per_game_in_order(tmp_path: Path, played: Played) -> None:
    lines = read_log(whole_file(played, tmp_path, *RUN, name="run.jsonl"))
    header = lines[0]
    assert header["type"] == "run" and header["run"] == 1 and header["variant"] == "skarney_gin"
    assert (header["seed"], header["mode"], header["count"], header["agents"]) == (4, "hands", 12, ["random"] * 2)
    assert len(header["variant_sha256"]) == 64
    assert [line["game"] for line in lines[1:]] == list(range(1, 13))
    assert all(line["type"] == "outcome" and len(line["rounds"]) == 1 for line in lines[1:])


def test_a_line_cut_short_is_dropped_and_written_again(tmp_path: Path, played: Played) -> None:
    whole = whole_file(played, tmp_path, *RUN)
    text = whole.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(text[:text.index(b"\n", len(text) // 2) + 25])  # ends inside an outcome line
    code, printed, err = run("simulate", *RUN, "--resume", str(cut), "--json")
    assert (code, err) == (0, ""), err
    assert without_time(printed) == uninterrupted(played, *RUN)
    assert cut.read_bytes() == text


def test_a_finished_run_resumes_to_its_figures_playing_nothing(tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    before = out.read_bytes()
    code, printed, _ = run("simulate", *RUN, "--resume", str(out), "--json")
    assert code == 0 and without_time(printed) == uninterrupted(played, *RUN)
    assert out.read_bytes() == before


def test_a_run_cut_after_its_header_plays_every_game(tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    whole = out.read_bytes()
    out.write_bytes(whole[:whole.index(b"\n") + 1])
    assert run("simulate", *RUN, "--resume", str(out))[0] == 0
    assert out.read_bytes() == whole


@pytest.mark.parametrize("changed,difference", [
    (("--seed", "5"), "seed: the file has 4, the command 5"),
    (("--agents", "greedy"), "agents: the file has ['random', 'random'], the command ['greedy', 'greedy']"),
    (("--hands", "13"), "count: the file has 12, the command 13"),
])
def test_a_run_of_another_command_is_refused_naming_the_difference(
        changed: tuple[str, str], difference: str, tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    before = out.read_bytes()
    argv = list(RUN)
    argv[argv.index(changed[0]) + 1] = changed[1]
    code, printed, err = run("simulate", *argv, "--resume", str(out))
    assert (code, printed) == (1, "")
    assert err == f"rummydsl simulate: {out}:1: the run in the file is not this command's run: {difference}\n"
    assert out.read_bytes() == before


def test_a_run_of_another_variant_or_mode_is_refused(tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    code, _, err = run("simulate", "gin_rummy", "--games", "12", "--seed", "4", "--agents", "random",
                       "--resume", str(out))
    assert code == 1
    assert "variant: the file has 'skarney_gin', the command 'gin_rummy'" in err
    assert "mode: the file has 'hands', the command 'games'" in err


def test_changed_rules_are_refused(tmp_path: Path) -> None:
    house = tmp_path / "gin.yaml"
    shutil.copy(variants_dir() / "gin_rummy.yaml", house)
    argv = (str(house), "--games", "2", "--seed", "1")
    out = out_file(tmp_path, *argv)
    house.write_text(house.read_text() + "\n# a comment changes the file, not the rules\n")
    assert run("simulate", *argv, "--resume", str(out))[0] == 0
    house.write_text(house.read_text().replace("target: 100", "target: 150"))
    code, _, err = run("simulate", *argv, "--resume", str(out))
    assert code == 1
    assert f"{out}:1: the run in the file is not this command's run: the rules of 'gin_rummy' have changed " \
           "since the run began (variant sha256 " in err


def _edit(out: Path, index: int, change: Callable[[dict[str, object]], object]) -> None:
    lines = out.read_text().splitlines(keepends=True)
    data = json.loads(lines[index])
    change(data)
    lines[index] = json.dumps(data) + "\n"
    out.write_text("".join(lines))


@pytest.mark.parametrize("edit,message", [
    (lambda lines: lines.__setitem__(4, "{not json\n"), ":5: not a JSON line: "),
    (lambda lines: lines.__delitem__(3), ":4: expected hand 3 here, got hand 4"),
    (lambda lines: lines.__setitem__(2, lines[2].replace('"ending"', '"endign"', 1)), ":3: rounds[1].ending: "
                                                                                     "expected text, got None"),
    (lambda lines: lines.__setitem__(2, lines[2].replace('"P1"', '"P7"', 1)), ":3: "),
    (lambda lines: lines.__setitem__(0, '{"type": "outcome"}\n'), ":1: the first line must be a run header"),
    (lambda lines: lines.append('{"type": "header"}\n'), ":14: expected an outcome line, got type 'header'"),
])
def test_a_corrupt_line_is_an_error_naming_it_and_nothing_is_written(
        edit: Callable[[list[str]], None], message: str, tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    lines = out.read_text().splitlines(keepends=True)
    edit(lines)
    out.write_text("".join(lines))
    before = out.read_bytes()
    code, printed, err = run("simulate", *RUN, "--resume", str(out))
    assert (code, printed) == (1, "")
    assert err.startswith(f"rummydsl simulate: {out}{message}"), err
    assert err.count("\n") == 1
    assert out.read_bytes() == before


def test_a_game_with_another_seed_is_refused(tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    _edit(out, 2, lambda data: data.__setitem__("seed", 12345))
    before = out.read_bytes()
    code, _, err = run("simulate", *RUN, "--resume", str(out))
    assert code == 1
    assert err.startswith(f"rummydsl simulate: {out}:3: hand 2 was played from seed 12345, but seed 4 gives it ")
    assert out.read_bytes() == before


def test_the_library_refuses_outcomes_that_are_not_the_runs_first_games() -> None:
    from rummydsl.errors import RecordError
    from rummydsl.simulate import GameTask, play_task, simulate
    from rummydsl.variant import find_variant_path

    stray = play_task(GameTask(find_variant_path("gin_rummy"), 0, 99, "greedy"))
    with pytest.raises(RecordError, match="^game 1 played from seed 99 is not game 1 of this run"):
        simulate("gin_rummy", games=2, seed=1, done=[stray])
    with pytest.raises(RecordError, match="^3 games are done already, but the run has only 2"):
        simulate("gin_rummy", games=2, seed=1, done=[stray] * 3)


def test_resume_refuses_a_missing_or_empty_file_and_goes_with_neither_out_nor_log(tmp_path: Path,
                                                                                   played: Played) -> None:
    missing = tmp_path / "nope.jsonl"
    code, _, err = run("simulate", *RUN, "--resume", str(missing))
    assert code == 1 and err.startswith(f"rummydsl simulate: {missing}: cannot read the run to resume: ")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run("simulate", *RUN, "--resume", str(empty))[2] == \
        f"rummydsl simulate: {empty}: the run is empty; start it again with --out\n"
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    code, _, err = run("simulate", *RUN, "--resume", str(out), "--out", str(out))
    assert code == 2 and "not allowed with argument" in err
    code, _, err = run("simulate", *RUN, "--resume", str(out), "--log", str(tmp_path / "log.jsonl"))
    assert code == 2 and err.startswith("rummydsl simulate: --log cannot go with --resume")
    assert not (tmp_path / "log.jsonl").exists()


def test_a_run_stopped_by_a_failing_agent_resumes_to_the_same_stop(tmp_path: Path) -> None:
    bot = Path(__file__).parent / "bots" / "bot.py"
    argv = ("gin_rummy", "--games", "3", "--seed", "2", "--agents", f"greedy,cmd:{sys.executable} {bot} illegal 4")
    out = tmp_path / "run.jsonl"
    code, _, err = run("simulate", *argv, "--out", str(out))
    assert code == 1 and err.startswith("rummydsl simulate: game 1: P2: ")
    lines = read_log(out)
    assert len(lines) == 2 and lines[1]["stopped"] and lines[1]["result"] is None
    before = out.read_bytes()
    assert run("simulate", *argv, "--resume", str(out)) == (1, "", err)
    assert out.read_bytes() == before


def test_out_overwrites_no_run(tmp_path: Path, played: Played) -> None:
    out = whole_file(played, tmp_path, *RUN, name="run.jsonl")
    before = out.read_bytes()
    code, printed, err = run("simulate", *RUN, "--out", str(out))
    assert (code, printed) == (1, "")
    assert err == (f"rummydsl simulate: {out}: the file is not empty (a run to go on with --resume?); "
                   "remove it to start the run again\n")
    assert out.read_bytes() == before
    out.write_text("")
    assert run("simulate", *RUN, "--out", str(out))[0] == 0 and out.read_bytes() == before
