"""A hand with wild cards answered by its parts (rummydsl/melds/wildwindows.py).

``min_deadwood`` (with and without the discard) and ``discard_deadwoods`` of a hand
with wild cards are read from its parts' least deadwoods, shared out over the wild
cards. Every answer is held to the general search of the whole hand, on random hands
of the shipped variants the parts apply to (Ginski, four-handed Ginski) and of decks
with wild cards and other shapes: Skarney's melds (ace both, mixed-suit sequences)
and two packs with Contract Rummy's melds, no contract.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.melds import MeldRules
from rummydsl.melds.discards import discard_deadwoods
from rummydsl.melds.search import HandSearch
from rummydsl.melds.wildwindows import WILDS_MOST, WildWindows, windows_of

from wild_decks import solver


def searched(rules: MeldRules, hand: list[Any], discard: bool) -> int:
    """The general search of the whole hand."""
    search = HandSearch(rules, hand, (), discard)
    return int(search.plain().cost // search.deadwood_unit)


def draw_hand(rules: MeldRules, data: Any) -> list[Any]:
    naturals = [c for c in rules.deck.cards if not c.wild]
    wilds = [c for c in rules.deck.cards if c.wild]
    size = data.draw(st.integers(2, 13))
    w = data.draw(st.integers(1, min(size - 1, len(wilds), WILDS_MOST)))
    hand = data.draw(st.permutations(naturals))[:size - w] + data.draw(st.permutations(wilds))[:w]
    return list(data.draw(st.permutations(hand)))


@pytest.mark.parametrize("name", ["ginski", "ginski_four", "skarney_wild", "two_packs_wild"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_parts_answer_as_the_whole_hands_search(name: str, data: Any) -> None:
    rules = solver(name)
    assert windows_of(rules) is not None
    hand = draw_hand(rules, data)
    assert rules.min_deadwood(hand) == searched(rules, hand, False)
    assert rules.min_deadwood(hand, discard=True) == searched(rules, hand, True)
    each = discard_deadwoods(rules, hand, ())
    assert each == tuple(searched(rules, [c for c in hand if c is not card], False) for card in hand)


@pytest.mark.parametrize("name", ["ginski", "skarney_wild"])
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_turn_after_turn_keeps_its_answers(name: str, data: Any) -> None:
    """Hands that change by a card at a time (the parts kept from hand to hand)."""
    rules = solver(name)
    hand = draw_hand(rules, data)
    rest = [c for c in rules.deck.cards if c not in hand]
    for _ in range(4):
        hand = hand + [data.draw(st.sampled_from(rest))]
        if sum(c.wild for c in hand) > WILDS_MOST:
            break
        rest = [c for c in rest if c not in hand]
        assert rules.min_deadwood(hand) == searched(rules, hand, False)
        assert rules.min_deadwood(hand, discard=True) == searched(rules, hand, True)
        hand.remove(data.draw(st.sampled_from(hand)))
        if not any(not c.wild for c in hand):
            break


def test_where_the_parts_do_not_apply() -> None:
    assert WildWindows.build(solver("contract_rummy")) is None  # a contract
    assert WildWindows.build(solver("gin_rummy")) is None  # no wild cards
    ginski = solver("ginski")
    deck = ginski.deck
    assert discard_deadwoods(ginski, deck.parse_cards("1R 2R 3R"), ()) is None  # no wild card in the hand
    assert discard_deadwoods(ginski, deck.parse_cards("* *"), ()) is None  # no natural card
    assert ginski.min_deadwood(deck.parse_cards("* *")) == 50
    five = list(deck.parse_cards("1R 2R 3R")) + [c for c in deck.cards if c.wild]  # more than WILDS_MOST
    assert discard_deadwoods(ginski, five, ()) is None
    assert ginski.min_deadwood(five) == searched(ginski, five, False)


def test_parts_link_across_a_gap_a_wild_card_fills() -> None:
    ginski = solver("ginski")
    windows = windows_of(ginski)
    assert windows is not None
    cards = ginski.deck.parse_cards("3R 5R 9R 9B")
    mask = sum(1 << c.id for c in cards)
    assert len(windows.parts(mask, 0)) == 3  # 3R | 5R | 9R 9B
    assert len(windows.parts(mask, 1)) == 2  # 3R 5R (a wild card at 4R) | 9R 9B
    hand = cards + ginski.deck.parse_cards("*")
    assert ginski.min_deadwood(hand) == 3 + 5  # 9R 9B * a set (or 3R * 5R a run, 18 left)
    assert discard_deadwoods(ginski, hand, ()) == (5, 3, 9, 9, 26)
