"""python_rummydsl's information state (perfect recall) lets OpenSpiel's own search and
solvers run on any variant: its ISMCTS bot plays a few moves of Gin Rummy and of a tiny
variant, and CFR iterates over the whole tree of the tiny one (four cards, one each: a
deck the language can write for exhaustive solvers)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

import rummydsl.envs.openspiel  # noqa: E402,F401  (registers python_rummydsl)

TINY = """\
rummydsl: 1
id: tiny_gin
extends: gin_rummy
name: Tiny Gin
description: Gin on four cards, one each, drawing from the stock only, for exhaustive solvers.
deck: {suits: [S], ranks: [A, "2", "3", "4"]}
melds: {set: null, run: "size >= 2 and same(suit) and consecutive(rank)"}
deal: {hand_size: 1, upcard: false}
upcard_offer: null
turn:
  - draw: {from: [stock]}
  - discard: {}
knock: {limit: 2, big_gin: false}
layoff: {onto: none}
stock: {floor: 0}
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = Path(tmp_path_factory.mktemp("variants")) / "tiny_gin.yaml"
    path.write_text(TINY, encoding="utf-8")
    return str(path)


def _play(state: pyspiel.State, rng: random.Random, decisions: int) -> pyspiel.State:
    while not state.is_terminal() and decisions:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state


def test_the_information_state_is_the_observation_with_a_digest_of_all_seen() -> None:
    game = pyspiel.load_game("python_rummydsl", {"variant": "gin_rummy"})
    state = _play(game.new_initial_state(), random.Random(1), 12)
    seat = state.current_player()
    first, seen = state.information_state_string(seat).split("\n", 1)
    assert first.startswith("recall ") and len(first) == len("recall ") + 32
    assert json.loads(seen) == json.loads(state.observation_string(seat))
    other = 1 - seat
    assert state.information_state_string(other) != state.information_state_string(seat)
    clone = state.clone()
    assert clone.information_state_string(seat) == state.information_state_string(seat)
    clone.apply_action(clone.legal_actions()[0])
    assert clone.information_state_string(seat) != state.information_state_string(seat)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.information_state_string(seat) == state.information_state_string(seat)


def test_a_world_resampled_for_a_seat_keeps_its_information_state() -> None:
    game = pyspiel.load_game("python_rummydsl", {"variant": "gin_rummy"})
    state = _play(game.new_initial_state(), random.Random(2), 9)
    seat = state.current_player()
    moved = 0
    for k in range(5):
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_actions() == state.legal_actions()
        moved += world.match.state() != state.match.state()
    assert moved, "no resampled world differed from the real one"


@pytest.mark.parametrize("variant,moves", [("tiny", 6), ("gin_rummy", 2)])
def test_openspiels_ismcts_bot_plays(variant: str, moves: int, tiny: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts  # here, not at collection (the workers, tenth pass)

    game = pyspiel.load_game("python_rummydsl", {"variant": tiny if variant == "tiny" else variant})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                           uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal() and played < moves:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        played += 1
    assert played >= 1


def test_cfr_iterates_over_a_tiny_variant(tiny: str) -> None:
    from open_spiel.python.algorithms import cfr  # here, not at collection (the workers, tenth pass)

    game = pyspiel.load_game("python_rummydsl", {"variant": tiny})
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert len(policy.state_lookup) > 20
    for row in policy.action_probability_array:
        assert abs(row.sum() - 1.0) < 1e-9
