"""Rounds with a seat sitting out (G3-1, G3-2): whole seeded games of three-handed Gin
with both agents, who sits out and deals each round worked out here from the rules,
the seat skipped everywhere, and saves, records, the protocol and statistics keeping it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Game, Round
from rummydsl.engine.observe import Observation
from rummydsl.engine.game import play_round
from rummydsl.errors import CardError, ExpressionError, RecordError
from rummydsl.record import RecordWriter, replay_record, run_game
from rummydsl.save import load_game, save_game
from rummydsl.simulate import simulate
from rummydsl.terminal import render_observation
from rummydsl.variant import load_variant

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance" / "variants"


def expected_sitter(mode: str, sat_out: int, result_points: tuple[int, ...], void: bool) -> int:
    """G3-2 as RULES-FAMILY.md words it: after a round nobody won the same seat; else the
    loser (the one of the two who did not win) or, with rotate, the seat left of the last."""
    if void:
        return sat_out
    if mode == "rotate":
        return (sat_out + 1) % 3
    played = [p for p in range(3) if p != sat_out]
    winner = max(played, key=lambda p: result_points[p])
    return next(p for p in played if p != winner)


@pytest.mark.parametrize("agents", ["random", "greedy", "greedy,random,greedy"])
@pytest.mark.parametrize("mode", ["loser", "rotate"])
def test_seeded_games_to_the_end(agents: str, mode: str) -> None:
    variant = load_variant("gin_three_handed" if mode == "loser" else str(CONFORMANCE / "g3_rotate.yaml"))
    for seed in range(3 if agents == "random" else 6):
        game = Game(variant, random.Random(seed))
        assert game.round.sat_out == game.round.dealer == game.dealer  # G3-2: the first dealer sits out
        seats = make_agents(agents, 3, random.Random(seed))
        rounds = 0
        while not game.over:
            rnd = game.round
            sitter = rnd.sat_out
            assert sitter is not None and rnd.dealer == sitter
            assert len(rnd.hands[sitter]) == 0
            assert sorted(len(rnd.hands[p]) for p in rnd.seated) == [10, 10]
            assert rnd.seated == tuple(p for p in range(3) if p != sitter)
            result = play_round(rnd, seats)
            assert all(action.player != sitter for action in rnd.actions)
            assert result.points[sitter] == 0 and result.deadwoods[sitter] == 0
            game.next_round()
            rounds += 1
            if not game.over:
                assert game.round.sat_out == expected_sitter(mode, sitter, result.points, result.winner is None)
                assert game.round.dealer == game.round.sat_out
        assert game.result is not None and max(game.result.points) >= 100
        assert game.result.rounds == rounds


def test_turns_offers_and_showdowns_skip_the_seat() -> None:
    variant = load_variant("gin_three_handed")
    for seed in range(20):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % 3)
        sitter = rnd.sat_out
        assert sitter == seed % 3  # a single hand is seated as a game's first deal
        assert rnd.upcard_queue == list(rnd.seated[rnd.seated.index(rnd.next_seat(sitter)):]
                                        + rnd.seated[:rnd.seated.index(rnd.next_seat(sitter))])
        play_round(rnd, make_agents("greedy", 3, random.Random(seed)))
        assert sitter not in rnd.defenders and sitter not in rnd.claim_queue
        assert all(action.player != sitter for action in rnd.actions)


def test_next_seat_skips_only_the_seat_sitting_out() -> None:
    variant = load_variant("gin_three_handed")
    rnd = Round.deal(variant, random.Random(1), dealer=1)
    assert rnd.sat_out == 1
    assert [rnd.next_seat(p) for p in range(3)] == [2, 2, 0]
    assert rnd.seats_after(2) == [0] and rnd.seats_after(0) == [2]


def test_nobody_sitting_out_draws_the_rng_exactly_as_before() -> None:
    gin = load_variant("gin_rummy")
    for seed in range(5):
        plain, seated = random.Random(seed), random.Random(seed)
        a = Round.deal(gin, plain, dealer=seed % 2)
        b = Round.deal(gin, seated, dealer=seed % 2, sat_out=None)
        assert a.to_json() == b.to_json() and "sat_out" not in a.to_json()
        assert plain.getstate() == seated.getstate()


def test_a_formula_failing_in_play_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("rummydsl: 1\nid: bad\nname: Bad\nextends: gin_three_handed\n"
                    "deal:\n  sit_out: last_loser\n", encoding="utf-8")
    with pytest.raises(ExpressionError, match=r"bad: deal.sit_out 'last_loser' failed before deal 1: "
                                              r"'last_loser' has no value in round 1"):
        Game(load_variant(str(path)), random.Random(0))


def test_setup_refuses_a_sitter_with_cards() -> None:
    variant = load_variant("gin_three_handed")
    deck = variant.deck
    hands = [deck.parse_cards("AS 2S 3S".split()), deck.parse_cards("4S 5S 6S".split()), deck.parse_cards(["7S"])]
    with pytest.raises(CardError, match="P3 sits out this round but holds 1 cards"):
        Round.from_setup(variant, dealer=2, hands=hands, stock=deck.parse_cards(["8S", "9S", "TS"]), sat_out=2)
    with pytest.raises(CardError, match="the seat sitting out, P4, is not one of the 3 players"):
        Round.from_setup(variant, dealer=2, hands=hands, stock=[], sat_out=3)


def test_observation_protocol_and_terminal_say_who_sits_out() -> None:
    variant = load_variant("gin_three_handed")
    rnd = Round.deal(variant, random.Random(4), dealer=0)
    seen = Observation(rnd, 1).as_json()
    assert seen["sat_out"] == "P1" and seen["hand_sizes"] == {"P1": 0, "P2": 10, "P3": 10}
    assert "sat_out" not in Observation(Round.deal(load_variant("gin_rummy"), random.Random(4), dealer=0), 0).as_json()
    text = render_observation(Observation(rnd, 1), list(rnd.legal_actions()))
    assert "sits out: P1" in text and "P1 0 cards" not in text


def test_save_and_resume_mid_game_plays_on_the_same(tmp_path: Path) -> None:
    variant = load_variant("gin_three_handed")
    game = Game(variant, random.Random(11))
    seats = make_agents("greedy", 3, random.Random(11))
    for _ in range(3):
        play_round(game.round, seats)
        game.next_round()
    rnd = game.round
    for _ in range(5):
        rnd.apply(seats[rnd.to_move].act(Observation(rnd, rnd.to_move)))  # type: ignore[index]
    data = json.loads(json.dumps(save_game(game)))
    assert data["round"]["deal"]["sat_out"] == f"P{rnd.sat_out + 1}"  # type: ignore[operator]
    copy = load_game(variant, data)
    assert copy.round.sat_out == rnd.sat_out and copy.round.to_json() == rnd.to_json()
    for one in (game, copy):
        while not one.over:
            play_round(one.round, make_agents("greedy", 3, random.Random(5)))
            one.next_round()
    assert game.result == copy.result


def test_record_replays_and_a_wrong_sitter_is_caught(tmp_path: Path) -> None:
    variant = load_variant("gin_three_handed")
    lines: list[dict] = []
    writer = RecordWriter(lines.append)
    writer.header(variant, seed=3, agents=["greedy"] * 3, mode="games")
    writer.game(1, 3)
    run_game(Game(variant, random.Random(3)), make_agents("greedy", 3, random.Random(3)), writer=writer)
    deals = [line for line in lines if line["type"] == "deal"]
    assert all("sat_out" in deal and deal["hands"][deal["sat_out"]] == [] for deal in deals)
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert replay_record(str(path)).rounds == len(deals)
    second = next(i for i, line in enumerate(lines) if line["type"] == "deal" and line["round"] == 2)
    forged = dict(lines[second])
    sitter = forged["sat_out"]
    other = next(p for p in ("P1", "P2", "P3") if p != sitter)
    forged["hands"] = {**forged["hands"], sitter: forged["hands"][other], other: []}
    forged["sat_out"] = other
    lines[second] = forged
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(RecordError, match=f"the deal says {other} sits out; the engine expects {sitter}"):
        replay_record(str(path))


def test_statistics_count_the_dealer_only_when_dealt_in() -> None:
    stats = simulate("gin_three_handed", games=4, seed=2, agents="greedy")
    assert stats.dealer_rounds == 0 and stats.dealer_round_wins == 0  # the dealer always sits out
    assert stats.sat_out_rounds == stats.hands
    assert "an even share is 50.0%" in stats.text(1.0)
    hands = simulate("gin_three_handed", hands=6, seed=2, agents="random")
    assert hands.hands == 6 and hands.sat_out_rounds == 6


def test_check_play_places_a_formula_failing_between_rounds(tmp_path: Path) -> None:
    from rummydsl.playcheck import play_check

    path = tmp_path / "late.yaml"
    path.write_text("rummydsl: 1\nid: late\nname: Late\nextends: gin_three_handed\n"
                    "deal:\n  sit_out: \"round == 2 ? last_winner : dealer\"\n", encoding="utf-8")
    found = [d for d in play_check(str(path), games=3, seed=0) if d.rule == "play-scoring-error"]
    assert found and (found[0].location.line, found[0].location.column) == (6, 26)
    assert "'last_winner' has no value in round 2" in found[0].message


def test_a_hand_size_by_player_count_counts_the_players_dealt_in(tmp_path: Path) -> None:
    path = tmp_path / "sized.yaml"
    path.write_text("rummydsl: 1\nid: sized\nname: Sized\nextends: gin_three_handed\n"
                    "deal:\n  hand_size: \"player_count == 2 ? 10 : 7\"\n", encoding="utf-8")
    game = Game(load_variant(str(path)), random.Random(6))
    rnd = game.round
    assert rnd.hand_size == 10
    assert sorted(len(hand) for hand in rnd.hands) == [0, 10, 10]
    assert rnd.facts().player_count == 2


def test_a_formula_failing_between_rounds_stops_the_game_cleanly(tmp_path: Path) -> None:
    from rummydsl.errors import StalledGameError

    path = tmp_path / "winner.yaml"
    path.write_text("rummydsl: 1\nid: winner\nname: Winner\nextends: gin_three_handed\n"
                    "deal:\n  sit_out: \"round == 1 ? dealer : last_winner\"\n", encoding="utf-8")
    variant = load_variant(str(path))
    deck = variant.deck
    hands = [deck.parse_cards("5H 6H 7H 8H 9C 9D 9S AC 2D 4S".split()),
             deck.parse_cards("KS KH KD 2C 3C 4C 9H 4H QC 7D".split()), []]
    rnd = Round.from_setup(variant, dealer=2, hands=hands, stock=deck.parse_cards("3D 4D 8D TD".split()),
                           upcard=deck.parse_card("QD"), sat_out=2)
    game = Game.resume(variant, rnd)
    for text in ("P1 pass", "P2 pass", "P1 draw stock", "P1 discard 3D", "P2 draw stock", "P2 discard 4D"):
        rnd.apply(text)
    assert rnd.result is not None and rnd.result.void
    with pytest.raises(ExpressionError, match="'last_winner' has no value in round 2: round 1 had no winner"):
        game.next_round()
    assert game.round is rnd and len(game.results) == 1 and game.sat_out == 2 and game.dealer == 2
    with pytest.raises(StalledGameError, match="last_winner"):
        game.next_round()
