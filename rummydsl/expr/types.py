"""The types of expression values: :class:`Type` and its constants.

Every node of a checked expression has one (:mod:`rummydsl.expr.check`); a field of a
variant declares the one its expression must give (:data:`rummydsl.expr.contexts.FIELDS`).

>>> str(list_of(RANK)), str(range_of(INT)), type_named("card") is CARD
('list[rank]', 'range[int]', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from rummydsl.errors import ExpressionError

__all__ = [
    "Type",
    "INT",
    "BOOL",
    "RANK",
    "SUIT",
    "COLOUR",
    "CARD",
    "PLAYER",
    "ANY",
    "SYMBOL",
    "EMPTY",
    "list_of",
    "range_of",
    "item_of",
    "enum_of",
    "type_named",
]


@dataclass(frozen=True)
class Type:
    """The type of a value in an expression.

    ``name`` is one of ``int bool rank suit colour card player list range enum``,
    ``any`` (a ``let`` may be anything; only as an expectation) or ``symbol`` (a
    bare name not yet resolved: a deck symbol or an enum value).

    >>> str(list_of(PLAYER)), str(enum_of("knock_points", ("a", "b")))
    ('list[player]', 'knock_points (a or b)')
    """

    name: str
    item: "Type | None" = None
    """The item type of a list or range."""
    values: tuple[str, ...] = ()
    """The values of an enum."""
    label: str = field(default="", compare=False)
    """What an enum is (an option's name, ``meld kind``), for messages."""

    def __str__(self) -> str:
        if self.name in ("list", "range"):
            return f"{self.name}[{self.item}]"
        if self.name == "enum":
            return f"{self.label} ({' or '.join(self.values)})"
        if self.name == "symbol":
            return "a bare name"
        return self.name


INT = Type("int")
BOOL = Type("bool")
RANK = Type("rank")
SUIT = Type("suit")
COLOUR = Type("colour")
CARD = Type("card")
PLAYER = Type("player")
ANY = Type("any")
SYMBOL = Type("symbol")
EMPTY = Type("empty")  # the item type of []


def list_of(item: Type) -> Type:
    """The type ``list[item]``."""
    return Type("list", item)


def range_of(item: Type) -> Type:
    """The type ``range[item]`` (``item`` is int or rank)."""
    return Type("range", item)


def item_of(container: Type) -> Type:
    """The item type of a list or range type (which always has one)."""
    assert container.item is not None
    return container.item


def enum_of(label: str, values: Iterable[str]) -> Type:
    """An enum: the values of a string option (``label`` is its name) or the meld kinds."""
    return Type("enum", values=tuple(values), label=label)


_TYPE_NAMES = {t.name: t for t in (INT, BOOL, RANK, SUIT, COLOUR, CARD, PLAYER, ANY)}


def type_named(name: "str | Type | None") -> Type:
    """A :class:`Type` from its name (``"int"``, ``"bool"``, ``"any"``...); ``None`` is ``any``.

    :raises ExpressionError: rule ``expr-type``, for a name that is not a type's.

    >>> type_named("bool") is BOOL, type_named(None) is ANY
    (True, True)
    >>> type_named("integer")
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: unknown type name 'integer'; expected one of int, bool, rank, suit, colour, card, player, any
    """
    if name is None:
        return ANY
    if isinstance(name, Type):
        return name
    found = _TYPE_NAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ExpressionError(f"unknown type name {name!r}; expected one of {', '.join(_TYPE_NAMES)}",
                              0, 0, "expr-type")
    return found
