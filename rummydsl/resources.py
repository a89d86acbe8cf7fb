"""Where the shipped data lives: the spec/ files and the variants/ folder.

The repository keeps ``spec/`` and ``variants/`` at its top level (they are the
normative language and the shipped games, read by people and other tools). The
wheel carries them as the packages ``rummydsl.spec`` and ``rummydsl.variants`` (see
``[tool.setuptools.package-dir]`` in pyproject.toml), so a plain ``pip install .``
finds them. A source checkout on ``sys.path`` without an install falls back to the
folders beside the package.
"""

from __future__ import annotations

import importlib.resources
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path

__all__ = ["spec_file", "read_spec_text", "variants_dir"]

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def _resource_dir(package: str, folder: str) -> Traversable:
    try:
        root = importlib.resources.files(package)
        if root.is_dir():
            return root
    except ModuleNotFoundError:
        pass
    return _SOURCE_ROOT / folder


def spec_file(name: str) -> Traversable:
    """The file ``name`` of spec/ (``variant.schema.json``, ``expr.lark``, ...)."""
    return _resource_dir("rummydsl.spec", "spec") / name


@lru_cache(maxsize=None)
def read_spec_text(name: str) -> str:
    """The text of a spec/ file, read once per process."""
    return spec_file(name).read_text(encoding="utf-8")


def variants_dir() -> Traversable:
    """The folder of shipped variant files."""
    return _resource_dir("rummydsl.variants", "variants")
