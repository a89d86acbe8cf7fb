"""Save and resume: a game saved at any point (mid-turn, a round over, the game over), written
as JSON text and loaded, plays on to the identical continuation with the same agents; a
truncated, corrupted or hand-edited save is a clear RecordError naming the key, and nothing
is loaded."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Sequence

import pytest

from rummydsl.agents import GreedyAgent, make_agents
from rummydsl.engine import Game, Observation, Phase
from rummydsl.errors import RecordError
from rummydsl.save import (card_places, check_cards, load_agents, load_game, misplaced, read_save, save_game,
                           write_save)
from rummydsl.variant import load_variant

from .invariants import SHIPPED

TWO_PACKS = str(Path(__file__).parent.parent / "examples" / "good" / "two_pack_jokers.yaml")
"""A four-player house game of two packs and four jokers: copies of every face."""
CLAIMS = str(Path(__file__).parent.parent / "conformance" / "variants" / "gr_last_discard_claim.yaml")
"""Gin Rummy with the last discard's claim (GR-8): the ``claim`` phase."""
BUYING = str(Path(__file__).parent.parent / "examples" / "good" / "buying_gin.yaml")
"""Gin Rummy with buying (CR-4): the ``buy`` phase."""


def step(game: Game, agents: Sequence[Any]) -> str:
    """One action of the game (or, with the round over, the next round's deal): what happened."""
    rnd = game.round
    if rnd.result is not None:
        game.next_round()
        return f"deal {game.round.number}"
    seat = rnd.to_move
    assert seat is not None
    return str(rnd.apply(agents[seat].act(Observation(rnd, seat))))


def play_on(game: Game, agents: Sequence[Any], steps: int = 100_000) -> list[str]:
    """Everything that happens from here to the game's end (or the next ``steps`` steps)."""
    happened = []
    while not game.over and len(happened) < steps:
        happened.append(step(game, agents))
    return happened


STEPS = 500
"""Steps of a game played, saved and resumed (random agents can take thousands to end a game)."""


def resumed(game: Game, agents: Sequence[Any]) -> tuple[Game, list[Any]]:
    """The game and agents of a save of ``game``, through JSON text."""
    text = json.dumps(save_game(game, agents))
    data = json.loads(text)
    return load_game(game.variant, data), load_agents(data)


@pytest.mark.parametrize("spec", ["random", "greedy", "random,greedy"])
@pytest.mark.parametrize("variant_id", [*SHIPPED, TWO_PACKS])
def test_a_saved_game_plays_on_to_the_identical_continuation(variant_id: str, spec: str) -> None:
    variant = load_variant(variant_id)
    seed = sum(map(ord, Path(variant_id).stem + spec))  # not the path: the same games from any checkout
    pick = random.Random(seed)
    game = Game(variant, random.Random(seed))
    agents = make_agents(spec, game.players, random.Random(seed + 1))
    happened: list[str] = []
    saves: list[tuple[int, str, list[list[int]]]] = []
    while not game.over and len(happened) < STEPS:
        if len(saves) < 3 and pick.random() < 1 / 40:  # a random point: mid-turn, a round just over ...
            ids = [[c.id for c in hand] for hand in game.round.hands]
            saves.append((len(happened), json.dumps(save_game(game, agents)), ids))
        happened.append(step(game, agents))
    saves.append((len(happened), json.dumps(save_game(game, agents)), []))  # and at the end
    end = save_game(game, agents)
    for at, text, ids in saves:
        data = json.loads(text)
        again, again_agents = load_game(variant, data), load_agents(data)
        assert json.dumps(save_game(again, again_agents)) == text
        if ids:
            assert [[c.id for c in hand] for hand in again.round.hands] == ids  # the very same copies
        assert play_on(again, again_agents, len(happened) - at) == happened[at:]
        assert save_game(again, again_agents) == end
    assert len(saves) >= 2

def test_a_game_saved_in_every_phase_plays_on_identically() -> None:
    """Saved at the first moment of each phase (an upcard offer, an offer to answer, a claim,
    a knock's showdown ...) in each shipped variant, each save plays on identically."""
    covered: set[str] = set()
    for variant_id, spec, seed in [*((v, "random,greedy", 8) for v in SHIPPED), (CLAIMS, "random", 0),
                                   (BUYING, "random", 0)]:
        variant = load_variant(variant_id)
        game = Game(variant, random.Random(seed))
        agents = make_agents(spec, game.players, random.Random(seed))
        happened: list[str] = []
        saves: list[tuple[int, str]] = []
        seen: set[str] = set()
        while not game.over and len(happened) < 1500:
            phase = game.round.phase.value
            if phase not in seen:
                seen.add(phase)
                saves.append((len(happened), json.dumps(save_game(game, agents))))
            happened.append(step(game, agents))
        for at, text in saves:
            data = json.loads(text)
            again, again_agents = load_game(variant, data), load_agents(data)
            steps = min(80, len(happened) - at)
            assert play_on(again, again_agents, steps) == happened[at:at + steps], (variant_id, data["round"])
        covered |= seen
    assert covered == {phase.value for phase in Phase}


def test_a_finished_game_and_a_finished_round_resume() -> None:
    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(3))
    agents = make_agents("greedy", 2, random.Random(3))
    while game.round.result is None:
        step(game, agents)
    again, _ = resumed(game, agents)
    assert again.round.result == game.round.result and not again.over
    again.next_round()
    game.next_round()
    assert save_game(again) == save_game(game)
    play_on(game, agents)
    done, _ = resumed(game, agents)
    assert done.over and done.result == game.result and done.sheets == game.sheets


def test_a_round_result_with_a_hand_past_the_solver_reloads() -> None:
    """A round whose deadwood was not worked out (a hand past the solver after deep
    draws, R5-3: null in the result) is part of a save that loads back."""
    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(3))
    agents = make_agents("greedy", 2, random.Random(3))
    while game.round.result is None:
        step(game, agents)
    game.next_round()
    data = json.loads(json.dumps(save_game(game, agents)))
    data["results"][0]["deadwoods"]["P2"] = None
    again = load_game(variant, data)
    assert again.results[0].deadwoods[1] is None
    data["results"][0]["points"]["P1"] = None
    with pytest.raises(RecordError, match=r"results\[0\].: deadwoods and points are whole numbers"):
        load_game(variant, data)


def test_a_save_says_every_part_of_the_game() -> None:
    game = Game(load_variant("oklahoma_gin"), random.Random(9))
    agents = make_agents("random,greedy", 2, random.Random(9))
    for _ in range(5):
        step(game, agents)
    data = save_game(game, agents)
    assert (data["type"], data["save"], data["variant"], len(data["variant_sha256"])) == ("save", 1, "oklahoma_gin", 64)
    assert set(data) >= {"dealer", "rng", "sheets", "results", "games_won", "finished_games", "result", "round"}
    position = data["round"]["position"]
    for key in ("phase", "to_move", "hands", "stock", "discards", "table", "turn_player", "ender", "declared"):
        assert key in position
    assert data["round"]["actions"] == [str(a) for a in game.round.actions]
    assert data["agents"][0]["agent"] == "random" and len(data["agents"][0]["rng"]["state"]) == 625
    assert data["agents"][1] == {"agent": "greedy"}


def test_copies_of_a_face_are_marked() -> None:
    game = Game(load_variant(TWO_PACKS), random.Random(2))
    deal = save_game(game)["round"]["deal"]
    every = [c for hand in deal["hands"].values() for c in hand] + deal["stock"] + [deal["upcard"]]
    assert "AS" in every and "AS/1" in every and "*/3" in every and "*/4" not in every
    assert len(every) == len(set(every)) == 108
    agents = make_agents("random", game.players, random.Random(2))
    for _ in range(400):  # until an action played a copy its text does not name
        if save_game(game)["round"]["action_cards"]:
            break
        step(game, agents)
    marked = save_game(game, agents)["round"]["action_cards"]
    assert marked and all("/" in "".join(cards) for cards in marked.values())
    data = save_game(game)
    again, again_agents = resumed(game, agents)
    assert play_on(again, again_agents, 200) == play_on(game, agents, 200)
    index, cards = next(iter(data["round"]["action_cards"].items()))
    data["round"]["action_cards"][index] = cards + cards
    with pytest.raises(RecordError, match=rf"^round.action_cards.{index}: {2 * len(cards)} cards for "):
        load_game(game.variant, data)


# -- corruptions -------------------------------------------------------------------------------

def saved(variant_id: str = "gin_rummy", actions: int = 12) -> tuple[Game, dict[str, Any]]:
    game = Game(load_variant(variant_id), random.Random(4))
    agents = make_agents("greedy", game.players, random.Random(4))
    for _ in range(actions):
        step(game, agents)
    return game, save_game(game, agents)


def _duplicate_in_position(data: dict[str, Any]) -> str:
    position = data["round"]["position"]
    card = position["hands"]["P1"][0]
    position["stock"][0] = card
    return f"round.position: card {card!r} is twice: in P1's hand and in the stock"


def _missing_in_position(data: dict[str, Any]) -> str:
    position = data["round"]["position"]
    card = position["discards"].pop()
    return f"round.position: card {card!r} is missing (the deck has 52 cards, 51 are placed)"


def _duplicate_in_deal(data: dict[str, Any]) -> str:
    deal = data["round"]["deal"]
    card = deal["hands"]["P2"][3]
    deal["hands"]["P1"][0] = card
    return f"round.deal: card {card!r} is twice: in P1's hand and in P2's hand"


def _missing_in_deal(data: dict[str, Any]) -> str:
    deal = data["round"]["deal"]
    card = deal["stock"].pop()
    return f"round.deal: card {card!r} is missing (the deck has 52 cards, 51 are placed)"


def _swapped_in_position(data: dict[str, Any]) -> str:
    hands = data["round"]["position"]["hands"]
    hands["P1"][0], hands["P2"][0] = hands["P2"][0], hands["P1"][0]
    return "round.position.hands: the save says "


def _bad_action(data: dict[str, Any]) -> str:
    actions = data["round"]["actions"]
    actions[2] = actions[2].split()[0] + " knock"
    return f"round.actions[2] {actions[2]!r}: "


def _wrong_digest(data: dict[str, Any]) -> str:
    data["variant_sha256"] = "0" * 64
    return "variant_sha256: the save was made with other rules of 'gin_rummy' ('000000000000'..."


def _set(path: str, value: Any, message: str) -> Callable[[dict[str, Any]], str]:
    def change(data: dict[str, Any]) -> str:
        *keys, last = path.split(".")
        target: Any = data
        for key in keys:
            target = target[int(key)] if key.isdigit() else target[key]
        if last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value
        return message
    return change


CORRUPTIONS: dict[str, Callable[[dict[str, Any]], str]] = {
    "card twice in the position": _duplicate_in_position,
    "card missing from the position": _missing_in_position,
    "card twice in the deal": _duplicate_in_deal,
    "card missing from the deal": _missing_in_deal,
    "position not the actions'": _swapped_in_position,
    "illegal action": _bad_action,
    "wrong variant hash": _wrong_digest,
    "another version": _set("save", 2, "save: format 2 is not 1"),
    "another variant": _set("variant", "straight_gin", "variant: the save is of 'straight_gin', not 'gin_rummy'"),
    "unknown card": _set("round.deal.stock.0", "1Z", "round.deal.stock[0]: unknown card '1Z'"),
    "no such copy": _set("round.deal.stock.0", "AS/1", "round.deal.stock[0]: 'AS/1' is not a card of this deck"),
    "generator state": _set("rng.state", [1, 2], "rng.state: expected 625 whole numbers"),
    "sheet": _set("sheets.0.points", [1], "sheets[0].points: expected 2 whole numbers, got [1]"),
    "dealer": _set("round.deal.dealer", "P9", "round.deal.dealer: expected a player P1 to P2, got 'P9'"),
    "result ending": _set("results", [{"ending": "fold"}], "results[0].ending: expected one of gin, "),
    "not a save": _set("type", "header", "a save is a JSON object with \"type\": \"save\""),
    "scores": _set("sheets.0.points", [5, 0], "round.deal.scores: the round was dealt at [0, 0], but the score "
                                              "sheet says [5, 0]"),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_a_corrupted_or_hand_edited_save_is_a_clear_error(name: str) -> None:
    game, data = saved()
    before = json.dumps(data)
    message = CORRUPTIONS[name](data)
    with pytest.raises(RecordError) as caught:
        load_game(game.variant, json.loads(json.dumps(data)))
    assert str(caught.value).startswith(message), str(caught.value)
    assert json.dumps(save_game(game, make_agents("greedy", 2, random.Random(4)))) == before  # untouched


def test_agents_that_cannot_be_read_or_saved() -> None:
    _, data = saved()
    data["agents"][1] = {"agent": "clever"}
    with pytest.raises(RecordError, match=r"^agents\[1\]: expected an agent random, greedy, cmd:PROGRAM or llm:PROGRAM, "):
        load_agents(data)
    with pytest.raises(RecordError, match="^agents: the save holds no agents"):
        load_agents({"type": "save"})
    with pytest.raises(RecordError, match="^agents: expected one agent for each of 2 players, got 1"):
        load_agents({**data, "agents": data["agents"][:1]})

    class Mine(GreedyAgent):
        pass

    game, _ = saved()
    assert save_game(game, [GreedyAgent(), GreedyAgent()])["agents"] == [{"agent": "greedy"}] * 2
    with pytest.raises(RecordError, match="^P1's agent, a Mine, cannot be saved"):
        save_game(game, [Mine(), GreedyAgent()])
    assert "agents" not in save_game(game)


def test_a_save_file_is_written_whole_and_read_back(tmp_path: Path) -> None:
    game, _ = saved("skarney_gin", 30)
    agents = make_agents("random", game.players, random.Random(1))
    path = tmp_path / "game.json"
    write_save(str(path), game, agents)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    again, again_agents = read_save(game.variant, str(path))
    assert again_agents is not None and save_game(again, again_agents) == save_game(game, agents)
    assert play_on(again, again_agents) == play_on(game, agents)


def test_a_save_file_cut_short_or_corrupt_names_the_file(tmp_path: Path) -> None:
    game, _ = saved()
    path = tmp_path / "game.json"
    write_save(str(path), game)
    text = path.read_text()
    path.write_text(text[:len(text) // 2])
    with pytest.raises(RecordError) as caught:
        read_save(game.variant, str(path))
    assert str(caught.value).startswith(f"{path}:") and str(caught.value).endswith("(the file is cut short)")
    path.write_text(text.replace('"save": 1', '"save": 7'))
    with pytest.raises(RecordError, match=r": save: format 7 is not 1"):
        read_save(game.variant, str(path))
    with pytest.raises(RecordError, match="cannot read the save"):
        read_save(game.variant, str(tmp_path / "nope.json"))
    with pytest.raises(RecordError, match="cannot write the save"):
        write_save(str(tmp_path / "no" / "dir.json"), game)


def test_card_places_hold_every_card_once_through_a_game() -> None:
    game = Game(load_variant("skarney_gin"), random.Random(6))
    agents = make_agents("random", 2, random.Random(6))
    for _ in range(200):
        check_cards(game.round)
        step(game, agents)
    rnd = game.round
    assert misplaced(rnd.variant.deck, card_places(rnd)) is None
    rnd.hands[0].append(rnd.stock[0])
    with pytest.raises(RecordError, match=rf"^round {rnd.number}: card '.*' is twice: in P1's hand and in the stock"):
        check_cards(rnd)
