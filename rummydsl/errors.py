"""The one exception hierarchy of rummydsl, and where a problem is.

Every problem the tool reports names its place: a :class:`Location` (file, line,
column; lines and columns count from 1) and prints as ``path:line:col: message``.

Checking collects problems instead of stopping at the first one: a
:class:`Diagnostic` is one problem, and :class:`VariantError` carries all of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Literal

__all__ = [
    "Location",
    "Diagnostic",
    "RummyDslError",
    "VariantError",
    "ExpressionError",
    "CardError",
    "IllegalActionError",
]

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Location:
    """A place in a source file: ``path:line:col`` (1-based; 0 means unknown).

    >>> str(Location("v.yaml", 3, 7))
    'v.yaml:3:7'
    >>> str(Location("v.yaml"))
    'v.yaml'
    """

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.path
        if not self.column:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, line_offset: int, column: int) -> "Location":
        """A place inside a string that starts at this location.

        ``line_offset`` counts from 0 (0 = the same line as this location); on the
        first line the column is relative to this location's column.

        >>> Location("v.yaml", 4, 10).shifted(0, 3)
        Location(path='v.yaml', line=4, column=12)
        >>> Location("v.yaml", 4, 10).shifted(2, 3)
        Location(path='v.yaml', line=6, column=3)
        """
        if line_offset == 0:
            return Location(self.path, self.line, self.column + column - 1)
        return Location(self.path, self.line + line_offset, column)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in an input, with its place and a stable rule code.

    ``rule`` is a short code (for example ``schema``, ``yaml``, ``expr-name``) listed
    in docs/errors.md, so tools can filter problems without parsing messages.
    """

    location: Location
    message: str
    rule: str = "error"
    severity: Severity = "error"
    snippet: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{self.location}: {prefix}{self.message}"

    def as_json(self) -> dict[str, object]:
        """The ``{path, line, column, message, rule}`` object of ``check --json``."""
        return {
            "path": self.location.path,
            "line": self.location.line,
            "column": self.location.column,
            "message": self.message,
            "rule": self.rule,
            "severity": self.severity,
        }


class RummyDslError(Exception):
    """The root of every error rummydsl raises on purpose."""


class VariantError(RummyDslError, ValueError):
    """A variant file (or something it extends) is malformed; carries every problem."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        """Only the problems of severity ``error``."""
        return tuple(d for d in self.diagnostics if d.severity == "error")


class ExpressionError(RummyDslError, ValueError):
    """An expression is malformed, names something unknown, or has the wrong type.

    ``line`` and ``column`` are 1-based positions inside the expression text; the
    loader adds the position of the YAML scalar that holds it.
    """

    def __init__(self, message: str, line: int = 1, column: int = 1, rule: str = "expr") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.rule = rule
        super().__init__(f"{line}:{column}: {message}")


class CardError(RummyDslError, ValueError):
    """Card notation that is malformed, unknown to the deck, or repeated."""


class IllegalActionError(RummyDslError, ValueError):
    """An action that is well formed but not allowed in this state."""
