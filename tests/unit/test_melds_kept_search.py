"""A hand with wild cards is answered from the last such hand's search when it lies inside it.

A turn asks a hand's least deadwood, its knock question, then the arrangement of the
hand without each card (the engine's knock listing); rummydsl/melds/rules.py
``_kept_search`` answers them from one search. Every answer is held to a solver that
searches each question alone, on random hands of the shipped five-colour variants
with one to five wild cards, in the order a turn asks them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.melds import MeldRules
from rummydsl.variant import load_variant


@lru_cache(maxsize=None)
def solvers(variant_id: str) -> tuple[MeldRules, MeldRules]:
    """(keeping the last search, searching each question alone)."""
    variant = load_variant(variant_id)
    kept = MeldRules.from_variant(variant)
    alone = MeldRules.from_variant(variant)
    alone._kept_search = lambda *args: None  # type: ignore[method-assign]
    alone._wild_state = False  # nor by the wild windows' parts
    return kept, alone


@pytest.mark.parametrize("variant_id", ["ginski", "ginski_four"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_turns_questions_answer_as_searched_alone(variant_id: str, data: Any) -> None:
    kept, alone = solvers(variant_id)
    deck = kept.deck
    naturals = [c for c in deck.cards if not c.wild]
    wilds = [c for c in deck.cards if c.wild]
    size = data.draw(st.integers(2, 14))
    w = data.draw(st.integers(1, min(size, len(wilds))))
    hand = data.draw(st.permutations(naturals))[:size - w] + data.draw(st.permutations(wilds))[:w]
    hand = data.draw(st.permutations(hand))
    assert kept.min_deadwood(hand) == alone.min_deadwood(hand)
    assert kept.min_deadwood(hand, discard=True) == alone.min_deadwood(hand, discard=True)
    assert kept.best_discard(hand) == alone.best_discard(hand)
    assert kept.solve_discard(hand) == alone.solve_discard(hand)
    for card in hand:
        rest = [c for c in hand if c is not card]
        assert kept.solve(rest) == alone.solve(rest)
        assert kept.min_deadwood(rest) == alone.min_deadwood(rest)
    assert kept.solve(hand) == alone.solve(hand)


def test_a_hand_outside_the_last_one_takes_a_search_of_its_own() -> None:
    kept, alone = solvers("ginski")
    deck = kept.deck
    one = deck.parse_cards("1R 2R 5B 7G 9P 11Y 13R 13B 13G *")
    two = deck.parse_cards("3R 4R 6B 8G 10P 12Y 12R 12B 12G *")
    assert kept.solve(one) == alone.solve(one)
    assert kept.solve(two) == alone.solve(two)
    assert kept.solve(one[:-2] + one[-1:]) == alone.solve(one[:-2] + one[-1:])
