"""``rummydsl test``: run suites, report failures, count, and (``--coverage``) what no case cites."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import TextIO

from ..errors import SuiteError, VariantError
from ..paths import is_file
from ..untrusted import open_regular
from .runner import CaseResult, run_case
from .suite import Case, find_suites, load_suite

__all__ = ["add_arguments", "run", "select", "find_rules_file", "rules_files", "FAMILY_RULES"]

FAMILY_RULES = "RULES-FAMILY.md"
"""The rules of the wider family, read with RULES.md when ``--coverage`` names no file."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``rummydsl test``."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="suite files, or folders of *.suite.yaml")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-k", dest="keyword", metavar="EXPR",
                        help="run only cases whose id, rule ids or tags match (words with and, or, not)")
    parser.add_argument("--coverage", nargs="?", const="", action="append", metavar="RULES.md",
                        help="also list the rule ids and option values no case cites (RULES.md and "
                             "RULES-FAMILY.md found beside the suites or in ../shared when not given; "
                             "give the flag again for more rules files)")
    parser.add_argument("--mutants", action="store_true",
                        help="measure the suites' strength: run them against one-change copies of their "
                             "variant and list the changes no case notices")
    parser.add_argument("-q", "--quiet", action="store_true", help="only failures and the count")


def select(expression: str, case: Case) -> bool:
    """Whether ``case`` matches a ``-k`` expression (case-insensitive substrings, and/or/not, brackets).

    >>> from rummydsl.errors import Location
    >>> case = Case("gr15-knock", "script", {"rule": "GR-15", "tags": ["example"]}, Location("s"), "v", "s")
    >>> select("gr15 and not undercut", case), select("SK-11 or example", case), select("undercut", case)
    (True, True, False)
    """
    haystack = " ".join([case.id, *case.rules, *case.tags, *case.options]).lower()
    tokens = re.findall(r"\(|\)|[^\s()]+", expression)
    at = 0

    def peek() -> str | None:
        return tokens[at] if at < len(tokens) else None

    def take() -> str:
        nonlocal at
        if at >= len(tokens):
            raise ValueError("the expression ends too soon")
        at += 1
        token: str = tokens[at - 1]
        return token

    def either() -> bool:
        value = both()
        while peek() == "or":
            take()
            value = both() or value
        return value

    def both() -> bool:
        value = negated()
        while peek() == "and":
            take()
            value = negated() and value
        return value

    def negated() -> bool:
        if peek() == "not":
            take()
            return not negated()
        token = take()
        if token == "(":
            value = either()
            if take() != ")":
                raise ValueError("a '(' is not closed")
            return value
        if token in ("and", "or", ")"):
            raise ValueError(f"unexpected {token!r}")
        return token.lower() in haystack

    value = either()
    if at != len(tokens):
        raise ValueError(f"unexpected {tokens[at]!r}")
    return value


def find_rules_file(suite_paths: list[str]) -> Path | None:
    """RULES.md in the current folder, or in a ``shared`` folder beside a parent of a suite."""
    candidates = [Path("RULES.md"), Path("../shared/RULES.md")]
    for name in suite_paths:
        for parent in Path(name).resolve().parents:
            candidates.append(parent / "shared" / "RULES.md")
    return next((path for path in candidates if is_file(path)), None)


def rules_files(given: list[str], suite_paths: list[str]) -> list[Path] | None:
    """The rules documents ``--coverage`` reads: the files given (the flag may be given
    more than once); a bare ``--coverage`` adds RULES.md as :func:`find_rules_file` finds
    it and RULES-FAMILY.md beside it, if there. None when a bare flag finds no RULES.md."""
    files = [Path(name) for name in given if name]
    if "" in given or not given:
        found = find_rules_file(suite_paths)
        if found is None:
            return None
        files.append(found)
        family = found.with_name(FAMILY_RULES)
        if is_file(family):
            files.append(family)
    return list(dict.fromkeys(files))


def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the suites named in ``args``; 0 if every case passes, 1 otherwise."""
    if args.keyword is not None:
        try:
            select(args.keyword, Case("x", "meld", {}, None, "", ""))  # type: ignore[arg-type]
        except ValueError as problem:
            print(f"rummydsl test: bad -k expression {args.keyword!r}: {problem}", file=err)
            return 2
    files = find_suites(args.paths)
    cases: list[Case] = []
    broken = 0
    for path in files:
        try:
            suite = load_suite(path)
        except SuiteError as problem:
            broken += 1
            for diagnostic in problem.diagnostics:
                print(diagnostic, file=err)
            continue
        cases.extend(case for case in suite.cases if args.keyword is None or select(args.keyword, case))
    if args.mutants:
        return _mutants(files, cases, out, err, broken)
    results: list[CaseResult] = [run_case(case) for case in cases]
    passed = sum(r.status == "passed" for r in results)
    failed = sum(r.status == "failed" for r in results)
    skipped = sum(r.status == "skipped" for r in results)
    report = None
    if args.coverage is not None:
        from .coverage import coverage

        chosen = rules_files(args.coverage, files)
        if chosen is None:
            print("rummydsl test: --coverage needs RULES.md: give its path", file=err)
            return 2
        texts = []
        for rules_file in chosen:
            if not is_file(rules_file):
                print(f"rummydsl test: --coverage: no file {str(rules_file)!r}", file=err)
                return 2
            try:
                with open_regular(rules_file) as handle:  # never a FIFO, device or /proc entry
                    texts.append(handle.read().decode("utf-8"))
            except (OSError, UnicodeDecodeError) as problem:
                reason = (getattr(problem, "strerror", None) or str(problem)) if isinstance(problem, OSError) \
                    else "it is not UTF-8 text"
                print(f"rummydsl test: --coverage cannot read {str(rules_file)!r}: {reason}", file=err)
                return 2
        rules_text = "\n".join(texts)
        all_cases = [case for path in files for case in _cases_of(path)]
        report = coverage(rules_text, all_cases)
    if args.json:
        payload = {
            "passed": passed, "failed": failed, "skipped": skipped, "broken_suites": broken,
            "cases": [r.as_json() for r in results],
        }
        if report is not None:
            payload["coverage"] = {"missing_rules": list(report.missing_rules),
                                   "missing_options": list(report.missing_options),
                                   "unknown_rules": list(report.unknown_rules)}
        print(json.dumps(payload, indent=1), file=out)
    else:
        for result in results:
            if result.status == "failed" or (result.status == "skipped" and not args.quiet):
                print(result.report(), file=out)
        if report is not None:
            print(report.report(), file=out)
        line = f"{passed} passed, {failed} failed"
        if skipped:
            line += f", {skipped} skipped"
        if broken:
            print(f"{broken} suite file{'s' if broken != 1 else ''} could not be read", file=out)
        print(line, file=out)
    return 0 if failed == 0 and broken == 0 and files else 1


def _mutants(files: list[str], cases: list[Case], out: TextIO, err: TextIO, broken: int) -> int:
    """``--mutants``: per variant, the one-thing changes that no case notices."""
    from .mutants import report, run_mutants

    by_variant: dict[str, list[Case]] = {}
    for case in cases:
        if not case.own_variant:  # a case with its own house rule tests that file, not the suite's variant
            by_variant.setdefault(case.variant, []).append(case)
    survivors = 0
    for variant, mine in by_variant.items():
        try:
            results = run_mutants(variant, mine)
        except VariantError as problem:
            print(f"rummydsl test: {variant}: {problem}", file=err)
            return 1
        name = Path(variant).name if "/" in variant else variant
        print(f"{name} ({len(mine)} cases)", file=out)
        for line in report(results):
            print(f"  {line}", file=out)
        survivors += sum(r.status == "survived" for r in results)
    return 0 if survivors == 0 and broken == 0 and files else 1


def _cases_of(path: str) -> list[Case]:
    try:
        return list(load_suite(path).cases)
    except SuiteError:
        return []
