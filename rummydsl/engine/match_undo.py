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
the pile...) that the apply changed. A Gin step changes three or four of
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

A step makes and keeps as few objects as it can, for the cyclic garbage collector
walks every object a long history holds, and a collection of the whole heap comes
sooner the more objects survive (in random Gin hands with history it cost as much as
the step itself): a list of lists (the hands) is recorded, and its shadow copied,
list by list, only the lists that changed; the round's actions, which only grow
(:meth:`Round._play <rummydsl.engine.round.Round._play>` appends to them, and nothing
else changes them), are not compared or copied: a record keeps how many there were.
"""

from __future__ import annotations

from functools import partial
from itertools import compress
from operator import itemgetter, ne
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .fields import Kind, copy_value
from .round import STATE

if TYPE_CHECKING:
    from .match_state import State
    from .round import Round

__all__ = ["Delta", "TRACKED", "LOG", "untouched", "shadow_of", "before_apply", "moved", "revert", "put_back"]

LOG = "actions"
"""The round's actions: they only grow (``Round._play`` appends each action played, and
nothing else changes them), so a record keeps their count, not their contents."""

TRACKED: tuple[str, ...] = tuple(f.name for f in STATE if f.kind != "value" and f.name != LOG)
"""The fields of a round's state that are changed in place (lists, lists of lists, melds),
compared with the shadow after each apply (all but the actions)."""

_KINDS: tuple[Kind, ...] = tuple(f.kind for f in STATE if f.kind != "value" and f.name != LOG)
_LIST_AT = frozenset(i for i, kind in enumerate(_KINDS) if kind == "list")
_LISTS_AT = frozenset(i for i, kind in enumerate(_KINDS) if kind == "lists")


def _copy_lists(value: Any) -> Any:
    return list(map(list, value))


_COPY: tuple[Callable[[Any], Any], ...] = tuple(
    list.copy if kind == "list" else _copy_lists if kind == "lists" else partial(copy_value, kind)
    for kind in _KINDS)
"""For each tracked field, how its value is copied (as :meth:`Round.copy` copies it)."""

_get: Callable[[dict[str, Any]], tuple[Any, ...]] = itemgetter(*TRACKED)
_RANGE = range(len(TRACKED))
assert len(TRACKED) > 1  # itemgetter of one name gives the value, not a tuple

Before = tuple[dict[str, Any], int]
"""A round's attributes before an apply and its count of actions (:func:`before_apply`)."""


class Delta:
    """What one apply moved in a round it changed in place: undo puts it back.

    ``state`` is the match's state before the apply (its round may since have changed:
    the round reverted takes its place); ``before`` the round's attributes before the
    apply (:func:`before_apply`), or None for an apply that left the round as it was
    (a step of a lay-down, a card dealt as a chance outcome: :func:`untouched`);
    ``length`` how many actions the round had; ``moves`` the tracked fields the apply
    changed and their old contents, flat (:func:`moved`); ``ended`` whether the apply
    ended the round and the match went on with another (then the round to revert is
    ``state.round``, else the match's round in play)."""

    __slots__ = ("state", "before", "length", "moves", "ended")
    before: dict[str, Any] | None
    length: int

    def __init__(self, state: State, before: Before | None, moves: tuple[Any, ...], ended: bool) -> None:
        self.state = state
        self.before, self.length = (None, 0) if before is None else before
        self.moves = moves
        self.ended = ended

    @property
    def changed(self) -> tuple[int, ...]:
        """The indexes in :data:`TRACKED` of the fields the apply changed (once each)."""
        return tuple(dict.fromkeys(i for i, _, _ in _records(self.moves)))

    def __repr__(self) -> str:
        names = ", ".join(TRACKED[i] for i in self.changed)
        return f"<Delta of step {self.state.steps + 1}: {names or 'no field'} changed>"


def untouched(state: State) -> Delta:
    """The record of an apply that did not change the round (``state``: the state before):
    undo keeps the round in play as it is (later applies may have changed the object that
    ``state.round`` names, and undone their changes in a copy)."""
    return Delta(state, None, (), False)


def shadow_of(rnd: Round) -> list[Any]:
    """The shadow of a round that nothing changes any more: its own tracked values, but a
    list of lists its own outer list (whose lists :func:`moved` replaces one by one;
    any other entry of a shadow is replaced whole, never changed)."""
    shadow = list(_get(rnd.__dict__))
    for i in _LISTS_AT:
        shadow[i] = shadow[i][:]
    return shadow


def before_apply(rnd: Round) -> Before:
    """What a record keeps of a round's attributes before an apply: all of them (one C
    copy of its dict: cheaper than finding the few that change), but its listing (put
    back as None: worked out again if asked); and its count of actions."""
    d = rnd.__dict__
    attrs = d.copy()
    attrs["_listed"] = None
    return attrs, len(d[LOG])


def moved(d: dict[str, Any], shadow: list[Any]) -> tuple[Any, ...]:
    """The tracked fields of the round (its dict ``d``) that differ from ``shadow``, and
    their old contents (the shadow's, which nothing changes), flat: a field's index and
    its old contents; or, for a list of lists whose lists are as many (the hands), for
    each list that changed ``-1 - index``, its position and its old contents. The shadow
    takes a copy of the new contents (of such a list of lists, of the lists that changed)."""
    now = _get(d)
    changed = tuple(compress(_RANGE, map(ne, now, shadow)))
    if not changed:
        return ()
    moves: list[Any] = []
    for i in changed:
        old = shadow[i]
        new = now[i]
        if i in _LIST_AT:
            moves += (i, old)
            shadow[i] = new[:]
        elif i in _LISTS_AT and len(old) == len(new):  # the shadow's own outer list: its lists replaced
            for j in compress(range(len(new)), map(ne, new, old)):
                moves += (-1 - i, j, old[j])
                old[j] = new[j][:]
        else:
            moves += (i, old)
            shadow[i] = _COPY[i](new)
    return tuple(moves)


def _records(moves: tuple[Any, ...]) -> Iterator[tuple[int, int | None, Any]]:
    """Each record of :func:`moved`'s ``moves``: (field index, position in a list of
    lists or None for the whole field, old contents)."""
    k = 0
    while k < len(moves):
        i = moves[k]
        if i < 0:
            yield -1 - i, moves[k + 1], moves[k + 2]
            k += 3
        else:
            yield i, None, moves[k + 1]
            k += 2


def put_back(rnd: Round, before: Before, moves: tuple[Any, ...], shadow: list[Any]) -> None:
    """Put ``rnd`` back as it was before an apply: its attributes ``before`` (but the
    tracked fields' objects, which stay), a fresh copy of each changed field's (or list's)
    old contents, and its actions as many as they were. The shadow takes those contents back."""
    attrs, length = before
    assert attrs is not None
    d = rnd.__dict__
    now = _get(d)
    log = d[LOG]
    if len(d) != len(attrs):  # the apply added an attribute (an apply sets attributes, never deletes one)
        d.clear()
    d.update(attrs)
    d.update(zip(TRACKED, now))
    d[LOG] = log
    del log[length:]
    for i, j, old in _records(moves):
        if j is not None:  # one list of a list of lists: the round's (or its copy's) own outer list
            now[i][j] = old[:]
            shadow[i][j] = old
        else:
            d[TRACKED[i]] = _COPY[i](old)
            shadow[i] = old[:] if i in _LISTS_AT else old  # a shadow's own outer list


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
        put_back(live, (delta.before, delta.length), delta.moves, shadow)
        return live, shadow
    else:
        base = live
    target = base.copy()
    shadow = shadow_of(base)
    put_back(target, (delta.before, delta.length), delta.moves, shadow)
    return target, shadow
