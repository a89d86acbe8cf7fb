"""``rummydsl play`` with captured streams: a whole game to its end, the round
results and the game's, a log that replays; bad options as one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rummydsl.variant import shipped_variant_ids

from .conftest import read_log, run


def test_a_whole_game_played_by_numbers(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out, err = run("play", "gin_rummy", "--seed", "1", "--log", str(log), stdin="1\n" * 3000)
    assert (code, err) == (0, "")
    assert out.startswith("Gin Rummy: you are P1; P2 greedy (seed 1)\n")
    assert "round 1 over: " in out and "scores: P1 " in out
    assert "game over after 3 rounds: P2 wins" in out
    assert read_log(log)[-1]["type"] == "game_result"
    assert run("replay", str(log))[0] == 0


def test_the_same_seed_deals_the_same_game() -> None:
    first = run("play", "ginski", "--seed", "4", stdin="1\n" * 200)[1]
    again = run("play", "ginski", "--seed", "4", stdin="1\n" * 200)[1]
    assert first == again


def test_without_a_seed_one_is_chosen_and_shown() -> None:
    code, out, _ = run("play", "gin_rummy", stdin="quit\n")
    assert code == 0 and "(seed " in out.splitlines()[0] and "bye: you left the game" in out


@pytest.mark.parametrize("argv,message", [
    (["--seat", "P3"], "rummydsl play: --seat must be one of P1 to P2, got 'P3'"),
    (["--seat", "north"], "rummydsl play: --seat must be one of P1 to P2, got 'north'"),
    (["--agents", "smart"], "rummydsl play: P1: unknown agent 'smart'; use random, greedy, heuristic, simple, ismcts, pimc, cmd:PROGRAM or llm:PROGRAM"),
])
def test_bad_options_are_one_line(argv: list[str], message: str) -> None:
    code, out, err = run("play", "gin_rummy", *argv, stdin="quit\n")
    assert (code, out, err) == (1, "", message + "\n")


def test_a_failing_program_opponent_ends_the_game_cleanly(tmp_path: Path) -> None:
    bot = Path(__file__).resolve().parent / "bots" / "bot.py"
    log = tmp_path / "game.jsonl"
    code, out, err = run("play", "gin_rummy", "--seed", "1", "--log", str(log),
                         "--agents", f"cmd:{sys.executable} {bot} garbage 2", stdin="1\n" * 50)
    assert code == 1
    assert err == ("rummydsl play: P2: answered 'hello there', which is not an action: "
                   "expected a player P1 to P2, got 'hello'\n")
    assert read_log(log)[-1] == {"type": "stopped", "seat": "P2", "reason": err.split("P2: ", 1)[1].strip()}


@pytest.mark.parametrize("variant", shipped_variant_ids())
def test_every_shipped_variant_plays_from_any_folder(variant: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("play", variant, "--seed", "2", "--log", "game.jsonl", stdin="1\n" * 30)
    assert (code, err) == (0, ""), err
    assert "your move" in out and ("bye: you left the game (end of input)" in out or "game over" in out)
    assert run("replay", "game.jsonl")[0] == 0


def test_rummy_shows_the_pile_turned_over(tmp_path: Path) -> None:
    """Rummy (BR-4): the screen says when the discard pile has been turned over into a new
    stock; the game goes to its end and its log replays."""
    log = tmp_path / "rummy.jsonl"
    code, out, err = run("play", "rummy", "--seed", "1", "--log", str(log), stdin="1\n" * 3000)
    assert (code, err) == (0, "")
    assert "(the pile was turned over once)" in out
    assert "game over after" in out
    assert run("replay", str(log))[0] == 0


def _gr15():
    from rummydsl.engine import Round
    from rummydsl.variant import load_variant

    variant = load_variant("gin_rummy")
    deck = variant.deck
    return Round.from_setup(variant, dealer=1,
                            hands=[deck.parse_cards("5H 6H 7H 8H 9C 9D 9S AC 2D 4S"),
                                   deck.parse_cards("KS KH KD 2C 3C 4C 9H 4H QC 7D")],
                            stock=deck.parse_cards("KC 3D 4D"), upcard=deck.parse_card("QD"))


def test_the_play_screen_does_not_show_another_players_knock_discard() -> None:
    """GR-6.1 (issue 17): the computer's knock discards face down; the person sees the knock,
    not the card (their own knock prints as played)."""
    import io

    from rummydsl.terminal import TerminalWatcher

    rnd = _gr15()
    for action in ("P1 pass", "P2 pass", "P1 draw stock"):
        rnd.apply(action)
    knock = rnd.apply("P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    out = io.StringIO()
    TerminalWatcher(1, out).action(rnd, knock)
    assert "KC" not in out.getvalue() and "face down" in out.getvalue()
    mine = io.StringIO()
    TerminalWatcher(0, mine).action(rnd, knock)
    assert "P1 knock KC" in mine.getvalue()


def test_the_play_screen_shows_no_other_hand_after_a_void_round() -> None:
    """GR-8 (issue 17): a void round scores nothing and nobody shows a hand: the person
    sees their own hand and deadwood, not the other player's."""
    import io

    from rummydsl.terminal import TerminalWatcher

    rnd = _gr15()
    for action in ("P1 pass", "P2 pass", "P1 draw stock", "P1 discard KC"):
        rnd.apply(action)
    assert rnd.result is not None and rnd.result.void
    out = io.StringIO()
    TerminalWatcher(0, out).round_over(rnd, rnd.result, (0, 0))
    text = out.getvalue()
    assert "5H" in text and not {"KS", "KH", "QC", "7D"} & set(text.replace(",", " ").split())
    assert "  P2: points 0\n      hand not shown (10 cards)" in text


def test_undo_takes_back_your_last_move() -> None:
    """issue 18: 'undo' goes back to the person's previous decision (Match.undo), the
    others' moves since taken back too; the table is shown as it stood."""
    code, out, err = run("play", "gin_rummy", "--seed", "1", stdin="1\n1\nundo\nquit\n")
    assert (code, err) == (0, "")
    assert "(taken back: round 1, as it stood before your last move)" in out
    before, after = out.split("(taken back", 1)
    assert "P1 discard 3S (you)" in before and "P2 discard QD" in before
    # back at the discard, holding the upcard taken: the discard and P2's turn are undone
    assert "phase discard" in after and "your hand (11): 3S 5S 7H 9H TH 4D JD KD AC 4C JC" in after


def test_undo_with_nothing_to_take_back_says_so() -> None:
    code, out, err = run("play", "gin_rummy", "--seed", "1", stdin="undo\nquit\n")
    assert (code, err) == (0, "")
    assert "Nothing to take back yet: you have not chosen a move." in out
    assert "bye: you left the game" in out


def test_a_game_written_to_a_record_cannot_take_back(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    code, out, err = run("play", "gin_rummy", "--seed", "1", "--log", str(log), stdin="1\nundo\nquit\n")
    assert (code, err) == (0, "")
    assert "Sorry, nothing can be taken back:" in out and "record" in out


def test_undo_is_the_same_game_as_before_with_the_same_seed() -> None:
    """The deal does not change with the history kept: the seed deals as Game does."""
    with_history = run("play", "ginski", "--seed", "4", stdin="1\n" * 200)[1]
    recorded = run("play", "ginski", "--seed", "4", "--log", "/dev/null", stdin="1\n" * 200)[1]
    assert with_history == recorded


def test_undo_goes_back_past_moves_that_were_the_only_one() -> None:
    """SK-7: after P1's offer the draw from the stock is P1's only move, played for it; undo
    goes back to the offer, the last move P1 chose, not to that forced draw."""
    code, out, err = run("play", "skarney_gin", "--seed", "5", stdin="1\n1\n1\n1\nundo\nquit\n")
    assert (code, err) == (0, "")
    before, after = out.split("(taken back", 1)
    assert "(your only move) P1 draw stock" in before
    assert "phase offer" in after and "your hand (13): 7H 9H TH QH AD 2D 4D 5D 6D TD AC 3C 6C" in after


def test_a_move_missing_its_words_hears_this_games_moves() -> None:
    """'draw' alone in Gin names Gin's two draws (GR-5), not the deep draw of the rummy
    family's notation; a verb with many moves keeps the notation's own reason."""
    code, out, err = run("play", "gin_rummy", "--seed", "1", stdin="pass\ndraw\ndiscard\nquit\n")
    assert (code, err) == (0, "")
    assert ("Sorry, I could not read 'P1 draw': your 'draw' moves are 'draw stock' (1) or "
            "'draw discard' (2).") in out
    assert "draw discard CARD" not in out
    assert "Sorry, I could not read 'P1 discard': 'discard' takes one card" in out
