"""A person's seat at the terminal: :class:`HumanAgent` shows the screen and reads a move."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence, TextIO

from ..engine.actions import Action, player_name
from ..engine.play import NOTHING_CHOSEN, TakeBack
from ..errors import RummyDslError
from ..record import Quit
from .screen import ordered, render_observation, suggested_first
from .words import COMMANDS

if TYPE_CHECKING:
    from ..engine.observe import Observation
    from .watcher import ScoreSheet

__all__ = ["HumanAgent", "PROMPT", "ask"]

PROMPT = "your move (number, action, 'undo', 'help' or 'quit'): "

SAVE_WORDS = ("save",)
"""The command that saves the game: ``save FILE``."""


def ask(prompt: str, inp: TextIO, out: TextIO) -> str:
    """Print ``prompt`` and read a line, stripped.

    :raises Quit: at the end of input (Ctrl-D) or on Ctrl-C.

    Ctrl-C is a :class:`Quit` from the prompt's write on: a person who presses it as the
    prompt appears may interrupt the flush that showed it, before the read begins (a
    loaded machine stalls a process there), and the game must end as it does in the read,
    with its record's ``stopped`` line.
    """
    try:
        out.write(prompt)
        out.flush()
        line = inp.readline()
    except KeyboardInterrupt:
        raise Quit("the player left (Ctrl-C)", "you left the game (Ctrl-C)") from None
    if not line:
        out.write("\n")
        out.flush()
        raise Quit("the player left (end of input)", "you left the game (end of input)")
    return line.strip()


class HumanAgent:
    """A person at the terminal plays seat ``seat``, reading from ``inp`` and writing to ``out``.

    ``help`` prints ``help`` (the variant's moves: :func:`~.words.help_text`), ``score``
    the ``sheet``, ``hint`` what ``adviser`` (an agent) would play, ``all`` every move,
    ``save FILE`` calls ``saver(FILE)`` and says what it answers (the game as it stands,
    before this move).
    """

    def __init__(self, seat: int, inp: TextIO, out: TextIO, *, help: str = COMMANDS,
                 sheet: ScoreSheet | None = None, adviser: Any = None,
                 saver: Callable[[str], str] | None = None) -> None:
        self.seat = seat
        self.inp = inp
        self.out = out
        self.help = help
        self.sheet = sheet
        self.adviser = adviser
        self.saver = saver

    def say(self, text: str) -> None:
        self.out.write(text if text.endswith("\n") else text + "\n")
        self.out.flush()

    def refused(self, reason: str) -> None:
        """The play loop could not take back (:class:`~rummydsl.engine.play.TakeBack`): say why."""
        if reason == NOTHING_CHOSEN:
            self.say("Nothing to take back yet: you have not chosen a move.")
        else:
            self.say(f"Sorry, nothing can be taken back: {reason}.")

    def act(self, observation: Observation) -> Action | TakeBack:
        """Show the table and read the person's move until it is a legal one, or ``undo``
        (:class:`~rummydsl.engine.play.TakeBack`: back to the person's previous move).

        :raises Quit: on ``quit`` or at the end of input (Ctrl-D), or Ctrl-C.
        """
        legal = ordered(observation.legal_actions())
        if len(legal) == 1:
            self.say(f"(your only move) {legal[0]}")
            return legal[0]
        legal = suggested_first(observation, legal)
        self.say(render_observation(observation, legal))
        while True:
            text = ask(PROMPT, self.inp, self.out)
            if not text:
                continue
            action = self._read(text, observation, legal)
            if action is not None:
                return action

    def _hint(self, observation: Observation, legal: Sequence[Action]) -> str:
        if self.adviser is None:
            return "Sorry, no agent is at hand to give a hint."
        try:
            advice = self.adviser.act(observation)
        except RummyDslError as problem:
            return f"Sorry, the hint failed: {problem}"
        number = next((f" (move {i})" for i, action in enumerate(legal, start=1) if action == advice), "")
        name = getattr(self.adviser, "name", type(self.adviser).__name__.replace("Agent", "").lower())
        return f"hint: the {name} agent would play {advice}{number}"

    def _save(self, path: str) -> str:
        if self.saver is None:
            return "Sorry, this game cannot be saved."
        if not path:
            return "Sorry, say where to save it: save FILE (a new or old file, written whole)."
        try:
            return self.saver(path)
        except RummyDslError as problem:
            return f"Sorry, the game was not saved: {problem}"

    def _read(self, text: str, observation: Observation, legal: Sequence[Action]) -> Action | TakeBack | None:
        """The move ``text`` names, or ``None`` after saying what is wrong with it."""
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit("the player left", "you left the game")
        if word in ("help", "?", "h"):
            self.say(self.help)
            return None
        if word in ("show", "s", "table"):
            self.say(render_observation(observation, legal))
            return None
        if word in ("all", "a"):
            self.say(render_observation(observation, legal, every=True))
            return None
        if word in ("score", "scores", "sheet"):
            self.say(self.sheet.text() if self.sheet is not None else "Sorry, no score sheet is kept.")
            return None
        if word == "hint":
            self.say(self._hint(observation, legal))
            return None
        if word in ("undo", "u", "back"):
            return TakeBack()
        verb, _, where = text.partition(" ")
        if verb.lower() in SAVE_WORDS:
            self.say(self._save(where.strip()))
            return None
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"Sorry, there is no move {number}: choose 1 to {len(legal)}.")
            return None
        first = text.split()[0]
        if not (first[:1] in "Pp" and first[1:].isdigit()):
            text = f"{player_name(self.seat)} {text}"
        try:
            action = observation.parse(text)
        except RummyDslError as problem:
            reason = _moves_like(text, legal) or getattr(problem, "reason", str(problem))
            self.say(f"Sorry, I could not read {text!r}: {reason}. Type 'help' for examples.")
            return None
        reason = observation.why_illegal(action)
        if reason is not None:
            self.say(f"Sorry, {str(action)!r} is not allowed now: {reason}.")
            return None
        return action


MOVES_LIKE_SHOWN = 6
"""At most this many legal moves are named when a person's move uses their verb but not
their words (``draw`` alone); past it, the notation's own reason is said."""


def _moves_like(text: str, legal: Sequence[Action]) -> str | None:
    """What to say when ``text`` (``P1 draw``) cannot be read but its verb is that of legal
    moves: those moves, numbered, so the person hears this game's words and not every form
    the notation has (``draw discard CARD`` is only for games with deep draws)."""
    words = text.split()
    if len(words) < 2:
        return None
    verb = words[1].lower()
    same = [(number, " ".join(str(action).split()[1:])) for number, action in enumerate(legal, start=1)
            if str(action).split()[1:2] == [verb]]
    if not same or len(same) > MOVES_LIKE_SHOWN:
        return None  # the notation's own words say it best ('discard' takes one card)
    named = [f"'{said}' ({number})" for number, said in same]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
    return f"your '{verb}' move{'s are' if len(same) > 1 else ' is'} {listed}"
