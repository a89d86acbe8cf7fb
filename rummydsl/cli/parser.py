"""The arguments of every ``rummydsl`` command, parsed apart from running them.

The parser raises instead of exiting (:class:`UsageError`, :class:`ParserExit`), so
:func:`rummydsl.cli.main` returns the exit code. Building it imports only what the
arguments need.
"""

from __future__ import annotations

import argparse
from typing import Callable, NoReturn, Sequence

__all__ = [
    "build_parser",
    "command_of",
    "COMMANDS",
    "UsageError",
    "ParserExit",
    "EXIT_OK",
    "EXIT_INPUT",
    "EXIT_USAGE",
    "EXIT_INTERRUPTED",
]


EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


EXIT_INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C


class UsageError(Exception):
    pass


class ParserExit(Exception):
    """argparse is done before any command runs (``--help``): exit with ``status``."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so ``main`` returns the code."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            raise UsageError(message.rstrip())
        raise ParserExit(status)


def _count(text: str) -> int:
    """A count of at least 1 (``--play N``); anything else is a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of games, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _check(check: argparse.ArgumentParser) -> None:
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


def _explain(explain: argparse.ArgumentParser) -> None:
    explain.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    explain.add_argument("--markdown", action="store_true",
                         help="print Markdown (the pages of docs/rules/ are made this way)")


def _schema(schema: argparse.ArgumentParser) -> None:
    schema.add_argument("--output", "-o", metavar="FILE",
                        help="write the schema to FILE (its $id becomes FILE's URI) instead of printing it")
    schema.add_argument("--strict", action="store_true",
                        help="the schema of a whole merged variant (what check validates), not the editor's")


def _nothing(parser: argparse.ArgumentParser) -> None:
    """A command without arguments (``lsp``, ``variants``)."""


def _melds(melds: argparse.ArgumentParser) -> None:
    melds.add_argument("variant", metavar="VARIANT")
    melds.add_argument("cards", nargs="*", metavar="CARD")
    melds.add_argument("--json", action="store_true", help="print one JSON object")
    melds.add_argument("--batch", action="store_true", help="read one hand a line on stdin, print JSON lines")


def _new(new: argparse.ArgumentParser) -> None:
    new.add_argument("name", metavar="NAME", help="the new variant's id (my_rule): writes NAME.yaml")
    new.add_argument("--from", dest="parent", default="gin_rummy", metavar="VARIANT",
                     help="the variant it extends: a shipped id or a YAML file (default: gin_rummy)")
    new.add_argument("--dir", default=".", metavar="FOLDER", help="where to write it (default: here)")
    new.add_argument("--force", action="store_true", help="overwrite NAME.yaml if it exists")


def _rules(rules: argparse.ArgumentParser) -> None:
    rules.add_argument("what", nargs="?", metavar="ID",
                       help="a variant (its rules), or a rule id (it and its sub-rules); none: every rule")
    rules.add_argument("--full", action="store_true",
                       help="each rule's whole text, not its one-line meaning (the default for a rule id)")
    rules.add_argument("--json", action="store_true",
                       help="print one JSON object: id -> meaning (with --full: id -> whole text)")


def _simulate(simulate: argparse.ArgumentParser) -> None:
    simulate.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    count = simulate.add_mutually_exclusive_group(required=True)
    count.add_argument("--games", type=int, metavar="N", help="play N whole games")
    count.add_argument("--hands", type=int, metavar="N", help="play N single hands (dealers rotate by seat)")
    simulate.add_argument("--seed", type=int, required=True, metavar="S", help="the master seed")
    simulate.add_argument("--players", type=int, metavar="N",
                          help="play with N seats (a count the variant's 'players' allows; default: its count)")
    simulate.add_argument("--agents", default="greedy", metavar="A,B,...",
                          help="one agent a seat, the last repeats: random, greedy, cmd:PROGRAM, "
                               "llm:PROGRAM (default: greedy)")
    where = simulate.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None, metavar="N",
                       help="play in N local processes (default: every CPU, for a run of 64 or more; "
                            "the same results for any N)")
    where.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                       help="play as Ray tasks on the cluster at ADDRESS, or without one on Ray's default "
                            "(RAY_ADDRESS, a local 'ray start' cluster, else a new local instance); the "
                            "same results as local processes; needs pip install 'rummydsl[ray]'")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.add_argument("--report", metavar="FILE.html",
                          help="also write a self-contained HTML report with tables, plots and game quality "
                               "(needs pip install 'rummydsl[report]')")
    simulate.add_argument("--log", metavar="FILE", help="write a JSON-lines record of every game")
    keep = simulate.add_mutually_exclusive_group()
    keep.add_argument("--out", metavar="FILE",
                      help="write each finished game to FILE as it completes (JSON lines), to --resume from")
    keep.add_argument("--resume", metavar="FILE",
                      help="go on with the interrupted run of FILE (written by --out; the same command) "
                           "and append to it")


def _compare(parser: argparse.ArgumentParser) -> None:
    from ..lab.command import add_compare_arguments

    add_compare_arguments(parser)


def _sweep(parser: argparse.ArgumentParser) -> None:
    from ..lab.command import add_sweep_arguments

    add_sweep_arguments(parser)


def _tournament(parser: argparse.ArgumentParser) -> None:
    from ..lab.command import add_tournament_arguments

    add_tournament_arguments(parser)


def _replay(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("record", metavar="FILE")
    replay.add_argument("--variant", metavar="VARIANT", default=None,
                        help="the variant to replay with (a shipped id or a YAML file); without it, "
                             "the shipped variant the record names (a record's file path is never opened)")


def _play(play: argparse.ArgumentParser) -> None:
    play.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")
    play.add_argument("--agents", metavar="A,B,...",
                      help="the other seats' agents, as for simulate (default: greedy)")
    play.add_argument("--seed", type=int, metavar="S", help="the seed (default: a random one, printed)")
    play.add_argument("--seat", metavar="P1", help="your seat (default: P1)")
    play.add_argument("--players", type=int, metavar="N",
                      help="play with N seats (a count the variant's 'players' allows; default: its count)")
    play.add_argument("--log", metavar="FILE", help="write a JSON-lines record of the game")
    play.add_argument("--resume", metavar="FILE",
                      help="go on with a game saved by 'save FILE' (its seats, agents and cards are the "
                           "save's; a save of a game without a person seats you at --seat)")


def _serve(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default="127.0.0.1", metavar="HOST",
                       help="the address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, metavar="PORT",
                       help="the port to listen on (default: 8000; 0: any free port)")


def _test(parser: argparse.ArgumentParser) -> None:
    from ..conformance.command import add_arguments

    add_arguments(parser)


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "check": ("check variant files and report every problem", _check),
    "explain": ("print the rules of a variant in plain words", _explain),
    "schema": ("print the variant JSON Schema (for YAML editors)", _schema),
    "lsp": ("run the language server over stdio (needs the lsp extra: pygls)", _nothing),
    "melds": ("the best arrangement of a hand", _melds),
    "variants": ("list the shipped variants", _nothing),
    "new": ("write a commented house-rule file that builds on a variant", _new),
    "rules": ("rule ids (GR-9.2) with what they say", _rules),
    "simulate": ("play many seeded games and print statistics", _simulate),
    "compare": ("play the same seeds under two or more variants and compare every figure", _compare),
    "sweep": ("play a variant with each value of some keys or options and compare the figures", _sweep),
    "tournament": ("play agents against each other on paired deals and rate them", _tournament),
    "replay": ("play a game record back and verify every result", _replay),
    "play": ("play at the terminal against agents", _play),
    "serve": ("serve the web playground (needs pip install 'rummydsl[web]')", _serve),
    "test": ("run conformance suites (*.suite.yaml)", _test),
}
"""Each subcommand, in the order ``--help`` lists them: its help line and what adds its
arguments (some import the module that owns them: the lab's, the conformance runner's)."""


def command_of(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, or None (no command, ``--help``, an unknown word).

    The top-level parser has only flags (``--version``, ``--help``), so the first word
    that is not a flag is the command.

    >>> command_of(["--version"]), command_of(["check", "variants/"]), command_of(["chek", "x"])
    (None, 'check', None)
    """
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for every subcommand.

    With ``only``, the other subcommands are listed (for ``--help`` and the list of
    choices) without their arguments, so building it imports nothing they need; with
    ``only=""``, none has its arguments (enough for ``rummydsl --help``).
    """
    parser = _Parser(prog="rummydsl", description="A rules language for rummy card games.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for name, (help_line, add_arguments) in COMMANDS.items():
        subparser = commands.add_parser(name, help=help_line)
        if only is None or only == name:
            add_arguments(subparser)
    return parser
