"""The layers of the rummydsl package, lowest first, and the imports between its modules.

``LAYERS`` is the one list of which module belongs where: tests/unit/test_layers.py
checks every import of rummydsl/ against it, and docs/architecture.md lists the same
layers (test_layers.py checks that too). A module may import from its own layer and
from the layers below it, never from one above; an import inside a function or under
``if TYPE_CHECKING:`` counts as much as one at the top of the file.

A module is placed by the longest name in the table its dotted name starts with:
``engine`` places ``rummydsl.engine`` and every module inside it; ``""`` is the package
itself (``rummydsl/__init__.py``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

PACKAGE = Path(__file__).resolve().parents[2] / "rummydsl"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundations", ("errors", "limits", "safetext", "jsonbound", "untrusted", "resources", "paths",
                     "suggest", "progress")),
    ("vocabulary", ("cards", "endings")),
    ("expressions", ("expr",)),
    ("variant", ("variant",)),
    ("melds", ("melds",)),
    ("rules", ("scoring", "explainer")),
    ("engine", ("engine",)),
    ("api", ("",)),
    ("players", ("agents", "protocol", "llm")),
    ("environments", ("envs",)),
    ("records", ("record", "save")),
    ("runs", ("simulate", "backends", "runlog", "playcheck", "lab", "terminal")),
    ("tools", ("conformance", "lsp", "web")),
    ("cli", ("cli",)),
)
"""Each layer's name and the modules (dotted names under ``rummydsl``) it holds, lowest
first."""

CLI_STARTUP = frozenset({"rummydsl.cli"})
"""Modules whose imports inside functions may point up: ``rummydsl.cli`` imports each
command's module when that command runs, so that ``rummydsl check`` starts without the
engine, the lab or the language server (docs/cli.md). It is the top layer, so nothing
it imports is above it today; the entry stays so that the exception is written down in
one place."""


@dataclass(frozen=True)
class Import:
    """One import of a rummydsl module by another."""

    path: Path
    """The importing file."""
    line: int
    """Where the import statement is."""
    importer: str
    """The importing module's dotted name."""
    imported: str
    """The imported module's dotted name (a name imported from a package is its
    submodule when there is one by that name)."""
    lazy: bool
    """Whether the import is inside a function."""


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """The dotted name of a file under ``package`` (rummydsl/)."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name."""
    return {module_name(path, package): path for path in sorted(package.rglob("*.py"))}


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of a rummydsl module, None if no entry places it."""
    name = module.removeprefix("rummydsl").removeprefix(".")
    best: tuple[int, int] | None = None
    for index, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            if entry == "" and name == "" or entry and (name == entry or name.startswith(entry + ".")):
                if best is None or len(entry) > best[0]:
                    best = (len(entry), index)
    return None if best is None else best[1]


def imports(package: Path = PACKAGE) -> Iterator[Import]:
    """Every import of one rummydsl module by another, relative ones resolved, at any
    depth of the file (inside functions, under ``if TYPE_CHECKING:``, in ``try:``)."""
    known = modules(package)
    for importer, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        parent = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
        lazy: set[int] = set()
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                lazy.update(id(node) for node in ast.walk(function) if node is not function)
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = parent.split(".")[: len(parent.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known else source
                           for alias in node.names]
            for target in dict.fromkeys(targets):
                if target == "rummydsl" or target.startswith("rummydsl."):
                    yield Import(path, node.lineno, importer, target, id(node) in lazy)


def upward(found: Iterator[Import] | list[Import]) -> list[str]:
    """Each import that points up the layers, as ``file:line: importer (layer) imports
    imported (layer)``; a lazy import of a :data:`CLI_STARTUP` module is allowed."""
    problems = []
    for one in found:
        low, high = layer_of(one.importer), layer_of(one.imported)
        if low is None or high is None or high <= low:
            continue
        if one.lazy and one.importer in CLI_STARTUP:
            continue
        shown = one.path.relative_to(PACKAGE.parent) if one.path.is_relative_to(PACKAGE.parent) else one.path
        problems.append(f"{shown}:{one.line}: {one.importer} ({LAYERS[low][0]}) imports "
                        f"{one.imported} ({LAYERS[high][0]}), a layer above it")
    return problems
