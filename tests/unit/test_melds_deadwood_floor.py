"""The suit tables' floor of the least deadwood (``MeldRules.table_deadwood(mask, floor=True)``), which
decides most turns' knock question without choosing sets (issue 22, third pass): never
above the least deadwood, and equal to it where no rank is held in three suits."""

from __future__ import annotations

import random

import pytest

from rummydsl.melds import MeldRules
from rummydsl.variant import load_variant


@pytest.mark.parametrize("name", ["gin_rummy", "rummy"])
def test_the_floor_is_never_above_the_least_deadwood(name: str) -> None:
    variant = load_variant(name)
    rules = MeldRules.from_variant(variant)
    rng = random.Random(22)
    below = 0
    for _ in range(2000):
        hand = rng.sample(variant.deck.cards, rng.choice((3, 7, 10, 11, 13)))
        mask = sum(1 << card.id for card in hand)
        floor, least = rules.table_deadwood(mask, floor=True), rules.table_deadwood(mask)
        assert floor is not None and least is not None
        assert floor <= least == rules.min_deadwood(hand)
        suits = [[c.rank for c in hand if c.suit == suit] for suit in variant.deck.suits]
        in_three = any(sum(rank in held for held in suits) >= 3 for rank in {c.rank for c in hand})
        assert in_three or floor == least
        below += floor < least
    assert below  # some hands hold a set rank that the floor leaves out


def test_no_floor_where_the_suit_tables_do_not_apply() -> None:
    variant = load_variant("ginski")  # wild cards: no suit tables for the whole deck
    rules = MeldRules.from_variant(variant)
    wild = next(card for card in variant.deck.cards if card.wild)
    assert rules.table_deadwood(1 << wild.id, floor=True) is None
