"""The discard listing of a deck with shared faces: one discard per face, in hand order.

:meth:`DiscardMechanic.legal <rummydsl.engine.mechanics.discard.DiscardMechanic.legal>`
looks only at the cards whose face another card of the deck has
(:func:`~rummydsl.engine.mechanics.discard.shared_face_bits`: Ginski's wild cards, every
face of two packs). Dealt hands with cards swapped in from the stock (several copies of a
face, the card taken from the pile barred or not) list what ``Round.distinct_faces`` of
the hand less the barred card lists.
"""

from __future__ import annotations

import random

import pytest

from rummydsl.engine import Round
from rummydsl.engine.mechanics.discard import DiscardMechanic, shared_face_bits
from rummydsl.engine.table import face_bits
from rummydsl.variant import load_variant


@pytest.mark.parametrize("name", ["ginski", "contract_rummy", "gin_rummy"])
def test_listing_is_one_card_a_face(name: str) -> None:
    variant = load_variant(name)
    rng = random.Random(22)
    mechanic = DiscardMechanic()
    for deal in range(20):
        rnd = Round.deal(variant, rng, dealer=deal % variant.players, players=variant.players)
        player = rnd.to_move
        assert player is not None
        hand = rnd.hands[player]
        # copies of one face side by side: the shared faces' cards from the stock first
        shared = [c for c in rnd.stock if shared_face_bits(variant.deck)[c.id]]
        hand.extend(shared[: rng.randint(0, 4)])
        rng.shuffle(hand)
        rnd.taken = rng.choice([None, None, hand[rng.randrange(len(hand))]])
        taken = rnd.taken if rnd.forbid_taken else None
        expected = [rnd.prebuilt.discard[player][c.id] for c in rnd.distinct_faces([c for c in hand if c is not taken])]
        assert list(mechanic.legal(rnd, player)) == expected


def test_shared_face_bits() -> None:
    deck = load_variant("ginski").deck
    bits, shared = face_bits(deck), shared_face_bits(deck)
    assert [c.id for c in deck.cards if shared[c.id]] == [c.id for c in deck.cards if c.wild]
    assert all(shared[c.id] == bits[c.id] for c in deck.cards if c.wild)
    assert not any(shared_face_bits(load_variant("gin_rummy").deck))
