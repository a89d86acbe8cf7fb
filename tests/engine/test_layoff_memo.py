"""The lay-off listing's memo of which cards extend each table meld (``TableMeld.extends_memo``)
gives the answers of judging every card afresh, as melds grow and change kind."""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import RandomAgent
from rummydsl.engine import Observation, Round, TableMeld
from rummydsl.engine.mechanics.layoffs import _fits, _judge_fit, list_layoffs
from rummydsl.engine.state import Phase
from rummydsl.variant import load_variant

from .conftest import house

VARIANTS = {
    "rummy": lambda: load_variant("rummy"),
    "rummy_500": lambda: load_variant("rummy_500"),
    "contract_rummy": lambda: load_variant("contract_rummy"),
    "jokers_unique_locked": lambda: load_variant(house(
        "rummy_jokers_unique", "rummy",
        "deck: {preset: standard52, ace: both, wrap: false, wilds: 2}\n"
        "card_value: \"wild ? 15 : min(order, 10)\"\n"
        "meld_options: {wild_unique_card: true, kind_locked: true}\n")),
}


def _fresh(rnd: Round) -> Round:
    """A copy whose table melds are new objects with empty memos."""
    other = rnd.copy()
    other.table = [[TableMeld(list(m.cards), m.kind, list(m.by)) for m in melds] for melds in rnd.table]
    return other


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_memoised_fits_and_listings_match_fresh_judgement(name: str) -> None:
    variant = VARIANTS[name]()
    rng = random.Random(8)
    judged = 0
    for number in range(4):
        rnd = Round.deal(variant, rng, dealer=0, players=variant.players)
        agent = RandomAgent(random.Random(number))
        while rnd.result is None and len(rnd.actions) < 600:
            player = rnd.to_move
            assert player is not None
            if rnd.phase is Phase.MELD:
                hand = rnd.hands[player]
                for melds in rnd.table:
                    for meld in melds:
                        for card in hand:
                            assert _fits(rnd, meld, card, hand) == _judge_fit(rnd, meld, card, hand)
                            judged += 1
                assert list(list_layoffs(rnd, player)) == list(list_layoffs(_fresh(rnd), player))
            rnd.apply(agent.act(Observation(rnd, player)))
    assert judged > 100
