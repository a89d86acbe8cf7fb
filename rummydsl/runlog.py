"""The out-file of a long simulation (``simulate --out``), and reading it back (``--resume``).

A run's out-file is JSON lines: a header naming the run, then one line per finished
game (or hand) in game order, written and flushed as each completes::

    {"type": "run", "run": 1, "rummydsl": "0.1.0", "variant": "gin_rummy", "variant_sha256": "...",
     "seed": 1, "mode": "games", "count": 1000, "players": 2, "agents": ["greedy", "greedy"], ...}
    {"type": "outcome", "game": 1, "seed": 123, "first_dealer": "P2", "stopped": null,
     "rounds": [{"dealer": "P2", "first": "P1", "ending": "knock", ...}], "result": {...}}
    ...

An outcome line holds what :meth:`rummydsl.simulate.Statistics.add` reads (the
game's :class:`~rummydsl.record.PlayedGame`, not its record), so a resumed run sums
exactly the figures of an uninterrupted one. :func:`read_run` checks every line:
the last line cut short by a kill is dropped (its game is played again); anything
else wrong is a :class:`~rummydsl.errors.RecordError` naming the file and the line.

>>> from rummydsl.simulate import GameTask, play_task
>>> from rummydsl.variant import find_variant_path
>>> outcome = play_task(GameTask(find_variant_path("gin_rummy"), 0, 7, "greedy"))
>>> again = outcome_from_json(json.loads(json.dumps(outcome_json(outcome))), 2)
>>> again.played == outcome.played and (again.index, again.seed) == (0, 7)
True
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Sequence, TypeVar

from . import jsonbound, limits
from .engine.actions import player_name
from .errors import Location, RecordError
from .record import LineFile, PlayedGame, RoundSummary, bounded_lines
from .save import Fields

__all__ = ["RUN_VERSION", "RunHeader", "RunLog", "RunWriter", "header_for", "outcome_json",
           "outcome_from_json", "parse_line", "read_run", "read_run_lines", "RunLines"]

#: The version of the out-file format, in each header.
RUN_VERSION = 1
_FSYNC_EVERY = 1.0
"""Seconds between two ``os.fsync`` of the out-file (each line is flushed at once)."""

if TYPE_CHECKING:
    from .simulate import GameOutcome


@dataclass(frozen=True)
class RunHeader:
    """What names a run: a resumed run must be the same run (same rules, seed, agents, games)."""

    variant: str
    variant_sha256: str
    """The digest of the variant's merged rules (:func:`rummydsl.record.variant_digests`)."""
    seed: int
    mode: str
    """``games`` or ``hands``."""
    count: int
    """How many games (or hands) the run plays."""
    players: int
    agents: tuple[str, ...]
    """One agent a seat."""

    def as_json(self, variant_path: str = "") -> dict[str, Any]:
        """The header line (with the package version and the variant's file, for people)."""
        from . import __version__

        return {"type": "run", "run": RUN_VERSION, "rummydsl": __version__, "variant": self.variant,
                "variant_path": variant_path, "variant_sha256": self.variant_sha256, "seed": self.seed,
                "mode": self.mode, "count": self.count, "players": self.players, "agents": list(self.agents)}

    def differences(self, other: RunHeader) -> list[str]:
        """How ``other`` (the command's run) differs from this one (the file's), in words.

        >>> a = RunHeader("gin_rummy", "ab", 1, "games", 10, 2, ("greedy", "greedy"))
        >>> for line in a.differences(RunHeader("gin_rummy", "ab", 2, "games", 10, 2, ("random", "greedy"))):
        ...     print(line)
        seed: the file has 1, the command 2
        agents: the file has ['greedy', 'greedy'], the command ['random', 'greedy']
        """
        out = []
        for name in ("variant", "variant_sha256", "seed", "mode", "count", "players", "agents"):
            mine, theirs = getattr(self, name), getattr(other, name)
            if mine != theirs:
                if name == "variant_sha256":
                    out.append(f"the rules of {self.variant!r} have changed since the run began "
                               f"(variant sha256 {mine[:12]}..., now {theirs[:12]}...)")
                    continue
                if isinstance(mine, tuple):
                    mine, theirs = list(mine), list(theirs)
                out.append(f"{name}: the file has {mine!r}, the command {theirs!r}")
        return out


def outcome_json(outcome: GameOutcome) -> dict[str, Any]:
    """One outcome line: the game's number and seed, its rounds, its result or why it stopped."""
    played = outcome.played
    result = played.result
    return {
        "type": "outcome",
        "game": outcome.index + 1,
        "seed": outcome.seed,
        "first_dealer": player_name(played.first_dealer),
        "stopped": played.stopped,
        "rounds": [{"dealer": player_name(r.dealer), "first": player_name(r.first), "ending": r.ending,
                    "ender": None if r.ender is None else player_name(r.ender), "undercut": r.undercut,
                    "turns": r.turns, "points": list(r.points),
                    "winner": None if r.winner is None else player_name(r.winner),
                    **({} if r.sat_out is None else {"sat_out": player_name(r.sat_out)})}
                   for r in played.rounds],
        "result": None if result is None else {
            "winner": player_name(result.winner), "figures": list(result.figures),
            "points": list(result.points), "rounds": result.rounds, "games_won": list(result.games_won),
            "shutout": result.shutout},
    }


def outcome_from_json(data: dict[str, Any], players: int) -> GameOutcome:
    """The outcome of an outcome line (checked field by field).

    :raises RecordError: naming the field and the bad value (without a place: the caller adds it).
    """
    from .engine import GameResult
    from .simulate import GameOutcome

    read = Fields(players)
    game = read.get(data, "game", int)
    seed = read.get(data, "seed", int)
    first_dealer = read.player(data.get("first_dealer"), "first_dealer")
    stopped = read.get(data, "stopped", (str, type(None)))
    rounds = []
    for number, item in enumerate(read.get(data, "rounds", list), start=1):
        where = f"rounds[{number}]."
        if not isinstance(item, dict):
            raise RecordError(f"rounds[{number}]: expected an object, got {item!r:.60}")
        ender, winner, sat_out = item.get("ender"), item.get("winner"), item.get("sat_out")
        rounds.append(RoundSummary(
            dealer=read.player(item.get("dealer"), where + "dealer"),
            first=read.player(item.get("first"), where + "first"),
            ending=read.get(item, "ending", str, where),
            ender=None if ender is None else read.player(ender, where + "ender"),
            undercut=read.get(item, "undercut", bool, where), turns=read.get(item, "turns", int, where),
            points=tuple(read.numbers(item, "points", where)),
            winner=None if winner is None else read.player(winner, where + "winner"),
            sat_out=None if sat_out is None else read.player(sat_out, where + "sat_out")))
    raw = data.get("result")
    result = None
    if raw is not None:
        if not isinstance(raw, dict):
            raise RecordError(f"result: expected an object or null, got {raw!r:.60}")
        result = GameResult(winner=read.player(raw.get("winner"), "result.winner"),
                            figures=tuple(read.numbers(raw, "figures", "result.")),
                            points=tuple(read.numbers(raw, "points", "result.")),
                            rounds=read.get(raw, "rounds", int, "result."),
                            games_won=tuple(read.numbers(raw, "games_won", "result.")),
                            shutout=read.get(raw, "shutout", bool, "result."))
    played = PlayedGame(rounds=rounds, result=result, first_dealer=first_dealer, stopped=stopped)
    return GameOutcome(game - 1, seed, played)


@dataclass
class RunLog:
    """An out-file as read: its header, the outcomes of the games done, where to append."""

    header: RunHeader
    outcomes: list[GameOutcome] = field(default_factory=list)
    end: int = 0
    """The byte offset just past the last complete line (a cut-short line after it is dropped)."""
    dropped: bool = False
    """Whether a last line cut short (by a kill) was found and will be written again."""


def _header_from_json(data: dict[str, Any]) -> RunHeader:
    read = Fields(0)
    version = data.get("run")
    if version != RUN_VERSION:
        raise RecordError(f"run format {version!r} is not {RUN_VERSION} (made by another rummydsl?)")
    players = read.get(data, "players", int)
    agents = read.get(data, "agents", list)
    if players < 1 or len(agents) != players or not all(isinstance(a, str) for a in agents):
        raise RecordError(f"agents: expected one agent name for each of {players} players, got {agents!r:.80}")
    mode = read.get(data, "mode", str)
    if mode not in ("games", "hands"):
        raise RecordError(f"mode: expected 'games' or 'hands', got {mode!r}")
    return RunHeader(read.get(data, "variant", str), read.get(data, "variant_sha256", str),
                     read.get(data, "seed", int), mode, read.get(data, "count", int), players, tuple(agents))


def read_run(path: str) -> RunLog:
    """Read an out-file: the header, and every complete outcome line in game order.

    A last line without its newline is a line cut short by a kill: it is dropped
    (:attr:`RunLog.dropped`), and its game is played again.

    :raises RecordError: for a file that cannot be read, a missing or wrong header,
        a line that is not JSON or not an outcome, or a game out of order, naming the
        file and the line.
    """
    lines = read_run_lines(path, "run", "a run header")
    try:
        header = _header_from_json(lines.header)
    except RecordError as problem:
        raise RecordError(f"header: {problem.message}", Location(path, 1)) from None
    log = RunLog(header, end=lines.header_end, dropped=lines.dropped)
    for number, data, end in lines.outcomes:
        try:
            outcome = outcome_from_json(data, header.players)
        except RecordError as problem:
            raise RecordError(problem.message, Location(path, number)) from None
        expected = len(log.outcomes)
        unit = "hand" if header.mode == "hands" else "game"
        if outcome.index != expected:
            raise RecordError(f"expected {unit} {expected + 1} here, got {unit} {outcome.index + 1}",
                              Location(path, number))
        if expected >= header.count:
            raise RecordError(f"a {unit} past the run's {header.count}", Location(path, number))
        log.outcomes.append(outcome)
        log.end = end
    return log


@dataclass
class RunLines:
    """A run file's lines as JSON objects: the header, then each complete outcome line."""

    header: dict[str, Any]
    header_end: int
    """The byte offset just past the header line."""
    outcomes: list[tuple[int, dict[str, Any], int]]
    """Each outcome line: its line number, its object, the byte offset just past it."""
    dropped: bool
    """Whether a last line cut short (by a kill) was left out."""


def read_run_lines(path: str, kind: str, described: str) -> RunLines:
    """Read the run file ``path``, whose header has type ``kind`` (``described`` in
    messages), for :func:`read_run` and the lab's run files alike.

    A last line without its newline is a line cut short by a kill: it is left out.
    The file is read a line at a time within the record limits
    (:data:`~rummydsl.limits.MAX_RECORD_BYTES`, :data:`~rummydsl.limits.MAX_RECORD_LINE_BYTES`),
    and each line within the JSON limits (:mod:`rummydsl.jsonbound`).

    :raises RecordError: for a file that cannot be read or is too large, an empty file,
        a header of another type, a line too long, a line that is not a JSON object
        (or past the JSON limits) or not an outcome, naming the file and the line.
    """
    header: dict[str, Any] | None = None
    header_end = end = 0
    outcomes: list[tuple[int, dict[str, Any], int]] = []
    for number, raw in bounded_lines(path, RUN_FILE):
        if not raw.endswith(b"\n"):  # after the last newline: a line cut short
            if header is None:
                raise RecordError("the run ends inside its header line (cut short); start it again with --out",
                                  Location(path))
            return RunLines(header, header_end, outcomes, True)
        text = raw[:-1]
        data = parse_line(text, path, number)
        end += len(raw)
        if header is None:
            if data.get("type") != kind:
                raise RecordError(f"the first line must be {described} (type {kind!r}, as --out writes it), "
                                  f"got type {str(data.get('type'))!r:.40}", Location(path, 1))
            header, header_end = data, end
            continue
        if data.get("type") != "outcome":
            raise RecordError(f"expected an outcome line, got type {str(data.get('type'))!r:.40}",
                              Location(path, number))
        outcomes.append((number, data, end))
    if header is None:
        raise RecordError("the run is empty; start it again with --out", Location(path))
    return RunLines(header, header_end, outcomes, False)


RUN_FILE = LineFile("cannot read the run to resume", "the run", "a run file", "a line of a run file")


def parse_line(text: bytes, path: str, number: int) -> dict[str, Any]:
    """One line of a run file as a JSON object; anything else is a RecordError naming the line."""
    try:
        data = jsonbound.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError("not a JSON line: not UTF-8 text", Location(path, number)) from None
    except jsonbound.JSONLimitError as problem:
        raise RecordError(f"not a run line: {problem.msg}", Location(path, number, problem.colno)) from None
    except json.JSONDecodeError as problem:
        raise RecordError(f"not a JSON line: {problem.msg} (column {problem.colno})",
                          Location(path, number)) from None
    if not isinstance(data, dict):
        raise RecordError(f"a line of a run is a JSON object, got {text.decode()[:60]!r}", Location(path, number))
    return data


_Writer = TypeVar("_Writer", bound="RunWriter")


class RunWriter:
    """Writes an out-file: each outcome a line, flushed at once, fsync'd about once a second."""

    def __init__(self, stream: IO[bytes], path: str) -> None:
        self.stream = stream
        self.path = path
        self._synced = time.monotonic()

    @classmethod
    def create(cls, path: str, header: RunHeader, variant_path: str = "") -> RunWriter:
        """A new out-file with its header line written and synced.

        :raises RecordError: if the file cannot be written, or already holds something
            (a run to resume, perhaps: nothing of a long run is overwritten).
        """
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        if size:
            raise RecordError("the file is not empty (a run to go on with --resume?); remove it to start "
                              "the run again", Location(path))
        writer = cls(_open(path, "wb"), path)
        writer._line(header.as_json(variant_path))
        writer.sync()
        return writer

    @classmethod
    def append(cls, path: str, log: RunLog) -> RunWriter:
        """Go on writing the out-file ``log`` was read from, after its last complete line
        (a line cut short is cut off first).

        :raises RecordError: if the file cannot be written.
        """
        return cls.reopen(path, log.end)

    @classmethod
    def reopen(cls: type[_Writer], path: str, end: int) -> _Writer:
        """A writer going on in the out-file at ``path`` after byte ``end`` (cut there first);
        an instance of ``cls`` (the lab's writer reopens its files the same way).

        :raises RecordError: if the file cannot be written.
        """
        stream = _open(path, "r+b")
        try:
            stream.truncate(end)
            stream.seek(end)
        except OSError as problem:
            stream.close()
            raise RecordError(f"cannot write the run: {problem.strerror or problem}", Location(path)) from None
        return cls(stream, path)

    def _line(self, data: dict[str, Any]) -> None:
        self.stream.write(json.dumps(data, separators=(",", ":")).encode("utf-8") + b"\n")
        self.stream.flush()

    def write(self, outcome: GameOutcome) -> None:
        """Write one finished game (in game order), flushed; synced to disk about once a second."""
        self._line(outcome_json(outcome))
        if time.monotonic() - self._synced >= _FSYNC_EVERY:
            self.sync()

    def sync(self) -> None:
        """Flush and ``os.fsync`` the file (what is written survives a machine restart)."""
        self.stream.flush()
        os.fsync(self.stream.fileno())
        self._synced = time.monotonic()

    def close(self) -> None:
        """Sync and close the file."""
        if not self.stream.closed:
            self.sync()
            self.stream.close()


def _open(path: str, mode: str) -> IO[bytes]:
    try:
        return open(path, mode)
    except OSError as problem:
        raise RecordError(f"cannot write the run: {problem.strerror or problem}", Location(path)) from None


def header_for(variant: Any, *, seed: int, mode: str, count: int, agents: Sequence[str]) -> RunHeader:
    """The header of a run of ``variant`` (a loaded :class:`~rummydsl.variant.model.Variant`)."""
    from .record import variant_digests

    digest = variant_digests(variant)["variant_sha256"] or ""
    return RunHeader(variant.id, digest, seed, mode, count, variant.players, tuple(agents))
