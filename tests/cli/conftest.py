"""Helpers for the command-line tests: run ``main(argv)`` with captured streams."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV``."""
    out, err = io.StringIO(), io.StringIO()
    from rummydsl.cli import main

    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
