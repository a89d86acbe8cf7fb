"""Hidden information, tested as OpenSpiel's gin_rummy never was (issue 19): dealing again
every card hidden from a seat, consistently with all it has seen (Match.resample), leaves
that seat's observation planes and its observation JSON (the OpenSpiel string, what a
prompt is built from) exactly as they were, in every phase every shipped variant reaches
in play (one game random, one by greedy agents, who knock and lay off), seeded and dealt by
chance; and the redeal does move hidden cards."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from rummydsl import Match  # noqa: E402
from rummydsl.agents import make_agents  # noqa: E402
from rummydsl.engine.match_view import PHASES  # noqa: E402
from rummydsl.envs.planes import Planes  # noqa: E402
from rummydsl.variant import load_variant, shipped_variant_ids  # noqa: E402

GAMES = 2
STEPS = 400
"""Steps of each game played (a hand of most variants, its showdown included)."""

LAYS_OFF = {"gin_rummy", "gin_three_handed", "ginski", "ginski_four", "hollywood_gin", "oklahoma_gin",
            "openspiel_gin", "tournament_gin"}
"""Variants with lay-offs after a knock with deadwood: the phase where OpenSpiel's gin_rummy
showed the defender's hand (google-deepmind/open_spiel PR #1604) must be among those tested."""


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """``np.array_equal`` of two planes, and of the same dtype: their bytes compared (a
    fifth of ``array_equal``'s time on arrays this small, called at every step)."""
    return bool(a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes())


def _cases() -> list[tuple[str, int, str]]:
    out = []
    for vid in shipped_variant_ids():
        low, high = load_variant(vid).players_range
        out.append((vid, low, "seeded"))
        out.append((vid, high, "explicit"))
    return out


CASES = _cases()


@pytest.mark.parametrize("vid,players,chance", CASES, ids=[f"{v}-{n}-{c}" for v, n, c in CASES])
def test_a_redeal_of_what_a_seat_cannot_see_leaves_its_observation_alone(vid: str, players: int,
                                                                          chance: str) -> None:
    phases: set[str] = set()
    moved = 0
    for game in range(GAMES):
        rng = random.Random(game)
        m = Match.new(vid, seed=game, players=players, chance=chance, history=False)
        greedy = make_agents("greedy", players, rng) if game == 1 else None
        planes = Planes(m)
        for step in range(STEPS):
            if m.over:
                break
            seat = step % players
            other = m.resample(seat, random.Random(step))
            assert _same(planes.encode(other, seat), planes.encode(m, seat)), \
                f"{vid} step {step}: seat {seat}'s planes changed when its hidden cards were dealt again"
            assert other.observation(seat).to_json() == m.observation(seat).to_json(), \
                f"{vid} step {step}: seat {seat}'s observation changed when its hidden cards were dealt again"
            if not moved:  # the assertion below needs one redeal that moved a card: no state dumps after it
                moved += other.state()["round"] != m.state()["round"]
            if m.to_move >= 0:
                phases.add(m.round.phase.value)
            if greedy is not None and m.to_move >= 0:
                m.apply(greedy[m.to_move].act(m.view(m.to_move)))
            else:
                m.apply(rng.choice(m.legal_ids()))
    assert moved, f"{vid}: no redeal moved a hidden card, so the test showed nothing"
    assert phases <= set(PHASES) and {"draw"} <= phases
    if vid in LAYS_OFF:
        assert "showdown" in phases, f"{vid}: the lay-offs after a knock were never reached"
