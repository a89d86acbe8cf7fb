"""The ``rummydsl`` command line: parse arguments apart from executing them.

Exit codes (DESIGN.md): 0 fine, 1 the input is wrong, 2 usage error. The library
never prints; this package renders results as text or JSON.

Start-up stays cheap: importing it loads only the errors, the safe text and the
parser; the parser gives only the command named its arguments (``check`` builds no lab
flags), and each command's module is imported when it runs, then imports what it needs
(tests/cli/test_imports.py holds ``check`` to that). The package:
:mod:`~rummydsl.cli.parser` (the arguments), :mod:`~rummydsl.cli.check` (``check``,
``test``, ``lsp``), :mod:`~rummydsl.cli.rules` (``explain``, ``schema``, ``variants``,
``melds``), :mod:`~rummydsl.cli.new` (``new``, ``rules``), :mod:`~rummydsl.cli.runs` (``simulate``, ``compare``, ``sweep``,
``replay``), :mod:`~rummydsl.cli.play` and :mod:`~rummydsl.cli.serve`; ``python -m rummydsl.cli`` runs
:func:`main` (``__main__.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import sys
from typing import Callable, NoReturn, Sequence, TextIO, cast

from ..errors import RummyDslError, VariantError
from ..safetext import SafeStream
from .parser import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    ParserExit,
    UsageError,
    build_parser,
    command_of,
)

__all__ = [
    "main",
    "run",
    "build_parser",
]


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
    words = list(sys.argv[1:] if argv is None else argv)
    try:
        with contextlib.redirect_stdout(out):  # where argparse prints --help
            # Only the command given gets its arguments: `check` builds no lab flags.
            args = build_parser(only=command_of(words) or "").parse_args(words)
    except UsageError as usage:
        print(usage, file=err)
        print("try 'rummydsl --help'", file=err)
        return EXIT_USAGE
    except ParserExit as done:
        return done.status
    if args.version:
        from .. import __version__

        print(f"rummydsl {__version__}", file=out)
        return EXIT_OK
    if not args.command:
        build_parser(only="").print_help(out)
        return EXIT_USAGE
    try:
        # Ray prints its cluster's messages to sys.stdout: moved to standard error while a
        # --ray command runs, when sys.stdout is where the command's output goes.
        if getattr(args, "ray", None) is None or (stdout is not None and stdout is not sys.stdout):
            return _handler(args.command)(args, out, err, inp)
        from .runs import ray_messages_to

        with ray_messages_to(err):
            return _handler(args.command)(args, out, err, inp)
    except VariantError as problem:
        from .check import print_diagnostics

        print_diagnostics(problem.diagnostics, err, quiet=False)
        return EXIT_INPUT
    except RummyDslError as problem:
        print(f"rummydsl {args.command}: {problem}", file=err)
        return EXIT_INPUT
    except BrokenPipeError:  # e.g. `rummydsl explain x | head`
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C during a long simulate: a line, not a traceback
        print(f"rummydsl {args.command}: interrupted", file=err)
        return EXIT_INTERRUPTED


def run() -> NoReturn:
    """The ``rummydsl`` script (and ``python -m rummydsl.cli``): :func:`main` on the
    process's arguments and streams, then exit with its code.

    Before the exit, the objects left are put out of the cycle collector's reach
    (``gc.freeze``): the collection Python makes while it shuts down would walk every
    object the command imported and built, only for the process to end (about a quarter
    of the CPU of ``rummydsl check variants/``). Files, logs and Ray are closed by the
    commands themselves before they return.
    """
    code = main()
    gc.freeze()
    sys.exit(code)


_COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("check", "cmd_check"),
    "explain": ("rules", "cmd_explain"),
    "schema": ("rules", "cmd_schema"),
    "lsp": ("check", "cmd_lsp"),
    "melds": ("rules", "cmd_melds"),
    "variants": ("rules", "cmd_variants"),
    "new": ("new", "cmd_new"),
    "rules": ("new", "cmd_rules"),
    "simulate": ("runs", "cmd_simulate"),
    "compare": ("runs", "cmd_lab"),
    "sweep": ("runs", "cmd_lab"),
    "tournament": ("runs", "cmd_lab"),
    "replay": ("runs", "cmd_replay"),
    "play": ("play", "cmd_play"),
    "test": ("check", "cmd_test"),
    "serve": ("serve", "cmd_serve"),
}
"""Each command's module in this package and its function, imported when it runs."""


def _handler(command: str) -> Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int]:
    module, function = _COMMANDS[command]
    handler: Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int] = getattr(
        importlib.import_module(f"{__name__}.{module}"), function)
    return handler
