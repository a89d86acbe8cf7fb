"""The canonical arrangement of a hand with wild cards walked over its parts (rummydsl/melds/partwalk.py).

``MeldRules.solve`` of a hand with wild cards (no table, no contract, no discard) walks
the canonical order over the hand's parts instead of the general search's memo. Every
arrangement here (melds, their order and kinds, the wild cards dealt to them, the
unmatched cards) is held to the general search's own walk
(:meth:`~rummydsl.melds.search.HandSearch.solve_found`), on random hands of close ranks
in few suits (parts big, melds overlapping, ties common) and on uniform ones, on Ginski
and on decks of other shapes; ``test_melds_properties.py`` holds ``solve`` itself to the
exhaustive reference.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.melds.candidates import candidates
from rummydsl.melds.partsearch import part_melds
from rummydsl.melds.partwalk import arrangement
from rummydsl.melds.search import HandSearch
from rummydsl.melds.wildwindows import WILDS_MOST, windows_of

from wild_decks import solver

NAMES = ("ginski", "ginski_four", "skarney_wild", "two_packs_wild")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(NAMES))
def test_the_walk_over_the_parts_is_the_general_searchs(data: Any, name: str) -> None:
    rules = solver(name)
    windows = windows_of(rules)
    assert windows is not None
    deck = rules.deck
    naturals = [c for c in deck.cards if not c.wild]
    wilds = [c for c in deck.cards if c.wild]
    w = data.draw(st.integers(1, min(WILDS_MOST, len(wilds))))
    if data.draw(st.booleans()):  # close ranks in few suits
        suits = data.draw(st.integers(1, len(deck.suits)))
        start = data.draw(st.integers(1, 9))
        naturals = [c for c in naturals if c.suit is not None and c.suit.index < suits
                    and c.rank is not None and start <= c.rank.order <= start + 5]
    picked = data.draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=min(12, len(naturals)),
                                unique_by=lambda c: c.id))
    hand = picked + wilds[:w]
    got = arrangement(windows, sum(1 << c.id for c in hand))
    assert got is not None
    search = HandSearch(rules, hand, (), False)
    assert got == search.solve_found(search.plain(), True)
    assert rules.solve(hand) == got


def test_what_the_walk_does_not_answer() -> None:
    rules = solver("ginski")
    windows = windows_of(rules)
    assert windows is not None
    cards = rules.deck.cards
    naturals = [c for c in cards if not c.wild]
    wilds = [c for c in cards if c.wild]
    assert arrangement(windows, sum(1 << c.id for c in naturals[:10])) is None  # no wild card
    assert arrangement(windows, sum(1 << c.id for c in wilds[:3])) is None  # no natural card
    assert arrangement(windows, sum(1 << c.id for c in naturals[:16] + wilds[:1])) is None  # past PART_MOST
    assert arrangement(windows, sum(1 << c.id for c in naturals[:5] + wilds[:5])) is None  # past WILDS_MOST


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(NAMES))
def test_a_parts_melds_by_lowest_card_are_the_candidates(data: Any, name: str) -> None:
    """``part_melds`` (the pools' groups kept by lowest card, read by the part search and
    the walk) lists every candidate of the part's cards with a natural card once or more,
    under its lowest card, and the wild-only groups' sizes once each."""
    rules = solver(name)
    windows = windows_of(rules)
    assert windows is not None
    core = windows.core
    naturals = [c for c in rules.deck.cards if not c.wild]
    start = data.draw(st.integers(0, len(naturals) - 1))
    ids = sorted({naturals[(start + d) % len(naturals)].id
                  for d in data.draw(st.lists(st.integers(0, 30), min_size=1, max_size=9))})
    w = data.draw(st.integers(0, min(WILDS_MOST, len(core._wild_cards))))
    listed = candidates(core, ids, w)
    by_lowest, wild_melds = part_melds(sum(1 << cid for cid in ids), w, windows._pools)
    assert set(by_lowest) == set(ids)
    assert {(m, k) for cid, melds in by_lowest.items() for m, k in melds} == {
        (natural, k) for _local, k, natural, _kinds in listed if natural}
    assert all(m & -m == 1 << cid for cid, melds in by_lowest.items() for m, _ in melds)
    assert sorted(wild_melds) == sorted({k for _local, k, natural, _kinds in listed if not natural})
