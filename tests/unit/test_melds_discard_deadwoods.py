"""``melds.discards.discard_deadwoods``: one search's answers equal one ``solve`` per discard."""

from __future__ import annotations

import random

import pytest

from rummydsl.melds import LayoffTarget, MeldRules
from rummydsl.melds.discards import discard_deadwoods
from rummydsl.variant import load_variant


@pytest.mark.parametrize("variant_id", ["rummy", "ginski", "contract_rummy"])
def test_each_discards_deadwood_is_that_of_solving_the_rest(variant_id: str) -> None:
    variant = load_variant(variant_id)
    rules = MeldRules.from_variant(variant)
    rng = random.Random(3)
    cards = list(variant.deck.cards)
    tables = 0
    for _ in range(30):
        rng.shuffle(cards)
        hand, rest = cards[:8], cards[8:26]
        table = [LayoffTarget(tuple(m)) for m in rules.solve(rest, check_contract=False).melds]
        tables += bool(table)
        got = discard_deadwoods(rules, hand, table)
        if not table:
            assert got is None
            continue
        want = tuple(rules.solve([c for c in hand if c is not out], table=table, check_contract=False).deadwood
                     for out in hand)
        assert got == want, (variant_id, [str(c) for c in hand], [[str(c) for c in t.cards] for t in table])
    assert tables > 10


def test_a_worked_hand_and_where_one_search_does_not_answer() -> None:
    rules = MeldRules.from_variant(load_variant("rummy"))
    hand = rules.check_hand("7H 7D 7C 8C 9C KS")
    # 8D 9D TD takes the 7D: discarding 7H leaves the run 7C 8C 9C and the KS (10)
    assert discard_deadwoods(rules, hand, [rules.check_hand("8D 9D TD")]) == (10, 17, 34, 19, 18, 7)
    assert discard_deadwoods(rules, hand, []) is None  # no table: the plain questions are faster
