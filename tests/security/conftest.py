"""Helpers for the security tests: run ``main(argv)`` with captured streams."""

from __future__ import annotations

import io

# The hostile corpus holds suites meant to fail or to be refused: they are run by the
# corpus's own test (each as ``rummydsl test F``), never collected as conformance cases.
collect_ignore_glob = ["hostile/*"]


def run(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV`` (no standard input)."""
    from rummydsl.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO())
    return code, out.getvalue(), err.getvalue()
