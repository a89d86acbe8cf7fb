"""The ``rummydsl`` command line: parse arguments apart from executing them.

Exit codes (DESIGN.md): 0 fine, 1 the input is wrong, 2 usage error. The library
never prints; this module renders results as text or JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, NoReturn, Sequence, TextIO, cast

from .errors import CardError, Diagnostic, Location, RecordError, RummyDslError, VariantError
from .safetext import SafeStream, safe_text

if TYPE_CHECKING:
    from .runlog import RunHeader, RunLog

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C
_SNIPPET_WIDTH = 100


class _UsageError(Exception):
    pass


class _ParserExit(Exception):
    """argparse is done before any command runs (``--help``): exit with ``status``."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so ``main`` returns the code."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{self.prog}: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            raise _UsageError(message.rstrip())
        raise _ParserExit(status)


def _count(text: str) -> int:
    """A count of at least 1 (``--play N``); anything else is a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of games, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = _Parser(prog="rummydsl", description="A rules language for rummy card games.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")

    check = commands.add_parser("check", help="check variant files and report every problem")
    check.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    check.add_argument("--json", action="store_true", help="print a JSON list of problems")
    check.add_argument("--no-warnings", action="store_true", help="report errors only")
    check.add_argument("-q", "--quiet", action="store_true", help="no source lines and carets")
    check.add_argument("--play", type=_count, default=0, metavar="N",
                       help="also play N seeded games of each file (and one of greedy agents) and report "
                            "rules that break only in play")
    check.add_argument("--seed", type=int, metavar="S", help="the master seed of --play (default: 0)")
    check.add_argument("--players", type=int, metavar="N",
                       help="play --play's games with N seats (a count each variant's 'players' allows)")
    check.add_argument("--agents", metavar="A,B,...",
                       help="the agents of --play's games, as for simulate (default: random)")

    explain = commands.add_parser("explain", help="print the rules of a variant in plain words")
    explain.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    explain.add_argument("--markdown", action="store_true",
                         help="print Markdown (the pages of docs/rules/ are made this way)")

    schema = commands.add_parser("schema", help="print the variant JSON Schema (for YAML editors)")
    schema.add_argument("--output", "-o", metavar="FILE",
                        help="write the schema to FILE (its $id becomes FILE's URI) instead of printing it")
    schema.add_argument("--strict", action="store_true",
                        help="the schema of a whole merged variant (what check validates), not the editor's")

    commands.add_parser("lsp", help="run the language server over stdio (needs the lsp extra: pygls)")

    melds = commands.add_parser("melds", help="the best arrangement of a hand")
    melds.add_argument("variant", metavar="VARIANT")
    melds.add_argument("cards", nargs="*", metavar="CARD")
    melds.add_argument("--json", action="store_true", help="print one JSON object")
    melds.add_argument("--batch", action="store_true", help="read one hand a line on stdin, print JSON lines")

    commands.add_parser("variants", help="list the shipped variants")

    simulate = commands.add_parser("simulate", help="play many seeded games and print statistics")
    simulate.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    count = simulate.add_mutually_exclusive_group(required=True)
    count.add_argument("--games", type=int, metavar="N", help="play N whole games")
    count.add_argument("--hands", type=int, metavar="N", help="play N single hands (dealers rotate by seat)")
    simulate.add_argument("--seed", type=int, required=True, metavar="S", help="the master seed")
    simulate.add_argument("--players", type=int, metavar="N",
                          help="play with N seats (a count the variant's 'players' allows; default: its count)")
    simulate.add_argument("--agents", default="greedy", metavar="A,B,...",
                          help="one agent a seat, the last repeats: random, greedy, cmd:PROGRAM "
                               "(default: greedy)")
    where = simulate.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help="play in N local processes (default: every CPU, for a run of 64 or more; "
                            "the same results for any N)")
    where.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                       help="play as Ray tasks on the cluster at ADDRESS, or without one on Ray's default "
                            "(RAY_ADDRESS, a local 'ray start' cluster, else a new local instance); the "
                            "same results as local processes; needs pip install 'rummydsl[ray]'")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.add_argument("--log", metavar="FILE", help="write a JSON-lines record of every game")
    keep = simulate.add_mutually_exclusive_group()
    keep.add_argument("--out", metavar="FILE",
                      help="write each finished game to FILE as it completes (JSON lines), to --resume from")
    keep.add_argument("--resume", metavar="FILE",
                      help="go on with the interrupted run of FILE (written by --out; the same command) "
                           "and append to it")

    from .lab.command import add_compare_arguments, add_sweep_arguments

    add_compare_arguments(commands.add_parser(
        "compare", help="play the same seeds under two or more variants and compare every figure"))
    add_sweep_arguments(commands.add_parser(
        "sweep", help="play a variant with each value of some keys or options and compare the figures"))

    replay = commands.add_parser("replay", help="play a game record back and verify every result")
    replay.add_argument("record", metavar="FILE")
    replay.add_argument("--variant", metavar="VARIANT", default=None,
                        help="the variant to replay with (a shipped id or a YAML file); without it, "
                             "the shipped variant the record names (a record's file path is never opened)")

    play = commands.add_parser("play", help="play at the terminal against agents")
    play.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    play.add_argument("--agents", default="greedy", metavar="A,B,...",
                      help="the other seats' agents, as for simulate (default: greedy)")
    play.add_argument("--seed", type=int, metavar="S", help="the seed (default: a random one, printed)")
    play.add_argument("--seat", default="P1", metavar="P1", help="your seat (default: P1)")
    play.add_argument("--players", type=int, metavar="N",
                      help="play with N seats (a count the variant's 'players' allows; default: its count)")
    play.add_argument("--log", metavar="FILE", help="write a JSON-lines record of the game")

    from .conformance.command import add_arguments as test_arguments

    test_arguments(commands.add_parser("test", help="run conformance suites (*.suite.yaml)"))
    return parser


def _lenient(stream: TextIO) -> TextIO:
    """The process's own ``stream``, set to write what its encoding cannot (under an ASCII
    or Latin-1 locale, a suit symbol) as a backslash escape instead of failing."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="backslashreplace")
        except (ValueError, OSError):  # a stream that cannot change now: written as it is
            pass
    return stream


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting."""
    # Everything printed goes through safe_text: text from a file (a name, a source
    # line, a description) never sends a control character to the terminal.
    out = cast(TextIO, SafeStream(stdout if stdout is not None else _lenient(sys.stdout)))
    err = cast(TextIO, SafeStream(stderr if stderr is not None else _lenient(sys.stderr)))
    inp = stdin if stdin is not None else sys.stdin
    try:
        with contextlib.redirect_stdout(out):  # where argparse prints --help
            args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except _UsageError as usage:
        print(usage, file=err)
        print("try 'rummydsl --help'", file=err)
        return EXIT_USAGE
    except _ParserExit as done:
        return done.status
    if args.version:
        from . import __version__

        print(f"rummydsl {__version__}", file=out)
        return EXIT_OK
    if not args.command:
        build_parser().print_help(out)
        return EXIT_USAGE
    handler: Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int] = _COMMANDS[args.command]
    try:
        return handler(args, out, err, inp)
    except VariantError as problem:
        _print_diagnostics(problem.diagnostics, err, quiet=False)
        return EXIT_INPUT
    except RummyDslError as problem:
        print(f"rummydsl {args.command}: {problem}", file=err)
        return EXIT_INPUT
    except BrokenPipeError:  # e.g. `rummydsl explain x | head`
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C during a long simulate: a line, not a traceback
        print(f"rummydsl {args.command}: interrupted", file=err)
        return EXIT_INTERRUPTED


# -- check --------------------------------------------------------------------

def _variant_files(paths: Iterable[str]) -> tuple[list[Path], list[Diagnostic]]:
    from .errors import Location
    from .paths import exists, is_dir

    files: list[Path] = []
    problems: list[Diagnostic] = []
    for name in paths:
        path = Path(name)
        if is_dir(path):
            try:
                found = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
            except OSError as problem:  # a file vanished while the folder was walked (/proc, say)
                problems.append(Diagnostic(Location(name), f"cannot read the folder: {problem.strerror or problem}",
                                           "io"))
                continue
            if not found:
                problems.append(Diagnostic(Location(name), "no .yaml files in this folder", "io"))
            from .untrusted import named_refusal

            for file in found:
                reason = named_refusal(file, walked=name)  # a link out of the folder: not read
                if reason is not None:
                    problems.append(Diagnostic(Location(str(file)), f"cannot read the file: {reason}", "io"))
                else:
                    files.append(file)
        elif exists(path):
            from .untrusted import named_refusal

            reason = named_refusal(path)
            if reason is not None:  # a FIFO, a device, /proc, a name not *.yaml: nothing read
                problems.append(Diagnostic(Location(name), f"cannot read the file: {reason}", "io"))
                continue
            files.append(path)
        else:
            problems.append(Diagnostic(Location(name), "no such file or folder", "io"))
    return files, problems


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .variant import check_file

    if not args.play and (args.seed is not None or args.agents is not None or args.players is not None):
        print("rummydsl check: --seed, --agents and --players choose the games of --play N; give --play too",
              file=err)
        return EXIT_USAGE
    seed = 0 if args.seed is None else args.seed
    agents = "random" if args.agents is None else args.agents
    files, diagnostics = _variant_files(args.paths)
    if args.play:
        from .simulate import check_agents

        check_agents(agents, len(agents.split(",")))
    for path in files:
        found = check_file(str(path))
        diagnostics.extend(found)
        if args.play and not any(d.severity == "error" for d in found):
            from .playcheck import play_check

            diagnostics.extend(play_check(str(path), args.play, seed=seed, agents=agents, players=args.players))
    if args.no_warnings:
        diagnostics = [d for d in diagnostics if d.severity == "error"]
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    if args.json:
        json.dump([d.as_json() for d in diagnostics], out, indent=2)
        out.write("\n")
    else:
        _print_diagnostics(diagnostics, out, quiet=args.quiet)
        summary = f"{len(files)} file{'s' if len(files) != 1 else ''} checked: "
        summary += f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
        if args.play:
            summary += (f" (played {args.play} game{'s' if args.play != 1 else ''} of each with {agents} "
                        f"agents and 1 with greedy agents, seed {seed})")
        print(summary, file=out)
    return EXIT_INPUT if errors else EXIT_OK


def _print_diagnostics(diagnostics: Iterable[Diagnostic], stream: TextIO, quiet: bool) -> None:
    from .variant.load_read import SourceLines

    sources = SourceLines()  # each file split once, not once a problem (issue 17: 20,000 problems)
    for diagnostic in diagnostics:
        print(str(diagnostic), file=stream)
        if quiet or not diagnostic.location.line:
            continue
        if diagnostic.snippet == "":  # a file not known to be a variant: never quoted
            continue
        line = diagnostic.snippet or sources.line(diagnostic.location.path, diagnostic.location.line)
        if line is None:
            continue
        line = line.rstrip("\n").expandtabs(1)
        column = max(diagnostic.location.column, 1)
        # Control characters shown escaped (safe_text), the caret under the same character.
        column = len(safe_text(line[:column - 1], lines=False)) + 1
        line = safe_text(line, lines=False)
        # Show a window of a long line around the caret.
        start = max(0, column - 1 - _SNIPPET_WIDTH // 2) if len(line) > _SNIPPET_WIDTH else 0
        shown = line[start:start + _SNIPPET_WIDTH]
        prefix = "..." if start else ""
        suffix = "..." if start + _SNIPPET_WIDTH < len(line) else ""
        print(f"    {prefix}{shown}{suffix}", file=stream)
        if diagnostic.location.column:
            print("    " + " " * (len(prefix) + column - 1 - start) + "^", file=stream)


# -- explain, schema, variants ------------------------------------------------

def _cmd_test(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .conformance.command import run

    return run(args, out, err)


def _cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .explainer import explain
    from .variant import load_variant

    variant = load_variant(args.variant)
    out.write(explain(variant, markdown=args.markdown))
    return EXIT_OK


def _cmd_schema(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .lsp.editor_schema import SCHEMA_ID, editor_schema_text
    from .resources import read_spec_text

    if args.output is None:
        out.write(read_spec_text("variant.schema.json") if args.strict else editor_schema_text(SCHEMA_ID))
        return EXIT_OK
    target = Path(args.output)
    try:
        uri = target.resolve().as_uri()
        text = read_spec_text("variant.schema.json") if args.strict else editor_schema_text(uri)
        target.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as problem:
        print(f"rummydsl schema: cannot write {args.output!r}: {getattr(problem, 'strerror', None) or problem}",
              file=err)
        return EXIT_INPUT
    print(f"wrote {args.output} ($id {uri})", file=out)
    return EXIT_OK


def _cmd_lsp(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    try:
        from .lsp.server import serve
    except ImportError as missing:
        print(f"rummydsl lsp: the language server needs pygls ({missing}); install it with "
              "pip install 'rummydsl[lsp]'", file=err)
        return EXIT_INPUT
    serve()
    return EXIT_OK


def _cmd_variants(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .variant import load_variant, shipped_variant_ids

    for variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
        parent = f" (extends {variant.parent})" if variant.parent else ""
        print(f"{variant_id:24} {variant.name}{parent}", file=out)
    return EXIT_OK


# -- melds ----------------------------------------------------------------------

def _cmd_melds(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .engine.round import meld_rules
    from .melds import melds_report
    from .variant import load_variant

    variant = load_variant(args.variant)
    rules = meld_rules(variant)  # a contract by deal (CR-2) is judged in the first deal
    if args.batch:
        if args.cards:
            print("rummydsl melds: give cards on stdin with --batch, not as arguments", file=err)
            return EXIT_USAGE
        status = EXIT_OK
        for number, line in enumerate(inp, start=1):
            cards = line.split()
            if not cards:
                continue
            try:
                report = melds_report(rules, cards, variant.deal.hand_size)
            except CardError as problem:
                report = {"error": f"line {number}: {problem}"}
                status = EXIT_INPUT
            out.write(json.dumps(report) + "\n")
        return status
    if not args.cards:
        print("rummydsl melds: give the cards of a hand, e.g. 'rummydsl melds gin_rummy AS 2S 3S'", file=err)
        return EXIT_USAGE
    try:
        report = melds_report(rules, args.cards, variant.deal.hand_size)
    except CardError as problem:
        print(f"rummydsl melds: {problem}{_expanded_star_hint(args.cards)}", file=err)
        return EXIT_INPUT
    if args.json:
        out.write(json.dumps(report) + "\n")
    else:
        _print_melds(report, out, variant, rules)
    return EXIT_OK


def _expanded_star_hint(cards: list[str]) -> str:
    """A hint when a card argument is the name of a file here: the shell expanded a
    wild card ``*`` written unquoted into the folder's file names."""
    files = [card for card in cards if os.path.exists(card)]
    if not files:
        return ""
    return (f" ('{files[0]}' is a file in this folder: the shell replaced an unquoted * with the "
            "folder's file names; quote the wild card: '*')")


def _print_melds(report: dict[str, object], out: TextIO, variant: Any, rules: Any) -> None:
    """The text form of ``melds``: each meld with its kind, the deadwood, the
    contract (for a variant that has one), and for a hand one card over the hand
    size the best discard and whether it allows a knock or gin."""
    melds = report.get("melds") or []
    assert isinstance(melds, list)
    for meld in melds:
        kinds = ", ".join(sorted(rules.kinds_of(meld)))
        print("meld:      " + " ".join(meld) + (f"  ({kinds})" if kinds else ""), file=out)
    unmatched = report.get("unmatched") or []
    assert isinstance(unmatched, list)
    print("unmatched: " + (" ".join(unmatched) if unmatched else "-"), file=out)
    print(f"deadwood:  {report['deadwood']}", file=out)
    if variant.contract is not None:
        print(f"contract:  {'met' if report.get('contract') else 'not met'}", file=out)
    if "best_discard" in report:
        after = report["deadwood_after_discard"]
        print(f"best discard: {report['best_discard']} (deadwood after: {after})", file=out)
        verdict = _knock_verdict(variant, int(str(after)), int(str(report["deadwood"])))
        if verdict:
            print(verdict, file=out)


def _knock_verdict(variant: Any, after: int, before: int) -> str | None:
    """Whether the hand, after its best discard, may knock or go gin under the
    variant's knock limit (which may depend on the upcard)."""
    knock = variant.knock
    if knock is None:
        return None
    if before == 0 and knock.big_gin:
        return "ends:      big gin (every card melded, no discard needed)"
    if after == 0:
        return "ends:      gin after the discard"
    from .variant.exprs import probe_round_values

    if knock.limit is None:
        return f"ends:      knock allowed (no knock limit; deadwood {after})"
    limits = sorted(set(probe_round_values(variant, knock.limit)))
    if not limits:
        return None
    if limits[0] == limits[-1]:
        limit = limits[0]
        return (f"ends:      knock allowed (deadwood {after} <= limit {limit})" if after <= limit
                else f"ends:      no knock (deadwood {after} > limit {limit})")
    allowed = [value for value in limits if after <= value]
    if not allowed:
        return f"ends:      no knock (deadwood {after} > the highest limit, {limits[-1]})"
    return (f"ends:      knock allowed if this round's limit is at least {after} "
            f"(the limit is {limits[0]} to {limits[-1]}, by the upcard)")


# -- simulate, replay, play -------------------------------------------------------

def _open_log(name: str) -> TextIO:
    try:
        return open(name, "w", encoding="utf-8")
    except OSError as problem:
        raise RecordError(f"cannot write the log: {problem.strerror or problem}", Location(name)) from None


def _write_line(stream: TextIO | None, data: dict[str, Any], *, flush: bool = False) -> None:
    assert stream is not None
    stream.write(json.dumps(data, separators=(",", ":")) + "\n")
    if flush:
        stream.flush()


def _resumable(path: str, header: RunHeader) -> RunLog:
    """The run of ``path``, checked to be the command's run.

    :raises RecordError: for an unreadable or corrupt file, or a run that differs
        from the command's (naming every difference).
    """
    from .runlog import read_run

    from .simulate import game_seeds

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


def _cmd_simulate(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .record import RecordWriter
    from .runlog import RunWriter, header_for
    from .simulate import GameOutcome, agent_names, simulate
    from .progress import Progress
    from .variant import load_variant, shown_path, with_players

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
        from .backends import RayBackend
        from .errors import BackendError

        try:
            backend = RayBackend(args.ray or None)
        except BackendError as missing:  # Ray not installed: a usage problem, not the input's
            print(f"rummydsl simulate: {missing}", file=err)
            return EXIT_USAGE
    variant = with_players(load_variant(args.variant), args.players)
    from .simulate import check_agents

    check_agents(args.agents, variant.players)
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
        log = _open_log(args.log) if args.log else None
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
                _write_line(log, line)
            log.flush()
        progress.update(done)

    started = time.perf_counter()
    try:
        if log is not None:
            RecordWriter(lambda line: _write_line(log, line)).header(
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
    return EXIT_OK


def _cmd_lab(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .lab.command import UsageProblem, run_compare, run_sweep

    try:
        return (run_compare if args.command == "compare" else run_sweep)(args, out, err)
    except UsageProblem as problem:
        print(f"rummydsl {args.command}: {problem}", file=err)
        return EXIT_USAGE


def _cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .record import replay_record

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


def _cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    import random

    from .agents import make_agents
    from .engine import Game
    from .record import Quit, RecordWriter, close_agents, run_game
    from .simulate import agent_names, check_agents
    from .terminal import HELP, HumanAgent, TerminalWatcher
    from .variant import load_variant, with_players

    variant = with_players(load_variant(args.variant), args.players)
    players = variant.players
    seat_text = args.seat.strip()
    if not (seat_text[:1] in "Pp" and seat_text[1:].isdigit() and 1 <= int(seat_text[1:]) <= players):
        print(f"rummydsl play: --seat must be one of P1 to P{players}, got {args.seat!r}", file=err)
        return EXIT_INPUT
    seat = int(seat_text[1:]) - 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    check_agents(args.agents, max(players - 1, 1))
    others = agent_names(args.agents, players - 1)
    names = others[:seat] + ["human"] + others[seat:]
    seeds = random.Random(seed)
    deal_rng = random.Random(seeds.getrandbits(64))
    agent_rng = random.Random(seeds.getrandbits(64))
    agents: list[Any] = make_agents(",".join(n if n != "human" else "random" for n in names), players, agent_rng)
    agents[seat] = HumanAgent(seat, inp, out)
    log = _open_log(args.log) if args.log else None
    writer = RecordWriter(lambda line: _write_line(log, line, flush=True)) if log is not None else None
    print(f"{variant.name}: you are P{seat + 1}; "
          + ", ".join(f"P{p + 1} {names[p]}" for p in range(players) if p != seat)
          + f" (seed {seed})", file=out)
    print(HELP, file=out)
    try:
        if writer is not None:
            writer.header(variant, seed=seed, agents=names, mode="games")
            writer.game(1, seed)
        played = run_game(Game(variant, deal_rng), agents, writer=writer, watcher=TerminalWatcher(seat, out))
    except Quit as leaving:
        print(f"bye: {leaving}", file=out)
        return EXIT_OK
    except KeyboardInterrupt:
        print("\nbye: interrupted", file=out)
        return EXIT_OK
    finally:
        close_agents(agents)
        if log is not None:
            log.close()
    if played.stopped is not None:
        print(f"rummydsl play: {played.stopped}", file=err)
        return EXIT_INPUT
    return EXIT_OK


_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int]] = {
    "check": _cmd_check,
    "explain": _cmd_explain,
    "schema": _cmd_schema,
    "lsp": _cmd_lsp,
    "melds": _cmd_melds,
    "variants": _cmd_variants,
    "simulate": _cmd_simulate,
    "compare": _cmd_lab,
    "sweep": _cmd_lab,
    "replay": _cmd_replay,
    "play": _cmd_play,
    "test": _cmd_test,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
