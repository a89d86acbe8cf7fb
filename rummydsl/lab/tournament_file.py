"""The out-file of a long ``tournament`` (``--out``), and reading it back (``--resume``).

JSON lines, as the lab's other out-files (:mod:`rummydsl.lab.runfile`): a header naming
the run, then one line per finished game in task order (deal 1's seatings, then deal
2's, ...), flushed as each completes::

    {"type": "tournament", "run": 1, "rummydsl": "0.1.0", "variant": "gin_rummy", "variant_sha256": "...",
     "path": "...", "agents": ["heuristic", "greedy"], "seed": 7, "players": 2, "games": 100, "until": null,
     "max_games": 5000, "check_every": 20, "budget": null}
    {"type": "outcome", "game": 1, "seed": 123, "agents": "heuristic,greedy", "moves": [41, 40],
     "seconds": [0.01, 0.008], "over_budget": null, "first_dealer": "P2", ...}

An outcome line is :func:`rummydsl.runlog.outcome_json` plus the game's seating, each
seat's decisions and thinking time and the seat that ran over ``--budget`` (if one
did), so a resumed tournament sums its done games exactly as when they were played,
time per move included. A last line cut short by a kill is dropped (its game is played
again); anything else wrong is a :class:`~rummydsl.errors.RecordError` naming the file
and the line.

>>> header = TournamentHeader("gin_rummy", "ab", ("greedy", "random"), 1, 2, 3, None, 10, 20, None)
>>> TournamentHeader.from_json(json.loads(json.dumps(header.as_json()))) == header
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from .. import __version__
from ..engine.actions import player_name
from ..errors import Location, RecordError
from ..record import variant_digests
from ..runlog import outcome_from_json, outcome_json
from .runfile import LabRunWriter, RunFileLog, read_run_header

if TYPE_CHECKING:
    from ..simulate import GameOutcome
    from ..variant.model import Variant

__all__ = ["TOURNAMENT_RUN_VERSION", "TournamentHeader", "TournamentLog", "TournamentWriter", "read_tournament",
           "tournament_header"]

TOURNAMENT_RUN_VERSION = 1
"""The version of the tournament out-file format, in each header."""


@dataclass(frozen=True)
class TournamentHeader:
    """What names a tournament run: a resumed run must be the same run."""

    variant: str
    variant_sha256: str
    agents: tuple[str, ...]
    seed: int
    players: int
    games: int | None
    until: float | None
    max_games: int
    check_every: int
    budget: float | None
    path: str = ""
    """The variant's file (for people; not compared)."""

    def as_json(self) -> dict[str, Any]:
        """The header line (with the package version, for people)."""
        return {"type": "tournament", "run": TOURNAMENT_RUN_VERSION, "rummydsl": __version__,
                "variant": self.variant, "variant_sha256": self.variant_sha256, "path": self.path,
                "agents": list(self.agents), "seed": self.seed, "players": self.players, "games": self.games,
                "until": self.until, "max_games": self.max_games, "check_every": self.check_every,
                "budget": self.budget}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentHeader:
        """The header of a header line.

        :raises RecordError: naming the field and the bad value (the caller adds the place).
        """
        if data.get("run") != TOURNAMENT_RUN_VERSION:
            raise RecordError(f"run format {data.get('run')!r} is not {TOURNAMENT_RUN_VERSION} "
                              "(made by another rummydsl?)")

        def get(name: str, kind: type | tuple[type, ...]) -> Any:
            value = data.get(name)
            integer = kind is int or (isinstance(kind, tuple) and int in kind)
            if not isinstance(value, kind) or (isinstance(value, bool) and integer):
                raise RecordError(f"{name}: unexpected value {value!r:.60}")
            return value

        agents = get("agents", list)
        if not all(isinstance(agent, str) for agent in agents):
            raise RecordError(f"agents: expected agent names, got {agents!r:.60}")
        until, budget = get("until", (int, float, type(None))), get("budget", (int, float, type(None)))
        return cls(get("variant", str), get("variant_sha256", str), tuple(agents), get("seed", int),
                   get("players", int), get("games", (int, type(None))), None if until is None else float(until),
                   get("max_games", int), get("check_every", int), None if budget is None else float(budget),
                   str(data.get("path", "")))

    def differences(self, other: TournamentHeader) -> list[str]:
        """How ``other`` (the command's run) differs from this one (the file's), in words.

        >>> a = TournamentHeader("gin_rummy", "11", ("greedy", "random"), 1, 2, 10, None, 100, 20, None)
        >>> b = TournamentHeader("gin_rummy", "22", ("greedy", "heuristic"), 1, 2, 10, None, 100, 20, 30.0)
        >>> for line in a.differences(b):
        ...     print(line)
        the rules of 'gin_rummy' have changed since the run began (variant sha256 11..., now 22...)
        agents: the file has ['greedy', 'random'], the command ['greedy', 'heuristic']
        budget: the file has None, the command 30.0
        """
        out: list[str] = []
        if self.variant != other.variant:
            out.append(f"variant: the file has {self.variant!r}, the command {other.variant!r}")
        elif self.variant_sha256 != other.variant_sha256:
            out.append(f"the rules of {self.variant!r} have changed since the run began (variant sha256 "
                       f"{self.variant_sha256[:12]}..., now {other.variant_sha256[:12]}...)")
        for name in ("agents", "seed", "players", "games", "until", "max_games", "check_every", "budget"):
            was, now = getattr(self, name), getattr(other, name)
            if was != now:
                if isinstance(was, tuple):
                    was, now = list(was), list(now)
                out.append(f"{name}: the file has {was!r}, the command {now!r}")
        return out


def tournament_header(variant: Variant, path: str, agents: Sequence[str], seed: int, games: int | None,
                      until: float | None, max_games: int, check_every: int,
                      budget: float | None) -> TournamentHeader:
    """The header of a tournament of ``agents`` on ``variant`` (loaded from ``path``)."""
    from ..variant import shown_path

    digest = variant_digests(variant)["variant_sha256"] or ""
    return TournamentHeader(variant.id, digest, tuple(agents), seed, variant.players, games, until, max_games,
                            check_every, budget, shown_path(path))


TournamentLog = RunFileLog[TournamentHeader]
"""A tournament's out-file as read (:func:`read_tournament`)."""


def read_tournament(path: str, expected: TournamentHeader, seatings: Sequence[str]) -> TournamentLog:
    """Read the out-file ``path`` of the tournament ``expected`` (the command's), whose deals are
    each played in ``seatings`` (the agents seat by seat, ``"a,b"``): the outcomes of the games
    done, each checked to be the next game (its number, seed and seating).

    :raises RecordError: for a file that cannot be read, a header of another run (naming every
        difference), a line that is not JSON or not the next game's outcome, naming the file and
        the line.
    """
    from ..simulate import game_seeds

    lines, header = read_run_header(path, "tournament", "a tournament run header", TournamentHeader.from_json,
                                    expected)
    deals = header.games if header.games is not None else header.max_games
    seeds = game_seeds(header.seed, deals)
    log = TournamentLog(header, end=lines.header_end, dropped=lines.dropped)
    for number, data, end in lines.outcomes:
        position = len(log.outcomes)
        deal, slot = divmod(position, len(seatings))
        where = Location(path, number)
        if deal >= deals:
            raise RecordError(f"a game past the run's {deals} deals", where)
        try:
            outcome = _outcome(data, header.players)
        except RecordError as problem:
            raise RecordError(problem.message, where) from None
        if outcome.index != position or data.get("agents") != seatings[slot]:
            raise RecordError(f"expected game {position + 1} ({seatings[slot]}) here, got game {outcome.index + 1} "
                              f"({str(data.get('agents'))!r:.60})", where)
        if outcome.seed != seeds[deal]:
            raise RecordError(f"game {position + 1} was played from seed {outcome.seed}, but seed {header.seed} "
                              f"gives deal {deal + 1} the seed {seeds[deal]}", where)
        log.outcomes.append(outcome)
        log.end = end
    return log


def _outcome(data: dict[str, Any], players: int) -> GameOutcome:
    """An outcome line's outcome, with its moves, seconds and budget seat."""
    outcome = outcome_from_json(data, players)
    moves, seconds, over = data.get("moves"), data.get("seconds"), data.get("over_budget")
    if (not isinstance(moves, list) or len(moves) != players
            or not all(isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in moves)):
        raise RecordError(f"moves: expected {players} counts, got {moves!r:.60}")
    if (not isinstance(seconds, list) or len(seconds) != players
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
                       for x in seconds)):
        raise RecordError(f"seconds: expected {players} times, got {seconds!r:.60}")
    names = [player_name(p) for p in range(players)]
    if over is not None and over not in names:
        raise RecordError(f"over_budget: expected a seat ({', '.join(names)}) or null, got {over!r:.60}")
    outcome.moves = tuple(moves)
    outcome.seconds = tuple(float(x) for x in seconds)
    outcome.over_budget = None if over is None else names.index(over)
    return outcome


class TournamentWriter(LabRunWriter):
    """Writes a tournament out-file: each game a line, flushed at once, synced about once a second."""

    def write_game(self, outcome: GameOutcome, seating: str) -> None:
        """Write the outcome of one game (in task order), played by ``seating`` (``"a,b"``)."""
        base = outcome_json(outcome)
        self.write_line({"type": "outcome", "game": base["game"], "seed": base["seed"], "agents": seating,
                         "moves": list(outcome.moves), "seconds": [round(x, 6) for x in outcome.seconds],
                         "over_budget": None if outcome.over_budget is None else player_name(outcome.over_budget),
                         **{k: v for k, v in base.items() if k not in ("type", "game", "seed")}})
