"""Fixtures of the backend tests: a small local Ray instance, started once a module."""

from __future__ import annotations

import io
import json
import logging
import os
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
def ray_instance() -> Iterator[object]:
    """A local Ray instance of 2 CPUs, quiet, started as ``--ray`` without an address starts
    one (:class:`rummydsl.backends.RayBackend`: loopback only, a private folder, a token);
    the backend that started it is the fixture's value.

    Skips where Ray is not installed (CI installs it: ``pip install '.[test,ray]'``).
    """
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'rummydsl[ray]')")
    from rummydsl.backends import RayBackend

    if ray.is_initialized():  # pragma: no cover - another module's instance left running
        ray.shutdown()
    backend = RayBackend(init_options={"num_cpus": 2, "logging_level": logging.ERROR, "log_to_driver": False,
                                       "object_store_memory": 100 * 1024 * 1024})
    saved = {name: os.environ.get(name) for name in ("RAY_ADDRESS",)}
    os.environ.pop("RAY_ADDRESS", None)  # a new local instance, whatever the machine runs
    try:
        backend.cpus()  # starts it
        yield backend
    finally:
        backend.close()
        for name, value in saved.items():
            if value is not None:
                os.environ[name] = value
