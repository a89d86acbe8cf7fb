"""The lay-off listing's quick answer (``layoffmasks.reached``, ``may_lay_off``): the melds
a player may add to that some card held may extend, read from each meld's kept bitmasks of
the cards judged and those that extend it. It must agree with the full listing, judged
afresh (``test_layoff_listing._plain``): "none" only when nothing is listed, every meld a
lay-off is listed onto among those it gives, the cards it says extend a meld exactly
those that do, and once a listing has judged the hand, every answer known; on random
tables and hands, as melds grow, change kind and are copied, for the variants of
``test_layoff_listing`` whose wild cards do not read the hand (``wild_unique_card`` is
judged with the hand, not here).

And the lay-off actions a listing keeps are told apart by card, player, owner and meld at
the most seats a variant may have (:data:`~rummydsl.limits.MAX_PLAYERS`).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from rummydsl.agents import RandomAgent
from rummydsl.engine import Observation, Round
from rummydsl.engine.actions import Layoff
from rummydsl.engine.mechanics.layoffmasks import may_lay_off, reached
from rummydsl.engine.mechanics.layoffs import layoff_targets, list_layoffs
from rummydsl.engine.state import Phase, TableMeld
from rummydsl.limits import MAX_PLAYERS
from rummydsl.variant import load_variant

from .conftest import house
from .test_layoff_listing import NAMES, _grow, _kinds_fit, _plain, _random_position, _variant

QUICK = [name for name in NAMES if name != "rummy_unique"]
"""``test_layoff_listing``'s variants but the one with ``wild_unique_card``."""


def test_the_quick_answer_is_asked_of_every_variant_without_wild_unique_card() -> None:
    assert {"rummy", "skarney_gin", "contract_rummy", "rummy_jokers", "rummy_wrap"} <= set(QUICK)
    assert [name for name in NAMES if _variant(name).wild_unique_card] == ["rummy_unique"]


@pytest.mark.parametrize("name", QUICK)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_the_quick_answer_agrees_with_the_full_listing(name: str, seed: int) -> None:
    rng = random.Random(seed)
    rnd = _random_position(name, rng)
    player = rnd.to_move
    assert player is not None
    pool = [c for c in rnd.variant.deck.cards
            if all(c is not h for h in rnd.hands[player]) and all(c is not t for ms in rnd.table for m in ms
                                                                 for t in m.cards)]
    for _ in range(4):  # as the melds grow, change kind and are copied, the kept bitmasks follow
        hand = rnd.hands[player]
        targets = layoff_targets(rnd, player)
        held = sum(1 << c.id for c in hand)
        plain = _plain(rnd, player)
        melds = reached(rnd, targets, held)
        got = [(o, i) for o, i, _, _ in melds]
        assert got == [(o, i) for o in targets for i in range(len(rnd.table[o])) if (o, i) in got]  # in order
        assert {(a.owner, a.index) for a in plain} <= {(o, i) for o, i, _, _ in melds}
        for owner, index, meld, hits in melds:
            assert rnd.table[owner][index] is meld and owner in targets and hits != 0
            if hits > 0:  # known: exactly the cards held that extend it
                assert hits == sum(1 << c.id for c in hand if _kinds_fit(rnd, meld.cards, meld.kind, c, hand))
        if not melds:
            assert plain == []
        fits = any(_kinds_fit(rnd, m.cards, m.kind, c, hand) for o in targets for m in rnd.table[o] for c in hand)
        assert may_lay_off(rnd, player, targets) == fits
        assert list_layoffs(rnd, player) == plain
        if len(hand) > 2 and len(rnd.distinct_faces(hand)) == len(hand):  # every card held was judged:
            for owner, index, meld, hits in reached(rnd, targets, held):  # each answer is known
                assert hits > 0
            assert bool(reached(rnd, targets, held)) == fits
        table = [m for ms in rnd.table for m in ms]
        if not table:
            break
        _grow(rnd, rng, rng.choice(table), pool)
        if rng.random() < 0.3:
            rnd = rnd.copy()


def test_the_quick_answer_holds_through_played_hands() -> None:
    """Every meld step of random six-player Rummy hands: where the quick answer is "none",
    nothing is listed, and the full listing is the plain one."""
    variant = load_variant(house("rummy_six", "rummy", "players: {count: 6}\n"))
    rng = random.Random(5)
    asked = empty = 0
    for number in range(6):
        rnd = Round.deal(variant, rng, dealer=number % 6, players=6)
        agent = RandomAgent(random.Random(number))
        while rnd.result is None:
            player = rnd.to_move
            assert player is not None
            if rnd.phase is Phase.MELD:
                targets = layoff_targets(rnd, player)
                quick = bool(reached(rnd, targets, sum(1 << c.id for c in rnd.hands[player])))
                listed = list_layoffs(rnd, player)
                assert listed == _plain(rnd, player)
                assert quick or not listed
                asked += 1
                empty += not quick
            rnd.apply(agent.act(Observation(rnd, player)))
    assert asked > 100 and empty > asked // 2


def test_layoffs_at_the_most_seats_are_told_apart() -> None:
    """The kept lay-off actions are found by card, player, owner and meld packed in one int
    (4 bits a seat): at :data:`MAX_PLAYERS` seats, each seat's lay-off onto each seat's meld
    is its own action, the one a plain listing gives."""
    assert MAX_PLAYERS <= 16  # the packing's room for a seat
    seats = MAX_PLAYERS
    variant = load_variant(house(f"rummy_{seats}", "rummy",
                                 f"players: {{count: {seats}, min: 2, max: {seats}}}\ndeal: {{hand_size: 5}}\n"))
    rnd = Round.deal(variant, random.Random(1), dealer=0, players=seats)
    agent = RandomAgent(random.Random(2))
    while rnd.phase is not Phase.MELD:
        rnd.apply(agent.act(Observation(rnd, rnd.to_move)))
    deck = variant.deck
    runs = [(suit, ranks) for ranks in ("234", "789") for suit in "CDHS"]
    rnd.table = [[TableMeld(list(deck.parse_cards(" ".join(r + suit for r in ranks))), "run", [seat] * 3)]
                 for seat, (suit, ranks) in enumerate(runs[:seats])]
    seen: dict[tuple[int, int, int, int], Layoff] = {}
    for player in range(seats):
        rnd.hands[player] = list(deck.parse_cards("5C TC 5D TD 5H TH 5S TS"))
        listed = list_layoffs(rnd, player)
        assert listed == _plain(rnd, player)
        assert sorted((a.owner, a.index) for a in listed) == [(seat, 0) for seat in range(seats)]
        for action in listed:
            key = (action.card.id, action.player, action.owner, action.index)
            assert key not in seen and action.player == player
            seen[key] = action
    assert len(seen) == seats * seats
