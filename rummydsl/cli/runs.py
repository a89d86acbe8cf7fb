"""The commands that run games: ``simulate`` (with its run files and logs), ``compare``/``sweep`` and ``replay``."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import time
from typing import TYPE_CHECKING, Any, Iterator, TextIO

from ..errors import Location, RecordError
from .parser import EXIT_INPUT, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from ..runlog import RunHeader, RunLog

__all__ = [
    "cmd_simulate",
    "open_log",
    "write_line",
    "cmd_lab",
    "cmd_replay",
    "ray_messages_to",
]


@contextlib.contextmanager
def ray_messages_to(stream: TextIO) -> Iterator[None]:
    """Send what Ray prints for its cluster to ``stream`` while a ``--ray`` command runs.

    Ray's driver prints a worker's death (``(raylet) A worker died or was killed ...``),
    and with ``log_to_driver`` the workers' own output, to ``sys.stdout`` as it is when
    the message arrives, at a moment of Ray's choosing; ``ray.init(log_to_driver=False)``
    does not stop the first kind. The command's own output goes to the stream it was given
    before (one JSON object with ``--json``), so ``sys.stdout`` is ``stream`` (standard
    error) meanwhile and that output stays whole. Ray's colour codes are left out
    (``RAY_COLOR_PREFIX=0``, unless already set): ``stream`` would show them escaped.
    The backend shuts Ray down inside the command, so nothing of Ray's comes after.
    """
    colour = "RAY_COLOR_PREFIX" not in os.environ
    if colour:
        os.environ["RAY_COLOR_PREFIX"] = "0"
    try:
        with contextlib.redirect_stdout(stream):
            yield
    finally:
        if colour:
            os.environ.pop("RAY_COLOR_PREFIX", None)


def open_log(name: str) -> TextIO:
    """Open the file ``name`` to write a JSON-lines log."""
    try:
        return open(name, "w", encoding="utf-8")
    except OSError as problem:
        raise RecordError(f"cannot write the log: {problem.strerror or problem}", Location(name)) from None


def write_line(stream: TextIO | None, data: dict[str, Any], *, flush: bool = False) -> None:
    """Write ``data`` as one JSON line to ``stream`` (which must be open)."""
    assert stream is not None
    stream.write(json.dumps(data, separators=(",", ":")) + "\n")
    if flush:
        stream.flush()


def _resumable(path: str, header: RunHeader) -> RunLog:
    """The run of ``path``, checked to be the command's run.

    :raises RecordError: for an unreadable or corrupt file, or a run that differs
        from the command's (naming every difference).
    """
    from ..runlog import read_run

    from ..simulate import game_seeds

    log = read_run(path)
    wrong = log.header.differences(header)
    if wrong:
        raise RecordError("the run in the file is not this command's run: " + "; ".join(wrong), Location(path, 1))
    unit = "hand" if header.mode == "hands" else "game"
    for outcome, seed in zip(log.outcomes, game_seeds(header.seed, len(log.outcomes))):
        if outcome.seed != seed:
            raise RecordError(f"{unit} {outcome.index + 1} was played from seed {outcome.seed}, but seed "
                              f"{header.seed} gives it {seed}", Location(path, outcome.index + 2))
    return log


def cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl simulate``: play games and print their statistics."""
    from ..record import RecordWriter
    from ..runlog import RunWriter, header_for
    from ..simulate import GameOutcome, agent_names, simulate
    from ..progress import Progress
    from ..variant import load_variant, shown_path, with_players

    count = args.games if args.games is not None else args.hands
    flag = "--games" if args.games is not None else "--hands"
    if count <= 0:
        print(f"rummydsl simulate: {flag} must be at least 1, got {count}", file=err)
        return EXIT_INPUT
    if args.workers is not None and args.workers <= 0:
        print(f"rummydsl simulate: --workers must be at least 1, got {args.workers}", file=err)
        return EXIT_INPUT
    backend = None
    if args.ray is not None:
        from ..backends import RayBackend
        from ..errors import BackendError

        try:
            backend = RayBackend(args.ray or None)
        except BackendError as missing:  # Ray not installed: a usage problem, not the input's
            print(f"rummydsl simulate: {missing}", file=err)
            return EXIT_USAGE
    variant = with_players(load_variant(args.variant), args.players)
    from ..simulate import check_agents

    check_agents(args.agents, variant.players)
    if args.report:
        from ..lab.report import check_report

        check_report(args.report)  # matplotlib and the folder, before any game is played
    unit = "games" if args.games is not None else "hands"
    if args.resume and args.log:
        print("rummydsl simulate: --log cannot go with --resume (the record of the games already played "
              "is not kept in the run); replay a run with --log from the start instead", file=err)
        return EXIT_USAGE
    header = header_for(variant, seed=args.seed, mode=unit, count=count,
                        agents=agent_names(args.agents, variant.players))
    resumed = _resumable(args.resume, header) if args.resume else None
    run_out: RunWriter | None = None
    if args.out:
        run_out = RunWriter.create(args.out, header, shown_path(variant.path))
    elif resumed is not None:
        run_out = RunWriter.append(args.resume, resumed)
    try:
        log = open_log(args.log) if args.log else None
    except RecordError:
        if run_out is not None:
            run_out.close()
        raise
    done = len(resumed.outcomes) if resumed is not None else 0
    progress = Progress(err, count, before=done, unit=unit)

    def heard(outcome: GameOutcome) -> None:
        nonlocal done
        done += 1
        if run_out is not None:
            run_out.write(outcome)
        if log is not None:
            for line in outcome.lines:
                write_line(log, line)
            log.flush()
        progress.update(done)

    started = time.perf_counter()
    try:
        if log is not None:
            RecordWriter(lambda line: write_line(log, line)).header(
                variant, seed=args.seed, agents=agent_names(args.agents, variant.players), mode=unit)
        stats = simulate(args.variant, games=args.games or 0, hands=args.hands or 0, seed=args.seed,
                         agents=args.agents, workers=args.workers, log=log is not None, on_outcome=heard,
                         done=resumed.outcomes if resumed is not None else (),
                         backend=backend, players=args.players)
    finally:
        progress.close()
        if backend is not None:
            backend.close()
        if log is not None:
            log.close()
        if run_out is not None:
            run_out.close()
    seconds = time.perf_counter() - started
    if stats.stopped:
        print(f"rummydsl simulate: {stats.stopped[0]}", file=err)
        return EXIT_INPUT
    if args.json:
        out.write(json.dumps(stats.as_json(seconds)) + "\n")
    else:
        out.write(stats.text(seconds))
    if args.report:
        from ..lab.simulate_report import write_simulate_report

        write_simulate_report(stats, args.report, seconds)
        if not args.json:
            print(f"wrote {args.report}", file=out)
    return EXIT_OK


def cmd_lab(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl compare`` and ``rummydsl sweep`` (:mod:`rummydsl.lab.command`)."""
    from ..lab.command import UsageProblem, run_compare, run_sweep, run_tournament_command

    try:
        if args.command == "tournament":
            return run_tournament_command(args, out, err)
        return (run_compare if args.command == "compare" else run_sweep)(args, out, err)
    except UsageProblem as problem:
        print(f"rummydsl {args.command}: {problem}", file=err)
        return EXIT_USAGE


def cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl replay``: play a game record back and verify every result."""
    from ..record import replay_record

    warnings: list[str] = []
    try:
        summary = replay_record(args.record, on_warning=warnings.append, variant=args.variant)
    except RecordError as problem:
        for warning in warnings:
            print(f"rummydsl replay: warning: {warning}", file=err)
        print(str(problem), file=err)
        return EXIT_INPUT
    for warning in warnings:
        print(f"rummydsl replay: warning: {warning}", file=err)
    print(summary.line(), file=out)
    return EXIT_OK
