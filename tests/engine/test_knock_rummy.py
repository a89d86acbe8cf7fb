"""Knock Rummy (RULES-FAMILY.md KR) in the engine: whole seeded games at every player
count with both agents, the reasons for refused actions, what an observation shows,
and the greedy agent's knock without a limit."""

from __future__ import annotations

import io
import json
import random

import pytest

from rummydsl.agents import GreedyAgent, dealt_low, make_agents
from rummydsl.cli import main
from rummydsl.engine import Game, Round, play_game
from rummydsl.engine.actions import Knock
from rummydsl.engine.observe import Observation
from rummydsl.variant import load_variant, with_players

KR = load_variant("knock_rummy")


def deal(dealer: int = 2, **hands: str) -> Round:
    """A three-player position (P3 deals unless told): the usual hands of the suite."""
    cards = KR.deck.parse_cards
    table = {"P1": "5H 6H 7H 9C 9D KS 2D", "P2": "AS 2S 3S QD QH 4C 8C", "P3": "TC JC QC 4D 4H 6S 7S", **hands}
    return Round.from_setup(KR, dealer=dealer, hands=[cards(table[p].split()) for p in ("P1", "P2", "P3")],
                            stock=cards("AC 5D 3C".split()), upcard=KR.deck.parse_card("8D"))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("agents", ["random", "greedy", "greedy,random"])
def test_seeded_games_play_to_the_end(players: int, agents: str) -> None:
    variant = with_players(KR, players)
    for seed in range(3):
        game = Game(variant, random.Random(seed))
        result = play_game(game, make_agents(agents, players, random.Random(seed)))
        assert game.over and max(game.scores) >= 100  # KR-5: to 100
        assert result.winner == game.scores.index(max(game.scores))
        assert all(len(r.deadwoods) == players for r in game.results)
        assert {str(r.ending) for r in game.results} <= {"knock", "gin", "void"}


def test_each_deal_gives_the_hand_size_of_the_player_count() -> None:
    for players, size in ((2, 10), (3, 7), (4, 7), (5, 6)):
        rnd = Round.deal(with_players(KR, players), random.Random(players), dealer=0)
        assert [len(hand) for hand in rnd.hands] == [size] * players
        assert len(rnd.stock) == 52 - players * size - 1


@pytest.mark.parametrize("actions, action, reason", [
    ([], "P1 knock KS", "a player knocks only on their turn, after drawing"),
    ([], "P1 discard KS", "draw first"),
    ([], "P2 draw stock", "it is P1's move, not P2's"),
    (["P1 draw stock"], "P1 knock", "big gin is off in this variant: knock with a discard"),
    (["P1 draw stock"], "P1 knock QC", "P1 does not hold QC"),
    (["P1 draw stock"], "P1 meld [5H 6H 7H]", "this is the discard step: discard a card (or knock)"),
    (["P1 draw stock"], "P1 draw discard", "this is the discard step: discard a card (or knock)"),
    (["P1 draw stock", "P1 knock KS"], "P2 done", "the round is over"),
])
def test_refused_actions_and_their_reasons(actions: list[str], action: str, reason: str) -> None:
    rnd = deal()
    for played in actions:
        rnd.apply(played)
    before = rnd.to_json()
    why = rnd.why_illegal(rnd.parse(action))
    assert why is not None and reason.lower() in why.lower(), why
    assert rnd.to_json() == before


def test_a_knock_ends_the_round_with_no_showdown() -> None:
    rnd = deal()
    rnd.apply("P1 draw stock")
    rnd.apply("P1 knock 2D")  # keeps 9C 9D KS AC: 29 against P3's 21
    assert rnd.result is not None
    assert rnd.result.deadwoods == (29, 32, 21)
    assert rnd.result.points == (0, 0, 29)
    assert rnd.discards[-1] == KR.deck.parse_card("2D")  # face down on the pile, the round over


def test_observation_shows_no_knock_limit() -> None:
    rnd = deal()
    rnd.apply("P1 draw stock")
    seen = Observation(rnd, 0)
    assert seen.knock_limit is None and seen.hand_size == 7
    assert seen.as_json()["knock_limit"] is None
    assert json.dumps(seen.as_json())  # plain JSON


def test_greedy_waits_with_a_high_hand_and_knocks_a_low_one() -> None:
    agent = GreedyAgent()
    rnd = deal(P1="5H 6H 7H 9C KD QS JH")  # after drawing AC the least deadwood is 30 or more
    rnd.apply("P1 draw stock")
    seen = Observation(rnd, 0)
    bar = GreedyAgent.knock_threshold(seen)
    assert bar == int(0.75 * dealt_low(seen))
    assert 15 <= bar <= 40
    action = agent.act(seen)
    assert not isinstance(action, Knock), action
    low = deal(P1="5H 6H 7H 9C 9D 9S 2D")  # AC drawn: knocking 2D keeps 1 deadwood
    low.apply("P1 draw stock")
    chosen = agent.act(Observation(low, 0))
    assert isinstance(chosen, Knock) and str(chosen) == "P1 knock 2D"


def test_greedy_beats_random_at_three_players() -> None:
    """A seeded run (the figures of docs/family.md come from longer ones)."""
    wins = 0
    games = 30
    for seed in range(games):
        seat = seed % 3
        names = ["random"] * 3
        names[seat] = "greedy"
        result = play_game(Game(KR, random.Random(seed)), make_agents(",".join(names), 3, random.Random(seed)))
        wins += result.winner == seat
    assert wins > games / 3 + 3


def test_simulate_replay_and_check_play_of_knock_rummy(tmp_path: object) -> None:
    from pathlib import Path

    log = Path(str(tmp_path)) / "kr.jsonl"
    out = io.StringIO()
    assert main(["simulate", "knock_rummy", "--games", "4", "--seed", "3", "--agents", "greedy,random",
                 "--log", str(log)], stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue().startswith("knock_rummy: 4 games")
    out = io.StringIO()
    assert main(["replay", str(log)], stdout=out, stderr=io.StringIO()) == 0
    assert "every result matches" in out.getvalue()
    out = io.StringIO()
    shipped = Path(__file__).resolve().parents[2] / "variants" / "knock_rummy.yaml"
    assert main(["check", "--play", "3", str(shipped)], stdout=out, stderr=io.StringIO()) == 0
    assert "0 errors, 0 warnings" in out.getvalue()
