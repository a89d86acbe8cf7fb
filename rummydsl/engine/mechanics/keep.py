"""What the listings keep per object they are asked about (a deck, a variant's kinds or
solver), by the object's identity: built the first time, the oldest of a few dropped.

A key is an ``id``, so each entry holds its object too: an id reused by a new object after
the old one was freed does not find the old one's memo. ``partner`` is a second object the
memo depends on (the deck, for a memo kept by the kinds)."""

from __future__ import annotations

from typing import Callable, TypeVar

_T = TypeVar("_T")



def kept(store: dict[int, tuple[object, object, _T]], owner: object, limit: int, build: Callable[[], _T],
         partner: object = None) -> _T:
    """What ``store`` keeps for ``owner`` (and ``partner``), built the first time; the
    oldest of ``limit`` dropped."""
    got = store.get(id(owner))
    if got is None or got[0] is not owner or got[1] is not partner:
        if len(store) >= limit:
            store.pop(next(iter(store)))
        got = store[id(owner)] = (owner, partner, build())
    return got[2]
