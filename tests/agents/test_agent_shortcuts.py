"""The agents' shortcuts answer as the long way does.

- The random agent's pick, drawn without ``random.Random.randrange``, is the pick
  ``randrange`` would make, from the same bits (the generator is left in the same state).
- The greedy discard from one knock question (``_best_shed``) is the discard weighed one
  solve per option would choose, or None (then the agent weighs each): Rummy, Gin,
  Oklahoma Gin, Skarney Gin, Contract Rummy (two packs: copies of a face), jokers.
- The greedy draw decision's least deadwoods (``min_deadwood``) are those of the
  arrangements it asked for before (``solve`` and ``solve_discard``).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from rummydsl.agents import RandomAgent
from rummydsl.agents.basic import _best_shed
from rummydsl.engine.actions import Discard
from rummydsl.melds import MeldRules
from rummydsl.variant import Variant, load_variant

from .test_extendable import _house


class _Seen:
    """What the random agent reads of an observation: its legal actions."""

    def __init__(self, actions: list[int]) -> None:
        self.actions = actions

    def legal_actions(self) -> list[int]:
        return self.actions


class _OwnRandom(random.Random):
    """A generator of its own kind: the agent asks its ``randrange``."""

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return 0


@given(seed=st.integers(0, 2**32), counts=st.lists(st.integers(1, 300), min_size=1, max_size=40))
@settings(max_examples=60, deadline=None)
def test_random_pick_is_randranges(seed: int, counts: list[int]) -> None:
    agent = RandomAgent(random.Random(seed))
    plain = random.Random(seed)
    for count in counts:
        assert agent.act(_Seen(list(range(count)))) == plain.randrange(count)  # type: ignore[arg-type]
    assert agent.rng.getstate() == plain.getstate()


def test_random_agent_asks_its_own_generator_kind() -> None:
    agent = RandomAgent(_OwnRandom(1))
    assert agent.act(_Seen([5, 6, 7])) == 5  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        RandomAgent(random.Random(1)).act(_Seen([]))  # type: ignore[arg-type]


NAMES = ["rummy", "gin_rummy", "oklahoma_gin", "skarney_gin", "contract_rummy", "rummy_jokers"]


@lru_cache(maxsize=None)
def _setup(name: str) -> tuple[Variant, MeldRules]:
    if name == "rummy_jokers":
        variant = load_variant(_house(name, "deck: {preset: standard52, ace: low, wrap: false, wilds: 2}\n"
                                            "card_value: \"wild ? 15 : min(order, 10)\"\n"))
    else:
        variant = load_variant(name)
    return variant, MeldRules.from_variant(variant)


@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), size=st.integers(3, 11),
       barred=st.booleans())
@settings(max_examples=150, deadline=None)
def test_best_shed_is_the_weighed_discard(name: str, seed: int, size: int, barred: bool) -> None:
    variant, rules = _setup(name)
    cards = list(variant.deck.cards)
    random.Random(seed).shuffle(cards)
    hand = cards[:size]
    options = [Discard(0, card) for card in hand]
    if barred:  # the card taken from the pile may not go back
        del options[seed % len(options)]
    values = variant.card_values

    def left(action: Discard) -> tuple[int, int, int]:
        rest = [c for c in hand if c is not action.card]
        return (rules.min_deadwood(rest), -values[action.card.id], -action.card.id)

    got = _best_shed(rules, hand, options)
    if any(c.wild for c in hand):
        assert got is None
    elif got is not None:
        assert got is min(options, key=left)


@given(name=st.sampled_from(["rummy", "rummy_jokers", "skarney_gin"]), seed=st.integers(0, 2**32),
       size=st.integers(1, 10))
@settings(max_examples=100, deadline=None)
def test_least_deadwoods_are_the_arrangements(name: str, seed: int, size: int) -> None:
    variant, rules = _setup(name)
    cards = list(variant.deck.cards)
    random.Random(seed).shuffle(cards)
    hand, card = cards[:size], cards[size]
    assert rules.min_deadwood([*hand, card], discard=True) == rules.solve_discard([*hand, card]).deadwood
    assert rules.min_deadwood(hand) == rules.solve(hand, check_contract=False).deadwood
