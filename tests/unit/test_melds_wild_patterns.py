"""Parts of hands with wild cards kept by their suit pattern (rummydsl/melds/wildwindows.py).

Where renaming the suits keeps every meld a meld (``suit_symmetric``) and the deck is a
grid of suits and ranks with values by rank, a part's least deadwoods are kept once
more by its pattern (its suits' rank masks, sorted) and read back onto a part of the
same pattern in other suits. A key that forgets something has given wrong answers
before (the kept groups' key without the cards' order), so every answer here is held
to the general search of the whole hand, on random hands with wild cards, after the
solver has met other hands whose parts have the same patterns in other suits.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Card, Deck
from rummydsl.expr import BOOL, INT, Context, Env, compile_expression
from rummydsl.expr.facts import suit_symmetric
from rummydsl.melds import MeldRules
from rummydsl.melds.discards import discard_deadwoods
from rummydsl.melds.search import HandSearch
from rummydsl.melds.wildwindows import WILDS_MOST, WildWindows, windows_of
from rummydsl.variant import load_variant


def searched(rules: MeldRules, hand: list[Card], discard: bool) -> int:
    """The general search of the whole hand (no parts, no kept answers)."""
    search = HandSearch(rules, hand, (), discard)
    return int(search.plain().cost // search.deadwood_unit)


def renamed(rules: MeldRules, hand: list[Card], order: list[int]) -> list[Card]:
    """``hand`` with suit ``s`` renamed ``order[s]`` (wild cards kept)."""
    deck = rules.deck
    ranks = len(deck.ranks)
    return [c if c.wild else deck.cards[order[c.id // ranks] * ranks + c.id % ranks] for c in hand]


def draw_hand(rules: MeldRules, data: Any, low: int = 3) -> list[Card]:
    naturals = [c for c in rules.deck.cards if not c.wild]
    wilds = [c for c in rules.deck.cards if c.wild]
    size = data.draw(st.integers(low, 11))
    w = data.draw(st.integers(1, min(size - 1, len(wilds), WILDS_MOST)))
    # few suits and close ranks, so that parts are big and patterns recur
    suits = data.draw(st.integers(1, len(rules.deck.suits)))
    ranks = len(rules.deck.ranks)
    start = data.draw(st.integers(0, ranks - 1))
    width = data.draw(st.integers(3, ranks))
    pool = [c for c in naturals if c.id // ranks < suits and (c.id % ranks - start) % ranks < width]
    picked = data.draw(st.permutations(pool))[:size - w]
    return list(data.draw(st.permutations(list(picked) + data.draw(st.permutations(wilds))[:w])))


def check_hand(rules: MeldRules, hand: list[Card]) -> None:
    if not any(not c.wild for c in hand):
        return
    assert rules.min_deadwood(hand) == searched(rules, hand, False)
    assert rules.min_deadwood(hand, discard=True) == searched(rules, hand, True)
    each = discard_deadwoods(rules, hand, ())
    if each is None:  # the parts answer only hands with wild cards
        assert not any(c.wild for c in hand)
        return
    assert each == tuple(searched(rules, [c for c in hand if c is not card], False) for card in hand)


def unsearched(windows: WildWindows, kept: dict[int, Any]) -> bool:
    """Whether the solver kept no pattern since ``kept`` (a copy of its patterns): no search."""
    return windows.patterns.keys() == kept.keys() and all(windows.patterns[k] is v for k, v in kept.items())


def ginski() -> MeldRules:
    return MeldRules.from_variant(load_variant("ginski"))


def test_the_suit_grid_is_read_only_where_renaming_suits_is_safe() -> None:
    windows = windows_of(ginski())
    assert windows is not None and windows.grid == (5, 13)
    deck = Deck.from_spec({"preset": "standard52", "packs": 2, "wilds": 4})  # two copies of each card
    kinds = {"set": compile_expression("size >= 3 and same(rank)", Env(Context.MELD, deck), BOOL),
             "run": compile_expression("size >= 4 and same(suit) and consecutive(rank)", Env(Context.MELD, deck), BOOL)}
    value = compile_expression("wild ? 20 : min(order, 10)", Env(Context.CARD, deck), INT)
    two_packs = WildWindows.build(MeldRules(deck, kinds, value))
    assert two_packs is not None and two_packs.grid is None
    deck = Deck.from_spec({"preset": "standard52", "wilds": 2})
    by_colour = {"run": compile_expression("size >= 3 and same(colour) and consecutive(rank)",
                                           Env(Context.MELD, deck), BOOL)}
    assert not suit_symmetric(by_colour)
    windows = WildWindows.build(MeldRules(deck, by_colour, compile_expression(
        "wild ? 20 : order", Env(Context.CARD, deck), INT)))
    assert windows is not None and windows.grid is None
    # a card's value that depends on its suit: no pattern key
    suit_valued = compile_expression("wild ? 20 : suit == S ? order + 1 : order", Env(Context.CARD, deck), INT)
    plain = {"set": compile_expression("size >= 3 and same(rank)", Env(Context.MELD, deck), BOOL)}
    assert suit_symmetric(plain)
    windows = WildWindows.build(MeldRules(deck, plain, suit_valued))
    assert windows is not None and windows.grid is None


def test_a_pattern_met_in_one_suit_answers_in_another() -> None:
    rules = ginski()
    windows = windows_of(rules)
    assert windows is not None
    hand = list(rules.deck.parse_cards("3R 4R 6R 9B 9G * 12P 13P"))
    check_hand(rules, hand)
    kept = dict(windows.patterns)
    moved = renamed(rules, hand, [4, 3, 1, 0, 2])  # every suit to another
    assert moved != hand
    check_hand(rules, moved)
    assert unsearched(windows, kept)  # no part searched again
    assert windows.pattern(sum(1 << c.id for c in moved if not c.wild))[0] == windows.pattern(
        sum(1 << c.id for c in hand if not c.wild))[0]


def test_a_pattern_searched_with_more_wild_cards_answers_for_fewer() -> None:
    rules = ginski()
    windows = windows_of(rules)
    assert windows is not None
    check_hand(rules, list(rules.deck.parse_cards("3R 4R 6R 9G * * *")))
    kept = dict(windows.patterns)
    for text in ("3B 4B 6B 9Y * *", "3P 4P 6P 9R *", "3Y 4Y 6Y *"):
        check_hand(rules, list(rules.deck.parse_cards(text)))
    assert unsearched(windows, kept)


@pytest.mark.parametrize("name", ["ginski", "ginski_four"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_renamed_hands_answer_as_the_whole_hands_search(name: str, data: Any) -> None:
    """A hand, then the same hand in renamed suits (its parts found by pattern), then a
    hand that changes by a card at a time: every answer as the general search's."""
    rules = MeldRules.from_variant(load_variant(name))  # a fresh solver: nothing kept yet
    hand = draw_hand(rules, data)
    check_hand(rules, hand)
    suits = len(rules.deck.suits)
    for _ in range(2):
        hand = renamed(rules, hand, data.draw(st.permutations(range(suits))))
        check_hand(rules, hand)
    rest = [c for c in rules.deck.cards if c not in hand]
    for _ in range(3):
        hand = hand + [data.draw(st.sampled_from(rest))]
        rest = [c for c in rest if c not in hand]
        if sum(c.wild for c in hand) > WILDS_MOST:
            break
        check_hand(rules, renamed(rules, hand, data.draw(st.permutations(range(suits)))))
        hand.remove(data.draw(st.sampled_from(hand)))


def test_many_random_hands_after_many_more() -> None:
    """One solver, random Ginski hands with one to four wild cards, each asked after the
    solver has kept hundreds of parts (most then answered by pattern)."""
    rules = ginski()
    rng = random.Random(22)
    naturals = [c for c in rules.deck.cards if not c.wild]
    wilds = [c for c in rules.deck.cards if c.wild]
    for _ in range(300):
        hand = rng.sample(naturals, 9) + rng.sample(wilds, rng.randint(1, 2))
        rules.min_deadwood(hand, discard=True)
    windows = windows_of(rules)
    assert windows is not None and windows.patterns
    for _ in range(40):
        w = rng.randint(1, WILDS_MOST)
        hand = rng.sample(naturals, 11 - w) + rng.sample(wilds, w)
        check_hand(rules, hand)
