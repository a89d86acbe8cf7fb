"""parse_response: the forms an answer takes, and the three errors a harness retries on
(no move, an illegal move, several moves), each saying what went wrong."""

from __future__ import annotations

import random

import pytest

from rummydsl import Match
from rummydsl.agents import make_agents
from rummydsl.errors import ActionError
from rummydsl.llm import AmbiguousMoveError, IllegalMoveError, NoMoveError, get_legal_moves, parse_response

DRAWS = ["P1 draw stock", "P1 draw discard"]
MELDS = ["P1 meld [3S 4S 5S]", "P1 meld [3S 4S 5S] [7H 7D 7C]", "P1 layoff 6S on P2#1", "P1 done"]


@pytest.mark.parametrize("text,legal,move", [
    ('{"move": "P1 draw stock"}', DRAWS, "P1 draw stock"),
    ('{"action": "P1 draw discard"}', DRAWS, "P1 draw discard"),
    ('I think.\n```json\n{"move": "p1 DRAW   stock"}\n```\n', DRAWS, "P1 draw stock"),
    ('{"move": "draw discard"}', DRAWS, "P1 draw discard"),
    ('First {"move": "P1 draw stock"}, no: {"move": "P1 draw discard"}', DRAWS, "P1 draw discard"),
    ("I will take the top card: P1 draw discard.", DRAWS, "P1 draw discard"),
    ("Best is to draw stock here.", DRAWS, "P1 draw stock"),
    ("Thinking about P1 draw stock and P1 draw discard...\nMove: P1 draw discard", DRAWS, "P1 draw discard"),
    ("**Final answer:** `P1 draw stock`", DRAWS, "P1 draw stock"),
    ("I play P1 meld [3S 4S 5S] [7H 7D 7C] now.", MELDS, "P1 meld [3S 4S 5S] [7H 7D 7C]"),
    ("I play P1 meld [ 3s 4s 5s ] only.", MELDS, "P1 meld [3S 4S 5S]"),
    ("layoff 6s on p2#1", MELDS, "P1 layoff 6S on P2#1"),
    ("done", MELDS, "P1 done"),
    ("I discard 10h now.", ["P1 discard TH", "P1 discard 9H"], "P1 discard TH"),
    ('{"move": "P1 knock 10d"}', ["P1 knock TD", "P1 discard TD"], "P1 knock TD"),
    ("P1 meld [10s js qs]", ["P1 meld [TS JS QS]", "P1 done"], "P1 meld [TS JS QS]"),
    ("discard 10y", ["P1 discard 10Y", "P1 discard 13R"], "P1 discard 10Y"),
])
def test_an_answer_is_read_in_any_of_its_forms(text: str, legal: list[str], move: str) -> None:
    assert parse_response(text, legal) == move


@pytest.mark.parametrize("text,legal,error,reason", [
    ("I have no idea.", DRAWS, NoMoveError, "no move found in the answer"),
    ("", DRAWS, NoMoveError, "no move found"),
    ('{"move": "P2 draw stock"}', DRAWS, IllegalMoveError, "not one of the legal moves"),
    ('{"move": "P1 discard 7H"}', DRAWS, IllegalMoveError, "not one of the legal moves"),
    ("Either P1 draw stock or P1 draw discard.", DRAWS, AmbiguousMoveError, "names 2 legal moves"),
    ("P1 draw stock", [], IllegalMoveError, "there is no legal move now"),
])
def test_a_bad_answer_says_why(text: str, legal: list[str], error: type, reason: str) -> None:
    with pytest.raises(error) as caught:
        parse_response(text, legal)
    assert isinstance(caught.value, ActionError) and reason in caught.value.reason


def test_text_that_is_not_text_is_no_move() -> None:
    with pytest.raises(NoMoveError, match="the answer is a NoneType"):
        parse_response(None, DRAWS)  # type: ignore[arg-type]


def _meld_position() -> Match:
    m = Match.new("skarney_gin", seed=1, history=False)
    agents = make_agents("greedy", m.players, random.Random(1))
    while not (m.round.phase.value == "meld" and len(get_legal_moves(m.view(m.to_move))) > 3):
        m.apply(agents[m.to_move].act(m.view(m.to_move)))
    return m


def test_with_the_observation_the_rules_judge_an_answer_the_list_leaves_out() -> None:
    m = _meld_position()
    view = m.view(m.to_move)
    listed = get_legal_moves(view)
    assert listed[0] == "P1 meld [4D 5C 6S] [9S TS JC] [QC KH AD]"
    assert parse_response('{"move": "P1 meld [4d 5c 6s] [9s ts jc] [qc kh ad]"}', view) == listed[0]
    # a lay-down the listing leaves out (melds in another order) is still legal
    other = "P1 meld [QC KH AD] [4D 5C 6S] [9S TS JC]"
    assert other not in listed
    assert view.parse(parse_response(f'{{"move": "{other}"}}', view)) in view.legal_actions()
    with pytest.raises(IllegalMoveError) as caught:
        parse_response('{"move": "P1 discard 4D"}', view)
    assert caught.value.reason  # the rules' reason
    with pytest.raises(IllegalMoveError, match="not a move"):
        parse_response('{"move": "P1 frobnicate"}', view)
    with pytest.raises(IllegalMoveError, match="another player is to move|not this seat's turn"):
        parse_response('{"move": "P2 done"}', m.view(1 - m.to_move))


def test_a_long_answer_is_read_only_so_far() -> None:
    text = '{"move": "P1 draw stock"}' + " x" * 300_000 + ' {"move": "P1 draw discard"}'
    assert parse_response(text, DRAWS) == "P1 draw stock"
