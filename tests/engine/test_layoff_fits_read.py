"""A new table meld state of suit-blind kinds is judged whole, every card at once, kept by
the meld's reading (``layoffmasks._fits_read``: its count, ranks and one suit): the cards it
gives are those that extend the meld judged one by one by the kinds' patterns, for every
group that forms a kind, asked after groups of the same ranks in other suits and copies
(which share the reading's memo), in Skarney Gin and in Skarney with two packs and wild
cards (copies of a face: a class of the meld's own cards is left to the others). Kinds that
are not suit-blind, and wild cards whose meanings read the hand, are not read so (-1).
"""

from __future__ import annotations

import itertools
import random

import pytest

from rummydsl.engine import Round
from rummydsl.engine.mechanics import layoffmasks
from rummydsl.engine.mechanics.layoffmasks import _fits_read

from .conftest import variant

HOUSE_RULES = {
    "skarney_packs": ("skarney_gin", "deck: {preset: standard52, packs: 2, wilds: 2, ace: both, wrap: false}\n"
                                     "card_value: \"wild ? 15 : rank == A ? 15 : min(order, 10)\"\n"),
    "rummy_unique": ("rummy", "deck: {preset: standard52, ace: both, wrap: false, wilds: 2}\n"
                              "card_value: \"wild ? 15 : min(order, 10)\"\n"
                              "meld_options: {wild_unique_card: true}\n"),
}


def _round(name: str) -> Round:
    return Round.deal(variant(name, HOUSE_RULES), random.Random(3), dealer=0)


def _worked(rnd: Round, group: tuple) -> int:  # type: ignore[type-arg]
    """The cards that extend ``group``, each judged by the patterns (a bit a card id)."""
    rules = rnd.rules
    out = 0
    ids = {c.id for c in group}
    for card in rnd.variant.deck.cards:
        if card.id not in ids and rules.kinds_bits([*group, card]):
            out |= 1 << card.id
    return out


@pytest.mark.parametrize("name", ["skarney_gin", "skarney_packs"])
def test_a_meld_judged_whole_by_its_reading_is_judged_card_by_card(name: str) -> None:
    rnd = _round(name)
    layoffmasks._FITS.clear()
    rules = rnd.rules
    naturals = [c for c in rnd.variant.deck.cards if not c.wild]
    pick = random.Random(11)
    low = [c for c in naturals if c.rank is not None and c.rank.order <= (13 if name == "skarney_gin" else 5)]
    groups = [g for g in itertools.combinations(low, 3) if rules.kinds_bits(g)]  # (sets of one rank's cards too)
    groups += [g for g in (tuple(pick.sample(naturals, k)) for k in (4, 5) for _ in range(3000))
               if rules.kinds_bits(g)]
    assert len(groups) > 100
    for group in groups:
        mask = 0
        for card in group:
            mask |= 1 << card.id
        assert _fits_read(rnd, group, mask, mask) == _worked(rnd, group), group


def test_kinds_not_suit_blind_and_unique_wild_cards_are_not_read() -> None:
    for name in ("rummy", "gin_rummy", "rummy_unique"):
        rnd = _round(name)
        group = tuple(rnd.variant.deck.parse_cards("7H 7D 7C"))
        mask = sum(1 << c.id for c in group)
        assert _fits_read(rnd, group, mask, mask) == -1, name
