"""The variant schema and the model say the same thing: every property of
spec/variant.schema.json is a field of a model class (under the same name, or a
deliberate rename listed here), every model field comes from the schema (or is
listed as the model's own), their defaults agree, and a key the model lacks can
never turn into a traceback while building."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

from rummydsl.cards import Deck, Rank, Suit
from rummydsl.variant import build, check_file
from rummydsl.variant import model as m
from rummydsl.variant.load import load_document
from rummydsl.variant.schema import variant_schema

REPO = Path(__file__).resolve().parents[2]

#: schema object (JSON pointer) -> (model class, {schema key: model field, or None
#: for a key that is deliberately not a field of that class}); keys not listed map
#: to the field of the same name. None as the class: the object is no model's.
MAPPING: dict[str, tuple[type | None, dict[str, str | None]]] = {
    "#": (m.Variant, {
        "rummydsl": None,  # the language version: checked (equal along a chain), not kept
        "extends": "parent",
        "melds": "meld_kinds",
        "meld_options": None,  # its keys are Variant fields (below)
        "deadwood": None,  # likewise
    }),
    "#/properties/players/oneOf/1": (m.Variant, {"count": "players", "min": "players_range",
                                                 "max": "players_range"}),
    "#/properties/melds/additionalProperties/oneOf/1": (m.MeldKind, {}),
    "#/properties/meld_options": (m.Variant, {}),
    "#/properties/contract/oneOf/1": (m.Contract, {}),
    "#/properties/upcard_offer/oneOf/1": (m.UpcardOfferRules, {}),
    "#/properties/knock/oneOf/1": (m.KnockRules, {}),
    "#/properties/buying/oneOf/1": (m.Buying, {}),
    "#/properties/layoff": (m.LayoffRules, {}),
    "#/properties/stock": (m.Stock, {}),
    "#/properties/going_out": (m.GoingOut, {}),
    "#/properties/deadwood": (m.Variant, {"excludes_concealed_melds": "deadwood_excludes_concealed_melds",
                                          "arrangement": "deadwood_arrangement"}),
    "#/properties/void": (m.Void, {}),
    "#/properties/options/additionalProperties/oneOf/2": (m.Option, {}),
    "#/properties/scoring": (m.Scoring, {"let": "lets", "round": "cases"}),
    "#/properties/game": (m.GameRules, {"hollywood": None, "match": None}),  # their one key each (below)
    "#/properties/game/properties/hollywood/oneOf/1": (m.GameRules, {"games": "hollywood_games"}),
    "#/properties/game/properties/match/oneOf/1": (m.GameRules, {"games_to_win": "match_games_to_win"}),
    "#/$defs/value_table": (None, {}),  # a card_value table is kept as written (Variant.card_value)
    "#/$defs/deck": (Deck, {"preset": None}),  # a preset is where suits and ranks come from
    "#/$defs/deck/properties/suits/items/oneOf/1": (Suit, {}),
    "#/$defs/deck/properties/ranks/items/oneOf/1": (Rank, {}),
    "#/$defs/deal": (m.Deal, {}),
    "#/$defs/step/oneOf/1": (None, {}),  # a step's name -> its settings (the four below)
    "#/$defs/step/oneOf/1/properties/draw/oneOf/1": (m.DrawStep, {"from": "sources"}),
    "#/$defs/step/oneOf/1/properties/meld/oneOf/1": (m.MeldStep, {}),
    "#/$defs/step/oneOf/1/properties/discard/oneOf/1": (m.DiscardStep, {}),
    "#/$defs/step/oneOf/1/properties/offer/oneOf/1": (m.OfferStep, {}),
    "#/$defs/score_case": (m.ScoreCase, {}),
}

#: Model fields that no schema property gives: derived or recorded while building.
MODEL_ONLY: dict[type, set[str]] = {
    m.Variant: {"path", "chain", "card_values", "data", "parent_data"},
    m.MeldKind: {"name", "where"},  # where: the pattern's file place, for the solver's located errors
    m.Deal: {"hand_size_rule", "hand_size_max"},  # a hand_size expression, compiled and worked out
    m.Option: {"name"},
    m.DrawStep: {"name"},
    m.MeldStep: {"name"},
    m.DiscardStep: {"name"},
    m.OfferStep: {"name"},
    Deck: {"cards", "natural_faces", "_spellings", "_rank_keys", "_suit_keys", "_positions"},
    Suit: {"index"},
    Rank: {"order"},
}


def schema_objects(node: Any = None, pointer: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object schema with ``properties``, by JSON pointer."""
    node = variant_schema() if node is None else node
    if isinstance(node, dict):
        if "properties" in node:
            yield pointer, node["properties"]
        for key, value in node.items():
            yield from schema_objects(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from schema_objects(value, f"{pointer}/{index}")


OBJECTS = dict(schema_objects())


def field_names(model: type) -> set[str]:
    return {f.name for f in dataclasses.fields(model)}


def test_every_schema_object_is_in_the_table() -> None:
    assert set(OBJECTS) == set(MAPPING), "a schema object was added or moved: map it to its model class"


def fieldless(pointer: str, properties: dict[str, Any]) -> dict[str, str]:
    """The schema keys of the object at ``pointer`` whose model field does not exist."""
    model, renames = MAPPING[pointer]
    if model is None:
        return {}
    targets = {key: renames.get(key, key) for key in properties}
    return {key: target for key, target in targets.items()
            if target is not None and target not in field_names(model)}


@pytest.mark.parametrize("pointer", sorted(OBJECTS))
def test_every_schema_property_is_a_model_field(pointer: str) -> None:
    assert set(MAPPING[pointer][1]) <= set(OBJECTS[pointer]), f"{pointer}: renames of keys the schema lacks"
    missing = fieldless(pointer, OBJECTS[pointer])
    assert not missing, f"{pointer}: schema keys with no field in {MAPPING[pointer][0]}: {missing}"


def test_a_schema_key_without_a_field_is_found() -> None:
    """The check above can fail: a deal key the model lacks is named."""
    assert fieldless("#/$defs/deal", {**OBJECTS["#/$defs/deal"], "dealer_cuts": {}}) == {
        "dealer_cuts": "dealer_cuts"}


@pytest.mark.parametrize("model", sorted({model for model, _ in MAPPING.values() if model is not None},
                                         key=lambda model: model.__name__))
def test_every_model_field_comes_from_the_schema(model: type) -> None:
    given = {renames.get(key, key) for pointer, (owner, renames) in MAPPING.items() if owner is model
             for key in OBJECTS[pointer]}
    unexplained = field_names(model) - given - MODEL_ONLY.get(model, set())
    assert not unexplained, f"{model.__name__} fields no schema key gives: {sorted(unexplained)}"


def _as_model_value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@pytest.mark.parametrize("pointer", sorted(p for p, (model, _) in MAPPING.items() if model is not None))
def test_schema_defaults_are_the_model_defaults(pointer: str) -> None:
    model, renames = MAPPING[pointer]
    assert model is not None
    defaults = {f.name: f.default for f in dataclasses.fields(model) if f.default is not dataclasses.MISSING}
    for key, sub in OBJECTS[pointer].items():
        target = renames.get(key, key)
        if "default" in sub and target in defaults:
            assert _as_model_value(sub["default"]) == defaults[target], f"{pointer}/{key}"


# -- a key the model lacks is never a traceback ------------------------------------------

GIN = load_document(str(REPO / "variants" / "gin_rummy.yaml")).data


@pytest.mark.parametrize("path, extra", [
    (("deal",), {"dealer_cuts": True}),
    (("game",), {"rounds": 3}),
    (("layoff",), {"onto_own": True}),
    (("stock",), {"reshuffle": True}),
    (("upcard_offer",), {"twice": True}),
    (("turn", 1), {"discard": {"face_down": True}}),
    (("turn", 0), {"meld": {"max": 3}}),
    (("turn", 2), {"offer": {"left": True}}),
])
def test_a_schema_key_the_model_lacks_is_ignored_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: tuple[Any, ...], extra: dict[str, Any]) -> None:
    """As if the schema had grown a key the model has not (schema and model drift):
    building reads the fields the model has, by name, never ``Model(**user_data)``."""
    monkeypatch.setattr(build, "schema_diagnostics", lambda data, positions: [])
    tree = yaml.safe_load(yaml.safe_dump(GIN))
    if path[0] == "turn":
        tree["turn"] = ["draw", {"meld": None}, {"discard": None}]
        tree["turn"][path[1]] = extra
    else:
        tree[path[0]] = {**(tree.get(path[0]) or {}), **extra}
    variant_file = tmp_path / "drift.yaml"
    variant_file.write_text(yaml.safe_dump(tree, sort_keys=False), encoding="utf-8")
    check_file(str(variant_file))  # no TypeError
