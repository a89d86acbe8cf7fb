"""The canonical arrangement of a hand with wild cards, walked over its parts.

:meth:`~rummydsl.melds.search.HandSearch.walk` reads the canonical arrangement off the
general search's memo: from the lowest natural card left, the first of its moves (its
melds, the larger card-id mask first, then the more wild cards; then leaving it
unmatched) after which the rest still reaches the least cost; then the wild cards left,
the largest group of wild cards alone first, else one unmatched. No meld crosses two
parts of the hand (:mod:`.wildwindows`), so the least deadwood of what is left at any
step is each part's least deadwood of its cards left (:func:`~.partsearch.part_search`)
with the best sharing of the wild cards left among them, and the moves of the lowest
card are its part's melds: the same walk, over states of one part at a time, gives the
same arrangement without searching the whole hand (the part searches are a fraction of
its states). :func:`arrangement` builds it as
:meth:`~rummydsl.melds.search.HandSearch.arrangement` does: the wild cards dealt lowest id
first to the groups in the walk's order.

It answers the plain question only (no table, no contract, no discard) where the wild
windows apply, for values of 0 or more, at most
:data:`~rummydsl.melds.wildwindows.WILDS_MOST` wild cards and at most
:data:`~rummydsl.melds.partsearch.PART_MOST` natural cards in the hand (where the general
search cannot reach its work bound either, so no question that was an error becomes an
answer).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from .core import Arrangement, MeldCore, bits_of
from .partsearch import PART_MOST
from .wildshares import _NONE, WILDS_MOST, _combine
from .wildwindows import WildWindows, windows_of

__all__ = ["arrangement", "walked"]

_new_tuple = tuple.__new__


def walked(core: MeldCore, mask: int, discard: bool) -> Arrangement | None:
    """:func:`arrangement` by ``core``'s wild windows, or None where they do not apply (or for ``discard``)."""
    return None if discard or not (windows := windows_of(core)) else arrangement(windows, mask)


def arrangement(windows: WildWindows, mask: int) -> Arrangement | None:
    """The canonical arrangement of the cards of card-id mask ``mask`` (module docs), or
    None where the walk over the parts does not answer it."""
    core = windows.core
    natural = mask & core._natural_mask
    w = (mask ^ natural).bit_count()
    if not natural or not w or w > WILDS_MOST or not windows._plain_values or natural.bit_count() > PART_MOST:
        return None
    parts = windows.parts(natural, w)
    judged = core._judged
    judge = core._judge
    size = core._size
    values = core.values
    shapes = windows.shapes
    searches = [windows.searched(part, w) if shapes is None else shapes.own(part, w) for part in parts]
    melds = [m for m, _ in searches]
    asks = [ask for _, ask in searches]
    top = range(w + 1)
    left = list(parts)  # each part's cards not yet placed
    vectors = [[ask(part, j) for j in top] for ask, part in zip(asks, parts)]
    part_of = {cid: i for i, part in enumerate(parts) for cid in bits_of(part)}
    groups: list[tuple[int, int, int]] = []  # (natural card-id mask, wild cards, kinds; 0 for unmatched)
    deadwood = -1
    wilds = w
    others: Sequence[int] = _NONE[w]
    last = -1  # the part of the last step: the other parts' combination is the same while it is
    while natural:
        low = natural & -natural
        c = low.bit_length() - 1
        i = part_of[c]
        if i != last:
            others = _NONE[w]
            for t, vector in enumerate(vectors):
                if t != i:
                    others = _combine(others, vector, w)
            last = i
        here = vectors[i]
        target = min(here[j] + others[wilds - j] for j in range(wilds + 1))
        if deadwood < 0:
            deadwood = target
        ask = asks[i]
        state = left[i]
        moves = sorted([(m, k) for m, k in melds[i][0][c] if m & state == m and k <= wilds], reverse=True)
        for m, k in moves:
            rest = state ^ m
            spare = wilds - k
            if min(ask(rest, j) + others[spare - j] for j in range(spare + 1)) == target:
                kinds = judged.get(m | k << size)
                if kinds is None:
                    kinds = judge(m, k)
                groups.append((m, k, kinds))
                break
        else:
            m, k = low, 0
            rest = state ^ low
            assert values[c] + min(ask(rest, j) + others[wilds - j] for j in range(wilds + 1)) == target
            groups.append((low, 0, 0))
        left[i] = rest
        vectors[i] = [ask(rest, j) for j in top]
        natural ^= m
        wilds -= k
    if wilds:  # the wild cards left: every part's search reads them alike
        ask = asks[0]
        wild_melds = sorted(melds[0][1], reverse=True)
        while wilds:
            target = ask(0, wilds)
            for k in wild_melds:
                if k <= wilds and ask(0, wilds - k) == target:
                    kinds = judged.get(k << size)
                    if kinds is None:
                        kinds = judge(0, k)
                    groups.append((0, k, kinds))
                    wilds -= k
                    break
            else:
                groups.append((0, 1, 0))
                wilds -= 1
    return _arranged(core._cards, sorted((c for c in core._cards_of(mask) if c.wild), key=lambda c: c.id),
                     groups, deadwood, core._names)


def _arranged(cards: Sequence[Card], wild_pool: list[Card], groups: list[tuple[int, int, int]], deadwood: int,
              names: Callable[[int], frozenset[str]]) -> Arrangement:
    """The :class:`Arrangement` of the groups in the walk's order, as
    :meth:`~rummydsl.melds.search.HandSearch.arrangement` builds it (no table, no discard)."""
    melds: list[tuple[Card, ...]] = []
    kinds: list[frozenset[str]] = []
    unmatched: list[Card] = []
    for m, k, kind_bits in groups:
        own = [cards[cid] for cid in bits_of(m)]
        if k:
            own += wild_pool[:k]
            del wild_pool[:k]
        if kind_bits:
            melds.append(tuple(own) if not k else tuple(sorted(own, key=lambda c: c.id)))
            kinds.append(names(kind_bits))
        else:
            unmatched.extend(own)
    return _new_tuple(Arrangement, (deadwood, tuple(melds), tuple(kinds), tuple(sorted(unmatched, key=lambda c: c.id)),
                                    True, (), None, (), ()))
