"""The ``rummydsl`` command line: parse arguments apart from executing them.

Exit codes (DESIGN.md): 0 fine, 1 the input is wrong, 2 usage error. The library
never prints; this module renders results as text or JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable, Iterable, NoReturn, Sequence, TextIO

from .errors import CardError, Diagnostic, RummyDslError, VariantError

__all__ = ["main", "build_parser"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2
_SNIPPET_WIDTH = 100


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so ``main`` returns the code."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{self.prog}: {message}")


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

    explain = commands.add_parser("explain", help="print the rules of a variant in plain words")
    explain.add_argument("variant", metavar="VARIANT", help="a shipped variant id or a YAML file")

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

    from .conformance.command import add_arguments as test_arguments

    test_arguments(commands.add_parser("test", help="run conformance suites (*.suite.yaml)"))
    return parser


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run the command line; returns the exit code instead of exiting."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    inp = stdin if stdin is not None else sys.stdin
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except _UsageError as usage:
        print(usage, file=err)
        print("try 'rummydsl --help'", file=err)
        return EXIT_USAGE
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


# -- check --------------------------------------------------------------------

def _variant_files(paths: Iterable[str]) -> tuple[list[Path], list[Diagnostic]]:
    from .errors import Location

    files: list[Path] = []
    problems: list[Diagnostic] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
            if not found:
                problems.append(Diagnostic(Location(name), "no .yaml files in this folder", "io"))
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            problems.append(Diagnostic(Location(name), "no such file or folder", "io"))
    return files, problems


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    from .variant import check_file

    files, diagnostics = _variant_files(args.paths)
    for path in files:
        diagnostics.extend(check_file(str(path)))
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
        print(summary, file=out)
    return EXIT_INPUT if errors else EXIT_OK


def _print_diagnostics(diagnostics: Iterable[Diagnostic], stream: TextIO, quiet: bool) -> None:
    from .variant import source_line

    for diagnostic in diagnostics:
        print(str(diagnostic), file=stream)
        if quiet or not diagnostic.location.line:
            continue
        line = diagnostic.snippet or source_line(diagnostic.location.path, diagnostic.location.line)
        if line is None:
            continue
        line = line.rstrip("\n").expandtabs(1)
        column = max(diagnostic.location.column, 1)
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
    out.write(explain(variant))
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
    from .melds import MeldRules, melds_report
    from .variant import load_variant

    variant = load_variant(args.variant)
    rules = MeldRules.from_variant(variant)
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
    report = melds_report(rules, args.cards, variant.deal.hand_size)
    if args.json:
        out.write(json.dumps(report) + "\n")
    else:
        _print_melds(report, out)
    return EXIT_OK


def _print_melds(report: dict[str, object], out: TextIO) -> None:
    melds = report.get("melds") or []
    assert isinstance(melds, list)
    for meld in melds:
        print("meld:      " + " ".join(meld), file=out)
    unmatched = report.get("unmatched") or []
    assert isinstance(unmatched, list)
    print("unmatched: " + (" ".join(unmatched) if unmatched else "-"), file=out)
    print(f"deadwood:  {report['deadwood']}", file=out)
    print(f"contract:  {'met' if report.get('contract') else 'not met'}", file=out)
    if "best_discard" in report:
        print(f"best discard: {report['best_discard']} (deadwood after: {report['deadwood_after_discard']})",
              file=out)


_COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int]] = {
    "check": _cmd_check,
    "explain": _cmd_explain,
    "schema": _cmd_schema,
    "lsp": _cmd_lsp,
    "melds": _cmd_melds,
    "variants": _cmd_variants,
    "test": _cmd_test,
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
