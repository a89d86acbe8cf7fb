"""Helpers for the lab tests: run ``main(argv)`` with captured streams, and refuse play."""

from __future__ import annotations

import io

import pytest


def run(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV``."""
    from rummydsl.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def no_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any game is played (errors must come before the first game)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the error was reported")

    monkeypatch.setattr("rummydsl.lab.run.run_tasks", refuse)
