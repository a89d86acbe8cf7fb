"""Only rummydsl's own errors escape its public functions (docs/errors.md, "The error family").

Every public function is called with bad values of the right type (nonsense
names, paths, expressions, cards, options, round views); whatever happens, the
exception must be a :class:`~rummydsl.errors.RummyDslError` (which is also a
``ValueError``, so older ``except ValueError`` code keeps working). Wrong *types*
(an int where a string belongs) are programming errors and may raise
``TypeError`` or ``AttributeError``, as in any Python library.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummydsl
from rummydsl import errors
from rummydsl.cards import Deck
from rummydsl.errors import (
    CardError,
    ExpressionError,
    RummyDslError,
    VariantError,
)
from rummydsl.expr import (
    Choice,
    Context,
    Env,
    LetScope,
    SimpleRoundView,
    check_expression,
    compile_expression,
    parse,
    type_named,
)
from rummydsl.melds import MeldRules, melds_report
from rummydsl.scoring import final_figures, score_round
from rummydsl.variant import shipped_variant_ids
from rummydsl.variant import check_file, find_variant_path, load_variant

GIN = load_variant("gin_rummy")
GIN_RULES = MeldRules.from_variant(GIN)
STANDARD = Deck.preset("standard52")
RUMSKI = Deck.preset("rumski70")

# Text close to what people write: names, notation, operators, odd characters.
EXPR_ALPHABET = string.ascii_letters + string.digits + " _.,()[]<>=!+-*/%?:&|'\"\\\n\t\x00é♠"
names = st.text(string.ascii_letters + string.digits + "_-./ \\\x00é", max_size=24)
expressions = st.one_of(
    st.text(EXPR_ALPHABET, max_size=40),
    st.sampled_from(["size >= 3", "rank == A ? 15 : order", "deadwood(ender)", "1 // 0", "gin_bonus",
                     "sum(deadwood(o) for o in opponents)", "upcard.rank", "p", "count == 2",
                     "all(size >= 3)", "x" * 3000, "(" * 50 + "1" + ")" * 50]),
)
contexts = st.sampled_from(list(Context))
expects = st.one_of(st.none(), st.sampled_from(["int", "bool", "any", "rank", "integer", "", "list"]))


def only_family_errors(call: Callable[[], Any]) -> None:
    """Call ``call``; any exception must belong to the family (and be a ValueError)."""
    try:
        call()
    except RummyDslError as problem:
        assert isinstance(problem, ValueError), f"{type(problem).__name__} is not a ValueError"
        assert str(problem), f"{type(problem).__name__} has an empty message"
    # Anything else propagates and fails the test with its traceback.


# -- the family itself ----------------------------------------------------------------


def test_every_error_class_is_in_the_family_and_a_value_error() -> None:
    classes = [getattr(errors, name) for name in errors.__all__
               if isinstance(getattr(errors, name), type) and issubclass(getattr(errors, name), Exception)]
    assert RummyDslError in classes and len(classes) > 1
    for cls in classes:
        assert issubclass(cls, RummyDslError), cls
        if cls is not RummyDslError:
            assert issubclass(cls, ValueError), cls


def test_the_top_level_package_exports_every_error_class() -> None:
    exported = {name for name in rummydsl.__all__ if name.endswith("Error")}
    assert exported == {name for name in errors.__all__ if name.endswith("Error")}


def test_the_error_catalogue_documents_every_class() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "errors.md").read_text(encoding="utf-8")
    for name in errors.__all__:
        if name.endswith("Error"):
            assert f"`{name}`" in text, f"docs/errors.md does not describe {name}"


# -- variants ----------------------------------------------------------------------


@given(name=names)
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_loading_a_bad_name_raises_only_family_errors(name: str) -> None:
    only_family_errors(lambda: load_variant(name))
    only_family_errors(lambda: find_variant_path(name))


@given(name=names)
@settings(max_examples=100)
def test_checking_a_bad_path_gives_diagnostics_or_family_errors(name: str) -> None:
    only_family_errors(lambda: check_file(name))


@pytest.mark.parametrize("name", ["", ".", "..", "/", "gin_rumy", "Gin_Rummy", "gin rummy", "a\x00b",
                                  "variants", "variants/", "/nonexistent/x.yaml", "x" * 5000])
def test_loading_odd_names_raises_a_variant_error(name: str) -> None:
    with pytest.raises(VariantError) as caught:
        load_variant(name)
    assert caught.value.diagnostics and caught.value.diagnostics[0].location.path
    assert not str(caught.value).startswith(":")


def test_an_unknown_option_names_the_option_and_those_that_exist() -> None:
    with pytest.raises(VariantError) as caught:
        GIN.option("gin_bonsu")
    message = str(caught.value)
    assert "no option 'gin_bonsu'; did you mean 'gin_bonus'?" in message
    assert "(options: gin_bonus, big_gin_bonus, undercut_bonus, undercut_on_tie)" in message
    assert caught.value.diagnostics[0].location.path == GIN.path
    assert caught.value.diagnostics[0].rule == "option-unknown"


@given(name=st.text(max_size=20))
def test_any_option_name_gives_a_value_or_a_variant_error(name: str) -> None:
    only_family_errors(lambda: GIN.option(name))


# -- expressions ----------------------------------------------------------------------


@given(text=expressions, context=contexts, expect=expects, per_player=st.booleans())
@settings(max_examples=300)
def test_compiling_any_text_raises_only_expression_errors(text: str, context: Context, expect: str | None,
                                                         per_player: bool) -> None:
    env = Env(context, STANDARD, options={"gin_bonus": 25, "mode": Choice("a", ("a", "b"))},
              per_player=per_player)
    try:
        compile_expression(text, env, expect)
    except ExpressionError as problem:
        assert problem.rule.startswith("expr-"), problem.rule
    only_family_errors(lambda: parse(text))
    only_family_errors(lambda: check_expression(text, env, expect))


@given(text=expressions, view=st.builds(
    SimpleRoundView,
    players=st.sampled_from([("P1", "P2"), ("P1", "P2", "P3"), ()]),
    ender=st.sampled_from([None, "P1", "P4"]),
    ending=st.sampled_from(["", "gin", "knock", "stock_end", "out", "big_gin"]),
    deadwoods=st.dictionaries(st.sampled_from(["P1", "P2", "P9"]), st.integers(-5, 100), max_size=3),
))
@settings(max_examples=300)
def test_evaluating_score_expressions_raises_only_expression_errors(text: str, view: SimpleRoundView) -> None:
    env = Env(Context.SCORE, STANDARD, options={"gin_bonus": 25}, per_player=True)
    try:
        compiled = compile_expression(text, env, "int")
    except ExpressionError:
        return
    only_family_errors(lambda: compiled(view, p="P1"))
    only_family_errors(lambda: compiled(view))


@pytest.mark.parametrize(("call", "rule", "message"), [
    (lambda: type_named("integer"), "expr-type",
     "unknown type name 'integer'; expected one of int, bool, rank, suit, colour, card, player, any"),
    (lambda: compile_expression("1", Env(Context.CARD, STANDARD), "integer"), "expr-type",
     "unknown type name 'integer'; expected one of int, bool, rank, suit, colour, card, player, any"),
    (lambda: Choice("lowest_diference", ("sum_of_differences", "lowest_difference")), "option-value",
     "'lowest_diference' is not one of sum_of_differences, lowest_difference; did you mean 'lowest_difference'?"),
    (lambda: Env(Context.SCORE, STANDARD, options={"mode": "a"}), "option-value",
     "option 'mode': a value must be an integer, a boolean or a Choice, got 'a'"),
    (lambda: Env("cards", STANDARD), "expr-name",
     "unknown context 'cards'; expected one of card, meld, contract, round, deal, score, next_deal, melded, reward"),
    (lambda: Env(Context.SCORE, STANDARD, options={"gin_bonus": 25}).option_type("gin_bonsu"), "expr-name",
     "no option 'gin_bonsu' (did you mean 'gin_bonus'? options: gin_bonus)"),
    (lambda: SimpleRoundView(ending="void"), "expr-runtime",
     "a round view's ending must be one of gin, big_gin, knock, out, stock_end (or empty), got 'void'; "
     "a void round is not scored"),
    (lambda: SimpleRoundView(ending="ginn"), "expr-runtime",
     "a round view's ending must be one of gin, big_gin, knock, out, stock_end (or empty), got 'ginn'"),
    (lambda: SimpleRoundView().value(STANDARD.parse_card("AS")), "expr-runtime",
     "value(AS): this round view was given no card_value"),
    (lambda: SimpleRoundView(deadwoods={"P1": 3}).deadwood("P2"), "expr-runtime",
     "deadwood('P2'): this round view was given no deadwood for that player (given: P1)"),
    (lambda: LetScope(Env(Context.SCORE, STANDARD)).add("size", "1"), "expr-name",
     "'let' name 'size' is a built-in name; choose another"),
], ids=["type_named", "compile-expect", "Choice", "Env-option", "Env-context", "Env.option_type",
        "view-void", "view-ending", "view-value", "view-deadwood", "let-name"])
def test_expression_api_errors_name_the_bad_value(call: Callable[[], Any], rule: str, message: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        call()
    assert (caught.value.rule, caught.value.message) == (rule, message)
    assert str(caught.value) == message  # no place inside an expression: no "line:col:"


def test_a_score_formula_reading_a_missing_deadwood_raises_an_expression_error() -> None:
    view = SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 7})
    with pytest.raises(ExpressionError, match="no deadwood for that player"):
        score_round(GIN, view)


SHIPPED = [load_variant(variant_id) for variant_id in shipped_variant_ids()]
players = st.sampled_from(["P1", "P2", "P3", "P9"])


@given(variant=st.sampled_from(SHIPPED), view=st.builds(
    SimpleRoundView,
    players=st.sampled_from([("P1", "P2"), ("P1", "P2", "P3"), ("P1",), ()]),
    ender=st.one_of(st.none(), players),
    ending=st.sampled_from(["", "gin", "big_gin", "knock", "out", "stock_end"]),
    deadwoods=st.dictionaries(players, st.integers(-5, 200), max_size=4),
    scores=st.dictionaries(players, st.integers(-50, 500), max_size=4),
    contracts=st.dictionaries(players, st.booleans(), max_size=4),
))
@settings(max_examples=200, deadline=None)
def test_scoring_any_round_raises_only_family_errors(variant: Any, view: SimpleRoundView) -> None:
    only_family_errors(lambda: score_round(variant, view))


@given(variant=st.sampled_from(SHIPPED), points=st.dictionaries(players, st.integers(-50, 500), max_size=4),
       wins=st.dictionaries(players, st.integers(0, 9), max_size=4))
def test_final_figures_of_any_totals_raise_nothing(variant: Any, points: dict[str, int],
                                                     wins: dict[str, int]) -> None:
    figures = final_figures(variant, points, wins)
    assert set(figures) == set(points)


def test_final_figures_of_no_players_are_empty() -> None:
    assert final_figures(GIN, {}, {}) == {}


# -- cards and melds ------------------------------------------------------------------

cards_text = st.text(string.ascii_letters + string.digits + " *♠♥10", max_size=40)


@given(text=cards_text, deck=st.sampled_from([STANDARD, RUMSKI]))
@settings(max_examples=200)
def test_parsing_cards_raises_only_card_errors(text: str, deck: Deck) -> None:
    only_family_errors(lambda: deck.parse_card(text))
    only_family_errors(lambda: deck.parse_cards(text))


@given(name=st.text(max_size=12))
def test_an_unknown_preset_raises_a_deck_error(name: str) -> None:
    only_family_errors(lambda: Deck.preset(name))


@given(text=cards_text)
@settings(max_examples=150, deadline=None)
def test_solving_bad_hands_raises_only_card_errors(text: str) -> None:
    try:
        melds_report(GIN_RULES, text, GIN.deal.hand_size)
    except CardError:
        pass
    only_family_errors(lambda: GIN_RULES.kinds_of(text))


def test_the_error_catalogue_examples_run() -> None:
    import doctest

    path = Path(__file__).resolve().parents[2] / "docs" / "errors.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
