"""The rank windows (rummydsl/melds/rankwindows.py) give what the general search gives.

Every question a wild-free hand asks through the rank windows (the least deadwood,
the canonical arrangement with and without the contract flag, the knock question and
the arrangement after it, tie-breaks included, whether the contract is held) is
compared with the same solver's answer when the windows are switched off
(``_windows_state = False``: the path before them), on random and meld-rich hands of
every shipped variant whose wild-free hands the per-suit tables do not answer (mixed-suit
sequences, five suits, wild cards, a contract, melds kept in the hand as deadwood).
The windows' meld listing is held to the candidate listing of :mod:`.candidates`,
and the parts to the rule that no meld crosses two of them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.melds import MeldRules
from rummydsl.melds.candidates import candidates
from rummydsl.melds.rankwindows import RankWindows
from rummydsl.variant import load_variant

VARIANTS = ("skarney_gin", "skarney_poker_distinct", "ginski", "ginski_four", "contract_rummy", "rummy")

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def solvers(variant_id: str) -> tuple[MeldRules, MeldRules]:
    """(with the windows, without them) for the shipped variant."""
    variant = load_variant(variant_id)
    new = MeldRules.from_variant(variant)
    old = MeldRules.from_variant(variant)
    old._windows_state = False
    return new, old


@st.composite
def hands(draw: Any, variant_id: str, wilds: bool = False) -> list[Any]:
    """A hand of 1 to 20 cards: uniform, or from a window of 5 ranks (meld-rich)."""
    new, _ = solvers(variant_id)
    deck = new.deck
    naturals = [c for c in deck.cards if not c.wild]
    pool = naturals
    if draw(st.booleans()):
        low = draw(st.integers(1, len(deck.ranks) - 4))
        pool = [c for c in naturals if c.rank is not None and low <= c.rank.order < low + 5]
    size = draw(st.integers(1, min(20, len(pool))))
    hand = draw(st.permutations(pool))[:size]
    if wilds:
        wild_cards = [c for c in deck.cards if c.wild]
        hand += wild_cards[:draw(st.integers(0, min(3, len(wild_cards))))]
    return list(hand)


@pytest.mark.parametrize("variant_id", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_the_windows_answer_as_the_general_search(variant_id: str, data: Any) -> None:
    new, old = solvers(variant_id)
    hand = data.draw(hands(variant_id, wilds=variant_id.startswith("ginski")))
    assert new.min_deadwood(hand) == old.min_deadwood(hand)
    assert new.solve(hand, check_contract=False) == old.solve(hand, check_contract=False)
    if len(hand) > 12:  # the general search's contract and knock questions grow fast past that
        return
    assert new.solve(hand) == old.solve(hand)
    assert new.min_deadwood(hand, discard=True) == old.min_deadwood(hand, discard=True)
    assert new.best_discard(hand) == old.best_discard(hand)
    assert new.solve_discard(hand) == old.solve_discard(hand)
    assert new.solve_discard(hand, check_contract=True) == old.solve_discard(hand, check_contract=True)
    if new.contract is not None:
        assert new.holds_contract(hand) == old.holds_contract(hand)
        assert new.solve(hand, contract=True) == old.solve(hand, contract=True)


SHIPPED = tuple(sorted(path.stem for path in (Path(__file__).resolve().parents[2] / "variants").glob("*.yaml")))


@lru_cache(maxsize=None)
def tableless(variant_id: str) -> tuple[MeldRules, MeldRules]:
    """(with the windows, without them) for the shipped variant, both without the per-suit
    and deck tables, which answer a wild-free knock question first where they apply."""
    variant = load_variant(variant_id)
    new = MeldRules.from_variant(variant)
    old = MeldRules.from_variant(variant)
    for rules in (new, old):
        rules._suit_state = False
        rules._deck_table_state = False
    old._windows_state = False
    return new, old


@pytest.mark.parametrize("variant_id", SHIPPED)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_knock_question_keeps_the_general_searchs_tie_break(variant_id: str, data: Any) -> None:
    """The discard the windows choose among equally good ones is the general search's
    (highest value, then highest card id), in every shipped variant's wild-free hands."""
    new, old = tableless(variant_id)
    deck = new.deck
    naturals = [c for c in deck.cards if not c.wild]
    hand = data.draw(st.permutations(naturals))[:data.draw(st.integers(1, 12))]
    assert new.best_discard(hand) == old.best_discard(hand)
    assert new.solve_discard(hand) == old.solve_discard(hand)
    assert new.min_deadwood(hand, discard=True) == old.min_deadwood(hand, discard=True)


def test_one_solver_over_many_hands_answers_as_the_general_search() -> None:
    """The windows' memos kept over a run of hands (a memo once stored a part's melds
    under another key, and a later hand's walk never ended)."""
    import random

    variant = load_variant("skarney_gin")
    new = MeldRules.from_variant(variant)
    old = MeldRules.from_variant(variant)
    old._windows_state = False
    rng = random.Random(2024)
    naturals = [c for c in new.deck.cards if not c.wild]
    for _ in range(80):
        hand = rng.sample(naturals, 10)
        assert new.solve(hand) == old.solve(hand)
        assert new.min_deadwood(hand) == old.min_deadwood(hand)


def test_every_shipped_variant_is_asked() -> None:
    assert {"gin_rummy", "skarney_gin", "ginski", "contract_rummy", "rummy"} <= set(SHIPPED)


def _windows(variant_id: str) -> RankWindows:
    new, _ = solvers(variant_id)
    windows = new._windows()
    assert windows
    return windows


@pytest.mark.parametrize("variant_id", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_no_meld_crosses_two_parts(variant_id: str, data: Any) -> None:
    windows = _windows(variant_id)
    hand = data.draw(hands(variant_id))
    mask = sum(1 << c.id for c in hand)
    parts = windows.parts(mask)
    assert sum(parts) == mask and all(not a & b for i, a in enumerate(parts) for b in parts[i + 1:])
    ids = sorted(c.id for c in hand)
    for _local, _k, natural_mask, _kinds in candidates(windows.core, ids, 0):
        assert any(natural_mask & part == natural_mask for part in parts)


@pytest.mark.parametrize("variant_id", VARIANTS)
@SETTINGS
@given(data=st.data())
def test_the_windows_list_the_candidate_melds(variant_id: str, data: Any) -> None:
    windows = _windows(variant_id)
    hand = data.draw(hands(variant_id))
    ids = sorted(c.id for c in hand)
    mask = sum(1 << cid for cid in ids)
    listed = {natural_mask for _local, _k, natural_mask, _kinds in candidates(windows.core, ids, 0)}
    for cid in ids:
        got = windows.melds_with(cid, mask)
        assert len(got) == len(set(got))
        assert set(got) == {m for m in listed if m >> cid & 1}
        assert windows.melds_with(cid, mask) == got  # the memo gives the same list


def test_the_windows_need_known_shapes() -> None:
    from rummydsl.cards import Deck

    rules = MeldRules(Deck.preset("standard52"), {"any3": lambda cards: len(cards) == 3}, [1] * 52)
    assert rules._windows() is False
    assert rules.min_deadwood("AS 2H 3D KC") == 1  # the general search still answers
