"""python_rummydsl: OpenSpiel's own random simulation test, serialization included, passes
for every shipped variant (issue 19, "Done when"); skipped where OpenSpiel is not installed
(it is not in the rl extra: docs/environments.md)."""

from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

import rummydsl.envs.openspiel  # noqa: E402,F401  (registers python_rummydsl)
from rummydsl.variant import shipped_variant_ids  # noqa: E402


@pytest.mark.parametrize("vid", shipped_variant_ids())
def test_random_sim_test_passes(vid: str) -> None:
    game = pyspiel.load_game("python_rummydsl", {"variant": vid})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_a_whole_game_at_more_players() -> None:
    game = pyspiel.load_game("python_rummydsl", {"variant": "knock_rummy", "players": 4, "episode": "game"})
    assert game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _random_walk(game: object, seed: int, steps: int | None = None) -> object:
    """A new state of ``game`` after ``steps`` random moves and chance outcomes (all the
    way to the end without ``steps``), seeded."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    rng = random.Random(seed)
    taken = 0
    while not state.is_terminal() and (steps is None or taken < steps):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        taken += 1
    return state


def _random_state(vid: str, seed: int, steps: int) -> object:
    return _random_walk(pyspiel.load_game("python_rummydsl", {"variant": vid}), seed, steps)


def test_serialize_writes_the_match_as_json_and_replays_it() -> None:
    state = _random_state("rummy_500", 3, 120)
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.match.state() == state.match.state()
    assert again.history() == state.history()


def test_clones_are_independent() -> None:
    state = _random_state("gin_rummy", 1, 70)
    clone = state.clone()
    before = state.match.state()
    clone.apply_action(clone.legal_actions()[0])
    assert state.match.state() == before and clone.match.state() != before


def test_the_observation_string_is_the_seats_json() -> None:
    state = _random_state("gin_rummy", 2, 60)
    seat = state.current_player()
    seen = json.loads(state.observation_string(seat))
    assert seen == state.match.observation(seat).to_json()
    assert len(state.observation_tensor(seat)) == 16 * 52


def test_returns_are_zero_sum_and_the_hand_ends_the_episode() -> None:
    state = _random_state("oklahoma_gin", 4, 100_000)
    assert state.is_terminal() and len(state.match.game.results) == 1
    assert sum(state.returns()) == 0


def test_only_a_seats_own_observation_or_information_state_is_offered() -> None:
    game = pyspiel.load_game("python_rummydsl")
    game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(Exception, match="only a seat's own observation or information state"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))


def test_shimmy_plays_it_as_a_pettingzoo_environment() -> None:
    shimmy = pytest.importorskip("shimmy")
    env = shimmy.OpenSpielCompatibilityV0(env=pyspiel.load_game("python_rummydsl", {"variant": "gin_rummy"}))
    env.reset(seed=1)
    rng = random.Random(1)
    for agent in env.agent_iter(300):
        obs, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(rng.choice([i for i, legal in enumerate(info["action_mask"]) if legal]))


def test_bad_parameters_are_refused_by_name() -> None:
    from rummydsl.errors import VariantError

    with pytest.raises(VariantError, match="no shipped variant or file 'nope'"):
        pyspiel.load_game("python_rummydsl", {"variant": "nope"})
    with pytest.raises(ValueError, match="episode is 'hand' or 'game'"):
        pyspiel.load_game("python_rummydsl", {"episode": "round"})


def test_an_illegal_action_is_refused_by_name() -> None:
    from rummydsl.errors import IllegalActionError

    state = pyspiel.load_game("python_rummydsl").new_initial_state()
    with pytest.raises(IllegalActionError, match="'P1 done'"):
        state.apply_action(5)


def _play_out(game: object, seed: int) -> object:
    return _random_walk(game, seed)


def test_the_default_reward_is_zero_sum_and_points_are_general_sum() -> None:
    zero = pyspiel.load_game("python_rummydsl", {"variant": "knock_rummy"})
    assert zero.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM and zero.utility_sum() == 0
    game = pyspiel.load_game("python_rummydsl", {"variant": "knock_rummy", "reward": "points"})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = _play_out(game, 1)
    assert state.returns() == [float(p) for p in state.match.game.results[0].points]


def test_a_reward_expression_from_a_file_sums_over_the_rounds(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "reward.txt"
    path.write_text("points(p) - sum(points(q) for q in others(p)) + 1\n", encoding="utf-8")
    game = pyspiel.load_game("python_rummydsl", {"variant": "knock_rummy", "episode": "game",
                                                 "reward_file": str(path)})
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = _play_out(game, 0)
    results = state.match.game.results
    assert len(results) > 1
    expected = [sum(r.points[p] - sum(r.points) + r.points[p] + 1 for r in results) for p in range(3)]
    assert state.returns() == [float(v) for v in expected]
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.returns() == state.returns()


def test_a_reward_given_as_a_dict_parameter_and_bad_ones(tmp_path: object) -> None:
    from pathlib import Path

    from rummydsl.errors import ExpressionError

    game = pyspiel.load_game("python_rummydsl", {"variant": "knock_rummy", "reward": "2 * points(p)"})
    state = _play_out(game, 1)
    assert state.returns() == [2.0 * p for p in state.match.game.results[0].points]
    with pytest.raises(ExpressionError, match="reward:1:5: unknown function 'deadwod'"):
        pyspiel.load_game("python_rummydsl", {"reward": "1 + deadwod(p)"})
    bad = Path(str(tmp_path)) / "bad.txt"
    bad.write_text("1 +\n", encoding="utf-8")
    with pytest.raises(ExpressionError, match=r"bad\.txt:1:"):
        pyspiel.load_game("python_rummydsl", {"reward_file": str(bad)})
    with pytest.raises(ValueError, match="reward or reward_file, not both"):
        pyspiel.load_game("python_rummydsl", {"reward": "points", "reward_file": str(bad)})
    with pytest.raises(ValueError, match="in the PettingZoo environment only"):
        pyspiel.load_game("python_rummydsl", {"reward": "pettingzoo_gin_v5"})
