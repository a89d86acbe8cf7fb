"""``deal.sit_out``, ``deal.rotation: sitter`` and ``game.shutout_per`` (G3-1 to G3-3):
the deal context's names and types, the checker's errors and warning at their place,
and the shutout counted per loser."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummydsl.cards import Deck
from rummydsl.errors import ExpressionError
from rummydsl.expr import PLAYER, Context, NextDealView, Env, compile_expression, context_functions, context_names
from rummydsl.scoring import final_figures
from rummydsl.variant import check_file, load_variant

STANDARD = Deck.preset("standard52")
NEXT_DEAL = Env(Context.NEXT_DEAL, STANDARD, options={})
G3_FORMULA = "round == 1 ? dealer : (last_void ? last_sat_out : last_loser)"


def sit_out(text: str, view: NextDealView) -> object:
    return compile_expression(text, NEXT_DEAL, PLAYER)(view)  # type: ignore[arg-type]


# -- the deal context --------------------------------------------------------------


def test_deal_context_names_and_functions() -> None:
    assert set(context_names(Context.NEXT_DEAL)) == {"round", "dealer", "players", "last_sat_out", "last_winner",
                                                "last_loser", "last_void"}
    assert {"next", "score", "sum", "max"} <= set(context_functions(Context.NEXT_DEAL))
    assert "deadwood" not in context_functions(Context.NEXT_DEAL)


def test_g3_formula_round_by_round() -> None:
    seats = ("P1", "P2", "P3")
    assert sit_out(G3_FORMULA, NextDealView(players=seats, round=1, dealer="P2")) == "P2"
    after_win = NextDealView(players=seats, round=2, dealer="P2", last_sat_out="P2", last_winner="P1",
                         last_loser="P3")
    assert sit_out(G3_FORMULA, after_win) == "P3"
    after_void = NextDealView(players=seats, round=3, dealer="P3", last_sat_out="P3", last_void=True)
    assert sit_out(G3_FORMULA, after_void) == "P3"


def test_next_goes_round_every_seat() -> None:
    view = NextDealView(players=(0, 1, 2), round=2, dealer=2, last_sat_out=2)
    assert sit_out("next(last_sat_out)", view) == 0
    assert sit_out("next(next(dealer))", view) == 1


def test_score_and_aggregates_over_players() -> None:
    view = NextDealView(players=(0, 1, 2), round=4, dealer=0, scores={0: 30, 1: 70, 2: 10})
    # a house rule: once a total passes 50, the seat left of the dealer sits out
    text = "max(score(p) for p in players) >= 50 ? next(dealer) : dealer"
    assert sit_out(text, view) == 1
    assert sit_out(text, NextDealView(players=(0, 1, 2), round=4, dealer=0, scores={0: 30})) == 0


@pytest.mark.parametrize("name", ["last_winner", "last_loser", "last_sat_out", "last_void"])
def test_last_names_fail_in_round_one_naming_themselves(name: str) -> None:
    text = f"{name} ? dealer : dealer" if name == "last_void" else name
    with pytest.raises(ExpressionError, match=f"'{name}' has no value in round 1") as caught:
        sit_out(text, NextDealView(players=(0, 1, 2), round=1, dealer=0))
    assert caught.value.rule == "expr-runtime"


def test_winner_and_loser_fail_after_a_round_nobody_won() -> None:
    view = NextDealView(players=(0, 1, 2), round=3, dealer=0, last_sat_out=0, last_void=True)
    with pytest.raises(ExpressionError, match="round 2 had no winner"):
        sit_out("last_loser", view)


@pytest.mark.parametrize("text,message", [
    ("round", "this expression must give a player, got an int"),
    ("last_winer", "did you mean 'last_winner'"),
    ("next(round)", "'next'"),
    ("deadwood(dealer)", "not available in the next_deal context"),
    ("upcard", "'upcard' is not available in the next_deal context; names here: round, dealer, players"),
])
def test_checker_errors(text: str, message: str) -> None:
    with pytest.raises(ExpressionError, match=message):
        compile_expression(text, NEXT_DEAL, PLAYER)


# -- the checker, at the YAML line --------------------------------------------------


def write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text("rummydsl: 1\nid: house\nname: House\nextends: gin_rummy\n" + body, encoding="utf-8")
    return str(path)


def problems(path: str) -> list[str]:
    return [f"{d.location.line}:{d.location.column} {d.severity} {d.rule}: {d.message}" for d in check_file(path)]


def test_sitter_rotation_needs_sit_out(tmp_path: Path) -> None:
    found = problems(write(tmp_path, "players: 3\ndeal:\n  hand_size: 10\n  rotation: sitter\n"))
    assert found == ["8:13 error sit-out: 'rotation: sitter' deals by the player sitting out, but "
                     "'deal.sit_out' names nobody"]


def test_sit_out_needs_three_players(tmp_path: Path) -> None:
    found = problems(write(tmp_path, "deal:\n  hand_size: 10\n  sit_out: dealer\n"))
    assert found == ["7:12 error sit-out: with 2 players a seat sitting out leaves fewer than two to play: "
                     "'sit_out' needs at least 3 players"]


def test_sit_out_type_error_inside_the_expression(tmp_path: Path) -> None:
    found = problems(write(tmp_path, 'players: 3\ndeal:\n  hand_size: 10\n  sit_out: "round == 1 ? dealer : 2"\n'))
    assert found == ["8:35 error expr-type: the two branches of '?:' have different types: player and int"]


def test_round_one_reading_the_last_round_is_warned(tmp_path: Path) -> None:
    found = problems(write(tmp_path, "players: 3\ndeal:\n  hand_size: 10\n  sit_out: last_loser\n"))
    assert found == ["8:12 warning sit-out-round-1: round 1 cannot be dealt: 'last_loser' has no value in "
                     "round 1: no round was played before it (test 'round == 1' first)"]


def test_deck_check_counts_only_players_dealt_in(tmp_path: Path) -> None:
    # 4 x 13 + upcard + a stock above the floor of 2 needs 56 cards; with one seat out, 43
    body = "players: 4\ndeal:\n  hand_size: 13\n  sit_out: dealer\n  rotation: sitter\n"
    assert problems(write(tmp_path, body)) == []
    found = problems(write(tmp_path, "players: 4\ndeal:\n  hand_size: 13\n"))
    assert any("deal-size" in line and "4 × 13" in line for line in found)


def test_shipped_g3_is_clean_and_reads_its_option() -> None:
    variant = load_variant("gin_three_handed")
    assert variant.players == 3 and variant.deal.rotation == "sitter"
    assert variant.deal.sit_out is not None and "sit_out" in variant.deal.sit_out.names
    assert variant.game.shutout_per == "each_loser"
    assert load_variant("gin_rummy").deal.sit_out is None
    assert load_variant("gin_rummy").game.shutout_per == "all_losers"


# -- G3-3: a shutout per loser ------------------------------------------------------


@pytest.mark.parametrize("points,wins,figure", [
    ({0: 105, 1: 40, 2: 30}, {0: 5, 1: 2, 2: 1}, 330),   # nobody shut out
    ({0: 105, 1: 40, 2: 0}, {0: 5, 1: 2}, 660),          # one loser: doubled once
    ({0: 105, 1: 0, 2: 0}, {0: 5}, 990),                  # both: once more each
])
def test_shutout_per_loser(points: dict, wins: dict, figure: int) -> None:
    assert final_figures(load_variant("gin_three_handed"), points, wins)[0] == figure


def test_shutout_all_losers_is_gin_rummys_rule(tmp_path: Path) -> None:
    four = load_variant(write(tmp_path, "players: 3\n"))  # gin_rummy's game: shutout_per all_losers
    assert final_figures(four, {0: 105, 1: 0, 2: 10}, {})[0] == 205   # one loser blank: no shutout
    assert final_figures(four, {0: 105, 1: 0, 2: 0}, {})[0] == 410    # every loser blank: doubled once


def test_editor_knows_the_deal_context() -> None:
    from rummydsl.lsp.features import expression_context
    from rummydsl.lsp.reference import expression_help

    assert expression_context(("deal", "sit_out")) == "next_deal"
    assert expression_help("next_deal", "last_loser") is not None
    assert "left" in (expression_help("next_deal", "next") or "")
