"""The rank classes' memos filled at once (rummydsl/melds/rankprefill.py) answer as unfilled ones.

The small parts are every part of a random hand of up to seven cards (held to the split
by ranks, one and two packs, the ace low, high or both), and a solver whose memos were
filled gives the same least deadwood and the same walk of each part as one that fills
them as it goes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummydsl.melds.rankprefill import PREFILL_AFTER, PREFILL_MOST, prefill, small_parts

from test_melds_rankparts import DECKS, SETTINGS, _rules, windows


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_the_small_parts_hold_every_part_of_a_hand(index: int, data: Any) -> None:
    found = windows(index)
    assert found.rank_parts is not None and found.rank_classes is not None
    small = set(small_parts(found.rank_classes, found.rank_parts, 5))
    naturals = [c.id for c in found.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=14, unique=True))
    parts, keys = found.rank_parts.split(sum(1 << cid for cid in ids))
    for part, key in zip(parts, keys):
        assert (key in small) == (part.bit_count() <= 5)


def test_the_small_parts_are_each_once() -> None:
    found = windows(0)
    assert found.rank_parts is not None and found.rank_classes is not None
    small = small_parts(found.rank_classes, found.rank_parts, 3)
    # one pack, 13 ranks in a ring of links (the ace low and high): 1 to 3 cards of one rank,
    # (1, 1), (1, 2) or (2, 1) of two neighbours (13 pairs), one of each of three in a row
    assert len(small) == len(set(small)) == 13 * 3 + 13 * 3 + 13


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_filled_memos_answer_as_unfilled(index: int, data: Any) -> None:
    filled = _rules(*DECKS[index])._windows()
    plain = windows(index)
    assert filled and filled.rank_classes and filled.rank_parts and plain.rank_classes and plain.rank_parts
    prefill(filled.rank_classes, filled.rank_parts, 5)
    naturals = [c.id for c in plain.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=16, unique=True))
    mask = sum(1 << cid for cid in ids)
    parts, keys = plain.rank_parts.split(mask)
    for part, key in zip(parts, keys):
        assert filled.rank_classes.least(key) == plain.rank_classes.least(key)
        assert filled.rank_classes.walk(part) == plain.rank_classes.walk(part)
        assert (key in filled.rank_classes.meldless) == (key in plain.rank_classes.meldless) or (
            plain.rank_classes.least(key) == plain.rank_classes.pattern_value(key))


def test_a_solver_fills_its_memos_after_its_walks() -> None:
    rules = _rules("both", 1)
    found = rules._windows()
    assert found and found.rank_classes is not None
    assert found._walks == 0 and PREFILL_MOST >= 5
    found._walks = PREFILL_AFTER - 1
    before = len(found.rank_classes.least_memo)
    rules.solve("4H 5H 6H 6S 9C")  # one part of four walked afresh: the memos are filled
    assert found._walks == PREFILL_AFTER and len(found.rank_classes.least_memo) > before + 1000
