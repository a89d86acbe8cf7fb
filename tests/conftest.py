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

import gc
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

# The cycle collector's young generation is collected every 10,000 new containers, not every
# 700 (the older ones every 10 of those, as before): a test run keeps hundreds of thousands of
# long-lived objects (strategies, loaded variants, solvers' memos) that each older collection
# walked again. What collection made (the test modules, their imports) is frozen out of the
# collector once it is done (pytest_collection_finish), as the rummydsl script and the hostile
# corpus's fork server do. Garbage in cycles is still collected, in bigger batches
# (docs/performance.md, "The collector, the deck tables").
GC_THRESHOLDS = (10_000, 10, 10)  # (50,000, 20, 20) walked more: the meld tests' memos
gc.set_threshold(*GC_THRESHOLDS)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


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


# ---------------------------------------------------------------------------- deck tables, once a run

SHARED_TABLE_FROM = 20_000
"""A deck table of at least this many melds is written for the run's other workers (Contract
Rummy's two packs: 165,855 melds, about 3.5 s of CPU to list, 0.15 s to load); a smaller one
is listed by each worker (milliseconds)."""


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, the controller makes a private folder where a worker that lists a big deck
    table leaves it for the others (see :func:`_deck_tables_shared`)."""
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return
    if getattr(config.option, "numprocesses", None) in (None, 0):
        return
    folder = tempfile.mkdtemp(prefix="rummydsl-deck-tables-")
    config.stash[_TABLE_FOLDER] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_TABLE_FOLDER, None)
    if folder is not None and not hasattr(config, "workerinput"):
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: object) -> None:
    """xdist's hook, on the controller for each worker: the folder of the run's deck tables."""
    folder = node.config.stash.get(_TABLE_FOLDER, None)  # type: ignore[attr-defined]
    if folder is not None:
        node.workerinput["rummydsl_deck_tables"] = folder  # type: ignore[attr-defined]


_TABLE_FOLDER = pytest.StashKey[str]()


class _NoText(Exception):
    """A deck table's key holds a value with no canonical text here: not shared."""


def _canonical(value: object) -> str:
    """A text of a deck table's key (``decktable._table_key``) that two keys share exactly
    when they are equal: numbers, strings, tuples and lists by type and value, a dataclass by
    its class and the fields it compares on. Anything else raises :class:`_NoText`."""
    import dataclasses

    if value is None or type(value) in (bool, int, float, str):
        return repr(value)
    if type(value) in (tuple, list):
        return f"{type(value).__name__}({','.join(_canonical(v) for v in value)})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and value.__dataclass_params__.eq:  # type: ignore[attr-defined]
        cls = type(value)
        parts = ",".join(f"{f.name}={_canonical(getattr(value, f.name))}" for f in dataclasses.fields(value) if f.compare)
        return f"{cls.__module__}.{cls.__qualname__}({parts})"
    raise _NoText(type(value).__name__)


@pytest.fixture(scope="session", autouse=True)
def _deck_tables_shared(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each xdist worker listed every deck table it used for itself, and Contract Rummy's (two
    packs) is about 3.5 s of CPU a worker. Here the first worker to need a big table lists it,
    under a lock on its key, and leaves it in the run's folder; a worker that needs it later
    (or waits on the lock meanwhile) loads it. A table is a function of its key (the deck, the
    kinds' patterns, the card values: what the process's own cache of tables is keyed by), and
    the key is written out whole (:func:`_canonical`), so a worker gets the very table it would
    have listed. Outside xdist, or with a key not written out, tables are listed as before;
    the folder is made for each run (never a table of an earlier run or tree)."""
    folder = getattr(request.config, "workerinput", {}).get("rummydsl_deck_tables")
    try:
        from rummydsl.melds import decktable

        listing = decktable._melds_by_lowest
        key_of = decktable._table_key
    except (ImportError, AttributeError):  # the module changed: tables listed by each worker
        folder = None
    try:
        import fcntl  # POSIX only: elsewhere each worker lists its own tables
    except ImportError:
        folder = None
    if not folder:
        yield
        return
    import hashlib
    import pickle

    def shared(core: object) -> object:
        key = key_of(core)  # type: ignore[arg-type]
        try:
            text = None if key is None else _canonical(key)
        except _NoText:
            text = None
        if text is None:  # a kind without source text (its solver's own table) or a key not written out
            return listing(core)  # type: ignore[arg-type]
        name = Path(folder) / hashlib.sha256(text.encode()).hexdigest()
        with open(f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released on close; another worker listing it waits
            try:
                with open(f"{name}.pickle", "rb") as kept:
                    saved_text, table = pickle.load(kept)
                if saved_text == text:
                    return table
            except FileNotFoundError:
                pass
            table = listing(core)  # type: ignore[arg-type]
            if table is None or sum(map(len, table)) >= SHARED_TABLE_FROM:  # None: past the limit
                part = Path(f"{name}.{os.getpid()}.part")
                part.write_bytes(pickle.dumps((text, table), protocol=pickle.HIGHEST_PROTOCOL))
                os.replace(part, f"{name}.pickle")
            return table

    decktable._melds_by_lowest = shared  # build() reads the name at each call
    yield
    decktable._melds_by_lowest = listing
