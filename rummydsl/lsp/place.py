"""Where the cursor is in a variant file: the key path, and key or value.

An editor asks about a file while it is being typed, so it is often not valid YAML.
This module does not parse the file: it reads the indentation of the lines above
the cursor (block maps and ``- `` list items) and scans the cursor's line up to the
cursor (flow maps and lists, quoted strings), which is what completion and hover
need and works on half-written text.

>>> place = place_at(["game:", "  targ"], 1, 6)
>>> place.path, place.role, place.word
(('game',), 'key', 'targ')
>>> place_at(['card_value: "min(ord'], 0, 21).expression
'min(ord'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Sequence

__all__ = ["Place", "place_at", "word_at", "KeyPath"]

KeyPath = tuple[str | int, ...]
Role = Literal["key", "value", "item", "comment"]

_KEY_LINE = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<key>[^\s#:{}\[\],\"'][^#:{}\[\],]*?|\"[^\"]*\"|'[^']*')\s*:(?:\s|$)")
_ITEM_LINE = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)+)")
_BLOCK_SCALAR = re.compile(r":\s*[|>][-+0-9]*\s*(?:#.*)?$")
_WORD = re.compile(r"[A-Za-z0-9_]")


@dataclass(frozen=True)
class Place:
    """What is at the cursor."""

    path: KeyPath
    """The keys and list indices of the map or list the cursor is in (for ``role``
    ``value``, the path of the value itself)."""
    role: Role
    """``key``: a key of the map at ``path`` is being written; ``value``: the value
    at ``path``; ``item``: a list item at ``path`` (a bare value or a one-key map);
    ``comment``: a comment."""
    word: str
    """The partial word before the cursor."""
    expression: str | None = None
    """Inside a string value: its text up to the cursor."""


@dataclass
class _Frame:
    kind: Literal["map", "seq"]
    key: str | None = None
    index: int = 0
    value: bool = False
    implicit: bool = False


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_content(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#") and stripped not in ("---", "...")


def _unquote(key: str) -> str:
    key = key.strip()
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        return key[1:-1]
    return key


def _block_parents(lines: Sequence[str], line: int, limit: int) -> tuple[KeyPath, bool]:
    """The block keys above ``line`` whose content is indented less than ``limit``,
    and whether the nearest of them opens a block scalar (``|`` or ``>``)."""
    path: list[str | int] = []
    in_block_scalar = False
    first = True
    for number in range(line - 1, -1, -1):
        text = lines[number]
        if not _is_content(text):
            continue
        indent = _indent_of(text)
        if indent >= limit:
            continue
        key_line = _KEY_LINE.match(text)
        item_line = _ITEM_LINE.match(text)
        found = key_line or item_line
        dashes = found.group("dashes") if found is not None else ""
        content = indent + len(dashes)
        if key_line and content < limit:
            if first and _BLOCK_SCALAR.search(text):
                in_block_scalar = True
            path.append(_unquote(key_line.group("key")))
        first = False
        path.extend([0] * dashes.count("-"))
        limit = indent
        if limit == 0:
            break
    path.reverse()
    return tuple(path), in_block_scalar


def place_at(lines: Sequence[str], line: int, column: int) -> Place:
    """The :class:`Place` at ``line`` and ``column`` (both from 0) of ``lines``; a line
    past the end is read as an empty line just after the last (the walk up the lines
    above starts there, however far past the end the position was)."""
    line = max(0, min(line, len(lines)))
    column = max(0, column)
    text = lines[line] if line < len(lines) else ""
    prefix = text[:column]
    indent = _indent_of(text)
    item = _ITEM_LINE.match(text)
    dashes = item.group("dashes") if item else ""
    if not prefix.strip() and not text.strip():
        # A blank line: the key position of the deepest block the column fits in.
        parents, _ = _block_parents(lines, line, column)
        return Place(parents, "key", "")
    parents, block_scalar = _block_parents(lines, line, indent if not dashes else indent + 1)
    if block_scalar:
        return Place(parents, "value", _partial_word(prefix), prefix.strip())
    path: list[str | int] = list(parents)
    path.extend([0] * dashes.count("-"))
    content_start = indent + len(dashes)
    frames = [_Frame("map")]
    partial = ""
    quote: str | None = None
    quote_start = 0
    position = content_start
    for position in range(content_start, len(prefix)):
        char = prefix[position]
        if quote is not None:
            if char == quote and not (quote == '"' and prefix[position - 1] == "\\"):
                quote = None
                partial = prefix[quote_start + 1:position]  # a quoted key or value, now closed
            continue
        if char in "\"'" and not partial.strip():
            quote, quote_start = char, position
            continue
        if char == "#" and (position == 0 or prefix[position - 1] in " \t"):
            return Place(tuple(path), "comment", "")
        if char in "{[":
            frames.append(_Frame("map" if char == "{" else "seq"))
            partial = ""
        elif char in "}]":
            if frames[-1].implicit:
                frames.pop()
            if len(frames) > 1:
                frames.pop()
            partial = ""
        elif char == ",":
            if frames[-1].implicit:
                frames.pop()
            top = frames[-1]
            if top.kind == "map":
                top.key, top.value = None, False
            else:
                top.index += 1
            partial = ""
        elif char == ":" and (position + 1 >= len(text) or text[position + 1] in " \t,}]"):
            top = frames[-1]
            if top.kind == "seq":
                frames.append(_Frame("map", implicit=True))
                top = frames[-1]
            top.key, top.value = _unquote(partial), True
            partial = ""
        else:
            partial += char
    for frame in frames:
        if frame.kind == "seq":
            path.append(frame.index)
        elif frame.value and frame.key is not None:
            path.append(frame.key)
    top = frames[-1]
    if quote is not None:
        inside = prefix[quote_start + 1:]
        return Place(tuple(path), "value", _partial_word(inside), inside)
    word = partial.strip()
    if top.kind == "seq":
        return Place(tuple(path[:-1]) + (top.index,), "item", word)
    if top.value:
        return Place(tuple(path), "value", word)
    if dashes and len(frames) == 1:
        return Place(tuple(path), "item", word)
    return Place(tuple(path), "key", word)


def _partial_word(text: str) -> str:
    match = re.search(r"[A-Za-z0-9_]*$", text)
    return match.group(0) if match else ""


def word_at(text: str, column: int) -> tuple[int, int]:
    """The start and end columns of the word (letters, digits, ``_``) at ``column``
    of ``text``; an empty span where there is none.

    >>> word_at("  limit: 10", 4)
    (2, 7)
    """
    column = max(0, min(column, len(text)))
    start = column
    while start > 0 and _WORD.match(text[start - 1]):
        start -= 1
    end = column
    while end < len(text) and _WORD.match(text[end]):
        end += 1
    return start, end
