"""The quick "no meld possible" answer (``engine/mechanics/meldless.py``) against the
whole listing.

Whenever :func:`~rummydsl.engine.mechanics.meldless.no_meld` says a hand has no meld of
at most ``high`` cards, the plain listing (every group the shapes propose, judged in
turn, no block kept and no quick answer) finds none; and on hands the listing finds
melds in, it answers "maybe". Random hands of every size a variant deals and a few
more, dealt at random and rich in melds, and every ``high`` from the kinds' fewest
cards to the hand's size.

Variants: Rummy, Skarney Gin (mixed-suit sequences, poker melds), Skarney with poker
suits all different, Contract Rummy (two packs and jokers), 500 Rum, Gin, and house
rules (the ace both ways; wrapping; sets of at least four and runs of at least five).
"""

from __future__ import annotations

import random
from typing import Sequence

import pytest

from rummydsl.cards import Card
from rummydsl.engine import Round
from rummydsl.engine.mechanics import meldless, meldlist

from .conftest import dealt, plain_listing

HOUSE_RULES = {
    "rummy_ace_both": ("rummy", "deck: {preset: standard52, ace: both, wrap: false}\n"),
    "rummy_wrap": ("rummy", "deck: {preset: standard52, ace: both, wrap: true}\n"),
    "rummy_long": ("rummy", "melds:\n  set: \"size in 4..4 and same(rank)\"\n"
                            "  run: \"size >= 5 and same(suit) and consecutive(rank)\"\n"),
}
NAMES = ["rummy", "skarney_gin", "skarney_poker_distinct", "contract_rummy", "rummy_500", "gin_rummy",
         *HOUSE_RULES]


def _round(name: str) -> Round:
    return dealt(name, HOUSE_RULES)


def _plain(rnd: Round, hand: Sequence[Card], high: int) -> list[tuple[Card, ...]]:
    """``_judged_melds`` group by group: no block kept, no quick answer."""
    return plain_listing(rnd, hand, high)[0]


def _near_melds(rng: random.Random, cards: list[Card], size: int) -> list[Card]:
    """A hand rich in near melds: cards of a few ranks close together in two suits."""
    low = rng.randrange(1, 11)
    suits = rng.sample(range(4), 2)
    pool = [c for c in cards if c.rank is not None and c.suit is not None and c.suit.index in suits
            and low <= c.rank.order <= low + 3]
    rest = [c for c in cards if c not in pool]
    take = min(len(pool), rng.randrange(2, size + 1))
    return [*rng.sample(pool, take), *rng.sample(rest, size - take)]


@pytest.mark.parametrize("name", NAMES)
def test_no_meld_is_the_listing_s_answer(name: str) -> None:
    rnd = _round(name)
    cards = list(rnd.variant.deck.cards)
    low = max(1, min((s.min_size for s in rnd.rules.shapes.values()), default=3))
    rng = random.Random(f"meldless {name}")
    sizes = sorted({*(len(h) for h in rnd.hands), 3, 4, 6, 7, 10})
    said_none = said_maybe_with_melds = 0
    for round_ in range(300):
        size = rng.choice(sizes)
        hand = rng.sample(cards, size) if round_ % 3 else _near_melds(rng, cards, size)
        for high in range(low, size + 1):
            listed = _plain(rnd, hand, high)
            if meldless.no_meld(rnd, hand, high):
                assert listed == [], (name, [str(c) for c in hand], high, listed)
                said_none += 1
            elif listed:
                said_maybe_with_melds += 1
    if name != "rummy_wrap":
        assert said_none > 0  # (the quick answer answers: not every hand is "maybe")
    assert said_maybe_with_melds > 0


def test_rummy_answers_most_six_card_hands() -> None:
    """Six random cards of a 52-card pack rarely meld: the quick answer answers most."""
    rnd = _round("rummy")
    cards = list(rnd.variant.deck.cards)
    rng = random.Random(6)
    hands = [rng.sample(cards, 6) for _ in range(200)]
    answered = sum(meldless.no_meld(rnd, hand, 6) for hand in hands)
    assert answered == sum(not _plain(rnd, hand, 6) for hand in hands)


def test_wild_cards_and_wrapping_answer_maybe() -> None:
    wrap = _round("rummy_wrap")
    assert not meldless.no_meld(wrap, list(wrap.variant.deck.cards)[:1], 3)
    contract = _round("contract_rummy")
    jokers = [c for c in contract.variant.deck.cards if c.wild]
    naturals = [c for c in contract.variant.deck.cards if not c.wild]
    assert jokers
    assert not meldless.no_meld(contract, [naturals[0], naturals[20], jokers[0]], 3)


def test_the_listing_takes_the_quick_answer() -> None:
    """The meld step's listing (kept blocks) answers as the plain one where the quick
    answer says no meld, and lists nothing there."""
    rnd = _round("rummy")
    deck = rnd.variant.deck
    hand = list(deck.parse_cards("3D KD 2S 5S KC AC 3H"))
    assert meldless.no_meld(rnd, hand, 7)
    assert meldlist._judged_melds(rnd, hand, 7) == ([], [])
    melding = list(deck.parse_cards("3D KD 2S 5S KC KH KS"))
    assert not meldless.no_meld(rnd, melding, 7)
    assert meldlist._judged_melds(rnd, melding, 7)[0] == _plain(rnd, melding, 7)
