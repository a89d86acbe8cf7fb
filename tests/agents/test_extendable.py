"""The greedy draw decision's filter of table melds (``_extendable``), read from each
meld's takers kept as a bitmask, keeps the melds the shapes' test asked meld by meld
and card by card keeps, on random tables and hands (Rummy, Skarney Gin's mixed-suit
sequences, jokers, the ace both ways, wrapping)."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from rummydsl.agents.extendable import _extendable
from rummydsl.cards import Card
from rummydsl.engine import Observation, Round
from rummydsl.melds import LayoffTarget
from rummydsl.variant import Variant, load_variant


def _house(name: str, body: str) -> str:
    """A house rule extending Rummy in a folder removed when the test process ends."""
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="rummydsl-house-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / f"{name}.yaml"
    path.write_text(f"rummydsl: 1\nid: {name}\nextends: rummy\nname: {name}\n"
                    f"description: a test house rule\n{body}", encoding="utf-8")
    return str(path)

HOUSE_RULES = {
    "rummy_jokers": "deck: {preset: standard52, ace: low, wrap: false, wilds: 2}\n"
                    "card_value: \"wild ? 15 : min(order, 10)\"\n",
    "rummy_both": "deck: {preset: standard52, ace: both, wrap: false}\n",
    "rummy_wrap": "deck: {preset: standard52, ace: both, wrap: true}\n",
}


@lru_cache(maxsize=None)
def _variant(name: str) -> Variant:
    if name in HOUSE_RULES:
        return load_variant(_house(name, HOUSE_RULES[name]))
    return load_variant(name)


def _asked_card_by_card(observation: Observation, cards: Sequence[Card],
                        table: Sequence[LayoffTarget]) -> list[LayoffTarget]:
    """The filter as it was written: each meld's shapes against each card held."""
    deck = observation.variant.deck
    rules = observation.rules
    shapes = list(rules.shapes.values())
    if (deck.wrap or any(shape.family == "any" for shape in shapes)
            or any(c.wild or c.rank is None or c.suit is None for c in cards)
            or (rules.wild_unique_card and any(c.wild for meld in table for c in meld.cards))):
        return list(table)
    held: list[Any] = [(c.rank.order, c.suit.index, deck.sequence_positions(c.rank))  # type: ignore[union-attr,arg-type]
                       for c in cards]
    out = []
    for meld in table:
        group = meld.cards
        if any(c.wild or c.rank is None or c.suit is None for c in group):
            out.append(meld)
            continue
        size = len(group)
        ranks = {c.rank.order for c in group}  # type: ignore[union-attr]
        suits = {c.suit.index for c in group}  # type: ignore[union-attr]
        spots = [deck.sequence_positions(c.rank) for c in group]  # type: ignore[arg-type]
        for shape in shapes:
            if shape.max_size is not None and size + 1 > shape.max_size:
                continue
            if shape.family == "same_rank":
                if len(ranks) == 1 and any(rank in ranks for rank, _, _ in held):
                    break
                continue
            if shape.same_suit and len(suits) != 1:
                continue
            if any(len(spot) != 1 for spot in spots):
                break
            low = min(spot[0] for spot in spots)
            high = max(spot[0] for spot in spots)
            if len({spot[0] for spot in spots}) != size or high - low != size - 1:
                break
            if any((not shape.same_suit or suit in suits) and (low - 1 in at or high + 1 in at)
                   for _, suit, at in held):
                break
        else:
            continue
        out.append(meld)
    return out


def _melds(rules: Any, rng: random.Random, pool: list[Card]) -> list[LayoffTarget]:
    """Random melds of the variant's kinds (sets, runs, mixed-suit sequences, some with a
    wild card), their cards taken out of ``pool``."""
    out = []
    for _ in range(rng.randint(0, 8)):
        naturals = [c for c in pool if not c.wild]
        first = rng.choice(naturals)
        size = rng.randint(3, 5)
        if rng.random() < 0.4:
            group = [c for c in naturals if c.rank is first.rank][:size]
        else:
            same = rng.random() < 0.6
            group = []
            for order in range(first.rank.order, first.rank.order + size):  # type: ignore[union-attr]
                fit = [c for c in naturals if c.rank is not None and c.rank.order == order
                       and (not same or c.suit is first.suit)]
                if fit:
                    group.append(rng.choice(fit))
        wilds = [c for c in pool if c.wild]
        if wilds and group and rng.random() < 0.3:
            group[rng.randrange(len(group))] = rng.choice(wilds)
        kinds = rules.kinds_of(group) if len({c.id for c in group}) == len(group) else frozenset()
        if kinds:
            for card in group:
                pool.remove(card)
            out.append(LayoffTarget(tuple(group), next(k for k in rules.kind_names if k in kinds)))
    return out


@pytest.mark.parametrize("name", ["rummy", "skarney_gin", *HOUSE_RULES])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_the_melds_kept_are_those_the_shapes_keep_card_by_card(name: str, seed: int) -> None:
    variant = _variant(name)
    rng = random.Random(seed)
    rnd = Round.deal(variant, rng, dealer=0, players=2)
    observation = Observation(rnd, 0)
    pool = list(variant.deck.cards)
    rng.shuffle(pool)
    table = _melds(observation.rules, rng, pool)
    hand = pool[:rng.randint(1, 11)]
    assert _extendable(observation, hand, table) == _asked_card_by_card(observation, hand, table)
    assert _extendable(observation, hand, table) == _asked_card_by_card(observation, hand, table)  # kept
