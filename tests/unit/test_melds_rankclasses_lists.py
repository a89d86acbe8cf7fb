"""The rank classes' listings (rummydsl/melds/rankclasses.py, rankcontract.py) list what
a plain listing lists.

A pattern's melds with a card of one class, and a part's contract meld-size multisets
(grown in list order, smallest melds first), are held here to a plain reading of their
definitions, on the patterns of random hands of the Skarney-like rules of
``test_melds_rankclasses``: every window around each of the class's positions and every
set of its count, judged one by one; every collection of disjoint melds, in any order.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummydsl.melds.rankclasses import RankClasses
from rummydsl.melds.rankcontract import size_sets, sized_melds

from test_melds_rankclasses import RULES, SETTINGS, hands, solvers

ONE_CLASS = [i for i, r in enumerate(RULES) if r[1] == "not_all_same" and r[3] == "ranks"]


def _classes(index: int) -> RankClasses:
    windows = solvers(index)[0]._windows()
    assert windows and windows.rank_classes is not None and windows.rank_classes.one_class
    return windows.rank_classes


def plain_melds(classes: RankClasses, k: int, key: int) -> set[int]:
    """The patterns of the melds with a card of class ``k`` that pattern ``key`` holds, window by window."""
    field, shift_at, guards = classes.field, classes.shift_at, classes.guards
    have = key >> (k * classes.width) & field
    out = set()
    for lo, hi in classes.set_sizes:
        for r in range(lo, (have if hi is None else min(hi, have)) + 1):
            if classes.melds_pattern(r * classes.inc[k]):
                out.add(r * classes.inc[k])
    for lo, hi in classes.runs:
        for p in classes.positions[k]:
            down, up = p, p
            while key >> shift_at[down - 1] & field:
                down -= 1
            while key >> shift_at[up + 1] & field:
                up += 1
            for a in range(down, p + 1):
                for b in range(p, up + 1):
                    size = b - a + 1
                    if size < lo or (hi is not None and size > hi):
                        continue
                    group = classes.windows[(a, b)][0]
                    if ((key | guards) - group) & guards == guards and classes.melds_pattern(group):
                        out.add(group)
    return out


def plain_size_sets(classes: RankClasses, key: int, sizes: tuple[int, int],
                    most_melds: int | None) -> frozenset[tuple[int, ...]]:
    """Every collection of disjoint melds of ``sizes`` cards, at most ``most_melds``, taken in any order."""
    groups = sorted(sized_melds(classes, key, *sizes))
    guards = classes.guards
    out: set[tuple[int, ...]] = set()
    seen: set[tuple[int, tuple[int, ...]]] = set()
    stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    while stack:
        used, taken = stack.pop()
        if (used, taken) in seen:
            continue
        seen.add((used, taken))
        out.add(taken)
        if most_melds is not None and len(taken) >= most_melds:
            continue
        for group in groups:
            now = used + group
            if ((key | guards) - now) & guards == guards:
                stack.append((now, tuple(sorted(taken + (classes._size(group),)))))
    return frozenset(out)


@pytest.mark.parametrize("index", ONE_CLASS)
@SETTINGS
@given(data=st.data())
def test_the_meld_listing_lists_every_window_and_set_once(index: int, data: Any) -> None:
    classes = _classes(index)
    hand = data.draw(hands(solvers(index)[0].deck, 14))
    key = classes.key(sum(1 << c.id for c in hand))
    for k in {classes.class_of[c.id] for c in hand}:
        listed = classes._melds_one_class(k, key)
        assert len(listed) == len(set(listed))
        assert set(listed) == plain_melds(classes, k, key)


@pytest.mark.parametrize("index", ONE_CLASS)
@SETTINGS
@given(data=st.data(), sizes=st.sampled_from([(3, 3), (3, 4), (3, 20)]), most=st.sampled_from([None, 2, 3]))
def test_the_meld_size_multisets_are_those_of_every_collection(index: int, data: Any, sizes: tuple[int, int],
                                                               most: int | None) -> None:
    classes = _classes(index)
    hand = data.draw(hands(solvers(index)[0].deck, 12))
    key = classes.key(sum(1 << c.id for c in hand))
    assert size_sets(classes, key, sizes, most) == plain_size_sets(classes, key, sizes, most)
