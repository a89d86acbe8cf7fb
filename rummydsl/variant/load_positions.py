"""Where every node of a variant file is: :class:`Positions` and :class:`Document`.

:class:`Positions` maps each key path of a document to the :class:`Location` of its
key and value. :meth:`Positions.inside_scalar` maps a (line, column) inside a
string value (where an expression parser reports an error) to the file: it rebuilds
the scalar from the source text the way PyYAML's scanner does, character by
character, and is exact for plain, single- and double-quoted scalars (including
``''`` and backslash escapes, which map to the backslash), for literal ``|`` and
folded ``>`` block scalars, and for multi-line flow scalars (a folded line break
maps to the break). Should the rebuilt text ever differ from the value (a YAML
corner this module does not model), the answer is approximate but always a place
inside the scalar's own source text.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from rummydsl.errors import Location, VariantError

from .load_pyyaml import ESCAPE_CODES as _ESCAPE_CODES
from .load_pyyaml import ESCAPE_REPLACEMENTS as _ESCAPE_REPLACEMENTS
from .load_read import LINE_BREAKS as _BREAKS
from .load_read import KeyPath, Refused, line_starts

__all__ = ["Positions", "Document", "ScalarToken", "Entry", "index_location"]


class ScalarToken:
    """Where a scalar's token lies in the text, for :meth:`Positions.inside_scalar`."""

    __slots__ = ("start", "end", "style", "block_indent", "value")

    def __init__(self, start: int, end: int, style: str, block_indent: int, value: str) -> None:
        self.start = start  # index of the token's first character (quote, '|' or '>', or the text)
        self.end = end  # index just after the token
        self.style = style  # '', "'", '"', '|', '>'
        self.block_indent = block_indent  # the scanner's indentation when a block scalar was read
        self.value = value


class Entry:
    """Where one node is: its value, its key (for a mapping entry) and its scalar token."""

    __slots__ = ("value", "key", "scalar")

    def __init__(self, value: Location, key: Location | None, scalar: ScalarToken | None) -> None:
        self.value = value
        self.key = key
        self.scalar = scalar


class Positions:
    """Where each node of a document is: key path -> :class:`Location`.

    A key path is a tuple of mapping keys (``str``) and sequence indices (``int``)
    from the root, for example ``("melds", "run")`` or ``("turn", 0, "draw")``;
    ``()`` is the top-level mapping. Every method accepts any path: one that does
    not exist falls back to its nearest existing ancestor, so asking never raises.
    """

    def __init__(self, path: str, text: str, entries: dict[KeyPath, Any],
                 exact: bool = True) -> None:
        self._path = path
        self._text = text
        # Exact entries are Entry objects. Entries from the libyaml fast path are
        # (value line, value column, key line, key column, is_scalar) tuples: Locations
        # are made when asked for, and the scalar details (token start, style, block
        # indentation) by re-reading the text with the pure-Python loader, on first
        # use only (expression errors are rare).
        self._entries = entries
        self._exact = exact
        self._starts: list[int] | None = None
        self._maps: dict[KeyPath, list[int] | None] = {}

    @property
    def _starts_of_lines(self) -> list[int]:
        if self._starts is None:
            self._starts = line_starts(self._text)
        return self._starts

    @property
    def path(self) -> str:
        """The file path the locations carry."""
        return self._path

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and path in self._entries

    def __iter__(self) -> Iterator[KeyPath]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def _entry(self, path: Sequence[Any]) -> tuple[KeyPath, Entry]:
        path = tuple(path)
        entries = self._entries
        for k in range(len(path), -1, -1):
            prefix = path[:k]
            entry = entries.get(prefix)
            if entry is not None:
                if type(entry) is tuple:  # a fast-path entry: make its Locations now
                    line, column, key_line, key_column, _ = entry
                    entry = entries[prefix] = Entry(
                        Location(self._path, line, column),
                        Location(self._path, key_line, key_column) if key_line else None,
                        None,
                    )
                return prefix, entry
        return (), Entry(Location(self._path, 1, 1), None, None)

    def _scalar_entry(self, path: Sequence[Any]) -> tuple[KeyPath, Entry]:
        """Like :meth:`_entry`, with the scalar details filled in."""
        if not self._exact:
            self._make_exact()
        return self._entry(path)

    def _make_exact(self) -> None:
        self._exact = True
        from .load_compose import load_python  # the module that builds exact entries

        try:
            exact = load_python(self._path, self._text).positions._entries
        except (VariantError, Refused, RecursionError):  # not expected: libyaml read it
            exact = {}
        if exact.keys() == self._entries.keys():
            self._entries = exact
        else:  # not expected either: keep the places known, without scalar details
            for path in self._entries:
                self._entry(path)

    def source(self, path: Sequence[Any]) -> str:
        """The file the node at ``path`` comes from (always this document's path)."""
        return self._path

    def value(self, path: Sequence[Any]) -> Location:
        """Where the value at ``path`` starts (for a tagged or anchored value, its tag
        or anchor; for a block mapping, its first key)."""
        return self._entry(path)[1].value

    def key(self, path: Sequence[Any]) -> Location:
        """Where the key of the mapping entry at ``path`` is; for a sequence item or
        the root, where the value is."""
        entry = self._entry(path)[1]
        return entry.key if entry.key is not None else entry.value

    def scalar_style(self, path: Sequence[Any]) -> str | None:
        """The YAML style of the scalar at ``path``: ``''`` (plain), ``"'"``,
        ``'"'``, ``'|'`` or ``'>'``; ``None`` for a mapping or a sequence."""
        scalar = self._scalar_entry(path)[1].scalar
        return None if scalar is None else scalar.style

    def scalar_start(self, path: Sequence[Any]) -> tuple[Location, str | None]:
        """Where the scalar's token starts (its opening quote, its ``|``/``>``
        indicator, or its first character) and its style; for a collection, its
        value location and ``None``."""
        entry = self._scalar_entry(path)[1]
        if entry.scalar is None:
            return entry.value, None
        return self._location(entry.scalar.start), entry.scalar.style

    def alias(self, old: KeyPath, new: KeyPath) -> None:
        """Make every path under ``old`` (and ``old`` itself) known under ``new`` too,
        at the same places: for a node the merge moved (a turn step changed by name,
        ``("turn", "discard")``, becomes ``("turn", 1, "discard")``)."""
        for path in [p for p in self._entries if p[: len(old)] == old]:
            self._entries[new + path[len(old):]] = self._entries[path]

    def scalar_text(self, path: Sequence[Any]) -> str | None:
        """The scalar at ``path`` as written in the file (without quotes), ``''``
        for a value left blank (``key:`` with nothing after it); ``None`` for a
        collection or a path that is not in the document."""
        prefix, entry = self._scalar_entry(path)
        if prefix != tuple(path) or entry.scalar is None:
            return None
        return entry.scalar.value

    def inside_scalar(self, path: Sequence[Any], line: int, column: int) -> Location:
        """The file place of the 1-based (line, column) inside the value of the
        string scalar at ``path``: line 1 is the value's first line, lines split at
        ``\\n`` of the value. Out-of-range positions are clamped into the scalar; a
        column one past a line's end is the place just after it."""
        key, entry = self._scalar_entry(path)
        scalar = entry.scalar
        if scalar is None:
            return entry.value
        if key not in self._maps:
            self._maps[key] = _scalar_index_map(self._text, self._starts_of_lines, scalar)
        index_map = self._maps[key]
        if not index_map:
            return self._location(scalar.start)
        value_lines = scalar.value.split("\n")
        line = min(max(line, 1), len(value_lines))
        column = min(max(column, 1), len(value_lines[line - 1]) + 1)
        offset = sum(len(text) + 1 for text in value_lines[: line - 1]) + column - 1
        return self._location(index_map[min(offset, len(index_map) - 1)])

    def _location(self, index: int) -> Location:
        return index_location(self._path, self._starts_of_lines, index)


def index_location(path: str, starts: list[int], index: int) -> Location:
    """The location of the text index ``index``, given the :func:`line_starts` of the text."""
    line = bisect.bisect_right(starts, index)
    return Location(path, line, index - starts[line - 1] + 1)


# --------------------------------------------------------------------- scalar index maps


def _scalar_index_map(text: str, line_starts: list[int], scalar: ScalarToken) -> list[int]:
    """For each character of the scalar's value, and one past its end, the text index
    it came from. Exact when the rebuilt value matches; else clamped (see module doc)."""
    try:
        if scalar.style in ("|", ">"):
            pairs = _block_pairs(text, line_starts, scalar)
        else:
            pairs = _flow_pairs(text, scalar)
    except (IndexError, ValueError):
        pairs = []
    last = scalar.end - 1 if scalar.style in ("'", '"') else scalar.end
    content_start = scalar.start + (1 if scalar.style in ("'", '"') else 0)
    if "".join(ch for ch, _ in pairs) == scalar.value:
        indices = [index for _, index in pairs]
        indices.append(indices[-1] + 1 if indices else content_start)
        return [min(max(i, scalar.start), max(last, scalar.start)) for i in indices]
    # Approximate: keep what was rebuilt, clamp the rest into the scalar's source.
    indices = [min(max(i, scalar.start), last) for _, i in pairs[: len(scalar.value)]]
    while len(indices) < len(scalar.value) + 1:
        indices.append(min(indices[-1] + 1, last) if indices else content_start)
    return indices


def _flow_pairs(text: str, scalar: ScalarToken) -> list[tuple[str, int]]:
    """Rebuild a plain or quoted scalar as PyYAML's scanner folds it."""
    quote = scalar.style
    lo = scalar.start + (1 if quote else 0)
    hi = scalar.end - (1 if quote else 0)
    pairs: list[tuple[str, int]] = []
    i = lo

    def skip_break(j: int) -> int:
        return j + 2 if text.startswith("\r\n", j) else j + 1

    def fold_breaks(j: int) -> tuple[int, list[tuple[str, int]]]:
        """Skip blank lines from j (at a line start); each one is a kept '\\n'."""
        kept = []
        while True:
            while j < hi and text[j] in " \t":
                j += 1
            if j < hi and text[j] in _BREAKS:
                kept.append(("\n" if text[j] in "\r\n\x85" else text[j], j))
                j = skip_break(j)
            else:
                return j, kept

    while i < hi:
        ch = text[i]
        if ch in " \t":
            j = i
            while j < hi and text[j] in " \t":
                j += 1
            if j < hi and text[j] in _BREAKS:
                i = j  # whitespace before a line break is dropped
            else:
                pairs.extend((text[k], k) for k in range(i, j))
                i = j
        elif ch in _BREAKS:
            at = i
            i, kept = fold_breaks(skip_break(i))
            if ch not in "\r\n\x85":  # U+2028 and U+2029 are kept as they are
                pairs.append((ch, at))
            elif not kept:  # one line break folds into a space
                pairs.append((" ", at))
            pairs.extend(kept)
        elif quote == "'" and ch == "'" and text[i + 1 : i + 2] == "'":
            pairs.append(("'", i))
            i += 2
        elif quote == '"' and ch == "\\":
            nxt = text[i + 1]
            if nxt in _ESCAPE_REPLACEMENTS:
                pairs.append((_ESCAPE_REPLACEMENTS[nxt], i))
                i += 2
            elif nxt in _ESCAPE_CODES:
                width = _ESCAPE_CODES[nxt]
                pairs.append((chr(int(text[i + 2 : i + 2 + width], 16)), i))
                i += 2 + width
            elif nxt in _BREAKS:
                i, kept = fold_breaks(skip_break(i + 1))
                pairs.extend(kept)
            else:
                raise ValueError(nxt)
        else:
            pairs.append((ch, i))
            i += 1
    return pairs


def _block_pairs(text: str, line_starts: list[int], scalar: ScalarToken) -> list[tuple[str, int]]:
    """Rebuild a ``|`` or ``>`` block scalar as PyYAML's scanner reads it."""
    n = len(text)
    pos = scalar.start
    col = pos - line_starts[bisect.bisect_right(line_starts, pos) - 1]

    def peek(k: int = 0) -> str:
        return text[pos + k] if pos + k < n else "\0"

    def forward(k: int = 1) -> None:
        nonlocal pos, col
        for _ in range(k):
            ch = text[pos]
            pos += 1
            if ch in "\n\x85\u2028\u2029" or (ch == "\r" and peek() != "\n"):
                col = 0
            else:
                col += 1

    def line_break() -> tuple[str, int]:
        at = pos
        ch = peek()
        if ch in "\r\n\x85":
            forward(2 if text.startswith("\r\n", pos) else 1)
            return "\n", at
        if ch in "\u2028\u2029":
            forward()
            return ch, at
        return "", at

    def breaks_until(indent: int) -> list[tuple[str, int]]:
        found = []
        while col < indent and peek() == " ":
            forward()
        while peek() in _BREAKS and peek() != "\0":
            found.append(line_break())
            while col < indent and peek() == " ":
                forward()
        return found

    folded = scalar.style == ">"
    forward()  # the indicator
    chomping: bool | None = None
    increment = None
    while peek() in "+-123456789":
        ch = peek()
        if ch in "+-":
            chomping = ch == "+"
        else:
            increment = int(ch)
        forward()
    while peek() not in _BREAKS + "\0":  # spaces and a comment
        forward()
    line_break()
    min_indent = max(scalar.block_indent + 1, 1)
    if increment is None:
        breaks: list[tuple[str, int]] = []
        max_indent = 0
        while peek() in " " + _BREAKS and peek() != "\0":
            if peek() != " ":
                breaks.append(line_break())
            else:
                forward()
                max_indent = max(max_indent, col)
        indent = max(min_indent, max_indent)
    else:
        indent = min_indent + increment - 1
        breaks = breaks_until(indent)
    pairs: list[tuple[str, int]] = []
    last_break: tuple[str, int] = ("", pos)
    while col == indent and peek() != "\0":
        pairs.extend(breaks)
        leading_non_space = peek() not in " \t"
        while peek() not in _BREAKS + "\0":
            pairs.append((peek(), pos))
            forward()
        last_break = line_break()
        breaks = breaks_until(indent)
        if col == indent and peek() != "\0":
            if folded and last_break[0] == "\n" and leading_non_space and peek() not in " \t":
                if not breaks:
                    pairs.append((" ", last_break[1]))
            else:
                pairs.append(last_break)
        else:
            break
    if chomping is not False and last_break[0]:
        pairs.append(last_break)
    if chomping is True:
        pairs.extend(breaks)
    return pairs




# ----------------------------------------------------------------------------- document


@dataclass(frozen=True)
class Document:
    """A variant file read into plain data, with the place of every node."""

    path: str
    data: Any
    positions: Positions = field(repr=False, compare=False)
    lines: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def line(self, number: int) -> str | None:
        """The text of source line ``number`` (1-based, without its line break)."""
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None
