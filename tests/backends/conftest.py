"""Fixtures of the backend tests: a small local Ray instance, started once a module."""

from __future__ import annotations

import io
import json
import logging
from typing import Iterator

import pytest


def run(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV`` (as tests/cli do)."""
    from rummydsl.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


def without_time(text: str) -> dict[str, object]:
    """``simulate --json`` output less ``seconds``, the one figure that may differ."""
    figures = json.loads(text)
    figures.pop("seconds")
    assert isinstance(figures, dict)
    return figures


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """A local Ray instance of 2 CPUs on the loopback address, quiet, without a dashboard.

    Skips where Ray is not installed (CI installs it: ``pip install '.[test,ray]'``).
    """
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'rummydsl[ray]')")
    if ray.is_initialized():  # pragma: no cover - another module's instance left running
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False,
             object_store_memory=100 * 1024 * 1024, _node_ip_address="127.0.0.1")
    try:
        yield
    finally:
        ray.shutdown()
