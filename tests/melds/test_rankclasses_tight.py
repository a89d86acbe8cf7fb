"""A walk step's melds that leave the least (rummydsl/melds/rankclasses.py, ``tight``).

The canonical walk of a part's cards (:meth:`~rummydsl.melds.rankclasses.RankClasses.walk_loose`)
reads, at its lowest card, only the melds of that card's class that leave the pattern's
least deadwood (kept per pattern, filled by the prefill), and stops once what is left is
a pattern marked meldless. Each is held here to the walk that tries every meld of the
class and reads every card to the end, on random hands of one or two packs with the ace
low, high or both, before and after the prefill.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.expr import BOOL, INT, Context, Env, compile_expression
from rummydsl.melds import MeldRules
from rummydsl.melds.rankclasses import RankClasses
from rummydsl.melds.rankprefill import prefill
from rummydsl.melds.rankwindows import RankWindows

SKARNEY = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)",
           "poker": "size >= 3 and consecutive(rank) and not same(suit)"}
RANKS = "rank == A ? 15 : min(order, 10)"

#: (ace, packs, filled by the prefill)
DECKS = [("both", 1, False), ("both", 1, True), ("low", 1, True), ("high", 1, False), ("both", 2, True)]

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def windows(index: int) -> RankWindows:
    ace, packs, filled = DECKS[index]
    deck = Deck.from_spec({"preset": "standard52", "ace": ace, "packs": packs})
    melds = {**SKARNEY, "set": "size >= 3 and same(rank)"} if packs > 1 else SKARNEY
    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    got = MeldRules(deck, kinds, compile_expression(RANKS, Env(Context.CARD, deck), INT))._windows()
    assert got and got.rank_classes is not None and got.rank_parts is not None
    if filled:
        prefill(got.rank_classes, got.rank_parts)
    return got


def reference_walk(classes: RankClasses, mask: int) -> tuple[int, list[int], int]:
    """(deadwood, the melds' card-id masks, the unmatched cards' mask): at the lowest card,
    among every meld of its class that leaves the least, the largest by card-id mask."""
    key = classes.key(mask)
    deadwood = target = classes.least(key)
    melds: list[int] = []
    loose = 0
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        best = best_group = 0
        for group in classes.melds(classes.class_of[c], key):
            if classes.least(key - group) == target:
                real = classes._largest(group, c, mask, key)
                if real > best:
                    best, best_group = real, group
        if best:
            melds.append(best)
            mask ^= best
            key -= best_group
        else:
            target -= classes.core.values[c]
            loose |= low
            mask ^= low
            key -= classes.card_inc[c]
    return deadwood, melds, loose


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_the_walk_is_the_walk_over_every_meld(index: int, data: Any) -> None:
    found = windows(index)
    classes = found.rank_classes
    assert classes is not None
    naturals = [c.id for c in found.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=16, unique=True))
    mask = sum(1 << cid for cid in ids)
    for part, key in zip(found.parts(mask), found.part_keys(mask)):
        deadwood, melds, _kinds, unmatched = classes.walk_loose(part, key)
        want, want_melds, want_loose = reference_walk(classes, part)
        assert deadwood == want
        assert [sum(1 << c.id for c in meld) for meld in melds] == want_melds
        assert unmatched == want_loose


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_the_kept_melds_are_those_that_leave_the_least(index: int, data: Any) -> None:
    found = windows(index)
    classes = found.rank_classes
    assert classes is not None
    naturals = [c.id for c in found.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=12, unique=True))
    key = classes.key(sum(1 << cid for cid in ids))
    for k in {classes.class_of[cid] for cid in ids}:
        tight = classes.tight(k, key)
        least = classes.least(key)
        assert [group for group, _cards, _fields, _counts in tight] == [
            group for group in classes.melds(k, key) if classes.least(key - group) == least]
        for group, cards, fields, counts in tight:
            assert classes._fits(group, key) and group & fields == group and counts == tuple(classes._counts(group))
            assert fields == sum(classes.field << (j * classes.width) for j, _n in classes._counts(group))
            assert cards == sum(classes.class_cards[j] for j, _n in classes._counts(group))
        assert classes.tights[k][key] is tight
