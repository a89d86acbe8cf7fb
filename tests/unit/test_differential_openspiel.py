"""The translation layer of benchmarks/differential_openspiel.py, on one scripted hand.

Runs only where open-spiel is installed (``pip install open-spiel``); the default
run skips it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pyspiel = pytest.importorskip("pyspiel")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "differential_openspiel.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("differential_openspiel", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


diff = _load()


def test_card_ids_map_suits_s_c_d_h_to_the_notation() -> None:
    assert [diff.card_text(i) for i in (0, 9, 13, 26, 39, 51)] == ["AS", "TS", "AC", "AD", "AH", "KH"]
    assert all(diff.card_id(diff.card_text(i)) == i for i in range(52))


def test_scripted_knock_with_layoffs_replays_move_for_move() -> None:
    """GR-15's knock, played in OpenSpiel: P1 takes the upcard KC and knocks throwing
    it back (OpenSpiel lets the card just taken be thrown), P2 lays off 9H and 4H and
    shows its melds; 17 - 7 = 10 to P1 in both engines."""
    ids = [diff.card_id(c) for c in "5H 6H 7H 8H 9C 9D 9S AC 2D 4S".split()]
    ids += [diff.card_id(c) for c in "KS KH KD 2C 3C 4C 9H 4H QC 7D".split()]
    ids.append(diff.card_id("KC"))
    ids += [i for i in range(52) if i not in ids]
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def meld(text: str) -> int:
        return diff.MELD_BASE + utils.meld_to_int(sorted(diff.card_id(c) for c in text.split()))

    script = [diff.DRAW_UPCARD, diff.KNOCK, diff.card_id("KC"), meld("5H 6H 7H 8H"), meld("9C 9D 9S"),
              diff.PASS, diff.card_id("9H"), diff.card_id("4H"), diff.PASS, meld("KS KH KD"),
              meld("2C 3C 4C"), diff.PASS]

    def choose(replay: object, phase: str, player: int, moves: list[int]) -> int:
        action = script.pop(0)
        assert action in moves, (phase, action, moves)
        return action

    game = pyspiel.load_game("gin_rummy")
    report = diff.Replay(game, ids).play(choose)
    assert script == []
    assert report.disagreements == []
    assert report.decisions == report.agreeing == 12
    assert report.actions == [
        "P1 draw discard",
        "P1 knock KC [5H 6H 7H 8H] [9S 9C 9D]",
        "P2 layoff 9H on P1#1",
        "P2 layoff 4H on P1#1",
        "P2 meld [KS KD KH] [2C 3C 4C]",
        "P2 done",
    ]
    assert report.openspiel_returns == (10.0, -10.0)
    assert report.rummydsl_points == (10, 0)
    assert report.agrees


def test_a_knocker_and_a_defender_showing_fewer_melds_are_scored_as_shown() -> None:
    """OpenSpiel accepts a knock that shows fewer melds than it could while the deadwood
    stays within the knock card, and scores both hands on what was laid (a defender
    that lays nothing keeps every card): ``deadwood.arrangement: as_shown`` in
    variants/openspiel_gin.yaml says the same, so the two agree move for move (C-6)."""
    ids = [diff.card_id(c) for c in "5H 6H 7H 8H 9C 9D 9S AC 2D AS".split()]
    ids += [diff.card_id(c) for c in "KS KH KD 2C 3C 4C 9H 4H QC 7D".split()]
    ids.append(diff.card_id("KC"))
    ids += [i for i in range(52) if i not in ids]
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def meld(text: str) -> int:
        return diff.MELD_BASE + utils.meld_to_int(sorted(diff.card_id(c) for c in text.split()))

    # [6H 7H 8H] [9C 9D 9S] leaves 9 (5H AC 2D AS): within the knock card, though 4 is the least;
    # P2 lays nothing off and shows no melds: 69
    script = [diff.DRAW_UPCARD, diff.KNOCK, diff.card_id("KC"), meld("6H 7H 8H"), meld("9C 9D 9S"),
              diff.PASS, diff.PASS, diff.PASS]

    def choose(replay: object, phase: str, player: int, moves: list[int]) -> int:
        action = script.pop(0)
        assert action in moves, (phase, action, moves)
        return action

    game = pyspiel.load_game("gin_rummy")
    report = diff.Replay(game, ids).play(choose)
    assert script == []
    assert report.disagreements == []
    assert report.actions == ["P1 draw discard", "P1 knock KC [6H 7H 8H] [9S 9C 9D]", "P2 meld []", "P2 done"]
    assert report.openspiel_returns == (60.0, -60.0)
    assert report.rummydsl_points == (60, 0)
    assert report.agrees


def test_a_third_card_in_a_lay_off_chain_is_the_openspiel_chain_class() -> None:
    """After 8C and 7C are laid off onto the knocker's 9C TC JC, rummydsl (GR-7.1,
    chains included) lets 6C follow; OpenSpiel's AllLayoffs does not offer it."""
    ids = [diff.card_id(c) for c in "9C TC JC KS KH KD 2S 3S 4S 5D".split()]
    ids += [diff.card_id(c) for c in "8C 7C 6C AH 3H 5H 7H 9H JH 2D".split()]
    ids.append(diff.card_id("QH"))
    ids += [i for i in range(52) if i not in ids]
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def meld(text: str) -> int:
        return diff.MELD_BASE + utils.meld_to_int(sorted(diff.card_id(c) for c in text.split()))

    script = [diff.DRAW_UPCARD, diff.KNOCK, diff.card_id("QH"), meld("9C TC JC"), meld("KS KH KD"),
              meld("2S 3S 4S"), diff.PASS, diff.card_id("8C"), diff.card_id("7C"), diff.PASS, diff.PASS]

    def choose(replay: object, phase: str, player: int, moves: list[int]) -> int:
        action = script.pop(0)
        assert action in moves, (phase, action, moves)
        return action

    game = pyspiel.load_game("gin_rummy")
    report = diff.Replay(game, ids).play(choose)
    assert script == []
    assert [(d.phase, d.klass) for d in report.disagreements] == [("layoff", diff.CHAIN)]
    assert "rummydsl only: 6C" in report.disagreements[0].detail
    assert report.score_agrees  # the defender did not lay 6C off, so both score the same


def test_a_card_that_fits_a_set_and_a_run_is_laid_onto_the_run() -> None:
    """OpenSpiel's lay-offs name no meld: 9S fits the knocker's 9C 9D 9H and 6S 7S 8S, and
    after it TS fits too (GR-7.1). The translation lays 9S onto the run, where rummydsl
    then offers TS as OpenSpiel does (onto the set it would take nothing more)."""
    ids = [diff.card_id(c) for c in "9C 9D 9H 6S 7S 8S 2D 3D 4D AC".split()]
    ids += [diff.card_id(c) for c in "9S TS KH QD 2C 5C QH JC 3H 7D".split()]
    ids.append(diff.card_id("KC"))
    ids += [i for i in range(52) if i not in ids]
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def meld(text: str) -> int:
        return diff.MELD_BASE + utils.meld_to_int(sorted(diff.card_id(c) for c in text.split()))

    script = [diff.DRAW_UPCARD, diff.KNOCK, diff.card_id("KC"), meld("9C 9D 9H"), meld("6S 7S 8S"),
              meld("2D 3D 4D"), diff.PASS, diff.card_id("9S"), diff.card_id("TS"), diff.PASS, diff.PASS]

    def choose(replay: object, phase: str, player: int, moves: list[int]) -> int:
        action = script.pop(0)
        assert action in moves, (phase, action, moves)
        return action

    report = diff.Replay(pyspiel.load_game("gin_rummy"), ids).play(choose)
    assert script == []
    assert report.disagreements == []
    assert report.actions[2:4] == ["P2 layoff 9S on P1#2", "P2 layoff TS on P1#2"]
    assert report.agrees


def test_mismatches_leave_out_openspiel_s_own_classes() -> None:
    assert not diff.is_mismatch(diff.CHAIN) and not diff.is_mismatch(diff.PHANTOM)
    assert not diff.is_mismatch(diff.APPROX)
    assert all(diff.is_mismatch(k) for k in (diff.C6_KNOCKER, diff.C6_DEFENDER, diff.REPEAT, diff.LIMIT,
                                              diff.AFTER, diff.UNEXPLAINED))
