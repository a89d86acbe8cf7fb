"""Rummy (RULES-FAMILY.md BR) as shipped: the deal by player count (BR-1), seeded games
played to the end by random and greedy agents, and the greedy agent using the game's
mechanics (lay-offs onto other players' melds, going out, the pile turned over)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummydsl.agents import GreedyAgent, make_agents
from rummydsl.engine import Game, Observation, Round, play_game, play_round
from rummydsl.engine.actions import Draw
from rummydsl.variant import load_variant

from .conftest import house, play, position

CONFORMANCE_VARIANTS = Path(__file__).resolve().parents[1] / "conformance" / "variants"


@pytest.mark.parametrize("players,size", [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_hand_size_by_player_count(players: int, size: int) -> None:
    """BR-1: 10 cards each with 2 players, 7 with 3 or 4, 6 with 5 or 6; an upcard; the rest the stock."""
    variant = load_variant(house(f"rummy_{players}p", "rummy",
                                 f"players: {{count: {players}, min: 2, max: 6}}\n"))
    rnd = Round.deal(variant, random.Random(players), dealer=players - 1)
    assert [len(hand) for hand in rnd.hands] == [size] * players
    assert rnd.upcard is not None and rnd.discards == [rnd.upcard]
    assert len(rnd.stock) == 52 - players * size - 1
    assert rnd.to_move == 0 and rnd.phase.value == "draw"  # BR-1: left of the dealer, no upcard round


@pytest.mark.parametrize("agents", ["random", "greedy", "greedy,random"])
def test_seeded_games_play_to_the_end(agents: str) -> None:
    """Whole games of Rummy end with a winner at 100 or more, for both agents."""
    variant = load_variant("rummy")
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(variant, rng)
        result = play_game(game, make_agents(agents, variant.players, rng))
        assert game.over and result.winner is not None
        assert max(game.scores) >= 100


def test_greedy_beats_random() -> None:
    """The greedy agent uses the mechanics to win: over 40 seeded games against three random
    seats it wins far more than its even share (a quarter)."""
    variant = load_variant("rummy")
    wins = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(variant, rng)
        result = play_game(game, make_agents("greedy,random", variant.players, rng))
        wins += result.winner == 0
    assert wins >= 30


HANDS = {"P1": "3S 4S 5S 9H 9C 9D 5C", "P2": "2C 3C 4C 8H 8D JS QS", "P3": "AH AD 7C 7D TH JH QH",
         "P4": "5H 6H 2D 4D 6C KS KD"}


def _after_p4_discards(card: str) -> Round:
    """P1 keeps 3S 4S 5S 9H 9C 9D AS (1 deadwood), P2 lays down 2C 3C 4C, and P4 discards ``card``."""
    hands = dict(HANDS, P1="3S 4S 5S 9H 9C 9D AS", P4="5H 6H 2D 4D 5C KS KD")
    rnd = position("rummy", dealer="P4", hands=hands, stock="KC 2H 8C QC TS TC 3D 6D 9S 8S 7S 6C",
                   upcard="6S")
    return play(rnd, "P1 draw stock", "P1 done", "P1 discard KC",
                "P2 draw stock", "P2 meld [2C 3C 4C]", "P2 done", "P2 discard QS",
                "P3 draw stock", "P3 done", "P3 discard 8C",
                "P4 draw stock", "P4 done", f"P4 discard {card}")


def test_greedy_takes_a_discard_it_can_lay_off_onto_another_players_meld() -> None:
    """BR-2: 5C on the pile extends P2's run on the table. Kept in P1's hand it would only
    add deadwood, but laid off it leaves P1 one card from going out: greedy takes it, and
    lays it off. A card that helps neither way (QC) is not taken."""
    greedy = GreedyAgent()
    rnd = _after_p4_discards("5C")
    assert greedy.act(Observation(rnd, 0)) == Draw(0, "discard")
    play(rnd, "P1 draw discard")
    assert str(greedy.act(Observation(rnd, 0))) == "P1 layoff 5C on P2#1"
    assert greedy.act(Observation(_after_p4_discards("QC"), 0)) == Draw(0, "stock")


def test_greedy_goes_out_by_discarding() -> None:
    """BR-3: with two melds in hand and one card left over, greedy lays everything down and goes out."""
    rnd = position("rummy", dealer="P4", hands=HANDS, stock="KC 2H 8C QC TS TC 3D 5D 9S 8S 7S 6D",
                   upcard="6S")
    agents = make_agents("greedy", 4, random.Random(0))
    result = play_round(rnd, agents)
    assert result.ending == "out" and result.ender == 0
    assert result.points[0] == 268  # a rummy: 45 + 46 + 43, doubled


def test_greedy_rounds_rarely_stall_after_the_pile_is_turned_over() -> None:
    """After a turn-over greedy sheds the card it has held longest, so cards the others wait for
    come round: most rounds end with someone out, not void at the turn-over limit."""
    variant = load_variant("rummy")
    endings = []
    for seed in range(60):
        rng = random.Random(seed)
        rnd = Round.deal(variant, rng, dealer=0)
        endings.append(play_round(rnd, make_agents("greedy", 4, rng)).ending)
    assert endings.count("out") >= 50


@pytest.mark.parametrize("name", ["br_ace_high", "br_ace_both", "br_taken_allowed", "br_final_discard_required",
                                  "br_stock_void", "br_no_double", "br_target_50", "br_2p", "br_3p", "br_6p"])
def test_house_rules_play_whole_games(name: str) -> None:
    """Every house-rule file of the suite plays seeded games to the end with both agents."""
    variant = load_variant(str(CONFORMANCE_VARIANTS / f"{name}.yaml"))
    for agents in ("random", "greedy"):
        rng = random.Random(7)
        game = Game(variant, rng)
        play_game(game, make_agents(agents, variant.players, rng))
        assert game.over
