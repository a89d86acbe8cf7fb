"""No network, and no file written but where the user says (docs/security.md).

Every command runs with ``socket.socket`` (and name lookups) patched to raise, in a
temporary current folder with HOME, TMPDIR and the XDG folders inside it; the files
there (and in the folders the inputs come from) are compared before and after: the
only new or changed file is the ``--log``/``--output`` target. A program agent gets
the protocol's pipes and nothing else: its own session, standard error to /dev/null,
no other open file, the current folder and environment of the command.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from .conftest import run

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "conformance" / "gin_rummy" / "gin_rummy.suite.yaml"
INPUTS = [ROOT / "variants", SUITE.parent]


class NetworkUsed(AssertionError):
    """A command tried to open a socket or look a name up."""


def no_network(*args: Any, **kwargs: Any) -> Any:
    raise NetworkUsed(f"network use: {args!r}")


def snapshot(*folders: Path) -> dict[str, str]:
    """Every file under ``folders``, by path, with a digest of its bytes."""
    files = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                files[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A current folder with HOME, TMPDIR and XDG folders inside it, and no network."""
    work = tmp_path / "work"
    for name in ("home", "tmp", "cache", "config", "data"):
        (tmp_path / name).mkdir()
    work.mkdir()
    shutil.copy(ROOT / "variants" / "gin_rummy.yaml", work / "mine.yaml")
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    for name, folder in (("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data")):
        monkeypatch.setenv(name, str(tmp_path / folder))
    monkeypatch.setattr(socket, "socket", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    yield tmp_path


COMMANDS = [
    # (argv, the files it may write, relative to the current folder)
    (["check", "mine.yaml", str(ROOT / "variants")], []),
    (["check", "--json", "mine.yaml"], []),
    (["explain", "mine.yaml"], []),
    (["explain", "--markdown", "ginski"], []),
    (["test", str(SUITE), "-k", "gr1-card-values"], []),
    (["melds", "gin_rummy", "5H", "6H", "7H", "9C", "9D", "9S"], []),
    (["variants"], []),
    (["schema"], []),
    (["schema", "--output", "variant.schema.json"], ["variant.schema.json"]),
    (["simulate", "mine.yaml", "--games", "2", "--seed", "1", "--log", "games.jsonl"], ["games.jsonl"]),
    (["simulate", "skarney_gin", "--games", "2", "--seed", "3", "--workers", "2", "--json"], []),
]


@pytest.mark.parametrize("argv,writes", COMMANDS, ids=[" ".join(c[0][:2]) for c in COMMANDS])
def test_a_command_writes_only_its_target_and_uses_no_network(argv: list[str], writes: list[str],
                                                               sandbox: Path) -> None:
    before = snapshot(sandbox, *INPUTS)
    code, out, err = run(*argv)
    assert code == 0, err
    after = snapshot(sandbox, *INPUTS)
    changed = sorted(os.path.relpath(p, sandbox / "work") for p in set(after) | set(before)
                     if before.get(p) != after.get(p) and p not in parser_cache(sandbox))
    assert changed == sorted(writes)


def parser_cache(sandbox: Path) -> set[str]:
    """The one file written unasked: the expression parser's tables, in a private folder
    of the temp folder (rummydsl/expr/parser.py, ``private_cache_file``)."""
    return {str(sandbox / "tmp" / f"rummydsl-{os.getuid()}" / "expr.lark.cache")}


def test_mutants_leave_no_temporary_file(sandbox: Path) -> None:
    """``test --mutants`` writes its one-change copies into a temporary folder it removes."""
    before = snapshot(sandbox, *INPUTS)
    code, out, err = run("test", str(SUITE), "-k", "gr1-card-values", "--mutants", "-q")
    assert code in (0, 1) and "mutants noticed" in out, err  # 1: some mutants go unnoticed by one case
    after = snapshot(sandbox, *INPUTS)
    assert {p for p in set(after) ^ set(before)} <= parser_cache(sandbox)


@pytest.mark.parametrize("record,reason", [
    (b"[" * 100_000 + b"\n", ":1:65: not a record line: nested too deeply: at most 64 levels"),
    (b'{"a": ' * 50_000 + b"\n", ":1:385: not a record line: nested too deeply: at most 64 levels"),
    (b"\xff\xfe not UTF-8\n", ":1:1: not UTF-8 text: byte 0xff at column 1"),
    (b"\x00 not json\n", ":1: not a JSON line"),
    (b'{"type": "header", "variant": {"__class__": "os.system"}}\n', "evil.jsonl:1:"),
], ids=["deep-list", "deep-object", "not-utf8", "not-json", "object-names"])
def test_a_stranger_s_record_is_refused_cleanly(record: bytes, reason: str, sandbox: Path) -> None:
    """A game record is JSON lines read as data: a bad one is one located error line, not a crash."""
    path = sandbox / "work" / "evil.jsonl"
    path.write_bytes(record)
    code, out, err = run("replay", str(path))
    assert code != 0 and "Traceback" not in err
    assert reason in err and err.count("\n") == 1


def test_replay_writes_nothing_and_uses_no_network(sandbox: Path) -> None:
    assert run("simulate", "gin_rummy", "--games", "2", "--seed", "5", "--log", "games.jsonl")[0] == 0
    before = snapshot(sandbox, *INPUTS)
    code, out, err = run("replay", "games.jsonl")
    assert code == 0, err
    assert snapshot(sandbox, *INPUTS) == before


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX users")
def test_the_parser_cache_is_private_and_never_lark_s_shared_file(sandbox: Path) -> None:
    """Lark's own cache is a predictable file in the shared temp folder that it unpickles
    (lark-parser/lark#1628): rummydsl keeps its tables in a folder only its user can open."""
    from rummydsl.expr import parser

    parser.get_parser.cache_clear()
    try:
        parser.get_parser()
    finally:
        parser.get_parser.cache_clear()
    tmp = sandbox / "tmp"
    assert [p.name for p in tmp.iterdir()] == [f"rummydsl-{os.getuid()}"]  # no .lark_cache_* file
    folder = tmp / f"rummydsl-{os.getuid()}"
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "expr.lark.cache").is_file()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX users")
@pytest.mark.parametrize("how", ["open to all", "a link"])
def test_a_cache_folder_that_is_not_private_is_not_used(how: str, sandbox: Path) -> None:
    from rummydsl.expr import parser

    folder = sandbox / "tmp" / f"rummydsl-{os.getuid()}"
    if how == "a link":
        (sandbox / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(sandbox / "elsewhere")
    else:
        folder.mkdir()
        folder.chmod(0o777)
    assert parser.private_cache_file() is False
    parser.get_parser.cache_clear()
    try:
        assert parser.parse("1 + 2") is not None  # parsed all the same, without the cache
    finally:
        parser.get_parser.cache_clear()
    assert list(folder.iterdir()) == []


def test_the_patched_network_is_noticed(sandbox: Path) -> None:
    """The guard works: what a command would meet if it opened a socket."""
    with pytest.raises(NetworkUsed):
        socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    with pytest.raises(NetworkUsed):
        socket.create_connection(("example.com", 80))


SPY = """\
import json, os, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        fds = sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
        report = {"cwd": os.getcwd(), "fds": fds, "stderr": os.readlink("/proc/self/fd/2"),
                  "own_session": os.getsid(0) == os.getpid(), "home": os.environ.get("HOME")}
        with open(os.environ["SPY_REPORT"], "w") as handle:
            json.dump(report, handle)
    if message["type"] == "quit":
        break
    if message["type"] == "act":
        print(message["legal"][0], flush=True)
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_program_agent_gets_only_the_protocol(sandbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = sandbox / "spy.py"
    spy.write_text(SPY, encoding="utf-8")
    report = sandbox / "spy.json"
    monkeypatch.setenv("SPY_REPORT", str(report))
    code, _, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents",
                       f"greedy,cmd:{sys.executable} {spy}")
    assert code == 0, err
    seen = json.loads(report.read_text(encoding="utf-8"))
    assert seen["cwd"] == str(sandbox / "work")  # the command's current folder
    assert seen["home"] == str(sandbox / "home")  # and its environment
    assert seen["stderr"] == "/dev/null"
    assert seen["own_session"] is True  # killed as a group when the game stops
    assert seen["fds"][:3] == [0, 1, 2] and len(seen["fds"]) <= 4  # the listing's own descriptor at most
