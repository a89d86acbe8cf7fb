"""The same seed gives the same game, different seeds differ, and copies are independent.

``simulate --seed`` and game records rely on this: a game is a function of the
variant, the seed of the deal and the seeds of the agents (STYLE.md section 3:
randomness only from an injected ``random.Random``).
"""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Game, Observation, Round
from rummydsl.variant import load_variant

from .invariants import SHIPPED, seeded_agents


def game_actions(variant_id: str, seed: int, spec: str = "random,greedy", *,
                 rounds_at_most: int = 10_000) -> tuple[list[list[str]], tuple[int, ...] | None]:
    """Every round's actions and the final figures of one seeded game (None if stopped early)."""
    variant = load_variant(variant_id)
    game = Game(variant, random.Random(seed))
    agents = make_agents(spec, game.players, random.Random(seed))
    rounds: list[list[str]] = []
    while not game.over and len(rounds) < rounds_at_most:
        rnd = game.round
        while rnd.result is None:
            player = rnd.to_move
            assert player is not None
            rnd.apply(agents[player].act(Observation(rnd, player)))
        rounds.append([str(a) for a in rnd.actions])
        game.next_round()
    return rounds, None if game.result is None else game.result.figures


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_same_seed_same_game(variant_id: str) -> None:
    """Two games from seed 3 (deal and agents) play the same actions to the same figures."""
    first = game_actions(variant_id, 3)
    assert first == game_actions(variant_id, 3)
    assert first[0] and all(first[0]) and first[1] is not None


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_different_seeds_differ(variant_id: str) -> None:
    """Seeds 3 and 4 deal differently, and their first rounds are played differently."""
    variant = load_variant(variant_id)
    deals = [Round.deal(variant, random.Random(seed), dealer=0).to_json() for seed in (3, 4)]
    assert deals[0]["hands"] != deals[1]["hands"]
    assert game_actions(variant_id, 3, rounds_at_most=1) != game_actions(variant_id, 4, rounds_at_most=1)


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_same_seed_same_hand_for_each_agent_kind(variant_id: str) -> None:
    """One hand from the same seeds, with each agent kind, replays exactly."""
    variant = load_variant(variant_id)
    for kind in ("random", "greedy", "mixed"):
        runs = []
        for _ in range(2):
            rnd = Round.deal(variant, random.Random(9), dealer=1 % variant.players)
            agents = seeded_agents(variant, kind, 9)
            while rnd.result is None:
                player = rnd.to_move
                assert player is not None
                rnd.apply(agents[player].act(Observation(rnd, player)))
            runs.append(rnd.to_json())
        assert runs[0] == runs[1]


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_copy_is_independent_both_ways(variant_id: str) -> None:
    """At every step of a seeded hand: playing on the copy leaves the original as it was,
    and playing on the original leaves the copy as it was (table melds, known cards,
    queues and the action log are not shared)."""
    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(2), dealer=0)
    agents = seeded_agents(variant, "mixed", 2)
    while rnd.result is None:
        player = rnd.to_move
        assert player is not None
        action = agents[player].act(Observation(rnd, player))
        copy = rnd.copy()
        snapshot = copy.to_json()
        assert snapshot == rnd.to_json()
        copy.apply(action)
        assert rnd.to_json() == snapshot
        twin = rnd.copy()
        rnd.apply(action)
        assert twin.to_json() == snapshot
        assert copy.to_json() == rnd.to_json()
    final = rnd.copy()
    assert final.to_json() == rnd.to_json() and final.result == rnd.result
