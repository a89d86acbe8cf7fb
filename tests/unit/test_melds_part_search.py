"""The part search cut to a part's needs (rummydsl/melds/partsearch.py, used by wildwindows.py).

A part of a hand with wild cards is searched by the general search's recursion cut to
what a part needs (no table melds, no discard, melds free; the cards by their own ids,
candidate melds kept by pool, by suit pattern where the suits are interchangeable; a
state that reaches no deadwood tries nothing more). Its least deadwoods, with each share
of wild cards and without each card, are held to the general search itself
(``WildWindows._hand_search``, :class:`~rummydsl.melds.search.HandSearch`) on random
parts: close ranks in few suits so that melds overlap, with one solver across each
test's parts so that the kept pools carry over, on Ginski and on decks of other shapes
(ace both with mixed-suit sequences, two packs). The pools' melds are held to the
candidate listing's.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.melds.candidates import PoolMelds, candidates
from rummydsl.melds.partsearch import part_search
from rummydsl.melds.wildwindows import WILDS_MOST, WildWindows, windows_of

from wild_decks import solver

NAMES = ("ginski", "skarney_wild", "two_packs_wild")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def windows(name: str) -> WildWindows:
    got = windows_of(solver(name))
    assert got is not None
    return got


def draw_part(ww: WildWindows, data: Any) -> tuple[int, int]:
    """A card-id mask of natural cards of a few close ranks in a few suits, and a wild count."""
    naturals = [c for c in ww.core.deck.cards if not c.wild]
    low = data.draw(st.integers(1, 9))
    suits = data.draw(st.lists(st.integers(0, len(ww.core.deck.suits) - 1), min_size=1, max_size=3, unique=True))
    pool = [c for c in naturals if c.rank is not None and low <= c.rank.order <= low + 4
            and c.suit is not None and c.suit.index in suits]
    cards = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=min(9, len(pool)), unique_by=lambda c: c.id))
    w = data.draw(st.integers(0, min(WILDS_MOST, len(ww.core._wild_cards))))
    return sum(1 << c.id for c in cards), w


@SETTINGS
@given(st.data(), st.sampled_from(NAMES))
def test_part_search_is_the_general_search(data: Any, name: str) -> None:
    ww = windows(name)
    for _ in range(3):  # parts of one solver in turn: the kept pools carry over
        part, w = draw_part(ww, data)
        assert ww._search(part, w, True) == ww._hand_search(part, w, True)


@SETTINGS
@given(st.data(), st.sampled_from(NAMES))
def test_part_search_states(data: Any, name: str) -> None:
    """Any state of the cut search (cards of the part, fewer wild cards) against the general search."""
    ww = windows(name)
    part, w = draw_part(ww, data)
    least = part_search(ww.core, part, w, ww._pools)
    ids = [i for i in range(part.bit_length()) if part >> i & 1]
    keep = data.draw(st.lists(st.sampled_from(ids), unique=True, min_size=1))
    mask = sum(1 << i for i in keep)
    j = data.draw(st.integers(0, w))
    assert least(mask, j) == ww._hand_search(mask, j, True)[0][j]


@SETTINGS
@given(st.data(), st.sampled_from(NAMES))
def test_pool_melds_are_the_candidates(data: Any, name: str) -> None:
    ww = windows(name)
    core = ww.core
    part, w = draw_part(ww, data)
    ids = [i for i in range(part.bit_length()) if part >> i & 1]
    listed = {(natural, k) for _local, k, natural, _kinds in candidates(core, ids, w)}
    ranks = ww.grid[1] if ww.grid else 0
    assert set(PoolMelds(core, ranks).melds(ids, w)) == listed
    assert set(PoolMelds(core).melds(ids, w)) == listed  # suit by suit
    assert set(ww._pools.melds(ids, w)) == listed  # kept across tests


def test_grid_of_the_decks() -> None:
    """Ginski's pools are kept by suit pattern; two packs have no grid."""
    assert windows("ginski").grid is not None
    assert windows("two_packs_wild").grid is None


def pairwise_links(ww: WildWindows, w: int) -> tuple[int, ...]:
    """The links by their definition, pair by pair (module docs of wildwindows)."""
    core = ww.core
    rank_of, suit_of, positions = core._rank_order, core._suit_index, core._positions
    naturals = [c for c in core._cards if not c.wild]
    links = [0] * core._size
    for a in naturals:
        for b in naturals:
            if a is b:
                continue
            same_suit = suit_of[a.id] == suit_of[b.id]
            by_rank = any(same_suit or not per_suit for per_suit in ww._same_rank) and rank_of[a.id] == rank_of[b.id]
            by_run = any(same_suit or not per_suit for per_suit in ww._sequences) and any(
                0 < abs(p - q) <= w + 1 for p in positions[a.id] for q in positions[b.id])
            if by_rank or by_run:
                links[a.id] |= 1 << b.id
    return tuple(links)


def test_links_are_the_pairwise_definition() -> None:
    """The links read from the cards by rank, suit and position are those of every pair."""
    for name in NAMES:
        ww = windows(name)
        for w in range(WILDS_MOST + 1):
            assert ww.links(w) == pairwise_links(ww, w), (name, w)
