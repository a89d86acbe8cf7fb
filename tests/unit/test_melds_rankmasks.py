"""The per-suit tables' building blocks (rummydsl/melds/rankmasks.py) and their memos.

``suit_table`` builds a suit's tables a block of masks at a time; it must give the
very tables of ``suit_table_reference``, which tries every meld at every mask.
"""

from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.melds import MeldRules
from rummydsl.melds.rankmasks import suit_table, suit_table_reference
from rummydsl.variant import load_variant


def runs(R: int, shortest: int = 3, wrap: bool = False) -> set[int]:
    """Every run of ``shortest`` or more consecutive ranks of ``R`` (with ``wrap``, also
    those round the top, K-A-2: their masks have gaps)."""
    out = set()
    for lowest in range(R):
        for length in range(shortest, R + 1):
            if lowest + length <= R:
                out.add(((1 << length) - 1) << lowest)
            elif wrap and length < R:
                out.add(sum(1 << ((lowest + i) % R) for i in range(length)))
    return out


GIN_VALUES = tuple(min(order, 10) for order in range(1, 14))


@pytest.mark.parametrize("melds", [
    runs(13),                        # Gin
    runs(13, wrap=True),             # round-the-corner runs: gaps of up to ten ranks
    runs(13, shortest=2),            # pairs in sequence
    {0b1011, 0b100101, 0b1101},      # gaps of one and two ranks: a slice per filling
    set(),                           # no runs at all
])
def test_suit_table_matches_reference_on_thirteen_ranks(melds: set[int]) -> None:
    assert suit_table(13, melds, GIN_VALUES) == suit_table_reference(13, melds, GIN_VALUES)


def test_suit_table_equal_values_prefer_the_larger_meld() -> None:
    # every card worth the same: many equal steps, the tie-break decides
    values = (5,) * 13
    assert suit_table(13, runs(13), values) == suit_table_reference(13, runs(13), values)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_suit_table_matches_reference_on_any_melds(data: st.DataObject) -> None:
    R = data.draw(st.integers(1, 9), label="ranks")
    melds = data.draw(st.sets(st.integers(1, (1 << R) - 1), max_size=40), label="melds")
    values = tuple(data.draw(st.lists(st.integers(0, 12), min_size=R, max_size=R), label="values"))
    assert suit_table(R, melds, values) == suit_table_reference(R, melds, values)


def test_tie_memos_hold_ints_only() -> None:
    """The tie keys of a fresh solver's first tie go into dicts of ints, which the
    garbage collector does not scan (lists per suit mask made every collection of a
    cold pass scan 32,768 entries)."""
    rules = MeldRules.from_variant(load_variant("gin_rummy"))
    # 6H-7H-8H or 7S-7H-7D, 64 either way (docs/performance.md): a tie of two set choices
    arrangement = rules.solve("7S TS QS 6H 7H 8H 7D KD JC QC")
    assert arrangement.deadwood == 64
    assert [" ".join(map(str, meld)) for meld in arrangement.melds] == ["7S 7H 7D"]
    tables = rules._suit_tables()
    assert tables
    assert len(tables.walk_tie_keys) > 1 and len(tables.set_tie_keys) > 1  # the tie filled them
    assert not gc.is_tracked(tables.walk_tie_keys)
    assert not gc.is_tracked(tables.set_tie_keys)

