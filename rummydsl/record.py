"""Game records: play games while writing a JSON-lines log, and replay a log through the engine.

A record is one JSON object a line (docs/cli.md, "Game records")::

    {"type": "header", "record": 1, "rummydsl": "0.1.0", "variant": "gin_rummy", ...}
    {"type": "game", "game": 1, "seed": 123456789}
    {"type": "deal", "round": 1, "dealer": "P2", "hands": {...}, "stock": [...], "upcard": "7D", ...}
    {"type": "action", "round": 1, "n": 1, "action": "P1 pass"}
    ...
    {"type": "result", "round": 1, "ending": "knock", "points": {...}, ...}
    {"type": "game_result", "winner": "P1", ...}

:func:`run_game` and :func:`run_hand` play with agents, write the record through
a callback, tell a :class:`Watcher` (the terminal) what happens, and end a game
cleanly when an agent fails (:class:`~rummydsl.errors.AgentError`): the record so
far is kept and a ``stopped`` line names the seat and the reason.
:func:`replay_record` plays every round of a record back from its recorded deal
and checks every action and every result.

>>> import io, random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.agents import make_agents
>>> from rummydsl.engine import Game
>>> variant = load_variant("gin_rummy")
>>> lines = []
>>> writer = RecordWriter(lines.append)
>>> writer.header(variant, seed=5, agents=["greedy", "greedy"], mode="games")
>>> game = Game(variant, random.Random(5))
>>> played = run_game(game, make_agents("greedy", 2, random.Random(5)), writer=writer)
>>> played.stopped is None, lines[0]["type"], lines[-1]["type"]
(True, 'header', 'game_result')
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from .errors import AgentError, ExpressionError, Location, MeldError, RecordError, RummyDslError, StalledRoundError
from . import jsonbound, limits
from .engine.match import Event, Match
from .engine.observe import result_json
from .engine.play import TakenBack, failed_event, play
from .limits import MAX_ACTIONS
from .safetext import safe_text
from .untrusted import open_regular

if TYPE_CHECKING:
    from .agents import Agent
    from .cards import Deck
    from .engine import Action, Game, GameResult, Round, RoundResult
    from .variant.model import Variant

__all__ = [
    "RECORD_VERSION",
    "MAX_ACTIONS",
    "StalledRoundError",
    "Quit",
    "Watcher",
    "RecordWriter",
    "RoundSummary",
    "PlayedGame",
    "run_game",
    "run_hand",
    "close_agents",
    "variant_digests",
    "ReplaySummary",
    "replay_record",
]

#: The version of the record format, in each header.
RECORD_VERSION = 1


class Quit(Exception):
    """Raised by a person's agent to leave the game (``quit`` or end of input).

    Not an error: the game stops, the record so far is kept with a ``stopped``
    line, and the command exits 0.
    """


class Watcher:
    """What a front end hears while a game is played (every method does nothing here)."""

    def deal(self, rnd: Round) -> None:
        """A round has been dealt."""

    def action(self, rnd: Round, action: Action) -> None:
        """``action`` has just been played in ``rnd``."""

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
        from . import __version__

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


@dataclass(frozen=True)
class RoundSummary:
    """What statistics need of one finished round (small, picklable)."""

    dealer: int
    first: int
    """The player who moved first (the dealer's left)."""
    ending: str
    ender: int | None
    undercut: bool
    turns: int
    points: tuple[int, ...]
    winner: int | None
    """Who scored most this round, ``None`` when nobody scored."""
    sat_out: int | None = None
    """The seat that sat out the round (G3-1), ``None`` when everyone was dealt in."""


@dataclass
class PlayedGame:
    """A game (or a single hand) as played: its rounds, its result, or why it stopped."""

    rounds: list[RoundSummary] = field(default_factory=list)
    result: GameResult | None = None
    """The game's result (``None`` for a single hand, or a game that stopped)."""
    first_dealer: int = 0
    stopped: str | None = None
    """Why the game stopped early (``P2: no answer within 10 seconds``), else ``None``."""


def _summary(rnd: Round, result: RoundResult) -> RoundSummary:
    return RoundSummary(rnd.dealer, rnd.next_seat(rnd.dealer), str(result.ending), result.ender,
                        result.undercut, result.turns, tuple(result.points), result.winner, rnd.sat_out)


def _run(match: Match, agents: Sequence[Agent], writer: RecordWriter | None, watcher: Watcher | None,
         max_actions: int, played: PlayedGame) -> None:
    """Play ``match`` to its end through the play loop (:func:`rummydsl.engine.play.play`),
    writing and telling every deal, action and result, and telling the agents each round's end.

    :raises AgentError: when an agent fails (the match stays as it was).
    :raises Quit: when the person leaves.
    :raises StalledRoundError: past ``max_actions`` actions.
    :raises ExpressionError, MeldError, StalledGameError: as :func:`~rummydsl.engine.play.play`;
        when the game refused to go on after a round, that round's actions and result are
        written and told first (and counted in ``played``).
    """
    rnd = match.round
    _dealt(rnd, writer, watcher)
    quiet = writer is None and watcher is None
    try:
        for event in play(match, agents, max_actions=max_actions, take_back=writer is None):
            if isinstance(event, TakenBack):
                rnd = match.round  # a person took back: go on from where the match stands now
                continue
            if event.result is None:
                rnd = match.round if quiet else _told(match, rnd, event, writer, watcher)
                continue
            after = _told(match, rnd, event, writer, watcher)
            _round_over(match, after, event.result, agents, writer, watcher, played)
            if not match.over:
                rnd = match.round
                _dealt(rnd, writer, watcher)
    except RummyDslError as failure:
        last = failed_event(failure)
        if last is not None and last.result is not None:  # played and scored, then the game refused to go on
            after = _told(match, rnd, last, writer, watcher)
            _round_over(match, after, last.result, agents, writer, None, played)
        raise


def _dealt(rnd: Round, writer: RecordWriter | None, watcher: Watcher | None) -> None:
    if writer is not None:
        writer.deal(rnd)
    if watcher is not None:
        watcher.deal(rnd)


def _told(match: Match, rnd: Round, event: Event, writer: RecordWriter | None, watcher: Watcher | None) -> Round:
    """Write and tell ``event``'s action and the moves that followed it, played in ``rnd``;
    the round as they left it."""
    if event.result is None:
        after = match.round
    elif rnd.result is not None:
        after = rnd  # played in place (a match that keeps no history)
    else:  # a match with history keeps the round before: play the event on a copy
        after = rnd.copy()
        after.apply(event.action)  # type: ignore[arg-type]
        for forced in event.automatic:
            after.apply(forced)
    if writer is None and watcher is None:
        return after
    moves: list[Action] = [event.action, *event.automatic]  # type: ignore[list-item]
    first = len(after.actions) - len(moves)
    for k, move in enumerate(moves, start=1):
        if writer is not None:
            writer.action(after, move, n=first + k)
        if watcher is not None:
            watcher.action(after, move)
    return after


def _round_over(match: Match, rnd: Round, result: RoundResult, agents: Sequence[Agent], writer: RecordWriter | None,
                watcher: Watcher | None, played: PlayedGame) -> None:
    """What follows a round's end: its result line, the agents told, its summary, the watcher told."""
    if writer is not None:
        writer.result(rnd, result)
    for seat, agent in enumerate(agents):
        told = getattr(agent, "round_over", None)
        if callable(told):
            told(result_json(result, seat))  # as the seat sees it: a void round shows no other hand
    played.rounds.append(_summary(rnd, result))
    if watcher is not None:
        watcher.round_over(rnd, result, _totals_after(match, rnd, result))


def run_game(game: Game | Match, agents: Sequence[Agent], *, writer: RecordWriter | None = None,
             watcher: Watcher | None = None, max_actions: int = MAX_ACTIONS) -> PlayedGame:
    """Play ``game`` to its end (or until an agent fails), recording as it goes.

    ``game``: a :class:`~rummydsl.engine.Game` (played in place) or a
    :class:`~rummydsl.engine.match.Match`.

    An agent's :class:`~rummydsl.errors.AgentError` stops the game cleanly: the
    record gets a ``stopped`` line and :attr:`PlayedGame.stopped` says who and why.
    So does a formula of the variant that fails in play (a division by zero, a score
    or a total past :data:`~rummydsl.limits.MAX_EXPR_INT`): the reason names the
    formula's file place, the formula, the variant and the round (the seat is null).

    :raises Quit: when a person leaves (after a ``stopped`` line).
    :raises StalledRoundError: for a round that never ends.
    """
    match = game if isinstance(game, Match) else Match.playing(game)
    played = PlayedGame(first_dealer=match.game.dealer)
    try:
        _run(match, agents, writer, watcher, max_actions, played)
    except AgentError as failure:
        played.stopped = str(failure)
        if writer is not None:
            writer.stopped(failure.reason, failure.seat)
        return played
    except ExpressionError as failure:
        if played.rounds and len(played.rounds) > len(match.game.results):
            played.rounds.pop()  # the round scored, but its total was refused: it is not counted
        _formula_failed(played, match.variant, failure, match.game.round.number, writer)
        return played
    except MeldError as failure:  # the meld solver's work bound: the play loop said where
        _solver_failed(played, failure, writer)
        return played
    except Quit as leaving:
        if writer is not None:
            writer.stopped(str(leaving) or "the player left")
        raise
    result = match.game.result
    assert result is not None
    played.result = result
    if writer is not None:
        writer.game_result(result)
    if watcher is not None:
        watcher.game_over(result)
    for agent in agents:
        told = getattr(agent, "game_over", None)
        if callable(told):
            told(result.as_json())
    return played


def _totals_after(match: Match, rnd: Round, result: RoundResult) -> tuple[int, ...]:
    """The game totals once ``rnd`` is scored (the next round's start, or the last sheet)."""
    if not match.over:
        return match.round.scores
    return tuple(s + p for s, p in zip(rnd.scores, result.points))


def run_hand(rnd: Round, agents: Sequence[Agent], *, writer: RecordWriter | None = None,
             watcher: Watcher | None = None, max_actions: int = MAX_ACTIONS) -> PlayedGame:
    """Play one round alone (``simulate --hands``), recording as it goes; like :func:`run_game`."""
    played = PlayedGame(first_dealer=rnd.dealer)
    try:
        _run(Match.playing(rnd), agents, writer, watcher, max_actions, played)
    except AgentError as failure:
        played.stopped = str(failure)
        if writer is not None:
            writer.stopped(failure.reason, failure.seat)
        return played
    except ExpressionError as failure:
        _formula_failed(played, rnd.variant, failure, rnd.number, writer)
        return played
    except MeldError as failure:
        _solver_failed(played, failure, writer)
        return played
    return played


def _formula_failed(played: PlayedGame, variant: Variant, failure: ExpressionError, round_number: int,
                    writer: RecordWriter | None) -> None:
    """Stop ``played`` for a formula that failed in play: the reason, and the record's ``stopped`` line."""
    from .variant.locate import describe_play_failure

    played.stopped = describe_play_failure(variant, failure, round_number)
    if writer is not None:
        writer.stopped(played.stopped)


def _solver_failed(played: PlayedGame, failure: MeldError, writer: RecordWriter | None) -> None:
    """Stop ``played`` for the meld solver's work bound (:data:`~rummydsl.limits.MAX_MELD_WORK`):
    the reason (the pattern's file place, the variant, round and seat, from the play loop)
    and the record's ``stopped`` line, so the game so far is kept as for a formula."""
    played.stopped = str(failure)
    if writer is not None:
        writer.stopped(played.stopped)


def close_agents(agents: Sequence[Agent]) -> None:
    """Stop every program an agent started (agents without ``close`` are left alone)."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


# -- replay ----------------------------------------------------------------------------


@dataclass
class ReplaySummary:
    """What a replay checked."""

    variant: str
    mode: str = "games"
    """``games``, or ``hands`` for a record of single hands."""
    games: int = 0
    rounds: int = 0
    actions: int = 0
    stopped: int = 0
    """Games that stopped early (an agent failed, a person left): checked up to there."""
    warnings: list[str] = field(default_factory=list)
    """Things reported but not fatal: a changed variant file."""
    first_stop: str = ""
    """Where and why the first game that stopped early stopped (``game 1: P2: ...``)."""

    def line(self) -> str:
        """The one-line summary ``replay`` prints: what was replayed, and, for games that
        stopped early, that only their part before the stop was checked, and why the first stopped.

        >>> ReplaySummary("gin_rummy", games=2, rounds=5, actions=90).line()
        'gin_rummy: 2 games, 5 rounds, 90 actions replayed; every result matches'
        >>> ReplaySummary("gin_rummy", games=1, actions=9, stopped=1, first_stop="game 1: P2: gone").line()
        'gin_rummy: 1 game, 0 rounds, 9 actions replayed; every result so far matches, but 1 stopped early (game 1: P2: gone)'
        """
        unit = "hand" if self.mode == "hands" else "game"
        games = f"{self.games} {unit}{'s' if self.games != 1 else ''}"
        text = (f"{self.variant}: {games}, {self.rounds} round{'s' if self.rounds != 1 else ''}, "
                f"{self.actions} actions replayed; every result")
        if not self.stopped:
            return text + " matches"
        every = "all of them" if self.stopped == self.games and self.games > 1 else str(self.stopped)
        return text + f" so far matches, but {every} stopped early ({self.first_stop})"


@dataclass(frozen=True)
class LineFile:
    """How a JSON-lines file read by :func:`bounded_lines` is named in its errors."""

    reading: str
    """``cannot read the record``"""
    name: str
    """``the record``"""
    one: str
    """``a record``"""
    line: str
    """``a record line``"""


RECORD_FILE = LineFile("cannot read the record", "the record", "a record", "a record line")


def bounded_lines(path: str, named: LineFile = RECORD_FILE) -> Iterator[tuple[int, bytes]]:
    """The lines of the JSON-lines file ``path`` (a record, a run file) with their numbers,
    each with its newline (but a last line cut short), read within the record limits: a file
    over :data:`~rummydsl.limits.MAX_RECORD_BYTES` (by its size, or by what a device yields)
    and a line over :data:`~rummydsl.limits.MAX_RECORD_LINE_BYTES` are refused before they
    are read whole, so no such file holds more than one bounded line in memory at a time.

    :raises RecordError: naming the file, and the line for a long line.
    """
    max_bytes, max_line = limits.MAX_RECORD_BYTES, limits.MAX_RECORD_LINE_BYTES
    try:
        handle = open_regular(path)  # never a FIFO, device, folder or /proc entry
        size = os.fstat(handle.fileno()).st_size
    except (OSError, ValueError) as problem:
        raise RecordError(f"{named.reading}: {getattr(problem, 'strerror', None) or problem}",
                          Location(path)) from None
    with handle:
        if size > max_bytes:
            raise RecordError(f"{named.name} is too large: {size:,} bytes, and {named.one} may be at most "
                              f"{max_bytes:,} bytes", Location(path))
        number = total = 0
        while True:
            try:
                raw = handle.readline(max_line + 2)  # the longest line, its "\r\n", and one byte more
            except OSError as problem:
                raise RecordError(f"{named.reading}: {problem.strerror or problem}",
                                  Location(path, number + 1)) from None
            if not raw:
                return
            number += 1
            total += len(raw)
            if len(raw.rstrip(b"\r\n")) > max_line:
                raise RecordError(f"the line is too long: more than {max_line:,} bytes, and {named.line} "
                                  f"may be at most {max_line:,}", Location(path, number))
            if total > max_bytes:  # a device or a growing file: its size said less
                raise RecordError(f"{named.name} is too large: more than {max_bytes:,} bytes, and {named.one} "
                                  f"may be at most {max_bytes:,} bytes", Location(path, number))
            yield number, raw


def _read_lines(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The record's objects with their line numbers, read one line at a time
    (:func:`bounded_lines`)."""
    for number, raw in bounded_lines(path):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as problem:
            raise RecordError(f"not UTF-8 text: byte 0x{raw[problem.start]:02x} at column "
                              f"{problem.start + 1}", Location(path, number, problem.start + 1)) from None
        if not text.strip():
            continue
        try:
            data = jsonbound.loads(text)
        except jsonbound.JSONLimitError as problem:
            raise RecordError(f"not a record line: {problem.msg}",
                              Location(path, number, problem.colno)) from None
        except json.JSONDecodeError as problem:
            if not text.endswith("\n"):  # the last line, without its end: the writer was stopped
                raise RecordError(f"the last line is cut short (the record was truncated, e.g. its "
                                  f"writer was killed); it is whole up to line {number - 1}",
                                  Location(path, number)) from None
            raise RecordError(f"not a JSON line: {problem.msg} (column {problem.colno})",
                              Location(path, number)) from None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise RecordError(f"a record line is an object with a \"type\", got {text.strip()[:60]!r}",
                              Location(path, number))
        yield number, data


def _seat(text: Any, players: int, what: str) -> int:
    if isinstance(text, str) and text[:1] in "Pp" and text[1:].isdigit() and 1 <= int(text[1:]) <= players:
        return int(text[1:]) - 1
    raise RecordError(f"{what}: expected a player P1 to P{players}, got {text!r}")


def _by_seat(mapping: Any, players: int, what: str) -> list[Any]:
    if not isinstance(mapping, dict) or len(mapping) != players:
        raise RecordError(f"{what}: expected one entry for each of {players} players, got {mapping!r:.80}")
    out: list[Any] = [None] * players
    for key, value in mapping.items():
        out[_seat(key, players, what)] = value
    return out


def _check_deal_cards(deck: Deck, places: Sequence[tuple[str, Sequence[str]]]) -> None:
    """A deal places every card of the deck exactly once (each copy of a face, with several packs).

    :raises CardError: for text that is not a card of the deck.
    :raises RecordError: naming a card placed too often (and where) or a card missing.
    """
    where: dict[int, list[str]] = {}
    faces: dict[int, str] = {}
    for name, texts in places:
        for text in texts:
            card = deck.parse_card(text)
            key = deck.face_key(card)
            faces[key] = str(card)
            where.setdefault(key, []).append(name)
    for key, names in where.items():
        copies = deck.wilds if key == deck.natural_faces else deck.packs
        if len(names) > copies:
            times = "twice" if len(names) == 2 else f"{len(names)} times"
            kept = f" (the deck has {copies})" if copies > 1 else ""
            raise RecordError(f"card {faces[key]!r} is dealt {times}{kept}: in "
                              f"{', '.join(names[:-1])} and in {names[-1]}")
    placed = sum(len(names) for names in where.values())
    if placed != len(deck.cards):
        counted: dict[int, int] = {}
        for card in deck.cards:
            key = deck.face_key(card)
            counted[key] = counted.get(key, 0) + 1
            if counted[key] > len(where.get(key, ())):
                raise RecordError(f"card {str(card)!r} is missing from the deal (the deck has "
                                  f"{len(deck.cards)} cards, the deal places {placed})")


def _rebuild_deal(variant: Variant, data: dict[str, Any], players: int) -> Round:
    """The round of a ``deal`` line (checked: known cards, each once)."""
    from .engine import Round

    deck = variant.deck
    hands_text = _by_seat(data.get("hands"), players, "hands")
    stock_text = data.get("stock")
    upcard_text = data.get("upcard")
    if not isinstance(stock_text, list) or not all(isinstance(c, str) for c in stock_text):
        raise RecordError(f"stock: expected a list of cards, got {stock_text!r:.80}")
    for seat, hand in enumerate(hands_text):
        if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
            raise RecordError(f"hands: P{seat + 1}: expected a list of cards, got {hand!r:.80}")
    if upcard_text is not None and not isinstance(upcard_text, str):
        raise RecordError(f"upcard: expected a card or null, got {upcard_text!r}")
    places = [(f"P{seat + 1}'s hand", hand) for seat, hand in enumerate(hands_text)]
    places += [("the stock", stock_text), ("the upcard", [upcard_text] if upcard_text else [])]
    _check_deal_cards(deck, places)
    every = [c for hand in hands_text for c in hand] + list(stock_text) + ([upcard_text] if upcard_text else [])
    cards = deck.parse_cards(every)
    hands = []
    at = 0
    for hand in hands_text:
        hands.append(cards[at:at + len(hand)])
        at += len(hand)
    stock = cards[at:at + len(stock_text)]
    upcard = cards[-1] if upcard_text else None
    dealer = _seat(data.get("dealer"), players, "dealer")
    scores = _by_seat(data.get("scores", {f"P{p + 1}": 0 for p in range(players)}), players, "scores")
    for seat, score in enumerate(scores):
        if not isinstance(score, int) or isinstance(score, bool):
            raise RecordError(f"scores: P{seat + 1}: expected a whole number, got {score!r:.80}")
    number = data.get("round", 1)
    if not isinstance(number, int) or number < 1:
        raise RecordError(f"round: expected a round number, got {number!r}")
    sat_out = None if data.get("sat_out") is None else _seat(data.get("sat_out"), players, "sat_out")
    return Round.from_setup(variant, dealer=dealer, hands=hands, stock=stock, upcard=upcard,
                            scores=scores, number=number, sat_out=sat_out)


def _differences(recorded: dict[str, Any], played: dict[str, Any]) -> list[str]:
    out = []
    for key, value in played.items():
        if key in recorded and recorded[key] != value:
            out.append(f"{key}: the record says {recorded[key]!r}, the engine gives {value!r}")
    return out


def _is_sha256(value: Any) -> bool:
    """Whether ``value`` is written as a sha256 digest is (64 lowercase hex digits).

    >>> _is_sha256("ab" * 32), _is_sha256("abc"), _is_sha256("AB" * 32)
    (True, False, False)
    """
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _load_recorded_variant(header: dict[str, Any], path: str, summary: ReplaySummary,
                           given: str | None = None) -> Variant:
    """The variant to replay the record with: ``given`` (``replay --variant PATH``, a
    file or id the user chose), else the shipped variant of the header's id.

    The header's ``variant_path`` is a note for people and is never opened: a record
    is a stranger's file, and the path it names could be any file
    (docs/security.md). The header's content digest must then match the variant
    loaded: if it does not, this is not the variant the record was made with.
    """
    from .variant import load_variant, shipped_variant_ids

    recorded_path = header.get("variant_path")
    variant_id = header.get("variant")
    for key in ("variant_sha256", "file_sha256"):
        value = header.get(key)
        if value is not None and not _is_sha256(value):
            raise RecordError(f"{key}: expected a sha256 (64 hex digits) or null, got {value!r:.80}",
                              Location(path, 1))
    made_with = (f" (it was made with the file {recorded_path!r:.200})"
                 if isinstance(recorded_path, str) and recorded_path else "")
    if given is not None:
        variant = load_variant(given)
    elif isinstance(variant_id, str) and variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
    elif isinstance(variant_id, str):
        raise RecordError(f"the record's variant {variant_id!r:.80} is not a shipped variant{made_with}; "
                          "replay never opens a file a record names: give the variant file with "
                          "--variant PATH", Location(path, 1))
    else:
        raise RecordError("the header names no variant", Location(path, 1))
    digests = variant_digests(variant)
    recorded = header.get("variant_sha256")
    if recorded and recorded != digests["variant_sha256"]:
        how = (f"the file {given!r}" if given is not None and not given == variant.id
               else f"the shipped {variant.id!r}")
        hint = ("" if given is not None
                else "; give the variant file it was made with: --variant PATH")
        raise RecordError(f"the record was not made with {how}{made_with if given is None else ''}: "
                          f"its variant sha256 is {str(recorded)[:12]}..., and the variant loaded has "
                          f"{str(digests['variant_sha256'])[:12]}... (its rules differ){hint}",
                          Location(path, 1))
    if isinstance(variant_id, str) and variant_id != variant.id and not recorded:
        raise RecordError(f"the record is of variant {variant_id!r:.80}, and --variant gives {variant.id!r}",
                          Location(path, 1))
    if header.get("file_sha256") and header["file_sha256"] != digests["file_sha256"] and given is not None:
        summary.warnings.append(f"the file {variant.path} has changed since the record was made "
                                f"(its rules have not); replaying anyway")
    elif not recorded and given is None and made_with and shown_variant_path(variant) != recorded_path:
        summary.warnings.append(f"the record names the file {recorded_path!r:.200}, which replay does not "
                                f"open; replaying with the shipped {variant.id!r} (give the file with "
                                "--variant PATH to use it)")
    return variant


def shown_variant_path(variant: Variant) -> str:
    """The ``variant_path`` a header of ``variant`` carries (the resolved file)."""
    return str(Path(variant.path).resolve())


class _Replayer:
    """Walks a record line by line, keeping the game and round it is in."""

    def __init__(self, path: str, on_warning: Callable[[str], None] | None = None,
                 variant: str | None = None) -> None:
        self.path = path
        self.on_warning = on_warning
        self.given = variant
        self.summary = ReplaySummary(variant="?")
        self.variant: Variant | None = None
        self.players = 2
        self.mode = "games"
        self.game: Game | None = None
        self.round: Round | None = None
        self.round_open = False
        self.game_open = False
        self.actions_in_round = 0
        self.refused = ""
        """Why the engine refused to go on after a round (a total past its limit): the
        record must stop there, with a 'stopped' line next."""

    def fail(self, message: str, line: int) -> RecordError:
        return RecordError(message, Location(self.path, line))

    def run(self) -> ReplaySummary:
        lines = _read_lines(self.path)
        first = next(lines, None)
        if first is None:
            raise self.fail("the record is empty", 0)
        number, header = first
        if header["type"] != "header":
            raise self.fail(f"the first line must be the header, got a {header['type']!r} line", number)
        if header.get("record") != RECORD_VERSION:
            raise self.fail(f"record format {header.get('record')!r} is not {RECORD_VERSION}", number)
        self.variant = _load_recorded_variant(header, self.path, self.summary, self.given)
        if self.on_warning is not None:
            for warning in self.summary.warnings:
                self.on_warning(warning)
        self.summary.variant = self.variant.id
        players = header.get("players", self.variant.players)
        if not isinstance(players, int) or players < 1:
            raise self.fail(f"players: expected a number, got {players!r}", number)
        self.players = players
        self.mode = "hands" if header.get("mode") == "hands" else "games"
        self.summary.mode = self.mode
        for number, data in lines:
            try:
                self.step(number, data)
            except RecordError as problem:
                if problem.location is not None:
                    raise
                raise self.fail(problem.message, number) from None
            except RummyDslError as problem:
                raise self.fail(f"{self.where()}: {problem}", number) from None
        if self.round_open:
            raise self.fail(f"the record ends in the middle of round {self._round_number()}, "
                            "with no result and no 'stopped' line", 0)
        if self.game_open and self.mode == "games":
            raise self.fail(f"the record ends before game {self.summary.games}'s result", 0)
        if self.refused:
            raise self.fail(f"{self.refused}, but the record ends with no 'stopped' line", 0)
        if not self.summary.games:
            unit = "hand" if self.mode == "hands" else "game"
            raise self.fail(f"no {unit} in the record: it holds only its header, so there is nothing to replay",
                            0)
        return self.summary

    def _round_number(self) -> int:
        return self.round.number if self.round is not None else 0

    def where(self) -> str:
        return f"game {self.summary.games}, round {self._round_number()}"

    def step(self, number: int, data: dict[str, Any]) -> None:
        kind = data["type"]
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            raise self.fail(f"unknown line type {kind!r}", number)
        if self.refused and kind != "stopped":
            raise self.fail(f"{self.refused}, but the record goes on with a {kind!r} line", number)
        handler(number, data)

    def on_header(self, number: int, data: dict[str, Any]) -> None:
        raise self.fail("a second header inside the record", number)

    def on_game(self, number: int, data: dict[str, Any]) -> None:
        if self.round_open or (self.game_open and self.mode == "games"):
            raise self.fail(f"game {self.summary.games} has not ended before the next game starts", number)
        self.summary.games += 1
        self.game_open = True
        self.game = None

    def on_deal(self, number: int, data: dict[str, Any]) -> None:
        from .engine import Game

        assert self.variant is not None
        if not self.game_open:
            raise self.fail("a deal before any 'game' line", number)
        if self.round_open:
            raise self.fail(f"round {self._round_number()} has no result before the next deal", number)
        try:
            rnd = _rebuild_deal(self.variant, data, self.players)
        except RummyDslError as problem:
            message = problem.message if isinstance(problem, RecordError) else str(problem)
            raise self.fail(f"round {data.get('round')!r} deal: {message}", number) from None
        if self.mode == "games":
            if self.game is None:
                self.game = Game(self.variant, random.Random(0), players=self.players, dealer=rnd.dealer)
            game = self.game
            if game.over:
                raise self.fail("a deal after the game's end", number)
            expected = (game.round.number, game.round.dealer, game.round.scores)
            got = (rnd.number, rnd.dealer, rnd.scores)
            if game.round.sat_out != rnd.sat_out:  # G3-1, G3-2: who sits out follows the rules too
                def who(seat: int | None) -> str:
                    return "nobody" if seat is None else f"P{seat + 1}"
                raise self.fail(f"round {rnd.number}: the deal says {who(rnd.sat_out)} sits out; the engine "
                                f"expects {who(game.round.sat_out)}", number)
            if expected != got:
                raise self.fail(f"round {rnd.number}: the deal says round {rnd.number}, dealer P{rnd.dealer + 1}, "
                                f"scores {list(rnd.scores)}; the engine expects round {expected[0]}, "
                                f"dealer P{expected[1] + 1}, scores {list(expected[2])}", number)
            game.round = rnd
        self.round = rnd
        self.round_open = True
        self.actions_in_round = 0

    def on_action(self, number: int, data: dict[str, Any]) -> None:
        rnd = self.round
        if rnd is None or not self.round_open:
            raise self.fail("an action outside a round", number)
        self.actions_in_round += 1
        text = data.get("action")
        label = f"round {rnd.number}, action {self.actions_in_round} {text!r}"
        if not isinstance(text, str):
            raise self.fail(f"{label}: an action is a string", number)
        try:
            rnd.apply(text)
        except RummyDslError as problem:
            reason = getattr(problem, "reason", None) or str(problem)
            raise self.fail(f"{label}: {reason}", number) from None
        self.summary.actions += 1

    def on_result(self, number: int, data: dict[str, Any]) -> None:
        rnd = self.round
        if rnd is None or not self.round_open:
            raise self.fail("a result outside a round", number)
        if rnd.result is None:
            who = "nobody" if rnd.to_move is None else f"P{rnd.to_move + 1}"
            raise self.fail(f"round {rnd.number}: the record gives its result after {self.actions_in_round} "
                            f"actions, but the round is not over ({who} to move, phase {rnd.phase.value})",
                            number)
        wrong = _differences(data, rnd.result.as_json())
        if wrong:
            raise self.fail(f"round {rnd.number} result: " + "; ".join(wrong), number)
        self.round_open = False
        self.summary.rounds += 1
        if self.mode == "games":
            assert self.game is not None
            try:
                self.game.next_round()
            except ExpressionError as problem:  # as in play: the game stops after this round
                self.refused = f"{self.where()}: the engine stops the game after this result: {problem}"
        else:
            self.game_open = False

    def on_game_result(self, number: int, data: dict[str, Any]) -> None:
        game = self.game
        if self.mode != "games" or game is None or self.round_open:
            raise self.fail("a game result outside a finished game", number)
        if game.result is None:
            raise self.fail(f"game {self.summary.games}: the record gives its result, but the engine's game "
                            f"is not over (scores {list(game.scores)})", number)
        wrong = _differences(data, game.result.as_json())
        if wrong:
            raise self.fail(f"game {self.summary.games} result: " + "; ".join(wrong), number)
        self.game_open = False

    def on_stopped(self, number: int, data: dict[str, Any]) -> None:
        if not self.game_open:
            raise self.fail("a 'stopped' line outside a game", number)
        self.summary.stopped += 1
        if not self.summary.first_stop:
            unit = "hand" if self.mode == "hands" else "game"
            seat = data.get("seat")
            said = (f"{seat}: " if isinstance(seat, str) else "") + str(data.get("reason"))
            self.summary.first_stop = f"{unit} {self.summary.games}: {_shown(said)}"
        self.refused = ""
        self.round_open = False
        self.game_open = False


def _shown(text: str, limit: int = 400) -> str:
    """A record's text as a terminal may show it, on one line (:func:`~rummydsl.safetext.safe_text`),
    cut at ``limit`` characters.

    >>> _shown("P2: \\x1b]0;owned\\x07 gone")
    'P2: \\\\x1b]0;owned\\\\x07 gone'
    """
    shown = safe_text(text, lines=False)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def replay_record(path: str, on_warning: Callable[[str], None] | None = None,
                  variant: str | None = None) -> ReplaySummary:
    """Play a record back through the engine from its recorded deals; check every result.

    :raises RecordError: at the first line that does not replay, naming the file,
        the line, the round and the action (``game.jsonl:41: round 3, action 17
        'P2 knock 7H': ...``).
    :raises VariantError: if the record's variant cannot be loaded.

    ``on_warning`` hears what is reported but not fatal (a changed variant file) as
    soon as it is found, so it is heard also when the replay then fails.

    ``variant`` (a shipped id or a file) is the variant to replay with; without it,
    the shipped variant of the header's id. The header's ``variant_path`` is never
    opened, and its content digest must match the variant used.
    """
    return _Replayer(path, on_warning, variant).run()
