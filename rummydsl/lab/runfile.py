"""The out-file of a long ``compare`` or ``sweep`` (``--out``), and reading it back (``--resume``).

JSON lines, as ``simulate --out`` writes them (:mod:`rummydsl.runlog`): a header
naming the run, then one line per finished task in task order (game 1 of every
variant, then game 2 of every variant, ...), flushed as each completes::

    {"type": "lab", "run": 1, "rummydsl": "0.1.0", "command": "compare", "arms": [{"label": "gin_rummy",
     "id": "gin_rummy", "variant_sha256": "...", "path": "..."}, ...], "seed": 1, "agents": [...],
     "players": 2, "games": 1000, "until": null, "max_games": 20000, "check_every": 100}
    {"type": "outcome", "variant": "gin_rummy", "game": 1, "seed": 123, "first_dealer": "P2", ...}
    ...

An outcome line is :func:`rummydsl.runlog.outcome_json` plus the label of its
variant, so :func:`rummydsl.lab.run.run_lab` sums a resumed run's done tasks exactly
as it summed them when they were played. A last line cut short by a kill is dropped
(its task is played again); anything else wrong is a
:class:`~rummydsl.errors.RecordError` naming the file and the line.

>>> from rummydsl.lab.run import Arm, Plan
>>> header = lab_header("compare", Plan([Arm.load("gin_rummy"), Arm.load("straight_gin")], seed=4, games=10))
>>> again = LabHeader.from_json(json.loads(json.dumps(header.as_json())))
>>> again == header, [arm.label for arm in again.arms]
(True, ['gin_rummy', 'straight_gin'])
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Callable, Generic, Protocol, TypeVar

from .. import __version__
from ..errors import Location, RecordError
from ..record import variant_digests
from ..runlog import RunLines, RunWriter, outcome_from_json, outcome_json, read_run_lines
from ..variant import shown_path

if TYPE_CHECKING:
    from ..simulate import GameOutcome
    from .run import Arm, Plan

__all__ = ["LAB_RUN_VERSION", "ArmHeader", "LabHeader", "LabRunLog", "LabRunWriter", "RunFileLog", "lab_header",
           "read_lab_run"]

#: The version of the lab out-file format, in each header.
LAB_RUN_VERSION = 1
FSYNC_EVERY = 1.0
"""Seconds between two ``os.fsync`` of the out-file (each line is flushed at once), as for ``simulate``."""


@dataclass(frozen=True)
class ArmHeader:
    """One variant of a run as its out-file names it."""

    label: str
    id: str
    variant_sha256: str
    """The digest of the variant's merged rules (:func:`rummydsl.record.variant_digests`)."""
    path: str = ""
    """The variant's file (for people; not compared: a shipped variant moves with its installation)."""
    base: str = ""
    """A swept variant's base (a shipped id or a path), else empty."""
    text: str = ""
    """A swept variant's text (the child of ``base``), else empty."""

    def as_json(self) -> dict[str, Any]:
        """The arm in the header line."""
        out: dict[str, Any] = {"label": self.label, "id": self.id, "variant_sha256": self.variant_sha256}
        if self.text:
            out.update(base=self.base, text=self.text)
        else:
            out["path"] = self.path
        return out


@dataclass(frozen=True)
class LabHeader:
    """What names a compare or sweep run: a resumed run must be the same run."""

    command: str
    arms: tuple[ArmHeader, ...]
    seed: int
    agents: tuple[str, ...]
    players: int
    games: int | None
    until: float | None
    max_games: int
    check_every: int

    def as_json(self) -> dict[str, Any]:
        """The header line (with the package version, for people)."""
        return {"type": "lab", "run": LAB_RUN_VERSION, "rummydsl": __version__, "command": self.command,
                "arms": [arm.as_json() for arm in self.arms], "seed": self.seed, "agents": list(self.agents),
                "players": self.players, "games": self.games, "until": self.until, "max_games": self.max_games,
                "check_every": self.check_every}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LabHeader:
        """The header of a header line.

        :raises RecordError: naming the field and the bad value (the caller adds the place).
        """
        if data.get("run") != LAB_RUN_VERSION:
            raise RecordError(f"run format {data.get('run')!r} is not {LAB_RUN_VERSION} (made by another rummydsl?)")

        def get(name: str, kind: type | tuple[type, ...], where: dict[str, Any] = data, prefix: str = "") -> Any:
            value = where.get(name)
            if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, (int, type(None)))):
                raise RecordError(f"{prefix}{name}: unexpected value {value!r:.60}")
            return value

        arms = []
        for number, item in enumerate(get("arms", list), start=1):
            if not isinstance(item, dict):
                raise RecordError(f"arms[{number}]: expected an object, got {item!r:.60}")
            prefix = f"arms[{number}]."
            arms.append(ArmHeader(get("label", str, item, prefix), get("id", str, item, prefix),
                                  get("variant_sha256", str, item, prefix), str(item.get("path", "")),
                                  str(item.get("base", "")), str(item.get("text", ""))))
        agents = get("agents", list)
        if not all(isinstance(agent, str) for agent in agents):
            raise RecordError(f"agents: expected agent names, got {agents!r:.60}")
        until = get("until", (int, float, type(None)))
        return cls(get("command", str), tuple(arms), get("seed", int), tuple(agents), get("players", int),
                   get("games", (int, type(None))), None if until is None else float(until),
                   get("max_games", int), get("check_every", int))

    def differences(self, other: LabHeader) -> list[str]:
        """How ``other`` (the command's run) differs from this one (the file's), in words.

        >>> a = LabHeader("compare", (ArmHeader("a", "a", "11"),), 1, ("greedy",), 1, 10, None, 100, 100)
        >>> b = LabHeader("compare", (ArmHeader("a", "a", "22"),), 2, ("greedy",), 1, 10, None, 100, 100)
        >>> for line in a.differences(b):
        ...     print(line)
        the rules of 'a' have changed since the run began (variant sha256 11..., now 22...)
        seed: the file has 1, the command 2
        """
        out: list[str] = []
        if self.command != other.command:
            out.append(f"the file is a run of {self.command!r}, not of {other.command!r}")
        mine = [arm.label for arm in self.arms]
        theirs = [arm.label for arm in other.arms]
        if mine != theirs:
            out.append(f"variants: the file has {mine!r}, the command {theirs!r}")
        else:
            for old, new in zip(self.arms, other.arms):
                if old.id != new.id:
                    out.append(f"{old.label}: the file's variant is {old.id!r}, the command's {new.id!r}")
                elif old.text != new.text:
                    out.append(f"{old.label}: the derived variant's text differs (base {old.base!r} "
                               f"in the file, {new.base!r} now)")
                elif old.variant_sha256 != new.variant_sha256:
                    out.append(f"the rules of {old.label!r} have changed since the run began (variant sha256 "
                               f"{old.variant_sha256[:12]}..., now {new.variant_sha256[:12]}...)")
        for name in ("seed", "agents", "players", "games", "until", "max_games", "check_every"):
            was, now = getattr(self, name), getattr(other, name)
            if was != now:
                if isinstance(was, tuple):
                    was, now = list(was), list(now)
                out.append(f"{name}: the file has {was!r}, the command {now!r}")
        return out


def lab_header(command: str, plan: Plan) -> LabHeader:
    """The header of ``plan``'s run for ``command`` (``compare`` or ``sweep``)."""
    from ..simulate import agent_names

    arms = tuple(_arm_header(arm, variant_digests(arm.variant)["variant_sha256"] or "") for arm in plan.arms)
    players = plan.arms[0].variant.players
    return LabHeader(command, arms, plan.seed, tuple(agent_names(plan.agents, players)), players, plan.games,
                     plan.until, plan.max_games, plan.check_every)


def _arm_header(arm: Arm, digest: str) -> ArmHeader:
    if arm.derived is not None:
        return ArmHeader(arm.label, arm.variant.id, digest, base=arm.derived.base, text=arm.derived.text)
    return ArmHeader(arm.label, arm.variant.id, digest, path=shown_path(arm.path))


Header = TypeVar("Header")


@dataclass
class RunFileLog(Generic[Header]):
    """An out-file as read (a compare or sweep run's, a tournament's): its header, the outcomes
    of the tasks done, where to append."""

    header: Header
    outcomes: list[GameOutcome] = field(default_factory=list)
    end: int = 0
    """The byte offset just past the last complete line (a cut-short line after it is dropped)."""
    dropped: bool = False
    """Whether a last line cut short (by a kill) was found and its task will be played again."""


LabRunLog = RunFileLog[LabHeader]
"""A compare or sweep out-file as read (:func:`read_lab_run`)."""


def read_lab_run(path: str, expected: LabHeader) -> LabRunLog:
    """Read the out-file ``path`` of the run ``expected`` (the command's): the outcomes of
    the tasks done, each checked to be the next task (its variant, game and seed).

    :raises RecordError: for a file that cannot be read, a header of another run (naming
        every difference), a line that is not JSON or not the next task's outcome,
        naming the file and the line.
    """
    from ..simulate import game_seeds

    lines, header = read_run_header(path, "lab", "a compare or sweep run header", LabHeader.from_json, expected)
    count = len(header.arms)
    games = header.games if header.games is not None else header.max_games
    seeds = game_seeds(header.seed, games)
    log = LabRunLog(header, end=lines.header_end, dropped=lines.dropped)
    for number, data, end in lines.outcomes:
        position = len(log.outcomes)
        if position >= games * count:
            raise RecordError(f"a game past the run's {games} games of each variant", Location(path, number))
        try:
            outcome = outcome_from_json(data, header.players)
        except RecordError as problem:
            raise RecordError(problem.message, Location(path, number)) from None
        game, label = divmod(position, count)
        want = header.arms[label].label
        if (outcome.index, data.get("variant")) != (game, want):
            raise RecordError(f"expected game {game + 1} of {want} here, got game {outcome.index + 1} of "
                              f"{str(data.get('variant'))!r:.60}", Location(path, number))
        if outcome.seed != seeds[game]:
            raise RecordError(f"game {game + 1} was played from seed {outcome.seed}, but seed {header.seed} "
                              f"gives it {seeds[game]}", Location(path, number))
        log.outcomes.append(outcome)
        log.end = end
    return log


class _Compared(Protocol):
    """A run's header as read, compared with the command's."""

    def differences(self, other: Any) -> list[str]: ...


_Read = TypeVar("_Read", bound=_Compared)


def read_run_header(path: str, kind: str, described: str, parse: Callable[[dict[str, Any]], _Read],
                    expected: _Read) -> tuple[RunLines, _Read]:
    """The lines of the run file ``path`` (:func:`~rummydsl.runlog.read_run_lines`) and its
    header read by ``parse``, checked to be the run ``expected`` (the command's).

    :raises RecordError: as ``read_run_lines`` does; for a header that does not read, or one
        of another run (naming every difference), at line 1.
    """
    lines = read_run_lines(path, kind, described)
    try:
        header = parse(lines.header)
    except RecordError as problem:
        raise RecordError(f"header: {problem.message}", Location(path, 1)) from None
    wrong = header.differences(expected)
    if wrong:
        raise RecordError("the run in the file is not this command's run: " + "; ".join(wrong), Location(path, 1))
    return lines, header


class _Header(Protocol):
    """A run's header: what ``begin`` writes as the first line."""

    def as_json(self) -> dict[str, Any]: ...


_LabWriter = TypeVar("_LabWriter", bound="LabRunWriter")


class LabRunWriter(RunWriter):
    """Writes a compare or sweep out-file: each task's outcome a line, flushed at once,
    synced about once a second (as :class:`~rummydsl.runlog.RunWriter`)."""

    @classmethod
    def begin(cls: type[_LabWriter], path: str, header: _Header) -> _LabWriter:
        """A new out-file with its header line written and synced.

        :raises RecordError: if the file cannot be written, or already holds something.
        """
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        if size:
            raise RecordError("the file is not empty (a run to go on with --resume?); remove it to start "
                              "the run again", Location(path))
        writer = cls(_open(path, "wb"), path)
        writer._line(header.as_json())
        writer.sync()
        return writer

    @classmethod
    def go_on(cls, path: str, log: RunFileLog[Any]) -> LabRunWriter:
        """Go on writing the out-file ``log`` was read from, after its last complete line.

        :raises RecordError: if the file cannot be written.
        """
        return cls.reopen(path, log.end)

    def write_task(self, outcome: GameOutcome, label: str) -> None:
        """Write the outcome of one task (in task order) of the variant labelled ``label``."""
        self.write_line({"type": "outcome", "variant": label,
                         **{k: v for k, v in outcome_json(outcome).items() if k != "type"}})

    def write_line(self, data: dict[str, Any]) -> None:
        """Write one line, flushed; synced to disk about once a second."""
        self._line(data)
        if time.monotonic() - self._synced >= FSYNC_EVERY:
            self.sync()


def _open(path: str, mode: str) -> IO[bytes]:
    try:
        return open(path, mode)
    except OSError as problem:
        raise RecordError(f"cannot write the run: {problem.strerror or problem}", Location(path)) from None
