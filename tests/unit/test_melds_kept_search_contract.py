"""A solver with a contract answers a hand with wild cards from the last such hand's search too.

The unconstrained best of a hand reads no contract, so rummydsl/melds/rules.py
``_kept_search`` serves a deal's solver of Contract Rummy (CR-2) as it serves one without
a contract: a greedy player weighing its discards before going down asks the hand less
each card. Every answer is held to a solver that searches each question alone, on
random hands with one or two jokers; the questions that ask about the contract
(``solve`` with ``check_contract``) still search, and say the same.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Card
from rummydsl.melds import MeldRules
from rummydsl.variant import load_variant


@lru_cache(maxsize=None)
def solvers() -> tuple[MeldRules, MeldRules]:
    """Contract Rummy's first deal: (keeping the last search, searching each question alone)."""
    variant = load_variant("contract_rummy")
    kept = MeldRules.from_variant(variant)
    alone = MeldRules.from_variant(variant)
    alone._kept_search = lambda *args: None  # type: ignore[method-assign]
    return kept, alone


def _hand(data: Any, naturals: list[Card], wilds: list[Card], size: int, w: int) -> list[Card]:
    """``size`` cards, ``w`` of them wild, in a drawn order."""
    picked = data.draw(st.lists(st.integers(0, len(naturals) - 1), min_size=size - w, max_size=size - w, unique=True))
    hand = [naturals[i] for i in picked] + wilds[:w]
    return [hand[i] for i in data.draw(st.permutations(range(size)))]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_contract_solvers_questions_answer_as_searched_alone(data: Any) -> None:
    kept, alone = solvers()
    assert kept.contract is not None
    deck = kept.deck
    naturals = [c for c in deck.cards if not c.wild]
    wilds = [c for c in deck.cards if c.wild]
    size = data.draw(st.integers(3, 11))
    w = data.draw(st.integers(1, min(size - 1, 2)))
    hand = _hand(data, naturals, wilds, size, w)
    assert kept.min_deadwood(hand) == alone.min_deadwood(hand)
    assert kept.min_deadwood(hand, discard=True) == alone.min_deadwood(hand, discard=True)
    assert kept.best_discard(hand) == alone.best_discard(hand)
    assert kept.solve_discard(hand) == alone.solve_discard(hand)
    for card in hand:
        rest = [c for c in hand if c is not card]
        assert kept.solve(rest, check_contract=False) == alone.solve(rest, check_contract=False)
        assert kept.min_deadwood(rest) == alone.min_deadwood(rest)
    assert kept.solve(hand, check_contract=False) == alone.solve(hand, check_contract=False)
    assert kept.solve(hand) == alone.solve(hand)


def test_an_arrangement_from_the_kept_search_does_not_claim_the_contract() -> None:
    kept, alone = solvers()
    hand = kept.deck.parse_cards("7H 7D 7C 9S 9H 9D 2C 5S KH *")
    assert kept.solve(hand) == alone.solve(hand)
    assert kept.solve(hand).contract  # two sets: deal 1's contract, asked
    for card in hand:
        rest = [c for c in hand if c is not card]
        got = kept.solve(rest, check_contract=False)
        assert got == alone.solve(rest, check_contract=False)
        assert not got.contract  # not asked: reported unheld, as a search alone reports it


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_big_hands_answer_as_searched_alone(data: Any) -> None:
    """Hands of 15 to 19 cards (a Contract Rummy hand after buys, CR-4): the hand less each
    card, as the greedy player's discards ask, from the kept search too."""
    kept, alone = solvers()
    deck = kept.deck
    naturals = [c for c in deck.cards if not c.wild]
    wilds = [c for c in deck.cards if c.wild]
    size = data.draw(st.integers(15, 19))
    w = data.draw(st.integers(1, 2))
    hand = _hand(data, naturals, wilds, size, w)
    assert kept.min_deadwood(hand) == alone.min_deadwood(hand)
    for card in hand[:6]:
        rest = [c for c in hand if c is not card]
        assert kept.min_deadwood(rest) == alone.min_deadwood(rest)
    rest = hand[1:]
    assert kept.solve(rest, check_contract=False) == alone.solve(rest, check_contract=False)
