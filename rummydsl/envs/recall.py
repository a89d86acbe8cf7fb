"""A seat's information state with perfect recall, as a digest kept up step by step.

OpenSpiel's information state (``iig_obs_type.perfect_recall``) must tell apart any two
histories the seat could tell apart: everything it has observed, in order, and its own
moves. For seat ``s`` that is the sequence of its observations after every step (the
planes of :class:`~.planes.Planes`, which hold only what the seat may know, tests/envs/
test_hidden.py) with the text of each move it made itself. Writing that sequence out
would grow with every step; :func:`advance` folds each step into a 16-byte BLAKE2b digest
of the one before, so an information state costs the same at any depth and two
differ exactly when their sequences do (but with the chance of a collision of a 128-bit
hash).

The digest is worked out only once something asks for an information state
(:func:`replay` from the match's steps, then :func:`advance` at each step): play that
never asks pays nothing.

>>> import rummydsl
>>> from rummydsl.envs.planes import Planes
>>> m = rummydsl.Match.new("gin_rummy", chance="explicit", history=False)
>>> planes = Planes(m)
>>> start = replay(m, planes)
>>> event = m.apply(m.legal_ids()[0])
>>> after = advance(start, planes, m, -1, str(event.action))
>>> len(after), after[0] != start[0], len(after[0])
(2, True, 16)
>>> replay(m, planes) == after
True
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from ..engine.match import Match
from ..engine.match_step import parse_step
from ..errors import RecordError, StalledGameError

if TYPE_CHECKING:
    from .planes import Planes

__all__ = ["advance", "replay", "start"]

_SIZE = 16


def _fold(digest: bytes, *parts: bytes) -> bytes:
    h = hashlib.blake2b(digest, digest_size=_SIZE)
    for part in parts:
        h.update(len(part).to_bytes(4, "little"))
        h.update(part)
    return h.digest()


def start(match: Match, planes: Planes) -> tuple[bytes, ...]:
    """Each seat's digest at the match's start: of its first observation."""
    return tuple(_fold(b"", planes.encode(match, seat).tobytes()) for seat in range(match.players))


def advance(recall: tuple[bytes, ...], planes: Planes, match: Match, mover: int, action: str) -> tuple[bytes, ...]:
    """The digests after one step: ``mover`` (a seat, or chance: a negative number) played ``action``
    (its text) and ``match`` is as it left it. Each seat folds in its observation now;
    the mover, its move as well."""
    out = []
    for seat, digest in enumerate(recall):
        seen = planes.encode(match, seat).tobytes()
        out.append(_fold(digest, seen, action.encode()) if seat == mover else _fold(digest, seen))
    return tuple(out)


def replay(match: Match, planes: Planes) -> tuple[bytes, ...]:
    """The digests of ``match`` worked out from its start: its steps
    (:meth:`Match.to_json <rummydsl.engine.match.Match.to_json>`) played again one by one.

    :raises RecordError: for a match with redeals (:meth:`Match.resample
        <rummydsl.engine.match.Match.resample>`): what was seen before the redeal is not
        in it (a resampled state takes its digests from the state it was sampled from).
    """
    written = match.to_json()
    if written.get("redeals"):
        raise RecordError("a resampled match keeps no record of what each seat saw before the redeal: "
                          "its information state comes from the state it was sampled from")
    again = Match.new(match.variant, seed=match.seed, players=match.players, chance=match.chance, history=False)
    recall = start(again, planes)
    for text in written["steps"]:
        mover = again.to_move
        try:
            action = str(again.apply(parse_step(again, text)).action)
        except StalledGameError as stalled:  # the last step, after which the game could not go on
            action = str(getattr(stalled, "event").action)
        recall = advance(recall, planes, again, mover, action)
    return recall
