"""Checking, compiling and evaluating expressions in each context (RULES.md ids in test ids)."""

from __future__ import annotations

from typing import Any, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.errors import ExpressionError
from rummydsl.expr import (
    ANY,
    BOOL,
    INT,
    PLAYER,
    RANK,
    RESERVED_NAMES,
    Choice,
    Compiled,
    Context,
    Env,
    FIELDS,
    LetScope,
    RoundView,
    SimpleRoundView,
    check_expression,
    compile_expression,
    compile_lets,
    context_functions,
    context_names,
    list_of,
    reserved_names,
)

STANDARD = Deck.preset("standard52")
ACE_BOTH = Deck.from_spec({"preset": "standard52", "ace": "both"})
ACE_HIGH = Deck.from_spec({"preset": "standard52", "ace": "high"})
WRAP = Deck.from_spec({"preset": "standard52", "ace": "both", "wrap": True})
RUMSKI = Deck.preset("rumski70")
RUMSKI2 = Deck.from_spec({"preset": "rumski70", "packs": 2})

KNOCK_POINTS = Choice("sum_of_differences", ("sum_of_differences", "lowest_difference"))
OPTIONS: dict[str, Any] = {
    "gin_bonus": 25,
    "undercut_bonus": 25,
    "undercut_on_tie": True,
    "wild_value": 25,
    "knock_points": KNOCK_POINTS,
}


def env(context: Context, deck: Deck = STANDARD, **kwargs: Any) -> Env:
    kwargs.setdefault("options", OPTIONS)
    return Env(context, deck, **kwargs)


def error_of(text: str, environment: Env, expect: Any = None) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, environment, expect)
    return info.value


# -- name and type checking ------------------------------------------------------------

GOOD = [
    # (context, text, type)
    (Context.CARD, "min(order, 10)", INT),
    (Context.CARD, "rank == A ? 15 : min(order, 10)", INT),
    (Context.CARD, "rank == A ? 15 : rank in [J, Q, K] ? 10 : pips", INT),
    (Context.CARD, "wild ? wild_value : order", INT),
    (Context.CARD, "rank == 10 or rank == T or rank > 9", BOOL),
    (Context.CARD, "rank in 2..10 and rank not in [A, K]", BOOL),
    (Context.CARD, "rank in A..5", BOOL),
    (Context.CARD, "suit == S or suit != h", BOOL),
    (Context.CARD, "colour == red", BOOL),
    (Context.CARD, "colour in [red, black]", BOOL),
    (Context.CARD, "abs(order - 7) + max(1, 2, 3) // 2 % 5 * -1", INT),
    (Context.CARD, "A == rank", BOOL),
    (Context.CARD, "rank", RANK),
    (Context.CARD, "undercut_on_tie and not wild", BOOL),
    (Context.MELD, "size in 3..4 and same(rank)", BOOL),
    (Context.MELD, "size >= 3 and same(suit) and consecutive(rank)", BOOL),
    (Context.MELD, "distinct(suit) and same(colour) or distinct(colour) and naturals >= wilds", BOOL),
    (Context.CONTRACT, "count == 3 and all(size == 3)", BOOL),
    (Context.CONTRACT, "cards >= 9 and any(kind == run) and count_where(kind == set or size > 3) < 2", BOOL),
    (Context.ROUND, "upcard.rank == A ? 0 : min(10, value(upcard))", INT),
    (Context.ROUND, "upcard.suit == S and round > 1 and hand_size == 10", BOOL),
    (Context.ROUND, "sum(score(q) for q in players) + count(q == dealer for q in players)", INT),
    (Context.ROUND, "any(score(q) > 100 for q in players) or all(score(q) == 0 for q in players)", BOOL),
    (Context.SCORE, "gin_bonus + sum(deadwood(o) for o in opponents)", INT),
    (Context.SCORE, "knock and min(deadwood(o) for o in opponents) <= deadwood(ender)", BOOL),
    (Context.SCORE, "knock_points == lowest_difference", BOOL),
    (Context.SCORE, "lowest_difference != knock_points", BOOL),
    (Context.SCORE, "gin or big_gin or knock or out or stock_end", BOOL),
    (Context.SCORE, "ender in others(dealer)", BOOL),
    (Context.SCORE, "opponents", list_of(PLAYER)),
    (Context.SCORE, "max(sum(deadwood(x) for x in others(o)) for o in players)", INT),
    (Context.SCORE, "[ender, dealer]", list_of(PLAYER)),
    (Context.SCORE, "0 in []", BOOL),
    (Context.SCORE, "melded_turns(ender) <= 1", BOOL),
]


@pytest.mark.parametrize("context, text, type_", GOOD, ids=[f"{c.value}:{t}" for c, t, _ in GOOD])
def test_check_good(context: Context, text: str, type_: Any) -> None:
    checked = check_expression(text, env(context, meld_kinds=("run", "set", "poker")))
    assert checked.type == type_


BAD = [
    # (context, text, rule, message)
    (Context.CARD, "sute == S", "expr-name", "unknown name 'sute'; did you mean 'suit'?"),
    (Context.CARD, "ordr + 1", "expr-name", "unknown name 'ordr'; did you mean 'order'?"),
    (Context.CARD, "foo", "expr-name",
     "unknown name 'foo'; names here: rank, suit, colour, order, pips, wild, gin_bonus, undercut_bonus, "
     "undercut_on_tie, wild_value, knock_points"),
    (Context.CARD, "rank == X", "expr-name", "no rank 'X' in this deck (ranks: A 2 3 4 5 6 7 8 9 T J Q K)"),
    (Context.CARD, "suit == Z", "expr-name", "no suit 'Z' in this deck (suits: S H D C)"),
    (Context.CARD, "colour == blue", "expr-name", "no colour 'blue' in this deck (colours: black, red)"),
    (Context.CARD, "rank in [J, Q, X]", "expr-name", "no rank 'X' in this deck (ranks: A 2 3 4 5 6 7 8 9 T J Q K)"),
    (Context.CARD, "A + 1", "expr-name", "'A' is a rank symbol: compare it with a rank (rank == A)"),
    (Context.CARD, "S", "expr-name", "'S' is a suit symbol: compare it with a suit (suit == S)"),
    (Context.CARD, "A == K", "expr-name", "'A' is a rank symbol: compare it with a rank (rank == A)"),
    (Context.CARD, "order and wild", "expr-type", "'and' needs booleans, got int"),
    (Context.CARD, "not order", "expr-type", "'not' needs booleans, got int"),
    (Context.CARD, "rank + 1", "expr-type", "'+' needs integers, got rank (a rank's number is 'order')"),
    (Context.CARD, "-wild", "expr-type", "'-' needs integers, got bool"),
    (Context.CARD, "order ? 1 : 2", "expr-type", "the condition of '?:' needs booleans, got int"),
    (Context.CARD, "wild ? 1 : true", "expr-type", "the two branches of '?:' have different types: int and bool"),
    (Context.CARD, "suit < S", "expr-type", "'<' needs numbers or ranks, got suit"),
    (Context.CARD, "suit == rank", "expr-type", "cannot compare a suit with a rank using '=='"),
    (Context.CARD, "wild == 1", "expr-type", "cannot compare a bool with an int using '=='"),
    (Context.CARD, "order in 5", "expr-type", "'in' needs a list or a range on the right, got int"),
    (Context.CARD, "suit in 1..3", "expr-type", "a range 'a..b' holds numbers or ranks, got suit"),
    (Context.CARD, "[1, true]", "expr-type", "list items must have one type: int and bool"),
    (Context.CARD, "min()", "expr-type", "'min' needs at least one argument"),
    (Context.CARD, "abs(1, 2)", "expr-type", "'abs' takes 1 argument, got 2"),
    (Context.CARD, "mx(1, 2)", "expr-name", "unknown function 'mx'; did you mean 'max'?"),
    (Context.CARD, "deadwood(p)", "expr-name",
     "'deadwood' is not available in the card context; functions here: min, max, abs"),
    (Context.CARD, "size", "expr-name",
     "'size' is not available in the card context; names here: rank, suit, colour, order, pips, wild, "
     "gin_bonus, undercut_bonus, undercut_on_tie, wild_value, knock_points"),
    (Context.CARD, "sum(1 for x in y)", "expr-name", "there are no lists in the card context to aggregate over"),
    (Context.CARD, "min", "expr-name", "'min' is a function: write min(...)"),
    (Context.CARD, "order.rank", "expr-type", "only a card has attributes; this is an int"),
    (Context.CARD, "knock_points == lowest", "expr-name",
     "'lowest' is not a value of knock_points (sum_of_differences, lowest_difference)"),
    (Context.MELD, "same(order)", "expr-type", "same(...) takes rank, suit or colour, got 'order'"),
    (Context.MELD, "consecutive(suit)", "expr-type", "consecutive(...) takes rank, got 'suit'"),
    (Context.MELD, "same(rank, suit)", "expr-type", "'same' takes 1 argument, got 2"),
    (Context.MELD, "size >= 3 and rank == A", "expr-name",
     "'rank' is not available in the meld context; names here: size, naturals, wilds, gin_bonus, "
     "undercut_bonus, undercut_on_tie, wild_value, knock_points"),
    (Context.MELD, "sizes >= 3", "expr-name", "unknown name 'sizes'; did you mean 'size'?"),
    (Context.CONTRACT, "size == 3", "expr-name", "'size' exists only inside all(...), any(...) or count_where(...)"),
    (Context.CONTRACT, "all(kind == rn)", "expr-name", "'rn' is not a meld kind; did you mean 'run'?"),
    (Context.CONTRACT, "all(count_where(size == 3) == 1)", "expr-type",
     "count_where(...) cannot be nested inside another per-meld test"),
    (Context.CONTRACT, "all(size)", "expr-type", "'all' needs booleans, got int"),
    (Context.ROUND, "deadwood(dealer)", "expr-name",
     "'deadwood' is not available in the round context; functions here: min, max, abs, value, score, "
     "distance, sum, count, any, all"),
    (Context.ROUND, "melded_turns(dealer)", "expr-name",
     "'melded_turns' is not available in the round context; functions here: min, max, abs, value, score, "
     "distance, sum, count, any, all"),
    (Context.SCORE, "melded_turns(upcard)", "expr-type", "'melded_turns' needs player, got card"),
    (Context.ROUND, "upcard.rnk == A", "expr-name", "a card has no attribute 'rnk'; did you mean 'rank'?"),
    (Context.ROUND, "upcard.name", "expr-name",
     "a card has no attribute 'name'; a card has rank, suit, colour, order, pips, wild"),
    (Context.ROUND, "value(dealer)", "expr-type", "'value' needs card, got player"),
    (Context.ROUND, "sum(q for q in players)", "expr-type", "'sum' needs integers, got player"),
    (Context.ROUND, "sum(score(q) for q in round)", "expr-type",
     "'sum(... for q in ...)' needs a list after 'in', got int"),
    (Context.ROUND, "sum(1 for round in players)", "expr-name",
     "loop variable 'round' hides the name 'round'; choose another name"),
    (Context.ROUND, "sum(players)", "expr-type", "'sum' works on a list: write sum(e for x in xs)"),
    (Context.ROUND, "same(rank)", "expr-name",
     "'same' is not available in the round context; functions here: min, max, abs, value, score, "
     "distance, sum, count, any, all"),
    (Context.SCORE, "deadwood(p)", "expr-name", "'p' (the player being scored) exists only in 'points' and 'others'"),
    (Context.SCORE, "deadwood(enders)", "expr-name", "unknown name 'enders'; did you mean 'ender'?"),
    (Context.SCORE, "ender == 1", "expr-type", "cannot compare a player with an int using '=='"),
    (Context.SCORE, "knock_points == 1", "expr-type",
     "cannot compare a value of knock_points (sum_of_differences or lowest_difference) with an int using '=='"),
    (Context.SCORE, "opponents == opponents", "expr-type",
     "cannot compare a list[player] with a list[player] using '=='"),
    (Context.SCORE, "min(deadwood(o) for o in opponents) for", "expr-syntax",
     "'for' belongs inside a call: sum(e for x in xs)"),
]


@pytest.mark.parametrize("context, text, rule, message", BAD, ids=[f"{c.value}:{t}" for c, t, *_ in BAD])
def test_check_bad(context: Context, text: str, rule: str, message: str) -> None:
    error = error_of(text, env(context, meld_kinds=("run", "set", "poker")))
    assert (error.rule, error.message) == (rule, message)


def test_error_positions_point_at_the_culprit() -> None:
    error = error_of("wild and\n  (order > 3 or ordr)", env(Context.CARD))
    assert (error.line, error.column) == (2, 17)
    error = error_of("size >= 3 and size", env(Context.MELD))
    assert (error.line, error.column, error.message) == (1, 15, "'and' needs booleans, got int")


def test_upcard_needs_a_dealt_upcard() -> None:
    no_upcard = env(Context.ROUND, has_upcard=False)
    error = error_of("upcard.rank == A ? 0 : 10", no_upcard)
    assert (error.rule, error.message, error.column) == ("expr-name", "this variant deals no upcard", 1)
    error = error_of("value(upcard)", env(Context.SCORE, has_upcard=False))
    assert error.message == "this variant deals no upcard"


@pytest.mark.parametrize(
    "text, expect, message",
    [
        ("order > 3", INT, "this expression must give an int, got a bool"),
        ("order", BOOL, "this expression must give a bool, got an int"),
        ("order", "bool", "this expression must give a bool, got an int"),
    ],
)
def test_field_result_type(text: str, expect: Any, message: str) -> None:
    error = error_of(text, env(Context.CARD), expect)
    assert (error.rule, error.message) == ("expr-type", message)


def test_symbol_resolved_by_expected_type() -> None:
    compiled = compile_expression("lowest_difference", env(Context.SCORE), OPTIONS_TYPE)
    assert compiled(SimpleRoundView()) == "lowest_difference"


OPTIONS_TYPE = env(Context.SCORE).option_type("knock_points")


def test_fields_table() -> None:
    assert FIELDS["card_value"].context is Context.CARD and FIELDS["card_value"].type == INT
    assert FIELDS["melds"].type == BOOL and FIELDS["contract.melds"].context is Context.CONTRACT
    assert FIELDS["knock.limit"].context is Context.ROUND
    assert FIELDS["scoring.let"].type == ANY
    assert FIELDS["scoring.round.points"].per_player and not FIELDS["scoring.round.ender"].per_player


def test_names_and_options_used() -> None:
    compiled = compile_expression("gin_bonus + sum(deadwood(o) for o in opponents)", env(Context.SCORE), INT)
    assert compiled.names == {"gin_bonus", "sum", "deadwood", "opponents"}
    assert compiled.options == {"gin_bonus"}
    assert compiled.text == "gin_bonus + sum(deadwood(o) for o in opponents)"
    assert compiled.type == INT and compiled.context is Context.SCORE
    assert "Compiled" in repr(compiled)


def test_reserved_names() -> None:
    assert reserved_names() is RESERVED_NAMES
    for name in ("rank", "size", "kind", "upcard", "p", "gin", "deadwood", "count_where", "and", "true"):
        assert name in RESERVED_NAMES
    assert "gin_bonus" not in RESERVED_NAMES
    for context in Context:
        if context is Context.REWARD:  # not a variant's: its own names stay free for options and lets
            assert {"points", "total", "turns", "undercut", "void"}.isdisjoint(RESERVED_NAMES)
            continue
        assert set(context_names(context, True)) <= RESERVED_NAMES
        assert set(context_functions(context)) <= RESERVED_NAMES


def test_options_may_be_model_objects() -> None:
    class Option:  # the shape of rummydsl.variant.model.Option
        def __init__(self, value: Any, one_of: Any = None) -> None:
            self.value, self.one_of = value, one_of

    options = {"limit": Option(10), "flag": Option(True), "mode": Option("a", ("a", "b"))}
    e = Env(Context.ROUND, STANDARD, options=options)
    compiled = compile_expression("mode == b ? 0 : flag ? limit : 1", e, INT)
    assert compiled(SimpleRoundView()) == 10
    assert compiled.constant


def test_choice_value_must_be_allowed() -> None:
    with pytest.raises(ValueError):
        Choice("c", ("a", "b"))


# -- card context ---------------------------------------------------------------------

CARD_VALUES = [
    # (rule id, deck, expression, {card: value})
    ("GR-1", STANDARD, "min(order, 10)", {"AS": 1, "2H": 2, "7D": 7, "TC": 10, "JS": 10, "QH": 10, "KD": 10}),
    ("SK-1", STANDARD, "rank == A ? 15 : min(order, 10)", {"AS": 15, "5C": 5, "TD": 10, "KH": 10}),
    ("SK-1-design", STANDARD, "rank == A ? 15 : rank in [J, Q, K] ? 10 : pips",
     {"AH": 15, "9S": 9, "10S": 10, "JC": 10, "KD": 10}),
    ("GS-1.3", RUMSKI, "wild ? wild_value : order", {"1R": 1, "9G": 9, "13Y": 13, "*": 25}),
    ("GS-1.3-cap", RUMSKI, "wild ? wild_value : min(order, 10)", {"12B": 10, "*": 25}),
    ("pips", STANDARD, "pips", {"AS": 1, "TS": 10, "JS": 11, "KS": 13}),
    ("colour", STANDARD, "colour == red ? 1 : 0", {"AH": 1, "AD": 1, "AS": 0, "AC": 0}),
    ("suit", STANDARD, "suit == h ? 1 : suit == S ? 2 : 0", {"2H": 1, "2S": 2, "2D": 0}),
    ("order-vs-rank", STANDARD, "rank >= J ? 1 : rank > 9 ? 2 : 3", {"QS": 1, "TS": 2, "9S": 3}),
    ("range-of-ranks", STANDARD, "rank in 2..T ? 1 : 0", {"AS": 0, "2S": 1, "TS": 1, "JS": 0}),
    ("GS-wild-none", RUMSKI, "rank == 1 or suit == R or colour == red ? 1 : order + pips", {"*": 0, "1B": 1, "5R": 1}),
]


@pytest.mark.parametrize("rule, deck, text, values", CARD_VALUES, ids=[c[0] for c in CARD_VALUES])
def test_card_values(rule: str, deck: Deck, text: str, values: Mapping[str, int]) -> None:
    compiled = compile_expression(text, env(Context.CARD, deck), INT)
    for card, value in values.items():
        assert compiled(deck.parse_card(card)) == value, card
        assert compiled.fn(deck.parse_card(card)) == value


def test_card_booleans_skip_after_accepting() -> None:
    """SK-7.3: accepting an offered ace forfeits the next draw (a card-context condition)."""
    compiled = compile_expression("rank == A", env(Context.CARD), BOOL)
    assert compiled(STANDARD.parse_card("AD")) is True
    assert compiled(STANDARD.parse_card("KD")) is False


def test_division() -> None:
    compiled = compile_expression("order // 3 + order % 3 * 10 + -7 // 2", env(Context.CARD), INT)
    assert compiled(STANDARD.parse_card("8S")) == 2 + 20 - 4  # // and % round down
    for text in ("order // (order - order)", "10 % 0", "order // 0"):
        compiled = compile_expression(text, env(Context.CARD), INT)
        with pytest.raises(ExpressionError) as info:
            compiled(STANDARD.parse_card("8S"))
        assert (info.value.rule, info.value.message) == ("expr-runtime", "division by zero")


def test_division_by_zero_position() -> None:
    compiled = compile_expression("1 +\n  order // 0", env(Context.CARD), INT)
    with pytest.raises(ExpressionError) as info:
        compiled(STANDARD.parse_card("8S"))
    assert (info.value.line, info.value.column) == (2, 3)


def test_constant_folding() -> None:
    compiled = compile_expression("gin_bonus * 2 + (undercut_on_tie ? 1 : order)", env(Context.CARD), INT)
    assert compiled.constant and compiled(STANDARD.parse_card("8S")) == 51
    compiled = compile_expression("undercut_on_tie or wild", env(Context.CARD), BOOL)
    assert compiled.constant
    compiled = compile_expression("not undercut_on_tie and wild", env(Context.CARD), BOOL)
    assert compiled.constant and compiled(STANDARD.parse_card("8S")) is False


# -- meld context ----------------------------------------------------------------------

SET = "size in 3..4 and same(rank)"
RUN = "size >= 3 and same(suit) and consecutive(rank)"
POKER = "size >= 3 and consecutive(rank) and not same(suit)"
GS_SET = "size >= 3 and naturals >= 1 and same(rank) and distinct(suit)"
GS_RUN = "size >= 3 and naturals >= 1 and same(suit) and consecutive(rank)"

MELDS = [
    # (rule id, deck, pattern, cards, legal)
    ("GR-3.1-set", STANDARD, SET, "7C 7S 7D", True),
    ("GR-3.1-set4", STANDARD, SET, "7C 7S 7D 7H", True),
    ("GR-3.1-two", STANDARD, SET, "7C 7S", False),
    ("GR-3.1-mixed", STANDARD, SET, "7C 7S 8D", False),
    ("GR-3.2-A23", STANDARD, RUN, "AH 2H 3H", True),
    ("GR-3.2-QKA", STANDARD, RUN, "QH KH AH", False),
    ("GR-3.2-KA2", STANDARD, RUN, "KH AH 2H", False),
    ("GR-3.2-long", STANDARD, RUN, "5H 6H 7H 8H 9H", True),
    ("GR-3.2-unordered", STANDARD, RUN, "9H 7H 8H", True),
    ("GR-3.2-gap", STANDARD, RUN, "5H 6H 8H", False),
    ("GR-3.2-suits", STANDARD, RUN, "5H 6S 7H", False),
    ("GR-3.2-all13", STANDARD, RUN, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", True),
    ("SK-1-QKA", ACE_BOTH, RUN, "QH KH AH", True),
    ("SK-1-A23", ACE_BOTH, RUN, "AH 2H 3H", True),
    ("SK-1-KA2", ACE_BOTH, RUN, "KH AH 2H", False),
    ("SK-1-2toA", ACE_BOTH, RUN, "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", True),
    ("SK-3.3-poker", ACE_BOTH, POKER, "3S 4C 5C", True),
    ("SK-3.3-not-run", ACE_BOTH, RUN, "3S 4C 5C", False),
    ("SK-3.3-one-suit", ACE_BOTH, POKER, "3C 4C 5C", False),
    ("SK-3.3-gap", ACE_BOTH, POKER, "3S 4C 6C", False),
    ("SK-3.4-grown", ACE_BOTH, POKER, "3S 4S 5S 6H", True),
    ("SK-11-poker", ACE_BOTH, POKER, "3H 4S 5H 6D", True),
    ("SK-1-poker-QKA", ACE_BOTH, POKER, "QS KH AH", True),
    ("ace-high-QKA", ACE_HIGH, RUN, "QH KH AH", True),
    ("ace-high-A23", ACE_HIGH, RUN, "AH 2H 3H", False),
    ("wrap-KA2", WRAP, RUN, "KH AH 2H", True),
    ("wrap-QKA23", WRAP, RUN, "QH KH AH 2H 3H", True),
    ("wrap-gap", WRAP, RUN, "QH AH 3H", False),
    ("GS-3.2-set-wild", RUMSKI, GS_SET, "9G 9B *", True),
    ("GS-3.2-set-5", RUMSKI, GS_SET, "9G 9B 9R 9P 9Y", True),
    ("GS-3.2-set-6", RUMSKI, GS_SET, "9G 9B 9R 9P 9Y *", False),
    ("GS-3.2-set-wilds-over", RUMSKI, GS_SET, "9G 9B 9R 9P * *", False),
    ("GS-3.2-set-two-wilds", RUMSKI, GS_SET, "9G 9B * *", True),
    ("GS-3.2-colour-repeats", RUMSKI2, GS_SET, "9G 9G 9B", False),
    ("GS-3.3-all-wild-set", RUMSKI, GS_SET, "* * *", False),
    ("GS-3.3-all-wild-run", RUMSKI, GS_RUN, "* * *", False),
    ("GS-3.3-all-wild-no-minimum", RUMSKI, "same(rank) and consecutive(rank) and distinct(suit)", "* * *", True),
    ("GS-3.1-run", RUMSKI, GS_RUN, "4R 5R 6R", True),
    ("GS-3.3-run-end", RUMSKI, GS_RUN, "4R 5R 6R *", True),
    ("GS-3.3-run-gap", RUMSKI, GS_RUN, "* 5R 7R", True),
    ("GS-3.3-run-two-gaps", RUMSKI, GS_RUN, "5R * * 8R", True),
    ("GS-3.3-run-gap-too-wide", RUMSKI, GS_RUN, "5R * 8R", False),
    ("GS-3.3-run-top", RUMSKI, GS_RUN, "12R 13R *", True),
    ("GS-3.3-run-bottom", RUMSKI, GS_RUN, "* 1R 2R", True),
    ("GS-1.2-no-wrap", RUMSKI, GS_RUN, "12R 13R 1R", False),
    ("GS-3.3-run-all13", RUMSKI, GS_RUN, "1R * 3R 4R 5R 6R 7R 8R 9R 10R 11R 12R *", True),
    ("GS-3.3-run-too-long", RUMSKI, GS_RUN, "1R 2R 3R 4R 5R 6R 7R 8R 9R 10R 11R 12R 13R *", False),
    ("GS-3.3-run-colour", RUMSKI, GS_RUN, "4R 5B *", False),
    ("GS-run-duplicate-rank", RUMSKI2, GS_RUN, "4R 4R 5R", False),
    ("colour-same", STANDARD, "same(colour) and size == 3", "5H 7D 9H", True),
    ("colour-distinct", STANDARD, "distinct(colour)", "5H 5D", False),
    ("colour-distinct-wild", Deck.from_spec({"preset": "standard52", "wilds": 2}), "distinct(colour)", "5H 5S *", False),
    ("colour-distinct-ok", Deck.from_spec({"preset": "standard52", "wilds": 2}), "distinct(colour)", "5H *", True),
    ("counts", RUMSKI, "naturals == 2 and wilds == 1 and size == 3", "1R 2R *", True),
]


@pytest.mark.parametrize("rule, deck, pattern, cards, legal", MELDS, ids=[m[0] for m in MELDS])
def test_meld_patterns(rule: str, deck: Deck, pattern: str, cards: str, legal: bool) -> None:
    compiled = compile_expression(pattern, env(Context.MELD, deck), BOOL)
    group = deck.parse_cards(cards.split())
    assert compiled(group) is legal
    assert compiled(tuple(reversed(group))) is legal


def _naive_consecutive(deck: Deck, cards: list[Any]) -> bool:
    """consecutive(rank) by brute force: try every window and every choice of ace position."""
    n = len(deck.ranks)
    size = len(cards)
    natural = [c for c in cards if not c.wild]
    if len({c.rank for c in natural}) != len(natural) or size > n:
        return False
    if deck.wrap:
        for start in range(n):
            window = {(start + k) % n + 1 for k in range(size)}
            if all(c.rank.order in window for c in natural):
                return True
        return False
    top = deck.max_sequence_position
    for start in range(1, top - size + 2):
        window = set(range(start, start + size))
        if all(any(p in window for p in deck.sequence_positions(c.rank)) for c in natural):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([STANDARD, ACE_BOTH, ACE_HIGH, WRAP, Deck.from_spec({"preset": "rumski70", "packs": 2})]),
    st.data(),
)
def test_consecutive_matches_brute_force(deck: Deck, data: st.DataObject) -> None:
    pool = [c for c in deck.cards if c.wild or c.suit.index == 0]
    cards = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=8, unique=True))
    compiled = compile_expression("consecutive(rank)", env(Context.MELD, deck), BOOL)
    assert compiled(cards) == _naive_consecutive(deck, cards)


# -- contract context -------------------------------------------------------------------


def _melds(*groups: tuple[str, str]) -> list[tuple[str, tuple[Any, ...]]]:
    return [(kind, STANDARD.parse_cards(cards.split())) for kind, cards in groups]


CONTRACTS = [
    ("SK-5.2", "count == 3 and all(size == 3)",
     _melds(("set", "7C 7S 7D"), ("run", "2H 3H 4H"), ("poker", "5S 6C 7H")), True),
    ("SK-5.2-two", "count == 3 and all(size == 3)", _melds(("set", "7C 7S 7D"), ("run", "2H 3H 4H")), False),
    ("SK-5.2-four", "count == 3 and all(size == 3)",
     _melds(("set", "7C 7S 7D 7H"), ("run", "2H 3H 4H"), ("poker", "5S 6C 7D")), False),
    ("SK-5.2-cards", "cards == 9 and count == 3",
     _melds(("set", "7C 7S 7D"), ("run", "2H 3H 4H"), ("poker", "5S 6C 7H")), True),
    ("kinds", "count_where(kind == run) >= 2 and any(kind == set) and not any(kind == poker)",
     _melds(("run", "2H 3H 4H"), ("set", "9C 9S 9D"), ("run", "5S 6S 7S")), True),
    ("kinds-missing", "any(kind == set)", _melds(("run", "2H 3H 4H")), False),
    ("empty", "count == 0 and cards == 0 and all(size > 5) and not any(size > 0)", [], True),
]


@pytest.mark.parametrize("rule, text, melds, expected", CONTRACTS, ids=[c[0] for c in CONTRACTS])
def test_contracts(rule: str, text: str, melds: list[Any], expected: bool) -> None:
    compiled = compile_expression(text, env(Context.CONTRACT, meld_kinds=("set", "run", "poker")), BOOL)
    assert compiled(melds) is expected


# -- round and score contexts -----------------------------------------------------------

GIN_VALUE = compile_expression("min(order, 10)", env(Context.CARD), INT)


def test_round_view_protocol() -> None:
    assert isinstance(SimpleRoundView(), RoundView)


OKLAHOMA_OPTIONS: dict[str, Any] = {
    "oklahoma": True,
    "oklahoma_ace": Choice("gin_only", ("gin_only", "one")),
    "knock_limit": 10,
    "spade_double": True,
}
KNOCK_LIMIT = "oklahoma ? (upcard.rank == A ? (oklahoma_ace == gin_only ? 0 : 1) : value(upcard)) : knock_limit"


@pytest.mark.parametrize(
    "rule, options, upcard, limit",
    [
        ("GR-12.1", {}, "7S", 7),
        ("GR-12.1-face", {}, "KD", 10),
        ("GR-12.2-gin-only", {}, "AH", 0),
        ("GR-12.2-one", {"oklahoma_ace": Choice("one", ("gin_only", "one"))}, "AH", 1),
        ("GR-6.1", {"oklahoma": False}, "7S", 10),
    ],
)
def test_knock_limit_oklahoma(rule: str, options: dict[str, Any], upcard: str, limit: int) -> None:
    e = Env(Context.ROUND, STANDARD, options={**OKLAHOMA_OPTIONS, **options})
    compiled = compile_expression(KNOCK_LIMIT, e, INT)
    view = SimpleRoundView(upcard=STANDARD.parse_card(upcard), card_value=GIN_VALUE)
    assert compiled(view) == limit


def test_round_names() -> None:
    e = env(Context.ROUND)
    view = SimpleRoundView(players=("P1", "P2", "P3"), dealer="P2", round=4, hand_size=7,
                           upcard=STANDARD.parse_card("QS"), scores={"P1": 30, "P3": 12}, card_value=GIN_VALUE)
    cases = {
        "round * 100 + hand_size": 407,
        "sum(score(q) for q in players)": 42,
        "max(score(q) for q in players)": 30,
        "min(score(q) for q in players)": 0,
        "count(score(q) > 0 for q in players)": 2,
        "count(q == dealer for q in players)": 1,
        "upcard.order + upcard.pips + value(upcard)": 12 + 12 + 10,
        "upcard.suit == S and upcard.colour == black and not upcard.wild ? 1 : 0": 1,
        "max(0 for q in [])": 0,
    }
    for text, value in cases.items():
        assert compile_expression(text, e)(view) == value, text
    assert compile_expression("any(score(q) > 25 for q in players)", e)(view) is True
    assert compile_expression("all(score(q) > 25 for q in players)", e)(view) is False
    assert compile_expression("all(score(q) > 25 for q in [])", e)(view) is True
    assert compile_expression("dealer in players and dealer not in [upcard.rank == Q ? dealer : dealer]",
                              e, BOOL)(view) is False


def test_no_card_at_runtime() -> None:
    compiled = compile_expression("upcard.rank == A", env(Context.ROUND), BOOL)
    with pytest.raises(ExpressionError) as info:
        compiled(SimpleRoundView(upcard=None))
    assert info.value.rule == "expr-runtime"


# GR-9 as a variant writes it (docs/language.md "scoring").
GR_OPTIONS: dict[str, Any] = {
    "gin_bonus": 25,
    "big_gin_bonus": 31,
    "undercut_bonus": 25,
    "undercut_on_tie": True,
    "spade_double": False,
}
GR_LETS = {"k": "deadwood(ender)", "d": "min(deadwood(o) for o in opponents)"}
GR_CASES = [
    {"when": "gin", "ender": "gin_bonus + sum(deadwood(o) for o in opponents)"},
    {"when": "big_gin", "ender": "big_gin_bonus + sum(deadwood(o) for o in opponents)"},
    {"when": "knock and (d < k or d == k and undercut_on_tie)",
     "others": "deadwood(p) == d ? k - d + undercut_bonus : 0"},
    {"when": "knock and d > k", "ender": "sum(max(deadwood(o) - k, 0) for o in opponents)"},
]
GR_MULTIPLIER = "spade_double and upcard.suit == S ? 2 : 1"

# GS-7 (three players).
GS_OPTIONS: dict[str, Any] = {
    "ginski_bonus": 25,
    "big_ginski_bonus": 31,
    "undercut_bonus": 25,
    "undercut_on_tie": False,
    "knock_points": KNOCK_POINTS,
}
GS_LETS = {
    "e": "deadwood(ender)",
    "m": "min(deadwood(o) for o in opponents)",
    "undercut": "m < e or m == e and undercut_on_tie",
}
GS_CASES = [
    {"when": "gin", "ender": "ginski_bonus + sum(deadwood(o) for o in opponents)"},
    {"when": "big_gin", "ender": "big_ginski_bonus + sum(deadwood(o) for o in opponents)"},
    {"when": "knock and undercut", "others": "deadwood(p) == m ? e - m + undercut_bonus : 0"},
    {"when": "knock",
     "ender": "knock_points == sum_of_differences ? sum(max(deadwood(o) - e, 0) for o in opponents) : m - e"},
]


def score_round(options: Mapping[str, Any], lets: Mapping[str, str], cases: list[dict[str, str]],
                view: SimpleRoundView, multiplier: str = "1", deck: Deck = STANDARD) -> dict[Any, int]:
    """A tiny scorer over the compiled formulas, as the engine will do it."""
    base = Env(Context.SCORE, deck, options=options, has_upcard=view.upcard is not None)
    scope = compile_lets(lets, base)
    values = scope.evaluate(view)
    factor = compile_expression(multiplier, scope.env_for(False), INT)(view, lets=values)
    points = {player: 0 for player in view.players}
    for case in cases:
        when = compile_expression(case["when"], scope.env_for(False), BOOL)
        if not when(view, lets=values):
            continue
        if "ender" in case:
            points[view.ender] = compile_expression(case["ender"], scope.env_for(False), INT)(view, lets=values)
        if "others" in case:
            others = compile_expression(case["others"], scope.env_for(True), INT)
            for player in view.others(view.ender):
                points[player] = others(view, player, values)
        break
    return {player: value * factor for player, value in points.items()}


def gr_view(ending: str, k: int, d: int, upcard: str | None = None) -> SimpleRoundView:
    return SimpleRoundView(players=("P1", "P2"), dealer="P2", ender="P1", ending=ending,
                           deadwoods={"P1": k, "P2": d},
                           upcard=STANDARD.parse_card(upcard) if upcard else None, card_value=GIN_VALUE)


@pytest.mark.parametrize(
    "rule, options, view, expected",
    [
        ("GR-15-knock", {}, gr_view("knock", 7, 17), {"P1": 10, "P2": 0}),
        ("GR-15-oklahoma-spade", {"spade_double": True}, gr_view("knock", 7, 17, "7S"), {"P1": 20, "P2": 0}),
        ("GR-15-oklahoma-heart", {"spade_double": True}, gr_view("knock", 7, 17, "7H"), {"P1": 10, "P2": 0}),
        ("GR-15-gin", {}, gr_view("gin", 0, 30), {"P1": 55, "P2": 0}),
        ("GR-15-big-gin", {}, gr_view("big_gin", 0, 30), {"P1": 61, "P2": 0}),
        ("GR-9.3-gin-not-undercut", {}, gr_view("gin", 0, 0), {"P1": 25, "P2": 0}),
        ("GR-15-undercut", {}, gr_view("knock", 8, 5), {"P1": 0, "P2": 28}),
        ("GR-15-tie", {}, gr_view("knock", 6, 6), {"P1": 0, "P2": 25}),
        ("GR-9.2-tie-off", {"undercut_on_tie": False}, gr_view("knock", 6, 6), {"P1": 0, "P2": 0}),
        ("GR-9.2-bonus-10", {"undercut_bonus": 10}, gr_view("knock", 8, 5), {"P1": 0, "P2": 13}),
    ],
)
def test_gin_rummy_scoring(rule: str, options: dict[str, Any], view: SimpleRoundView,
                           expected: dict[str, int]) -> None:
    opts = {**GR_OPTIONS, **options}
    assert score_round(opts, GR_LETS, GR_CASES, view, GR_MULTIPLIER if view.upcard else "1") == expected


def gs_view(ending: str, a: int, b: int, c: int) -> SimpleRoundView:
    return SimpleRoundView(players=("A", "B", "C"), dealer="A", ender="B", ending=ending,
                           deadwoods={"A": a, "B": b, "C": c})


@pytest.mark.parametrize(
    "rule, options, view, expected",
    [
        ("GS-8-knock", {}, gs_view("knock", 26, 2, 48), {"A": 0, "B": 70, "C": 0}),
        ("GS-8-lowest-difference", {"knock_points": Choice("lowest_difference", KNOCK_POINTS.one_of)},
         gs_view("knock", 26, 2, 48), {"A": 0, "B": 24, "C": 0}),
        ("GS-8-undercut", {}, gs_view("knock", 1, 2, 48), {"A": 26, "B": 0, "C": 0}),
        ("GS-7.4-tie-not-undercut", {}, gs_view("knock", 2, 2, 48), {"A": 0, "B": 46, "C": 0}),
        ("GS-7.4-tie-undercut", {"undercut_on_tie": True}, gs_view("knock", 2, 2, 2), {"A": 25, "B": 0, "C": 25}),
        ("GS-7.1-ginski", {}, gs_view("gin", 26, 0, 48), {"A": 0, "B": 99, "C": 0}),
        ("GS-7.2-big-ginski", {}, gs_view("big_gin", 26, 0, 48), {"A": 0, "B": 105, "C": 0}),
        ("GS-8-wild-in-hand", {}, gs_view("knock", 26 + 25, 2, 48), {"A": 0, "B": 95, "C": 0}),
    ],
)
def test_ginski_scoring(rule: str, options: dict[str, Any], view: SimpleRoundView,
                        expected: dict[str, int]) -> None:
    assert score_round({**GS_OPTIONS, **options}, GS_LETS, GS_CASES, view, deck=RUMSKI) == expected


def test_sk_10_3_stock_end() -> None:
    """SK-11: stock-low end, P1 holds 21, P2 holds 7: P2 scores 14; a tie scores nothing (SK-10.3)."""
    e = Env(Context.SCORE, STANDARD, per_player=True, has_upcard=False)
    points = compile_expression(
        "stock_end and deadwood(p) < min(deadwood(o) for o in others(p)) ? "
        "min(deadwood(o) for o in others(p)) - deadwood(p) : 0", e, INT)
    view = SimpleRoundView(players=("P1", "P2"), ender="P2", ending="stock_end", deadwoods={"P1": 21, "P2": 7})
    assert [points(view, p) for p in ("P1", "P2")] == [0, 14]
    tie = SimpleRoundView(players=("P1", "P2"), ender="P2", ending="stock_end", deadwoods={"P1": 7, "P2": 7})
    assert [points(tie, p) for p in ("P1", "P2")] == [0, 0]


# -- lets ----------------------------------------------------------------------------


def test_lets_types_and_order() -> None:
    scope = compile_lets({"k": "deadwood(ender)", "low": "min(deadwood(o) for o in opponents)",
                          "under": "low <= k", "who": "ender", "rest": "others(ender)"}, env(Context.SCORE))
    assert dict(scope.env.lets) == {"k": INT, "low": INT, "under": BOOL, "who": PLAYER, "rest": list_of(PLAYER)}
    view = SimpleRoundView(players=("P1", "P2", "P3"), ender="P1", ending="knock",
                           deadwoods={"P1": 9, "P2": 4, "P3": 20})
    assert scope.evaluate(view) == {"k": 9, "low": 4, "under": True, "who": "P1", "rest": ("P2", "P3")}
    compiled = compile_expression("under and p in rest and deadwood(p) == low ? k - low : 0",
                                  scope.env_for(per_player=True), INT)
    values = scope.evaluate(view)
    assert [compiled(view, p, values) for p in view.players] == [0, 5, 0]
    assert compiled.names >= {"under", "rest", "low", "k", "p"}


@pytest.mark.parametrize(
    "lets, message",
    [
        ({"k": "low", "low": "1"}, "unknown name 'low'; names here:"),
        ({"rank": "1"}, "'let' name 'rank' is a built-in name; choose another"),
        ({"gin_bonus": "1"}, "'let' name 'gin_bonus' is also an option; choose another"),
        ({"k": "deadwood(p)"}, "'p' (the player being scored) exists only in 'points' and 'others'"),
        ({"k": "A"}, "'A' is a rank symbol: compare it with a rank (rank == A)"),
    ],
)
def test_let_errors(lets: dict[str, str], message: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_lets(lets, env(Context.SCORE))
    assert info.value.message.startswith(message)
    assert info.value.rule == "expr-name"


def test_let_defined_twice() -> None:
    scope = LetScope(env(Context.SCORE)).add("k", "1")
    with pytest.raises(ExpressionError, match="defined twice"):
        scope.add("k", "2")


def test_runtime_needs_p_and_lets() -> None:
    scope = compile_lets({"k": "deadwood(ender)"}, env(Context.SCORE))
    compiled = compile_expression("deadwood(p) - k", scope.env_for(True), INT)
    view = SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 3, "P2": 10})
    assert compiled(view, "P2", scope.evaluate(view)) == 7
    for args in ((view, None, {"k": 3}), (view, "P2", None)):
        with pytest.raises(ExpressionError) as info:
            compiled(*args)
        assert info.value.rule == "expr-runtime"


# -- only ExpressionError escapes -------------------------------------------------------

TOKENS = [
    "rank", "suit", "colour", "order", "pips", "wild", "size", "naturals", "wilds", "count", "cards",
    "kind", "upcard", "dealer", "round", "players", "ender", "opponents", "gin", "knock", "p", "o",
    "gin_bonus", "knock_points", "lowest_difference", "run", "A", "K", "S", "red", "X", "10", "0", "3",
    "true", "false", "and", "or", "not", "in", "for", "?", ":", "==", "<", ">=", "+", "-", "*", "//",
    "%", "..", ".", ",", "(", ")", "[", "]", "min", "max", "abs", "sum", "any", "all", "same",
    "distinct", "consecutive", "count_where", "value", "score", "deadwood", "others",
]
ENVS = [
    env(Context.CARD),
    env(Context.MELD, RUMSKI),
    env(Context.CONTRACT, meld_kinds=("run", "set")),
    env(Context.ROUND, has_upcard=False),
    env(Context.SCORE, per_player=True),
]
HAND = STANDARD.parse_cards("AS 7H KD".split())
VIEW = SimpleRoundView(players=("P1", "P2"), ender="P1", ending="knock", upcard=STANDARD.parse_card("7S"),
                       deadwoods={"P1": 3, "P2": 9}, card_value=GIN_VALUE)


def _run(compiled: Compiled, environment: Env) -> None:
    context = environment.context
    if context is Context.CARD:
        for card in HAND:
            compiled(card)
    elif context is Context.MELD:
        compiled(RUMSKI.parse_cards("4R 5R *".split()))
    elif context is Context.CONTRACT:
        compiled(_melds(("run", "2H 3H 4H"), ("set", "9C 9S 9D")))
    else:
        compiled(VIEW, "P2")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14), st.sampled_from(ENVS))
def test_fuzz_check_and_run_only_expression_errors(tokens: list[str], environment: Env) -> None:
    text = " ".join(tokens)
    try:
        compiled = compile_expression(text, environment)
    except ExpressionError as error:
        assert error.rule in ("expr-syntax", "expr-limit", "expr-depth", "expr-name", "expr-type")
        return
    try:
        _run(compiled, environment)
    except ExpressionError as error:
        assert error.rule == "expr-runtime"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.sampled_from(ENVS))
def test_fuzz_text_check_only_expression_errors(text: str, environment: Env) -> None:
    try:
        check_expression(text, environment)
    except ExpressionError:
        pass
