"""``rummydsl play`` in a real terminal (pexpect): a person plays a few moves of Gin
Rummy, Skarney Gin and Ginski against agents, types garbage and gets a polite
message and a new prompt, and leaves with ``quit``, Ctrl-D or Ctrl-C; the game
record so far replays."""

from __future__ import annotations

import io
import re
import signal
import sys
from pathlib import Path

import pexpect

from rummydsl.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO())
    return code, out.getvalue(), err.getvalue()


PROMPT = "your move (number, action, 'undo', 'help' or 'quit'): "
HAND = re.compile(r"your hand \((\d+)\): ([^\r\n]+)")


def _ctrl_c_as_typed() -> None:
    """In the child before it starts: Ctrl-C interrupts, as in a person's terminal. A test
    run started in the background of a shell (`pytest &`, some CI jobs) has SIGINT
    ignored, and a program inherits that, so Ctrl-C would never reach `play`."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(tmp_path: Path, *argv: str) -> "pexpect.spawn":
    """``rummydsl ARGV`` in a pseudo-terminal, from a folder that is not the project's."""
    child = pexpect.spawn(sys.executable, ["-m", "rummydsl.cli", *argv], cwd=str(tmp_path),
                          encoding="utf-8", timeout=60, dimensions=(50, 120), preexec_fn=_ctrl_c_as_typed)
    child.logfile_read = open(tmp_path / "screen.txt", "w", encoding="utf-8")  # kept for a failing test
    return child


def move(child: "pexpect.spawn", answer: str) -> str:
    """Wait for the prompt, answer, and return what was shown before the prompt."""
    child.expect_exact(PROMPT)
    shown: str = child.before
    child.sendline(answer)
    return shown


def finish(child: "pexpect.spawn") -> int:
    child.expect(pexpect.EOF)
    child.close()
    status: int = child.exitstatus
    return status


def test_gin_rummy_a_few_moves_garbage_and_quit(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "gin_rummy", "--seed", "3", "--log", "game.jsonl")
    child.expect_exact("Gin Rummy: you are P1; P2 greedy (seed 3)")
    shown = move(child, "2")  # pass the upcard
    assert "phase upcard" in shown and "1  P1 draw discard" in shown and "stock: 31 cards" in shown
    assert "best melds:" in shown and "deadwood:" in shown and "scores: P1 0 . P2 0" in shown
    shown = move(child, "draw stock")  # the player may be left out
    assert "P2 pass" in shown or "P2 draw discard" in shown  # what the other player did
    child.expect_exact(PROMPT)
    child.sendline("hello")
    child.expect_exact("Sorry, I could not read 'P1 hello': unknown verb 'hello'")
    child.expect_exact(PROMPT)
    child.sendline("42")
    child.expect_exact("Sorry, there is no move 42")
    child.expect_exact(PROMPT)
    child.sendline("discard ZZ")
    child.expect_exact("Sorry, I could not read 'P1 discard ZZ': unknown card 'ZZ'")
    child.expect_exact(PROMPT)
    child.sendline("P2 draw stock")
    child.expect_exact("Sorry, 'P2 draw stock' is not allowed now: it is P1's move, not P2's.")
    child.expect_exact(PROMPT)
    child.sendline("help")
    child.expect_exact("Other commands:")
    screen = (tmp_path / "screen.txt").read_text(encoding="utf-8")
    best = re.findall(r"best discard: (\S+)", screen)[-1]
    child.expect_exact(PROMPT)
    child.sendline(f"discard {best.lower()}")  # cards are case-insensitive
    child.expect_exact(f"P1 discard {best} (you)")
    move(child, "1")
    move(child, "quit")
    child.expect_exact("bye: you left the game")
    assert finish(child) == 0
    assert "Traceback" not in (tmp_path / "screen.txt").read_text(encoding="utf-8")
    code, out, _ = run("replay", str(tmp_path / "game.jsonl"))
    assert code == 0 and "1 stopped early" in out


def test_skarney_gin_moves_by_number_and_ctrl_d(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "skarney_gin", "--seed", "5", "--agents", "random")
    child.expect_exact("Skarney Gin: you are P1; P2 random (seed 5)")
    for _ in range(4):
        shown = move(child, "1")
        assert HAND.search(shown) and "stock:" in shown
    child.expect_exact(PROMPT)
    child.sendline("offer")  # a verb without its card
    child.expect_exact("Sorry, I could not read 'P1 offer'")
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect_exact("bye: you left the game (end of input)")
    assert finish(child) == 0


def test_ginski_three_players_from_seat_two_and_ctrl_c(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "ginski", "--seed", "2", "--seat", "P2", "--agents", "greedy,random",
                  "--log", "ginski.jsonl")
    child.expect_exact("Ginski: you are P2; P1 greedy, P3 random (seed 2)")
    shown = move(child, "1")
    assert "P2 (you) to move" in shown and "knock limit: " in shown
    hand = HAND.search(shown)
    assert hand is not None and int(hand.group(1)) in (10, 11)
    move(child, "2")
    child.expect_exact(PROMPT)
    child.sendline("[*")
    child.expect_exact("Sorry, I could not read")
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect_exact("bye: ")
    assert finish(child) == 0
    code, out, err = run("replay", str(tmp_path / "ginski.jsonl"))
    assert (code, err) == (0, "") and out.startswith("ginski: 1 game")


class _CtrlCAtTheThirdPrompt(io.StringIO):
    """A screen where Ctrl-C lands as the third prompt is shown: in the flush that shows it,
    before the read begins (where a loaded machine may stall ``play``, and the test above
    presses Ctrl-C once the prompt is on the screen)."""

    def __init__(self) -> None:
        super().__init__()
        self.prompts = 0

    def flush(self) -> None:
        if self.getvalue().endswith(PROMPT):
            self.prompts += 1
            if self.prompts == 3:
                raise KeyboardInterrupt
        super().flush()


def test_ctrl_c_as_the_prompt_shows_leaves_as_in_the_read(tmp_path: Path) -> None:
    """The Ctrl-C of the test above, at the one moment a real terminal cannot pin down: the
    game ends as from the read (the person's goodbye, the record's ``stopped`` line, so the
    record replays), not as an interrupted command."""
    screen = _CtrlCAtTheThirdPrompt()
    log = tmp_path / "ginski.jsonl"
    code = main(["play", "ginski", "--seed", "2", "--seat", "P2", "--agents", "greedy,random", "--log", str(log)],
                stdout=screen, stderr=io.StringIO(), stdin=io.StringIO("1\n2\n"))
    assert code == 0 and screen.prompts == 3
    assert screen.getvalue().endswith("bye: you left the game (Ctrl-C)\n")
    code, out, err = run("replay", str(log))
    assert (code, err) == (0, "") and "1 stopped early (game 1: the player left (Ctrl-C))" in out


def test_rummy_500_deep_draw_typed_and_the_pile_shown(tmp_path: Path) -> None:
    """500 Rum: the whole pile is shown bottom first; a deep draw the hand cannot meld
    is refused with its reason; a legal one typed without the seat is played."""
    child = spawn(tmp_path, "play", "rummy_500", "--seed", "5", "--agents", "greedy", "--log", "game.jsonl")
    shown = ""
    for _ in range(40):  # play the stock until a deep draw is offered
        child.expect_exact(PROMPT)
        shown = child.before
        deep = re.findall(r"\d+\s+P1 draw discard (\w\w)\s", shown)
        if deep:
            break
        options = re.findall(r"^\s+(\d+)\s+P1 (.+?)\s*$", shown, re.M)
        pick = next((n for n, text in options if text.startswith(("draw stock", "meld", "layoff"))),
                    options[-1][0] if options else "1")
        child.sendline(pick)
    assert deep, "no deep draw was offered in 40 moves"
    assert "the pile, bottom first:" in shown
    pile = shown.split("the pile, bottom first:")[1].split("\n")[0].split()
    assert deep[0] in pile[:-1]
    unmeldable = next((card for card in pile[:-1] if card not in deep), None)
    if unmeldable is not None:
        child.sendline(f"draw discard {unmeldable}")
        child.expect("could not be melded or laid off from this hand")
        child.expect_exact(PROMPT)
    child.sendline(f"draw discard {deep[0]}")
    child.expect_exact(f"P1 draw discard {deep[0]} (you)")
    child.sendline("quit")
    assert finish(child) == 0
    code, out, _ = run("replay", str(tmp_path / "game.jsonl"))
    assert code == 0, out


def test_undo_in_a_real_terminal(tmp_path: Path) -> None:
    """issue 18: 'undo' at the terminal takes back the person's last move (Match.undo)."""
    child = spawn(tmp_path, "play", "gin_rummy", "--seed", "1")
    move(child, "1")                      # take the upcard
    shown = move(child, "1")              # discard 3S; P2 plays
    assert "your hand (11): 3S 5S 7H 9H TH 4D JD KD AC 4C JC" in shown
    move(child, "undo")
    back = move(child, "quit")
    assert "(taken back: round 1, as it stood before your last move)" in back
    assert "phase discard" in back and "your hand (11): 3S 5S 7H 9H TH 4D JD KD AC 4C JC" in back
    assert finish(child) == 0


def test_skarney_speaks_its_own_moves_in_a_real_terminal(tmp_path: Path) -> None:
    """issue 23: the help lists the offer game's moves, the contract is in words, the
    lay-downs fold and 'all' lists them, 'hint' and 'score' answer, and 'quit' prints
    the totals."""
    child = spawn(tmp_path, "play", "skarney_gin", "--seed", "5")
    child.expect_exact("offer 7H")
    child.expect_exact("take / decline")
    for _ in range(4):
        shown = move(child, "1")
    shown = move(child, "all")
    assert "contract: three melds of exactly three cards - you hold it" in shown
    assert "(34 lay-downs like those above are folded: 'all' lists all 41 moves)" in shown
    shown = move(child, "hint")
    assert "  40  P1 meld " in shown and "folded" not in shown.split("moves:")[1]
    shown = move(child, "score")
    assert "hint: the greedy agent would play P1 meld " in shown
    shown = move(child, "quit")
    assert "no round has been scored yet: P1 0 . P2 0" in shown
    child.expect_exact("totals: P1 0 . P2 0 (no round was scored)")
    child.expect_exact("bye: you left the game")
    assert finish(child) == 0


def test_the_round_summary_waits_for_enter_in_a_real_terminal(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "gin_rummy", "--seed", "1")
    for _ in range(30):
        index = child.expect_exact([PROMPT, "press Enter to go on ('quit' leaves): "])
        if index == 1:
            break
        child.sendline("1")
    assert index == 1 and "round 1 over: knock by P2" in child.before
    assert "deadwood 7: " in child.before  # the knocker's deadwood cards
    child.sendline("")
    child.expect_exact("=== round 2: P2 deals")
    child.expect_exact(PROMPT)
    child.sendline("quit")
    child.expect_exact("    1  knock by P2    0   35")
    assert finish(child) == 0
