"""The program-agent protocol with real programs run as separate processes
(tests/cli/bots/bot.py): a legal player finishes games, and every way of
misbehaving (garbage, an illegal move, silence, a late or an early line, megabytes
with or without a newline, bytes that are not UTF-8, a closed output, exiting, a
grandchild left holding the pipe, not reading) stops the game cleanly with the seat
and the reason, the record so far kept, the program killed and reaped."""

from __future__ import annotations

import io
import json
import os
import random
import sys
from pathlib import Path

import pytest

from rummydsl.agents import make_agents
from rummydsl.cli import main
from rummydsl.engine import Game, Observation
from rummydsl.errors import AgentError
from rummydsl.protocol import MAX_LINE, ProgramAgent, agent_timeout
from rummydsl.record import close_agents, run_game
from rummydsl.variant import load_variant

BOT = Path(__file__).resolve().parent / "bots" / "bot.py"


def bot(behaviour: str, start: int = 1) -> str:
    return f"cmd:{sys.executable} {BOT} {behaviour} {start}"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO())
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("behaviour", ["legal", "json"])
def test_a_legal_program_plays_whole_games(behaviour: str, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                         f"greedy,{bot(behaviour)}", "--json", "--log", str(log))
    assert (code, err) == (0, "")
    assert json.loads(out)["games"] == 1
    assert json.loads(log.read_text().splitlines()[-1])["type"] == "game_result"
    assert run("replay", str(log))[0] == 0


def test_the_program_hears_every_message_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcript = tmp_path / "heard.txt"
    monkeypatch.setenv("BOT_TRANSCRIPT", str(transcript))
    code, _, _ = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents", f"greedy,{bot('legal')}")
    assert code == 0
    heard = transcript.read_text().split()
    assert heard[0] == "start" and heard[-2:] == ["game_over", "quit"]
    assert "act" in heard and "round_over" in heard


MISBEHAVING = [
    ("garbage", "answered 'hello there', which is not an action: expected a player P1 to P2, got 'hello'"),
    ("nojson", 'answered \'{"move": 1}\': a JSON answer needs an "action" string'),
    ("illegal", "answered 'P2 pass', which is illegal: P2 must draw first"),
    ("flood", f"answered more than {MAX_LINE} bytes on one line"),
    ("exit", "exited (exit code 3) without answering"),
    ("silent", "no answer within 0.3 seconds"),
    ("flood_nonl", f"answered more than {MAX_LINE} bytes on one line"),
    ("closeout", "closed its output without answering"),
    ("late", "no answer within 0.3 seconds"),
    ("early", "before it was asked to act"),
    ("fork", "exited (exit code 3) without answering"),
    ("badutf8", "answered b'\\xff\\xfe P2 draw stock', which is not UTF-8"),
]
TIMED = ("silent", "late")
"""Behaviours whose reason is the time limit: wrong from the first act (a slow start of
Python cannot change the reason), under a short limit."""


def _state(pid: int) -> str | None:
    """The state letter of process ``pid`` (``Z`` a zombie), None once it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def dead(pid: int) -> bool:
    """Whether ``pid`` is gone or dead, waiting for the event of its exit (a pidfd that turns
    readable) a bounded number of times, never a sleep that a loaded machine outruns; a
    process still running after that is reported."""
    import select
    import time

    if not hasattr(os, "pidfd_open"):  # pragma: no cover - no pidfds (not Linux): a bounded poll
        for _ in range(300):
            if _state(pid) in (None, "Z", "X"):
                return True
            time.sleep(0.1)
        return False
    try:
        descriptor = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        for _ in range(30):  # 30 waits of up to a second each for the exit SIGKILL brings
            if select.select([descriptor], [], [], 1.0)[0]:
                return True
        return _state(pid) in (None, "Z", "X")
    finally:
        os.close(descriptor)


def pids_left(pidfile: Path) -> list[str]:
    """The processes named in ``pidfile`` still running or unreaped (the bot's own must have been
    reaped by us; a grandchild must be gone: this process, a child subreaper once a program
    agent ran in it, took the orphan in and reaped it; a zombie is a leak)."""
    left = []
    pids = [int(line) for line in pidfile.read_text().split()]
    try:
        reaped = os.waitpid(pids[0], os.WNOHANG)
    except ChildProcessError:
        reaped = None  # not a child of ours any more: reaped
    if reaped is not None:
        left.append(f"{pids[0]} (the bot) is not reaped: {reaped}")
    for pid in pids[1:]:
        if not dead(pid):
            left.append(f"{pid} (a grandchild) is still running")
        elif _state(pid) is not None:
            left.append(f"{pid} (a grandchild) is dead but not reaped ({_state(pid)})")
    return left


@pytest.mark.parametrize("behaviour,reason", MISBEHAVING, ids=[m[0] for m in MISBEHAVING])
def test_a_misbehaving_program_stops_the_game_cleanly(behaviour: str, reason: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    start = 3  # two legal moves first: the record has something to keep
    if behaviour in TIMED:
        monkeypatch.setenv("RUMMYDSL_AGENT_TIMEOUT", "0.3")
        start = 1
    pidfile = tmp_path / "pids.txt"
    monkeypatch.setenv("BOT_PIDFILE", str(pidfile))
    log = tmp_path / "game.jsonl"
    code, out, err = run("simulate", "gin_rummy", "--games", "2", "--seed", "1", "--agents",
                         f"greedy,{bot(behaviour, start)}", "--log", str(log))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("rummydsl simulate: game 1: P2: ")
    assert reason in err
    assert "Traceback" not in err
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["type"] for line in lines[:3]] == ["header", "game", "deal"]
    assert sum(line["type"] == "action" for line in lines) >= (4 if start == 3 else 0)  # the record so far
    assert lines[-1]["type"] == "stopped" and lines[-1]["seat"] == "P2" and reason in lines[-1]["reason"]
    code, out, _ = run("replay", str(log))
    assert code == 0 and "1 stopped early" in out
    assert pids_left(pidfile) == []


@pytest.mark.parametrize("behaviour", ["setsid", "setsid_exit"])
def test_a_process_that_left_the_programs_session_is_killed_too(behaviour: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A daemon's double fork (fork, setsid, fork, the middle exits) leaves a grandchild in
    no group of the program's: the subreaper takes the orphan in, and close() finds it by
    the program's token, kills it and reaps it, whether the game ends or the program fails."""
    pidfile = tmp_path / "pids.txt"
    monkeypatch.setenv("BOT_PIDFILE", str(pidfile))
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                         f"greedy,{bot(behaviour, 2)}", "--json")
    if behaviour == "setsid":
        assert (code, err) == (0, "") and json.loads(out)["games"] == 1
    else:
        assert code == 1 and "exited (exit code 3) without answering" in err
    pids = [int(line) for line in pidfile.read_text().split()]
    assert len(pids) == 2, "the bot and its grandchild"
    assert pids_left(pidfile) == []


def test_the_early_bot_writes_both_lines_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the ``early`` case cannot race: the bot writes its answer and the early line in one
    write (at most PIPE_BUF bytes: the pipe takes it whole), so rummydsl's read that gets the
    answer gets the early line too, and its check before the next ``act`` always sees it. With
    two writes (sys.stdout under PYTHONUNBUFFERED=1 makes them), rummydsl could send the next
    ``act`` between them and read the early line as its answer."""
    import importlib.util
    import select

    spec = importlib.util.spec_from_file_location("bot_under_test", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    act = json.dumps({"type": "act", "observation": {"you": "P2"}, "legal": ["P2 draw stock", "P2 pass"]})
    writes: list[bytes] = []
    real_write = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: writes.append(bytes(data)) or len(data) if fd == 1
                        else real_write(fd, data))
    monkeypatch.setattr(sys, "argv", ["bot.py", "early", "1"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(act + "\n" + json.dumps({"type": "quit"}) + "\n"))
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.delenv("BOT_PIDFILE", raising=False)
    monkeypatch.delenv("BOT_TRANSCRIPT", raising=False)
    assert module.main() == 0
    assert writes == [b"P2 draw stock\nP2 draw stock\n"] and sys.stdout.getvalue() == ""
    assert len(writes[0]) <= select.PIPE_BUF


def test_a_program_that_writes_megabytes_to_stderr_plays_on(tmp_path: Path) -> None:
    """Its standard error goes nowhere: it never fills a pipe nobody reads."""
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                         f"greedy,{bot('stderr', 2)}", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["games"] == 1


def test_a_program_that_does_not_read_its_input_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message the program does not read waits at most the time limit (the pipe is full)."""
    monkeypatch.setenv("RUMMYDSL_AGENT_TIMEOUT", "0.3")
    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(2))
    agent = ProgramAgent(f"{sys.executable} -c 'import time; time.sleep(60)'", 1)
    try:
        agent._start(Observation(game.round, 1))
        with pytest.raises(AgentError, match="did not read its input within 0.3 seconds"):
            agent._send({"type": "round_over", "result": {"padding": "x" * 1_000_000}})
        process = agent._process
        assert process is not None
    finally:
        agent.close()
    assert process.returncode is not None  # killed and reaped


def test_a_program_that_cannot_start_is_named(tmp_path: Path) -> None:
    code, _, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                       f"cmd:{tmp_path / 'no-such-bot'}")
    assert code == 1
    assert err.startswith("rummydsl simulate: game 1: P1: cannot start ")


def test_an_exited_program_is_not_started_again() -> None:
    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(2))
    agents = make_agents(f"greedy,{bot('exit', 2)}", 2, random.Random(2))
    try:
        played = run_game(game, agents)
    finally:
        close_agents(agents)
    assert played.stopped is not None and played.stopped.startswith("P2: ")
    assert "exit code 3" in played.stopped
    agent = agents[1]
    assert isinstance(agent, ProgramAgent)
    with pytest.raises(AgentError, match="has been stopped"):
        agent.act(Observation(game.round, 1))


@pytest.mark.parametrize("value", ["soon", "0", "-1", "inf", "nan"])
def test_a_bad_timeout_setting_is_an_agent_error(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMYDSL_AGENT_TIMEOUT", value)
    with pytest.raises(AgentError, match="RUMMYDSL_AGENT_TIMEOUT must be a positive number"):
        agent_timeout("P2")
    code, _, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents", f"greedy,{bot('legal')}")
    assert code == 1 and "RUMMYDSL_AGENT_TIMEOUT" in err and err.count("\n") == 1


def test_the_timeout_setting_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUMMYDSL_AGENT_TIMEOUT", "2.5")
    assert agent_timeout("P1") == 2.5
    monkeypatch.delenv("RUMMYDSL_AGENT_TIMEOUT")
    assert agent_timeout("P1", 7.0) == 7.0


DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_the_documented_program_plays_a_game(tmp_path: Path) -> None:
    program = tmp_path / "first_legal.py"
    program.write_text(DOC.split("```python\n")[1].split("```")[0], encoding="utf-8")
    code, out, err = run("simulate", "ginski", "--games", "1", "--seed", "2", "--agents",
                         f"greedy,cmd:{sys.executable} {program}", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["games"] == 1


@pytest.mark.parametrize("behaviour,reason", MISBEHAVING, ids=[m[0] for m in MISBEHAVING])
def test_every_failure_is_in_the_docs_table(behaviour: str, reason: str) -> None:
    assert reason.replace("0.3 seconds", "10 seconds") in DOC


def test_with_workers_a_failing_program_stops_the_run_at_the_same_game(tmp_path: Path) -> None:
    argv = ["simulate", "gin_rummy", "--games", "6", "--seed", "1", "--agents", f"greedy,{bot('garbage', 30)}"]
    one = run(*argv, "--log", str(tmp_path / "one.jsonl"))
    two = run(*argv, "--workers", "2", "--log", str(tmp_path / "two.jsonl"))
    assert one == two and one[0] == 1 and one[2].startswith("rummydsl simulate: game 3: P2: answered 'hello there'")
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()


class _Listening:
    """A random agent that keeps the ``round_over`` results it is told (as a program would hear them)."""

    def __init__(self, kind: str, seed: int) -> None:
        self.inner = make_agents(kind, 1, random.Random(seed))[0]
        self.heard: list[dict[str, object]] = []

    def act(self, observation: Observation) -> object:
        return self.inner.act(observation)

    def round_over(self, result: dict[str, object]) -> None:
        self.heard.append(result)


def test_round_over_of_a_void_round_shows_each_seat_only_its_own_deadwood() -> None:
    """GR-8 (issue 17): in a void round nobody shows a hand, so each seat's ``round_over``
    result has its own deadwood and null for the others'; a scored round shows them all."""
    from rummydsl.engine import Round
    from rummydsl.record import run_hand

    variant = load_variant("gin_rummy")
    kinds = set()
    for seed in range(40):
        rnd = Round.deal(variant, random.Random(seed), dealer=0)
        agents = [_Listening("greedy" if seed % 2 else "random", seed), _Listening("random", seed + 1000)]
        run_hand(rnd, agents)  # type: ignore[arg-type]
        result = rnd.result
        assert result is not None
        whole = result.as_json()
        for seat, agent in enumerate(agents):
            (heard,) = agent.heard
            if not result.void:
                assert heard == whole
                continue
            name = ("P1", "P2")[seat]
            assert heard["deadwoods"] == {p: (whole["deadwoods"][p] if p == name else None)
                                          for p in ("P1", "P2")}
            assert {k: v for k, v in heard.items() if k != "deadwoods"} == {
                k: v for k, v in whole.items() if k != "deadwoods"}
        kinds.add(result.void)
        if kinds == {True, False}:
            break
    assert kinds == {True, False}, "the seeds gave no void round, or no scored one"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a child subreaper is a Linux feature")
def test_the_process_running_agents_becomes_a_child_subreaper_once() -> None:
    import ctypes

    from rummydsl import protocol

    assert protocol.become_subreaper() and protocol.become_subreaper()
    assert protocol._subreaper_pid == os.getpid()
    flag = ctypes.c_int(0)
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(37, ctypes.byref(flag), 0, 0, 0) == 0  # PR_GET_CHILD_SUBREAPER
    assert flag.value == 1


def test_a_start_up_banner_ends_the_game_with_a_hint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A banner written at start-up is the first line rummydsl reads from the program:
    before the first act went out (written early) or after (not an action), as the
    machine's load has it; either way the game ends and the reason says what to do."""
    monkeypatch.setenv("BOT_PIDFILE", str(tmp_path / "pids.txt"))
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                         f"greedy,{bot('banner', 1)}")
    assert code == 1 and out == ""
    assert ("wrote 'mybot 1.0\\n' before it was asked to act" in err
            or "answered 'mybot 1.0', which is not an action" in err), err
    assert "write nothing but answers on standard output (a start-up banner or a log line goes to " \
           "standard error)" in err
    assert pids_left(tmp_path / "pids.txt") == []


def test_a_bad_answer_later_in_the_game_has_no_banner_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                       f"greedy,{bot('garbage', 3)}")
    assert code == 1 and "which is not an action" in err and "banner" not in err
