"""The listings' quick shape test (``meldlist._shape_test``) places a card of several
sequence positions (an ace low or high) at one of them: it still passes every group
that forms a kind (it only saves judging the others), and it refuses the groups that
fit no window with the ace at either end; and the count check's kept bucket answers
(``contractfit._costs``) are those worked out afresh."""

from __future__ import annotations

import random

import pytest

from rummydsl.engine import Round
from rummydsl.engine.mechanics import contractfit
from rummydsl.engine.mechanics import meldlist
from rummydsl.variant import load_variant


def _test_of(variant_id: str) -> tuple[Round, object]:
    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(0), dealer=0)
    return rnd, meldlist._shape_test(rnd)


@pytest.mark.parametrize("variant_id", ["contract_rummy", "rummy", "skarney_gin", "rummy_500"])
def test_the_shape_test_passes_every_group_that_forms_a_kind(variant_id: str) -> None:
    """Random groups of the deck's cards, aces and wild cards weighed up: each one the
    kinds accept passes the shape test."""
    rnd, may_form = _test_of(variant_id)
    deck = rnd.variant.deck
    rng = random.Random(7)
    aces = [card for card in deck.cards if not card.wild and card.rank is not None and card.rank.order == 1]
    wilds = [card for card in deck.cards if card.wild]
    formed = refused = 0
    for _ in range(4000):
        suit = rng.choice([card.suit for card in deck.cards if card.suit is not None])
        pool = [card for card in deck.cards if card.suit == suit] if rng.random() < 0.8 else list(deck.cards)
        group = rng.sample(pool, rng.randint(2, 6))
        if aces and rng.random() < 0.5:
            group.append(rng.choice([ace for ace in aces if ace.suit == suit] or aces))
        if wilds and rng.random() < 0.3:
            group.append(rng.choice(wilds))
        group = list(dict.fromkeys(group))
        kinds = rnd.rules.kinds_bits(group)
        passed = may_form(group)  # type: ignore[operator]
        if kinds:
            formed += 1
            assert passed, group
        elif not passed:
            refused += 1
    assert formed and refused


def test_an_ace_low_or_high_is_placed_at_one_end() -> None:
    """``A 2 3 4`` and ``J Q K A`` of a suit pass; ``2 A 3 7`` and ``A 3 7 9`` fit no
    window of four with the ace at either end, and are refused without being judged."""
    rnd, may_form = _test_of("contract_rummy")
    cards = {str(card): card for card in rnd.variant.deck.cards}

    def group(text: str) -> list[object]:
        return [cards[name] for name in text.split()]

    assert may_form(group("AC 2C 3C 4C"))  # type: ignore[operator]
    assert may_form(group("JC QC KC AC"))  # type: ignore[operator]
    assert may_form(group("QC KC AC *"))  # type: ignore[operator]
    assert not may_form(group("2C AC 3C 7C"))  # type: ignore[operator]
    assert not may_form(group("AC 3C 7C 9C"))  # type: ignore[operator]
    assert not may_form(group("2C AC 3C 7C 9C *"))  # type: ignore[operator]


def test_the_kept_bucket_costs_are_those_worked_out() -> None:
    """``_costs`` answers the same from its memo (the second pass) as it worked out afresh
    (the first, every key new). What the costs are is held by tests/engine/test_contract_listing.py
    (``_bucket`` against ``_bucket_by_levels``, for any counts)."""
    keys = [(cards, low, natural, short) for cards in range(0, 14) for low in range(1, 8)
            for natural in range(0, 3) for short in range(0, low + 1)]
    contractfit._COSTS.clear()
    fresh = [contractfit._costs(*key) for key in keys]
    assert len(contractfit._COSTS) == len(keys)  # each worked out, none read back
    assert [contractfit._costs(*key) for key in keys] == fresh
    assert all(contractfit._costs(*key) is answer for key, answer in zip(keys, fresh))  # read from the memo


@pytest.mark.parametrize("variant_id", ["contract_rummy", "rummy_500"])
def test_the_viable_places_hold_every_group_that_forms_a_kind(variant_id: str) -> None:
    """A bucket's viable places (``meldbuckets.viable_places``: an ace at one of its
    positions) hold the natural cards of each of its groups that forms a kind with 0, 1,
    2 ... wild cards, and leave out some with an ace that fit no window."""
    import itertools

    from rummydsl.engine.mechanics import meldbuckets

    rnd, _ = _test_of(variant_id)
    deck = rnd.variant.deck
    rng = random.Random(11)
    wilds = [card for card in deck.cards if card.wild][:2]
    left_out = 0
    for _ in range(60):
        suit = rng.choice([card.suit for card in deck.cards if card.suit is not None])
        suited = [card for card in deck.cards if card.suit == suit]
        bucket = sorted(rng.sample(suited, rng.randint(3, 6)) + [card for card in suited if card.rank.order == 1][:1],
                        key=lambda card: card.id)
        bucket = list(dict.fromkeys(bucket))
        viable = set(meldbuckets.viable_places(rnd, bucket))
        for size in range(1, min(len(bucket), meldbuckets.MAX_LISTED) + 1):
            for places in itertools.combinations(range(len(bucket)), size):
                formed = any(rnd.rules.kinds_bits([bucket[i] for i in places] + wilds[:extra])
                             for extra in range(0, min(len(wilds), meldbuckets.MAX_LISTED - size) + 1))
                if formed:
                    assert places in viable, [str(bucket[i]) for i in places]
                elif places not in viable:
                    left_out += 1
    assert left_out
