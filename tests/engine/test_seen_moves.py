"""``Observation.moves()``: the moves of the whole game a seat may know, round by round,
and ``Observation.past_results()``: the rounds before, as the seat saw them end. A game
hands each round it deals the rounds played before it (``Round.earlier``), so an agent
given only the round's observation (the play loop's ``match.view(seat)``) sees them; a
redeal of hidden cards, a copy, a save of the match in JSON keep them; and the one card a
move hides (a knock's face-down discard) is named to the knocker alone."""

from __future__ import annotations

import random

import pytest

from rummydsl import Match
from rummydsl.agents import make_agents
from rummydsl.engine import Game, Knock, play_game
from rummydsl.engine.observe import result_for
from rummydsl.variant import load_variant


def _played(vid: str, rounds: int, seed: int = 3, chance: str = "seeded") -> Match:
    """A greedy game of ``vid`` played (with history) into its round ``rounds``."""
    m = Match.new(vid, seed=seed, chance=chance)
    agents = make_agents("greedy", m.players, random.Random(seed))
    rng = random.Random(seed)
    while not m.over and (m.round.number < rounds or m.to_move < 0):
        if m.to_move < 0:
            m.apply(rng.choice(m.legal_actions()))
            continue
        m.apply(agents[m.to_move].act(m.view(m.to_move)))
    assert m.round.number == rounds
    return m


def test_the_moves_of_every_round_so_far_each_with_its_round() -> None:
    m = _played("gin_rummy", 3)
    for _ in range(4):
        m.apply(m.legal_actions()[0])
    knocker = m.game.past[0].result.ender
    assert knocker is not None
    view = m.view(knocker)
    moves = view.moves()
    assert [move.round for move in moves] == sorted(move.round for move in moves)
    assert {move.round for move in moves} == {1, 2, 3}
    truth = [(p.number, a) for p in m.game.past for a in p.actions] + [(3, a) for a in m.round.actions]
    assert [(move.round, move.player, move.text) for move in moves] == [(n, a.player, str(a)) for n, a in truth]
    assert view.moves(round=3) == tuple(move for move in moves if move.round == 3)
    assert [n for n, _ in view.past_results()] == [1, 2]
    assert [r for _, r in view.past_results()] == [result_for(p.result, knocker) for p in m.game.past]


def test_another_seats_face_down_knock_is_read_without_its_card() -> None:
    m = _played("gin_rummy", 2)
    past = m.game.past[0]
    knock = next(a for a in past.actions if isinstance(a, Knock))
    assert past.face_down and knock.card is not None
    other = 1 - knock.player
    seen = [move.text for move in m.view(other).moves(round=1) if move.player == knock.player]
    assert seen[-1].startswith(f"P{knock.player + 1} knock (discarding face down)")
    assert str(knock.card) not in seen[-1]
    assert str(knock) in [move.text for move in m.view(knock.player).moves(round=1)]


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_redeal_a_copy_and_json_keep_the_rounds_before(chance: str) -> None:
    m = _played("rummy", 2, seed=4, chance=chance)
    assert len(m.view(0).past_results()) == 1
    m.apply(m.legal_actions()[0])
    for seat in range(m.players):
        mine = m.view(seat).moves()
        assert m.resample(seat, random.Random(seat)).view(seat).moves() == mine
        assert m.copy().view(seat).moves() == mine
        assert Match.from_json(m.to_json()).view(seat).moves() == mine
        assert m.observation(seat).round.moves() == mine


def test_a_game_played_in_place_hands_each_round_the_rounds_before() -> None:
    game = Game(load_variant("gin_rummy"), random.Random(5))
    seen: list[int] = []

    class Watch:
        def act(self, view):  # type: ignore[no-untyped-def]
            seen.append(len(view.past_results()))
            return greedy.act(view)

    greedy = make_agents("greedy", 1, random.Random(0))[0]
    play_game(game, [Watch(), Watch()])
    assert len(game.results) > 1 and sorted(set(seen)) == list(range(len(game.results)))


def test_a_round_dealt_alone_has_none_before_it() -> None:
    m = Match.new("gin_rummy", seed=1)
    assert m.view(0).past_results() == () and m.round.earlier == ()
    assert all(move.round == 1 for move in m.view(0).moves())
