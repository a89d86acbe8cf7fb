"""The contract listing's own steps (``contractlist``, ``contractgrown``) against plain
ways of doing them: the lay-downs where every collection meets the contract, and the
candidates' order."""

from __future__ import annotations

import itertools
from typing import Any

from rummydsl.engine.actions import Meld
from rummydsl.engine.mechanics import contractlist


def test_every_disjoint_collection_is_listed_in_the_search_order() -> None:
    """``_every_disjoint`` (the first three melds in loops, deeper ones by recursion) lists
    every collection of ``fewest`` to ``most`` pairwise disjoint candidates of ``free``,
    in the depth-first search's order (index tuples in lexicographic order, a collection
    before those that extend it), each as the action ``Meld(player, groups)``."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=400, deadline=None)
    @given(masks=st.lists(st.integers(1, (1 << 14) - 1), max_size=12), bounds=st.tuples(
        st.integers(1, 6), st.integers(0, 5)), free=st.integers(0, (1 << 12) - 1), player=st.integers(0, 3))
    def check(masks: list[int], bounds: tuple[int, int], free: int, player: int) -> None:
        fewest, more = bounds
        most = fewest + more
        groups: list[Any] = [tuple(range(mask.bit_length())) + (mask,) for mask in masks]  # (distinct tuples)
        free &= (1 << len(masks)) - 1
        after = [sum(1 << j for j in range(i + 1, len(masks)) if not masks[i] & masks[j]) for i in range(len(masks))]
        chosen = [i for i in range(len(masks)) if free >> i & 1]
        want = sorted(
            picked for size in range(fewest, most + 1) for picked in itertools.combinations(chosen, size)
            if all(not masks[a] & masks[b] for a, b in itertools.combinations(picked, 2)))
        found: list[Meld] = []
        contractlist._every_disjoint(found, player, groups, after, free, fewest, most)
        assert found == [Meld(player, tuple(groups[i] for i in picked)) for picked in want]
        assert all(type(meld) is Meld for meld in found)

    check()


def test_the_disjointness_check_past_groups_known_to_hold_none_is_the_brute_force_one() -> None:
    """``contractgrown.holds_apart`` with ``fresh`` (the first groups known to hold no
    ``need`` disjoint ones: those of the player's last listing that the hand still holds)
    answers as trying every choice of that many groups."""
    from hypothesis import assume, given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import contractgrown

    def brute(masks: list[int], need: int) -> bool:
        return any(all(not a & b for a, b in itertools.combinations(chosen, 2))
                   for chosen in itertools.combinations(masks, need))

    @settings(max_examples=500, deadline=None)
    @given(masks=st.lists(st.integers(1, (1 << 12) - 1), max_size=10), need=st.integers(0, 4),
           least=st.integers(1, 3), fresh=st.integers(0, 10))
    def check(masks: list[int], need: int, least: int, fresh: int) -> None:
        masks = [mask for mask in masks if mask.bit_count() >= least]
        fresh = min(fresh, len(masks))
        assume(not brute(masks[:fresh], need) or not fresh)
        assert contractgrown.holds_apart(masks, need, least, fresh) == brute(masks, need)

    check()
