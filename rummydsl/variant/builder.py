"""The :class:`Builder`: what building a variant reports into, and how it compiles a field.

Every stage of :func:`rummydsl.variant.build.build_variant` records its problems here
(each at its place in the file) and goes on, so one run reports them all.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import Diagnostic, ExpressionError
from . import exprs

__all__ = [
    "Builder",
    "KeyPath",
]

KeyPath = tuple[str | int, ...]
"""Where in the merged tree: keys and list indices."""


class Builder:
    """Collects diagnostics while building; ``ok`` says whether any error was seen."""

    def __init__(self, data: Mapping[str, Any], positions: Any) -> None:
        self.data = data
        self.positions = positions
        self.diagnostics: list[Diagnostic] = []
        self.parent_data: Mapping[str, Any] | None = None
        """The merged tree of the parent, for a variant that extends one."""
        self.used_names: set[str] = set()
        """Every name an expression compiled so far uses (options, lets, ...)."""

    # -- reporting -------------------------------------------------------------

    def error(self, path: KeyPath, message: str, rule: str, *, at_key: bool = False) -> None:
        where = self.positions.key(path) if at_key else self.positions.value(path)
        self.diagnostics.append(Diagnostic(where, message, rule))

    def warn(self, path: KeyPath, message: str, rule: str, *, at_key: bool = False) -> None:
        where = self.positions.key(path) if at_key else self.positions.value(path)
        self.diagnostics.append(Diagnostic(where, message, rule, "warning"))

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def get(self, *path: str | int, default: Any = None) -> Any:
        node: Any = self.data
        for part in path:
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return default
        return default if node is None else node

    # -- expressions -------------------------------------------------------------

    def compile(self, path: KeyPath, text: Any, env: Any, expect: str) -> Any:
        """Compile the expression at ``path``; on failure record it and return None."""
        if isinstance(text, bool):
            text = "true" if text else "false"
        if isinstance(text, int):
            text = str(text)
        try:
            compiled = exprs.compile_field(str(text), env, expect)
        except ExpressionError as problem:
            where = self.positions.inside_scalar(path, problem.line, problem.column)
            self.diagnostics.append(Diagnostic(where, f"{problem.message}", problem.rule))
            return None
        self.used_names.update(compiled.names)
        return compiled
