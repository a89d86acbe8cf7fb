"""From a merged YAML tree to a :class:`Variant`: schema, deck, expressions, semantics.

Checking runs in stages, and every stage collects all of its problems before the
next one starts:

1. the JSON Schema (structure and types; a tree that fails it is not built further);
2. the deck (symbols, packs, wild cards);
3. options, then every expression, each in its own context (names and types);
4. semantic checks that need the whole variant: the deck holds the deal, every meld
   kind can be formed, the contract can be met, the turn can end, and warnings for
   valid but odd choices.

The stages' parts: :mod:`.builder` (the diagnostics and compiling a field),
:mod:`.build_plain` (the plain parts), :mod:`.build_names` (the deck, the options,
the checks of names), :mod:`.build_exprs` (the parts written as expressions) and
:mod:`.semantics`.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..errors import Diagnostic
from . import exprs
from .build_exprs import (
    build_buying, build_card_values, build_contract, build_hand_size, build_knock, build_melded_value, build_melds,
    build_scoring, build_sit_out, build_turn, check_expressions_of_valid_parts,
)
from .build_names import build_deck, build_options, check_names, forgotten_extends
from .build_plain import (
    build_deal, build_game, build_going_out, build_layoff, build_stock, build_void, given, parent_id, players_of,
)
from .builder import Builder
from .model import UpcardOfferRules, Variant, read_only
from .schema import invalid_roots, schema_diagnostics

__all__ = [
    "build_variant",
]


def build_variant(data: Mapping[str, Any], positions: Any, *, path: str,
                  chain: Sequence[str] = (), parent_data: Mapping[str, Any] | None = None
                  ) -> tuple[Variant | None, list[Diagnostic]]:
    """Check a merged tree and build its Variant; returns (variant or None, diagnostics)."""
    builder = Builder(data, positions)
    builder.parent_data = parent_data
    builder.diagnostics.extend(forgotten_extends(data, schema_diagnostics(data, positions)))
    if not builder.ok:
        check_expressions_of_valid_parts(builder, invalid_roots(data))
        return None, builder.diagnostics

    deck = build_deck(builder)
    options = build_options(builder)
    if deck is None or not builder.ok:
        return None, builder.diagnostics

    deal = build_deal(builder.get("deal", default={}))
    has_upcard = deal.upcard
    kinds = tuple(builder.get("melds", default={}))
    envs = exprs.Envs(deck=deck, options=options, meld_kinds=kinds, has_upcard=has_upcard)

    deal = build_hand_size(builder, deal, envs)
    card_value, card_values = build_card_values(builder, deck, envs)
    melded_value = build_melded_value(builder, envs)
    meld_kinds = build_melds(builder, envs)
    contract = build_contract(builder, envs)
    buying = build_buying(builder, envs)
    turn = build_turn(builder, envs)
    knock = build_knock(builder, envs)
    deal = build_sit_out(builder, envs, deal)
    scoring = build_scoring(builder, envs)
    game = build_game(builder.get("game", default={}))
    upcard_data = data.get("upcard_offer")
    upcard_offer = (UpcardOfferRules(after_all_pass=given(upcard_data, "after_all_pass", UpcardOfferRules))
                    if isinstance(upcard_data, Mapping) else None)
    meld_options = builder.get("meld_options", default={})
    if builder.ok:
        check_names(builder, parent_data)
    # Build the variant even if an expression failed (that part is left out), so the
    # semantic checks still report their problems in the same run.

    variant = Variant(
        id=data["id"],
        name=data["name"],
        path=path,
        description=str(data.get("description", "")).strip(),
        rules=tuple(data.get("rules", ())),
        parent=parent_id(data),
        chain=tuple(chain),
        players=players_of(data)[0],
        players_range=players_of(data)[1],
        deck=deck,
        card_value=card_value,
        card_values=card_values,
        deal=deal,
        meld_kinds=meld_kinds,
        kind_locked=bool(meld_options.get("kind_locked", False)),
        wild_unique_card=bool(meld_options.get("wild_unique_card", False)),
        contract=contract,
        upcard_offer=upcard_offer,
        buying=buying,
        turn=turn,
        knock=knock,
        layoff=build_layoff(builder.get("layoff", default={})),
        stock=build_stock(builder.get("stock", default={})),
        going_out=build_going_out(builder.get("going_out", default={})),
        deadwood_excludes_concealed_melds=bool(
            builder.get("deadwood", "excludes_concealed_melds", default=True)),
        deadwood_arrangement=builder.get("deadwood", "arrangement", default="least"),
        void=build_void(builder.get("void", default={})),
        melded_value=melded_value,
        options=MappingProxyType(options),
        scoring=scoring,
        game=game,
        data=data,
        parent_data=parent_data,
    )
    from .semantics import semantic_diagnostics

    builder.diagnostics.extend(semantic_diagnostics(variant, positions))
    if not builder.ok:
        return None, builder.diagnostics
    # What a variant keeps of the YAML trees is read-only, so that the variant, shared
    # by load_variant's cache, is the same for every caller (the checks above read the
    # plain trees).
    memo: dict[int, Any] = {}
    frozen_parent = None if parent_data is None else read_only(parent_data, memo)
    variant = replace(variant, data=read_only(data, memo), parent_data=frozen_parent,
                      card_value=read_only(card_value, memo))
    return variant, builder.diagnostics
