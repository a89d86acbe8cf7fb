"""ISMCTS with ``focus=1`` (the default): the root compares one move of each kind, in
shared sampled worlds, and leaves a choice within one kind to its policy."""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import make_agents, parse_agent
from rummydsl.agents.focus import candidates, kind
from rummydsl.agents.heuristic import HeuristicAgent
from rummydsl.agents.search import ISMCTSAgent
from rummydsl.engine.actions import Discard, Knock
from rummydsl.engine.match import CHANCE, TERMINAL, Match
from rummydsl.engine.observe import Observation
from rummydsl.engine.play import play
from rummydsl.errors import AgentError


def _first_view(variant_id: str, seed: int, wanted: set[str]) -> Observation:
    """The first decision of a seeded random game whose legal actions hold every kind of ``wanted``."""
    rng = random.Random(seed)
    m = Match.new(variant_id, seed=seed)
    for _ in range(2000):
        if m.to_move in (TERMINAL, CHANCE):
            m = Match.new(variant_id, seed=rng.randrange(10**6))
            continue
        view = m.view(m.to_move)
        legal = view.legal_actions()
        if wanted <= {kind(a) for a in legal}:
            return view
        m.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"no decision with {wanted} in {variant_id}")


def test_a_knock_decision_compares_the_policys_move_with_one_move_of_the_other_kind() -> None:
    view = _first_view("gin_rummy", 3, {"Knock", "Discard"})
    anchor = HeuristicAgent().act(view)
    moves = candidates(view, anchor)
    assert str(moves[0]) == str(anchor)
    assert sorted(kind(a) for a in moves) == ["Discard", "Knock"]
    assert all(str(a) in {str(b) for b in view.legal_actions()} for a in moves)


def test_a_choice_within_one_kind_is_left_to_the_policy_unsearched() -> None:
    view = _first_view("gin_rummy", 5, {"Discard"})
    if any(isinstance(a, Knock) for a in view.legal_actions()):
        pytest.skip("this decision has a knock too")
    assert all(isinstance(a, Discard) for a in view.legal_actions())
    agent = ISMCTSAgent(random.Random(1), iters=40, rollout="fast")
    assert str(agent.act(view)) == str(HeuristicAgent().act(view))
    assert agent.stats.moves == 0


@pytest.mark.parametrize("variant_id,wanted", [("gin_rummy", {"Knock", "Discard"}),
                                               ("skarney_gin", {"Take", "Decline"}),
                                               ("ginski", {"Draw:stock", "Draw:discard"})])
def test_a_focused_search_gives_the_same_move_and_work_from_the_same_seed(variant_id: str, wanted: set[str]) -> None:
    view = _first_view(variant_id, 7, wanted)

    def one() -> tuple[str, int, int]:
        agent = ISMCTSAgent(random.Random(9), iters=12, depth=3, visits=3, rollout="fast")
        move = str(agent.act(view))
        return move, agent.stats.iterations, agent.stats.steps

    first = one()
    assert first == one()
    assert first[1] == 12  # two moves, six worlds each
    assert first[0] in {str(a) for a in view.legal_actions()}


@pytest.mark.parametrize("variant_id", ["gin_rummy", "skarney_gin", "ginski"])
def test_a_seeded_focused_ismcts_game_replays_move_for_move(variant_id: str) -> None:
    def one() -> list[str]:
        m = Match.new(variant_id, seed=2, history=False)
        agents = make_agents("ismcts:iters=8:depth=2:visits=2:rollout=fast,greedy", m.players, random.Random(4))
        moves = []
        for event in play(m, agents):
            moves.append(str(getattr(event, "action", event)))
            if len(moves) == 60:
                break
        return moves

    assert one() == one()


def test_focus_and_widen_are_settings() -> None:
    assert parse_agent("ismcts:focus=0:widen=3") == ("ismcts", {"focus": 0, "widen": 3})
    with pytest.raises(AgentError, match="ismcts's widen must be more than 0"):
        parse_agent("ismcts:widen=0")
