"""Helpers for the tests of rummydsl.llm: run ``rummydsl ARGV`` in-process."""

from __future__ import annotations

import io


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV`` (``main(argv)`` with captured streams)."""
    out, err = io.StringIO(), io.StringIO()
    from rummydsl.cli import main

    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()
