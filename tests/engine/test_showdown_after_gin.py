"""After gin the defenders still show their melds, and lay off nothing (GR-7.1, GR-7.2):
scoring waits for them as after a knock (issue 17 section 4). Automatic play says
``done`` for them (``Round.automatic``), so seeded games give the figures they gave."""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Game, play_game, play_round
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .conftest import position

GIN = ("P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S] [2S 3S 4S]")


def gin_deal(variant: str = "gin_rummy"):  # type: ignore[no-untyped-def]
    rnd = position(variant, dealer="P2",
                   hands={"P1": "5H 6H 7H 8H 9C 9D 9S 2S 3S 4S", "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
                   stock="KC 3D 4D 5D 6D 8D TD JD 2H 3H TH", upcard="QD")
    for action in GIN:
        rnd.apply(action)
    return rnd


def test_the_defender_shows_melds_then_done_scores() -> None:
    """GR-7.1: 'P2 meld [...]' and 'P2 done' after a gin, as DESIGN.md writes them."""
    rnd = gin_deal()
    assert rnd.result is None and rnd.phase.value == "showdown" and rnd.to_move == 1
    assert [str(a) for a in rnd.legal_actions()] == ["P2 done"]  # nothing to lay off
    rnd.apply("P2 meld [KS KH KD] [2C 3C 4C]")
    assert rnd.result is None and [[str(c) for c in m] for m in rnd.declared[1] or ()] == [
        ["KS", "KH", "KD"], ["2C", "3C", "4C"]]
    rnd.apply("P2 done")
    assert rnd.result is not None and rnd.result.ending == "gin"
    assert rnd.result.deadwoods == (0, 30) and rnd.result.points == (55, 0)


def test_a_defender_who_shows_nothing_is_given_the_least_deadwood() -> None:
    rnd = gin_deal()
    rnd.apply("P2 done")
    assert rnd.result is not None and rnd.result.points == (55, 0)


@pytest.mark.parametrize(("action", "reason"), [
    ("P2 meld [KS KH QC]", "[KS KH QC] is not a meld of this variant (kinds: set, run)"),
    ("P2 meld [AS AH AD]", "P2 has no AS in hand"),
    ("P2 layoff 9H on P1#1", "nothing is laid off after gin (GR-7.2; layoff.after_gin: false): "
                             "show melds or say 'done'"),
    ("P2 discard 7D", "after gin a defender shows melds or says 'done' (GR-7.1)"),
    ("P1 done", "it is P2's move, not P1's"),
])
def test_bad_showdown_actions_after_gin_change_nothing(action: str, reason: str) -> None:
    rnd = gin_deal()
    before = rnd.to_json()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(action)
    assert caught.value.reason == reason and action in str(caught.value)
    assert rnd.to_json() == before


def test_melds_shown_twice_are_refused() -> None:
    rnd = gin_deal()
    rnd.apply("P2 meld [KS KH KD]")
    with pytest.raises(IllegalActionError, match="melds were already shown this round"):
        rnd.apply("P2 meld [2C 3C 4C]")


def test_after_gin_lay_offs_with_after_gin() -> None:
    """GR-7.2 layoff_after_gin = on: the showdown after gin lists the lay-offs again."""
    from .conftest import house

    rnd = gin_deal(house("gin_layoff_after_gin", "gin_rummy", "layoff: {after_gin: true}\n"))
    assert "P2 layoff 9H on P1#1" in [str(a) for a in rnd.legal_actions()]


def test_knock_rummy_still_scores_at_the_knock() -> None:
    """KR-3: nobody lays off (``layoff.onto: none``), and everyone's best arrangement is
    shown for them: no showdown, as before."""
    rnd = position("knock_rummy", dealer="P3",
                   hands={"P1": "5H 6H 7H 9C 9D 9S 2D", "P2": "AS 2S 3S QD QH 4C 8C", "P3": "TC JC QC 4D 4H 6S 7S"},
                   stock="KC 5S 8S", upcard="8D")
    rnd.apply("P1 draw stock")
    rnd.apply("P1 knock KC")
    assert rnd.result is not None


def test_automatic_play_says_done_for_the_defender() -> None:
    """play_round does not ask the agents (their figures stay those of before)."""
    rnd = gin_deal()
    assert str(rnd.automatic()) == "P2 done"

    class Refuses:
        def act(self, observation):  # type: ignore[no-untyped-def]
            raise AssertionError("the defender after gin was asked")

    result = play_round(rnd, [Refuses(), Refuses()])
    assert result.points == (55, 0) and str(rnd.actions[-1]) == "P2 done"


def test_seeded_games_keep_their_figures() -> None:
    """Seeded greedy and random games: the totals, rounds and gins they gave before the
    showdown waited after gin (taken from the engine before the change). Random Oklahoma
    play holds a gin, so asking the random agent for the defender's 'done' would shift
    its generator and every later choice."""
    got = []
    for name in ("gin_rummy", "oklahoma_gin"):
        variant = load_variant(name)
        for agents in ("greedy", "random"):
            points = [0, 0]
            rounds = gins = 0
            for seed in range(8):
                game = Game(variant, random.Random(seed))
                result = play_game(game, make_agents(agents, 2, random.Random(1000 + seed)))
                points = [a + b for a, b in zip(points, result.points)]
                rounds += result.rounds
                gins += sum(1 for r in game.results if r.ending in ("gin", "big_gin"))
            got.append((name, agents, tuple(points), rounds, gins))
    assert got == [("gin_rummy", "greedy", (805, 395), 68, 3), ("gin_rummy", "random", (631, 572), 718, 0),
                   ("oklahoma_gin", "greedy", (1262, 603), 89, 14), ("oklahoma_gin", "random", (1016, 997), 2104, 1)]
