"""Helpers for the security tests: run ``main(argv)`` with captured streams."""

from __future__ import annotations

import io

# The hostile corpus is run by its own runner (tests/security/test_hostile_corpus.py),
# never collected as suites by the rummydsl pytest plugin: its suites are meant to fail.
collect_ignore = ["hostile"]


def run(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV`` (no standard input)."""
    from rummydsl.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO())
    return code, out.getvalue(), err.getvalue()
