"""The suit tables' five-suit path (rummydsl/melds/suittables.py: a deck of five colours,
Ginski's, reads each suit's table by name as the four-suit path does).

On random wild-free Ginski hands of 1 to 20 cards, near-rank hands (so that ranks are held
in three suits or more and sets are chosen) and uniform ones, the least deadwood, its
floor and the knock question's key are held to the general search (the least deadwood,
after the best discard with the documented tie-break) and to the tables' generic loop
(the same tables with the five-suit path off).
"""

from __future__ import annotations

import random
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.cards import Card
from rummydsl.melds import MeldRules
from rummydsl.melds.search import HandSearch
from rummydsl.melds.suittables import SuitTables
from rummydsl.variant import load_variant


@lru_cache(maxsize=None)
def tables(five: bool) -> SuitTables:
    rules = MeldRules.from_variant(load_variant("ginski"))
    got = rules._suit_tables()
    assert got and got.suit_count == 5
    if not five:
        got._five = None
        got._five_suits_of_three = False
    return got


def searched(rules: MeldRules, hand: list[Card], discard: bool) -> tuple[int, None]:
    """The general search's least deadwood of the hand (after the best discard with ``discard``)."""
    if not hand:
        return 0, None
    search = HandSearch(rules, hand, (), discard)
    return int(search.plain().cost // search.deadwood_unit), None


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 20), st.booleans())
def test_five_suits_are_the_general_search(seed: int, size: int, near: bool) -> None:
    fast, slow = tables(True), tables(False)
    core = fast.core
    assert isinstance(core, MeldRules)
    rng = random.Random(seed)
    naturals = [c for c in core.deck.cards if not c.wild]
    if near:  # a few close ranks in every colour: ranks in three suits and more
        low = rng.randint(1, 10)
        naturals = [c for c in naturals if c.rank is not None and low <= c.rank.order <= low + 3]
    hand = rng.sample(naturals, min(size, len(naturals)))
    mask = sum(1 << c.id for c in hand)
    least = fast.deadwood(mask)
    assert least == slow.deadwood(mask) == searched(core, hand, False)[0]
    assert fast.deadwood(mask, floor=True) <= least
    key = fast.knock_key(mask)
    assert key == slow.knock_key(mask)
    if len(hand) > 1:
        best = searched(core, hand, True)[0]
        assert key // fast.natural_count == best
        # the documented tie-break: the highest value, then the highest id, so the card is the
        # first in that order whose discard leaves the least; the cards before it leave more
        # (each searched alone: the rest of the hand is not, once the card is found)
        card = None
        for c in sorted(hand, key=lambda c: (core.values[c.id], c.id), reverse=True):
            after = searched(core, [d for d in hand if d is not c], False)[0]
            assert after >= best
            if after == best:
                card = c
                break
        assert card is not None and fast.cards_by_penalty[key % fast.natural_count] == card.id


def test_the_floor_leaves_out_set_ranks_only() -> None:
    """Where no rank is held in three suits the floor is the least deadwood; some hands get a lower one."""
    fast = tables(True)
    rng = random.Random(22)
    naturals = [c for c in fast.core.deck.cards if not c.wild]
    below = 0
    for _ in range(500):
        hand = rng.sample(naturals, rng.choice((7, 10, 11, 13)))
        mask = sum(1 << c.id for c in hand)
        floor, least = fast.deadwood(mask, floor=True), fast.deadwood(mask)
        in_three = any(sum(1 for c in hand if c.rank == r) >= 3 for r in {c.rank for c in hand})
        assert floor <= least
        assert in_three or floor == least
        below += floor < least
    assert below
