"""Writing a game record: its format version, the header with the rules' digests, one line
per deal, action and result (docs/cli.md, "Game records"), and what a front end hears.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence


if TYPE_CHECKING:
    from ..cards import Card
    from ..engine import Action, GameResult, Round, RoundResult
    from ..variant.model import Variant


#: The version of the record format, in each header.
RECORD_VERSION = 1


class Quit(Exception):
    """Raised by a person's agent to leave the game (``quit`` or end of input).

    Not an error: the game stops, the record so far is kept with a ``stopped``
    line, and the command exits 0. ``str(quit)`` is the record's form, said of the
    player (``the player left``: the ``stopped`` line); :attr:`person` is the same said
    to the person who left (``you left the game``), which ``play`` prints.

    >>> leaving = Quit("the player left (end of input)", "you left the game (end of input)")
    >>> str(leaving), leaving.person
    ('the player left (end of input)', 'you left the game (end of input)')
    >>> Quit("the player left").person
    'the player left'
    """

    def __init__(self, reason: str = "the player left", person: str | None = None) -> None:
        super().__init__(reason)
        self.person = reason if person is None else person
        """The reason as the person who left reads it."""


class Watcher:
    """What a front end hears while a game is played (every method does nothing here)."""

    def deal(self, rnd: Round) -> None:
        """A round has been dealt."""

    def action(self, rnd: Round, action: Action) -> None:
        """``action`` has just been played in ``rnd``."""

    def drawn(self, rnd: Round, player: int, cards: Sequence[Card]) -> None:
        """``player`` has just drawn ``cards`` from the stock (the Match event's ``drawn``:
        theirs alone to see; a front end shows them to that player only)."""

    def taken_back(self, rnd: Round) -> None:
        """A seat took back its last decision (:class:`~rummydsl.engine.play.TakeBack`):
        play goes on from ``rnd`` as it stood before it (perhaps an earlier round)."""

    def round_over(self, rnd: Round, result: RoundResult, scores: tuple[int, ...]) -> None:
        """``rnd`` has ended; ``scores`` are the game totals after it."""

    def game_over(self, result: GameResult) -> None:
        """The game has ended."""


def _sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def variant_digests(variant: Variant) -> dict[str, str | None]:
    """The sha256 of a variant's merged content and of its file (``None`` if unreadable).

    The content digest changes when any rule changes, also through a parent file;
    the file digest changes with any edit of the file, comments included.

    >>> from rummydsl.variant import load_variant
    >>> digests = variant_digests(load_variant("gin_rummy"))
    >>> sorted(digests), len(digests["variant_sha256"] or "")
    (['file_sha256', 'variant_sha256'], 64)
    """
    content = _sha256_text(json.dumps(variant.data, sort_keys=True, default=str))
    try:
        file_digest: str | None = hashlib.sha256(Path(variant.path).read_bytes()).hexdigest()
    except OSError:
        file_digest = None
    return {"variant_sha256": content, "file_sha256": file_digest}


class RecordWriter:
    """Turns a game into record lines (dicts) passed to ``emit``, one call a line."""

    def __init__(self, emit: Callable[[dict[str, Any]], None]) -> None:
        self.emit = emit

    def header(self, variant: Variant, *, seed: int, agents: Sequence[str], mode: str,
               players: int | None = None) -> None:
        """The first line: variant, digests, master seed, agents, ``games`` or ``hands``."""
        from .. import __version__

        self.emit({"type": "header", "record": RECORD_VERSION, "rummydsl": __version__,
                   "variant": variant.id, "variant_path": shown_variant_path(variant),
                   **variant_digests(variant), "seed": seed, "mode": mode,
                   "players": variant.players if players is None else players,
                   "agents": list(agents)})

    def game(self, index: int, seed: int) -> None:
        """The start of game (or hand) ``index`` (from 1), played from ``seed``."""
        self.emit({"type": "game", "game": index, "seed": seed})

    def deal(self, rnd: Round) -> None:
        """A round's deal: dealer, every hand, the stock (top card first), the upcard."""
        state = rnd.to_json()
        self.emit({"type": "deal", "round": rnd.number, "dealer": state["dealer"], "hands": state["hands"],
                   "stock": state["stock"], "upcard": state["upcard"],
                   "scores": {f"P{p + 1}": s for p, s in enumerate(rnd.scores)},
                   **({} if rnd.sat_out is None else {"sat_out": state["sat_out"]})})

    def action(self, rnd: Round, action: Action, n: int | None = None) -> None:
        """An action just played, in the notation, numbered from 1 in its round (``n``;
        by default, how many actions ``rnd`` has had)."""
        self.emit({"type": "action", "round": rnd.number, "n": len(rnd.actions) if n is None else n,
                   "action": str(action)})

    def result(self, rnd: Round, result: RoundResult) -> None:
        """A round's result, as :meth:`RoundResult.as_json` gives it."""
        self.emit({"type": "result", "round": rnd.number, **result.as_json()})

    def game_result(self, result: GameResult) -> None:
        """A game's result, as :meth:`GameResult.as_json` gives it."""
        self.emit({"type": "game_result", **result.as_json()})

    def stopped(self, reason: str, seat: str | None = None) -> None:
        """The game stopped before its end: an agent failed, or the person left."""
        self.emit({"type": "stopped", "seat": seat, "reason": reason})


def shown_variant_path(variant: Variant) -> str:
    """The ``variant_path`` a header of ``variant`` carries (the resolved file)."""
    return str(Path(variant.path).resolve())
