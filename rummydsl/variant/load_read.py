"""Reading a variant file's text: the limits, the bytes, the encoding, the lines.

The first stage of :func:`rummydsl.variant.load.load_document`: a file is read to
at most :data:`MAX_FILE_BYTES` bytes, checked to be UTF-8 text that YAML accepts,
and split into lines the way YAML counts them. Every refusal is a
:class:`~rummydsl.errors.VariantError` with its rule code (``io``, ``limit-size``,
``encoding``).

Lines
-----
YAML breaks lines at ``\\r\\n``, ``\\r``, ``\\n`` and also at U+0085 (next line),
U+2028 (line separator) and U+2029 (paragraph separator). :func:`split_lines` and
:func:`line_starts` are the one definition of a line used everywhere: the
positions the loader reports, the source lines shown beside a diagnostic
(:func:`source_line`), so the line numbers agree with the YAML parser's and with
editors that follow the same rule.

>>> split_lines("a: 1\\u2028b: 2\\r\\nc: 3")
['a: 1', 'b: 2', 'c: 3']
>>> line_starts("a: 1\\u2028b: 2\\r\\nc: 3")
[0, 5, 11]
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple, Sequence

from rummydsl.errors import Diagnostic, Location, VariantError
from rummydsl.untrusted import Untrusted, open_regular
from rummydsl.limits import (
    MAX_FILE_BYTES,
    MAX_SUITE_FILE_BYTES,
    MAX_SUITE_YAML_ALIASES,
    MAX_SUITE_YAML_NODES,
    MAX_YAML_ALIASES,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_DEPTH",
    "MAX_ALIASES",
    "MAX_NODES",
    "YamlLimits",
    "VARIANT_LIMITS",
    "SUITE_LIMITS",
    "KeyPath",
    "LINE_BREAKS",
    "Refused",
    "split_lines",
    "line_starts",
    "source_line",
    "SourceLines",
    "read_file",
    "decode",
    "fail",
    "with_snippet",
]

MAX_DEPTH = MAX_YAML_DEPTH
"""The deepest nesting of mappings and sequences (:data:`rummydsl.limits.MAX_YAML_DEPTH`)."""
MAX_ALIASES = MAX_YAML_ALIASES
"""The most alias uses (``*name``) in one file (:data:`rummydsl.limits.MAX_YAML_ALIASES`)."""
MAX_NODES = MAX_YAML_NODES
"""The most values a file may expand to (:data:`rummydsl.limits.MAX_YAML_NODES`)."""



class YamlLimits(NamedTuple):
    """The size limits of one kind of YAML file (the depth limit is the same for all)."""

    file_bytes: int
    aliases: int
    nodes: int


VARIANT_LIMITS = YamlLimits(MAX_FILE_BYTES, MAX_YAML_ALIASES, MAX_YAML_NODES)
"""A variant file's limits."""
SUITE_LIMITS = YamlLimits(MAX_SUITE_FILE_BYTES, MAX_SUITE_YAML_ALIASES, MAX_SUITE_YAML_NODES)
"""A conformance suite file's limits (generated suites are large, :mod:`rummydsl.limits`)."""

KeyPath = tuple[str | int, ...]
"""Mapping keys and sequence indices from the root."""

LINE_BREAKS = "\r\n\x85\u2028\u2029"
"""The characters YAML breaks lines at (``\\r\\n`` counts as one break)."""
_LINE_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
# What YAML (and PyYAML's reader) refuses in a stream: control characters and the like.
_NON_PRINTABLE_RE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


class Refused(Exception):
    """Internal to the loader: stop reading with this diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


# ------------------------------------------------------------------------------- lines


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as YAML counts them, without their line breaks.

    >>> split_lines("one\\x85two\\u2029three\\n")
    ['one', 'two', 'three', '']
    """
    return _LINE_BREAK_RE.split(text)


def line_starts(text: str) -> list[int]:
    """The index in ``text`` where each line of :func:`split_lines` starts.

    >>> line_starts("one\\r\\ntwo\\u2028three")
    [0, 5, 9]
    """
    return [0] + [match.end() for match in _LINE_BREAK_RE.finditer(text)]


def source_line(path: str | Path, line: int) -> str | None:
    """Line ``line`` (1-based, as YAML counts lines) of the file ``path``, for printing
    beside a diagnostic; None if there is no such line or the file cannot be read.
    (For many lines, :class:`SourceLines` reads each file once.)"""
    return SourceLines().line(path, line)


class SourceLines:
    """The lines of source files, for the snippets beside diagnostics: each file is read
    (at most :data:`MAX_FILE_BYTES` of it) and split once, however many lines are asked
    for, so printing N problems of one file is linear in N, not N times the file.

    >>> lines = SourceLines()
    >>> lines.line("no/such/file.yaml", 1) is None
    True
    """

    def __init__(self) -> None:
        self._files: dict[str, list[str] | None] = {}

    def line(self, path: str | Path, line: int) -> str | None:
        """Line ``line`` (1-based) of ``path``; None if there is none or it cannot be read."""
        key = str(path)
        if key not in self._files:
            self._files[key] = self._read(key)
        lines = self._files[key]
        return lines[line - 1] if lines is not None and 1 <= line <= len(lines) else None

    @staticmethod
    def _read(path: str) -> list[str] | None:
        try:
            with open_regular(path) as handle:
                raw = handle.read(MAX_FILE_BYTES)
        except (OSError, ValueError):  # also a file refused by open_regular: never quoted
            return None
        return split_lines(raw.decode("utf-8", errors="replace").removeprefix("\ufeff"))


# -------------------------------------------------------------------------- diagnostics


def fail(path: str, message: str, rule: str, line: int = 0, column: int = 0) -> VariantError:
    """A :class:`VariantError` of one diagnostic."""
    return VariantError([Diagnostic(Location(path, line, column), message, rule)])


def with_snippet(diagnostic: Diagnostic, lines: Sequence[str]) -> Diagnostic:
    """The diagnostic with its source line attached, if it has none yet."""
    line = diagnostic.location.line
    if diagnostic.snippet is None and 1 <= line <= len(lines):
        return Diagnostic(diagnostic.location, diagnostic.message, diagnostic.rule,
                          diagnostic.severity, lines[line - 1])
    return diagnostic


# ------------------------------------------------------------------------------ reading


def read_file(path: str, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, never more than ``max_bytes`` of them.

    Only a regular file is read (:func:`rummydsl.untrusted.open_regular`): a folder,
    FIFO, socket, device or a file under /proc is refused by name and kind, ``io``.
    """
    size = 0
    try:
        is_folder = os.path.isdir(path)
    except ValueError:  # e.g. a NUL inside the path
        is_folder = False
    if is_folder:
        raise fail(path, "cannot read the file: it is a directory", "io")
    try:
        with open_regular(path) as handle:
            data = handle.read(max_bytes + 1)
            if len(data) > max_bytes:
                size = max(os.fstat(handle.fileno()).st_size, len(data))
    except Untrusted as refused:
        raise fail(path, f"cannot read the file: {refused}", "io") from None
    except FileNotFoundError:
        raise fail(path, "cannot read the file: it does not exist", "io") from None
    except IsADirectoryError:
        raise fail(path, "cannot read the file: it is a directory", "io") from None
    except PermissionError:
        raise fail(path, "cannot read the file: permission denied", "io") from None
    except (OSError, ValueError) as exc:  # ValueError: e.g. a NUL inside the path
        reason = getattr(exc, "strerror", None) or str(exc)
        raise fail(path, f"cannot read the file: {reason}", "io") from None
    if size:
        raise _too_big(path, size, max_bytes)
    return data


def _too_big(path: str, size: int, max_bytes: int = MAX_FILE_BYTES) -> VariantError:
    mib = max_bytes >= 1 << 20 and not max_bytes % (1 << 20)
    unit = f"{max_bytes >> 20} MiB" if mib else f"{max_bytes // 1024} KiB"
    return fail(
        path,
        f"the file is too large: {size:,} bytes, and a variant file may be at most "
        f"{max_bytes:,} bytes ({unit})",
        "limit-size",
    )


def decode(path: str, raw: str | bytes, max_bytes: int = MAX_FILE_BYTES) -> str:
    """Check size and encoding; the text without a leading byte-order mark."""
    if isinstance(raw, str):
        bad = raw.find("\0")
        if bad >= 0:
            line, column = _text_position(raw, bad)
            raise fail(path, f"not a text file: a NUL character at offset {bad}",
                       "encoding", line, column)
        try:
            size = len(raw.encode("utf-8"))
        except UnicodeEncodeError as exc:
            line, column = _text_position(raw, exc.start)
            raise fail(path, f"not a text file: an unpaired surrogate "
                       f"U+{ord(raw[exc.start]):04X} at offset {exc.start}",
                       "encoding", line, column) from None
        if size > max_bytes:
            raise _too_big(path, size, max_bytes)
        text = raw
    else:
        if len(raw) > max_bytes:
            raise _too_big(path, len(raw), max_bytes)
        bad = raw.find(b"\0")
        if bad >= 0:
            line, column = _bytes_position(raw, bad)
            raise fail(path, f"not a text file: a NUL byte at byte offset {bad}",
                       "encoding", line, column)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, column = _bytes_position(raw, exc.start)
            raise fail(path, f"not a text file: byte 0x{raw[exc.start]:02x} at byte "
                       f"offset {exc.start} is not valid UTF-8", "encoding",
                       line, column) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    match = _NON_PRINTABLE_RE.search(text)
    if match:
        line, column = _text_position(text, match.start())
        raise fail(path, f"not a text file: the control character "
                   f"U+{ord(match.group()):04X} at offset {match.start()} is not "
                   "allowed in YAML", "encoding", line, column)
    return text


def _text_position(text: str, offset: int) -> tuple[int, int]:
    starts = line_starts(text[:offset])
    return len(starts), offset - starts[-1] + 1


def _bytes_position(raw: bytes, offset: int) -> tuple[int, int]:
    return _text_position(raw[:offset].decode("utf-8", errors="replace"),
                          len(raw[:offset].decode("utf-8", errors="replace")))
