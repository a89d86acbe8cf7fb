"""The arguments of every ``rummydsl`` command, parsed apart from running them.

The parser raises instead of exiting (:class:`UsageError`, :class:`ParserExit`), so
:func:`rummydsl.cli.main` returns the exit code. Building it imports only what the
arguments need.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

__all__ = [
    "build_parser",
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

    new = commands.add_parser("new", help="write a commented house-rule file that builds on a variant")
    new.add_argument("name", metavar="NAME", help="the new variant's id (my_rule): writes NAME.yaml")
    new.add_argument("--from", dest="parent", default="gin_rummy", metavar="VARIANT",
                     help="the variant it extends: a shipped id or a YAML file (default: gin_rummy)")
    new.add_argument("--dir", default=".", metavar="FOLDER", help="where to write it (default: here)")
    new.add_argument("--force", action="store_true", help="overwrite NAME.yaml if it exists")

    rules = commands.add_parser("rules", help="rule ids (GR-9.2) with what they say")
    rules.add_argument("what", nargs="?", metavar="ID",
                       help="a variant (its rules), or a rule id (it and its sub-rules); none: every rule")
    rules.add_argument("--full", action="store_true",
                       help="each rule's whole text, not its one-line meaning (the default for a rule id)")
    rules.add_argument("--json", action="store_true",
                       help="print one JSON object: id -> meaning (with --full: id -> whole text)")

    simulate = commands.add_parser("simulate", help="play many seeded games and print statistics")
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
    simulate.add_argument("--log", metavar="FILE", help="write a JSON-lines record of every game")
    keep = simulate.add_mutually_exclusive_group()
    keep.add_argument("--out", metavar="FILE",
                      help="write each finished game to FILE as it completes (JSON lines), to --resume from")
    keep.add_argument("--resume", metavar="FILE",
                      help="go on with the interrupted run of FILE (written by --out; the same command) "
                           "and append to it")

    from ..lab.command import add_compare_arguments, add_sweep_arguments, add_tournament_arguments

    add_compare_arguments(commands.add_parser(
        "compare", help="play the same seeds under two or more variants and compare every figure"))
    add_sweep_arguments(commands.add_parser(
        "sweep", help="play a variant with each value of some keys or options and compare the figures"))
    add_tournament_arguments(commands.add_parser(
        "tournament", help="play agents against each other on paired deals and rate them"))

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

    serve = commands.add_parser("serve", help="serve the web playground (needs pip install 'rummydsl[web]')")
    serve.add_argument("--host", default="127.0.0.1", metavar="HOST",
                       help="the address to listen on (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, metavar="PORT",
                       help="the port to listen on (default: 8000; 0: any free port)")

    from ..conformance.command import add_arguments as test_arguments

    test_arguments(commands.add_parser("test", help="run conformance suites (*.suite.yaml)"))
    return parser
