"""What the wild windows now work out only when asked (rummydsl/melds/wildwindows.py, partshapes.py).

* A part whose least deadwoods are read off its suit pattern keeps no discards until a
  discard of it is asked (``WildWindows.costs``); the knock question then reads them off
  the pattern (``discards._discards_of``). Each part's discards so read are held here to
  a fresh solver's, which searches the part itself.
* A part of one suit renames its shape's melds of a card when the walk first reads that
  card (``Shapes.own``); each card's melds are held to the melds listed for the part's
  own cards.
"""

from __future__ import annotations

import random

import pytest

from rummydsl.melds import MeldRules
from rummydsl.melds.discards import _discards_of
from rummydsl.melds.partsearch import part_melds
from rummydsl.melds.wildwindows import WildWindows, windows_of
from rummydsl.variant import load_variant

RANKS = 13
SUITS = 5


def _windows() -> WildWindows:
    got = windows_of(MeldRules.from_variant(load_variant("ginski")))
    assert got is not None and got.grid == (SUITS, RANKS) and got.shapes is not None
    return got


def _run(rnd: random.Random, suit: int) -> int:
    """A part of close ranks in one suit (a run with a gap or two)."""
    start = rnd.randrange(RANKS - 5)
    ranks = rnd.sample(range(start, start + 5), rnd.randint(2, 4))
    return sum(1 << suit * RANKS + r for r in ranks)


@pytest.mark.parametrize("w", [1, 2, 3])
def test_a_part_read_off_its_pattern_gets_its_discards_when_asked(w: int) -> None:
    windows = _windows()
    rnd = random.Random(2026 + w)
    checked = 0
    for _ in range(40):
        suit, other = rnd.sample(range(SUITS), 2)
        part = _run(rnd, suit)
        renamed = part >> suit * RANKS << other * RANKS  # the same pattern in another suit
        if part << 3 | w in windows.memo or renamed << 3 | w in windows.memo:
            continue  # (met before in this test: kept as it was asked then)
        checked += 1
        windows.costs(part, w, without=True)  # the pattern with every discard
        whole = windows.vector(renamed, w)  # read off the pattern: no discards kept
        assert windows.each[renamed << 3 | w] == {}
        fresh = _windows()
        expected = fresh.costs(renamed, w, without=True)
        assert whole == expected[0]
        got = _discards_of(windows, renamed, w, whole, renamed)
        assert got == expected[1]
        assert windows.costs(renamed, w, without=True)[1] == expected[1]
    assert checked >= 20


@pytest.mark.parametrize("w", [1, 2])
def test_a_one_suit_parts_melds_are_its_own_cards(w: int) -> None:
    windows = _windows()
    shapes = windows.shapes
    assert shapes is not None
    rnd = random.Random(7 + w)
    for _ in range(40):
        part = _run(rnd, rnd.randrange(SUITS))
        (by_lowest, wild_melds), ask = shapes.own(part, w)
        own, own_wild = part_melds(part, w, windows._pools)
        assert sorted(wild_melds) == sorted(own_wild)
        for cid in sorted(own, reverse=True):  # read in any order
            assert sorted(by_lowest[cid]) == sorted(own[cid])
        least = windows.asker(part, w)
        for j in range(w + 1):
            assert ask(part, j) == least(part, j)
