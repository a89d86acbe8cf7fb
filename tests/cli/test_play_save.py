"""``rummydsl play``'s ``save FILE`` and ``--resume FILE``: a game saved at a person's
decision plays on, once resumed, exactly as it would have gone without the break; every
way a save or a resume can go wrong is one clear line and changes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Game
from rummydsl.engine.match import Match
from rummydsl.errors import RecordError
from rummydsl.save import PERSON, load_agents, load_game, save_game
from rummydsl.variant import load_variant

from .conftest import run

TYPED = 400
"""How many lines a person types in these games: each the first move listed (or Enter)."""


def _last_screen(out: str) -> list[str]:
    """The lines of ``out`` from the last table shown: the end of the game or of the input,
    the score sheet or the totals, and the goodbye."""
    lines = out.splitlines()
    return lines[max(i for i, line in enumerate(lines) if line.startswith("-----")):]


@pytest.mark.parametrize("variant,agents,moves", [
    ("gin_rummy", "random", 12),      # GR-: a random opponent: its generator is saved and goes on
    ("gin_rummy", "greedy", 14),      # GR-: saved in round 2: the sheet holds round 1
    ("ginski", "greedy,random", 9),   # GS-: three players
    ("rummy", "random", 40),          # BR-4: a pile turned over after the save
    ("skarney_gin", "greedy", 6),     # SK-: offers instead of a discard pile
])
def test_a_saved_game_plays_on_as_it_would_have(variant: str, agents: str, moves: int, tmp_path: Path) -> None:
    """The same lines typed, with a save and a resume between move MOVES and the next, end
    on the same screen, the same score sheet and the same rounds' results."""
    whole = run("play", variant, "--seed", "5", "--agents", agents, stdin="1\n" * TYPED)
    assert (whole[0], whole[2]) == (0, "")
    save = tmp_path / "game.json"
    before = run("play", variant, "--seed", "5", "--agents", agents,
                 stdin="1\n" * moves + f"save {save}\nquit\n")
    assert before[0] == 0 and f"saved to {save} (round " in before[1]
    resumed = run("play", variant, "--resume", str(save), stdin="1\n" * (TYPED - moves))
    assert (resumed[0], resumed[2]) == (0, "")
    assert resumed[1].startswith(f"{load_variant(variant).name}: resumed from {save} in round ")
    assert _last_screen(resumed[1]) == _last_screen(whole[1])
    if variant == "rummy":  # the stock ran out after the save: the pile turned over as it did unbroken
        assert "turned over" in resumed[1]
    finished = [line for line in resumed[1].splitlines() if " over: " in line or line.startswith("game over")]
    assert finished == [line for line in whole[1].splitlines()
                        if " over: " in line or line.startswith("game over")][-len(finished):]


def test_the_save_holds_the_person_and_the_agents(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", "ginski", "--seed", "2", "--seat", "P2", "--agents", "random,greedy",
        stdin=f"1\nsave {save}\nquit\n")
    data = json.loads(save.read_text(encoding="utf-8"))
    assert [a["agent"] for a in data["agents"]] == ["random", PERSON, "greedy"]
    assert "rng" in data["agents"][0] and "rng" not in data["agents"][1]
    # A program loading it must say who plays the person's seat.
    with pytest.raises(RecordError, match=r"agents\[1\]\.agent: the seat is a person's .*--resume FILE"):
        load_agents(data)
    seated = load_agents(data, person=lambda seat: make_agents("greedy", 1, random.Random(0))[0])
    assert len(seated) == 3
    # Resumed, the person is P2 again, whatever --seat said before.
    code, out, err = run("play", "ginski", "--resume", str(save), stdin="quit\n")
    assert (code, err) == (0, "") and "; you are P2; P1 random, P3 greedy" in out


def test_saving_again_after_a_resume(tmp_path: Path) -> None:
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    run("play", "gin_rummy", "--seed", "8", stdin=f"1\n1\nsave {first}\nquit\n")
    run("play", "gin_rummy", "--resume", str(first), stdin=f"1\n1\nsave {second}\nquit\n")
    whole = run("play", "gin_rummy", "--seed", "8", stdin="1\n" * TYPED)[1]
    again = run("play", "gin_rummy", "--resume", str(second), stdin="1\n" * (TYPED - 4))[1]
    assert _last_screen(again) == _last_screen(whole)


def test_a_save_from_a_recorded_game(tmp_path: Path) -> None:
    """With --log the game is a Game played in place (no history), and saves the same way."""
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    run("play", "gin_rummy", "--seed", "8", "--log", str(log), stdin=f"1\n1\nsave {save}\nquit\n")
    from_log = json.loads(save.read_text(encoding="utf-8"))
    run("play", "gin_rummy", "--seed", "8", stdin=f"1\n1\nsave {save}\nquit\n")
    assert json.loads(save.read_text(encoding="utf-8")) == from_log


def test_a_match_saves_as_the_game_it_stands_at() -> None:
    """save_game of a Match that keeps its history is the save of the same game played as
    a Game: the round in play, not the one the match's game was dealt with."""
    variant = load_variant("gin_rummy")
    match = Match.new(variant, seed=11, history=True)
    game = Game(variant, random.Random(11))
    rng = random.Random(3)
    for _ in range(25):
        action = rng.choice(match.legal_actions())
        match.apply(action)
        game.round.apply(action)
    assert save_game(match) == save_game(game)
    assert load_game(variant, json.loads(json.dumps(save_game(match)))).round.actions == game.round.actions


def test_an_explicit_chance_match_is_not_a_game_save() -> None:
    match = Match.new("gin_rummy", chance="explicit")
    with pytest.raises(RecordError, match="chance is explicit.*Match.to_json"):
        save_game(match)


def test_save_without_a_file_or_to_a_bad_place_says_so_and_plays_on(tmp_path: Path) -> None:
    code, out, err = run("play", "gin_rummy", "--seed", "3",
                         stdin=f"save\nsave {tmp_path}/no/such/folder/g.json\nsave {tmp_path}\n1\nquit\n")
    assert (code, err) == (0, "")
    assert "Sorry, say where to save it: save FILE" in out
    assert f"Sorry, the game was not saved: {tmp_path}/no/such/folder/g.json: cannot write the save: " in out
    assert f"Sorry, the game was not saved: {tmp_path}: cannot write the save: " in out
    assert list(tmp_path.iterdir()) == []  # nothing half-written is left


@pytest.mark.parametrize("argv,message", [
    (["--seed", "3"], "--seed cannot go with --resume: the save holds the game as it was (its cards and seats)"),
    (["--players", "2"], "--players cannot go with --resume"),
    (["--log", "x.jsonl"], "--log cannot go with --resume: the save holds the game as it was "
                           "(a record starts at a game's first deal)"),
    (["--seat", "P2"], "--seat cannot go with this save: it says who sits where (you are P1)"),
    (["--agents", "random"], "--agents cannot go with this save: it says who sits where (you are P1)"),
])
def test_resume_refuses_options_the_save_decides(argv: list[str], message: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run("play", "gin_rummy", "--seed", "3", stdin="save game.json\nquit\n")
    code, out, err = run("play", "gin_rummy", "--resume", "game.json", *argv, stdin="quit\n")
    assert (code, out) == (1, "")
    assert err.startswith("rummydsl play: " + message) and err.count("\n") == 1
    assert not (tmp_path / "x.jsonl").exists()


def test_resume_of_a_bad_save_names_the_file(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", "gin_rummy", "--seed", "3", stdin=f"save {save}\nquit\n")
    assert run("play", "ginski", "--resume", str(save)) == (
        1, "", f"rummydsl play: {save}: variant: the save is of 'gin_rummy', not 'ginski'\n")
    assert run("play", "gin_rummy", "--resume", str(tmp_path / "none.json")) == (
        1, "", f"rummydsl play: {tmp_path / 'none.json'}: cannot read the save: No such file or directory\n")
    data = json.loads(save.read_text(encoding="utf-8"))
    data["agents"][1] = {"agent": PERSON}
    save.write_text(json.dumps(data), encoding="utf-8")
    assert run("play", "gin_rummy", "--resume", str(save)) == (
        1, "", f"rummydsl play: {save}: the save seats people at P1 and P2; rummydsl play seats one\n")
    data["agents"][1] = {"agent": "cmd:rm -rf ~"}
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run("play", "gin_rummy", "--resume", str(save))
    assert (code, out) == (1, "") and "names the program agent 'cmd:rm -rf ~'" in err


def test_a_program_made_save_seats_the_person_at_seat(tmp_path: Path) -> None:
    """A save a program made (agents at every seat, no person) resumes with the person at
    --seat, in that agent's place; one without agents takes --agents for the others."""
    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(4))
    agents = make_agents("greedy,random", 2, random.Random(4))
    save = tmp_path / "game.json"
    save.write_text(json.dumps(save_game(game, agents)), encoding="utf-8")
    code, out, err = run("play", "gin_rummy", "--resume", str(save), "--seat", "P2", stdin="quit\n")
    assert (code, err) == (0, "") and "you are P2; P1 greedy" in out
    save.write_text(json.dumps(save_game(game)), encoding="utf-8")
    code, out, err = run("play", "gin_rummy", "--resume", str(save), "--agents", "random", stdin="quit\n")
    assert (code, err) == (0, "") and "you are P1; P2 random" in out


def test_the_score_sheet_of_a_resumed_game_holds_the_rounds_before(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", "gin_rummy", "--seed", "5", stdin="1\n" * 14 + f"save {save}\nquit\n")
    code, out, err = run("play", "gin_rummy", "--resume", str(save), stdin="score\nquit\n")
    assert (code, err) == (0, "")
    assert "in round 2; you are P1; P2 greedy" in out and "scores: P1 0 . P2 30 (a resumed game takes no move back" in out
    assert "round  ending        P1   P2\n    1  knock by P2    0   30\ntotal                 0   30\n" in out


def test_a_resumed_game_says_it_takes_no_move_back(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("play", "gin_rummy", "--seed", "5", stdin=f"1\nsave {save}\nquit\n")
    code, out, err = run("play", "gin_rummy", "--resume", str(save), stdin="1\nundo\nquit\n")
    assert (code, err) == (0, "")
    assert "Sorry, nothing can be taken back: this match keeps no history." in out
