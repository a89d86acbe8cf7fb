"""The actions listings hand out, built once (engine/prebuilt.py), their ids read from a
table (ActionSpace.listing_ids, ids_of), and the knock test's least deadwood read from
a hand's bitmask (MeldRules.table_deadwood): each the same as the way it replaced."""

from __future__ import annotations

import random

import pytest

from rummydsl.engine import Round
from rummydsl.engine.actions import Decline, Discard, Done, Draw, Knock, Meld, Offer, Pass, Take
from rummydsl.engine.catalogue import ActionSpace
from rummydsl.engine.prebuilt import Prebuilt
from rummydsl.melds import MeldRules
from rummydsl.variant import load_variant, shipped_variant_ids


def test_one_table_per_deck_and_player_count_equal_to_the_actions_it_replaces() -> None:
    gin = load_variant("gin_rummy")
    kit = Prebuilt.of(gin.deck, 2)
    assert Prebuilt.of(gin.deck, 2) is kit and Prebuilt.of(gin.deck, 3) is not kit
    card = gin.deck.cards[7]
    assert kit.discard[1][7] == Discard(1, card) and kit.knock[0][7] == Knock(0, card)
    assert (kit.big_gin[1], kit.draw_stock[0], kit.draw_discard[1]) == (Knock(1, None), Draw(0, "stock"),
                                                                          Draw(1, "discard"))
    assert (kit.passes[0], kit.done[1]) == (Pass(0), Done(1))
    assert (kit.offer[0][7], kit.take[1], kit.decline[0]) == (Offer(0, card), Take(1), Decline(0))
    # per seat: a discard, a knock and an offer of each card; big gin, two draws, pass, done, take, decline
    assert len(kit.every()) == len({id(a) for a in kit.every()}) == 2 * (3 * gin.deck.size + 7)


def positions(variant_id: str, seed: int, count: int) -> list[Round]:
    """Rounds of random play (copies), a seat to move in each."""
    variant = load_variant(variant_id)
    rng = random.Random(seed)
    out: list[Round] = []
    while len(out) < count:
        rnd = Round.deal(variant, rng, dealer=0)
        while rnd.result is None and len(out) < count and len(rnd.actions) < 300:
            out.append(rnd.copy())
            rnd.apply(rng.choice(rnd.listed()))
    return out


@pytest.mark.parametrize("variant_id", sorted(shipped_variant_ids()))
def test_listing_ids_are_the_catalogue_ids_of_the_listing(variant_id: str) -> None:
    variant = load_variant(variant_id)
    for rnd in positions(variant_id, 5, 60):
        space = ActionSpace.of(variant, rnd.players)
        listed = rnd.listed()
        ids = space.listing_ids(listed)
        by_id, paths = space.ids_of(listed)
        single = [a for a in listed if not (type(a) is Meld and a.melds)]
        expected: dict[int, object] = {}
        for a in single:
            expected.setdefault(space.index(a), a)
        assert by_id == expected and all(by_id[i] is expected[i] for i in expected)
        assert [a for a, _ in paths] == [a for a in listed if type(a) is Meld and a.melds]
        if ids is not None:
            assert ids == [space.index(a) for a in listed]


def test_a_gin_listing_hands_out_the_prebuilt_objects() -> None:
    seen: set[str] = set()
    for rnd in positions("gin_rummy", 7, 80):
        if rnd.phase.value not in ("upcard", "draw", "discard"):
            continue  # a showdown lists lay-offs, which are not prebuilt
        seen.add(rnd.phase.value)
        prebuilt = {id(a) for a in rnd.prebuilt.every()}
        assert all(id(a) in prebuilt for a in rnd.listed()), rnd.listed()
    assert seen == {"upcard", "draw", "discard"}


def test_table_deadwood_is_min_deadwood_where_the_tables_serve() -> None:
    variant = load_variant("gin_rummy")
    rules = MeldRules.from_variant(variant)
    rng = random.Random(11)
    cards = list(variant.deck.cards)
    for _ in range(300):
        hand = rng.sample(cards, rng.choice((1, 7, 10, 11)))
        mask = sum(1 << c.id for c in hand)
        assert rules.table_deadwood(mask) == rules.min_deadwood(hand)
        assert rules.table_deadwood(mask, discard=True) == rules.min_deadwood(hand, discard=True)


def test_table_deadwood_says_none_where_the_tables_do_not_serve() -> None:
    ginski = load_variant("ginski")  # wild cards: the general search answers
    rules = MeldRules.from_variant(ginski)
    wild = next(c for c in ginski.deck.cards if c.wild)
    assert rules.table_deadwood(1 << wild.id) is None
