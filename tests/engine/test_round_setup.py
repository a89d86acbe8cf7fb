"""What a round reads of its variant once per variant object (engine/round.py ``_setup``),
and a deal that has too few cards (issue 22, third pass: the deal slices the shuffle)."""

from __future__ import annotations

import random

import pytest

from rummydsl.engine import Round
from rummydsl.errors import CardError
from rummydsl.variant import load_variant


def test_each_variant_s_rounds_read_its_own_rules() -> None:
    gin = load_variant("gin_rummy")
    spiel = load_variant("openspiel_gin")  # the card taken from the pile may be discarded
    rummy = load_variant("rummy")
    for variant, forbidden in ((gin, True), (spiel, False), (rummy, True), (gin, True)):
        rnd = Round.deal(variant, random.Random(1), dealer=0)
        assert rnd.forbid_taken is forbidden
        assert [name for name, _ in rnd._steps] == [step.name for step in variant.turn]
        assert rnd.highest_value == max(variant.card_values)


def test_the_deal_goes_round_one_card_at_a_time() -> None:
    gin = load_variant("gin_rummy")
    cards = list(gin.deck.cards)
    rnd = Round.deal_cards(gin, cards, dealer=1, players=2)  # P1 (seat 0) is first from the dealer's left
    assert rnd.hands[0] == cards[0:20:2] and rnd.hands[1] == cards[1:20:2]
    assert rnd.upcard is cards[20] and rnd.stock[::-1] == cards[21:]


def test_too_few_cards_for_the_deal_is_a_card_error() -> None:
    gin = load_variant("gin_rummy")
    with pytest.raises(CardError, match="20 cards are too few to deal 2 × 10 and an upcard"):
        Round.deal_cards(gin, list(gin.deck.cards)[:20], dealer=0, players=2)
