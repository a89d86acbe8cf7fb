"""A variant whose formulas fail only in play (issue 17, section 2): a division by zero,
the points times the multiplier, a game total or a final figure past MAX_EXPR_INT.

Each stops the game cleanly with one line naming the formula's file place, the formula,
the variant, the game and the round; ``--log`` keeps the game so far with its
``stopped`` line, and ``replay`` of that log agrees. A record holding only its header
replays nothing and says so (exit 1). Rules: GR-9 (scoring), GR-10 (game totals),
GR-13 (Hollywood sheets)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from rummydsl.cli import main
from rummydsl.engine import Game
from rummydsl.errors import FormulaError
from rummydsl.expr import SimpleRoundView
from rummydsl.limits import MAX_EXPR_INT
from rummydsl.scoring import final_figures, score_round
from rummydsl.variant import check_file, find_variant_path, load_variant

BIG = "1000000000 * 1000000000"  # 10**18: each literal within the literal limit, the product within MAX_EXPR_INT


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO())
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, body: str, parent: str = "gin_rummy") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"rummydsl: 1\nid: {name}\nname: {name}\nextends: {parent}\n{body}", encoding="utf-8")
    return path


DIVIDES = ("scoring:\n  round:\n"
           "    - {rule: GR-9.1, when: knock, ender: \"100 // (deadwood(ender) - deadwood(ender))\"}\n"
           "    - {rule: GR-9.3, when: gin or big_gin, ender: \"100 // (deadwood(ender) - deadwood(ender))\"}\n")
LATE_MULTIPLIER = f"scoring:\n  multiplier: \"round >= 2 ? {BIG} : 1\"\n"
SINKING = ("scoring:\n  round:\n"
           f"    - {{rule: GR-9.1, when: knock or gin or big_gin, others: \"-({BIG} * 5)\"}}\n"
           f"    - {{rule: GR-8, when: stock_end, points: \"-({BIG} * 5)\"}}\n")

CASES = {
    "divides": (DIVIDES, "gin_rummy", "7:43",
                "scoring.round[0].ender '100 // (deadwood(ender) - deadwood(ender))': division by zero"),
    "late_multiplier": (LATE_MULTIPLIER, "gin_rummy", "6:15",
                        f"scoring.multiplier 'round >= 2 ? {BIG} : 1': P"),
    "sinking": (SINKING, "gin_rummy", "7:5", "scoring.round: P"),
    "sheets": ("scoring:\n  round:\n"
               f"    - {{rule: GR-9.1, when: knock or gin or big_gin, ender: \"{BIG} * 4\"}}\n",
               "hollywood_gin", "13:14", "game.hollywood: P1's figure over the sheet's games would be more than"),
}
"""name: (the variant's body, its parent, the place's line:col, what the message says)."""


@pytest.mark.parametrize("name", list(CASES))
def test_a_formula_that_fails_in_play_stops_the_game_at_its_place(name: str, tmp_path: Path) -> None:
    body, parent, place, said = CASES[name]
    path = write(tmp_path, name, body, parent)
    assert [d for d in check_file(str(path)) if d.severity == "error"] == []  # found only in play
    log = tmp_path / "game.jsonl"
    code, out, err = run("simulate", str(path), "--games", "2", "--seed", "1", "--workers", "1", "--log", str(log))
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1
    at = find_variant_path(parent) if name == "sheets" else str(path)  # GR-13: the sheet is the parent's setting
    assert err.startswith(f"rummydsl simulate: game 1: {at}:{place}: {said}"), err
    assert f"(variant {name!r}, round " in err
    if name != "divides":
        assert "9,223,372,036,854,775,807" in err
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [line["type"] for line in lines[:3]] == ["header", "game", "deal"]
    assert lines[-1]["type"] == "stopped" and lines[-1]["seat"] is None
    assert err.split(": ", 2)[2].rstrip("\n") == lines[-1]["reason"]
    assert not any(line["type"] == "game_result" for line in lines)
    assert all(abs(v) <= MAX_EXPR_INT for line in lines if line["type"] == "result"
               for v in line["points"].values())
    code, out, err = run("replay", str(log), "--variant", str(path))  # a house rule: named by the user
    assert (code, err) == (0, "")
    assert "every result so far matches, but 1 stopped early (game 1: " in out and said in out


def test_a_worker_process_reports_the_same_line(tmp_path: Path) -> None:
    path = write(tmp_path, "divides", DIVIDES)
    argv = ["simulate", str(path), "--games", "3", "--seed", "1"]
    assert run(*argv, "--workers", "1") == run(*argv, "--workers", "2")


def test_check_play_places_a_score_past_the_limit(tmp_path: Path) -> None:
    for name, key in (("late_multiplier", "multiplier:"), ("sinking", "- {rule: GR-9.1")):
        path = write(tmp_path, name, CASES[name][0])
        code, out, err = run("check", "--play", "3", str(path))
        assert code == 1 and "Traceback" not in out + err
        assert "defect of rummydsl" not in out
        assert f"{path}:{CASES[name][2]}: " in out and key in out
        assert "9,223,372,036,854,775,807" in out


def test_the_multiplier_product_is_held_to_the_limit() -> None:
    gin = load_variant("gin_rummy")
    from dataclasses import replace

    from rummydsl.expr import Context, Env, compile_expression

    env = Env(Context.SCORE, gin.deck)
    factor = compile_expression(BIG, env, "int")
    big = replace(gin, scoring=replace(gin.scoring, multiplier=factor))
    view = SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 0, "P2": 50})
    with pytest.raises(FormulaError) as error:
        score_round(big, view)
    assert error.value.key == ("scoring", "multiplier") and error.value.rule == "expr-limit"
    assert "P1's 50 points times the multiplier 1,000,000,000,000,000,000" in str(error.value)
    small = replace(gin, scoring=replace(gin.scoring, multiplier=compile_expression("1000000000", env, "int")))
    assert score_round(small, view) == {"P1": 50 * 10**9, "P2": 0}


def test_final_figures_and_totals_are_held_to_the_limit() -> None:
    gin = load_variant("gin_rummy")
    with pytest.raises(FormulaError, match="P1's final figure would be more than 9,223,372,036,854,775,807"):
        final_figures(gin, {"P1": MAX_EXPR_INT // 2 + 1, "P2": 0}, {"P1": 1, "P2": 0})  # doubled by the shutout
    assert final_figures(gin, {"P1": MAX_EXPR_INT // 4, "P2": 0}, {"P1": 1, "P2": 0})["P1"] < MAX_EXPR_INT
    game = Game(gin, random.Random(1))
    game.sheets[0].points = [MAX_EXPR_INT - 5, 0]
    rnd = game.round
    from rummydsl.endings import Ending

    rnd.finish(Ending.GIN, 0)
    before = ([list(s.points) for s in game.sheets], list(game.results))
    with pytest.raises(FormulaError, match="P1's game total would be more than"):
        game.next_round()
    assert ([list(s.points) for s in game.sheets], list(game.results)) == before  # nothing half-entered


def test_check_finds_the_product_when_the_sample_round_shows_it(tmp_path: Path) -> None:
    path = write(tmp_path, "multiplier", f"scoring:\n  multiplier: \"{BIG}\"\n")
    found = [d for d in check_file(str(path)) if d.severity == "error"]
    assert [(d.rule, d.location.line, d.location.column) for d in found] == [("expr-limit", 6, 15)]
    assert "the points times the multiplier" in found[0].message
    path = write(tmp_path, "figure", "scoring:\n  round:\n"
                 f"    - {{rule: GR-9.1, when: knock or gin or big_gin, ender: \"{BIG} * 9\"}}\n")
    found = [d for d in check_file(str(path)) if d.severity == "error"]
    assert [(d.rule, d.location.line) for d in found] == [("expr-limit", 7)]
    assert "makes a final figure of 18,000,000,000,000,000,125" in found[0].message


def test_a_record_holding_only_its_header_replays_nothing(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--log", str(log))[0] == 0
    header = tmp_path / "header.jsonl"
    header.write_text(log.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    code, out, err = run("replay", str(header))
    assert (code, out) == (1, "")
    assert err == f"{header}: no game in the record: it holds only its header, so there is nothing to replay\n"


def test_a_stopped_reason_is_shown_escaped(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--log", str(log))[0] == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "result")
    stopped = json.dumps({"type": "stopped", "seat": "P2", "reason": "gone\x1b]0;owned\x07\x9b"})
    log.write_text("\n".join(lines[:cut - 1] + [stopped]) + "\n", encoding="utf-8")
    code, out, err = run("replay", str(log))
    assert code == 0 and "(game 1: P2: gone\\x1b]0;owned\\x07\\x9b)" in out
    assert "\x1b" not in out and "\x9b" not in out


def test_play_stops_at_the_formula_and_keeps_the_game(tmp_path: Path) -> None:
    """``play`` (a person at P1 typing "1" to each question) stops as simulate does."""
    path = write(tmp_path, "divides", DIVIDES)
    log = tmp_path / "game.jsonl"
    out, err = io.StringIO(), io.StringIO()
    code = main(["play", str(path), "--seed", "1", "--log", str(log)], stdout=out, stderr=err,
                stdin=io.StringIO("1\n" * 3000))
    said = "scoring.round[0].ender '100 // (deadwood(ender) - deadwood(ender))': division by zero"
    assert code == 1 and "Traceback" not in err.getvalue()
    assert err.getvalue().startswith(f"rummydsl play: {path}:7:43: {said}")
    assert "(variant 'divides', round " in err.getvalue()
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["type"] == "stopped" and last["seat"] is None and said in last["reason"]
    code, text, _ = run("replay", str(log), "--variant", str(path))
    assert code == 0 and "1 stopped early" in text
