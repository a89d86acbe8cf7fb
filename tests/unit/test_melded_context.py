"""The melded-card context (``melded_value``) and ``melded(p)`` in the score context,
checked and compiled on their own (R5-1, R5-6)."""

from __future__ import annotations

import pytest

from rummydsl.cards import Deck
from rummydsl.errors import ExpressionError
from rummydsl.expr import INT, Context, Env, SimpleRoundView, compile_expression, context_names

DECK = Deck.from_spec({"preset": "standard52", "ace": "both"})
MELDED = Env(Context.MELDED, DECK, options={"bonus": 5}, meld_kinds=("set", "run"))


def test_the_melded_context_has_the_card_names_and_the_meld_s() -> None:
    assert set(context_names(Context.MELDED)) == {"rank", "suit", "colour", "order", "pips", "wild",
                                                   "value", "kind", "position", "size"}


@pytest.mark.parametrize(("text", "card", "frame", "expected"), [
    ("kind == run and rank == A and position == 1 ? 1 : value", "AH", (15, "run", 1, 3), 1),
    ("kind == run and rank == A and position == 1 ? 1 : value", "AH", (15, "run", 3, 3), 15),
    ("kind == run and rank == A and position == 1 ? 1 : value", "AH", (15, "set", 1, 3), 15),
    ("position * 100 + size", "7H", (7, "run", 2, 4), 204),
    ("suit == H ? value + bonus : value", "7H", (7, "set", 1, 3), 12),
    ("min(order, 10)", "KS", (10, "set", 1, 3), 10),
])
def test_melded_value_reads_the_card_and_where_it_lies(text: str, card: str, frame: tuple[int, str, int, int],
                                                       expected: int) -> None:
    fn = compile_expression(text, MELDED, INT)
    assert fn(DECK.parse_card(card), *frame) == expected


@pytest.mark.parametrize(("text", "rule", "message"), [
    ("kind == pair ? 1 : value", "expr-name", "'pair' is not a meld kind (set, run)"),
    ("value(rank)", "expr-name", "'value' is not available in the melded context"),
    ("position == A", "expr-name", "'A' is a rank symbol: compare it with a rank (rank == A)"),
    ("upcard", "expr-name", "'upcard' is not available in the melded context"),
    ("size > 2", "expr-type", "this expression must give an int, got a bool"),
])
def test_melded_value_errors(text: str, rule: str, message: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, MELDED, INT)
    assert caught.value.rule == rule
    assert message in caught.value.message


def test_melded_in_the_score_context() -> None:
    env = Env(Context.SCORE, DECK, per_player=True)
    fn = compile_expression("melded(p) - hand_value(p)", env, INT)
    view = SimpleRoundView(players=("P1", "P2"), ending="out", ender="P1",
                           melded_values={"P1": 28}, hand_values={"P1": 0, "P2": 50})
    assert (fn(view, "P1"), fn(view, "P2")) == (28, -50)
    with pytest.raises(ExpressionError, match="'melded' needs player, got card"):
        compile_expression("melded(upcard)", env, INT)
    with pytest.raises(ExpressionError, match="'melded' is not available in the round context"):
        compile_expression("melded(dealer)", Env(Context.ROUND, DECK), INT)
