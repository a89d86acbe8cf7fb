"""The agents of rummydsl/agents/: legal to the end of seeded games of every shipped
variant, reproducible from their seed, and blind to what their seat may not know."""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import AGENT_NAMES, make_agents, parse_agent
from rummydsl.agents.fast import FastAgent
from rummydsl.agents.heuristic import HeuristicAgent, meld_chance
from rummydsl.agents.search import ISMCTSAgent
from rummydsl.engine.match import CHANCE, TERMINAL, Match
from rummydsl.engine.play import play
from rummydsl.errors import AgentError
from rummydsl.variant import shipped_variant_ids

SHIPPED = sorted(shipped_variant_ids())

QUICK = {
    "heuristic": "heuristic",
    "simple": "simple",
    "ismcts": "ismcts:iters=6:depth=2:visits=2:rollout=fast",
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


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_the_fast_playout_policy_plays_a_seeded_game_of_every_variant_to_its_end(variant_id: str) -> None:
    """``rollout=fast`` moves without listing the legal actions at times (a discard where no
    knock can be legal, ``done`` short of a contract): each must still be legal."""
    m = Match.new(variant_id, seed=12, history=False)
    for event in play(m, [FastAgent() for _ in range(m.players)]):
        if getattr(event, "result", None) is not None:
            return  # a round is enough: the shortcuts come every turn
    assert m.over and m.stalled is None


@pytest.mark.parametrize("focus,iterations", [(0, 5), (1, 6)])
def test_too_few_iterations_to_outvote_the_policy_play_its_move_unsearched(focus: int, iterations: int) -> None:
    """With ``focus=1`` the root's two moves (pass, take the upcard) are each tried once
    per sampled world, so 5 iterations are rounded up to 3 worlds."""
    m = Match.new("gin_rummy", seed=4)
    view = m.view(m.to_move)
    agent = ISMCTSAgent(random.Random(1), iters=5, focus=focus)
    assert str(agent.act(view)) == str(HeuristicAgent().act(view))
    assert agent.stats.moves == 0
    searched = ISMCTSAgent(random.Random(1), iters=5, visits=2, focus=focus)
    searched.act(view)
    assert searched.stats.moves == 1 and searched.stats.iterations == iterations


def test_meld_chance_counts_the_cards_a_seat_was_seen_taking() -> None:
    """The heuristic's safe offers: two cards the receiver was seen taking that meld with a
    card count as a pair it holds for sure."""
    m = Match.new("skarney_gin", seed=3)
    seat = m.to_move
    other = 1 - seat
    view = m.view(seat)
    deck = view.rules.deck
    hand = {c.id for c in view.hand}
    free = [c for c in deck.cards if c.id not in hand]
    # a rank of which the seat holds none: two of it seen going into the other hand
    rank = next(r for r in deck.ranks if sum(c.rank is r for c in free) == 4)
    two, three = [c for c in free if c.rank is rank][:2], [c for c in free if c.rank is rank][2]
    before = meld_chance(view, other, three)
    m.round.known[other].extend(two)
    after = meld_chance(m.view(seat), other, three)
    assert after > before + 0.5 and after >= 1.0


@pytest.mark.parametrize("name", ["ismcts:iters=6:depth=4:visits=2", "pimc:samples=2:depth=4",
                                  "ismcts:iters=6:rollout=random:visits=2", "ismcts:iters=8:rollout=fast:visits=2",
                                  "ismcts:iters=6:depth=4:visits=2:focus=0"])
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
@pytest.mark.parametrize("name", ["greedy", "heuristic", "simple", "ismcts:iters=8:depth=3:visits=2",
                                  "ismcts:iters=8:depth=3:visits=2:rollout=fast", "ismcts:iters=8:depth=3:visits=2:focus=0",
                                  "pimc:samples=2:depth=3"])
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
