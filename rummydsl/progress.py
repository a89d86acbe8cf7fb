"""Progress of a long run on standard error (simulate, compare, sweep): games done,
games a second, time left.

Drawn as one line redrawn with ``\\r`` on a terminal, only once a run has taken
half a second, at most ten times a second; on anything that is not a terminal
(a pipe, a file, a test's buffer) nothing is written unless ``force`` is set,
and then one plain line at most every ``every`` seconds (and for the last game).

>>> import io
>>> stream = io.StringIO()
>>> clock = iter([0.0, 1.0, 2.0, 3.0]).__next__
>>> bar = Progress(stream, total=100, force=True, clock=clock)
>>> bar.update(50, None)
>>> bar.update(100, None)
>>> bar.close()
>>> print(stream.getvalue(), end="")
50/100 games, 50.0 games/s, about 1 s left
100/100 games, 50.0 games/s, about 0 s left
"""

from __future__ import annotations

import time
from typing import Callable, TextIO

__all__ = ["Progress"]

BAR = 30
"""The width of the bar drawn before the line on a terminal when the run's end is known."""


class Progress:
    """A progress line for games done of ``total`` (``None``: until the intervals are narrow enough)."""

    def __init__(self, stream: TextIO, total: int | None, *, until: float | None = None, force: bool = False,
                 every: float = 0.1, clock: Callable[[], float] = time.monotonic, before: int = 0,
                 unit: str = "games") -> None:
        # The line is rummydsl's own text: it redraws with "\r" past the command's escaping
        # stream (rummydsl.safetext.SafeStream), which would show the "\r" as "\x0d".
        self.stream: TextIO = getattr(stream, "underlying", stream)
        self.unit = unit
        """What is counted, plural (``games``, ``hands``)."""
        self.before = before
        """Games done before this run started (a resumed run): counted, but not in the rate."""
        self.total = total
        self.until = until
        self.terminal = _is_terminal(stream)
        self.enabled = self.terminal or force
        self.every = every
        self.clock = clock
        self.started = clock()
        self.drawn_at = self.started
        self.shown = False
        self.drawn = 0
        """The longest line drawn on the terminal (what ``close`` clears)."""

    def line(self, done: int, width: float | None, now: float) -> str:
        """The text of the progress line.

        >>> import io
        >>> Progress(io.StringIO(), 100, clock=lambda: 0.0, before=40).line(60, None, 10.0)
        '60/100 games, 2.0 games/s, about 20 s left'
        """
        elapsed = max(now - self.started, 1e-9)
        rate = max(done - self.before, 0) / elapsed
        if self.total is not None:
            left = (self.total - done) / rate if rate else 0.0
            return f"{done}/{self.total} {self.unit}, {rate:.1f} {self.unit}/s, about {left:.0f} s left"
        widest = "not checked yet" if width is None else f"widest interval {width:.4f}"
        return f"{done} {self.unit}, {rate:.1f} {self.unit}/s, {widest} (until < {self.until:g})"

    def update(self, done: int, width: float | None = None) -> None:
        """Redraw after ``done`` games (``width``: the widest interval at the last check)."""
        if not self.enabled:
            return
        now = self.clock()
        final = self.total is not None and done >= self.total
        if self.terminal and now - self.started < 0.5 and not final:
            return
        wait = min(self.every, 0.1) if self.terminal else self.every
        if (self.shown or not self.terminal) and now - self.drawn_at < wait and not final:
            return
        self.drawn_at = now
        text = self.line(done, width, now)
        if self.terminal:
            if self.total is not None:  # a bar, where the end is known
                filled = BAR * min(done, self.total) // max(self.total, 1)
                text = f"[{'#' * filled}{'.' * (BAR - filled)}] {text}"
            self.drawn = max(self.drawn, len(text))
            self.stream.write("\r" + text.ljust(79))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the line from a terminal."""
        if self.shown and self.terminal:
            self.stream.write("\r" + " " * max(79, self.drawn) + "\r")
            self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
