"""The playground's sessions: the texts one browser posted, which its later texts may extend.

``GET /api/variants`` gives the page a ``"session"``, a random token of the server's;
the page sends it back as ``"session"`` with every text it posts. A text of a session
that checks with no error is kept under its ``id`` (unless that id is a shipped
variant's: a shipped id is never shadowed), and a later text of the same session may
then write ``extends: <that id>`` (:func:`rummydsl.variant.extends.posted_parents`).
No other session can reach it, and nothing of it is ever a file on the server.

Bounds (docs/limits.md): at most :data:`MAX_SESSIONS` sessions (the least recently
used forgotten past it), each forgotten :data:`MAX_SESSION_SECONDS` after its last
request, each keeping at most :data:`MAX_SESSION_TEXTS` texts and
:data:`MAX_SESSION_BYTES` bytes of them (the ones posted longest ago forgotten first).

>>> sessions = Sessions()
>>> key = sessions.new()
>>> sessions.remember(key, "base", "id: base\\nname: B\\nextends: gin_rummy\\n")
>>> list(sessions.texts(key))
['base']
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any, Callable

from ..limits import MAX_SESSION_BYTES, MAX_SESSION_SECONDS, MAX_SESSION_TEXTS, MAX_SESSIONS
from ..variant import is_variant_id, shipped_variant_ids
from .texts import TextProblem, quoted

__all__ = ["Sessions"]


class _Session:
    def __init__(self, used: float) -> None:
        self.used = used
        self.texts: dict[str, str] = {}  # id -> text, the one posted longest ago first


class Sessions:
    """The sessions of a server, in memory. ``clock`` is for tests (monotonic by default)."""

    def __init__(self, limit: int = MAX_SESSIONS, texts: int = MAX_SESSION_TEXTS,
                 size: int = MAX_SESSION_BYTES, age: float = MAX_SESSION_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.most_texts = texts
        self.size = size
        self.age = age
        self.clock = clock
        self._sessions: dict[str, _Session] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sessions)

    def _forget_old(self) -> None:
        now = self.clock()
        for key in [k for k, s in self._sessions.items() if now - s.used > self.age]:
            del self._sessions[key]

    def new(self) -> str:
        """A new session's token (forgetting the least recently used one when full)."""
        with self._lock:
            self._forget_old()
            while len(self._sessions) >= self.limit:
                del self._sessions[min(self._sessions, key=lambda k: self._sessions[k].used)]
            key = secrets.token_urlsafe(16)
            self._sessions[key] = _Session(self.clock())
            return key

    def _get(self, key: Any) -> _Session:
        if not isinstance(key, str):
            raise TextProblem(f"'session' must be the token GET /api/variants gave, not {quoted(key, 40)}")
        self._forget_old()
        session = self._sessions.get(key)
        if session is None:
            raise TextProblem(f"no session {quoted(key, 40)}: it never was, or it was forgotten after "
                              f"{int(self.age // 60)} minutes unused; reload the page for a new one")
        session.used = self.clock()
        return session

    def texts(self, key: Any) -> dict[str, str]:
        """The texts session ``key`` keeps, by id (a copy).

        :raises TextProblem: for a token unknown (or forgotten).
        """
        with self._lock:
            return dict(self._get(key).texts)

    def remember(self, key: Any, variant_id: Any, text: str) -> None:
        """Keep ``text`` in session ``key`` under ``variant_id``; a shipped id or one not
        written as an id is not kept. The texts posted longest ago are forgotten past the
        session's bounds."""
        if not isinstance(variant_id, str) or not is_variant_id(variant_id) or variant_id in shipped_variant_ids():
            return
        with self._lock:
            session = self._get(key)
            session.texts.pop(variant_id, None)
            session.texts[variant_id] = text
            while session.texts and (len(session.texts) > self.most_texts or
                                     sum(len(t.encode("utf-8")) for t in session.texts.values()) > self.size):
                del session.texts[next(iter(session.texts))]
