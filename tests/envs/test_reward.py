"""reward= as an expression of the reward context (issue 19): checked before any play,
with its place (in the string, or path:line:column in a file) in the error; worked out
when a round ends; the same as the named forms where it says the same; kept across
reset(seed=...) (PettingZoo #1312 lost a configured reward there)."""

from __future__ import annotations

import doctest
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import rummydsl.envs.reward  # noqa: E402
from rummydsl.agents import make_agents  # noqa: E402
from rummydsl.errors import ExpressionError, FormulaError, VariantError  # noqa: E402
from rummydsl.envs.pettingzoo import env, raw_env  # noqa: E402
from rummydsl.envs.reward import RewardExpression  # noqa: E402
from rummydsl.variant import load_variant  # noqa: E402

ZERO_SUM_2P = "points(p) - sum(points(q) for q in others(p))"


def _greedy_episode(e: Any, seed: int) -> tuple[dict[str, float], Any]:
    """One episode of greedy play (which knocks and goes gin, so rounds score); the
    rewards each agent got, and the last round's result."""
    e.reset(seed=seed)
    agents = make_agents("greedy", len(e.possible_agents), random.Random(seed))
    totals = dict.fromkeys(e.possible_agents, 0.0)
    match = e.unwrapped.match if hasattr(e, "unwrapped") else e.match
    for agent in e.agent_iter():
        _, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        match = e.unwrapped.match
        seat = e.unwrapped.seat_of(agent)
        e.step(match.action_space.index(agents[seat].act(match.view(seat))))
    results = e.unwrapped.match.game.results
    return totals, results[-1] if results else None


def test_the_module_examples_run() -> None:
    result = doctest.testmod(rummydsl.envs.reward, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 3


def test_an_expression_that_says_zero_sum_rewards_as_zero_sum_does() -> None:
    scored = 0
    for seed in range(6):
        by_name, result = _greedy_episode(env(variant="gin_rummy", reward="zero_sum"), seed)
        by_expression, again = _greedy_episode(env(variant="gin_rummy", reward=ZERO_SUM_2P), seed)
        assert by_expression == by_name and again == result
        scored += any(by_name.values())
    assert scored >= 2, "greedy play scored too few rounds to compare"


def test_the_names_of_the_reward_context() -> None:
    e = raw_env(variant="gin_rummy", reward="(p == ender ? 1000 : 0) + (gin ? 100 : 0) + (knock ? 10 : 0)"
                                             " + (undercut ? 1 : 0)")
    seen = 0
    for seed in range(8):
        totals, result = _greedy_episode(env(variant="gin_rummy", reward=e.options.reward.text), seed)
        if result is None or result.void:
            assert not any(totals.values())
            continue
        seen += 1
        for seat, agent in enumerate(e.possible_agents):
            expected = ((1000 if seat == result.ender else 0) + (100 if result.ending == "gin" else 0)
                        + (10 if result.ending == "knock" else 0) + (1 if result.undercut else 0))
            assert totals[agent] == expected
    assert seen


@pytest.mark.parametrize("text", [
    "points(p)", "total(p) - score(p)", "deadwood(p) <= 10 ? 1 : -1", "value(upcard) + round + hand_size",
    "void ? -1 : 0", "turns // 10", "count(deadwood(q) > 0 for q in opponents) + player_count", "gin_bonus * (big_gin ? 2 : 1)",
    "sum(deadwood(o) for o in others(p)) - deadwood(p)", "distance(dealer, p)", "max(points(q) for q in players)",
])
def test_good_expressions_check_and_play(text: str) -> None:
    e = env(variant="gin_rummy", reward=text)
    _greedy_episode(e, 1)
    e.reset(seed=2)
    assert e.unwrapped.options.reward.text == text


@pytest.mark.parametrize("text,place,words", [
    ("points(p) - deadwod(p)", "reward:1:13:", "did you mean 'deadwood'"),
    ("points(p) +", "reward:1:12:", "missing operand"),
    ("gin", "reward:1:1:", "int"),
    ("met_contract(p) ? 1 : 0", "reward:1:1:", "met_contract"),
    ("hand_value(p)", "reward:1:1:", "hand_value"),
    ("points(p, p)", "reward:1:1:", "argument"),
    ("points(upcard)", "reward:1:8:", "player"),
])
def test_a_bad_expression_is_refused_before_any_play_naming_where(text: str, place: str, words: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        raw_env(variant="gin_rummy", reward=text)
    message = str(caught.value)
    assert message.startswith(place), message
    assert words in message and text in message


def test_upcard_is_refused_where_no_upcard_is_dealt() -> None:
    with pytest.raises(ExpressionError, match="reward:1:7: .*no upcard"):
        raw_env(variant="rlcard_gin", reward="value(upcard)")


def test_a_file_holds_the_expression_and_errors_name_its_line_and_column(tmp_path: Path) -> None:
    good = tmp_path / "reward.txt"
    good.write_text("points(p)\n  - sum(points(q) for q in others(p))\n", encoding="utf-8")
    e = raw_env(variant="gin_rummy", reward=good)
    assert e.options.reward.where == str(good)
    bad = tmp_path / "bad.txt"
    bad.write_text("points(p)\n  - sum(pionts(q) for q in others(p))\n", encoding="utf-8")
    with pytest.raises(ExpressionError) as caught:
        raw_env(variant="gin_rummy", reward=bad)
    assert str(caught.value).startswith(f"{bad}:2:9: unknown function 'pionts'"), str(caught.value)
    with pytest.raises(VariantError, match="cannot read the reward"):
        raw_env(variant="gin_rummy", reward=tmp_path / "missing.txt")


def test_an_expression_failing_on_a_round_names_the_reward() -> None:
    with pytest.raises(FormulaError, match="reward 'points.p. // .turns - turns.'.*division by zero"):
        for seed in range(10):
            _greedy_episode(env(variant="gin_rummy", reward="points(p) // (turns - turns)"), seed)


def test_the_expression_survives_reset_with_a_seed() -> None:
    e = env(variant="gin_rummy", reward=ZERO_SUM_2P)
    reward = e.unwrapped.options.reward
    first, _ = _greedy_episode(e, 3)
    for seed in (4, 3):
        again, _ = _greedy_episode(e, seed)
        assert e.unwrapped.options.reward is reward
    assert again == first


def test_a_whole_game_is_rewarded_round_by_round() -> None:
    e = env(variant="hollywood_gin", episode="game", reward="points(p)", max_turns=100_000)
    totals, _ = _greedy_episode(e, 2)
    results = e.unwrapped.match.game.results
    assert len(results) > 1
    assert [totals[a] for a in e.unwrapped.possible_agents] == \
        [float(sum(r.points[s] for r in results)) for s in range(2)]


def test_a_seat_sitting_out_gets_nothing() -> None:
    e = env(variant="gin_three_handed", reward="1 + points(p)")
    for seed in range(3):
        e.reset(seed=seed)
        sat_out = e.unwrapped.match.round.sat_out
        assert sat_out is not None
        totals, result = _greedy_episode(e, seed)
        assert result is not None
        for seat, agent in enumerate(e.unwrapped.possible_agents):
            assert totals[agent] == (0.0 if seat == sat_out else 1.0 + result.points[seat])


def test_the_gymnasium_env_takes_an_expression() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    import rummydsl.envs  # noqa: F401  (registers rummydsl/Rummy-v0)

    e = gymnasium.make("rummydsl/Rummy-v0", variant="gin_rummy", reward=ZERO_SUM_2P)
    obs, _ = e.reset(seed=1)
    rng = np.random.default_rng(1)
    done = False
    while not done:
        obs, reward, terminated, truncated, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    with pytest.raises(ExpressionError, match="reward:1:1"):
        gymnasium.make("rummydsl/Rummy-v0", variant="gin_rummy", reward="nope(p)")


def test_the_reward_context_reaches_the_variants_options() -> None:
    reward = RewardExpression.compile("gin ? gin_bonus : 0", load_variant("gin_rummy"))
    assert reward.compiled.options == frozenset({"gin_bonus"})
