"""docs/architecture.md says what is true of the engine: its module table names every
module of rummydsl/engine/ (and nothing else)."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_engine_table_names_every_engine_module() -> None:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## The engine\n", 1)[1].split("\n## ", 1)[0]
    named = set()
    for line in section.splitlines():
        if line.startswith("| `engine/"):
            named.update(re.findall(r"`(engine/[^`]+)`", line.split("|")[1]))
    engine = REPO / "rummydsl" / "engine"
    actual = {f"engine/{p.name}" for p in engine.glob("*.py") if p.name != "__init__.py"}
    actual |= {f"engine/{p.name}/" for p in engine.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert named == actual
