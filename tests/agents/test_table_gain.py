"""The greedy draw decision with table melds asked of the per-suit tables
(``pile_helps_with_table``) gives the answer of one search with the table
(``discard_deadwoods``) wherever it answers: on random tables and hands whose cards
extend the melds, chains included (Rummy, Gin, Skarney Gin's mixed-suit sequences,
jokers, the ace both ways, a run kind of at most five cards)."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from rummydsl.agents.extendable import _extendable
from rummydsl.agents.tablegain import pile_helps_with_table
from rummydsl.cards import Card
from rummydsl.engine import Observation, Round
from rummydsl.melds import LayoffTarget, MeldRules
from rummydsl.melds.discards import discard_deadwoods
from rummydsl.variant import Variant, load_variant

from .test_extendable import HOUSE_RULES, _house, _melds

SHORT_RUNS = ("rummy_short_runs", """melds:
  set: "size in 3..4 and same(rank)"
  run: "size in 3..5 and same(suit) and consecutive(rank)"
""")


@lru_cache(maxsize=None)
def _variant(name: str) -> Variant:
    if name == SHORT_RUNS[0]:
        return load_variant(_house(*SHORT_RUNS))
    if name in HOUSE_RULES:
        return load_variant(_house(name, HOUSE_RULES[name]))
    return load_variant(name)


def _searched(rules: MeldRules, hand: list[Card], card: Card, table: list[LayoffTarget]) -> bool:
    """The question as one search with the table asks it (as the knock question without one)."""
    if not table:
        return rules.min_deadwood((*hand, card), discard=True) < rules.min_deadwood(hand)
    left = discard_deadwoods(rules, (*hand, card), table)
    assert left is not None
    return min(left[:-1]) < left[-1]


def _near(rng: random.Random, pool: list[Card], table: list[LayoffTarget], count: int) -> list[Card]:
    """Up to ``count`` cards of ``pool`` of a table meld's rank or next to its ends in its
    suit (the cards that lay off, in chains), taken out of ``pool``."""
    out: list[Card] = []
    for _ in range(count):
        if not table:
            break
        meld = rng.choice(table)
        naturals = [c for c in meld.cards if not c.wild]
        if not naturals:
            continue
        first = rng.choice(naturals)
        assert first.rank is not None
        orders = {c.rank.order for c in naturals if c.rank is not None}
        wanted = rng.choice([min(orders) - 1, min(orders) - 2, max(orders) + 1, max(orders) + 2, first.rank.order])
        fit = [c for c in pool if c.rank is not None and c.rank.order == wanted
               and (wanted == first.rank.order or c.suit is first.suit)]
        if fit:
            pick = rng.choice(fit)
            pool.remove(pick)
            out.append(pick)
    return out


NAMES = ["rummy", "gin_rummy", "skarney_gin", SHORT_RUNS[0], *HOUSE_RULES]


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_the_answer_is_the_searchs(name: str, seed: int) -> None:
    variant = _variant(name)
    rng = random.Random(seed)
    rnd = Round.deal(variant, rng, dealer=0, players=2)
    observation = Observation(rnd, 0)
    rules = observation.rules
    pool = list(variant.deck.cards)
    rng.shuffle(pool)
    table = _melds(rules, rng, pool)
    near = _near(rng, pool, table, rng.randint(0, 4))
    cards = (near + pool[:rng.randint(1, 10)])[:11]
    if len(cards) < 2:
        return
    rng.shuffle(cards)
    hand, card = cards[:-1], cards[-1]
    for melds in (table, _extendable(observation, cards, table)):
        got = pile_helps_with_table(rules, variant.deck, hand, card, melds)
        if got is not None:
            assert got == _searched(rules, hand, card, list(melds))


def _cards(deck: Any, text: str) -> list[Card]:
    return list(deck.parse_cards(text))


def test_a_chain_onto_a_run_is_counted() -> None:
    """8H and 9H lay off onto 5H 6H 7H together: taking 9H lets the hand shed its king."""
    variant = _variant("rummy")
    deck = variant.deck
    rules = MeldRules.from_variant(variant)
    run = LayoffTarget(tuple(_cards(deck, "5H 6H 7H")), "run")
    hand = _cards(deck, "8H KS 2C 2D")
    card = _cards(deck, "9H")[0]
    assert pile_helps_with_table(rules, deck, hand, card, [run]) is True
    assert _searched(rules, hand, card, [run]) is True
    low = _cards(deck, "3S")[0]  # a card that neither melds nor lays off, and is worth no less than shed
    assert pile_helps_with_table(rules, deck, _cards(deck, "8H 2S 2C 3D"), low, [run]) is False
    assert _searched(rules, _cards(deck, "8H 2S 2C 3D"), low, [run]) is False


def test_it_leaves_to_the_search_what_it_cannot_answer() -> None:
    """Wild cards, and a card at two positions (the ace both ways), go to the search."""
    jokers = _variant("rummy_jokers")
    rules = MeldRules.from_variant(jokers)
    deck = jokers.deck
    run = LayoffTarget(tuple(_cards(deck, "5H 6H 7H")), "run")
    wild = next(c for c in deck.cards if c.wild)
    assert pile_helps_with_table(rules, deck, _cards(deck, "8H KS"), wild, [run]) is None
    both = _variant("rummy_both")
    deck = both.deck
    rules = MeldRules.from_variant(both)
    run = LayoffTarget(tuple(_cards(deck, "2H 3H 4H")), "run")
    assert pile_helps_with_table(rules, deck, _cards(deck, "AH KS"), _cards(deck, "QS")[0], [run]) is None
