"""Text from a file, shown on a terminal: control characters escaped, never sent raw.

A variant, a suite, a record or an agent comes from anyone, and what it holds is
printed: a name, a description, a meld kind, the line of a file beside an error.
A terminal obeys control characters, so a name holding ``ESC ] 0 ;`` would set the
window's title and ``ESC [ 2 J`` clear the screen. :func:`safe_text` is the one
function that makes such text harmless: every character a terminal could act on is
shown as a Python-style escape (``\\x1b``, ``\\x85``, ``\\u202e``, ``\\ud800``).

Escaped are the C0 controls but tab (and newline where the text has lines), DEL,
the C1 controls U+0080-U+009F, the bidirectional embeddings, overrides and isolates
(U+202A-U+202E, U+2066-U+2069: they reorder what a reader sees, "Trojan Source"),
and lone surrogates (not Unicode: no terminal encoding can write them). Everything
else, accents and card suits included, is left as written.

:class:`SafeStream` applies it to every write of a stream; ``rummydsl``'s command
line writes its standard output and error through one, so no command (``check``,
``explain``, ``test``, ``play``, ``simulate``, ...) can print a raw control
character, whatever reaches its output. JSON output (``--json``) is unchanged: it
escapes these characters already.

>>> safe_text("Gin\\x1b]0;pwned\\x07 rummy")
'Gin\\\\x1b]0;pwned\\\\x07 rummy'
>>> print(safe_text("a b\\nc\\u202ed\\x9b"))
a b
c\\u202ed\\x9b
>>> safe_text("one\\ntwo", lines=False)
'one\\\\ntwo'
>>> safe_text("Rommé ♠")
'Rommé ♠'
"""

from __future__ import annotations

import re
from typing import Any, TextIO

__all__ = ["safe_text", "SafeStream", "UNSAFE"]

UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
"""The characters :func:`safe_text` escapes when text keeps its lines (a regular
expression class): C0 but tab and newline, DEL, C1, the bidi controls, surrogates."""

_IN_TEXT = re.compile(f"[{UNSAFE}]")
_IN_LINE = re.compile(f"[{UNSAFE}\n]")


_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def safe_text(text: str, *, lines: bool = True) -> str:
    """``text`` with every character a terminal could act on written as an escape.

    :param lines: keep newlines (text of several lines); ``False`` escapes them
        too, for text that must stay on one line (the source line of a snippet).
    """
    pattern = _IN_TEXT if lines else _IN_LINE
    if pattern.search(text) is None:
        return text  # the usual case: nothing to change
    return pattern.sub(_escape, text)


class SafeStream:
    """A text stream whose writes go through :func:`safe_text` (newlines kept).

    Everything else (``flush``, ``isatty``, ``encoding``, ...) is the stream's own;
    :attr:`underlying` is the stream itself, for output that is rummydsl's own
    terminal control (the progress line redrawn with ``\\r``), never a file's text.

    >>> import io
    >>> out = io.StringIO()
    >>> print("name: \\x1b[2J", file=SafeStream(out))
    >>> out.getvalue()
    'name: \\\\x1b[2J\\n'
    """

    def __init__(self, stream: TextIO) -> None:
        self.underlying = stream

    def write(self, text: str) -> int:
        self.underlying.write(safe_text(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.underlying, name)
