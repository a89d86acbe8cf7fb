"""Long legal lists are folded in the prompt (issue 19): Contract Rummy offers hundreds of
lay-downs, so a prompt lists a few and the melds they are made of; yet every legal move
stays sayable: each is shown or stands for itself in a folded line, parse_response reads
every one of them and a lay-down the model composes itself, and the stand-in model plays
from a folded list."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest

from rummydsl import Match
from rummydsl.agents import make_agents
from rummydsl.engine import Meld, Observation, Round
from rummydsl.llm import LLMAgent, generate_prompt, get_legal_moves, parse_response
from rummydsl.llm.fold import FOLD_OVER, legal_lines

from .conftest import position
from .test_agent import model

OTHERS = {"P2": "2H 3H 4H 5H 6H KC KD KS JH JD", "P3": "2C 3C 4C 5C 6C QC QD QS TH TD"}


def _contract(hand: str, drawn: str, number: int = 1) -> Observation:
    """Contract Rummy deal ``number``: P1 holds ``hand``, draws ``drawn`` from the stock, nobody
    buys; P1's meld step."""
    rnd = position("contract_rummy", dealer="P3", hands={"P1": hand, **OTHERS}, number=number,
                   stock=f"{drawn} AH AD AS 2S 3S 4S 5S 6S", upcard="KH")
    return _to_meld(rnd, "P1 draw stock")


def _to_meld(rnd: Round, draw: str) -> Observation:
    rnd.apply(draw)
    while rnd.to_move != 0:  # the others pass on buying
        rnd.apply("P%d pass" % (rnd.to_move + 1))
    assert rnd.phase.value == "meld"
    return Observation(rnd, 0)


def _rummy_runs() -> Observation:
    """Rummy: P1 holds ten spades in sequence, 36 runs to lay down."""
    rnd = position("rummy", dealer="P2", hands={"P1": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
                                               "P2": "2H 3H 4H 5H 6H KC KD KS JH JD"},
                   stock="9H AH AD QC QD QH TC TD 2C 3C 4C 5C")
    return _to_meld(rnd, "P1 draw stock")


POSITIONS = {
    "contract_rummy-two-sets": lambda: _contract("7S 7H 7D 7C 8S 8H 8D 8C 9S 9H", "9D"),
    "contract_rummy-two-packs": lambda: _contract("7S 7H 7D 7C 7S 7H 8S 8H 8D *", "8C"),
    "contract_rummy-set-and-run": lambda: _contract("7S 7H 7D 7C 3S 4S 5S 6S 7S *", "8S", number=2),
    "rummy-runs": _rummy_runs,
}


def _legal_section(prompt: str) -> list[str]:
    lines = prompt.split("Your legal moves", 1)[1].split("\n# How to answer", 1)[0].strip().splitlines()
    return lines[1:]


def _covered(move: object, lines: list[str]) -> bool:
    """Whether ``move`` is shown in the folded ``lines``: listed, a folded line's card, or a
    lay-down of melds the lines name."""
    text = str(move)
    if f"- {text}" in lines:
        return True
    for line in lines:
        if ", CARD one of: " in line:
            template, cards = line[2:].split(", CARD one of: ")
            if any(template.replace("CARD", card, 1) == text for card in cards.split()):
                return True
    if isinstance(move, Meld):
        named = set(re.findall(r"\[[^\]]*\]", " ".join(line for line in lines if line.startswith("  "))))
        return all("[" + " ".join(str(c) for c in meld) + "]" in named for meld in move.melds)
    return False


@pytest.mark.parametrize("name", list(POSITIONS))
def test_a_long_list_is_folded_and_every_move_stays_sayable(name: str) -> None:
    view = POSITIONS[name]()
    legal = list(view.legal_actions())
    assert len(legal) > FOLD_OVER
    prompt = generate_prompt(view, legal=True)
    lines = _legal_section(prompt)
    assert "folded as the list is long" in prompt
    assert len(lines) < len(legal) / 1.5, f"{name}: {len(lines)} lines for {len(legal)} moves"
    for move in legal:
        assert _covered(move, lines), f"{name}: {move} is not shown in the folded list"
    for move in legal[:: max(1, len(legal) // 60)]:  # every move of a small list; a sample of a big one
        assert parse_response(json.dumps({"move": str(move)}), view) == str(move)
        assert parse_response(f"I lay down {str(move).lower()} now.", view) == str(move)


@pytest.mark.parametrize("name", [n for n in POSITIONS if n.startswith("contract")])
def test_a_lay_down_composed_of_the_melds_shown_is_read_and_judged(name: str) -> None:
    view = POSITIONS[name]()
    lines = _legal_section(generate_prompt(view, legal=True))
    named = re.findall(r"\[[^\]]*\]", " ".join(line for line in lines if line.startswith("  ")))
    size = len(next(a for a in view.legal_actions() if isinstance(a, Meld)).melds)
    listed = {line[2:] for line in lines if line.startswith("- ")}
    tried = accepted = 0
    for melds in itertools.permutations(named, size):
        text = "P1 meld " + " ".join(melds)
        if text in listed:
            continue
        tried += 1
        try:
            move = parse_response(json.dumps({"move": text}), view)
        except Exception as refused:  # noqa: BLE001 - what a refusal is, is checked below
            from rummydsl.errors import ActionError

            assert isinstance(refused, ActionError) and refused.reason
            continue
        assert view.parse(move) in view.legal_actions()
        accepted += 1
        if accepted >= 5:
            break
    assert accepted, f"{name}: no lay-down composed of the melds shown was accepted ({tried} tried)"


def test_a_short_list_is_listed_whole() -> None:
    m = Match.new("gin_rummy", seed=3)
    view = m.view(m.to_move)
    prompt = generate_prompt(view, legal=True)
    assert "folded" not in prompt
    assert _legal_section(prompt) == [f"- {move}" for move in get_legal_moves(view)]
    assert legal_lines(list(view.legal_actions())) == [f"- {move}" for move in get_legal_moves(view)]


@pytest.mark.parametrize("name", ["contract_rummy-two-packs", "rummy-runs"])
def test_the_stand_in_model_plays_from_a_folded_list(name: str) -> None:
    agent = LLMAgent(model("json"), 0, retries=0)
    view = POSITIONS[name]()
    assert agent.act(view) in view.legal_actions() and agent.fallbacks == 0


def test_contract_rummy_in_play_folds_its_longest_list() -> None:
    """Greedy Contract Rummy, to the first lay-down of more than FOLD_OVER moves."""
    m = Match.new("contract_rummy", seed=2, history=False)
    agents = make_agents("greedy", m.players, random.Random(2))
    while len(get_legal_moves(m.view(m.to_move))) <= FOLD_OVER:
        m.apply(agents[m.to_move].act(m.view(m.to_move)))
    view = m.view(m.to_move)
    lines = _legal_section(generate_prompt(view, legal=True))
    assert all(_covered(move, lines) for move in view.legal_actions())
