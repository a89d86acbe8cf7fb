"""A solver keeps the groups each small pool of cards gives (rummydsl/melds/candidates.py).

The groups are replayed in the order they were listed, so a kept pool must be the same
cards in the same order: a search with table melds lists the hand's cards, then the
table's, and the same cards in another order give the groups in another order (a kept
list keyed by the cards alone once gave a seeded Gin game other figures). Each listing
is held to a fresh solver's.
"""

from __future__ import annotations

import random

import pytest

from rummydsl.melds import MeldRules
from rummydsl.melds.candidates import candidates
from rummydsl.variant import load_variant


@pytest.mark.parametrize("variant_id", ["gin_rummy", "ginski", "skarney_gin"])
def test_kept_groups_come_out_as_listed_afresh(variant_id: str) -> None:
    variant = load_variant(variant_id)
    kept = MeldRules.from_variant(variant)
    rng = random.Random(7)
    naturals = [c.id for c in kept.deck.cards if not c.wild]
    wild_count = sum(1 for c in kept.deck.cards if c.wild)
    for _ in range(60):
        ids = sorted(rng.sample(naturals, rng.randint(3, 10)))
        wilds = rng.randint(0, min(2, wild_count))
        cut = rng.randint(0, len(ids))
        for order in (ids, ids[cut:] + ids[:cut], list(reversed(ids))):
            fresh = MeldRules.from_variant(variant)
            assert candidates(kept, order, wilds) == candidates(fresh, order, wilds)
