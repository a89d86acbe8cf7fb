"""Reading a variant file safely, keeping where every key and value came from.

:func:`load_document` turns a file (or its text) into a :class:`Document`: the
plain Python data (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``,
``None``) and a :class:`Positions` map from each key path to its place in the file.
Every failure raises :class:`~rummydsl.errors.VariantError`; nothing else escapes.

How the file is read
--------------------
* Only PyYAML's safe machinery is used, and only up to the node graph: a
  ``SafeLoader`` subclass composes nodes, and this module builds the Python values
  itself. No YAML constructor ever runs, so no Python object can be created from
  the file. Only the core tags ``!!str``, ``!!int``, ``!!float``, ``!!bool``,
  ``!!null``, ``!!seq`` and ``!!map`` may be written; any other tag
  (``!!python/...``, ``!!binary``, ``!!timestamp``, ``!!set``, ``!custom``) is the
  error ``yaml-tag``.
* Plain scalars are typed by the YAML 1.2 core schema, not PyYAML's YAML 1.1
  default: only ``true``/``false`` (any case style: ``true``, ``True``, ``TRUE``)
  are booleans, so ``yes``, ``no``, ``on``, ``off`` and ``y`` stay strings (the
  "Norway problem"); ``~``, ``null`` and an empty value are null; integers are
  decimal, ``0o17`` or ``0x1F`` (``017`` is the decimal 17, ``1:30`` is a
  string); floats are ``1.5``, ``1e3``, ``.inf``, ``-.inf``, ``.nan``; dates stay
  strings.
* Mapping keys must be strings (``yaml-key``: quote a number used as a key,
  ``'2': 2``), and a key may appear only once per mapping
  (``yaml-duplicate-key``, reported at the second one).
* Merge keys ``<<`` are refused (``yaml-merge``): ``extends:`` is the one way to
  reuse another file, and a merge key would hide where a value came from.
* Anchors and aliases are allowed, within limits. An alias's value location is
  the alias (``*name``); the positions of the keys inside it are those of the
  anchored node it repeats.

Limits (module constants; each refusal has its rule code)
--------------------------------------------------------
* :data:`MAX_FILE_BYTES` (256 KiB) of UTF-8: ``limit-size``. A file is never read
  past this many bytes.
* :data:`MAX_DEPTH` (32) nested mappings/sequences, the top-level mapping being
  level 1: ``limit-depth``. Checked while composing, before the composer could
  recurse deeper, so even ``[[[[...`` ten thousand deep fails quickly and cleanly;
  also checked again while expanding aliases.
* :data:`MAX_ALIASES` (100) alias uses: ``limit-aliases``; and the values the
  aliases expand to are counted, at most :data:`MAX_NODES` (100,000) in all, so a
  "billion laughs" file is refused after a bounded amount of work. An alias inside
  the node it names (``&a [*a]``) is ``yaml-alias``.

Other problems: malformed YAML (``yaml``), several documents (``yaml-multi-doc``),
an empty or comment-only file (``empty``), a top level that is not a mapping
(``top-level``), bytes that are not UTF-8 text or that hold NUL or control
characters (``encoding``), a file that cannot be read (``io``).

Positions inside scalars
------------------------
:meth:`Positions.inside_scalar` maps a (line, column) inside a string value (where
an expression parser reports an error) to the file. It rebuilds the scalar from
the source text the way PyYAML's scanner does, character by character, and is
exact for plain, single- and double-quoted scalars (including ``''`` and
backslash escapes, which map to the backslash), for literal ``|`` and folded ``>``
block scalars, and for multi-line flow scalars (a folded line break maps to the
break). Should the rebuilt text ever differ from the value (a YAML corner this
module does not model), the answer is approximate but always a place inside the
scalar's own source text.
"""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence, cast

import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rummydsl.errors import Diagnostic, Location, VariantError

_CParser: type[CParser] | None
try:  # libyaml's parser, when PyYAML was built with it (the pure-Python one otherwise)
    from yaml._yaml import CParser
    _CParser = CParser
except ImportError:  # pragma: no cover - depends on how PyYAML was installed
    _CParser = None

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_DEPTH",
    "MAX_ALIASES",
    "MAX_NODES",
    "KeyPath",
    "Positions",
    "Document",
    "load_document",
    "source_line",
]

MAX_FILE_BYTES = 256 * 1024
"""The largest variant file, in bytes of UTF-8 (256 KiB)."""
MAX_DEPTH = 32
"""The deepest nesting of mappings and sequences; the top-level mapping is level 1."""
MAX_ALIASES = 100
"""The most alias uses (``*name``) in one file."""
MAX_NODES = 100_000
"""The most values (keys, scalars, collections) a file may expand to, aliases included."""

KeyPath = tuple[str | int, ...]
"""Mapping keys and sequence indices from the root."""

_CORE = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_CORE + t for t in ("str", "int", "float", "bool", "null"))
_SEQ, _MAP = _CORE + "seq", _CORE + "map"
_ALLOWED_TAGS = frozenset({_STR, _INT, _FLOAT, _BOOL, _NULL, _SEQ, _MAP})

# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1023-core-schema).
_NULL_RE = re.compile(r"(?:~|null|Null|NULL|)\Z")
_BOOL_RE = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
_INT_RE = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
_FLOAT_RE = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)

_BREAKS = "\r\n\x85\u2028\u2029"
_LINE_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
# What YAML (and PyYAML's reader) refuses in a stream: control characters and the like.
_NON_PRINTABLE_RE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)

_ESCAPE_REPLACEMENTS = yaml.scanner.Scanner.ESCAPE_REPLACEMENTS
_ESCAPE_CODES = yaml.scanner.Scanner.ESCAPE_CODES

# Plain words for PyYAML's commonest problems (a fragment of its text -> a hint).
_YAML_HINTS = (
    ("found character '\\t' that cannot start any token",
     "YAML indents with spaces; a tab cannot start a token"),
    ("mapping values are not allowed here",
     "a value that contains ': ' must be quoted, or the indentation is off"),
    ("could not find expected ':'",
     "a key needs a ':' after it; is a line's indentation off, or a quote unclosed?"),
    ("found unexpected end of stream",
     "the file ends inside a quoted string or a bracket; is one left open?"),
    ("did not find expected key",
     "the indentation is off, or a list item '- ' is mixed into a mapping"),
    ("found undefined alias",
     "an alias *name repeats a value marked &name earlier in the file"),
    ("did not find expected node content",
     "a value is missing where one was expected"),
)


class _Refused(Exception):
    """Internal: stop reading with this diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


# --------------------------------------------------------------------------- positions


class _Scalar:
    """Where a scalar's token lies in the text, for :meth:`Positions.inside_scalar`."""

    __slots__ = ("start", "end", "style", "block_indent", "value")

    def __init__(self, start: int, end: int, style: str, block_indent: int, value: str) -> None:
        self.start = start  # index of the token's first character (quote, '|' or '>', or the text)
        self.end = end  # index just after the token
        self.style = style  # '', "'", '"', '|', '>'
        self.block_indent = block_indent  # the scanner's indentation when a block scalar was read
        self.value = value


class _Entry:
    __slots__ = ("value", "key", "scalar")

    def __init__(self, value: Location, key: Location | None, scalar: _Scalar | None) -> None:
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
        # Exact entries are _Entry objects. Entries from the libyaml fast path are
        # (value line, value column, key line, key column, is_scalar) tuples: Locations
        # are made when asked for, and the scalar details (token start, style, block
        # indentation) by re-reading the text with the pure-Python loader, on first
        # use only (expression errors are rare).
        self._entries = entries
        self._exact = exact
        self._starts: list[int] | None = None
        self._maps: dict[KeyPath, list[int] | None] = {}

    @property
    def _line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = _line_starts(self._text)
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

    def _entry(self, path: Sequence[Any]) -> tuple[KeyPath, _Entry]:
        path = tuple(path)
        entries = self._entries
        for k in range(len(path), -1, -1):
            prefix = path[:k]
            entry = entries.get(prefix)
            if entry is not None:
                if type(entry) is tuple:  # a fast-path entry: make its Locations now
                    line, column, key_line, key_column, _ = entry
                    entry = entries[prefix] = _Entry(
                        Location(self._path, line, column),
                        Location(self._path, key_line, key_column) if key_line else None,
                        None,
                    )
                return prefix, entry
        return (), _Entry(Location(self._path, 1, 1), None, None)

    def _scalar_entry(self, path: Sequence[Any]) -> tuple[KeyPath, _Entry]:
        """Like :meth:`_entry`, with the scalar details filled in."""
        if not self._exact:
            self._make_exact()
        return self._entry(path)

    def _make_exact(self) -> None:
        self._exact = True
        try:
            exact = _load_python(self._path, self._text).positions._entries
        except (VariantError, _Refused, RecursionError):  # not expected: libyaml read it
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
            self._maps[key] = _scalar_index_map(self._text, self._line_starts, scalar)
        index_map = self._maps[key]
        if not index_map:
            return self._location(scalar.start)
        value_lines = scalar.value.split("\n")
        line = min(max(line, 1), len(value_lines))
        column = min(max(column, 1), len(value_lines[line - 1]) + 1)
        offset = sum(len(text) + 1 for text in value_lines[: line - 1]) + column - 1
        return self._location(index_map[min(offset, len(index_map) - 1)])

    def _location(self, index: int) -> Location:
        return _index_location(self._path, self._line_starts, index)


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _LINE_BREAK_RE.finditer(text)]


def _index_location(path: str, line_starts: list[int], index: int) -> Location:
    line = bisect.bisect_right(line_starts, index)
    return Location(path, line, index - line_starts[line - 1] + 1)


# --------------------------------------------------------------------- scalar index maps


def _scalar_index_map(text: str, line_starts: list[int], scalar: _Scalar) -> list[int]:
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


def _flow_pairs(text: str, scalar: _Scalar) -> list[tuple[str, int]]:
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


def _block_pairs(text: str, line_starts: list[int], scalar: _Scalar) -> list[tuple[str, int]]:
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


# ------------------------------------------------------------------------------ loader


class _AliasNode:
    """An alias use in the node graph (PyYAML would return the anchored node itself)."""

    def __init__(self, target: Node, start_mark: yaml.Mark, name: str) -> None:
        self.target = target
        self.start_mark = start_mark
        self.name = name


class _Loader(yaml.SafeLoader):
    """PyYAML's safe scanner/parser/composer, with limits and position records."""

    if TYPE_CHECKING:
        # Unannotated in types-PyYAML. The pure-Python parser's events always carry
        # marks (an alias event its anchor), which the stubs' Event cannot say.
        def peek_event(self) -> Any: ...
        def get_event(self) -> Any: ...

    def __init__(self, stream: str, path: str) -> None:
        super().__init__(stream)
        self.path = path
        self.scalar_tokens: dict[int, tuple[int, str, int]] = {}
        self.tag_starts: list[int] = []
        self.alias_count = 0
        self.depth = 0

    # The YAML 1.2 core schema instead of PyYAML's 1.1 resolvers.
    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        if kind is ScalarNode:
            if implicit[0]:
                return _resolve_plain(value)
            return _STR
        return _SEQ if kind is SequenceNode else _MAP

    # Record where scalar tokens start (an event's mark may be its tag or anchor).
    def scan_plain(self) -> Any:
        token = super().scan_plain()
        self.scalar_tokens[token.end_mark.index] = (token.start_mark.index, "", -1)
        return token

    def scan_flow_scalar(self, style: str) -> Any:
        token = super().scan_flow_scalar(style)
        self.scalar_tokens[token.end_mark.index] = (token.start_mark.index, style, -1)
        return token

    def scan_block_scalar(self, style: str) -> Any:
        indent = self.indent
        token = super().scan_block_scalar(style)
        self.scalar_tokens[token.end_mark.index] = (token.start_mark.index, style, indent)
        return token

    def scan_tag(self) -> Any:
        token = super().scan_tag()
        self.tag_starts.append(token.start_mark.index)
        return token

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                raise _Refused(Diagnostic(
                    _mark_location(self.path, event.start_mark),
                    f"too many aliases: a variant file may use at most {MAX_ALIASES}",
                    "limit-aliases",
                ))
            # an alias composes to the node its anchor names, never None
            target = cast(Node, super().compose_node(parent, index))
            return _AliasNode(target, event.start_mark, event.anchor)
        if self.check_event(SequenceStartEvent, MappingStartEvent):
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise _Refused(Diagnostic(
                        _mark_location(self.path, self.peek_event().start_mark),
                        f"nested too deeply: a variant file may nest at most {MAX_DEPTH} "
                        "levels of mappings and lists",
                        "limit-depth",
                    ))
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1
        return super().compose_node(parent, index)


def _resolve_plain(value: str) -> str:
    if _NULL_RE.match(value):
        return _NULL
    if _BOOL_RE.match(value):
        return _BOOL
    if _INT_RE.match(value):
        return _INT
    if _FLOAT_RE.match(value):
        return _FLOAT
    return _STR


def _mark_location(path: str, mark: Any) -> Location:
    if mark is None:
        return Location(path, 1, 1)
    return Location(path, mark.line + 1, mark.column + 1)


def _tag_text(tag: str) -> str:
    if tag.startswith(_CORE):
        return "!!" + tag[len(_CORE):]
    if tag.startswith("!"):
        return tag
    return f"!<{tag}>"


def _kind(value: Any) -> str:
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


# ---------------------------------------------------------------------------- building


class _Builder:
    """Builds plain Python values from the node graph, recording positions."""

    def __init__(self, loader: _Loader, path: str, line_starts: list[int]) -> None:
        self.loader = loader
        self.path = path
        self.line_starts = line_starts
        self.entries: dict[KeyPath, _Entry] = {}
        self.diagnostics: list[Diagnostic] = []
        self.count = 0
        self.active: set[int] = set()
        self.reported: set[int] = set()
        self.expanding: list[Any] = []  # marks of the aliases being expanded

    def location(self, mark: Any) -> Location:
        return _mark_location(self.path, mark)

    def tick(self, mark: Any) -> None:
        self.count += 1
        if self.count <= MAX_NODES:
            return
        if self.loader.alias_count:
            raise _Refused(Diagnostic(
                self.location(self.expanding[0] if self.expanding else mark),
                f"the aliases expand to more than {MAX_NODES:,} values (an alias "
                "bomb?); a variant file may not grow that large",
                "limit-aliases",
            ))
        raise _Refused(Diagnostic(
            self.location(mark),
            f"the file holds more than {MAX_NODES:,} values; a variant file may not "
            "be that large",
            "limit-size",
        ))

    def report(self, node: Any, diagnostic: Diagnostic) -> None:
        if id(node) not in self.reported:
            self.reported.add(id(node))
            self.diagnostics.append(diagnostic)

    def tag_location(self, node: Node) -> Location:
        start = node.start_mark.index
        k = bisect.bisect_left(self.loader.tag_starts, start)
        if k < len(self.loader.tag_starts):
            return _index_location(self.path, self.line_starts, self.loader.tag_starts[k])
        return self.location(node.start_mark)

    def unalias(self, node: Any) -> tuple[Node, Any]:
        """The real node and the mark its value location is (the alias, if any)."""
        if isinstance(node, _AliasNode):
            if id(node.target) in self.active:
                raise _Refused(Diagnostic(
                    self.location(node.start_mark),
                    f"the alias *{node.name} is inside the node it names, "
                    "which would make an endless structure",
                    "yaml-alias",
                ))
            return node.target, node.start_mark
        return node, node.start_mark

    def build(self, node: Any, path: KeyPath, depth: int, key: Location | None) -> Any:
        if isinstance(node, _AliasNode):
            self.expanding.append(node.start_mark)
            try:
                return self.build_node(node, path, depth, key)
            finally:
                self.expanding.pop()
        return self.build_node(node, path, depth, key)

    def build_node(self, node: Any, path: KeyPath, depth: int, key: Location | None) -> Any:
        node, mark = self.unalias(node)
        self.tick(mark)
        where = self.location(mark)
        if node.tag not in _ALLOWED_TAGS:
            self.report(node, Diagnostic(
                self.tag_location(node),
                f"YAML tag {_tag_text(node.tag)!r} is not allowed",
                "yaml-tag",
            ))
            self.entries[path] = _Entry(where, key, None)
            return None
        if isinstance(node, ScalarNode):
            self.entries[path] = _Entry(where, key, self.scalar_info(node))
            return self.scalar(node)
        if depth + 1 > MAX_DEPTH:
            raise _Refused(Diagnostic(
                self.location(self.expanding[-1]) if self.expanding else where,
                f"nested too deeply: a variant file may nest at most {MAX_DEPTH} "
                "levels of mappings and lists (counting what aliases repeat)",
                "limit-depth",
            ))
        self.entries[path] = _Entry(where, key, None)
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                if node.tag != _SEQ:
                    return self.wrong_tag(node)
                return [self.build(item, path + (i,), depth + 1, None)
                        for i, item in enumerate(node.value)]
            if node.tag != _MAP:
                return self.wrong_tag(node)
            return self.mapping(node, path, depth + 1)
        finally:
            self.active.discard(id(node))

    def wrong_tag(self, node: Node) -> None:
        self.report(node, Diagnostic(
            self.tag_location(node),
            f"YAML tag {_tag_text(node.tag)!r} does not fit a "
            f"{'list' if isinstance(node, SequenceNode) else 'mapping'}",
            "yaml-tag",
        ))
        return None

    def mapping(self, node: MappingNode, path: KeyPath, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, Location] = {}
        for key_node, value_node in node.value:
            real_key, key_mark = self.unalias(key_node)
            self.tick(key_mark)
            key_location = self.location(key_mark)
            key = self.key(real_key, key_location)
            if key is None:
                continue
            if key in first_seen:
                first = first_seen[key]
                self.diagnostics.append(Diagnostic(
                    key_location,
                    f"duplicate key {key!r}: it is already set on line {first.line}",
                    "yaml-duplicate-key",
                ))
                continue
            first_seen[key] = key_location
            result[key] = self.build(value_node, path + (key,), depth, key_location)
        return result

    def key(self, node: Node, where: Location) -> str | None:
        """The key as a string, or None after reporting why it cannot be one."""
        if node.tag not in _ALLOWED_TAGS:
            self.report(node, Diagnostic(
                self.tag_location(node),
                f"YAML tag {_tag_text(node.tag)!r} is not allowed",
                "yaml-tag",
            ))
            return None
        if isinstance(node, ScalarNode) and node.tag == _STR:
            if node.value == "<<" and not node.style:
                self.diagnostics.append(Diagnostic(
                    where,
                    "merge keys '<<' are not supported; use 'extends:' to build on "
                    "another variant, or write the keys out",
                    "yaml-merge",
                ))
                return None
            return cast(str, node.value)  # a scalar node's value is its text
        if isinstance(node, ScalarNode):
            value = self.scalar(node)
            shown = node.value if node.value else "(empty)"
            self.diagnostics.append(Diagnostic(
                where,
                f"a mapping key must be a string, got {_kind(value)} {shown}; "
                f"quote it if you mean the text: '{node.value}'",
                "yaml-key",
            ))
        else:
            kind = "a list" if isinstance(node, SequenceNode) else "a mapping"
            self.diagnostics.append(Diagnostic(
                where, f"a mapping key must be a string, got {kind}", "yaml-key"
            ))
        return None

    def scalar_info(self, node: ScalarNode) -> _Scalar:
        token = self.loader.scalar_tokens.get(node.end_mark.index)
        if token is not None and token[0] >= node.start_mark.index:
            start, style, indent = token
        else:  # an empty value: no token of its own (start_mark may be a tag)
            start, style, indent = node.end_mark.index, node.style or "", -1
        return _Scalar(start, node.end_mark.index, style, indent, node.value)

    def scalar(self, node: ScalarNode) -> Any:
        tag, text = node.tag, node.value
        if tag == _STR:
            return text
        try:
            if tag == _NULL and _NULL_RE.match(text):
                return None
            if tag == _BOOL and _BOOL_RE.match(text):
                return text.lower() == "true"
            if tag == _INT and _INT_RE.match(text):
                if text.startswith(("0o", "0x")):
                    return int(text[2:], 8 if text[1] == "o" else 16)
                return int(text)
            if tag == _FLOAT and (_FLOAT_RE.match(text) or _INT_RE.match(text)):
                lowered = text.lower()
                if lowered.endswith(".inf"):
                    return float("-inf") if lowered.startswith("-") else float("inf")
                if lowered == ".nan":
                    return float("nan")
                if _INT_RE.match(text) and text.startswith(("0o", "0x")):
                    return float(int(text[2:], 8 if text[1] == "o" else 16))
                return float(text)
        except ValueError:  # Python refuses to convert integers of thousands of digits
            self.report(node, Diagnostic(
                self.location(node.start_mark),
                f"the number {text[:20]}... has too many digits",
                "yaml",
            ))
            return None
        self.report(node, Diagnostic(
            self.location(node.start_mark),
            f"{text!r} is not a valid {_tag_text(tag)}",
            "yaml-tag",
        ))
        return None


# ------------------------------------------------------------------------------ reading


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


def source_line(path: str | Path, line: int) -> str | None:
    """Line ``line`` (1-based) of the file ``path``, for printing beside a
    diagnostic; None if there is no such line or the file cannot be read."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES)
    except (OSError, ValueError):
        return None
    text = raw.decode("utf-8", errors="replace").removeprefix("\ufeff")
    lines = _LINE_BREAK_RE.split(text)
    return lines[line - 1] if 1 <= line <= len(lines) else None


def load_document(path: str | Path, text: str | bytes | None = None) -> Document:
    """Read the variant file ``path`` (or ``text``, reported under ``path``).

    Returns a :class:`Document` whose ``data`` is a ``dict`` (the top level of a
    variant must be a mapping). Raises :class:`VariantError` for every problem,
    and never any other exception.
    """
    shown = str(path)
    if text is None:
        # A parent is read once per process however many files extend it.
        try:
            stat = os.stat(shown)
            key: tuple[str, int, int] | None = (shown, stat.st_mtime_ns, stat.st_size)
        except (OSError, ValueError):  # ValueError: a NUL in the path; reported when read
            key = None
        if key is not None and key in _DOCUMENTS:
            return _DOCUMENTS[key]
        document = _load_document(shown, _read_file(shown))
        if key is not None:
            if len(_DOCUMENTS) >= _DOCUMENT_CACHE_SIZE:
                _DOCUMENTS.pop(next(iter(_DOCUMENTS)))
            _DOCUMENTS[key] = document
        return document
    return _load_document(shown, text)


_DOCUMENT_CACHE_SIZE = 64
_DOCUMENTS: dict[tuple[str, int, int], Document] = {}


def _load_document(shown: str, raw: str | bytes) -> Document:
    source = _decode(shown, raw)
    lines = tuple(_LINE_BREAK_RE.split(source))
    try:
        return _load_text(shown, source, lines)
    except _Refused as refused:
        raise VariantError([_with_snippet(refused.diagnostic, lines)]) from None
    except RecursionError:  # not expected: the depth limit keeps recursion shallow
        raise VariantError([Diagnostic(
            Location(shown, 1, 1),
            f"nested too deeply: a variant file may nest at most {MAX_DEPTH} levels",
            "limit-depth",
        )]) from None


def _with_snippet(diagnostic: Diagnostic, lines: Sequence[str]) -> Diagnostic:
    line = diagnostic.location.line
    if diagnostic.snippet is None and 1 <= line <= len(lines):
        return Diagnostic(diagnostic.location, diagnostic.message, diagnostic.rule,
                          diagnostic.severity, lines[line - 1])
    return diagnostic


def _fail(path: str, message: str, rule: str, line: int = 0, column: int = 0) -> VariantError:
    return VariantError([Diagnostic(Location(path, line, column), message, rule)])


def _read_file(path: str) -> bytes:
    """The file's bytes, never more than MAX_FILE_BYTES of them."""
    size = 0
    try:
        is_folder = os.path.isdir(path)
    except ValueError:  # e.g. a NUL inside the path
        is_folder = False
    if is_folder:
        raise _fail(path, "cannot read the file: it is a directory", "io")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                size = max(os.fstat(handle.fileno()).st_size, len(data))
    except FileNotFoundError:
        raise _fail(path, "cannot read the file: it does not exist", "io") from None
    except IsADirectoryError:
        raise _fail(path, "cannot read the file: it is a directory", "io") from None
    except PermissionError:
        raise _fail(path, "cannot read the file: permission denied", "io") from None
    except (OSError, ValueError) as exc:  # ValueError: e.g. a NUL inside the path
        reason = getattr(exc, "strerror", None) or str(exc)
        raise _fail(path, f"cannot read the file: {reason}", "io") from None
    if size:
        raise _too_big(path, size)
    return data


def _too_big(path: str, size: int) -> VariantError:
    return _fail(
        path,
        f"the file is too large: {size:,} bytes, and a variant file may be at most "
        f"{MAX_FILE_BYTES:,} bytes ({MAX_FILE_BYTES // 1024} KiB)",
        "limit-size",
    )


def _decode(path: str, raw: str | bytes) -> str:
    """Check size and encoding; the text without a leading byte-order mark."""
    if isinstance(raw, str):
        bad = raw.find("\0")
        if bad >= 0:
            line, column = _text_position(raw, bad)
            raise _fail(path, f"not a text file: a NUL character at offset {bad}",
                        "encoding", line, column)
        try:
            size = len(raw.encode("utf-8"))
        except UnicodeEncodeError as exc:
            line, column = _text_position(raw, exc.start)
            raise _fail(path, f"not a text file: an unpaired surrogate "
                        f"U+{ord(raw[exc.start]):04X} at offset {exc.start}",
                        "encoding", line, column) from None
        if size > MAX_FILE_BYTES:
            raise _too_big(path, size)
        text = raw
    else:
        if len(raw) > MAX_FILE_BYTES:
            raise _too_big(path, len(raw))
        bad = raw.find(b"\0")
        if bad >= 0:
            line, column = _bytes_position(raw, bad)
            raise _fail(path, f"not a text file: a NUL byte at byte offset {bad}",
                        "encoding", line, column)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, column = _bytes_position(raw, exc.start)
            raise _fail(path, f"not a text file: byte 0x{raw[exc.start]:02x} at byte "
                        f"offset {exc.start} is not valid UTF-8", "encoding",
                        line, column) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    match = _NON_PRINTABLE_RE.search(text)
    if match:
        line, column = _text_position(text, match.start())
        raise _fail(path, f"not a text file: the control character "
                    f"U+{ord(match.group()):04X} at offset {match.start()} is not "
                    "allowed in YAML", "encoding", line, column)
    return text


def _text_position(text: str, offset: int) -> tuple[int, int]:
    starts = _line_starts(text[:offset])
    return len(starts), offset - starts[-1] + 1


def _bytes_position(raw: bytes, offset: int) -> tuple[int, int]:
    return _text_position(raw[:offset].decode("utf-8", errors="replace"),
                          len(raw[:offset].decode("utf-8", errors="replace")))


def _load_text(path: str, text: str, lines: tuple[str, ...]) -> Document:
    if _CParser is not None:
        document = _load_fast(_CParser, path, text, lines)
        if document is not None:
            return document
    return _load_python_text(path, text, lines)


def _load_python(path: str, text: str) -> Document:
    """The document read by the pure-Python loader alone (the exact positions)."""
    return _load_python_text(path, text, tuple(_LINE_BREAK_RE.split(text)))


def _load_fast(parser_class: type[CParser], path: str, text: str,
               lines: tuple[str, ...]) -> Document | None:
    """The document read with libyaml's parser, or None to read it the slow way.

    The fast path takes only the plain case: one document whose top level is a
    mapping, no tags, anchors, aliases or directives, string keys each once, no merge
    keys, numbers Python can convert, nesting and size within the limits. Anything
    else (every error included) returns None, and the pure-Python loader reads the
    file again and reports exactly as it always has. libyaml's parser is not
    recursive: events arrive flat, and the depth is checked on each one.
    """
    if "\t" in text or "\ufeff" in text:  # where PyYAML and libyaml disagree
        return None
    parser = parser_class(text)
    try:
        return _compose_fast(parser.get_event, path, text, lines)
    except yaml.YAMLError:
        return None
    finally:
        parser.dispose()


def _compose_fast(get: Any, path: str, text: str,
                  lines: tuple[str, ...]) -> Document | None:
    if type(get()) is not StreamStartEvent:
        return None
    event = get()
    if type(event) is not DocumentStartEvent or event.version is not None or event.tags:
        return None
    event = get()
    if type(event) is not MappingStartEvent or event.anchor is not None or event.tag is not None:
        return None
    mark = event.start_mark
    assert mark is not None  # libyaml's events always carry marks
    root: dict[str, Any] = {}
    entries: dict[KeyPath, Any] = {(): (mark.line + 1, mark.column + 1, 0, 0, False)}
    stack: list[tuple[Any, KeyPath, bool]] = []
    container: Any = root
    here: KeyPath = ()
    in_map = True
    key: str | None = None
    key_line = key_column = 0
    count = 1
    while True:
        event = get()
        cls = type(event)
        if cls is ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                return None
            count += 1
            text_value = event.value
            plain = event.implicit[0]
            if in_map and key is None:  # a key: a string, once per mapping, not '<<'
                if plain and (_resolve_plain(text_value) != _STR or text_value == "<<"):
                    return None
                if text_value in container:
                    return None
                key = text_value
                mark = event.start_mark
                key_line, key_column = mark.line + 1, mark.column + 1
                continue
            if plain and not text_value:
                # An empty value is placed just after its ':' by both parsers; other
                # empty values (after '? key', '- ', in flow) may be placed apart.
                index = event.start_mark.index
                if index < 1 or text[index - 1] != ":":
                    return None
            if plain:
                tag = _resolve_plain(text_value)
                if tag == _STR:
                    value: Any = text_value
                else:
                    value = _plain_value(tag, text_value)
                    if value is _INVALID:
                        return None
            else:
                value = text_value
                if event.style in ("|", ">") and not _BLOCK_HEADER_RE.match(
                        text, event.start_mark.index):
                    return None  # a header libyaml allows and PyYAML refuses ('|#')
            mark = event.start_mark
            if in_map:
                assert key is not None  # a missing key was read as the key above
                entries[here + (key,)] = (mark.line + 1, mark.column + 1, key_line, key_column, True)
                container[key] = value
                key = None
            else:
                entries[here + (len(container),)] = (mark.line + 1, mark.column + 1, 0, 0, True)
                container.append(value)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None:
                return None
            if in_map and key is None:  # a mapping or a list as a key
                return None
            count += 1
            if len(stack) + 2 > MAX_DEPTH:
                return None
            new: Any = {} if cls is MappingStartEvent else []
            mark = event.start_mark
            if in_map:
                assert key is not None  # a missing key returned above
                child = here + (key,)
                entries[child] = (mark.line + 1, mark.column + 1, key_line, key_column, False)
                container[key] = new
                key = None
            else:
                child = here + (len(container),)
                entries[child] = (mark.line + 1, mark.column + 1, 0, 0, False)
                container.append(new)
            stack.append((container, here, in_map))
            container, here, in_map = new, child, cls is MappingStartEvent
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            if not stack:
                break
            container, here, in_map = stack.pop()
        else:  # an alias, or anything unexpected
            return None
        if count > MAX_NODES:
            return None
    if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
        return None
    return Document(path, root, Positions(path, text, entries, exact=False), lines)


_INVALID = object()
# A block scalar's indicators as PyYAML's scanner accepts them.
_BLOCK_HEADER_RE = re.compile("[|>](?:[+-][1-9]?|[1-9][+-]?)?(?:[ \r\n\x85\u2028\u2029]|\\Z)")


def _plain_value(tag: str, text: str) -> Any:
    """A plain scalar's value by its resolved core tag (as :meth:`_Builder.scalar`);
    _INVALID where the builder would report a problem."""
    try:
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return text.lower() == "true"
        if tag == _INT:
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
        return _INVALID


def _load_python_text(path: str, text: str, lines: tuple[str, ...]) -> Document:
    loader = _Loader(text, path)
    try:
        try:
            loader.get_event()  # stream start
            if loader.check_event(StreamEndEvent):
                raise _empty(path)
            root = loader.compose_document()
            assert root is not None  # a document started, so it has a node
            if not loader.check_event(StreamEndEvent):
                event = loader.get_event()
                raise _Refused(Diagnostic(
                    _mark_location(path, event.start_mark),
                    "a variant file holds one YAML document, but a second one starts "
                    "here ('---')",
                    "yaml-multi-doc",
                ))
        except yaml.MarkedYAMLError as exc:
            raise _Refused(_yaml_diagnostic(path, exc)) from None
        except yaml.YAMLError as exc:
            raise _Refused(Diagnostic(Location(path, 1, 1), f"malformed YAML: {exc}",
                                      "yaml")) from None
        if isinstance(root, ScalarNode) and root.tag == _NULL and not root.value:
            raise _empty(path)
        builder = _Builder(loader, path, _line_starts(text))
        data = builder.build(root, (), 0, None)
        root_node = root.target if isinstance(root, _AliasNode) else root
        if not isinstance(root_node, MappingNode) or not isinstance(data, dict):
            if builder.diagnostics:
                raise VariantError(_with_snippet(d, lines) for d in builder.diagnostics)
            raise _Refused(Diagnostic(
                _mark_location(path, root_node.start_mark),
                f"the top level must be a mapping of keys, got {_kind(data)}",
                "top-level",
            ))
        if builder.diagnostics:
            raise VariantError(_with_snippet(d, lines) for d in builder.diagnostics)
        positions = Positions(path, text, builder.entries)
        return Document(path, data, positions, lines)
    finally:
        loader.dispose()


def _empty(path: str) -> _Refused:
    return _Refused(Diagnostic(
        Location(path, 1, 1),
        "the file is empty: a variant needs at least 'rummydsl', 'id' and 'name'",
        "empty",
    ))


def _yaml_diagnostic(path: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "unreadable YAML"
    context = exc.context if exc.problem else None
    if context and context.startswith("found duplicate anchor"):
        anchor = context.split("'")[1] if "'" in context else "?"
        first = exc.context_mark
        message = (f"the anchor &{anchor} is defined twice"
                   + (f" (first on line {first.line + 1})" if first else ""))
        return Diagnostic(_mark_location(path, mark), message, "yaml")
    message = f"malformed YAML: {problem}"
    for fragment, hint in _YAML_HINTS:
        if fragment in problem:
            message += f" ({hint})"
            break
    if context and exc.context_mark is not None and exc.context_mark is not mark:
        cm = exc.context_mark
        message += f", {context} that starts on line {cm.line + 1}, column {cm.column + 1}"
    return Diagnostic(_mark_location(path, mark), message, "yaml")
