"""Test-wide settings.

Under CI (the environment variable CI is set, as `.ci/run` is run) hypothesis draws
the same examples on every run, so a landing never depends on luck; locally the
examples are random, and a failure found there is kept in .hypothesis/ and replayed.

Where ``PYTHONDONTWRITEBYTECODE`` is set, every process of the run (each xdist worker,
each ``rummydsl`` the tests start, their worker processes) would compile the package
from source again and pytest would rewrite every test module's asserts again: the
bytecode goes to a private folder of the temporary directory instead
(``PYTHONPYCACHEPREFIX``), still nothing beside the sources (see docs/performance.md,
"The test suite's cost").
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest


def _bytecode_out_of_the_tree() -> None:
    """Keep compiled modules in ``$TMPDIR/rummydsl-test-bytecode-UID`` (made private to
    this user, else not used) when the environment says not to write them beside the
    sources; a prefix already chosen is kept."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX") or not hasattr(os, "getuid"):
        return
    folder = Path(tempfile.gettempdir()) / f"rummydsl-test-bytecode-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return  # not this user's alone: compile as the environment asked
    sys.pycache_prefix = str(folder)
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)  # the processes the tests start
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_bytecode_out_of_the_tree()

# imported only now, so that its modules (pytest rewrites the asserts of a plugin's package) are
# compiled once into the folder above rather than again in every process
from hypothesis import settings  # noqa: E402

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# pytester runs the pytest plugin (rummydsl.conformance.plugin) in a sandboxed session.
pytest_plugins = ["pytester"]


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # xdist's hook: before xdist's own answer
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """Under ``--dist loadgroup`` (the README's command), each test file goes to one worker.

    pytest-xdist (3.8 and before) marks a test's group by writing ``item._nodeid``, which
    pytest 9.2's nodes no longer read (their id is ``item._id``): so every ``xdist_group``
    was lost, each test was a unit of its own, and the two workers took every file's tests in
    turn. Each then made every module's fixtures (the hostile corpus's fork server, Chromium
    and the playground's server, Ray, the language server, the lab's runs played through)
    and warmed every cache its tests fill (deck tables, loaded variants, the solver's memos)
    for itself. Every ``xdist_group`` of the suite is a whole module's (``pytestmark``), so
    xdist's file scheduler keeps each group on one worker with any pytest, and the rest of a
    file with it (docs/performance.md, "The workers' own cost"). Other ``--dist`` modes are
    xdist's own."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadFileScheduling  # type: ignore[import-untyped]

    return LoadFileScheduling(config, log)


@pytest.fixture
def small_meld_work_bound(monkeypatch: pytest.MonkeyPatch) -> int:
    """The meld solver's work bound (:data:`rummydsl.limits.MAX_MELD_WORK`) lowered to
    :data:`SMALL_MELD_WORK` in every loaded ``rummydsl`` module that holds it (each reads its
    own global at run time), for tests of what happens *at* the bound: an exploding pattern
    reaches it in a fortieth of the work and the same place (candidate listing of the
    exploding kind), so the error, its location and how play stops are the same. The bound
    itself is held at its real value by tests/unit/test_limits.py's ``test_meld_work_bound``."""
    import importlib
    import pkgutil

    import rummydsl.melds
    from rummydsl import limits

    for info in pkgutil.iter_modules(rummydsl.melds.__path__, "rummydsl.melds."):
        importlib.import_module(info.name)  # the solver's modules, loaded before they are patched
    real = limits.MAX_MELD_WORK
    for name, module in list(sys.modules.items()):
        if (name == "rummydsl" or name.startswith("rummydsl.")) and getattr(module, "MAX_MELD_WORK", None) == real:
            monkeypatch.setattr(module, "MAX_MELD_WORK", SMALL_MELD_WORK)
    return SMALL_MELD_WORK


SMALL_MELD_WORK = 10_000
"""What :func:`small_meld_work_bound` lowers the bound to: far above what a hand of set and
run candidates takes (a few hundred), far below an exploding kind's every odd subset of a
19-card hand (2 ** 18)."""


@pytest.fixture(scope="session", autouse=True)
def _one_parser_a_command() -> Iterator[None]:
    """:func:`rummydsl.cli.main` builds its argument parser at every call (the command's
    arguments only: 3 to 5 ms of CPU), and the in-process tests call it thousands of times.
    Here each parser is built once a session for each ``only`` and reused: argparse parses
    without changing its parser (no mutable default in ``rummydsl.cli.parser``, lab's and the
    conformance runner's ``append`` options copy their lists), and help is laid out for the
    terminal when printed. ``build_parser`` itself is unchanged and held to the whole
    parser by tests/cli/test_imports.py; a command's own start-up is judged there in fresh
    processes (docs/performance.md, "Security, Match and command-line tests, tenth pass")."""
    import rummydsl.cli as cli
    from rummydsl.cli.parser import build_parser

    built: dict[str | None, object] = {}

    def once(only: str | None = None) -> object:
        if only not in built:
            built[only] = build_parser(only=only)
        return built[only]

    cli.build_parser = once  # type: ignore[assignment]  # main reads the name at each call
    yield
    cli.build_parser = build_parser
