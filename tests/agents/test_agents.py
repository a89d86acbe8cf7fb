"""The agents of rummydsl/agents/: legal to the end of seeded games of every shipped
variant, reproducible from their seed, and blind to what their seat may not know."""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import AGENT_NAMES, make_agents, parse_agent
from rummydsl.engine.match import CHANCE, TERMINAL, Match
from rummydsl.engine.play import play
from rummydsl.errors import AgentError
from rummydsl.variant import shipped_variant_ids

SHIPPED = sorted(shipped_variant_ids())

QUICK = {
    "heuristic": "heuristic",
    "simple": "simple",
    "ismcts": "ismcts:iters=3:depth=2",
    "pimc": "pimc:samples=1:depth=2",
}
"""Each new agent with few iterations: legality, not strength, is what is tested here."""


def test_every_agent_name_is_tested() -> None:
    assert set(AGENT_NAMES) - {"random", "greedy"} == set(QUICK)


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_each_agent_plays_a_seeded_game_of_every_variant_to_its_end(variant_id: str) -> None:
    """The play loop refuses an illegal action (AgentError): a game played to its end
    means every action each agent chose was legal."""
    names = ",".join(QUICK.values())
    m = Match.new(variant_id, seed=11, history=False)
    agents = make_agents(names, m.players, random.Random(11))
    rounds = 0
    for event in play(m, agents):
        rounds += getattr(event, "result", None) is not None
        if rounds == ROUNDS.get(variant_id):
            return
    assert m.over and m.stalled is None


ROUNDS = {"contract_rummy": 2}
"""Variants whose whole game is long (Contract Rummy's seven deals): the first rounds only."""


@pytest.mark.parametrize("name", ["ismcts:iters=6:depth=4", "pimc:samples=1:depth=4", "ismcts:iters=6:rollout=random"])
def test_a_search_agent_plays_the_same_game_from_the_same_seed(name: str) -> None:
    def one() -> list[str]:
        m = Match.new("gin_rummy", seed=5, history=False)
        agents = make_agents(f"{name},greedy", 2, random.Random(3))
        moves = []
        for event in play(m, agents):
            moves.append(str(getattr(event, "action", event)))
            if len(moves) == 30:
                break
        return moves

    assert one() == one()


def _states(variant_id: str, count: int, seed: int) -> list[Match]:
    """Positions of random play where a seat has a choice to make."""
    rng = random.Random(seed)
    m = Match.new(variant_id, seed=seed)
    found: list[Match] = []
    for _ in range(400):
        if m.to_move in (TERMINAL, CHANCE) or len(found) >= count:
            break
        if len(m.view(m.to_move).legal_actions()) > 1 and rng.random() < 0.3:
            found.append(m.copy())
        legal = m.view(m.to_move).legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    return found


@pytest.mark.parametrize("variant_id", ["gin_rummy", "ginski", "skarney_gin", "rummy", "contract_rummy",
                                        "knock_rummy"])
@pytest.mark.parametrize("name", ["greedy", "heuristic", "simple", "ismcts:iters=8:depth=3", "pimc:samples=2:depth=3"])
def test_an_agent_answers_the_same_in_every_world_its_seat_cannot_tell_apart(variant_id: str, name: str) -> None:
    """The leak test of agents: the true position and another dealt consistently with all
    the seat saw (Match.resample: the cards hidden from it elsewhere) get the same answer
    from an agent seeded alike. An agent that read a hidden card would answer differently."""
    for k, m in enumerate(_states(variant_id, 3, seed=21)):
        seat = m.to_move
        other = m.resample(seat, random.Random(100 + k))
        assert other.view(seat).as_json() == m.view(seat).as_json()
        if other.state() == m.state():
            continue
        first = make_agents(name, 1, random.Random(k))[0].act(m.view(seat))
        second = make_agents(name, 1, random.Random(k))[0].act(other.view(seat))
        assert str(first) == str(second), f"{name} at {variant_id}, position {k}"


def test_a_sample_is_consistent_with_the_view_and_leaves_the_round_alone() -> None:
    m = _states("gin_rummy", 1, seed=4)[0]
    seat = m.to_move
    before = m.state()
    view = m.view(seat)
    guess = view.sample(random.Random(1))
    assert guess.view(seat).as_json() == view.as_json()
    while guess.to_move >= 0:
        guess.apply(guess.view(guess.to_move).legal_actions()[0])
    assert guess.round.result is not None and m.state() == before


@pytest.mark.parametrize("name,message", [
    ("ismcts:x=1", "agent 'ismcts' has no setting 'x'"),
    ("ismcts:iters=zero", "ismcts's iters must be a number, not 'zero'"),
    ("pimc:samples=0", "pimc's samples must be more than 0"),
    ("ismcts:rollout=smart", "ismcts's rollout is random, fast, greedy or heuristic"),
    ("clever", "unknown agent 'clever'"),
    ("greedy:3", "agent 'greedy' has no setting"),
])
def test_a_bad_agent_name_or_setting_is_refused_naming_it(name: str, message: str) -> None:
    with pytest.raises(AgentError, match=message):
        parse_agent(name, 1)
