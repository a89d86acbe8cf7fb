"""Imports point down the layers (tests/unit/layers.py, docs/architecture.md "Layers"):
no module of rummydsl/ imports one of a higher layer, at the top of a file, inside a
function or under ``if TYPE_CHECKING:``; every module is placed in a layer; and the
documented table is the one enforced."""

from __future__ import annotations

import re
from pathlib import Path

from layers import CLI_STARTUP, LAYERS, PACKAGE, imports, layer_of, modules, upward

ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"


def test_no_import_points_up() -> None:
    problems = upward(imports())
    assert problems == [], "imports that point up the layers (docs/architecture.md):\n" + "\n".join(problems)


def test_every_module_is_placed_in_a_layer() -> None:
    unplaced = [name for name in modules() if layer_of(name) is None]
    assert unplaced == [], f"add these modules to LAYERS in tests/unit/layers.py (and docs/architecture.md): {unplaced}"


def test_every_entry_of_the_table_is_a_module_and_appears_once() -> None:
    known = modules()
    entries = [entry for _, names in LAYERS for entry in names]
    assert len(entries) == len(set(entries)), "a module in two layers"
    for entry in entries:
        assert ("rummydsl." + entry if entry else "rummydsl") in known, f"LAYERS names {entry!r}, not a module"
    assert all(name in known for name in CLI_STARTUP)


def test_the_documented_layers_are_the_enforced_ones() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:3] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith(("| layer ", "| ---"))]
    documented = []
    for name, cells in rows:
        entries = []
        for cell in re.findall(r"`([^`]+)`", cells):
            entries.append("" if cell == "__init__.py" else cell.removesuffix(".py").removesuffix("/"))
        documented.append((name.strip(), tuple(entries)))
    assert documented == [(name, tuple(entries)) for name, entries in LAYERS]


def write(root: Path, name: str, text: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_checker_sees_every_kind_of_upward_import(tmp_path: Path) -> None:
    """A package laid out like rummydsl with an upward import of each kind: at the top,
    inside a function, under TYPE_CHECKING, relative and absolute; downward ones pass."""
    root = tmp_path / "rummydsl"
    write(root, "__init__.py", "")
    write(root, "cards.py", "from .engine import game\n")  # up, relative, a submodule by name
    write(root, "engine/__init__.py", "from ..cards import Card\n")  # down
    write(root, "engine/game.py", "def f():\n    from ..record import x\n")  # up, lazy
    write(root, "melds/rules.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    import rummydsl.engine.game\n")  # up, TYPE_CHECKING, absolute
    write(root, "record.py", "from . import cards\nfrom rummydsl.engine import game\n")  # down
    write(root, "cli.py", "def main():\n    from .lsp import server\n")  # cli is the top: down
    found = upward(imports(root))
    assert [line.split(": ", 1)[1] for line in found] == [
        "rummydsl.cards (vocabulary) imports rummydsl.engine.game (engine), a layer above it",
        "rummydsl.engine.game (engine) imports rummydsl.record (records), a layer above it",
        "rummydsl.melds.rules (melds) imports rummydsl.engine.game (engine), a layer above it",
    ]
    assert found[1].startswith(f"{root / 'engine' / 'game.py'}:2: ")
