"""Reading a model's answer: a JSON object, a ``{"move": ...}`` object, or a move in prose.

:func:`parse_response` finds the one move an answer means, or says clearly why there is
none; its three errors are the engine's three action errors (docs/errors.md), so a
harness retries on any :class:`~rummydsl.errors.ActionError` and can tell a model that
named nothing (:class:`NoMoveError`) from one that named a move the rules refuse
(:class:`IllegalMoveError`) or several (:class:`AmbiguousMoveError`).

>>> legal = ["P1 draw stock", "P1 draw discard"]
>>> parse_response('{"move": "P1 draw stock"}', legal)
'P1 draw stock'
>>> parse_response("I will take the discard: p1 draw discard.", legal)
'P1 draw discard'
>>> parse_response("```json\\n{\\"move\\": \\"draw stock\\"}\\n```", legal)
'P1 draw stock'
>>> parse_response("Either P1 draw stock or P1 draw discard.", legal)
Traceback (most recent call last):
...
rummydsl.llm.parse.AmbiguousMoveError: 'Either P1 draw stock or P1 draw discard.': the answer names 2 legal moves ('P1 draw stock', 'P1 draw discard'); answer with one, as {"move": "..."}
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterator, Sequence

from ..engine.match_view import MatchObservation
from ..engine.observe import Observation
from ..errors import AmbiguousActionError, IllegalActionError, MalformedActionError, RummyDslError
from .view import seat_view

__all__ = ["parse_response", "NoMoveError", "IllegalMoveError", "AmbiguousMoveError", "MAX_RESPONSE"]

MAX_RESPONSE = 200_000
"""The longest answer read, in characters (the rest is ignored)."""

_KEYS = ("move", "action")
"""The keys of a JSON answer that hold the move."""


class NoMoveError(MalformedActionError):
    """An answer in which no move can be found."""


class IllegalMoveError(IllegalActionError):
    """An answer that names a move, but one that is not legal now (the reason says why)."""


class AmbiguousMoveError(AmbiguousActionError):
    """An answer that names more than one legal move."""


def parse_response(text: str, legal: Sequence[str] | Observation | MatchObservation) -> str:
    """The one legal move ``text`` answers, as its notation in ``legal``.

    ``legal`` is the list of legal moves (:func:`~rummydsl.llm.get_legal_moves`), or the
    seat's observation; with an observation, a move the list leaves out but the rules
    allow (a lay-down of other melds, a knock that names its melds) is accepted too, and
    an illegal one is refused with the rules' reason. Read in this order:

    1. JSON: each ``{...}`` object in the answer (in a fenced block or not) with a
       ``"move"`` (or ``"action"``) string; the last one is the answer.
    2. A line ``move: ...`` (or ``answer:``, ``final answer:``); the last one.
    3. The whole text: every legal move it names (case and spacing aside, longest
       first, so ``P1 meld [3S 4S 5S] [7H 7D 7C]`` is not also read as its first meld);
       exactly one must be named.

    A move may leave out the seat (``draw stock`` for ``P1 draw stock``).

    :raises NoMoveError: when the answer names no move.
    :raises IllegalMoveError: when it names a move that is not legal now.
    :raises AmbiguousMoveError: when it names several legal moves.
    """
    view: Observation | None = None
    if isinstance(legal, (Observation, MatchObservation)):
        view = seat_view(legal)
        moves = [str(a) for a in view.legal_actions()]
    else:
        moves = [str(m) for m in legal]
    if not isinstance(text, str):
        raise NoMoveError(repr(text)[:80], f"the answer is a {type(text).__name__}, not text")
    text = text[:MAX_RESPONSE]
    shown = _short(text)
    if not moves:
        raise IllegalMoveError(shown, "there is no legal move now: it is not this seat's turn")
    seat = moves[0].split(" ", 1)[0]
    canon = {_norm(m): m for m in moves}
    chosen = [m for m in _json_moves(text)] or _marked(text)
    if chosen:
        return _one(chosen[-1], canon, seat, view)
    found = _scan(text, canon, seat)
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        listed = ", ".join(repr(m) for m in found[:6]) + (", ..." if len(found) > 6 else "")
        raise AmbiguousMoveError(shown, f"the answer names {len(found)} legal moves ({listed}); answer with one, "
                                 'as {"move": "..."}')
    guess = _notation_guess(text)
    if guess is not None:
        return _one(guess, canon, seat, view)
    raise NoMoveError(shown, 'no move found in the answer; answer with one legal move, as {"move": "' + moves[-1]
                      + '"}')


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 80 else flat[:77] + "..."


def _norm(move: str) -> str:
    """A move's text for comparing: upper case, single spaces, no space inside brackets."""
    flat = " ".join(move.replace("[", " [ ").replace("]", " ] ").split()).upper()
    return flat.replace("[ ", "[").replace(" ]", "]")


def _json_objects(text: str) -> Iterator[Any]:
    """Every JSON object of ``text``, in order (a fenced block's too: it is part of the text)."""
    decoder = json.JSONDecoder()
    at = text.find("{")
    while at >= 0:
        try:
            value, end = decoder.raw_decode(text, at)
        except (json.JSONDecodeError, RecursionError):
            at = text.find("{", at + 1)
            continue
        yield value
        at = text.find("{", end)


def _json_moves(text: str) -> list[str]:
    out: list[str] = []
    for value in _json_objects(text):
        if not isinstance(value, dict):
            continue
        for key in _KEYS:
            move = value.get(key)
            if isinstance(move, str) and move.strip():
                out.append(move.strip())
                break
    return out


_MARK = re.compile(r"^\s*(?:\*\*)?(?:final\s+answer|answer|move)(?:\*\*)?\s*[:=-]\s*(.+?)\s*$",
                   re.IGNORECASE | re.MULTILINE)


def _marked(text: str) -> list[str]:
    return [m.strip().strip("`*\"'. ") for m in _MARK.findall(text) if m.strip().strip("`*\"'. ")]


def _one(move: str, canon: dict[str, str], seat: str, view: Observation | None) -> str:
    """The legal move ``move`` (from a JSON object or a marked line) is, seat added if missing."""
    key = _norm(move.strip().rstrip("."))
    candidates = [key] if re.match(r"P\d+ ", key) else [f"{seat.upper()} {key}", key]
    aliases = {form: move for key, move in canon.items() for form in _aliases(key)}
    for candidate in candidates:
        if candidate in aliases:
            return aliases[candidate]
    written = candidates[0]
    if view is not None:
        try:
            action = view.parse(written)
        except RummyDslError as problem:
            reason = getattr(problem, "reason", None) or str(problem)
            raise IllegalMoveError(move[:80], f"not a move: {reason}") from None
        if _norm(str(action)) in canon:
            return canon[_norm(str(action))]
        if action in view.legal_actions():
            return str(action)
        raise IllegalMoveError(move[:80], view.why_illegal(action) or "not legal now")
    raise IllegalMoveError(move[:80], "not one of the legal moves")


_TEN = re.compile(r"(?<![A-Z0-9])T(?=[A-Z](?![A-Z0-9]))")


def _aliases(key: str) -> list[str]:
    """A move's text and, where it names a ten as ``T``, the same with ``10`` (docs/notation.md)."""
    ten = _TEN.sub("10", key.split(" ", 1)[1]) if " " in key else key
    return [key] if ten == key.split(" ", 1)[-1] else [key, key.split(" ", 1)[0] + " " + ten]


def _scan(text: str, canon: dict[str, str], seat: str) -> list[str]:
    """Every legal move named in ``text``, longest first, none inside another's span."""
    flat = _norm(text)
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    forms: list[tuple[str, str]] = []
    prefix = seat.upper() + " "
    for key, move in canon.items():
        for form in _aliases(key):
            forms.append((form, move))
            bare = form[len(prefix):]
            if form.startswith(prefix) and " " in bare:  # 'draw stock'; not 'pass' or 'take', words of prose
                forms.append((bare, move))
    forms.sort(key=lambda form: -len(form[0]))
    for form, move in forms:
        for span in _hits(flat, form):
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue
            taken.append(span)
            if move not in (m for _, m in found):
                found.append((span[0], move))
    return [move for _, move in sorted(found)]


_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#*/")
"""What may not come just before a move named in prose (it would be part of a longer word or card)."""
_AFTER = _BEFORE | {"["}
"""What may not come just after one (a card, a word, or a meld that goes on)."""


def _hits(flat: str, form: str) -> Iterator[tuple[int, int]]:
    """Each place ``form`` stands in ``flat`` as words of its own (a plain search: a pattern
    compiled for each of hundreds of lay-downs cost a fifth of a second an answer)."""
    start = flat.find(form)
    while start >= 0:
        end = start + len(form)
        if (start == 0 or flat[start - 1] not in _BEFORE) and (end == len(flat) or flat[end] not in _AFTER):
            yield start, end
        start = flat.find(form, start + 1)


_VERBS = re.compile(r"\b(?:P\d+\s+)?(?:DRAW|PASS|DISCARD|KNOCK|MELD|LAYOFF|OFFER|TAKE|DECLINE|BUY|DONE)\b[^\n.;,]*",
                    re.IGNORECASE)


def _notation_guess(text: str) -> str | None:
    """A move-like phrase in the text (for the reason an illegal one is refused), or None."""
    hit = _VERBS.search(text)
    return hit.group(0).strip() if hit else None
