"""The parts of a variant written as expressions, each compiled in its context.

A part whose expression fails is left out (the failure is reported), so the other
parts and the semantic checks still run. :func:`check_expressions_of_valid_parts`
checks what it can of a file the schema refused.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping

from ..cards import Deck
from ..errors import Diagnostic, ExpressionError
from ..expr import RESERVED_NAMES
from ..limits import MAX_INT_LITERAL
from . import exprs
from .build_names import build_deck, build_options, large, number_too_large
from .build_plain import given, players_of
from .builder import Builder, KeyPath
from .model import (
    Buying, Contract, Deal, DiscardStep, DrawStep, KnockRules, MeldKind, MeldStep, OfferStep, ScoreCase, Scoring, Step,
)

__all__ = [
    "build_hand_size",
    "build_sit_out",
    "build_card_values",
    "build_melded_value",
    "build_melds",
    "build_contract",
    "build_buying",
    "build_turn",
    "build_knock",
    "build_scoring",
    "check_expressions_of_valid_parts",
]


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A name in an expression's text (also matches inside attributes; used only to
skip formulas that name a broken 'let')."""


def build_hand_size(builder: Builder, deal: Deal, envs: Any) -> Deal:
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
    count, players_range = players_of(builder.data)
    deals = builder.get("game", "deals")
    sizes = {(n, number): value for n, number, value in exprs.deal_probes(
        rule, (min(count, players_range[0]), max(count, players_range[1])), deals if isinstance(deals, int) else None)
        if isinstance(value, int) and low <= value <= high}
    first = sizes.get((count, 1), low)
    return replace(deal, hand_size=first, hand_size_rule=rule, hand_size_max=max(sizes.values(), default=high))


def build_sit_out(builder: Builder, envs: Any, deal: Deal) -> Deal:
    """``deal.sit_out`` compiled in the next-deal context (G3-1, G3-2), when it is given."""
    raw = builder.data.get("deal")
    text = raw.get("sit_out") if isinstance(raw, Mapping) else None
    if text is None:
        return deal
    compiled = builder.compile(("deal", "sit_out"), text, envs.next_deal, "player")
    return deal if compiled is None else replace(deal, sit_out=compiled)


def build_card_values(builder: Builder, deck: Deck, envs: Any) -> tuple[Any, tuple[int, ...]]:
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


def _card_values_from_table(builder: Builder, deck: Deck, table: Mapping[str, Any]) -> tuple[int, ...]:
    by_order: dict[int, int] = {}
    for key, value in table.items():
        if number_too_large(value):
            builder.error(("card_value", key), f"the value of {key!r} is {large(value)}, larger than "
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


def build_melded_value(builder: Builder, envs: Any) -> Any:
    """The compiled ``melded_value`` (melded-card context), or None when absent (R5-1)."""
    raw = builder.data.get("melded_value")
    if raw is None:
        return None
    return builder.compile(("melded_value",), raw, envs.melded, "int")


def build_melds(builder: Builder, envs: Any) -> tuple[MeldKind, ...]:
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


def build_contract(builder: Builder, envs: Any) -> Contract | None:
    raw = builder.data.get("contract")
    if not isinstance(raw, Mapping):
        return None
    compiled = builder.compile(("contract", "melds"), raw["melds"], envs.contract, "bool")
    return Contract(compiled, bool(raw.get("then_meld_same_turn", True)),
                    bool(raw.get("concealed_until_met", True)),
                    new_melds_after=bool(raw.get("new_melds_after", True)))


def build_buying(builder: Builder, envs: Any) -> Buying | None:
    """``buying:`` (CR-4): the buys per deal (a round-context integer) and the penalty cards."""
    raw = builder.data.get("buying")
    if not isinstance(raw, Mapping):
        return None
    compiled = builder.compile(("buying", "per_deal"), raw["per_deal"], envs.round, "int")
    return Buying(compiled, given(raw, "penalty_cards", Buying))


def build_turn(builder: Builder, envs: Any) -> tuple[Step, ...]:
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
            step = DrawStep(sources=tuple(given(settings, "from", DrawStep, "sources")),
                            skip_after_accepting=compiled,
                            discard_depth=given(settings, "discard_depth", DrawStep),
                            deep_draw_must_meld=given(settings, "deep_draw_must_meld", DrawStep))
        elif name == "meld":
            step = MeldStep(optional=given(settings, "optional", MeldStep),
                            add_to_own=given(settings, "add_to_own", MeldStep),
                            add_to_opponents=given(settings, "add_to_opponents", MeldStep))
        elif name == "discard":
            step = DiscardStep(taken_card=given(settings, "taken_card", DiscardStep))
        else:
            step = OfferStep(mandatory=given(settings, "mandatory", OfferStep),
                             min_hand=given(settings, "min_hand", OfferStep),
                             no_reoffer_accepted=given(settings, "no_reoffer_accepted", OfferStep))
        steps.append(step)
    return tuple(steps)


def build_knock(builder: Builder, envs: Any) -> KnockRules | None:
    raw = builder.data.get("knock")
    if not isinstance(raw, Mapping):
        return None
    compiled = None
    if raw.get("limit") is not None:  # no limit: any deadwood may knock (KR-3)
        compiled = builder.compile(("knock", "limit"), raw["limit"], envs.round, "int")
    return KnockRules(compiled, bool(raw.get("big_gin", True)))


def build_scoring(builder: Builder, envs: Any) -> Scoring:
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


def check_expressions_of_valid_parts(builder: Builder, broken: frozenset[str]) -> None:
    """With schema errors there is no variant to build, but the expressions of the
    parts the schema accepts can still be checked, so one run reports them too.

    A part is checked only when it and everything its expressions depend on (the
    deck, the options, and for some the deal and the meld kinds) passed the schema,
    so no problem is reported that only follows from another.
    """
    if "" in broken or broken & {"deck", "options"}:
        return
    deck = build_deck(builder)
    if deck is None:
        return
    before = len(builder.diagnostics)
    options = build_options(builder)
    if len(builder.diagnostics) > before:
        return
    data = builder.data
    kinds = tuple(data["melds"]) if "melds" not in broken and isinstance(data.get("melds"), Mapping) else ()
    deal = data.get("deal")
    upcard = deal.get("upcard", False) if isinstance(deal, Mapping) else None
    envs = exprs.Envs(deck=deck, options=options, meld_kinds=kinds, has_upcard=upcard is not False)
    if "card_value" not in broken and "card_value" in data:
        build_card_values(builder, deck, envs)
    if "melds" not in broken and "melds" in data:
        build_melds(builder, envs)
    if "melded_value" not in broken and "melds" not in broken:
        build_melded_value(builder, envs)
    if "contract" not in broken and "melds" not in broken:
        build_contract(builder, envs)
    if "buying" not in broken:
        build_buying(builder, envs)
    if "turn" not in broken and "turn" in data:
        build_turn(builder, envs)
    if "deal" not in broken and isinstance(deal, Mapping) and isinstance(deal.get("hand_size"), str):
        builder.compile(("deal", "hand_size"), deal["hand_size"], envs.deal, "int")
    if isinstance(upcard, bool):  # whether 'upcard' exists is known
        if "knock" not in broken:
            build_knock(builder, envs)
        if "scoring" not in broken and "scoring" in data:
            build_scoring(builder, envs)
