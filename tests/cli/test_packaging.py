"""A plain ``pip install .`` carries every subpackage: pyproject.toml lists packages by
hand, and rummydsl.engine was once missing from the list, so the installed
``rummydsl simulate`` could not import it."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def test_every_subpackage_is_listed_in_pyproject() -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(REPO).parts) for init in (REPO / "rummydsl").rglob("__init__.py")}
    assert found and found - listed == set()
