"""encoding="pettingzoo_gin_v5": the removed gin_rummy_v5's contract (issue 19), pinned
from its documentation: the 110 action meanings, the spaces, the planes, the rewards;
PettingZoo's own checks on the encoded env; a scripted hand whose ids play the expected
rummydsl actions; and a seat's planes unchanged when the cards hidden from it are dealt again."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rummydsl.engine.actions import Discard, Done, Draw, Knock, Pass  # noqa: E402
from rummydsl.envs.gin_v5 import ACTIONS, GinV5, column, meaning  # noqa: E402
from rummydsl.envs.pettingzoo import env, raw_env  # noqa: E402

V5 = "pettingzoo_gin_v5"
SUITS = "SHDC"
RANKS = "A23456789TJQK"


def test_action_meanings_are_the_documented_ones() -> None:
    # gin_rummy_v5's table: 0 score player 0, 1 score player 1, 2 draw a card, 3 pick up
    # the top discard, 4 declare dead hand, 5 gin, 6-57 discard, 58-109 knock; 6 is A of
    # spades, 18 K of spades, 19 A of hearts, 32 A of diamonds, 45 A of clubs, 57 K of clubs.
    assert ACTIONS == 110
    assert [meaning(i) for i in range(6)] == ["score player 0", "score player 1", "draw card",
                                              "pick up discard", "declare dead hand", "gin"]
    for base, verb in ((6, "discard"), (58, "knock")):
        for s, suit in enumerate(SUITS):
            for r, rank in enumerate(RANKS):
                assert meaning(base + 13 * s + r) == f"{verb} {rank}{suit}"
    assert (meaning(18), meaning(19), meaning(32), meaning(45), meaning(70), meaning(109)) == (
        "discard KS", "discard AH", "discard AD", "discard AC", "knock KS", "knock KC")
    with pytest.raises(ValueError, match="0 to 109"):
        meaning(110)


@pytest.mark.parametrize("visible, planes", [(False, 4), (True, 5)])
def test_spaces_are_the_documented_ones(visible: bool, planes: int) -> None:
    e = raw_env(encoding=V5, opponents_hand_visible=visible)
    assert e.possible_agents == ["player_0", "player_1"]
    for agent in e.possible_agents:
        assert e.action_space(agent) == spaces.Discrete(110)
        obs = e.observation_space(agent)
        assert obs is e.observation_space(agent)
        assert obs["observation"] == spaces.Box(0, 1, (planes, 52), np.int8)
        assert obs["action_mask"] == spaces.Box(0, 1, (110,), np.int8)
    assert e.observation_spec().splitlines()[1:] == [
        f"{i}  {name}" for i, name in enumerate(
            ["hand", "top discard", "dead cards", "opponent known cards", "unknown cards"][:planes])]


def test_planes_hold_the_hand_the_pile_and_what_is_known() -> None:
    e = raw_env(encoding=V5, opponents_hand_visible=True)
    e.reset(seed=3)
    m = e.match
    while not e.terminations["player_0"]:  # take every discard offered: the known cards fill
        view = m.view(m.to_move)
        grid = e.observe(e.agent_selection)["observation"]
        assert sorted(np.flatnonzero(grid[0])) == sorted(column(c) for c in view.hand)
        pile = [column(c) for c in view.discards]
        assert list(np.flatnonzero(grid[1])) == pile[-1:]
        assert sorted(np.flatnonzero(grid[2])) == sorted(pile[:-1])
        other = 1 - m.to_move  # what it took from the pile, and after a knock its melds shown
        known = [*view.known(other), *(c for meld in view.table[other] for c in meld.cards)]
        assert sorted(np.flatnonzero(grid[3])) == sorted(column(c) for c in known)
        assert (grid[:4].sum(axis=0) + grid[4] == 1).all()  # the unknown cards: all the others
        face_down = view.face_down and view.knock_discard is None  # the other's knock discard
        unseen = view.stock_size + len(m.view(other).hand) - len(view.known(other)) + face_down
        assert grid[4].sum() == unseen
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(3 if 3 in legal else legal[-1]))


def _pick(legal: Any) -> int:
    """Gin, else the first knock, else a score, else draw from the stock, else the last discard id."""
    legal = [int(i) for i in legal]
    for wanted in (lambda i: i == 5, lambda i: i >= 58, lambda i: i < 2, lambda i: i == 2):
        chosen = [i for i in legal if wanted(i)]
        if chosen:
            return chosen[0]
    return legal[-1]


def test_a_scripted_hand_plays_the_expected_actions() -> None:
    e = raw_env(encoding=V5)
    e.reset(seed=5)
    played, rewards = [], {a: 0.0 for a in e.agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        rewards[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        a = _pick(np.flatnonzero(obs["action_mask"]))
        e.step(a)
        played.append((a, str(e.last_event.action)))
    assert played == [
        (2, "P1 pass"), (2, "P2 pass"),  # the upcard offer's pass is "draw card"
        (2, "P1 draw stock"), (49, "P1 discard 5C"), (2, "P2 draw stock"), (54, "P2 discard TC"),
        (2, "P1 draw stock"), (46, "P1 discard 2C"), (2, "P2 draw stock"), (43, "P2 discard QD"),
        (2, "P1 draw stock"), (45, "P1 discard AC"), (2, "P2 draw stock"), (42, "P2 discard JD"),
        (2, "P1 draw stock"), (53, "P1 discard 9C"), (2, "P2 draw stock"), (37, "P2 discard 6D"),
        (2, "P1 draw stock"), (39, "P1 discard 8D"), (2, "P2 draw stock"), (36, "P2 discard 5D"),
        (2, "P1 draw stock"), (56, "P1 discard QC"), (2, "P2 draw stock"),
        (79, "P2 knock 9H"),  # 58 + 13 (hearts) + 8
        (0, "P1 done"),  # the defender (player_0) scores its hand: lays off, then done
    ]
    result = e.last_event.result
    assert result.ending == "knock" and result.ender == 1
    # gin_rummy_v5's rewards: the knocker 0.5, the other minus its deadwood over 100
    assert rewards == {"player_0": -result.deadwoods[0] / 100, "player_1": 0.5}


def test_every_id_plays_the_action_of_its_meaning() -> None:
    rng = random.Random(0)
    for seed in range(6):
        e = raw_env(variant="gin_rummy", encoding=V5, max_turns=400)
        e.reset(seed=seed)
        v5, m = e.v5, e.match
        assert v5 is not None
        while not any(e.terminations.values()) and not any(e.truncations.values()):
            seat = m.to_move
            moves = v5.moves(m)
            for i, action in moves.items():
                name = meaning(i)
                if i < 2:
                    assert i == seat and isinstance(action, Done)
                elif i == 2:
                    assert isinstance(action, Pass) or (isinstance(action, Draw) and action.source == "stock")
                elif i == 3:
                    assert isinstance(action, Draw) and action.source == "discard"
                elif i == 5:
                    assert isinstance(action, Knock)
                    hand = m.view(seat).hand
                    assert action.card is None or m.view(seat).rules.min_deadwood(
                        [c for c in hand if c is not action.card]) == 0
                else:
                    assert isinstance(action, Discard if i < 58 else Knock)
                    assert name.split()[1] == str(action.card).split("/")[0]
            ids = sorted(moves)
            e.step(rng.choice([i for i in ids if i >= 58 or i < 2] or ids))


def test_the_encoded_env_passes_pettingzoos_checks() -> None:
    api_test(env(encoding=V5, max_turns=300), num_cycles=300)
    api_test(env(variant="oklahoma_gin", encoding=V5, opponents_hand_visible=True, max_turns=300), num_cycles=100)
    seed_test(lambda: env(encoding=V5, max_turns=300), num_cycles=100)


def test_configured_rewards_survive_a_seeded_reset() -> None:
    # PettingZoo #1312: gin_rummy_v5 lost knock_reward on reset(seed=...) before v5
    e = raw_env(encoding=V5, knock_reward=0.3)
    for _ in range(2):
        e.reset(seed=5)
        total = {a: 0.0 for a in e.agents}
        for agent in e.agent_iter():
            obs, reward, termination, truncation, _ = e.last()
            total[agent] += reward
            e.step(None if termination or truncation else _pick(np.flatnonzero(obs["action_mask"])))
        assert total["player_1"] == 0.3


def test_rewards_and_encodings_mix() -> None:
    planes = raw_env(reward="pettingzoo_gin_v5")
    assert planes.v5 is None and planes.observation_space("player_0")["observation"].shape == (16, 52)
    zero_sum = raw_env(encoding=V5, reward="zero_sum")
    assert zero_sum.options.reward == "zero_sum"


@pytest.mark.parametrize("variant, message", [
    ("skarney_gin", "turn of a draw"), ("ginski", "one 52-card pack"), ("rummy_500", "turn of a draw")])
def test_variants_it_cannot_speak_are_refused(variant: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        raw_env(variant=variant, players=2, encoding=V5)
    with pytest.raises(ValueError, match="encoding is"):
        raw_env(encoding="gin_rummy_v4")


def test_hidden_cards_dealt_again_leave_the_planes_alone() -> None:
    rng = random.Random(1)
    e = raw_env(encoding=V5, opponents_hand_visible=True, max_turns=200)
    for seed in range(3):
        e.reset(seed=seed)
        while not any(e.terminations.values()) and not any(e.truncations.values()):
            m, v5 = e.match, e.v5
            assert v5 is not None
            for seat in (0, 1):
                world = m.resample(seat, random.Random(rng.getrandbits(32)))
                assert (v5.encode(world, seat) == v5.encode(m, seat)).all()
            ids = sorted(v5.moves(m))
            e.step(rng.choice([i for i in ids if i >= 58 or i < 2] or ids))


def test_gin_v5_is_for_the_encoded_match_only() -> None:
    from rummydsl import Match

    with pytest.raises(ValueError, match="two players"):
        GinV5(Match.new("gin_three_handed", seed=1))


def test_rlcard_gin_begins_by_drawing_and_passes_the_floor_as_a_dead_hand() -> None:
    # rlcard_gin: no upcard, so the first id is 2 (draw a card); at the stock's floor the
    # next player's pass on the last discard is 4 (declare dead hand), and the hand is void
    e = raw_env(variant="rlcard_gin", encoding=V5)
    e.reset(seed=1)
    assert list(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])) == [2]
    assert e.observe(e.agent_selection)["observation"][1:3].sum() == 0  # no pile yet
    rng = random.Random(0)
    for seed in range(40):
        e.reset(seed=seed)
        while not e.terminations["player_0"]:
            ids = list(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))
            choice = 4 if 4 in ids else rng.choice([int(i) for i in ids if i not in (5,) and i < 58])
            e.step(choice)
        if choice == 4:
            assert str(e.last_event.action).endswith("pass") and e.last_event.result.ending == "void"
            return
    raise AssertionError("no hand reached the floor")
