"""Plain scalars typed by the YAML 1.2 core schema, and the names of YAML values.

PyYAML types plain scalars by YAML 1.1 (``yes`` is true, ``017`` is octal); the
loader uses the YAML 1.2 core schema instead
(https://yaml.org/spec/1.2.2/#1023-core-schema): only ``true``/``false`` (any
case style) are booleans, ``~``, ``null`` and an empty value are null, integers
are decimal, ``0o17`` or ``0x1F``, floats are ``1.5``, ``1e3``, ``.inf``,
``-.inf``, ``.nan``; everything else is a string.

>>> [resolve_plain(text).rsplit(":", 1)[1] for text in ("yes", "True", "017", "0x1F", "1e3", "~")]
['str', 'bool', 'int', 'int', 'float', 'null']
>>> plain_value(INT, "0x1F"), plain_value(BOOL, "TRUE")
(31, True)
"""

from __future__ import annotations

import re
from typing import Any

from rummydsl.errors import Location

__all__ = [
    "CORE", "STR", "INT", "FLOAT", "BOOL", "NULL", "SEQ", "MAP", "ALLOWED_TAGS",
    "NULL_RE", "BOOL_RE", "INT_RE", "FLOAT_RE", "INVALID", "SURROGATE",
    "resolve_plain", "plain_value", "tag_text", "kind_name", "mark_location",
]

CORE = "tag:yaml.org,2002:"
"""The prefix of YAML's standard tags (``!!str`` is ``CORE + "str"``)."""
STR, INT, FLOAT, BOOL, NULL = (CORE + t for t in ("str", "int", "float", "bool", "null"))
SEQ, MAP = CORE + "seq", CORE + "map"
ALLOWED_TAGS = frozenset({STR, INT, FLOAT, BOOL, NULL, SEQ, MAP})
"""The only tags a variant file may carry."""
SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: what a ``"\\ud800"`` escape gives in a double-quoted scalar. Such a
string is not Unicode (no UTF-8 file or terminal can hold it), so a file holding one is
refused where it is written (``yaml-unicode``)."""

NULL_RE = re.compile(r"(?:~|null|Null|NULL|)\Z")
BOOL_RE = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
INT_RE = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
FLOAT_RE = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)

INVALID: Any = object()
"""What :func:`plain_value` returns for text Python cannot convert."""


def resolve_plain(value: str) -> str:
    """The core-schema tag of a plain (unquoted) scalar's text."""
    if NULL_RE.match(value):
        return NULL
    if BOOL_RE.match(value):
        return BOOL
    if INT_RE.match(value):
        return INT
    if FLOAT_RE.match(value):
        return FLOAT
    return STR


def plain_value(tag: str, text: str) -> Any:
    """A plain scalar's value by its resolved core tag; :data:`INVALID` where Python
    cannot convert it (an integer of thousands of digits)."""
    try:
        if tag == NULL:
            return None
        if tag == BOOL:
            return text.lower() == "true"
        if tag == INT:
            if text.startswith(("0o", "0x")):
                return int(text[2:], 8 if text[1] == "o" else 16)
            return int(text)
        lowered = text.lower()
        if lowered.endswith(".inf"):
            return float("-inf") if lowered.startswith("-") else float("inf")
        if lowered == ".nan":
            return float("nan")
        return float(text)
    except ValueError:
        return INVALID


def mark_location(path: str, mark: Any) -> Location:
    """The location of a PyYAML mark (0-based) as a 1-based :class:`Location`."""
    if mark is None:
        return Location(path, 1, 1)
    return Location(path, mark.line + 1, mark.column + 1)


def tag_text(tag: str) -> str:
    """A tag as it is written in YAML (``!!python/object``, ``!custom``).

    >>> tag_text(CORE + "binary"), tag_text("!x"), tag_text("tag:example.com,2000:a")
    ('!!binary', '!x', '!<tag:example.com,2000:a>')
    """
    if tag.startswith(CORE):
        return "!!" + tag[len(CORE):]
    if tag.startswith("!"):
        return tag
    return f"!<{tag}>"


def kind_name(value: Any) -> str:
    """What a loaded value is, in words (``a string``, ``a list``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a mapping"
