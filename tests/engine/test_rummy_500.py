"""500 Rum as a user gets it: the deal by player count, whole seeded games with both
agents, the greedy agent's use of deep draws, saves and replays of deep draws, the
observation, explain (R5-1 to R5-7)."""

from __future__ import annotations

import json
import random

import pytest

from rummydsl.agents import GreedyAgent, make_agents
from rummydsl.engine import Game, Round, play_game
from rummydsl.engine.actions import Draw, Pass
from rummydsl.engine.observe import Observation
from rummydsl.explainer import explain
from rummydsl.save import load_game, save_game
from rummydsl.variant import load_variant

from .test_melded_and_deep import play, setup


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 7), (7, 7)])
def test_hand_size_by_player_count(players: int, size: int) -> None:
    """R5-2: 13 cards each with two players, 7 with three or more."""
    variant = load_variant("rummy_500")
    rnd = Round.deal(variant, random.Random(1), dealer=0, players=players)
    assert [len(hand) for hand in rnd.hands] == [size] * players
    assert rnd.upcard is not None and list(rnd.discards) == [rnd.upcard]
    assert len(rnd.stock) == 52 - players * size - 1


@pytest.mark.parametrize("agents", ["greedy", "random", "greedy,random,random"])
def test_seeded_games_play_to_the_end(agents: str) -> None:
    """Whole games with both agents end with a winner at 500 or more, the highest total (R5-7)."""
    variant = load_variant("rummy_500")
    for seed in range(2):
        rng = random.Random(seed)
        game = Game(variant, rng)
        result = play_game(game, make_agents(agents, variant.players, random.Random(seed)))
        totals = game.scores
        assert max(totals) >= 500
        assert totals[result.winner] == max(totals)
        assert all(r.ending in ("out", "stock_end") for r in game.results)


def test_greedy_takes_a_deep_draw_that_melds_for_more_than_it_costs() -> None:
    """The greedy agent draws down to 3H (A-2-3 of hearts) rather than the stock."""
    variant = load_variant("rummy_500")
    rnd = setup(variant, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C", "3S 4S 6D 8C JH TD 4D"],
                "3H 8D 7D 4S", dealer=2)
    action = GreedyAgent().act(Observation(rnd, 0))
    assert str(action) in ("P1 draw discard 3H", "P1 draw discard 8D")


def test_greedy_passes_at_an_empty_stock_when_no_discard_helps() -> None:
    """R5-5: with the stock gone and a useless pile, the greedy agent ends the round."""
    variant = load_variant("rummy_500")
    rnd = setup(variant, ["AS 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C", "3S 4S 6D 8C JH TD 4D"],
                "JC", "", rest_to_stock=False, dealer=2)
    action = GreedyAgent().act(Observation(rnd, 0))
    assert isinstance(action, Pass)
    rnd2 = setup(variant, ["AS 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C", "3S 4S 6D 8C JH TD 4D"],
                 "JC QC 8S KC", "", rest_to_stock=False, dealer=2)
    assert str(GreedyAgent().act(Observation(rnd2, 0))) == "P1 draw discard JC"  # J-Q-K of clubs: 30 for 8


def test_a_save_with_a_deep_draw_loads_back() -> None:
    """The table's credit and a pending deep card survive a save; the replay checks them."""
    variant = load_variant("rummy_500")
    deck = variant.deck
    hands = [list(deck.parse_cards(text)) for text in
             ("AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C", "3S 4S 6D 8C JH TD 4D")]
    upcard = deck.parse_card("3H")
    stock = list(deck.parse_cards("8D 7D 4H JS QC"))
    placed = {c.id for c in (*stock, upcard, *(c for hand in hands for c in hand))}
    stock += [c for c in deck.cards if c.id not in placed]  # a save holds every card
    rnd = Round.from_setup(variant, dealer=2, hands=hands, stock=stock, upcard=upcard)
    game = Game.resume(variant, rnd)
    play(game.round, "P1 draw stock", "P1 done", "P1 discard 8D", "P2 draw stock", "P2 done", "P2 discard 7D",
         "P3 draw stock", "P3 done", "P3 discard 4H", "P1 draw discard 8D")
    again = load_game(variant, json.loads(json.dumps(save_game(game))))
    assert again.round.to_json() == game.round.to_json()
    assert str(again.round.must_meld) == "8D"
    assert again.round.why_illegal(again.round.parse("P1 done")) is not None
    play(again.round, "P1 meld [7D 8D 9D]", "P1 done", "P1 discard KS")
    assert again.round.to_json()["table"]["P1"] == [{"kind": "run", "cards": ["7D", "8D", "9D"],
                                                     "by": ["P1", "P1", "P1"]}]


def test_the_observation_shows_the_whole_pile_and_the_credit() -> None:
    """R5-2: every card of the discard pile is in the observation; R5-4: who laid each card."""
    variant = load_variant("rummy_500")
    rnd = setup(variant, ["AH 2H 3H 9D KS QS 8C", "4H 5S 5D 5C 9C JD 2C", "3S 4S 6D 7C JH TD 4D"],
                "QH 7S 2D", "TS 2S 9H", dealer=2)
    play(rnd, "P1 draw stock", "P1 meld [AH 2H 3H]", "P1 done", "P1 discard TS", "P2 draw stock",
         "P2 layoff 4H on P1#1")
    seen = Observation(rnd, 2).as_json()
    assert seen["discards"] == ["QH", "7S", "2D", "TS"]
    assert seen["table"]["P1"] == [{"kind": "run", "cards": ["AH", "2H", "3H", "4H"],
                                    "by": ["P1", "P1", "P1", "P2"]}]


def test_explain_tells_the_deep_draw_the_low_ace_and_the_empty_stock() -> None:
    text = " ".join(explain(load_variant("rummy_500")).split())
    assert "name any card of the discard pile (every card in it is shown) and take it with every card above it" in text
    assert "its card value (1 if it lies in a run and it is an ace and it is at the low end of its meld)" in text
    assert "play goes on with draws from the discard pile only" in text
    assert "13 with 2 players, 7 with 3 to 7 players" in text


@pytest.mark.parametrize(("house", "check"), [
    ("r5_jokers.yaml", lambda v: v.deck.wilds == 2 and all(
        value == 15 for card, value in zip(v.deck.cards, v.card_values) if card.wild)),
    ("r5_target_250.yaml", lambda v: v.game.target == 250),
    ("r5_eight_players.yaml", lambda v: (v.players, v.deck.packs, v.deal.hand_size) == (8, 2, 7)),
])
def test_house_rules_set_the_options(house: str, check) -> None:  # type: ignore[no-untyped-def]
    """R5-1 jokers = 2, R5-7 game_target = n, and eight players on two packs, each one key."""
    from pathlib import Path

    variant = load_variant(str(Path(__file__).resolve().parents[1] / "conformance" / "variants" / house))
    assert check(variant)
    assert variant.parent == "rummy_500"
