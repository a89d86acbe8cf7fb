"""Variants that break only in play: each checks clean statically, and
``check --play`` gives exactly the problems in its golden ``.expected`` file (one
``path:line:col: message  [rule]`` a line, paths relative to
tests/examples/broken_in_play, the shipped folder as ``<variants>``).

The games are few (``GAMES``) and seeded, so the report is the same on every run.
Regenerate the golden files after a deliberate change of wording with
``RUMMYDSL_REGEN_GOLDEN=1 pytest tests/acceptance/test_broken_in_play.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rummydsl.playcheck import PLAY_RULES, play_check
from rummydsl.resources import variants_dir
from rummydsl.variant import check_file

BROKEN = sorted((Path(__file__).resolve().parent.parent / "examples" / "broken_in_play").glob("*.yaml"))
REGENERATE = os.environ.get("RUMMYDSL_REGEN_GOLDEN") == "1"
GAMES = 3


def render(diagnostics: list) -> str:
    shipped = str(variants_dir())
    # A warning prints its rule code itself; an error's is added here.
    lines = [str(d).replace(shipped, "<variants>") + ("" if d.severity == "warning" else f"  [{d.rule}]")
             for d in diagnostics]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_in_play_example_checks_clean(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(path.parent)
    assert [str(d) for d in check_file(path.name)] == []


@pytest.mark.parametrize("path", BROKEN, ids=[p.stem for p in BROKEN])
def test_broken_in_play_example_matches_golden(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(path.parent)
    found = play_check(path.name, GAMES, seed=0)
    produced = render(found)
    golden = path.with_suffix(".expected")
    if REGENERATE:
        golden.write_text(produced, encoding="utf-8")
    assert produced, f"{path.name} is meant to break in play but plays clean"
    assert produced == golden.read_text(encoding="utf-8")
    for diagnostic in found:
        assert diagnostic.rule in PLAY_RULES
        assert diagnostic.location.path == path.name, "a problem is placed in the file checked"
        assert diagnostic.location.line >= 1 and diagnostic.location.column >= 1


def test_every_broken_in_play_kind_has_an_example() -> None:
    shown = "".join(path.with_suffix(".expected").read_text(encoding="utf-8") for path in BROKEN)
    for rule in ("play-stalled", "play-no-legal-action", "play-scoring-error", "play-never-won"):
        assert f"[{rule}]" in shown, rule
