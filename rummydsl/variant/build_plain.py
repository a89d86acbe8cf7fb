"""The plain parts of a variant (no expressions), field by field.

Each model field is read by name: a key the schema allows and the model lacks is
left unread (tests/unit/test_schema_model.py keeps the two in step), never passed
on as Model(**user_data), where it would be a TypeError.

>>> build_layoff({"after_gin": True}).onto
'ender_melds'
>>> players_of({"players": {"count": 3, "min": 2, "max": 4}})
(3, (2, 4))
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from types import MappingProxyType
from typing import Any, Mapping

from .model import (
    Buying, Deal, DiscardStep, DrawStep, GameRules, GoingOut, LayoffRules, MeldStep, OfferStep, Stock, UpcardOfferRules, Void,
)

__all__ = [
    "given",
    "build_deal",
    "build_game",
    "build_layoff",
    "build_stock",
    "build_void",
    "build_going_out",
    "players_of",
    "parent_id",
]


def given(raw: Mapping[str, Any], key: str, model: type, field_name: str | None = None) -> Any:
    """``raw[key]`` if it is written (not null), else the default of the model's field
    ``field_name`` (``key`` if not given): the model's defaults are the only ones."""
    value = raw.get(key)
    if value is not None:
        return value
    return _DEFAULTS[model][field_name or key]


def _defaults(*models: type) -> dict[type, Mapping[str, Any]]:
    """The field defaults of each model class, by field name."""
    return {model: MappingProxyType({f.name: f.default for f in fields(model) if f.default is not MISSING})
            for model in models}


_DEFAULTS = _defaults(Deal, UpcardOfferRules, DrawStep, MeldStep, DiscardStep, OfferStep, LayoffRules, Stock, GameRules,
                      Buying, GoingOut)


def build_deal(raw: Mapping[str, Any]) -> Deal:
    size = raw["hand_size"]
    return Deal(hand_size=size if isinstance(size, int) and not isinstance(size, bool) else 1,
                upcard=given(raw, "upcard", Deal),
                first_dealer=given(raw, "first_dealer", Deal),
                rotation=given(raw, "rotation", Deal),
                void_redeal=given(raw, "void_redeal", Deal))


def build_game(raw: Mapping[str, Any]) -> GameRules:
    hollywood = raw.get("hollywood")
    match = raw.get("match")
    return GameRules(target=raw.get("target"),
                deals=raw.get("deals"),
                winner=given(raw, "winner", GameRules),
                game_bonus=given(raw, "game_bonus", GameRules),
                box_bonus=given(raw, "box_bonus", GameRules),
                shutout=given(raw, "shutout", GameRules),
                shutout_per=given(raw, "shutout_per", GameRules),
                hollywood_games=hollywood["games"] if hollywood else None,
                match_games_to_win=match["games_to_win"] if match else None)


def build_layoff(raw: Mapping[str, Any]) -> LayoffRules:
    return LayoffRules(onto=given(raw, "onto", LayoffRules), after_gin=given(raw, "after_gin", LayoffRules))


def build_stock(raw: Mapping[str, Any]) -> Stock:
    return Stock(floor=given(raw, "floor", Stock),
                 at_floor=given(raw, "at_floor", Stock),
                 final_turn_skip=tuple(given(raw, "final_turn_skip", Stock)),
                 last_discard_claim=given(raw, "last_discard_claim", Stock),
                 max_turn_overs=given(raw, "max_turn_overs", Stock))


def build_void(raw: Mapping[str, Any]) -> Void:
    return Void(at_discard_draw=raw.get("at_discard_draw"), after_throwbacks=raw.get("after_throwbacks"))


def build_going_out(raw: Mapping[str, Any]) -> GoingOut:
    return GoingOut(final_discard=given(raw, "final_discard", GoingOut))


def players_of(data: Mapping[str, Any]) -> tuple[int, tuple[int, int]]:
    """The seats played and the range the rules allow (an integer means exactly it)."""
    raw = data["players"]
    if isinstance(raw, Mapping):
        count = int(raw["count"])
        return count, (int(raw.get("min", count)), int(raw.get("max", count)))
    return int(raw), (int(raw), int(raw))


def parent_id(data: Mapping[str, Any]) -> str | None:
    """What the variant extends, as written, without a folder or a .yaml suffix."""
    parent = data.get("extends")
    if not isinstance(parent, str):
        return None
    stem = parent.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in (".yaml", ".yml"):
        stem = stem.removesuffix(suffix)
    return stem
