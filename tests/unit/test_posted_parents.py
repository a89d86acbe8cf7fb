"""``posted_parents``: variant texts held in memory (the playground's sessions) as ``extends:`` parents."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rummydsl.errors import VariantError
from rummydsl.variant import check_file, load_variant_text
from rummydsl.variant.extends import posted_parents, posted_text

BASE = "id: base\nname: Base\nextends: gin_rummy\nknock: {limit: 5}\n"
HOUSE = "id: house\nname: House\nextends: base\nknock: {limit: 3}\n"


def test_an_id_reaches_a_posted_text_only_inside_the_block() -> None:
    with posted_parents({"base": BASE}):
        variant = load_variant_text("h.yaml", HOUSE)
        assert posted_text("posted:base.yaml") == BASE
    assert variant.chain[1] == "posted:base.yaml" and variant.parent == "base"
    assert posted_text("posted:base.yaml") is None
    with pytest.raises(VariantError, match="cannot find parent 'base'"):
        load_variant_text("h.yaml", HOUSE)


def test_a_shipped_id_is_never_shadowed() -> None:
    with posted_parents({"gin_rummy": "id: gin_rummy\nname: Fake\nextends: nothing_at_all\n"}):
        assert check_file("h.yaml", "id: h\nname: H\nextends: gin_rummy\n") == []


def test_a_posted_parent_is_never_read_from_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "posted:base.yaml").write_text("id: base\nname: On disk\nknok: 1\n", encoding="utf-8")
    assert os.path.exists("posted:base.yaml")
    with pytest.raises(VariantError, match="cannot find parent 'base'"):
        load_variant_text("h.yaml", HOUSE)  # outside the block: the file is not a parent either
    with posted_parents({"base": BASE}):
        assert check_file("h.yaml", HOUSE) == []


def test_a_problem_in_a_posted_parent_is_placed_there() -> None:
    with posted_parents({"base": BASE + "knok: 1\n"}):
        found = check_file("h.yaml", HOUSE)
    assert [(d.location.path, d.location.line, d.rule) for d in found if d.severity == "error"] == [
        ("posted:base.yaml", 5, "schema-unknown-key")]
