"""``explain`` in words a person can read at the table: option values filled in,
usual formulas in words, no Python reprs, nothing the file contradicts, and the
pages of docs/rules/ kept current."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from rummydsl.cli import main
from rummydsl.explainer import explain
from rummydsl.variant import load_variant, shipped_variant_ids

REPO = Path(__file__).resolve().parents[2]
RULES_DOCS = REPO / "docs" / "rules"


def words(text: str) -> str:
    return " ".join(text.split())


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_docs_rules_page_is_current(variant_id: str) -> None:
    """docs/rules/<id>.md is `rummydsl explain --markdown <id>`; regenerate with
    `for v in $(rummydsl variants | cut -d' ' -f1); do rummydsl explain --markdown $v > docs/rules/$v.md; done`."""
    page = RULES_DOCS / f"{variant_id}.md"
    assert page.is_file(), f"docs/rules/{variant_id}.md is missing"
    out = io.StringIO()
    assert main(["explain", "--markdown", variant_id], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == page.read_text(encoding="utf-8")


def test_gin_scoring_in_words() -> None:
    text = words(explain(load_variant("gin_rummy")))
    assert "A knock: the knocker scores the difference in deadwood. [GR-9.1]" in text
    assert "Gin: the knocker scores 25 plus the defender's deadwood. [GR-9.3]" in text
    assert "the defender with the lowest deadwood scores the difference in deadwood plus 25. [GR-9.2]" in text


def test_option_values_are_filled_in_and_decided_choices_made() -> None:
    text = words(explain(load_variant("oklahoma_gin")))
    assert "at most upcard.rank == A ? 0 : value(upcard)" in text
    assert "multiplied by upcard.suit == S ? 2 : 1" in text
    assert "oklahoma_ace" not in text.split("Options")[0]


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_no_python_reprs(variant_id: str) -> None:
    text = explain(load_variant(variant_id))
    assert not re.search(r"\{'|\['|\bTrue\b|\bFalse\b|\bNone\b|mappingproxy", text), text


def test_changes_are_shown_as_yaml(tmp_path: Path) -> None:
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\n"
                 "turn: [draw, discard]\nknock: {limit: 5}\n")
    text = words(explain(load_variant(path)))
    assert "- turn: [{draw: {from: [stock, discard]}}, {discard: {taken_card: forbidden}}] -> [draw, discard]" in text
    assert "{'" not in text


def test_a_default_is_said_to_be_one(tmp_path: Path) -> None:
    """After a house rule drops 'taken_card', explain no longer states the rule
    as if the file said it: it says the default applies."""
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\n"
                 "turn: [draw: {from: [stock, discard]}, discard]\n")
    text = words(explain(load_variant(path)))
    assert "may not be discarded (the default: the file does not say; 'taken_card: allowed' allows it)" in text


def test_parent_is_named_by_its_id_and_a_summary_is_made(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "rummydsl: 1\nid: house_base\nname: House base\nextends: gin_rummy\n")
    path = write(tmp_path, "child.yaml", "rummydsl: 1\nid: child\nname: Child\nextends: ./base.yaml\n"
                 "knock: {limit: 5}\n")
    text = explain(load_variant(path))
    assert text.startswith("Child  (extends house_base)\n")
    assert "Changed from house_base" in text
    assert ("2 players, 10 cards each. A round ends by knocking with at most 5 deadwood, or by gin. "
            "First to 100 points wins.") in words(text)


def test_rules_points_that_were_left_out() -> None:
    skarney = words(explain(load_variant("skarney_gin")))
    assert "The player after the dealer plays first (the non-dealer, with two players)." in skarney  # SK-2.3
    assert "melds still in the hand do not count" in skarney  # SK-10.1, the default
    assert "No lay-offs after gin or big gin." in words(explain(load_variant("gin_rummy")))  # GR-7.2


def test_a_plain_option_value_keeps_the_inherited_rule_and_description(tmp_path: Path) -> None:
    path = write(tmp_path, "h.yaml", "rummydsl: 1\nid: h\nname: H\nextends: gin_rummy\noptions: {gin_bonus: 30}\n")
    variant = load_variant(path)
    assert variant.options["gin_bonus"].rule == "GR-9.3"
    assert variant.options["gin_bonus"].description == "Bonus for going gin."
    assert "gin_bonus = 30 [GR-9.3]: Bonus for going gin." in explain(variant)
