"""Undo records: what one apply of a :class:`~.match.Match` moved, so that undo puts it back.

A match that keeps its history used to copy the round at every apply (the object, its
dict and every list of its state) and keep the old one for :meth:`Match.undo
<rummydsl.engine.match.Match.undo>`. Now a match that alone holds its round (it has
not been copied, nor handed the round out) plays on it in place, once it has made a
few applies on copies since it was made, copied or undone (``match_step.RECORDS_AFTER``:
an undo of those swaps states, where an undo of a record rebuilds), and keeps a
:class:`Delta` instead, as python-chess keeps a move and a small board state: the
round's attributes as they were (one dict), and the old contents of only those
fields of the round's declared state (:data:`~.round.STATE`: the hands, the stock,
the pile, the actions...) that the apply changed. A Gin step changes three or four of
them, so a step keeps a few containers where a copy kept about twenty-five, and the
cyclic garbage collector has that much less to walk.

The old contents come from the match's *shadow*: for each list-like field, a copy of
its contents as they are now, which nothing changes (a round no match changes any more
serves as its own shadow: :func:`shadow_of`). After an apply, each field is compared
with its shadow (in C: ``map(operator.ne, ...)``); a field that differs is recorded
with its shadow, and the shadow takes a copy of the new contents.

A record puts back *contents*, not objects: undo writes a fresh copy of each changed
field into the round it reverts (:func:`revert`), so it reverts the match's own round
in place, or a copy of a round another state still holds (after :meth:`Match.copy`),
alike. Nothing here knows a rule: every field is read from the declarations.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne
from typing import TYPE_CHECKING, Any, Callable

from .fields import copy_value
from .round import STATE

if TYPE_CHECKING:
    from .match_state import State
    from .round import Round

__all__ = ["Delta", "TRACKED", "untouched", "shadow_of", "moved", "revert", "put_back"]

TRACKED: tuple[str, ...] = tuple(f.name for f in STATE if f.kind != "value")
"""The fields of a round's state that are changed in place (lists, lists of lists, melds)."""

def _copier(kind: str) -> Callable[[Any], Any]:
    if kind == "list":
        return list.copy
    if kind == "lists":
        return lambda value: list(map(list, value))
    return lambda value: copy_value(kind, value)  # type: ignore[arg-type]


_COPY: tuple[Callable[[Any], Any], ...] = tuple(_copier(f.kind) for f in STATE if f.kind != "value")
"""For each tracked field, how its value is copied (as :meth:`Round.copy` copies it)."""

_get: Callable[[dict[str, Any]], tuple[Any, ...]] = itemgetter(*TRACKED)
_RANGE = range(len(TRACKED))
assert len(TRACKED) > 1  # itemgetter of one name gives the value, not a tuple


class Delta:
    """What one apply moved in a round it changed in place: undo puts it back.

    ``state`` is the match's state before the apply (its round may since have changed:
    the round reverted takes its place); ``before`` the round's attributes before the
    apply (its dict, copied shallow: one C copy, cheaper than finding the few that
    changed), or None for an apply that left the round as it was (a step of a lay-down,
    a card dealt as a chance outcome: :func:`untouched`); ``changed`` the tracked fields the apply changed (their indexes in
    :data:`TRACKED`) and ``old`` their contents before; ``ended`` whether the apply
    ended the round and the match went on with another (then the round to revert is
    ``state.round``, else the match's round in play)."""

    __slots__ = ("state", "before", "changed", "old", "ended")

    def __init__(self, state: State, before: dict[str, Any] | None, moves: tuple[tuple[int, ...], tuple[Any, ...]],
                 ended: bool) -> None:
        self.state = state
        self.before = before
        self.changed, self.old = moves
        self.ended = ended

    def __repr__(self) -> str:
        names = ", ".join(TRACKED[i] for i in self.changed)
        return f"<Delta of step {self.state.steps + 1}: {names or 'no field'} changed>"


def untouched(state: State) -> Delta:
    """The record of an apply that did not change the round (``state``: the state before):
    undo keeps the round in play as it is (later applies may have changed the object that
    ``state.round`` names, and undone their changes in a copy)."""
    return Delta(state, None, ((), ()), False)


def shadow_of(rnd: Round) -> list[Any]:
    """The shadow of a round that nothing changes any more: its own tracked values."""
    return list(_get(rnd.__dict__))


def moved(d: dict[str, Any], shadow: list[Any]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """The tracked fields of the round (its dict ``d``) that differ from ``shadow`` (their
    indexes) and their contents in the shadow; the shadow takes a copy of the new contents."""
    now = _get(d)
    changed = tuple(compress(_RANGE, map(ne, now, shadow)))
    old = tuple(map(shadow.__getitem__, changed))
    for i in changed:
        shadow[i] = _COPY[i](now[i])
    return changed, old


def put_back(rnd: Round, before: dict[str, Any], moves: tuple[tuple[int, ...], tuple[Any, ...]],
             shadow: list[Any]) -> None:
    """Put ``rnd`` back as it was before an apply: its attributes ``before`` (but the
    tracked fields' objects, which stay), then a fresh copy of each changed field's old
    contents. The shadow takes those contents back."""
    d = rnd.__dict__
    now = _get(d)
    if len(d) != len(before):  # the apply added an attribute (an apply sets attributes, never deletes one)
        d.clear()
    d.update(before)
    d.update(zip(TRACKED, now))
    for i, old in zip(*moves):
        d[TRACKED[i]] = _COPY[i](old)
        shadow[i] = old


def revert(delta: Delta, live: Round, shadow: list[Any] | None) -> tuple[Round, list[Any] | None]:
    """The round as it was before ``delta``'s apply, and its shadow: ``live`` (the match's
    round in play) reverted in place when the match alone holds it (``shadow``: its
    shadow), else a copy of it reverted, or a copy of ``delta.state.round`` when that
    apply ended its round and the match went on with another."""
    if delta.before is None:  # the apply left the round as it was
        return live, shadow  # the caller keeps its shadow, None or not
    if delta.ended:
        base = delta.state.round
    elif shadow is not None:
        put_back(live, delta.before, (delta.changed, delta.old), shadow)
        return live, shadow
    else:
        base = live
    target = base.copy()
    shadow = shadow_of(base)
    put_back(target, delta.before, (delta.changed, delta.old), shadow)
    return target, shadow
