"""The examples in docstrings run: every module of the installed package."""

from __future__ import annotations

import doctest
import importlib
import linecache
import pkgutil

import pytest

import rummydsl

MODULES = sorted(["rummydsl"] + [m.name for m in pkgutil.walk_packages(rummydsl.__path__, "rummydsl.")
                                 if not m.name.startswith(("rummydsl.spec", "rummydsl.variants"))])


#: Modules that need an optional extra: skipped where it is not installed (the rl extra).
NEEDS = {"rummydsl.envs.pettingzoo": "pettingzoo", "rummydsl.envs.gymnasium": "gymnasium",
         "rummydsl.envs.openspiel": "pyspiel", "rummydsl.envs.pzgin": "pettingzoo"}


@pytest.fixture
def own_line_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty ``linecache`` for the test, the process's put back after it. doctest's
    runner resets its debugger before each docstring's examples, and the reset
    (``bdb.Bdb.reset``) checks every file the cache holds against the disk: in one process
    that ran many tests, the source of every module tested before (the finder reads each
    module's through the cache) and more, a ``stat`` each, about a quarter of this file's
    time. With its own cache a test checks the few files it read itself; a fresh cache is
    never stale, so every example runs as before."""
    monkeypatch.setattr(linecache, "cache", {})


@pytest.mark.usefixtures("own_line_cache")
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
