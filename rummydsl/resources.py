"""Where the shipped data lives: the spec/ files and the variants/ folder.

The repository keeps ``spec/`` and ``variants/`` at its top level (they are the
normative language and the shipped games, read by people and other tools). The
wheel carries them as the packages ``rummydsl.spec`` and ``rummydsl.variants`` (see
``[tool.setuptools.package-dir]`` in pyproject.toml), so a plain ``pip install .``
finds them. A source checkout on ``sys.path`` without an install falls back to the
folders beside the package.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

__all__ = ["spec_file", "read_spec_text", "variants_dir"]

_SOURCE_ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def _resource_dir(package: str, folder: str) -> Path:
    # The data folders have no __init__.py, so they are namespace packages: take
    # their folder on disk (importlib.resources would give a MultiplexedPath).
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or ()) if spec is not None else ():
        path = Path(location)
        if path.is_dir():
            return path
    return _SOURCE_ROOT / folder


def spec_file(name: str) -> Path:
    """The file ``name`` of spec/ (``variant.schema.json``, ``expr.lark``, ...)."""
    return _resource_dir("rummydsl.spec", "spec") / name


@lru_cache(maxsize=None)
def read_spec_text(name: str) -> str:
    """The text of a spec/ file, read once per process."""
    return spec_file(name).read_text(encoding="utf-8")


def variants_dir() -> Path:
    """The folder of shipped variant files."""
    return _resource_dir("rummydsl.variants", "variants")
