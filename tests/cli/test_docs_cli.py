"""docs/cli.md stays true: every ``console`` example of simulate, replay and the
agent protocol's docs prints what the docs show (the run's seconds aside), run in
order in one folder, from outside the project."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from .conftest import run

REPO = Path(__file__).resolve().parents[2]
CLI_DOC = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```console\n\$ (rummydsl [^\n]*)\n(.*?)```", CLI_DOC, re.S)
_SECONDS = re.compile(r" in \d+\.\d s ")


def test_cli_doc_has_console_examples() -> None:
    commands = [command.split()[1] for command, _ in EXAMPLES]
    assert "simulate" in commands and "replay" in commands


def test_console_examples_print_what_the_docs_show(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare`` and ``sweep`` without ``--workers`` play on every core; their figures are
    the same on any number (tests/lab/test_compare.py runs 1 and 2 workers side by side), so
    here they play in this process (one core), not in two spawned interpreters a command."""
    import os

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    for command, shown in EXAMPLES:
        code, out, err = run(*shlex.split(command)[1:])
        assert (code, err) == (0, ""), command
        assert _SECONDS.sub(" in N s ", out) == _SECONDS.sub(" in N s ", shown), command


@pytest.fixture(scope="module")
def games_log(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The log of the docs' ``simulate gin_rummy --games 20 --seed 1 --log games.jsonl``,
    played once for the tests below (each edits a copy)."""
    folder = tmp_path_factory.mktemp("games")
    code, _, err = run("simulate", "gin_rummy", "--games", "20", "--seed", "1", "--log", str(folder / "games.jsonl"))
    assert (code, err) == (0, "")
    return (folder / "games.jsonl").read_text()


def test_the_documented_replay_failure_is_what_replay_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            games_log: str) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    Path("games.jsonl").write_text(games_log)
    shown = re.search(r"^(games\.jsonl:(\d+): round 2, action 5 '(P\d) knock'.*)$", CLI_DOC, re.M)
    assert shown is not None
    lines = Path("games.jsonl").read_text().splitlines()
    line = int(shown.group(2))
    data = json.loads(lines[line - 1])
    assert (data["round"], data["n"]) == (2, 5)
    data["action"] = f"{shown.group(3)} knock"
    lines[line - 1] = json.dumps(data)
    Path("games.jsonl").write_text("\n".join(lines) + "\n")
    assert run("replay", "games.jsonl")[2] == shown.group(1) + "\n"


def test_the_documented_corrupt_deal_and_cut_line_are_what_replay_prints(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         games_log: str) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    Path("games.jsonl").write_text(games_log)
    text = Path("games.jsonl").read_text()
    lines = text.splitlines()
    deal = re.search(r"^(games\.jsonl:(\d+): round 2 deal: card '(\w+)' is dealt twice: .*)$", CLI_DOC, re.M)
    assert deal is not None
    number = int(deal.group(2))
    data = json.loads(lines[number - 1])
    assert (data["type"], data["round"], data["hands"]["P2"][0]) == ("deal", 2, deal.group(3))
    data["hands"]["P1"][0] = data["hands"]["P2"][0]
    Path("games.jsonl").write_text("\n".join([*lines[:number - 1], json.dumps(data), *lines[number:]]) + "\n")
    assert run("replay", "games.jsonl")[2] == deal.group(1) + "\n"
    cut = re.search(r"^(games\.jsonl:(\d+): the last line is cut short .*)$", CLI_DOC, re.M)
    assert cut is not None and int(cut.group(2)) == len(lines)
    Path("games.jsonl").write_text(text[:-20])
    assert run("replay", "games.jsonl")[2] == cut.group(1) + "\n"
