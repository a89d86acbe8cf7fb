"""``rummydsl check`` (every problem of variant files, each with its line and caret), ``test`` and ``lsp``.

Each imports what it runs when it runs: ``check`` the variant loader (and with
``--play`` the games), ``test`` the conformance runner, ``lsp`` the language server.
"""

from __future__ import annotations

import argparse
import gc
import json
from pathlib import Path
from typing import Iterable, TextIO

from ..errors import Diagnostic, Location
from ..safetext import safe_text
from .parser import EXIT_INPUT, EXIT_OK, EXIT_USAGE

__all__ = [
    "cmd_check",
    "print_diagnostics",
    "cmd_test",
    "cmd_lsp",
]


_SNIPPET_WIDTH = 100


def _variant_files(paths: Iterable[str]) -> tuple[list[Path], list[Diagnostic]]:
    from ..errors import Location
    from ..paths import exists, is_dir

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
            from ..untrusted import named_refusal

            for file in found:
                reason = named_refusal(file, walked=name)  # a link out of the folder: not read
                if reason is not None:
                    problems.append(Diagnostic(Location(str(file)), f"cannot read the file: {reason}", "io"))
                else:
                    files.append(file)
        elif exists(path):
            from ..untrusted import named_refusal

            reason = named_refusal(path)
            if reason is not None:  # a FIFO, a device, /proc, a name not *.yaml: nothing read
                problems.append(Diagnostic(Location(name), f"cannot read the file: {reason}", "io"))
                continue
            files.append(path)
        else:
            problems.append(Diagnostic(Location(name), "no such file or folder", "io"))
    return files, problems


def cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl check``: every problem of the files given (and with ``--play N``, of their games).

    Without ``--play``, Python's cycle collector is paused while the files are read and
    checked (and the loader imported): what a check builds is nearly all kept or freed by
    reference counting, and the collections cost about a tenth of the command's CPU
    (the peak memory of checking every file of tests/security/hostile is the same).
    """
    paused = not args.play and gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _check(args, out, err)
    finally:
        if paused:
            gc.enable()


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..variant import check_file

    if not args.play and (args.seed is not None or args.agents is not None or args.players is not None):
        print("rummydsl check: --seed, --agents and --players choose the games of --play N; give --play too",
              file=err)
        return EXIT_USAGE
    seed = 0 if args.seed is None else args.seed
    agents = "random" if args.agents is None else args.agents
    files, diagnostics = _variant_files(args.paths)
    if args.play:
        from ..simulate import check_agents

        check_agents(agents, len(agents.split(",")))
    for path in files:
        found = check_file(str(path))
        diagnostics.extend(found)
        if args.play and not any(d.severity == "error" for d in found):
            from ..playcheck import play_check

            diagnostics.extend(play_check(str(path), args.play, seed=seed, agents=agents, players=args.players))
    if args.no_warnings:
        diagnostics = [d for d in diagnostics if d.severity == "error"]
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    if args.json:
        json.dump([d.as_json() for d in diagnostics], out, indent=2)
        out.write("\n")
    else:
        print_diagnostics(diagnostics, out, quiet=args.quiet)
        summary = f"{len(files)} file{'s' if len(files) != 1 else ''} checked: "
        summary += f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
        if args.play:
            summary += (f" (played {args.play} game{'s' if args.play != 1 else ''} of each with {agents} "
                        f"agents and 1 with greedy agents, seed {seed})")
        print(summary, file=out)
    return EXIT_INPUT if errors else EXIT_OK


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream: TextIO, quiet: bool) -> None:
    """Print each diagnostic as ``path:line:col: message``, with its source line and a caret unless ``quiet``."""
    from ..variant.load_read import SourceLines

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


def cmd_test(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl test``: run conformance suites (:mod:`rummydsl.conformance.command`)."""
    from ..conformance.command import run

    return run(args, out, err)


def cmd_lsp(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl lsp``: the language server over stdio (needs the ``lsp`` extra)."""
    try:
        from ..lsp.server import serve
    except ImportError as missing:
        print(f"rummydsl lsp: the language server needs pygls ({missing}); install it with "
              "pip install 'rummydsl[lsp]'", file=err)
        return EXIT_INPUT
    serve()
    return EXIT_OK
