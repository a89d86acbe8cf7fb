"""The editor schema (``rummydsl schema``) accepts every shipped and documented
variant and house rule, as a YAML editor would validate them (the file alone,
unmerged), and still rejects wrong files; ``--strict`` is the merged-tree schema
``check`` uses."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rummydsl.cli import main
from rummydsl.resources import read_spec_text
from rummydsl.variant.load import load_document

REPO = Path(__file__).resolve().parents[2]
FILES = sorted([*REPO.glob("variants/*.yaml"), *REPO.glob("tests/conformance/variants/*.yaml"),
                *REPO.glob("tests/examples/good/*.yaml")])


def printed_schema(*argv: str) -> dict[str, Any]:
    out = io.StringIO()
    assert main(["schema", *argv], stdout=out, stderr=io.StringIO()) == 0
    schema: dict[str, Any] = json.loads(out.getvalue())
    return schema


EDITOR = Draft202012Validator(printed_schema())


def errors(data: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in EDITOR.iter_errors(data)]


def doc_blocks() -> list[tuple[str, str]]:
    """Every yaml block of docs/*.md and README.md that is a variant or a fragment
    of one, as the whole file a reader would write (a fragment under a house-rule
    header, as tests/unit/test_docs.py checks them)."""
    found = []
    for doc in [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]:
        text = doc.read_text(encoding="utf-8")
        number, suite = 0, False
        for match in re.finditer(r"<!-- extends: (\w+) -->|<!-- (suite) -->|```yaml\n(.*?)```", text, re.S):
            if match.group(1):
                continue
            if match.group(2):
                suite = True
                continue
            number += 1
            if suite:
                suite = False
                continue
            block = match.group(3)
            if not re.search(r"^rummydsl:", block, re.M):
                block = f"rummydsl: 1\nid: doc_example\nextends: gin_rummy\nname: Doc example\n{block}"
            found.append((f"{doc.name}#{number}", block))
    return found


DOC_BLOCKS = doc_blocks()


def test_the_schema_is_a_valid_draft_2020_12_schema_with_a_usable_id() -> None:
    schema = printed_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "urn:rummydsl:variant-schema:1"
    assert "invalid" not in schema["$id"]


def test_output_writes_the_schema_with_the_file_uri_as_id(tmp_path: Path) -> None:
    target = tmp_path / "variant.schema.json"
    out = io.StringIO()
    assert main(["schema", "--output", str(target)], stdout=out, stderr=io.StringIO()) == 0
    written = json.loads(target.read_text(encoding="utf-8"))
    assert written["$id"] == target.resolve().as_uri()
    assert {k: v for k, v in written.items() if k != "$id"} == \
           {k: v for k, v in printed_schema().items() if k != "$id"}


def test_output_to_a_folder_that_does_not_exist_is_an_input_error(tmp_path: Path) -> None:
    err = io.StringIO()
    target = tmp_path / "missing" / "schema.json"
    assert main(["schema", "--output", str(target)], stdout=io.StringIO(), stderr=err) == 1
    assert repr(str(target)) in err.getvalue()


def test_strict_prints_the_merged_tree_schema_check_uses() -> None:
    assert printed_schema("--strict") == json.loads(read_spec_text("variant.schema.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_editor_schema_accepts_shipped_and_test_variant(path: Path) -> None:
    assert errors(load_document(path).data) == []


@pytest.mark.parametrize("name,block", DOC_BLOCKS, ids=[b[0] for b in DOC_BLOCKS])
def test_editor_schema_accepts_documented_variant(name: str, block: str) -> None:
    assert errors(load_document(name, block).data) == [], block


def test_editor_schema_accepts_every_shipped_variant_and_docs_block_count() -> None:
    # The walks above must see the files they claim to: a glob gone wrong would pass.
    assert len([p for p in FILES if p.parent.name == "variants" and p.parent.parent == REPO]) >= 9
    assert len(DOC_BLOCKS) >= 10


HOUSE = {"rummydsl": 1, "id": "house", "name": "House", "extends": "gin_rummy"}

ACCEPTED = {
    "a bare house rule": {},
    "a partial nested map": {"deal": {"upcard": False}, "game": {"box_bonus": 0}},
    "null deletes an optional key": {"knock": None, "upcard_offer": None, "layoff": None, "stock": None},
    "null deletes a nested optional key": {"game": {"hollywood": None}, "stock": {"final_turn_skip": None}},
    "null deletes a meld kind and an option": {"melds": {"set": None}, "options": {"gin_bonus": None}},
    "a partial deck": {"deck": {"wilds": 2}},
    "a partial knock": {"knock": {"big_gin": False}},
    "a players map without count": {"players": {"max": 4}},
    "a card value table entry deleted": {"card_value": {"A": 15, "K": None}},
}


@pytest.mark.parametrize("extra", ACCEPTED.values(), ids=list(ACCEPTED))
def test_house_rule_forms_are_accepted(extra: dict[str, Any]) -> None:
    assert errors({**HOUSE, **extra}) == []


REJECTED = {
    "a whole variant missing required keys": ({"rummydsl": 1, "id": "v", "name": "V", "players": 2}, "required"),
    "a null in a whole variant": ({"rummydsl": 1, "id": "v", "name": "V", "knock": {"limit": None}}, "None"),
    "a house rule without id": ({k: v for k, v in HOUSE.items() if k != "id"}, "'id' is a required"),
    "a house rule without name": ({k: v for k, v in HOUSE.items() if k != "name"}, "'name' is a required"),
    "an unknown top-level key": ({**HOUSE, "knok": {"limit": 10}}, "knok"),
    "an unknown nested key": ({**HOUSE, "deal": {"hand_sise": 10}}, "hand_sise"),
    "a wrong enum value": ({**HOUSE, "game": {"shutout": "triple"}}, "triple"),
    "a wrong type": ({**HOUSE, "game": {"target": "many"}}, "many"),
    "null deletes a required nested key": ({**HOUSE, "deal": {"hand_size": None}}, "None"),
    "null deletes a required top-level key": ({**HOUSE, "deal": None}, "None"),
    "null for the id": ({**HOUSE, "id": None}, "None"),
    "a list item is not partial": ({**HOUSE, "scoring": {"round": [{"points": "1"}]}}, "'when' is a required"),
    "a bad step in a replaced turn": ({**HOUSE, "turn": ["draw", "pass"]}, "pass"),
    "extends of the wrong type": ({**HOUSE, "extends": 3}, "3"),
    "a bad option name": ({**HOUSE, "options": {"Gin": 1}}, "Gin"),
}


@pytest.mark.parametrize("data,words", REJECTED.values(), ids=list(REJECTED))
def test_wrong_files_are_rejected(data: dict[str, Any], words: str) -> None:
    found = errors(data)
    assert found, data
    detail = [str(e) for error in EDITOR.iter_errors(data) for e in [error, *(error.context or [])]]
    assert any(words in line for line in detail + found), found


@pytest.mark.parametrize("name", ["unknown_keys", "missing_required"])
def test_golden_bad_files_with_schema_errors_are_rejected(name: str) -> None:
    assert errors(load_document(REPO / "tests" / "examples" / "bad" / f"{name}.yaml").data)
