"""The editor schema: spec/variant.schema.json widened to accept house rules.

``check`` validates the *merged* tree of a variant against spec/variant.schema.json,
which is strict: every required key, whole maps, no ``null`` where a value is due.
A YAML editor sees only the file it is editing, so for a file with ``extends`` it
must accept what a house rule may leave out (docs/language.md, "extends and
merging"). This module derives that schema from the strict one, so the two never
drift:

* a file without ``extends`` is checked by the strict schema, unchanged;
* a file with ``extends`` (``if``/``then`` on the key) may leave out every key but
  ``id`` and ``name`` (never inherited); every map reached through map keys may be
  partial (its ``required`` keys, ``minProperties`` and ``anyOf`` of ``required``
  alternatives are dropped); and a key that is optional in the strict schema, or
  any entry of an open map (a meld kind, an option, a ``let``), may be ``null``,
  which deletes the parent's key. A required key may not be ``null``: deleting it
  always makes the merged variant wrong. Items of lists stay strict, because a
  child's list replaces the parent's whole.

>>> schema = editor_schema()
>>> schema["then"]["$ref"], schema["else"]["$ref"]
('#/$defs/house_rule', '#/$defs/variant')
>>> from jsonschema import Draft202012Validator
>>> check = Draft202012Validator(schema)
>>> check.is_valid({"rummydsl": 1, "id": "k", "name": "K", "extends": "gin_rummy", "knock": None})
True
>>> check.is_valid({"rummydsl": 1, "id": "k", "name": "K", "knock": None})
False
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ..resources import read_spec_text

__all__ = ["SCHEMA_ID", "editor_schema", "editor_schema_text", "HOUSE_RULE_REQUIRED"]

SCHEMA_ID = "urn:rummydsl:variant-schema:1"
"""The editor schema's ``$id`` when no file location is given: a stable name for
version 1 of the language, the same on every machine (a file written with
``rummydsl schema --output FILE`` takes that file's URI instead)."""

HOUSE_RULE_REQUIRED = ("id", "name", "extends")
"""Top-level keys a file with ``extends`` must still write (never inherited)."""

_NEVER_NULL = frozenset({"rummydsl", "id", "name", "description", "extends"})
"""Top-level keys that are not merged, so ``null`` never deletes them."""

_ANNOTATIONS = ("$schema", "$id", "title", "$defs")


def editor_schema(schema_id: str = SCHEMA_ID) -> dict[str, Any]:
    """The editor schema as a JSON value, with ``schema_id`` as its ``$id``.

    >>> editor_schema("file:///tmp/v.json")["$id"]
    'file:///tmp/v.json'
    """
    strict: dict[str, Any] = json.loads(read_spec_text("variant.schema.json"))
    defs: dict[str, Any] = dict(strict.get("$defs", {}))
    root = {key: value for key, value in strict.items() if key not in _ANNOTATIONS}
    widen = _Widener(defs)
    house_rule = widen.object(root, top_level=True)
    house_rule["required"] = list(HOUSE_RULE_REQUIRED)
    house_rule["description"] = ("A house rule: a file with `extends`, merged onto its parent (maps merge, "
                                 "lists replace, null deletes a key the parent has).")
    _turn_by_name(house_rule, defs, widen)
    defs["variant"] = root
    defs["house_rule"] = house_rule
    defs.update(widen.partial_defs)
    return {
        "$schema": strict["$schema"],
        "$id": schema_id,
        "title": strict.get("title", "rummydsl variant"),
        "description": (strict.get("description", "") + " A file with `extends` is a house rule: it may "
                        "leave out what its parent gives and write null to delete a key."),
        "type": "object",
        "if": {"required": ["extends"]},
        "then": {"$ref": "#/$defs/house_rule"},
        "else": {"$ref": "#/$defs/variant"},
        "$defs": defs,
    }


def _turn_by_name(house_rule: dict[str, Any], defs: dict[str, Any], widen: _Widener) -> None:
    """A house rule may also write ``turn`` as a map that changes steps by name
    (docs/language.md, merge rule 5): ``turn: {discard: {taken_card: allowed}}``."""
    step = defs.get("step", {})
    named = next((branch.get("properties") for branch in step.get("oneOf", ())
                  if isinstance(branch, dict) and "properties" in branch), None)
    turn = house_rule.get("properties", {}).get("turn")
    if not named or turn is None:
        return
    by_name = {
        "type": "object",
        "additionalProperties": False,
        "description": "Steps changed by name: each key a step of the parent's turn (its settings merge; "
                       "null removes the step).",
        "properties": {name: _or_null(widen.value(sub)) for name, sub in named.items()},
    }
    house_rule["properties"]["turn"] = {"anyOf": [turn, by_name]}


def editor_schema_text(schema_id: str = SCHEMA_ID) -> str:
    """The editor schema as JSON text (two-space indent, ending in a newline)."""
    return json.dumps(editor_schema(schema_id), indent=2, ensure_ascii=False) + "\n"


class _Widener:
    """Makes the partial (house-rule) form of schemas reached through map keys."""

    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.partial_defs: dict[str, Any] = {}

    def value(self, schema: Any) -> Any:
        """The partial form of the schema of one map value (not of a list item)."""
        if not isinstance(schema, dict):
            return schema
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/"):]
            target = self.defs.get(name)
            if _is_map(target):
                partial_name = f"partial_{name}"
                if partial_name not in self.partial_defs:
                    self.partial_defs[partial_name] = {}  # a placeholder against recursion
                    self.partial_defs[partial_name] = self.value(target)
                widened = dict(schema)
                widened["$ref"] = f"#/$defs/{partial_name}"
                return widened
            return schema
        widened = dict(schema)
        for keyword in ("oneOf", "anyOf"):
            if keyword in widened:
                branches = widened[keyword]
                if all(_only_required(branch) for branch in branches):
                    del widened[keyword]  # "one of these keys is required": not in a partial map
                else:
                    widened[keyword] = [self.value(branch) for branch in branches]
        if _is_map(widened):
            widened = self.object(widened, top_level=False)
        return widened

    def object(self, schema: dict[str, Any], top_level: bool) -> dict[str, Any]:
        """The partial form of a map schema: nothing required, optional keys nullable."""
        widened = copy.copy(schema)
        required = set(widened.pop("required", ()))
        widened.pop("minProperties", None)
        if "anyOf" in widened and all(_only_required(b) for b in widened["anyOf"]):
            del widened["anyOf"]
        properties = {}
        for key, sub in widened.get("properties", {}).items():
            partial = self.value(sub)
            nullable = key not in required and not (top_level and key in _NEVER_NULL)
            properties[key] = _or_null(partial) if nullable else partial
        if "properties" in widened:
            widened["properties"] = properties
        extra = widened.get("additionalProperties")
        if isinstance(extra, dict):
            widened["additionalProperties"] = _or_null(self.value(extra))
        return widened


def _is_map(schema: Any) -> bool:
    return isinstance(schema, dict) and (schema.get("type") == "object" or "properties" in schema)


def _only_required(schema: Any) -> bool:
    return isinstance(schema, dict) and set(schema) == {"required"}


def _or_null(schema: Any) -> Any:
    """``schema`` or ``null`` (a deletion), keeping the description on top for hover."""
    if not isinstance(schema, dict):
        return schema
    if _accepts_null_already(schema):
        return schema
    described = {key: schema[key] for key in ("description", "default") if key in schema}
    return {**described, "anyOf": [{"type": "null"}, schema]}


def _accepts_null_already(schema: dict[str, Any]) -> bool:
    branches = schema.get("oneOf") or schema.get("anyOf") or ()
    return any(isinstance(b, dict) and b.get("type") == "null" for b in branches)
