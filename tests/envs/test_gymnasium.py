"""rummydsl/Rummy-v0: one learning seat against rummydsl's agents passes Gymnasium's own
checker for every shipped variant (issue 19, "Done when"), and plays as it says."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import rummydsl.envs  # noqa: E402,F401  (registers rummydsl/Rummy-v0)
from rummydsl.envs.gymnasium import RummyEnv  # noqa: E402
from rummydsl.errors import AgentError  # noqa: E402
from rummydsl.variant import load_variant, shipped_variant_ids  # noqa: E402

CASES = [(vid, n) for vid in shipped_variant_ids() for n in sorted(set(load_variant(vid).players_range))]


@pytest.mark.filterwarnings("ignore::UserWarning")  # check_env's advice on Dict observations
@pytest.mark.parametrize("vid,players", CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_check_env_passes(vid: str, players: int) -> None:
    env = gymnasium.make("rummydsl/Rummy-v0", variant=vid, players=players, opponents="greedy", max_turns=2000)
    check_env(env.unwrapped)


def _episode(env: RummyEnv, seed: int) -> tuple[float, bool, bool, list[int]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, taken = 0.0, []
    while True:
        assert list(np.flatnonzero(obs["action_mask"])) == env.match.legal_ids()
        assert env.match.to_move == env.seat and len(info["legal"]) == int(obs["action_mask"].sum())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return total, terminated, truncated, taken


def test_a_hand_against_greedy_rewards_the_learner_its_points() -> None:
    env = RummyEnv(variant="gin_rummy", seat=1, opponents="greedy")
    total, terminated, truncated, _ = _episode(env, 4)
    points = env.match.game.results[0].points
    assert terminated and not truncated and total == points[1] - points[0]


def test_the_same_seed_plays_the_same_episode() -> None:
    one = _episode(RummyEnv(variant="ginski", players=3, opponents="random"), 8)
    two = _episode(RummyEnv(variant="ginski", players=3, opponents="random"), 8)
    assert one == two


def test_a_learner_that_sits_out_the_first_round_still_gets_a_decision() -> None:
    env = RummyEnv(variant="gin_three_handed", seat=0, opponents="random")
    for seed in range(6):
        env.reset(seed=seed)
        assert env.match.to_move == 0 and env.match.round.sat_out != 0


def test_an_illegal_action_ends_the_episode_with_a_penalty() -> None:
    env = RummyEnv(variant="gin_rummy")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_max_turns_truncates() -> None:
    env = RummyEnv(variant="rummy", players=4, opponents="random", max_turns=12)
    _, terminated, truncated, taken = _episode(env, 2)
    assert truncated and not terminated and len(taken) <= 12


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(AgentError, match="unknown agent 'clever'"):
        RummyEnv(opponents="clever")
    with pytest.raises(ValueError, match="seat is one of 0..1"):
        RummyEnv(seat=2)


def test_a_program_can_be_the_opponent_and_is_stopped_on_close() -> None:
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "cli" / "bots" / "bot.py"
    env = RummyEnv(variant="gin_rummy", opponents=f"cmd:{sys.executable} {bot} legal", max_turns=40)
    _episode(env, 1)
    program = env._agents[1]
    env.close()
    assert program._process is None or program._process.poll() is not None


@pytest.mark.filterwarnings("ignore::UserWarning")  # check_env's advice on Dict observations
def test_the_gin_rummy_v5_encoding_for_the_learners_seat() -> None:
    from rummydsl.envs.gin_v5 import GinV5

    env = gymnasium.make("rummydsl/Rummy-v0", variant="rlcard_gin", encoding="pettingzoo_gin_v5",
                         opponents_hand_visible=True, max_turns=2000)
    check_env(env.unwrapped)
    learner = env.unwrapped
    assert learner.action_space.n == 110 and learner.observation_space["observation"].shape == (5, 52)
    obs, info = learner.reset(seed=3)
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal) == set(GinV5(learner.match).moves(learner.match))
        obs, reward, terminated, truncated, info = learner.step(int(rng.choice(legal)))
        total, done = total + float(reward), terminated or truncated
    assert terminated and -1.0 <= total <= 1.0  # the v5 rewards: a knock's 0.5, gin's 1, minus deadwood/100
    with pytest.raises(ValueError, match="encoding is 'planes' or 'pettingzoo_gin_v5'"):
        RummyEnv(encoding="v5")
    with pytest.raises(ValueError, match="pettingzoo_gin_v5"):
        RummyEnv(variant="ginski", encoding="pettingzoo_gin_v5")
