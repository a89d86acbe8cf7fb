"""The report the semantic checks write into: each problem at its place in the YAML.

A check names the key path of the setting at fault (``("deal", "hand_size")``); the
report turns it into the file's line and column through the positions kept while
loading (:mod:`.load_positions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import Diagnostic, ExpressionError

__all__ = ["KeyPath", "Report"]

KeyPath = tuple[str | int, ...]
"""A path of keys and list indexes into the variant file."""


@dataclass
class Report:
    """The diagnostics found so far, each placed by its key path in the YAML."""

    positions: Any
    """The :class:`~.load_positions.Positions` of the variant's YAML (key path to place)."""
    found: list[Diagnostic]
    """The diagnostics, in the order the checks found them."""

    def error(self, path: KeyPath, message: str, rule: str) -> None:
        """An error at the setting ``path``."""
        self.found.append(Diagnostic(self.positions.value(path), message, rule))

    def warn(self, path: KeyPath, message: str, rule: str) -> None:
        """A warning at the setting ``path``."""
        self.found.append(Diagnostic(self.positions.value(path), message, rule, "warning"))

    def error_inside(self, path: KeyPath, problem: ExpressionError, note: str) -> None:
        """An error at ``problem``'s place inside the expression at ``path``."""
        where = self.positions.inside_scalar(path, problem.line, problem.column)
        self.found.append(Diagnostic(where, problem.message + note, problem.rule))
