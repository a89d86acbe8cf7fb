"""The ``rummydsl`` command line: parse arguments apart from executing them.

Exit codes (DESIGN.md): 0 fine, 1 the input is wrong, 2 usage error. The library
never prints; this package renders results as text or JSON.

Start-up stays cheap: importing it loads only the errors, the safe text and these small
modules; each command imports what it needs when it runs. The package:
:mod:`~rummydsl.cli.parser` (the arguments), :mod:`~rummydsl.cli.check` (``check``,
``test``, ``lsp``), :mod:`~rummydsl.cli.rules` (``explain``, ``schema``, ``variants``,
``melds``), :mod:`~rummydsl.cli.new` (``new``, ``rules``), :mod:`~rummydsl.cli.runs` (``simulate``, ``compare``, ``sweep``,
``replay``), :mod:`~rummydsl.cli.play` and :mod:`~rummydsl.cli.serve`; ``python -m rummydsl.cli`` runs
:func:`main` (``__main__.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Callable, Sequence, TextIO, cast

from ..errors import RummyDslError, VariantError
from ..safetext import SafeStream
from .check import cmd_check, cmd_lsp, cmd_test, print_diagnostics
from .parser import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, ParserExit, UsageError, build_parser
from .new import cmd_new, cmd_rules
from .play import cmd_play
from .rules import cmd_explain, cmd_melds, cmd_schema, cmd_variants
from .runs import cmd_lab, cmd_replay, cmd_simulate
from .serve import cmd_serve

__all__ = [
    "main",
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
    try:
        with contextlib.redirect_stdout(out):  # where argparse prints --help
            args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
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
        build_parser().print_help(out)
        return EXIT_USAGE
    handler: Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int] = _COMMANDS[args.command]
    try:
        return handler(args, out, err, inp)
    except VariantError as problem:
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


_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int]] = {
    "check": cmd_check,
    "explain": cmd_explain,
    "schema": cmd_schema,
    "lsp": cmd_lsp,
    "melds": cmd_melds,
    "variants": cmd_variants,
    "new": cmd_new,
    "rules": cmd_rules,
    "simulate": cmd_simulate,
    "compare": cmd_lab,
    "sweep": cmd_lab,
    "tournament": cmd_lab,
    "replay": cmd_replay,
    "play": cmd_play,
    "test": cmd_test,
    "serve": cmd_serve,
}
