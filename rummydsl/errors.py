"""The one exception hierarchy of rummydsl, and where a problem is.

Every problem the tool reports names its place: a :class:`Location` (file, line,
column; lines and columns count from 1) and prints as ``path:line:col: message``.

Checking collects problems instead of stopping at the first one: a
:class:`Diagnostic` is one problem, and :class:`VariantError` carries all of them.

The family (every error rummydsl raises on purpose derives from
:class:`RummyDslError`, and each is also a :class:`ValueError`)::

    RummyDslError
    ├── VariantError          a variant file is wrong (every problem, located)
    ├── ExpressionError       an expression is malformed, unknown or mistyped
    │   └── FormulaError      a variant's formula failed in play (names its key)
    ├── CardError             card notation is wrong, or a hand is not a hand
    │   └── DeckError         a deck definition cannot be built
    ├── MeldError             a group or table meld that the meld rules refuse
    ├── ActionError           an action of a game (the reason, the action text)
    │   ├── MalformedActionError  cannot be read at all
    │   ├── IllegalActionError    read, but not allowed now
    │   └── AmbiguousActionError  reads several ways; say which
    ├── AgentError            an agent (a program) answered badly or not at all
    ├── StalledRoundError     a round ran past its limit of actions (a variant nobody can finish)
    ├── StalledGameError      a game ran past its limit of rounds (a target nobody reaches)
    ├── RecordError           a game record cannot be used or no longer replays
    └── SuiteError            a conformance suite file is malformed (every problem, located)

Like python-chess's ``InvalidMoveError`` / ``IllegalMoveError`` /
``AmbiguousMoveError``, the three action errors let a caller tell a typo from a
rule: ``except IllegalActionError`` catches only the second.
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
    "FormulaError",
    "CardError",
    "DeckError",
    "MeldError",
    "ActionError",
    "MalformedActionError",
    "IllegalActionError",
    "AmbiguousActionError",
    "AgentError",
    "RecordError",
    "SuiteError",
    "StalledRoundError",
    "StalledGameError",
    "BackendError",
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
    """The source line to show under the message; None: look it up in the file;
    ``""``: show none (the file is not known to be a variant: its lines are never
    quoted, docs/security.md)."""

    def __str__(self) -> str:
        """``path:line:col: message``; a warning ends with its rule code in brackets, the
        name a ``# rummydsl: ignore[...]`` comment takes to silence it.

        >>> print(Diagnostic(Location("v.yaml", 3, 1), "meld kind 'pair' allows 2-card melds",
        ...                  rule="meld-small", severity="warning"))
        v.yaml:3:1: warning: meld kind 'pair' allows 2-card melds [meld-small]
        """
        if self.severity == "warning":
            return f"{self.location}: warning: {self.message} [{self.rule}]"
        return f"{self.location}: {self.message}"

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
    """The root of every error rummydsl raises on purpose.

    ``location`` says where, when a place is known: a file position, or for errors
    of play the game record or suite case being run (``Location("suite.yaml", 12)``).
    """

    location: Location | None = None


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
    loader adds the position of the YAML scalar that holds it. A line of 0 means
    the problem has no place inside an expression (a bad argument of the
    expression API, a round view that cannot answer), and ``str()`` is the bare
    message. ``rule`` is the code of docs/errors.md (``expr-syntax``, ``expr-name``...).

    >>> str(ExpressionError("unclosed '('", 1, 5, "expr-syntax"))
    "1:5: unclosed '('"
    >>> str(ExpressionError("unknown type name 'integer'", 0, 0, "expr-type"))
    "unknown type name 'integer'"
    """

    def __init__(self, message: str, line: int = 1, column: int = 1, rule: str = "expr") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.rule = rule
        super().__init__(f"{line}:{column}: {message}" if line else message)

    def __reduce__(self) -> tuple[type[ExpressionError], tuple[str, int, int, str]]:
        # Rebuilt from its fields (a simulate worker sends it to the parent), not from
        # str(), which would put the position in front twice.
        return type(self), (self.message, self.line, self.column, self.rule)


class FormulaError(ExpressionError):
    """A formula of a variant failed while a game was played or scored (a division by
    zero, an integer past :data:`~rummydsl.limits.MAX_EXPR_INT`, the points times the
    multiplier or a game total past it).

    ``key`` is the key path of the formula in the variant file (``("scoring",
    "multiplier")``), ``text`` its source (empty where no formula is to blame but a
    setting, e.g. ``game.game_bonus``); ``line``/``column`` place the failing part inside
    ``text`` (0: the whole formula). :func:`rummydsl.variant.locate_formula_error` turns
    it into a file place.

    >>> problem = FormulaError("division by zero", 1, 5, "expr-runtime", ("scoring", "multiplier"), "2 // 0")
    >>> str(problem)
    "scoring.multiplier '2 // 0': 1:5: division by zero"
    """

    def __init__(self, message: str, line: int = 0, column: int = 0, rule: str = "expr-runtime",
                 key: tuple[str | int, ...] = (), text: str = "") -> None:
        super().__init__(message, line, column, rule)
        self.key = key
        self.text = text
        where = format_path(key) + (f" {text!r}" if text else "")
        inner = f"{line}:{column}: {message}" if line else message
        self.args = (f"{where}: {inner}" if where else inner,)

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[type[FormulaError], tuple[str, int, int, str, tuple[str | int, ...], str]]:  # type: ignore[override]
        return type(self), (self.message, self.line, self.column, self.rule, self.key, self.text)


class CardError(RummyDslError, ValueError):
    """Card notation that is malformed, unknown to the deck, or repeated."""


def format_path(path: Iterable[str | int]) -> str:
    """Write a key path the way messages show it.

    >>> format_path(("ranks", 3, "aliases", 0))
    'ranks[3].aliases[0]'
    """
    out = ""
    for item in path:
        out += f"[{item}]" if isinstance(item, int) else (f".{item}" if out else str(item))
    return out


class DeckError(CardError):
    """A deck definition that cannot be built.

    ``path`` is the key path inside the deck mapping where the problem is (for
    example ``("suits", 2, "symbol")``; empty for the deck as a whole), so the
    variant loader can point at the line. ``message`` is the message without the
    path; ``str()`` puts the path in front.

    >>> err = DeckError("duplicate suit symbol 'S'", ("suits", 2, "symbol"))
    >>> err.path, err.message
    (('suits', 2, 'symbol'), "duplicate suit symbol 'S'")
    >>> str(err)
    "suits[2].symbol: duplicate suit symbol 'S'"
    """

    def __init__(self, message: str, path: Iterable[str | int] = ()) -> None:
        self.message = message
        self.path: tuple[str | int, ...] = tuple(path)
        super().__init__(message)

    def __str__(self) -> str:
        if not self.path:
            return self.message
        return f"{format_path(self.path)}: {self.message}"


class MeldError(RummyDslError, ValueError):
    """Meld rules that cannot be built, or a table meld the rules refuse.

    >>> str(MeldError("a card is both in the hand and in a table meld"))
    'a card is both in the hand and in a table meld'
    """


class ActionError(RummyDslError, ValueError):
    """An action of a game that cannot be played: the root of the three below.

    ``action`` is the action as written (``"P1 discard 7H"``) or as printed from
    its value; ``reason`` says why in plain words; ``str()`` gives both.

    >>> err = IllegalActionError("P1 discard 7H", "P1 does not hold 7H")
    >>> str(err)
    "'P1 discard 7H': P1 does not hold 7H"
    >>> isinstance(err, ActionError), isinstance(err, ValueError)
    (True, True)
    """

    def __init__(self, action: str, reason: str, location: Location | None = None) -> None:
        self.action = action
        self.reason = reason
        self.location = location
        super().__init__(action, reason)

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location is not None else ""
        return f"{where}{self.action!r}: {self.reason}"


class MalformedActionError(ActionError):
    """Action text that cannot be read: an unknown verb, player or card, a bad list."""


class IllegalActionError(ActionError):
    """An action that is well formed but not allowed in this state (the reason says which rule)."""


class AmbiguousActionError(ActionError):
    """Action text that reads as more than one legal action (e.g. a card in two melds)."""


class AgentError(RummyDslError, ValueError):
    """An agent failed to play: a program that answered garbage, too late, or exited.

    ``seat`` is the player whose agent failed (``"P2"``); ``refused``, for an action the
    engine refused, is the engine's error (the play loop, :mod:`rummydsl.engine.play`).

    >>> str(AgentError("P2", "answered 'hello', which is not an action"))
    "P2: answered 'hello', which is not an action"
    """

    def __init__(self, seat: str, reason: str, refused: Exception | None = None) -> None:
        self.seat = seat
        self.reason = reason
        self.refused = refused
        super().__init__(seat, reason)

    def __str__(self) -> str:
        return f"{self.seat}: {self.reason}"


class RecordError(RummyDslError, ValueError):
    """A game record, log or suite file that cannot be read or no longer replays.

    >>> str(RecordError("line 3: expected 'P2 take', the engine played 'P2 decline'", Location("game.jsonl", 3)))
    "game.jsonl:3: line 3: expected 'P2 take', the engine played 'P2 decline'"
    """

    def __init__(self, message: str, location: Location | None = None) -> None:
        self.message = message
        self.location = location
        super().__init__(message)

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location is not None else self.message


class SuiteError(RummyDslError, ValueError):
    """A conformance suite file is malformed; carries every problem, like :class:`VariantError`."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class StalledRoundError(RummyDslError, ValueError):
    """A round ran past its limit of actions without ending, or cannot go on (nobody may
    act though it is not over): a variant nobody can finish."""


class StalledGameError(RummyDslError, ValueError):
    """A game ran past its limit of rounds without ending (a target nobody reaches).

    :data:`rummydsl.limits.MAX_ROUNDS` rounds of one game (of a match: of each game)
    and no total has closed it; the game deals no more rounds.
    """


class BackendError(RummyDslError, ValueError):
    """A backend cannot play a run: Ray is not installed or cannot be reached, or a
    batch failed on the cluster past its retries (rummydsl/backends/ray_tasks.py).

    >>> str(BackendError("cannot start or reach the Ray cluster at 'head:6379': timed out"))
    "cannot start or reach the Ray cluster at 'head:6379': timed out"
    """
