"""``rummydsl new`` writes a commented house rule that checks, and ``rummydsl rules``
says what a rule id means from the installed package (issue 23, frictions 8 and 9)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rummydsl.variant import check_file, shipped_variant_ids

from .conftest import run

REPO = Path(__file__).resolve().parents[2]


def uncommented(text: str) -> str:
    """The scaffold with every commented setting written out (the parent's own values)."""
    return "\n".join(line[2:] if re.match(r"# (?:[a-z_]+:|  )", line) else line
                     for line in text.splitlines()) + "\n"


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_new_writes_a_house_rule_that_checks(tmp_path: Path, variant_id: str) -> None:
    code, out, err = run("new", "my_rule", "--from", variant_id, "--dir", str(tmp_path))
    assert (code, err) == (0, ""), err
    path = tmp_path / "my_rule.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=variant.schema.json\n")
    assert f"extends: {variant_id}\n" in text and "id: my_rule\n" in text
    assert json.loads((tmp_path / "variant.schema.json").read_text(encoding="utf-8"))["$id"].startswith("file:")
    assert [str(d) for d in check_file(str(path))] == []
    # Every commented setting is the parent's value: written out, the file still checks.
    path.write_text(uncommented(text), encoding="utf-8")
    assert [str(d) for d in check_file(str(path)) if d.severity == "error"] == []


def test_new_offers_the_sections_a_family_game_has(tmp_path: Path) -> None:
    """A house rule of Contract Rummy starts from its player count, contract and buying
    settings (CR-1, CR-3, CR-4), of Skarney from its contract (SK-5), of Gin from its
    upcard offer (GR-4)."""
    for variant_id, wanted in (("contract_rummy", ("# players:\n#   count: 4", "# contract:\n", "# buying:\n")),
                               ("skarney_gin", ("# players: 2\n", "# contract:\n#   melds: ")),
                               ("gin_rummy", ("# upcard_offer:\n#   after_all_pass: stock_only\n",))):
        code, _, err = run("new", "mine", "--from", variant_id, "--dir", str(tmp_path), "--force")
        text = (tmp_path / "mine.yaml").read_text(encoding="utf-8")
        assert code == 0 and all(part in text for part in wanted), (variant_id, text)


def test_an_uncommented_line_changes_that_rule(tmp_path: Path) -> None:
    assert run("new", "kitchen", "--dir", str(tmp_path))[0] == 0
    path = tmp_path / "kitchen.yaml"
    text = path.read_text(encoding="utf-8").replace("# game:\n#   target: 100", "game:\n  target: 150")
    path.write_text(text, encoding="utf-8")
    assert [str(d) for d in check_file(str(path))] == []
    code, out, _ = run("explain", str(path))
    assert code == 0 and "- game.target: 100 -> 150" in out


@pytest.mark.parametrize("argv, message", [
    (["new", "My-Rule"], "'My-Rule' is not a variant id"),
    (["new", "house", "--from", "gin_rumy"], "did you mean 'gin_rummy'?"),
])
def test_new_refuses_what_it_cannot_write(tmp_path: Path, argv: list[str], message: str) -> None:
    code, out, err = run(*argv, "--dir", str(tmp_path))
    assert code == 1 and message in err and not list(tmp_path.glob("*.yaml"))


def test_new_never_overwrites_without_force(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("mine\n", encoding="utf-8")
    code, _, err = run("new", "house", "--dir", str(tmp_path))
    assert code == 1 and "already exists" in err
    assert (tmp_path / "house.yaml").read_text(encoding="utf-8") == "mine\n"
    assert run("new", "house", "--dir", str(tmp_path), "--force")[0] == 0


def test_rules_of_a_variant() -> None:
    code, out, err = run("rules", "knock_rummy")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == ["KR-1", "KR-2", "KR-3", "KR-4.1", "KR-4.2", "KR-4.3", "KR-5"]
    assert lines[2].startswith("KR-3    Knock: after drawing, a player may knock with ANY deadwood")


def test_rules_of_one_id_and_its_sub_rules() -> None:
    code, out, _ = run("rules", "gr-9")
    assert code == 0
    starts = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    assert starts == ["GR-9", "GR-9.1", "GR-9.2", "GR-9.3", "GR-9.4", "GR-9.5"]
    assert "GR-9.2  Round score: Undercut:" in out
    # A rule id shows the whole rule, option marks included, wrapped under its id.
    assert "[option: undercut_on_tie = true |\n        false] (false: a tie gives no score" in out
    code, out, err = run("rules", "GR-99")
    assert (code, out) == (1, "") and "no rule 'GR-99' in the rules documents; did you mean 'GR-9'?" in err


def test_a_rule_id_shows_every_sentence_of_the_rule() -> None:
    """GR-5's second sentence (the card taken may not be thrown back) is the half a player
    asks about; the one-line meaning drops it (GR-5)."""
    code, out, _ = run("rules", "GR-5")
    assert code == 0 and " ".join(out.split()).endswith(
        "A card taken from the discard pile MUST NOT be discarded in the same turn (a stock card may be).")
    code, out, _ = run("rules", "GR-5", "--json")
    assert json.loads(out) == {"GR-5": "Normal turn: Draw the top stock card or the top discard, "
                                       "then discard one card face up."}
    code, out, _ = run("rules", "GR-5", "--json", "--full")
    assert json.loads(out)["GR-5"].endswith("(a stock card may be).")
    code, out, _ = run("rules", "knock_rummy", "--full")
    assert code == 0 and len(out.splitlines()) > 7  # whole texts wrap


def test_rules_json_and_every_rule() -> None:
    code, out, _ = run("rules", "--json")
    every = json.loads(out)
    assert code == 0 and len(every) > 100 and every["C-6"].startswith("Deadwood:")


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_every_rule_a_shipped_variant_cites_has_a_meaning(variant_id: str) -> None:
    code, out, _ = run("rules", variant_id, "--json")
    meanings = json.loads(out)
    assert code == 0 and meanings
    assert [rule for rule, meaning in meanings.items() if not meaning] == []


SHARED = REPO.parent / "shared"


@pytest.mark.skipif(not (SHARED / "RULES.md").exists(), reason="../shared/RULES.md is not beside the repository")
def test_the_shipped_rule_index_is_current() -> None:
    """spec/rules.json is made from the rules documents; regenerate it with the command in
    rummydsl/conformance/rule_index.py when they change."""
    from rummydsl.conformance.rule_index import rule_meanings, rule_texts

    made: dict[str, str] = {}
    whole: dict[str, str] = {}
    for name in ("RULES.md", "RULES-FAMILY.md"):
        text = (SHARED / name).read_text(encoding="utf-8")
        for rule, meaning in rule_meanings(text).items():
            made.setdefault(rule, meaning)
        for rule, said in rule_texts(text).items():
            whole.setdefault(rule, said)
    shipped = json.loads((REPO / "spec" / "rules.json").read_text(encoding="utf-8"))
    assert shipped["rules"] == made
    assert shipped["texts"] == whole
