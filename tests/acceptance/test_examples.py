"""Good and bad variant files: each good file checks clean, each bad file gives
exactly the messages in its golden ``.expected`` file (one ``path:line:col: message``
a line, paths relative to tests/examples/bad, the shipped folder as ``<variants>``).

Regenerate the golden files after a deliberate change of wording with
``RUMMYDSL_REGEN_GOLDEN=1 pytest tests/acceptance/test_examples.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rummydsl.resources import variants_dir
from rummydsl.variant import check_file, shipped_variant_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GOOD = sorted((EXAMPLES / "good").glob("*.yaml"))
BAD = sorted((EXAMPLES / "bad").glob("*.yaml"))
REGENERATE = os.environ.get("RUMMYDSL_REGEN_GOLDEN") == "1"


def render(diagnostics: list) -> str:
    shipped = str(variants_dir())
    # A warning prints its rule code itself; an error's is added here.
    lines = [str(d).replace(shipped, "<variants>") + ("" if d.severity == "warning" else f"  [{d.rule}]")
             for d in diagnostics]
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("path", GOOD, ids=[p.stem for p in GOOD])
def test_good_example_is_clean(path: Path) -> None:
    diagnostics = check_file(str(path))
    assert [str(d) for d in diagnostics] == []


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_shipped_variant_is_clean(variant_id: str) -> None:
    diagnostics = check_file(str(variants_dir() / f"{variant_id}.yaml"))
    assert [str(d) for d in diagnostics] == []


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_example_matches_golden(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(path.parent)
    produced = render(check_file(path.name))
    golden = path.with_suffix(".expected")
    if REGENERATE:
        golden.write_text(produced, encoding="utf-8")
    assert produced, f"{path.name} is meant to be bad but checks clean"
    assert produced == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_every_bad_example_places_its_problems(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(path.parent)
    for diagnostic in check_file(path.name):
        assert diagnostic.location.path, diagnostic
        assert diagnostic.message and "Traceback" not in diagnostic.message
        if diagnostic.rule not in ("io", "encoding", "limit-size", "empty", "extends-cycle"):
            assert diagnostic.location.line >= 1, diagnostic
