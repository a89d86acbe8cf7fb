"""The play screen speaks the variant played (issue 23): its moves and cards in help,
"best offer" where it offers, "you drew", hands by suit and rank across packs, the
contract in words and held or met, a legal contract lay-down suggested, near-identical
lay-downs folded (``all``), the round summary, ``score``, ``hint`` and the totals on
``quit``. Captured streams: the pty adds nothing here (tests/acceptance has the pty)."""

from __future__ import annotations

import re

import pytest

from rummydsl.terminal import help_text, sort_cards
from rummydsl.terminal.screen import contract_text
from rummydsl.variant import load_variant

from .conftest import run


def test_help_lists_the_moves_of_an_offer_game() -> None:
    text = help_text(load_variant("skarney_gin"))
    examples = [line.split()[0] for line in text.splitlines() if line.startswith("  ")]
    assert {"draw", "meld", "layoff", "done", "offer", "take"} <= set(examples)
    assert "discard" not in examples and "knock" not in examples
    assert "decline" in text and "offer 7H" in text


def test_help_writes_examples_in_the_decks_notation() -> None:
    text = help_text(load_variant("ginski"))
    assert "discard 7B" in text and "knock 9Y" in text and "(4R, 13Y, *)" in text
    assert "* is a wild card" in text and "7H" not in text
    assert "draw discard" in text and "offer" not in text


def test_the_play_command_prints_the_variants_help() -> None:
    out = run("play", "skarney_gin", "--seed", "5", stdin="help\nquit\n")[1]
    assert out.count("Moves in Skarney Gin:") == 2 and "knock 9C" not in out


def test_an_offer_game_shows_the_best_offer_not_the_best_discard() -> None:
    out = run("play", "skarney_gin", "--seed", "5", stdin="1\n1\nquit\n")[1]
    assert "best offer: AC (deadwood after: 59)" in out and "best discard" not in out
    # answering an offer is neither: nothing is suggested to give away
    answer = out.split("phase answer", 1)[1].split("your move", 1)[0]
    assert "best offer" not in answer


def test_you_are_told_the_card_you_drew() -> None:
    out = run("play", "skarney_gin", "--seed", "5", stdin="1\n1\nquit\n")[1]
    assert "  P1 draw stock (you)\n  you drew 6D\n" in out
    assert "P2 draw stock\n  P2 done" in out  # another's card is not named


def test_a_buy_and_a_draw_completed_by_the_others_passing_say_what_came() -> None:
    """CR-4: the penalty card of a buy; a stock draw that comes after the others pass."""
    out = run("play", "contract_rummy", "--seed", "3", stdin="1\n1\nquit\n")[1]
    assert "  P1 buy (you): takes JS\n  you drew 6H (the penalty card of your buy)\n" in out
    assert "  P4 pass\n  you drew AC\n" in out


def test_hands_are_sorted_by_suit_and_rank_across_packs() -> None:
    out = run("play", "contract_rummy", "--seed", "3", stdin="1\n1\nquit\n")[1]
    hands = re.findall(r"your hand \(\d+\): ([^\n]+)", out)
    assert "8S JS AH AH 2H 5H 6H 8D AC AC 2C 3C 4C" in hands  # both packs' aces side by side
    deck = load_variant("contract_rummy").deck
    for hand in hands:
        cards = [next(c for c in deck.cards if str(c) == text) for text in hand.split()]
        assert [str(c) for c in sort_cards(cards)] == hand.split()


@pytest.mark.parametrize("vid,number,words", [
    ("skarney_gin", 1, "three melds of exactly three cards"),
    ("contract_rummy", 1, "two sets"),
    ("contract_rummy", 2, "a set and a run"),
    ("contract_rummy", 3, "two runs"),
    ("contract_rummy", 5, "two sets and a run"),
    ("contract_rummy", 6, "a set and two runs"),
    ("contract_rummy", 7, "three runs"),
])
def test_the_contract_in_words(vid: str, number: int, words: str) -> None:
    import dataclasses

    from rummydsl.engine.round import meld_rules
    from rummydsl.melds.contract import first_deal_facts

    variant = load_variant(vid)
    facts = dataclasses.replace(first_deal_facts(variant), round=number)
    assert contract_text(variant, meld_rules(variant, facts), 13) == words


def test_a_variant_without_a_contract_says_nothing_of_one() -> None:
    out = run("play", "gin_rummy", "--seed", "1", stdin="quit\n")[1]
    assert "contract" not in out


SKARNEY_TO_MELD = "1\n1\n1\n1\n"
"""Skarney Gin, seed 5: four moves to a meld step holding the contract 40 ways."""


def test_the_contract_held_then_met_and_the_suggestion_is_a_legal_lay_down() -> None:
    out = run("play", "skarney_gin", "--seed", "5", stdin=SKARNEY_TO_MELD + "25\nquit\n")[1]
    assert "contract this round: three melds of exactly three cards" in out
    assert "contract: three melds of exactly three cards - not held yet" in out
    held = out.split("phase meld", 1)[1].split("your move", 1)[0]
    assert "contract: three melds of exactly three cards - you hold it" in held
    assert "best melds: [TD JS QH] [5D 6C 7H] [AD 2D 3C]   deadwood: 44 (9H TH 4D 6D AC)" in held
    assert "  25  P1 meld [AD 2D 3C] [5D 6C 7H] [TD JS QH]   (best melds; 25-32:" in held
    after = out.split("P1 meld [AD 2D 3C] [5D 6C 7H] [TD JS QH] (you)", 1)[1]
    assert "contract: three melds of exactly three cards - met (your melds are on the table)" in after


def test_near_identical_lay_downs_fold_and_all_lists_them() -> None:
    out = run("play", "skarney_gin", "--seed", "5", stdin=SKARNEY_TO_MELD + "all\nquit\n")[1]
    folded, full = out.split("phase meld", 2)[1:]
    moves = [line for line in folded.split("moves:\n", 1)[1].splitlines() if line.startswith("  ")]
    assert len(moves) == 8 and moves[0].endswith("(1-8: the same ranks in other suits)")
    assert moves[-1] == "  (34 lay-downs like those above are folded: 'all' lists all 41 moves)"
    assert [f"{n:>4}" for n in range(1, 42)] == re.findall(r"^(\s+\d+)  P1 ", full.split("moves:\n", 1)[1], re.M)


def test_a_move_folded_away_can_still_be_chosen_by_its_number() -> None:
    out = run("play", "skarney_gin", "--seed", "5", stdin=SKARNEY_TO_MELD + "2\nquit\n")[1]
    assert "P1 meld [AD 2D 3C] [4D 5D 6D] [9H TD JS] (you)" in out


def test_the_round_summary_shows_melds_lay_offs_and_deadwood_and_waits() -> None:
    out = run("play", "ginski", "--seed", "2", "--agents", "greedy", stdin="1\n" * 4 + "score\nquit\n")[1]
    summary = out.split("round 1 over: knock by P3\n", 1)[1].split("press Enter", 1)[0]
    assert summary.splitlines()[:3] == ["  P1 (you): points 0", "      laid off: 7P on P3#3",
                                        "      deadwood 62: 3B 9B 11B 2G 2P 10P 13P 3Y 9Y"]
    assert "      melds: [6R 6B 6G *] [7R 9R 10R 11R 12R *] [7B 7G 7P 7Y *]" in summary and "shows:" not in summary
    assert "scores: P1 0 . P2 0 . P3 67" in summary
    assert out.split("press Enter to go on ('quit' leaves): ", 1)[1].startswith("\n=== round 2")


def test_score_hint_and_the_totals_on_quit() -> None:
    out = run("play", "gin_rummy", "--seed", "1", stdin="1\n" * 25 + "score\nhint\nquit\n")[1]
    prompt = "your move (number, action, 'undo', 'help' or 'quit'): "
    score, hint, totals = out.split(prompt)[-3:]
    assert score == "round  ending        P1   P2\n    1  knock by P2    0   35\ntotal                 0   35\n"
    assert hint == "hint: the greedy agent would play P1 draw stock (move 1)\n"
    assert totals == score + "bye: you left the game\n"


def test_quit_before_any_round_ends_prints_the_totals() -> None:
    out = run("play", "gin_rummy", "--seed", "1", stdin="quit\n")[1]
    assert out.endswith("totals: P1 0 . P2 0 (no round was scored)\nbye: you left the game\n")


def test_quit_at_the_round_summary_leaves() -> None:
    code, out, _ = run("play", "gin_rummy", "--seed", "1", stdin="1\n" * 47 + "quit\n")
    assert code == 0 and "press Enter to go on" in out and out.endswith("bye: you left the game\n")


def test_a_round_taken_back_is_struck_off_the_score_sheet() -> None:
    """'undo' back into a scored round (Match.undo) strikes it off the sheet 'score' prints."""
    import io
    import random

    from rummydsl.engine import Round
    from rummydsl.terminal import ScoreSheet, TerminalWatcher

    sheet = ScoreSheet(2)
    sheet.add(1, "knock by P2", (0, 35), (0, 35))
    sheet.add(2, "gin by P1", (41, 0), (41, 35))
    rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1, number=2)
    TerminalWatcher(0, io.StringIO(), sheet=sheet).taken_back(rnd)
    assert [row[0] for row in sheet.rows] == [1] and sheet.totals == (0, 35)
