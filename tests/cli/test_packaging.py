"""A plain ``pip install .`` carries every subpackage: pyproject.toml lists packages by
hand, and rummydsl.engine was once missing from the list, so the installed
``rummydsl simulate`` could not import it."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = None


def test_every_subpackage_is_listed_in_pyproject() -> None:
    if tomllib is None:  # pragma: no cover
        return
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(REPO).parts) for init in (REPO / "rummydsl").rglob("__init__.py")}
    assert found - listed == set()
