"""The examples in docstrings run: every module of the installed package."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rummydsl

MODULES = sorted(["rummydsl"] + [m.name for m in pkgutil.walk_packages(rummydsl.__path__, "rummydsl.")
                                 if not m.name.startswith(("rummydsl.spec", "rummydsl.variants"))])


#: Modules that need an optional extra: skipped where it is not installed (the rl extra).
NEEDS = {"rummydsl.envs.pettingzoo": "pettingzoo", "rummydsl.envs.gymnasium": "gymnasium",
         "rummydsl.envs.openspiel": "pyspiel", "rummydsl.envs.pzgin": "pettingzoo"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
