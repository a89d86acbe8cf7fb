"""From a merged YAML tree to a :class:`Variant`: schema, deck, expressions, semantics.

Checking runs in stages, and every stage collects all of its problems before the
next one starts:

1. the JSON Schema (structure and types; a tree that fails it is not built further);
2. the deck (symbols, packs, wild cards);
3. options, then every expression, each in its own context (names and types);
4. semantic checks that need the whole variant: the deck holds the deal, every meld
   kind can be formed, the contract can be met, the turn can end, and warnings for
   valid but odd choices.
"""

from __future__ import annotations

import re
from dataclasses import MISSING, fields, replace
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from ..cards import Deck
from ..errors import DeckError
from ..errors import Diagnostic, ExpressionError, VariantError
from ..limits import MAX_INT_LITERAL
from ..expr import RESERVED_NAMES
from ..suggest import closest, likeness
from . import exprs, load_variant, shipped_variant_ids
from .model import (
    Buying,
    Contract,
    Deal,
    DiscardStep,
    DrawStep,
    GameRules,
    GoingOut,
    KnockRules,
    LayoffRules,
    MeldKind,
    MeldStep,
    OfferStep,
    Option,
    ScoreCase,
    Scoring,
    Step,
    Stock,
    UpcardOfferRules,
    Variant,
    Void,
    read_only,
)
from .schema import invalid_roots, schema_diagnostics

__all__ = ["build_variant"]

KeyPath = tuple[str | int, ...]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A name in an expression's text (also matches inside attributes; used only to
skip formulas that name a broken 'let')."""


class _Builder:
    """Collects diagnostics while building; ``ok`` says whether any error was seen."""

    def __init__(self, data: Mapping[str, Any], positions: Any) -> None:
        self.data = data
        self.positions = positions
        self.diagnostics: list[Diagnostic] = []
        self.parent_data: Mapping[str, Any] | None = None
        """The merged tree of the parent, for a variant that extends one."""
        self.used_names: set[str] = set()
        """Every name an expression compiled so far uses (options, lets, ...)."""

    # -- reporting -------------------------------------------------------------

    def error(self, path: KeyPath, message: str, rule: str, *, at_key: bool = False) -> None:
        where = self.positions.key(path) if at_key else self.positions.value(path)
        self.diagnostics.append(Diagnostic(where, message, rule))

    def warn(self, path: KeyPath, message: str, rule: str, *, at_key: bool = False) -> None:
        where = self.positions.key(path) if at_key else self.positions.value(path)
        self.diagnostics.append(Diagnostic(where, message, rule, "warning"))

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def get(self, *path: str | int, default: Any = None) -> Any:
        node: Any = self.data
        for part in path:
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return default
        return default if node is None else node

    # -- expressions -------------------------------------------------------------

    def compile(self, path: KeyPath, text: Any, env: Any, expect: str) -> Any:
        """Compile the expression at ``path``; on failure record it and return None."""
        if isinstance(text, bool):
            text = "true" if text else "false"
        if isinstance(text, int):
            text = str(text)
        try:
            compiled = exprs.compile_field(str(text), env, expect)
        except ExpressionError as problem:
            where = self.positions.inside_scalar(path, problem.line, problem.column)
            self.diagnostics.append(Diagnostic(where, f"{problem.message}", problem.rule))
            return None
        self.used_names.update(compiled.names)
        return compiled


def build_variant(data: Mapping[str, Any], positions: Any, *, path: str,
                  chain: Sequence[str] = (), parent_data: Mapping[str, Any] | None = None
                  ) -> tuple[Variant | None, list[Diagnostic]]:
    """Check a merged tree and build its Variant; returns (variant or None, diagnostics)."""
    builder = _Builder(data, positions)
    builder.parent_data = parent_data
    builder.diagnostics.extend(_forgotten_extends(data, schema_diagnostics(data, positions)))
    if not builder.ok:
        _check_expressions_of_valid_parts(builder, invalid_roots(data))
        return None, builder.diagnostics

    deck = _build_deck(builder)
    options = _build_options(builder)
    if deck is None or not builder.ok:
        return None, builder.diagnostics

    deal = _build_deal(builder.get("deal", default={}))
    has_upcard = deal.upcard
    kinds = tuple(builder.get("melds", default={}))
    envs = exprs.Envs(deck=deck, options=options, meld_kinds=kinds, has_upcard=has_upcard)

    deal = _build_hand_size(builder, deal, envs)
    card_value, card_values = _build_card_values(builder, deck, envs)
    melded_value = _build_melded_value(builder, envs)
    meld_kinds = _build_melds(builder, envs)
    contract = _build_contract(builder, envs)
    buying = _build_buying(builder, envs)
    turn = _build_turn(builder, envs)
    knock = _build_knock(builder, envs)
    deal = _build_sit_out(builder, envs, deal)
    scoring = _build_scoring(builder, envs)
    game = _build_game(builder.get("game", default={}))
    upcard_data = data.get("upcard_offer")
    upcard_offer = (UpcardOfferRules(after_all_pass=_given(upcard_data, "after_all_pass", UpcardOfferRules))
                    if isinstance(upcard_data, Mapping) else None)
    meld_options = builder.get("meld_options", default={})
    if builder.ok:
        _check_names(builder, parent_data)
    # Build the variant even if an expression failed (that part is left out), so the
    # semantic checks still report their problems in the same run.

    variant = Variant(
        id=data["id"],
        name=data["name"],
        path=path,
        description=str(data.get("description", "")).strip(),
        rules=tuple(data.get("rules", ())),
        parent=_parent_id(data),
        chain=tuple(chain),
        players=_players(data)[0],
        players_range=_players(data)[1],
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
        layoff=_build_layoff(builder.get("layoff", default={})),
        stock=_build_stock(builder.get("stock", default={})),
        going_out=_build_going_out(builder.get("going_out", default={})),
        deadwood_excludes_concealed_melds=bool(
            builder.get("deadwood", "excludes_concealed_melds", default=True)),
        deadwood_arrangement=builder.get("deadwood", "arrangement", default="least"),
        void=_build_void(builder.get("void", default={})),
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


#: A file without ``extends`` that misses at least this many required top-level
#: keys is taken for a house rule that forgot its ``extends:``.
FORGOTTEN_EXTENDS_MISSING = 3


def _forgotten_extends(data: Mapping[str, Any], found: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The schema's problems, with the "missing required key" errors of the top level
    made one error that suggests ``extends:`` when the file looks like a house rule:
    it extends nothing and misses several required keys."""
    top = [d for d in found if d.rule == "schema-required" and d.message.endswith(" in the top level")]
    if "extends" in data or len(top) < FORGOTTEN_EXTENDS_MISSING:
        return list(found)
    missing = ", ".join(d.message.split("'")[1] for d in top)
    parent = _nearest_shipped(data)
    message = (f"missing required keys {missing}: a variant that extends nothing must give them all; "
               f"if this is a house rule, build on a variant with 'extends: {parent}'")
    merged = Diagnostic(top[0].location, message, "schema-required")
    return [merged if d is top[0] else d for d in found if d is top[0] or d not in top]


def _nearest_shipped(data: Mapping[str, Any]) -> str:
    """The shipped variant a house rule most likely means to extend: the one sharing
    the most option, ``let`` and meld names with ``data``, then the one whose id is
    most like ``data``'s id and name (``gin_rummy`` if nothing tells them apart)."""
    def names(tree: Any) -> set[str]:
        return {f"{'.'.join(map(str, section))}.{name}" for section, _ in _NAMED_SECTIONS
                for name in _section(tree, section)}

    mine = names(data)
    words = " ".join(str(data.get(key, "")) for key in ("id", "name")).lower().replace(" ", "_")
    best, best_score = "gin_rummy", (0, 0.0)
    for variant_id in shipped_variant_ids():
        try:
            theirs = load_variant(variant_id).data  # merged: with what it inherits
        except VariantError:
            continue
        alike = max((likeness(word, variant_id) for word in [words, *words.split("_")] if word), default=0.0)
        score = (len(mine & names(theirs)), alike)
        if score > best_score:
            best, best_score = variant_id, score
    return best


# -- the plain parts, field by field ---------------------------------------------------------
# Each model field is read by name: a key the schema allows and the model lacks is
# left unread (tests/unit/test_schema_model.py keeps the two in step), never passed
# on as Model(**user_data), where it would be a TypeError.


def _given(raw: Mapping[str, Any], key: str, model: type, field_name: str | None = None) -> Any:
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


_DEFAULTS = _defaults(Deal, UpcardOfferRules, DrawStep, MeldStep, DiscardStep, OfferStep, LayoffRules, Stock,
                      GameRules, Buying, GoingOut)


def _build_deal(raw: Mapping[str, Any]) -> Deal:
    size = raw["hand_size"]
    return Deal(hand_size=size if isinstance(size, int) and not isinstance(size, bool) else 1,
                upcard=_given(raw, "upcard", Deal),
                first_dealer=_given(raw, "first_dealer", Deal),
                rotation=_given(raw, "rotation", Deal),
                void_redeal=_given(raw, "void_redeal", Deal))


def _build_hand_size(builder: _Builder, deal: Deal, envs: Any) -> Deal:
    """``deal`` with its ``hand_size`` expression compiled (deal context) and worked
    out: its value at ``players.count`` in the first deal, and the most it gives over
    every allowed player count and deal. Values it cannot give (an error, a size
    outside 1..19) are left to the semantic check, which reports them in place."""
    raw = builder.get("deal", "hand_size")
    if isinstance(raw, int) and not isinstance(raw, bool):
        return deal
    low, high = exprs.HAND_SIZE_RANGE
    rule = builder.compile(("deal", "hand_size"), raw, envs.deal, "int")
    if rule is None:  # reported; the checks of hand sizes assume the most a hand can be
        return replace(deal, hand_size_max=high)
    count, players_range = _players(builder.data)
    deals = builder.get("game", "deals")
    sizes = {(n, number): value for n, number, value in exprs.deal_probes(
        rule, (min(count, players_range[0]), max(count, players_range[1])), deals if isinstance(deals, int) else None)
        if isinstance(value, int) and low <= value <= high}
    first = sizes.get((count, 1), low)
    return replace(deal, hand_size=first, hand_size_rule=rule, hand_size_max=max(sizes.values(), default=high))


def _build_sit_out(builder: _Builder, envs: Any, deal: Deal) -> Deal:
    """``deal.sit_out`` compiled in the next-deal context (G3-1, G3-2), when it is given."""
    raw = builder.data.get("deal")
    text = raw.get("sit_out") if isinstance(raw, Mapping) else None
    if text is None:
        return deal
    compiled = builder.compile(("deal", "sit_out"), text, envs.next_deal, "player")
    return deal if compiled is None else replace(deal, sit_out=compiled)


def _build_game(raw: Mapping[str, Any]) -> GameRules:
    hollywood = raw.get("hollywood")
    match = raw.get("match")
    return GameRules(target=raw.get("target"),
                     deals=raw.get("deals"),
                     winner=_given(raw, "winner", GameRules),
                     game_bonus=_given(raw, "game_bonus", GameRules),
                     box_bonus=_given(raw, "box_bonus", GameRules),
                     shutout=_given(raw, "shutout", GameRules),
                     shutout_per=_given(raw, "shutout_per", GameRules),
                     hollywood_games=hollywood["games"] if hollywood else None,
                     match_games_to_win=match["games_to_win"] if match else None)


def _build_layoff(raw: Mapping[str, Any]) -> LayoffRules:
    return LayoffRules(onto=_given(raw, "onto", LayoffRules), after_gin=_given(raw, "after_gin", LayoffRules))


def _build_stock(raw: Mapping[str, Any]) -> Stock:
    return Stock(floor=_given(raw, "floor", Stock),
                 at_floor=_given(raw, "at_floor", Stock),
                 final_turn_skip=tuple(_given(raw, "final_turn_skip", Stock)),
                 last_discard_claim=_given(raw, "last_discard_claim", Stock),
                 max_turn_overs=_given(raw, "max_turn_overs", Stock))


def _build_void(raw: Mapping[str, Any]) -> Void:
    return Void(at_discard_draw=raw.get("at_discard_draw"), after_throwbacks=raw.get("after_throwbacks"))


def _build_going_out(raw: Mapping[str, Any]) -> GoingOut:
    return GoingOut(final_discard=_given(raw, "final_discard", GoingOut))


def _check_expressions_of_valid_parts(builder: _Builder, broken: frozenset[str]) -> None:
    """With schema errors there is no variant to build, but the expressions of the
    parts the schema accepts can still be checked, so one run reports them too.

    A part is checked only when it and everything its expressions depend on (the
    deck, the options, and for some the deal and the meld kinds) passed the schema,
    so no problem is reported that only follows from another.
    """
    if "" in broken or broken & {"deck", "options"}:
        return
    deck = _build_deck(builder)
    if deck is None:
        return
    before = len(builder.diagnostics)
    options = _build_options(builder)
    if len(builder.diagnostics) > before:
        return
    data = builder.data
    kinds = tuple(data["melds"]) if "melds" not in broken and isinstance(data.get("melds"), Mapping) else ()
    deal = data.get("deal")
    upcard = deal.get("upcard", False) if isinstance(deal, Mapping) else None
    envs = exprs.Envs(deck=deck, options=options, meld_kinds=kinds, has_upcard=upcard is not False)
    if "card_value" not in broken and "card_value" in data:
        _build_card_values(builder, deck, envs)
    if "melds" not in broken and "melds" in data:
        _build_melds(builder, envs)
    if "melded_value" not in broken and "melds" not in broken:
        _build_melded_value(builder, envs)
    if "contract" not in broken and "melds" not in broken:
        _build_contract(builder, envs)
    if "buying" not in broken:
        _build_buying(builder, envs)
    if "turn" not in broken and "turn" in data:
        _build_turn(builder, envs)
    if "deal" not in broken and isinstance(deal, Mapping) and isinstance(deal.get("hand_size"), str):
        builder.compile(("deal", "hand_size"), deal["hand_size"], envs.deal, "int")
    if isinstance(upcard, bool):  # whether 'upcard' exists is known
        if "knock" not in broken:
            _build_knock(builder, envs)
        if "scoring" not in broken and "scoring" in data:
            _build_scoring(builder, envs)


def _players(data: Mapping[str, Any]) -> tuple[int, tuple[int, int]]:
    """The seats played and the range the rules allow (an integer means exactly it)."""
    raw = data["players"]
    if isinstance(raw, Mapping):
        count = int(raw["count"])
        return count, (int(raw.get("min", count)), int(raw.get("max", count)))
    return int(raw), (int(raw), int(raw))


def _parent_id(data: Mapping[str, Any]) -> str | None:
    """What the variant extends, as written, without a folder or a .yaml suffix."""
    parent = data.get("extends")
    if not isinstance(parent, str):
        return None
    stem = parent.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in (".yaml", ".yml"):
        stem = stem.removesuffix(suffix)
    return stem


def _build_deck(builder: _Builder) -> Deck | None:
    try:
        return Deck.from_spec(builder.get("deck", default={}))
    except DeckError as problem:
        path: KeyPath = ("deck", *problem.path)
        builder.error(path, str(problem.message if hasattr(problem, "message") else problem), "deck")
        return None


def _number_too_large(value: Any) -> bool:
    """Whether ``value`` is an integer an expression may not use (past :data:`MAX_INT_LITERAL`)."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT_LITERAL


def _large(value: int) -> str:
    """A large number for a message: its first 20 digits."""
    text = str(value)
    return text if len(text) <= 20 else text[:20] + "..."


def _build_options(builder: _Builder) -> dict[str, Option]:
    options: dict[str, Option] = {}
    reserved = RESERVED_NAMES
    inherited = _section(builder.parent_data, ("options",))
    for name, raw in builder.get("options", default={}).items():
        path: KeyPath = ("options", name)
        if not isinstance(raw, Mapping) and isinstance(inherited.get(name), Mapping):
            # 'gin_bonus: 30' changes the value only: the inherited rule id,
            # description and choices stay, as with '{value: 30}'.
            raw = {**inherited[name], "value": raw}
        if name in reserved:
            builder.error(path, f"option {name!r} shadows the built-in name {name!r}; choose another name",
                          "option-name", at_key=True)
            continue
        if isinstance(raw, Mapping):
            value = raw["value"]
            one_of = tuple(raw["one_of"]) if "one_of" in raw else None
            if isinstance(value, str):
                if one_of is None:
                    builder.error(path + ("value",), f"string option {name!r} needs 'one_of', the list of "
                                  "values it may take", "option-one-of")
                    continue
                if value not in one_of:
                    close = closest(value, one_of)
                    hint = f"; did you mean {close!r}?" if close else ""
                    builder.error(path + ("value",), f"option {name!r} is {value!r}, not one of "
                                  f"{', '.join(one_of)}{hint}", "option-value")
                    continue
            elif one_of is not None:
                builder.error(path + ("one_of",), f"'one_of' is for string options; {name!r} is "
                              f"{'a boolean' if isinstance(value, bool) else 'an integer'}", "option-one-of")
                continue
            if _number_too_large(value):
                builder.error(path + ("value",), f"option {name!r} is {_large(value)}, larger than "
                              f"{MAX_INT_LITERAL:,} (the largest number an expression may use)", "option-value")
                continue
            options[name] = Option(name, value, one_of, raw.get("rule"), raw.get("description"))
        elif _number_too_large(raw):
            builder.error(path, f"option {name!r} is {_large(raw)}, larger than {MAX_INT_LITERAL:,} "
                          "(the largest number an expression may use)", "option-value")
        else:
            options[name] = Option(name, raw)
    # A value of one string option must not be read as another option's name.
    for option in options.values():
        for value in option.one_of or ():
            if value in options:
                builder.error(("options", option.name, "one_of"), f"{value!r} is both a value of option "
                              f"{option.name!r} and an option's name; rename one", "option-name")
    return options


#: How alike a new name and an inherited one must be (see :func:`rummydsl.suggest.closest`)
#: to be reported as a probable misspelling: ``rn``/``run`` (0.8) are, ``k2``/``k`` (0.67) not.
NEAR_NAME_CUTOFF = 0.75

_NAMED_SECTIONS: tuple[tuple[KeyPath, str], ...] = (
    (("options",), "option"),
    (("scoring", "let"), "'let' name"),
    (("melds",), "meld kind"),
)


def _section(tree: Any, path: KeyPath) -> Mapping[str, Any]:
    """The mapping at ``path`` of ``tree``, or an empty one."""
    node = tree
    for part in path:
        node = node.get(part) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def _check_names(builder: _Builder, parent_data: Mapping[str, Any] | None) -> None:
    """Warn about names that are probably misspelt: an option or a ``let`` that no
    expression uses, and a name a house rule adds (an option, a ``let``, a meld kind)
    that is very like one it inherits, which the house rule most likely meant to
    change. Each name gets at most one warning, and only names this file writes
    are warned of. Run only when every expression compiled, so that "no
    expression uses it" is true."""
    near: set[KeyPath] = set()
    if parent_data is not None:
        for section, noun in _NAMED_SECTIONS:
            inherited = _section(parent_data, section)
            for name in _section(builder.data, section):
                if name in inherited:
                    continue
                close = closest(name, inherited, cutoff=NEAR_NAME_CUTOFF)
                if close is None:
                    continue
                near.add(section + (name,))
                builder.warn(section + (name,), f"{noun} {name!r} is new: the parent has no such name, "
                             f"and a new name does not change an inherited one; did you mean "
                             f"{close!r}?", "name-near", at_key=True)
    this_file = builder.positions.source(())
    for section, noun in _NAMED_SECTIONS[:2]:
        names = _section(builder.data, section)
        for name in names:
            if name in builder.used_names or section + (name,) in near:
                continue
            if builder.positions.source(section + (name,)) != this_file:
                continue  # inherited, and left unused by this file's formulas: its choice
            builder.warn(section + (name,), f"{noun} {name!r} is not used by any expression: "
                         "it changes nothing (remove it, or use it in a formula)",
                         "option-unused" if section == ("options",) else "let-unused", at_key=True)


def _build_card_values(builder: _Builder, deck: Deck, envs: Any) -> tuple[Any, tuple[int, ...]]:
    raw = builder.data.get("card_value")
    if isinstance(raw, Mapping):
        return raw, _card_values_from_table(builder, deck, raw)
    compiled = builder.compile(("card_value",), raw, envs.card, "int")
    if compiled is None:
        return None, ()
    values = []
    for card in deck.cards:
        try:
            values.append(int(compiled(card)))
        except ExpressionError as problem:
            builder.error(("card_value",), f"card {card}: {problem.message}", problem.rule)
            return None, ()
    return compiled, tuple(values)


def _card_values_from_table(builder: _Builder, deck: Deck, table: Mapping[str, Any]) -> tuple[int, ...]:
    by_order: dict[int, int] = {}
    for key, value in table.items():
        if _number_too_large(value):
            builder.error(("card_value", key), f"the value of {key!r} is {_large(value)}, larger than "
                          f"{MAX_INT_LITERAL:,} (the largest number an expression may use)", "card-value")
            return ()
        if key in ("default", "wild"):
            continue
        rank = deck.rank_by_symbol(str(key))
        if rank is None:
            symbols = " ".join(r.symbol for r in deck.ranks)
            builder.error(("card_value", key), f"no rank {key!r} in this deck (ranks: {symbols})",
                          "card-value", at_key=True)
            continue
        by_order[rank.order] = int(value)
    default = table.get("default", "pips")
    if deck.wilds and "wild" not in table:
        builder.error(("card_value",), "the deck has wild cards: give their value as 'wild: N'", "card-value")
    values = []
    for card in deck.cards:
        if card.wild:
            values.append(int(table.get("wild", 0)))
        elif card.rank is not None and card.rank.order in by_order:
            values.append(by_order[card.rank.order])
        elif default == "pips":
            values.append(card.rank.order if card.rank is not None else 0)
        else:
            values.append(int(default))
    return tuple(values)


def _build_melded_value(builder: _Builder, envs: Any) -> Any:
    """The compiled ``melded_value`` (melded-card context), or None when absent (R5-1)."""
    raw = builder.data.get("melded_value")
    if raw is None:
        return None
    return builder.compile(("melded_value",), raw, envs.melded, "int")


def _build_melds(builder: _Builder, envs: Any) -> tuple[MeldKind, ...]:
    kinds = []
    for name, raw in builder.get("melds", default={}).items():
        if isinstance(raw, Mapping):
            path: KeyPath = ("melds", name, "pattern")
            text, description = raw["pattern"], raw.get("description")
        else:
            path, text, description = ("melds", name), raw, None
        compiled = builder.compile(path, text, envs.meld, "bool")
        if compiled is not None:
            kinds.append(MeldKind(name, compiled, description, str(builder.positions.value(path))))
    return tuple(kinds)


def _build_contract(builder: _Builder, envs: Any) -> Contract | None:
    raw = builder.data.get("contract")
    if not isinstance(raw, Mapping):
        return None
    compiled = builder.compile(("contract", "melds"), raw["melds"], envs.contract, "bool")
    return Contract(compiled, bool(raw.get("then_meld_same_turn", True)),
                    bool(raw.get("concealed_until_met", True)),
                    new_melds_after=bool(raw.get("new_melds_after", True)))


def _build_buying(builder: _Builder, envs: Any) -> Buying | None:
    """``buying:`` (CR-4): the buys per deal (a round-context integer) and the penalty cards."""
    raw = builder.data.get("buying")
    if not isinstance(raw, Mapping):
        return None
    compiled = builder.compile(("buying", "per_deal"), raw["per_deal"], envs.round, "int")
    return Buying(compiled, _given(raw, "penalty_cards", Buying))


def _build_turn(builder: _Builder, envs: Any) -> tuple[Step, ...]:
    steps: list[Step] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(builder.get("turn", default=[])):
        if isinstance(raw, str):
            name, settings = raw, {}
        else:
            name, settings = next(iter(raw.items()))
            settings = settings or {}
        if name in seen:
            builder.error(("turn", index), f"step {name!r} appears twice in the turn (first at item "
                          f"{seen[name] + 1}); a turn has each step at most once", "turn-step")
            continue
        seen[name] = index
        step: Step
        if name == "draw":
            skip = settings.get("skip_after_accepting")
            compiled = None
            if skip is not None:
                compiled = builder.compile(("turn", index, "draw", "skip_after_accepting"), skip,
                                           envs.card, "bool")
            step = DrawStep(sources=tuple(_given(settings, "from", DrawStep, "sources")),
                            skip_after_accepting=compiled,
                            discard_depth=_given(settings, "discard_depth", DrawStep),
                            deep_draw_must_meld=_given(settings, "deep_draw_must_meld", DrawStep))
        elif name == "meld":
            step = MeldStep(optional=_given(settings, "optional", MeldStep),
                            add_to_own=_given(settings, "add_to_own", MeldStep),
                            add_to_opponents=_given(settings, "add_to_opponents", MeldStep))
        elif name == "discard":
            step = DiscardStep(taken_card=_given(settings, "taken_card", DiscardStep))
        else:
            step = OfferStep(mandatory=_given(settings, "mandatory", OfferStep),
                             min_hand=_given(settings, "min_hand", OfferStep),
                             no_reoffer_accepted=_given(settings, "no_reoffer_accepted", OfferStep))
        steps.append(step)
    return tuple(steps)


def _build_knock(builder: _Builder, envs: Any) -> KnockRules | None:
    raw = builder.data.get("knock")
    if not isinstance(raw, Mapping):
        return None
    compiled = None
    if raw.get("limit") is not None:  # no limit: any deadwood may knock (KR-3)
        compiled = builder.compile(("knock", "limit"), raw["limit"], envs.round, "int")
    return KnockRules(compiled, bool(raw.get("big_gin", True)))


def _build_scoring(builder: _Builder, envs: Any) -> Scoring:
    raw = builder.get("scoring", default={})
    scope = envs.score_scope()
    # A 'let' that fails to compile is not defined, so every formula that uses it
    # would fail again with a confusing "unknown name"; such formulas are not
    # compiled (the one real error is enough), and a 'let' among them fails too.
    failed: set[str] = set()

    def compile_unless_broken(path: KeyPath, text: Any, env: Any, expect: str) -> Any:
        if failed & set(_WORD.findall(str(text))):
            return None
        return builder.compile(path, text, env, expect)

    for name, text in (raw.get("let") or {}).items():
        path: KeyPath = ("scoring", "let", name)
        if name in RESERVED_NAMES or name in envs.option_names():
            builder.error(path, f"'let' name {name!r} shadows a built-in name or an option; choose another",
                          "let-name", at_key=True)
            failed.add(name)
            continue
        if failed & set(_WORD.findall(str(text))):
            failed.add(name)
            continue
        try:
            scope = scope.add(name, str(text))
            builder.used_names.update(scope.lets[-1][1].names)
        except ExpressionError as problem:
            failed.add(name)
            where = builder.positions.inside_scalar(path, problem.line, problem.column)
            builder.diagnostics.append(Diagnostic(where, problem.message, problem.rule))
    multiplier = None
    if raw.get("multiplier") is not None:
        multiplier = compile_unless_broken(("scoring", "multiplier"), raw["multiplier"],
                                           scope.env_for(False), "int")
    cases = []
    for index, case in enumerate(raw.get("round") or []):
        base: KeyPath = ("scoring", "round", index)
        when = compile_unless_broken(base + ("when",), case["when"], scope.env_for(False), "bool")
        points = ender = others = None
        if "points" in case:
            points = compile_unless_broken(base + ("points",), case["points"], scope.env_for(True), "int")
        if "ender" in case:
            ender = compile_unless_broken(base + ("ender",), case["ender"], scope.env_for(False), "int")
        if "others" in case:
            others = compile_unless_broken(base + ("others",), case["others"], scope.env_for(True), "int")
        if "points" not in case and "ender" not in case and "others" not in case:
            builder.warn(base, "this case gives no points ('points', 'ender' or 'others'): when it holds, "
                         "nobody scores", "score-case")
        cases.append(ScoreCase(when, points, ender, others, case.get("rule")))
    return Scoring(tuple(cases), scope.lets, multiplier)
