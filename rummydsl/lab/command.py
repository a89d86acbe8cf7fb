"""``rummydsl compare`` and ``rummydsl sweep``: the flags, and running them.

Everything a run needs is checked before the first game: the variants (each
derived variant as a file of its own), the agents, the numbers, that the report
can be drawn (matplotlib installed) and written (its folder exists).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import TYPE_CHECKING, Any, TextIO

from ..errors import BackendError, RummyDslError
from .defaults import DEFAULT_MAX_DEALS, DEFAULT_MAX_GAMES

if TYPE_CHECKING:
    # The games, the lab's runs and its output are imported by the functions that run a
    # command, not to build its flags: ``compare --help`` imports none of them.
    from ..backends import RayBackend
    from ..simulate import GameOutcome
    from .run import Arm, LabResult, Plan
    from .runfile import LabRunWriter

__all__ = ["add_compare_arguments", "add_sweep_arguments", "add_tournament_arguments", "run_compare", "run_sweep",
           "run_tournament_command", "UsageProblem"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


class UsageProblem(RummyDslError, ValueError):
    """A flag that cannot be used as given (exit 2)."""


def _out_resume(parser: argparse.ArgumentParser) -> None:
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument("--out", metavar="FILE",
                      help="write each finished game to FILE as it completes (JSON lines), to --resume from")
    keep.add_argument("--resume", metavar="FILE",
                      help="go on with the interrupted run of FILE (written by --out; the same command) "
                           "and append to it")


def _count(parser: argparse.ArgumentParser, games: str, until: str, max_games: int, unit: str) -> None:
    """``--games N`` or ``--until WIDTH``, ``--max-games`` and ``--seed`` (``unit``: what --max-games counts)."""
    count = parser.add_mutually_exclusive_group(required=True)
    count.add_argument("--games", type=int, metavar="N", help=games)
    count.add_argument("--until", type=float, metavar="WIDTH", help=until)
    parser.add_argument("--max-games", type=int, default=max_games, metavar="N",
                        help=f"with --until, stop after N {unit} (default {max_games})")
    parser.add_argument("--seed", type=int, required=True, metavar="S", help="the master seed")


def _where(parser: argparse.ArgumentParser, ray: str, same: str = "results") -> None:
    """``--workers N`` or ``--ray [ADDRESS]``."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help=f"play in N processes (default: every core); the same {same} for any N")
    where.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help=ray)


def _outputs(parser: argparse.ArgumentParser, report: str) -> None:
    """``--out``/``--resume``, ``--json``, ``--report`` and ``--progress``."""
    _out_resume(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--report", metavar="FILE.html", help=report)
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr even when it is not a terminal")


def _common(parser: argparse.ArgumentParser) -> None:
    _count(parser, "play N games of each variant, the same seeds",
           "play until every rate's 95%% interval is narrower than WIDTH (e.g. 0.05), checking every 100 games",
           DEFAULT_MAX_GAMES, "games of each variant")
    parser.add_argument("--agents", default="greedy", metavar="A,B,...",
                        help="one agent a seat, the last repeats: random, greedy, cmd:PROGRAM, llm:PROGRAM "
                             "(default: greedy)")
    _where(parser, "play as Ray tasks on the cluster at ADDRESS, or without one on Ray's default "
                   "(RAY_ADDRESS, a local 'ray start' cluster, else a new local instance); the "
                   "same results as local processes; needs pip install 'rummydsl[ray]'")
    _outputs(parser, "also write a self-contained HTML report with tables and plots")


def add_compare_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rummydsl compare``."""
    parser.add_argument("variants", nargs="+", metavar="VARIANT",
                        help="two or more shipped variant ids or YAML files; each is compared with the first")
    _common(parser)


def add_sweep_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rummydsl sweep``."""
    parser.add_argument("variant", metavar="VARIANT", help="the base: a shipped variant id or a YAML file")
    parser.add_argument("--set", dest="settings", action="append", required=True, metavar="KEY=V1,V2,...",
                        help="a dotted key of the variant file (knock.limit) or options.NAME, and the values "
                             "to try (YAML scalars); repeat for every combination")
    _common(parser)


def _check_numbers(args: argparse.Namespace) -> None:
    if args.games is not None and args.games <= 0:
        raise UsageProblem(f"--games must be at least 1, got {args.games}")
    if args.until is not None and not 0 < args.until < 1:
        raise UsageProblem(f"--until must be a width between 0 and 1 (a rate's interval, e.g. 0.05), "
                           f"got {args.until!r}")
    if args.max_games <= 0:
        raise UsageProblem(f"--max-games must be at least 1, got {args.max_games}")
    if args.workers is not None and args.workers <= 0:
        raise UsageProblem(f"--workers must be at least 1, got {args.workers}")


def _check_report(name: str | None) -> None:
    """Refuse a report that could not be drawn or written, before anything is played."""
    from .report import check_report

    check_report(name)


def _plan(args: argparse.Namespace, arms: list[Arm], backend: RayBackend | None) -> Plan:
    from .run import Plan

    return Plan(arms, seed=args.seed, agents=args.agents, games=args.games, until=args.until,
                max_games=args.max_games, workers=args.workers or os.cpu_count() or 1, backend=backend)


def _backend(args: argparse.Namespace) -> RayBackend | None:
    """The Ray backend of ``--ray [ADDRESS]``, else ``None`` (local processes).

    :raises UsageProblem: when Ray is not installed (exit 2, as for ``simulate --ray``).
    """
    if args.ray is None:
        return None
    from ..backends import RayBackend

    try:
        return RayBackend(args.ray or None)
    except BackendError as missing:  # Ray not installed: a usage problem, not the input's
        raise UsageProblem(str(missing)) from None


def _play(args: argparse.Namespace, arms: list[Arm], err: TextIO,
          backend: RayBackend | None) -> tuple[LabResult, float]:
    """Play the arms (closing the backend after: Ray is shut down if the run started it)."""
    from ..progress import Progress
    from .run import run_lab

    plan = _plan(args, arms, backend)
    writer, done_tasks = _run_file(args, plan)
    on_outcome = None if writer is None else (lambda outcome, arm: writer.write_task(outcome, arm.label))
    progress = Progress(err, plan.games, until=plan.until, force=args.progress, every=2.0,
                        before=len(done_tasks) // len(arms))
    started = time.perf_counter()
    try:
        result = run_lab(plan, on_game=lambda done, total, width: progress.update(done, width),
                         done_tasks=done_tasks, on_outcome=on_outcome)
    finally:
        progress.close()
        if backend is not None:
            backend.close()
        if writer is not None:
            writer.close()
    return result, time.perf_counter() - started


def _run_file(args: argparse.Namespace, plan: Plan) -> tuple[LabRunWriter | None, list[GameOutcome]]:
    """The out-file of ``--out`` (begun), or of ``--resume`` (read, and opened to go on)
    with the outcomes of the tasks it holds; else ``(None, [])``.

    :raises RecordError: for a file that cannot be written, or read as this command's run.
    """
    from .runfile import LabRunWriter, lab_header, read_lab_run

    if args.out is None and args.resume is None:
        return None, []
    header = lab_header(args.command, plan)
    if args.out is not None:
        return LabRunWriter.begin(args.out, header), []
    log = read_lab_run(args.resume, header)
    return LabRunWriter.go_on(args.resume, log), log.outcomes


def _finish(args: argparse.Namespace, command: str, result: LabResult, seconds: float, out: TextIO,
            err: TextIO, extra: dict[str, Any]) -> int:
    from .output import as_json, text

    result.extra.update(extra)
    if result.stopped:
        print(f"rummydsl {command}: {result.stopped}", file=err)
        return EXIT_INPUT
    if args.json:
        out.write(json.dumps(as_json(result, command, seconds)) + "\n")
    else:
        out.write(text(result, command, seconds))
    if args.report:
        from .report import write_report

        write_report(result, command, args.report, seconds)
        if not args.json:
            print(f"wrote {args.report}", file=out)
    return EXIT_OK


def _labels(names: list[str], arms_ids: list[str]) -> list[str]:
    """Each variant's label: its id, or the name given when two ids are the same."""
    return [variant_id if arms_ids.count(variant_id) == 1 else name for name, variant_id in zip(names, arms_ids)]


def run_compare(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``rummydsl compare``: returns the exit code.

    :raises UsageProblem: for a flag out of range.
    :raises VariantError: for a variant that cannot be loaded.
    :raises AgentError: for an unknown agent.
    """
    from .run import Arm

    if len(args.variants) < 2:
        raise UsageProblem("give at least two variants to compare")
    _check_numbers(args)
    backend = _backend(args)
    _check_report(args.report)
    loaded = [Arm.load(name) for name in args.variants]
    labels = _labels(list(args.variants), [arm.variant.id for arm in loaded])
    arms = [Arm(label, arm.path, arm.variant) for label, arm in zip(labels, loaded)]
    result, seconds = _play(args, arms, err, backend)
    return _finish(args, "compare", result, seconds, out, err, {})


def run_sweep(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``rummydsl sweep``: returns the exit code.

    :raises UsageProblem: for a flag out of range or a ``--set`` that cannot be read.
    :raises VariantError: for the base or a derived variant with an error.
    """
    from .derive import SetSyntaxError, derive, parse_set
    from .run import Arm

    _check_numbers(args)
    backend = _backend(args)
    try:
        settings = [parse_set(argument) for argument in args.settings]
        derived = derive(args.variant, settings)
    except SetSyntaxError as problem:
        raise UsageProblem(str(problem)) from None
    _check_report(args.report)
    with tempfile.TemporaryDirectory(prefix="rummydsl-sweep-") as folder:
        arms = [Arm.load(variant.write(folder), label=variant.label, derived=variant) for variant in derived]
        result, seconds = _play(args, arms, err, backend)
        sweep = {"base": args.variant, "keys": [s.key for s in settings],
                 "values": [list(choice) for choice in _choices(settings)]}
        return _finish(args, "sweep", result, seconds, out, err, {"sweep": sweep})


def _choices(settings: list[Any]) -> list[tuple[Any, ...]]:
    import itertools

    return list(itertools.product(*[s.values for s in settings]))


def add_tournament_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rummydsl tournament``."""
    parser.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    parser.add_argument("--agents", required=True, metavar="A,B,...",
                        help="two or more agents (random, greedy, heuristic, simple, ismcts[:SETTINGS], "
                             "pimc[:SETTINGS], cmd:PROGRAM, llm:PROGRAM); every pair meets in every seating")
    _count(parser, "play N deals, each once per pair of agents and seating (2 players: seats swapped)",
           "play until every pair's 95%% interval is narrower than WIDTH, checking every 20 deals",
           DEFAULT_MAX_DEALS, "deals")
    parser.add_argument("--players", type=int, metavar="N",
                        help="play with N seats (a count the variant's 'players' allows; default: its count)")
    _where(parser, "play as Ray tasks (as for compare); the same figures as local processes", same="figures")
    parser.add_argument("--budget", metavar="TIME",
                        help="thinking time each seat may spend in a game (30s, 500ms, 2m); the seat that runs "
                             "over forfeits that game (the figures then depend on the machine)")
    _outputs(parser, "also write a self-contained HTML report (ratings, pairs, game quality, plots)")


def parse_budget(text: str) -> float:
    """``--budget``'s seconds: a number with ``ms``, ``s`` (the default) or ``m``.

    >>> parse_budget("30s"), parse_budget("500ms"), parse_budget("2m"), parse_budget("1.5")
    (30.0, 0.5, 120.0, 1.5)

    :raises UsageProblem: for anything else, or a budget that is not above 0.
    """
    import math
    import re

    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(ms|s|m)?\s*", text)
    if match is None:
        raise UsageProblem(f"--budget must be a time such as 30s, 500ms or 2m, got {text!r}")
    seconds = float(match.group(1)) * {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[match.group(2)]
    if not math.isfinite(seconds) or seconds <= 0:
        raise UsageProblem(f"--budget must be more than 0, got {text!r}")
    return seconds


def run_tournament_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``rummydsl tournament``: returns the exit code.

    :raises UsageProblem: for a flag out of range.
    :raises VariantError: for a variant that cannot be loaded.
    :raises AgentError: for an unknown agent, or one that failed in a game.
    """
    from ..progress import Progress
    from .tournament import TournamentPlan, check_names, run_tournament

    _check_numbers(args)
    budget = None if args.budget is None else parse_budget(args.budget)
    names = check_names(args.agents.split(","))
    _check_report(args.report)
    backend = _backend(args)
    plan = TournamentPlan(args.variant, names, seed=args.seed, games=args.games, until=args.until,
                          max_games=args.max_games, workers=args.workers or os.cpu_count() or 1,
                          backend=backend, players=args.players, budget=budget)
    try:
        writer, done_tasks = _tournament_file(args, plan)
    except BaseException:
        if backend is not None:
            backend.close()
        raise
    on_outcome = None if writer is None else writer.write_game
    deals_before = len(done_tasks) // max(1, _games_a_deal(plan, names))
    progress = Progress(err, plan.games, until=plan.until, force=args.progress, every=2.0, before=deals_before)
    started = time.perf_counter()
    try:
        result = run_tournament(plan, on_deal=lambda done, total: progress.update(done, None),
                                done_tasks=done_tasks, on_outcome=on_outcome)
    finally:
        progress.close()
        if backend is not None:
            backend.close()
        if writer is not None:
            writer.close()
    seconds = time.perf_counter() - started
    if args.json:
        out.write(json.dumps(result.as_json()) + "\n")
    else:
        out.write(result.text())
    if args.report:
        from .tournament_report import write_tournament_report

        write_tournament_report(result, args.report, seconds)
        if not args.json:
            print(f"wrote {args.report}", file=out)
    return EXIT_OK


def _games_a_deal(plan: Any, names: list[str]) -> int:
    from ..variant import load_variant, with_players
    from .tournament import seatings

    return len(seatings(len(names), with_players(load_variant(plan.variant), plan.players).players))


def _tournament_file(args: argparse.Namespace, plan: Any) -> tuple[Any, list[GameOutcome]]:
    """The out-file of ``--out`` (begun) or ``--resume`` (read and opened to go on) with the games
    it holds; else ``(None, [])``.

    :raises RecordError: for a file that cannot be written, or read as this command's run.
    """
    if args.out is None and args.resume is None:
        return None, []
    from ..variant import find_variant_path, load_variant, with_players
    from .tournament import seatings
    from .tournament_file import TournamentWriter, read_tournament, tournament_header

    path = find_variant_path(plan.variant)
    variant = with_players(load_variant(path), plan.players)
    header = tournament_header(variant, path, plan.agents, plan.seed, plan.games, plan.until, plan.max_games,
                               plan.check_every, plan.budget)
    if args.out is not None:
        return TournamentWriter.begin(args.out, header), []
    order = [",".join(plan.agents[k] for k in seats) for _a, _b, seats in seatings(len(plan.agents), variant.players)]
    log = read_tournament(args.resume, header, order)
    return TournamentWriter.reopen(args.resume, log.end), log.outcomes
