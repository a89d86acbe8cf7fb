"""What the meld step's listing keeps from one decision to the next gives what a listing
from scratch gives.

- Single melds of hands without wild cards, put together from kept blocks
  (``engine/mechanics/meldblocks.py``): the plain listing (every group the shapes
  propose, judged in turn, no block kept) lists the same groups in the same order and
  with the same kinds, for hands that change a card or two at a time as play changes
  them, and for the contract listing's shorter and first-kinds-only asks.
- A hand of few cards that its counts show to hold no block (no rank of a meld's size, no
  run of held sequence positions) lists no group, as the plain listing does.
- Lay-offs: what is known of a table meld's cards is shared by every meld of the same
  cards (``layoffs.extenders``): any meld, asked about any cards in any order, in any
  copy, answers as judging each card afresh does.

Variants: Rummy, Skarney Gin (mixed-suit sequences), Skarney with poker suits all
different, Contract Rummy (two packs: copies of a face), Gin, and Rummy house rules (the
ace both ways; wrapping; kind-locked Skarney whose runs are poker melds too).
"""

from __future__ import annotations

import random
from typing import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from rummydsl.cards import Card
from rummydsl.engine import Round, TableMeld
from rummydsl.engine.mechanics import layoffs
from rummydsl.engine.mechanics import meldless, meldlist

from .conftest import dealt, plain_listing, variant

HOUSE_RULES = {
    "rummy_ace_both": ("rummy", "deck: {preset: standard52, ace: both, wrap: false}\n"),
    "rummy_wrap": ("rummy", "deck: {preset: standard52, ace: both, wrap: true}\n"),
    "skarney_locked": ("skarney_gin", "meld_options: {kind_locked: true}\n"
                                      "melds: {poker: {pattern: \"size >= 3 and consecutive(rank)\"}}\n"),
}
NAMES = ["rummy", "skarney_gin", "skarney_poker_distinct", "contract_rummy", "gin_rummy", *HOUSE_RULES]


def _round(name: str) -> Round:
    return dealt(name, HOUSE_RULES)


_plain = plain_listing
"""``_judged_melds`` group by group: no block kept (the listing without its memos of buckets)."""


def _near_melds(rng: random.Random, naturals: list[Card], size: int) -> list[Card]:
    """A hand rich in melds: a few ranks of two or three suits (sets, runs, mixed-suit
    sequences and the ace at either end), with some other cards."""
    suits = rng.sample(range(4), rng.choice([2, 3]))
    low = rng.randrange(1, 10)
    pool = [c for c in naturals if c.suit is not None and c.suit.index in suits and c.rank is not None
            and (low <= c.rank.order < low + 5 or c.rank.order == 1)]
    hand = rng.sample(pool, min(len(pool), size))
    rest = [c for c in naturals if c not in hand]
    return hand + rng.sample(rest, max(0, size - len(hand)))


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_single_melds_from_kept_blocks_are_the_plain_listing(name: str, seed: int) -> None:
    rnd = _round(name)
    rng = random.Random(seed)
    naturals = [c for c in rnd.variant.deck.cards if not c.wild]
    size = rng.choice([3, 5, 8, 11, 14])
    hand = _near_melds(rng, naturals, size) if rng.random() < 0.7 else rng.sample(naturals, size)
    rng.shuffle(hand)
    for _ in range(6):  # as play changes the hand: a card drawn, one or three put down
        assert meldlist.single_melds(rnd, hand) == _plain(rnd, hand, len(hand), None)[0]
        for high, kinds in ((len(hand), None), (3, None), (4, 1), (3, 2)):
            assert meldlist._judged_melds(rnd, hand, high, kinds) == _plain(rnd, hand, high, kinds)
        step = rng.random()
        free = [c for c in naturals if c not in hand]
        if step < 0.5 or len(hand) < 4:
            hand = [*hand, rng.choice(free)]
        elif step < 0.8:
            hand = [c for c in hand if c is not rng.choice(hand)]
        else:
            hand = rng.sample(hand, len(hand) - 3)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), size=st.integers(0, 9))
def test_a_hand_told_by_its_counts_to_hold_no_block_lists_what_the_plain_listing_does(
        name: str, seed: int, size: int) -> None:
    """The count check (``meldless.no_meld``) says "no group" only where the
    plain listing lists none; few cards of nearby ranks, as a hand after its melds are down."""
    rnd = _round(name)
    rng = random.Random(seed)
    naturals = [c for c in rnd.variant.deck.cards if not c.wild]
    if rng.random() < 0.5:
        near = [c for c in naturals if c.rank is not None and abs(c.rank.order - rng.randrange(1, 14)) <= 2]
        hand = rng.sample(near, min(size, len(near)))
    else:
        hand = rng.sample(naturals, size)
    if meldless.no_meld(rnd, hand, len(hand)):
        assert _plain(rnd, hand, len(hand), None) == ([], [])
    for high, kinds in ((len(hand), None), (3, None), (3, 2)):
        assert meldlist._judged_melds(rnd, hand, high, kinds) == _plain(rnd, hand, high, kinds)


def _shaped(rng: random.Random, naturals: list[Card]) -> list[Card]:
    """Cards in a meld's shape: of one rank, or consecutive ranks of one suit or of any."""
    first = rng.choice(naturals)
    assert first.rank is not None
    if rng.random() < 0.3:
        same = [c for c in naturals if c.rank is not None and c.rank.order == first.rank.order]
        return rng.sample(same, min(len(same), rng.choice([3, 4])))
    one_suit = rng.random() < 0.5
    group = [first]
    for order in range(first.rank.order + 1, first.rank.order + rng.choice([3, 4, 5])):
        at = [c for c in naturals if c.rank is not None and c.rank.order == (order - 1) % 13 + 1
              and (not one_suit or c.suit is first.suit)]
        if at:
            group.append(rng.choice(at))
    return group


def _fits_afresh(rnd: Round, meld: TableMeld, card: Card) -> bool:
    kinds = rnd.rules.kinds_of([*meld.cards, card])
    return bool(kinds) and (not rnd.variant.kind_locked or meld.kind in kinds)


@pytest.mark.parametrize("name", ["rummy", "skarney_gin", "contract_rummy", "skarney_locked", "rummy_wrap"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_what_is_kept_of_a_melds_cards_is_what_judging_afresh_gives(name: str, seed: int) -> None:
    """Several melds of the same cards (in other orders, laid as another kind, copied),
    asked about other cards in turn: every answer is the card judged afresh."""
    rnd = _round(name)
    rng = random.Random(seed)
    rules = rnd.rules
    naturals = [c for c in rnd.variant.deck.cards if not c.wild]
    melds = []
    for _ in range(400):
        group = _shaped(rng, naturals)
        kinds = rules.kinds_of(group)
        if kinds:
            for kind in kinds:
                for _copy in range(2):
                    melds.append(TableMeld(rng.sample(group, len(group)), kind, [0] * len(group)))
        if len(melds) >= 12:
            break
    assert melds
    for _ in range(30):
        meld = rng.choice(melds)
        if rng.random() < 0.2:
            meld = meld.copy()
        asked = rng.sample(naturals, rng.choice([1, 3, 8]))
        held = sum(1 << c.id for c in asked)
        want = sum(1 << c.id for c in asked if c not in meld.cards and _fits_afresh(rnd, meld, c))
        assert layoffs.extenders(rnd, meld, held) == want
        if rng.random() < 0.15:  # a meld grows: what is known of its old cards no longer answers
            free = [c for c in naturals if c not in meld.cards and _fits_afresh(rnd, meld, c)]
            if free:
                card = rng.choice(free)
                meld.add(card, 1)
                kinds = rules.kinds_of(meld.cards)
                if not rnd.variant.kind_locked and meld.kind not in kinds:
                    meld.kind = next(k for k in rules.kind_names if k in kinds)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), name=st.sampled_from(["skarney_gin", "rummy", "contract_rummy"]))
def test_sequence_windows_are_the_product_of_distinct_cards(seed: int, name: str) -> None:
    """A start position's sequences (``meldblocks.sequence_windows``) are, window by window
    from the shortest, every choice of one card a position in product order whose cards are
    all different (with ``one_suit``, of the first card's suit): whether or not a card
    stands at two positions (an ace both low and high, so the product is filtered), the
    same groups in the same order."""
    from rummydsl.engine.mechanics.meldblocks import sequence_windows
    import itertools

    rng = random.Random(seed)
    cards = [c for c in variant(name).deck.cards if not c.wild and c.suit is not None]
    spots = rng.randint(1, 5)
    held = [sorted(rng.sample(cards, rng.randint(1, 3)), key=lambda c: c.id) for _ in range(spots)]
    if rng.random() < 0.5:  # a card at two positions
        card = rng.choice([c for spot in held for c in spot])
        spot = rng.choice(held)
        if all(c is not card for c in spot):
            spot.append(card)
    low = rng.randint(1, 3)
    for one_suit in (False, True):
        plain = []
        for size in range(low, len(held) + 1):
            for choice in itertools.product(*held[:size]):
                if len({c.id for c in choice}) == len(choice) and (
                        not one_suit or all(c.suit.index == choice[0].suit.index for c in choice)):
                    plain.append(tuple(choice))
        assert list(sequence_windows(held, low, one_suit)) == plain
