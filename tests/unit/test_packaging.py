"""Every package of rummydsl/ is listed in pyproject.toml's ``packages`` (a package left
out installs without its modules: the editable install of a developer hides it, a fresh
``pip install .`` does not)."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_package_is_listed_in_pyproject() -> None:
    data = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(data["tool"]["setuptools"]["packages"])
    packages = {".".join(path.parent.relative_to(REPO).parts) for path in (REPO / "rummydsl").rglob("__init__.py")}
    assert sorted(packages - listed) == []
