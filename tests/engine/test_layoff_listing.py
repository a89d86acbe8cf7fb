"""The lay-off listing, read from each table meld's cards that extend it (``extenders``),
lists what a plain listing does: every table meld a player may add to, every card of the
hand (one of each face), judged afresh by the kinds' patterns (no shape shortcut, no
memo), on random tables and hands, as melds grow.

For Rummy (sets and runs), Skarney Gin (mixed-suit sequences, lay-offs onto one's own
melds after the contract), Contract Rummy (two packs and jokers: copies of a face), and
Rummy house rules with wild cards (jokers; jokers with ``wild_unique_card`` and
``kind_locked`` and ``final_discard: required``; the ace both ways with wrapping and
``final_discard: forbidden``).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from rummydsl.agents import RandomAgent
from rummydsl.cards import Card
from rummydsl.engine import Observation, Round, TableMeld
from rummydsl.engine.actions import Layoff
from rummydsl.engine.mechanics.layoffmasks import _candidates, _worked_candidates
from rummydsl.engine.mechanics.layoffs import (_fits, final_discard_required, last_card_stays, layoff_targets,
                                               list_layoffs, only_taken_left)
from rummydsl.engine.state import Phase
from rummydsl.variant import Variant

from .conftest import variant

HOUSE_RULES = {
    "rummy_jokers": ("rummy", "deck: {preset: standard52, ace: low, wrap: false, wilds: 2}\n"
                              "card_value: \"wild ? 15 : min(order, 10)\"\n"),
    "rummy_unique": ("rummy", "deck: {preset: standard52, ace: both, wrap: false, wilds: 2}\n"
                              "card_value: \"wild ? 15 : min(order, 10)\"\n"
                              "meld_options: {wild_unique_card: true, kind_locked: true}\n"
                              "going_out: {final_discard: required}\n"),
    "rummy_wrap": ("rummy", "deck: {preset: standard52, ace: both, wrap: true}\n"
                            "going_out: {final_discard: forbidden}\n"),
    "rummy_both": ("rummy", "deck: {preset: standard52, ace: both, wrap: false}\n"),
    "skarney_locked": ("skarney_gin", "meld_options: {kind_locked: true}\n"),
}
NAMES = ["rummy", "skarney_gin", "contract_rummy", *HOUSE_RULES]
SHAPES = [*NAMES, "ginski", "skarney_poker_distinct", "rummy_500"]
"""The variants whose kinds' shapes :func:`_candidates` reads: sets of at most four,
sequences of one suit and of mixed or distinct suits, the ace both low and high, wrapping,
wild cards, five suits."""


def _variant(name: str) -> Variant:
    return variant(name, HOUSE_RULES)


@lru_cache(maxsize=None)
def _meld_step(name: str) -> Round:
    """A round of the variant played at random to its first meld step."""
    variant = _variant(name)
    rnd = Round.deal(variant, random.Random(3), dealer=0, players=variant.players)
    agent = RandomAgent(random.Random(4))
    while rnd.phase is not Phase.MELD:
        player = rnd.to_move
        assert player is not None
        rnd.apply(agent.act(Observation(rnd, player)))
    return rnd


def _kinds_fit(rnd: Round, cards: Sequence[Card], kind: str, card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` extends a meld of ``cards`` laid as ``kind``, judged afresh."""
    kinds = rnd.rules.kinds_of([*cards, card], hand=hand)
    return bool(kinds) and (not rnd.variant.kind_locked or kind in kinds)


def _plain(rnd: Round, player: int) -> list[Layoff]:
    """The lay-offs of ``player``, every card against every meld, judged afresh."""
    hand = rnd.hands[player]
    if rnd.phase is Phase.MELD and len(hand) == 1 and final_discard_required(rnd):
        return []
    free = list(hand)
    if len(hand) == 2 and rnd.taken is not None:
        free = [c for c in free if not only_taken_left(rnd, [o for o in hand if o is not c])]
    two = len(hand) == 2 and last_card_stays(rnd)
    out = []
    for owner in layoff_targets(rnd, player):
        for index, meld in enumerate(rnd.table[owner]):
            for card in rnd.distinct_faces(free):
                if not _kinds_fit(rnd, meld.cards, meld.kind, card, hand):
                    continue
                if two:  # the other card must then be laid off somewhere (final_discard: forbidden)
                    other = hand[1] if hand[0] is card else hand[0]
                    grown = {id(meld): [*meld.cards, card]}
                    if not any(_kinds_fit(rnd, grown.get(id(m), m.cards), m.kind, other, hand)
                               for q in layoff_targets(rnd, player) for m in rnd.table[q]):
                        continue
                out.append(Layoff(player, card, owner, index))
    return out


def _random_meld(rnd: Round, rng: random.Random, pool: list[Card]) -> TableMeld | None:
    """A meld of the variant's kinds from ``pool`` (a set, a run of one suit, a sequence of
    mixed suits, some cards perhaps wild), its cards taken out of the pool."""
    rules = rnd.rules
    naturals = [c for c in pool if not c.wild]
    wilds = [c for c in pool if c.wild]
    for _ in range(30):
        if not naturals:
            return None
        first = rng.choice(naturals)
        assert first.rank is not None
        size = rng.randint(3, 5)
        shape = rng.random()
        if shape < 0.4:
            group = [c for c in naturals if c.rank is first.rank]
        else:
            orders = range(first.rank.order, first.rank.order + size)
            group = []
            for order in orders:
                fit = [c for c in naturals if c.rank is not None and c.rank.order == order
                       and (shape < 0.8 or c.suit is first.suit)]
                if fit:
                    group.append(rng.choice(fit))
        rng.shuffle(group)
        group = group[:size]
        if wilds and rng.random() < 0.4:
            group[rng.randrange(len(group))] = rng.choice(wilds)
        if len({c.id for c in group}) != len(group):
            continue
        kinds = rules.kinds_of(group)
        if not kinds:
            continue
        for card in group:
            pool.remove(card)
        kind = next(k for k in rules.kind_names if k in kinds)
        return TableMeld(group, kind, [0] * len(group))
    return None


def _grow(rnd: Round, rng: random.Random, meld: TableMeld, pool: list[Card]) -> bool:
    """Lay a card of ``pool`` off onto ``meld`` (its kind follows unless kind-locked), as
    the engine does; False when none of a few tried fits."""
    rules = rnd.rules
    for card in rng.sample(pool, min(len(pool), 12)):
        kinds = rules.kinds_of([*meld.cards, card])
        if kinds and (not rnd.variant.kind_locked or meld.kind in kinds):
            pool.remove(card)
            meld.add(card, 1)
            if meld.kind not in kinds:
                meld.kind = next(k for k in rules.kind_names if k in kinds)
            return True
    return False


def _random_position(name: str, rng: random.Random) -> Round:
    """The variant's first meld step with random table melds and a random hand."""
    rnd = _meld_step(name).copy()
    player = rnd.to_move
    assert player is not None
    pool = list(rnd.variant.deck.cards)
    rng.shuffle(pool)
    table: list[list[TableMeld]] = [[] for _ in rnd.table]
    for _ in range(rng.randint(0, 7)):
        meld = _random_meld(rnd, rng, pool)
        if meld is not None:
            table[rng.choice(rnd.seated)].append(meld)
    rnd.table = table
    size = rng.choice([1, 2, 2, 3, 6, 10])
    melds = [m for ms in table for m in ms]
    near = [c for c in pool[:40] if any(rnd.rules.kinds_of([*m.cards, c]) for m in melds)]
    hand = near[:rng.randint(0, size)]  # some cards that extend a meld, the rest at random
    hand += [c for c in pool if all(c is not h for h in hand)][:size - len(hand)]
    rng.shuffle(hand)
    pool[:] = [c for c in pool if all(c is not h for h in hand)]
    rnd.hands[player] = hand
    rnd.taken = rng.choice([None, *hand])
    rnd.met_contract[player] = True
    return rnd


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_the_listing_read_from_the_melds_extenders_is_the_plain_listing(name: str, seed: int) -> None:
    rng = random.Random(seed)
    rnd = _random_position(name, rng)
    player = rnd.to_move
    assert player is not None
    pool = [c for c in rnd.variant.deck.cards
            if all(c is not h for h in rnd.hands[player]) and all(c is not t for ms in rnd.table for m in ms
                                                                 for t in m.cards)]
    for _ in range(4):  # as the melds grow, change kind and are copied, the kept answers follow
        assert list(list_layoffs(rnd, player)) == _plain(rnd, player)
        hand = rnd.hands[player]
        for melds in rnd.table:
            for meld in melds:
                for card in hand:
                    assert _fits(rnd, meld, card, hand) == _kinds_fit(rnd, meld.cards, meld.kind, card, hand)
        melds = [m for ms in rnd.table for m in ms]
        if not melds:
            break
        _grow(rnd, rng, rng.choice(melds), pool)
        if rng.random() < 0.3:
            rnd = rnd.copy()


@pytest.mark.parametrize("name", SHAPES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_every_card_that_extends_a_meld_is_among_its_candidates(name: str, seed: int) -> None:
    """The cards the kinds' shapes let through (``_candidates``) include every card that
    extends a meld by the patterns: a card left out would never be listed. Melds with aces
    (two positions in a sequence), sets of aces, wild cards, of every size the pool gives."""
    rng = random.Random(seed)
    variant = _variant(name)
    rnd = Round.deal(variant, random.Random(seed), dealer=0, players=variant.players)
    pool = list(variant.deck.cards)
    rng.shuffle(pool)
    aces = [c for c in pool if c.rank is not None and c.rank.order == 1]
    pool.sort(key=lambda c: c not in aces[:rng.randint(0, len(aces))])  # aces first, some of them
    for _ in range(6):
        meld = _random_meld(rnd, rng, pool)
        if meld is None:
            break
        while rng.random() < 0.5 and _grow(rnd, rng, meld, pool):
            pass
        candidates = _candidates(rnd, meld.cards)
        for card in variant.deck.cards:
            if all(card is not c for c in meld.cards):
                kinds = rnd.rules.kinds_of([*meld.cards, card])  # no hand: the most a wild card may mean
                if kinds and (not variant.kind_locked or meld.kind in kinds):
                    assert candidates >> card.id & 1, (meld, card)


@pytest.mark.parametrize("name", SHAPES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_candidates_kept_by_reading_are_worked_out_ones(name: str, seed: int) -> None:
    """``_candidates`` keeps its answers by what it reads of a meld's cards (their count,
    their ranks and the one suit they share, if they do): a group asked after another of
    the same ranks in other suits, other copies or another order, and wild cards in other
    places, gets the answer worked out for it (``_worked_candidates``). Groups of close
    ranks, of one suit or of several, aces and wild cards among them."""
    rng = random.Random(seed)
    variant = _variant(name)
    rnd = Round.deal(variant, random.Random(seed), dealer=0, players=variant.players)
    cards = list(variant.deck.cards)
    wilds = [c for c in cards if c.wild]
    naturals = [c for c in cards if not c.wild]
    by_rank: dict[object, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(id(card.rank), []).append(card)
    for _ in range(12):
        first = rng.choice(naturals)
        ranks = sorted({id(c.rank) for c in naturals}, key=lambda r: abs(
            by_rank[r][0].rank.order - first.rank.order) + rng.random())[:rng.randint(1, 4)]
        one_suit = rng.random() < 0.5
        group = []
        for rank in ranks:
            same = [c for c in by_rank[rank] if c.suit is first.suit] if one_suit else []
            group.append(rng.choice(same or by_rank[rank]))
        group.extend(rng.sample(wilds, rng.randint(0, min(2, len(wilds)))))
        rng.shuffle(group)
        assert _candidates(rnd, group) == _worked_candidates(rnd, group), group
        # the same ranks again: another suit for all (if they share one), or other copies
        suits = {id(c.suit) for c in group if not c.wild}
        other = rng.choice(naturals).suit
        sibling = []
        for card in group:
            if card.wild:
                sibling.append(rng.choice(wilds))
                continue
            choices = [c for c in by_rank[id(card.rank)] if c.suit is other] if len(suits) == 1 else []
            sibling.append(rng.choice(choices or by_rank[id(card.rank)]))
        if len({c.id for c in sibling}) < len(sibling):
            continue  # (a wild card twice)
        rng.shuffle(sibling)
        assert _candidates(rnd, sibling) == _worked_candidates(rnd, sibling), (group, sibling)
