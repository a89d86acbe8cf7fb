"""rummydsl.envs.pettingzoo: PettingZoo's own checks pass for every shipped variant at
every player count it allows (issue 19, "Done when"), seats sitting out included
(gin_three_handed: one seat sits out each round), and the options keep their word."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rummydsl import Match  # noqa: E402
from rummydsl.envs.pettingzoo import env, raw_env  # noqa: E402
from rummydsl.variant import load_variant, shipped_variant_ids  # noqa: E402

MAX_TURNS = 2000
"""Decisions before truncation in these tests: every variant's random hands end well before."""


def _cases() -> list[tuple[str, int]]:
    out = []
    for vid in shipped_variant_ids():
        low, high = load_variant(vid).players_range
        out += [(vid, n) for n in range(low, high + 1)]
    return out


CASES = _cases()


def _play(e: Any, rng: np.random.Generator) -> int:
    """One episode of uniformly random legal play; the decisions made."""
    steps = 0
    for agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


@pytest.mark.filterwarnings("ignore::UserWarning")  # api_test's advice for classic games' Dict observations
@pytest.mark.parametrize("vid,players", CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_api_test_passes(vid: str, players: int) -> None:
    e = env(variant=vid, players=players, max_turns=MAX_TURNS)
    e.reset(seed=players)  # api_test's own resets then go on from this seed: the run is the same every time
    api_test(e, num_cycles=1000)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("vid,players", CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_seed_test_passes(vid: str, players: int) -> None:
    seed_test(lambda: env(variant=vid, players=players, max_turns=MAX_TURNS), num_cycles=50)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("vid", ["gin_rummy", "gin_three_handed", "rummy"])
def test_api_test_passes_for_whole_games(vid: str) -> None:
    e = env(variant=vid, episode="game", max_turns=MAX_TURNS)
    e.reset(seed=3)
    api_test(e, num_cycles=1000)


def test_spaces_follow_the_match() -> None:
    e = raw_env(variant="skarney_gin")
    e.reset(seed=5)
    m = Match.new("skarney_gin", seed=0)
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.action_space("player_0").n == m.action_space.size
    box = e.observation_space("player_1")["observation"]
    assert box.shape == e.planes.shape and box.dtype == np.int8
    obs = e.observe(e.agent_selection)
    assert list(np.flatnonzero(obs["action_mask"])) == e.match.legal_ids()
    other = [a for a in e.agents if a != e.agent_selection][0]
    assert not e.observe(other)["action_mask"].any()
    assert e.observation_space("player_0") is e.observation_space("player_0")


def test_a_hand_rewards_its_points_zero_sum_for_two() -> None:
    e = raw_env(variant="gin_rummy")
    e.reset(seed=11)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    points = e.match.game.results[0].points
    assert totals["player_0"] == -totals["player_1"] == points[0] - points[1]


def test_a_whole_game_rewards_add_to_the_final_returns() -> None:
    """A whole game of random play: seed 6's is 57 hands and 6,387 decisions (seed 2's,
    tested before, 225 hands and 26,165 decisions, each hand's rewards alike)."""
    e = raw_env(variant="hollywood_gin", episode="game", reward="points", max_turns=100_000)
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.match.over
    assert [totals[a] for a in e.possible_agents] == e.match.returns()


def test_max_turns_truncates_and_the_options_survive_reset() -> None:
    def reward(match: Match, event: Any, seat: int) -> float:
        return 1.0

    e = raw_env(variant="rummy", max_turns=7, reward=reward)
    for seed in (1, 2):
        e.reset(seed=seed)
        assert _play(e, np.random.default_rng(seed)) == 7
        assert e.options.reward is reward and e.options.max_turns == 7


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    e = env(variant="gin_rummy")
    e.reset(seed=4)
    agent = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)  # PettingZoo logs "Illegal move made"
    assert e.rewards[agent] == -1
    assert all(e.terminations.values())


def test_the_same_seed_plays_the_same_episode() -> None:
    def record(seed: int) -> list[Any]:
        e = raw_env(variant="ginski", players=3)
        e.reset(seed=seed)
        rng = random.Random(0)
        seen = []
        for agent in e.agent_iter():
            obs, reward, termination, truncation, _ = e.last()
            seen.append((agent, obs["observation"].tobytes(), reward))
            if termination or truncation:
                e.step(None)
                continue
            e.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        return seen

    assert record(9) == record(9)
    assert record(9) != record(10)


@pytest.mark.parametrize("vid", ["gin_rummy", "rummy_500"])
def test_an_observation_handed_out_stays_as_it_was(vid: str) -> None:
    """Each observation (planes and mask) is the agent's own: later steps and
    observations do not write into it, as PettingZoo's classic games hand out new arrays."""
    e = env(variant=vid, max_turns=MAX_TURNS)
    e.reset(seed=3)
    rng = random.Random(3)
    kept = []
    for agent in e.agent_iter():
        obs, _, termination, truncation, _ = e.last()
        kept.append((obs, obs["observation"].copy(), obs["action_mask"].copy()))
        e.step(None if termination or truncation else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(kept) > 20
    for obs, planes, mask in kept:
        assert np.array_equal(obs["observation"], planes) and np.array_equal(obs["action_mask"], mask)


@pytest.mark.parametrize("kwargs,message", [
    ({"episode": "round"}, "episode is 'hand' or 'game'"),
    ({"reward": "wins"}, "reward is 'zero_sum', 'points'"),
    ({"reward": "zerosum"}, "unknown name 'zerosum'(.|\n)*did you mean 'zero_sum'"),
    ({"reward": 3}, "reward is 'zero_sum', 'points', an expression"),
    ({"max_turns": 0}, "max_turns is a positive integer"),
    ({"render_mode": "human"}, "render_mode is None or 'ansi'"),
])
def test_bad_options_are_refused_by_name(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env(**kwargs)


def test_render_shows_the_table_as_text() -> None:
    e = raw_env(variant="gin_three_handed", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "(sits out)" in text and text.startswith("gin_three_handed round 1")


def test_observation_spec_names_every_plane() -> None:
    for vid, players in [("gin_rummy", 2), ("ginski", 3), ("contract_rummy", 4), ("rummy_500", 3)]:
        e = raw_env(variant=vid, players=players)
        spec = e.observation_spec().splitlines()
        assert len(spec) == 1 + e.planes.shape[0]
    assert "hand #2" in raw_env(variant="contract_rummy").observation_spec()
    assert "pile depth bit 0" in raw_env(variant="rummy_500").observation_spec()


def test_an_unknown_variant_or_player_count_is_refused_by_name() -> None:
    from rummydsl.errors import VariantError

    with pytest.raises(VariantError, match="no shipped variant or file 'nope'"):
        raw_env(variant="nope")
    with pytest.raises(VariantError, match="exactly 2 players"):
        raw_env(variant="gin_rummy", players=5)


def test_the_environment_pickles_with_its_options() -> None:
    import pickle

    e = pickle.loads(pickle.dumps(raw_env(variant="skarney_gin", max_turns=10)))
    e.reset(seed=1)
    assert e.options.max_turns == 10 and e.options.variant.id == "skarney_gin"


def test_a_seat_sitting_out_gets_nothing_of_the_hand() -> None:
    from rummydsl.agents import GreedyAgent

    greedy = GreedyAgent()
    for seed in range(20):
        e = raw_env(variant="gin_three_handed")
        e.reset(seed=seed)
        sat_out = e.match.round.sat_out
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            _, reward, termination, truncation, _ = e.last()
            totals[agent] += reward
            if termination or truncation:
                e.step(None)
                continue
            seat = e.seat_of(agent)
            action = greedy.act(e.match.view(seat))
            e.step(e.match.action_space.encode(action)[0])
        points = e.match.game.results[0].points
        if any(points):
            break
    else:
        pytest.fail("greedy play scored no hand in 20 deals")
    assert sat_out is not None and totals[f"player_{sat_out}"] == 0.0
    played = [p for p in range(3) if p != sat_out]
    assert sorted(totals[f"player_{p}"] for p in played) == sorted([-float(max(points)), float(max(points))])


def test_the_wrapper_keeps_the_classic_games_checks() -> None:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    e = env(variant="gin_rummy")
    assert isinstance(e, OrderEnforcingWrapper)
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(e, name)
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=1)
    assert e.num_agents == 2 and e.unwrapped.options.players == 2
    with pytest.raises(AssertionError, match="action space"):
        e.step(e.action_space(e.agent_selection).n)
    with pytest.raises(AssertionError, match="action space"):
        e.step(-1)
    obs, *_ = e.last()
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # a numpy integer is an action


def test_after_an_illegal_action_the_dead_agents_step_out() -> None:
    e = env(variant="gin_rummy")
    e.reset(seed=4)
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    removed = 0
    for agent in e.agent_iter():
        _, _, termination, truncation, _ = e.last()
        assert termination and truncation
        e.step(None)
        removed += 1
    assert removed == 2 and not e.agents


def test_agent_iter_keeps_the_order_enforcing_iterators_checks() -> None:
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterator

    e = env(variant="gin_rummy")
    with pytest.raises(Exception, match="reset"):
        e.agent_iter()
    e.reset(seed=2)
    turns = iter(e.agent_iter(3))
    assert isinstance(turns, AECOrderEnforcingIterator)
    assert next(turns) == e.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(turns)  # not stepped since the last turn
    e.reset(seed=2)
    seen = []
    for agent in e.agent_iter(3):  # at most max_iter turns
        seen.append(agent)
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(seen) == 3
