"""A class's meld listing kept by what it reads (rummydsl/melds/ranklistings.py) lists
what a plain listing lists.

The listing of a class's melds in a pattern is kept by the class, its count (up to the
largest set) and the runs of held positions around it; held here, on one solver whose
kept listings carry from hand to hand, to the window-by-window listing of
``test_melds_rankclasses_lists`` and to the listing made afresh, on the Skarney-like rules
of ``test_melds_rankclasses``; and a pattern changed away from a class's runs reads the
kept listing, while one whose run holds a class twice (every rank, the ace low and high)
is listed afresh.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummydsl.melds.ranklistings import class_melds, list_class_melds

from test_melds_rankclasses import RULES, SETTINGS, hands, solvers
from test_melds_rankclasses_lists import ONE_CLASS, _classes, plain_melds


@pytest.mark.parametrize("index", ONE_CLASS)
@SETTINGS
@given(data=st.data())
def test_a_kept_listing_is_the_plain_listing(index: int, data: Any) -> None:
    classes = _classes(index)
    hand = data.draw(hands(solvers(index)[0].deck, 16))
    key = classes.key(sum(1 << c.id for c in hand))
    for k in sorted({classes.class_of[c.id] for c in hand}):
        kept = class_melds(classes, k, key)
        assert len(kept) == len(set(kept))
        assert set(kept) == plain_melds(classes, k, key)
        field = classes.field
        have = key >> (k * classes.width) & field
        cap = classes.set_cap
        spans = [k, have if cap is None else min(have, cap)]
        for p in classes.positions[k]:
            down, up = p, p
            while key >> classes.shift_at[down - 1] & field:
                down -= 1
            while key >> classes.shift_at[up + 1] & field:
                up += 1
            spans += (down, up)
        assert kept == list_class_melds(classes, k, key, spans[1], spans)


def _key(classes: Any, deck: Any, cards: str) -> int:
    return int(classes.key(sum(1 << c.id for c in deck.parse_cards(cards))))


def test_a_pattern_changed_away_from_the_runs_reads_the_kept_listing() -> None:
    index = RULES.index(("both", "not_all_same", 1, "ranks", 0))
    classes = _classes(index)
    deck = solvers(index)[0].deck
    k = classes.class_of[deck.parse_cards("4H")[0].id]
    one = class_melds(classes, k, _key(classes, deck, "3S 4H 5D 5C"))
    other = class_melds(classes, k, _key(classes, deck, "3S 4H 5D 5C 9C 9H"))
    assert one is other and set(one) == plain_melds(classes, k, _key(classes, deck, "3S 4H 5D 5C"))
    # one more 4 counts (a set of 4s is possible): listed apart
    more = _key(classes, deck, "3S 4H 4S 4D 5D 5C")
    assert set(class_melds(classes, k, more)) == plain_melds(classes, k, more) != set(one)


def test_a_run_of_every_rank_counts_its_aces() -> None:
    index = RULES.index(("both", "not_all_same", 1, "ranks", 0))
    classes = _classes(index)
    deck = solvers(index)[0].deck
    every = "AS 2H 3S 4D 5C 6S 7H 8D 9C TS JH QD KC"
    k = classes.class_of[deck.parse_cards("7H")[0].id]
    for cards in (every, every + " AH", every):
        key = _key(classes, deck, cards)
        kept = len(classes.listings)
        assert set(class_melds(classes, k, key)) == plain_melds(classes, k, key)
        assert len(classes.listings) == kept  # listed afresh, not kept
