"""The one play loop (rummydsl/engine/play.py; issue 18, "One play loop").

Its consumers (play_round, play_game, records, simulate, check --play, the terminal, the
golden playthroughs) are tested where they are; here: that the loop plays as the loops it
replaced did, yields every move in order, refuses and stalls with today's errors, and
takes back.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummydsl import Match
from rummydsl.agents import make_agents
from rummydsl.engine import Game, Observation, play_game
from rummydsl.engine.actions import Discard, Done
from rummydsl.engine.match import Event
from rummydsl.engine.play import TakeBack, TakenBack, play
from rummydsl.errors import AgentError, StalledRoundError
from rummydsl.variant import load_variant, shipped_variant_ids


def events_of(m: Match, agents: Any, **options: Any) -> list[Event]:
    out = []
    for event in play(m, agents, **options):
        assert isinstance(event, Event)
        out.append(event)
    return out


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_a_seeded_match_plays_as_a_game_does(variant_id: str) -> None:
    """Match.new(seed=S) played by the loop deals and ends exactly as Game(Random(S)) played by play_game."""
    variant = load_variant(variant_id)
    for seed in (1, 2):
        m = Match.new(variant, seed=seed, history=False)
        events = events_of(m, make_agents("greedy", m.players, random.Random(seed)))
        game = Game(variant, random.Random(seed))
        assert m.game.result == play_game(game, make_agents("greedy", game.players, random.Random(seed)))
        assert sum(e.result is not None for e in events) == game.result.rounds  # type: ignore[union-attr]
        assert events[-1].game == game.result and m.over


def test_every_move_is_yielded_in_order_the_automatic_ones_included() -> None:
    """The actions of the events (each followed by its automatic moves) are the round's actions."""
    variant = load_variant("gin_rummy")
    automatic: list[Any] = []
    for seed in range(40):  # each game played once, to its end
        m = Match.new(variant, seed=seed, history=False)
        rnd = m.round
        events = events_of(m, make_agents("greedy", 2, random.Random(seed)))
        automatic.extend(a for e in events for a in e.automatic)
        if seed >= 30:
            continue
        moves: list[Any] = []
        for event in events:  # the first round's
            moves.append(event.action)
            moves.extend(event.automatic)
            if event.result is not None:
                break
        assert moves == rnd.actions
    # a defender's done after gin is automatic: some round of these seeds shows one
    assert automatic and all(isinstance(a, Done) for a in automatic)


class Scripted:
    """An agent that answers from a list, then as the agent it wraps."""

    def __init__(self, answers: list[Any], then: Any) -> None:
        self.answers = answers
        self.then = then
        self.refusals: list[str] = []

    def act(self, observation: Observation) -> Any:
        if self.answers:
            answer = self.answers.pop(0)
            return answer(observation) if callable(answer) else answer
        return self.then.act(observation)


def test_a_refused_action_is_an_agent_error_naming_the_seat_and_the_action() -> None:
    m = Match.new("gin_rummy", seed=4, history=False)
    seat = m.to_move
    before = m.state()
    bad = Discard(seat, m.round.stock[0])  # a card of the stock: never in the hand
    agents = [Scripted([bad], None), Scripted([bad], None)]
    with pytest.raises(AgentError) as error:
        list(play(m, agents))
    assert error.value.seat == f"P{seat + 1}" and repr(str(bad)) in error.value.reason
    assert "which the engine refused" in error.value.reason and error.value.refused is not None
    assert m.state() == before


def test_a_round_past_its_action_cap_stalls() -> None:
    m = Match.new("gin_rummy", seed=4, history=False)
    with pytest.raises(StalledRoundError, match=r"gin_rummy: round 1 ran past 5 actions without ending "
                                                r"\(P[12] to move, in the \w+ phase\)"):
        list(play(m, make_agents("random", 2, random.Random(4)), max_actions=5))


def test_explicit_chance_needs_a_generator_and_then_plays() -> None:
    m = Match.new("gin_rummy", chance="explicit", history=False)
    with pytest.raises(ValueError, match="chance="):
        list(play(m, make_agents("greedy", 2, random.Random(1))))
    events = events_of(m, make_agents("greedy", 2, random.Random(1)), chance=random.Random(1))
    assert m.over and events[-1].game is not None


def test_taking_back_goes_to_the_seats_previous_decision() -> None:
    """P1 takes back once, on its first decision after P2 has moved: the match is as just
    before P1's previous decision, every move since undone (P2's too), and P1 is asked
    again there; then the game goes on to its end."""
    m = Match.new("gin_rummy", seed=9)
    greedy = make_agents("greedy", 2, random.Random(9))
    states: list[Any] = []
    took: list[int] = []

    def p1(observation: Observation) -> Any:
        states.append(m.state())
        if not took and m.round.actions and m.round.actions[-1].player == 1 and len(states) > 1:
            took.append(len(states))
            return TakeBack()
        return greedy[0].act(observation)

    agents: list[Any] = [Scripted([p1] * 60, greedy[0]), greedy[1]]
    taken = []
    for event in play(m, agents):
        if isinstance(event, TakenBack):
            taken.append(event)
            assert m.state() == states[-2], "back to just before P1's previous decision"
    assert took and [t.player for t in taken] == [0] and taken[0].undone >= 2  # P1's own move and P2's
    assert states[took[0]] == states[took[0] - 2], "asked again where it was"
    assert m.over


def test_a_take_back_is_refused_clearly() -> None:
    # no history
    m = Match.new("gin_rummy", seed=9, history=False)
    seat = m.to_move
    agents: list[Any] = make_agents("greedy", 2, random.Random(9))
    agents[seat] = Scripted([TakeBack()], agents[seat])
    with pytest.raises(AgentError, match="keeps no history"):
        list(play(m, agents))
    # nothing decided yet: an agent that hears refusals is told, and asked again
    m = Match.new("gin_rummy", seed=9)
    listener = Scripted([TakeBack()], make_agents("greedy", 2, random.Random(9))[seat])
    listener.refused = listener.refusals.append  # type: ignore[attr-defined]
    agents = make_agents("greedy", 2, random.Random(9))
    agents[seat] = listener
    events = [e for e in play(m, agents)]
    assert listener.refusals == ["it has chosen no move yet"]
    assert m.over and not any(isinstance(e, TakenBack) for e in events)
    # a game being recorded
    m = Match.new("gin_rummy", seed=9)
    agents = make_agents("greedy", 2, random.Random(9))
    agents[seat] = Scripted([TakeBack()], None)
    with pytest.raises(AgentError, match="being recorded"):
        list(play(m, agents, take_back=False))


@pytest.mark.parametrize("variant_id", ["gin_rummy", "skarney_gin", "ginski"])
def test_a_match_with_history_records_as_a_game_does(variant_id: str) -> None:
    """run_game writes the same record from a Match that keeps its history (each round a
    copy) as from a Game played in place."""
    from rummydsl.record import RecordWriter, run_game

    variant = load_variant(variant_id)
    records = []
    for subject in (Game(variant, random.Random(5)), Match.new(variant, seed=5)):
        lines: list[Any] = []
        played = run_game(subject, make_agents("greedy", variant.players, random.Random(5)),
                          writer=RecordWriter(lines.append))
        records.append((lines, played))
    assert records[0] == records[1]
