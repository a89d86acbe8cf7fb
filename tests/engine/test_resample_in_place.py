"""A redeal of a one-round match without history (a search's world) plays its own round
in place, and plays exactly as a copy of it does (engine/match_step.py, ``resample``)."""

from __future__ import annotations

import random

import pytest

from rummydsl import Match


@pytest.mark.parametrize("name", ["gin_rummy", "rummy"])
def test_a_world_plays_in_place_as_its_copy_plays(name: str) -> None:
    m = Match.new(name, seed=3, history=False)
    rng = random.Random(3)
    for _ in range(12):
        m.apply(rng.choice(m.legal_ids()))
    observation = m.view(m.to_move)
    base = observation.sample(random.Random(1))
    world = base.resample(m.to_move, random.Random(2))
    twin = world.copy()  # both hold the round now: each apply of either plays on a copy
    world = base.resample(m.to_move, random.Random(2))  # the same world, held alone
    rnd = world._s.round
    picks = random.Random(4)
    while world.to_move >= 0 and world._s.round.result is None:
        pick = picks.choice(world.legal_ids())
        assert world.apply(pick) == twin.apply(pick)
        assert world._s.round is rnd  # changed in place
        assert world.state() == twin.state()
    assert world.returns() == twin.returns()
    assert observation.hand == tuple(m._s.round.hands[observation.player])  # the match observed is untouched
