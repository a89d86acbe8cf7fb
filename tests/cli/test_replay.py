"""``rummydsl replay``: a good record replays with a one-line summary; a broken one
says exactly where and why (``FILE:LINE: round R, action K '...': ...``), exit 1;
a changed variant file is reported, and a variant whose rules differ from the record's
is an error."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from rummydsl.resources import variants_dir

from .conftest import read_log, run


def record(tmp_path: Path, variant: str = "gin_rummy", games: int = 2, seed: int = 4) -> Path:
    log = tmp_path / "games.jsonl"
    code, _, err = run("simulate", variant, "--games", str(games), "--seed", str(seed), "--log", str(log))
    assert code == 0, err
    return log


def rewrite(log: Path, change: Callable[[list[dict[str, Any]]], int]) -> int:
    """Edit the record's lines; ``change`` returns the index of the line it changed."""
    lines = read_log(log)
    index = change(lines)
    log.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return index + 1


def test_a_good_record_replays(tmp_path: Path) -> None:
    log = record(tmp_path)
    lines = read_log(log)
    rounds = sum(line["type"] == "result" for line in lines)
    actions = sum(line["type"] == "action" for line in lines)
    code, out, err = run("replay", str(log))
    assert (code, err) == (0, "")
    assert out == f"gin_rummy: 2 games, {rounds} rounds, {actions} actions replayed; every result matches\n"


def test_the_header_names_variant_digests_seed_agents_and_version(tmp_path: Path) -> None:
    header = read_log(record(tmp_path))[0]
    assert header["type"] == "header" and header["variant"] == "gin_rummy" and header["seed"] == 4
    assert header["agents"] == ["greedy", "greedy"] and header["rummydsl"]
    assert len(header["variant_sha256"]) == len(header["file_sha256"]) == 64


def test_an_action_that_no_longer_replays_is_named_exactly(tmp_path: Path) -> None:
    log = record(tmp_path)

    def change(lines: list[dict[str, Any]]) -> int:
        index = [i for i, line in enumerate(lines) if line["type"] == "action" and line["round"] == 2][4]
        lines[index]["action"] = lines[index]["action"].split()[0] + " knock"
        return index

    number = rewrite(log, change)
    broken = read_log(log)[number - 1]["action"]
    code, out, err = run("replay", str(log))
    assert (code, out) == (1, "")
    assert err.startswith(f"{log}:{number}: round 2, action 5 {broken!r}: ")
    assert err.count("\n") == 1


def test_a_result_that_differs_is_named(tmp_path: Path) -> None:
    log = record(tmp_path)

    def change(lines: list[dict[str, Any]]) -> int:
        index = next(i for i, line in enumerate(lines) if line["type"] == "result")
        lines[index]["points"] = {"P1": 99, "P2": 99}
        return index

    number = rewrite(log, change)
    code, _, err = run("replay", str(log))
    assert code == 1
    assert err.startswith(f"{log}:{number}: round 1 result: points: the record says {{'P1': 99, 'P2': 99}}, "
                          "the engine gives ")


def test_a_deal_with_the_wrong_dealer_is_named(tmp_path: Path) -> None:
    log = record(tmp_path)

    def change(lines: list[dict[str, Any]]) -> int:
        index = [i for i, line in enumerate(lines) if line["type"] == "deal"][1]
        lines[index]["dealer"] = "P1" if lines[index]["dealer"] == "P2" else "P2"
        return index

    number = rewrite(log, change)
    code, _, err = run("replay", str(log))
    assert code == 1 and err.startswith(f"{log}:{number}: round 2: the deal says round 2, dealer ")


def test_a_truncated_record_is_reported(tmp_path: Path) -> None:
    log = record(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:6]))
    code, _, err = run("replay", str(log))
    assert (code, err) == (1, f"{log}: the record ends in the middle of round 1, with no result and no 'stopped' line\n")


@pytest.mark.parametrize("text,message", [
    ("{not json\n", ":2: not a JSON line: "),
    ("[1, 2]\n", ":2: a record line is an object with a \"type\""),
    ('{"type": "shuffle"}\n', ":2: unknown line type 'shuffle'"),
])
def test_a_line_that_is_not_a_record_line(text: str, message: str, tmp_path: Path) -> None:
    log = record(tmp_path)
    first = log.read_text().splitlines(keepends=True)[0]
    log.write_text(first + text)
    code, _, err = run("replay", str(log))
    assert code == 1 and err.startswith(f"{log}{message}")


def test_a_missing_or_empty_record(tmp_path: Path) -> None:
    code, _, err = run("replay", str(tmp_path / "nope.jsonl"))
    assert code == 1 and err.startswith(f"{tmp_path / 'nope.jsonl'}: cannot read the record: ")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run("replay", str(empty))[2] == f"{empty}: the record is empty\n"


def test_a_changed_variant_file_is_reported_and_changed_rules_are_an_error(tmp_path: Path) -> None:
    """The record's variant is the one given with --variant (or the shipped one of its
    id), never the file its header names; its content sha256 must match the header's."""
    house = tmp_path / "gin.yaml"
    shutil.copy(variants_dir() / "gin_rummy.yaml", house)
    log = record(tmp_path, str(house), games=1)
    house.write_text(house.read_text() + "\n# a comment changes the file, not the rules\n")
    code, out, err = run("replay", str(log), "--variant", str(house))
    assert code == 0 and "every result matches" in out
    assert err == f"rummydsl replay: warning: the file {house} has changed since the record was made " \
                  "(its rules have not); replaying anyway\n"
    text = house.read_text()
    house.write_text(text.replace("target: 100", "target: 150"))
    assert text != house.read_text()
    code, out, err = run("replay", str(log), "--variant", str(house))
    assert (code, out) == (1, "")
    assert err.startswith(f"{log}:1: the record was not made with the file {str(house)!r}: its variant "
                          "sha256 is "), err
    assert "(its rules differ)" in err
    # Without --variant the header's own path is not opened: its id is shipped, with the
    # same rules as the record's, so the record replays with the shipped gin_rummy.
    code, out, err = run("replay", str(log))
    assert (code, err) == (0, ""), err
    assert "every result matches" in out


def test_records_of_single_hands_replay(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    assert run("simulate", "skarney_gin", "--hands", "2", "--seed", "1", "--log", str(log))[0] == 0
    code, out, _ = run("replay", str(log))
    assert code == 0 and out.startswith("skarney_gin: 2 hands, 2 rounds")


def test_a_round_that_never_ends_is_a_rummydsl_error() -> None:
    import random

    from rummydsl.agents import make_agents
    from rummydsl.engine import Game
    from rummydsl.errors import RummyDslError
    from rummydsl.record import StalledRoundError, run_game
    from rummydsl.variant import load_variant

    game = Game(load_variant("gin_rummy"), random.Random(1))
    with pytest.raises(StalledRoundError, match="round 1 ran past 5 actions without ending") as caught:
        run_game(game, make_agents("random", 2, random.Random(1)), max_actions=5)
    assert isinstance(caught.value, RummyDslError)


def _deal(lines: list[dict[str, Any]], which: int = 1) -> int:
    return [i for i, line in enumerate(lines) if line["type"] == "deal"][which]


def _duplicated(lines: list[dict[str, Any]]) -> int:
    index = _deal(lines)
    lines[index]["hands"]["P1"][0] = lines[index]["hands"]["P2"][0]
    return index


def _missing(lines: list[dict[str, Any]]) -> int:
    index = _deal(lines)
    lines[index]["stock"].pop()
    return index


def _malformed_hash(lines: list[dict[str, Any]]) -> int:
    lines[0]["variant_sha256"] = "abc"
    return 0


@pytest.mark.parametrize("change,message", [
    (_duplicated, r"round 2 deal: card '(\w\w)' is dealt twice: in P1's hand and in P2's hand"),
    (_missing, r"round 2 deal: card '\w\w' is missing from the deal \(the deck has 52 cards, the deal places 51\)"),
    (_malformed_hash, r"variant_sha256: expected a sha256 \(64 hex digits\) or null, got 'abc'"),
])
def test_a_corrupt_deal_or_header_is_named_with_its_line(
        change: Callable[[list[dict[str, Any]]], int], message: str, tmp_path: Path) -> None:
    log = record(tmp_path)
    number = rewrite(log, change)
    code, out, err = run("replay", str(log))
    assert (code, out) == (1, "")
    assert re.fullmatch(f"{re.escape(str(log))}:{number}: {message}\n", err), err


def test_a_deal_with_a_face_more_often_than_the_packs_hold(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    two_packs = Path(__file__).parent.parent / "examples" / "good" / "two_pack_jokers.yaml"
    assert run("simulate", str(two_packs), "--hands", "1", "--seed", "2", "--log", str(log))[0] == 0

    def change(lines: list[dict[str, Any]]) -> int:
        index = _deal(lines, 0)
        hands = lines[index]["hands"]
        face = hands["P1"][0]
        hands["P2"][0] = hands["P3"][0] = face
        return index

    number = rewrite(log, change)
    code, _, err = run("replay", str(log), "--variant", str(two_packs))
    assert code == 1
    assert re.fullmatch(rf"{re.escape(str(log))}:{number}: round 1 deal: card '\S+' is dealt (3|4) times "
                        r"\(the deck has (2|4)\): in .*P1's hand, .*P2's hand.* and in .*\n", err), err


def test_a_last_line_cut_short_is_named_and_a_missing_last_newline_is_not(tmp_path: Path) -> None:
    log = record(tmp_path)
    text = log.read_text()
    count = text.count("\n")
    log.write_text(text[:-30])
    code, _, err = run("replay", str(log))
    assert code == 1
    assert err == (f"{log}:{count}: the last line is cut short (the record was truncated, e.g. its writer "
                   f"was killed); it is whole up to line {count - 1}\n")
    log.write_text(text[:-1])
    assert run("replay", str(log))[0] == 0
