"""The rank classes (rummydsl/melds/rankclasses.py) give what the plain search gives.

With suit-blind kinds (Skarney's sets, runs and poker sequences: together every
sequence) the rank windows search a part's rank pattern, read the canonical arrangement
from each pattern's largest card set, and ask a contract that reads only sizes per
part's pattern; the meld judge reads a wild-free group's kinds from its ranks and
whether it keeps one suit. Each question is held to the same solver with the windows
off (``_windows_state = False``: the general search), and the walk to the card-by-card
walk of the rank windows, on random hands of Skarney-like rules with the ace low, high
or both, with both readings of the poker sequence (suits not all the same: suit-blind;
all different: not), one pack or two, and card values that follow the ranks or not (a
rank of two classes). One solver answers every hand of a test, so its memos carry
from hand to hand, as in play.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.expr import BOOL, INT, Context, Env, compile_expression
from rummydsl.melds import MeldRules
from rummydsl.melds.rankclasses import blind_contract
from rummydsl.variant import load_variant

POKER = {"not_all_same": "size >= 3 and consecutive(rank) and not same(suit)",
         "all_different": "size >= 3 and consecutive(rank) and distinct(suit)"}
VALUES = {"ranks": "rank == A ? 15 : min(order, 10)", "hearts_low": "suit == H ? 1 : min(order, 10)"}
CONTRACTS = ("count == 3 and all(size == 3)", "count >= 2 and all(size >= 3)")

#: (ace, poker reading, packs, values, contract)
RULES = [
    ("both", "not_all_same", 1, "ranks", 0),
    ("low", "not_all_same", 1, "ranks", 0),
    ("high", "not_all_same", 1, "ranks", 1),
    ("both", "all_different", 1, "ranks", 0),
    ("both", "not_all_same", 2, "ranks", 1),
    ("both", "not_all_same", 1, "hearts_low", 0),
    ("low", "not_all_same", 1, "hearts_low", 1),
]

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rules(ace: str, poker: str, packs: int, values: str, contract: int) -> MeldRules:
    deck = Deck.from_spec({"preset": "standard52", "ace": ace, "packs": packs})
    melds = {"set": "size >= 3 and same(rank)" if packs > 1 else "size in 3..4 and same(rank)",
             "run": "size >= 3 and same(suit) and consecutive(rank)", "poker": POKER[poker]}
    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    value = compile_expression(VALUES[values], Env(Context.CARD, deck), INT)
    pred = compile_expression(CONTRACTS[contract], Env(Context.CONTRACT, deck), BOOL)
    return MeldRules(deck, kinds, value, pred)


@lru_cache(maxsize=None)
def solvers(index: int) -> tuple[MeldRules, MeldRules, MeldRules]:
    """(rank classes, card-by-card rank windows, general search) for ``RULES[index]``."""
    new = _rules(*RULES[index])
    cards = _rules(*RULES[index])
    windows = cards._windows()
    assert windows
    windows.rank_classes = None
    windows.classes = None
    plain = _rules(*RULES[index])
    plain._windows_state = False
    return new, cards, plain


@st.composite
def hands(draw: Any, deck: Deck, most: int) -> list[Any]:
    """A hand of 1 to ``most`` natural cards: uniform, or from a window of 5 ranks (meld-rich)."""
    naturals = [c for c in deck.cards if not c.wild]
    pool = naturals
    if draw(st.booleans()):
        low = draw(st.integers(1, len(deck.ranks) - 4))
        pool = [c for c in naturals if c.rank is not None and low <= c.rank.order < low + 5]
    size = draw(st.integers(1, min(most, len(pool))))
    return list(draw(st.permutations(pool))[:size])


def test_the_rules_take_the_paths_they_test() -> None:
    for index, (_ace, poker, _packs, values, _contract) in enumerate(RULES):
        new, cards, _plain = solvers(index)
        windows = new._windows()
        assert windows
        assert (windows.rank_classes is not None) == (poker == "not_all_same")
        if windows.rank_classes is not None:
            assert windows.rank_classes.one_class == (values == "ranks")
            assert blind_contract(new.contract)


@pytest.mark.parametrize("index", range(len(RULES)))
@SETTINGS
@given(data=st.data())
def test_the_rank_classes_answer_as_the_general_search(index: int, data: Any) -> None:
    new, _cards, plain = solvers(index)
    hand = data.draw(hands(new.deck, 11))
    assert new.min_deadwood(hand) == plain.min_deadwood(hand)
    assert new.solve(hand, check_contract=False) == plain.solve(hand, check_contract=False)
    assert new.solve(hand) == plain.solve(hand)
    assert new.holds_contract(hand) == plain.holds_contract(hand)
    assert new.min_deadwood(hand, discard=True) == plain.min_deadwood(hand, discard=True)
    assert new.best_discard(hand) == plain.best_discard(hand)
    assert new.solve_discard(hand) == plain.solve_discard(hand)


@pytest.mark.parametrize("index", range(len(RULES)))
@SETTINGS
@given(data=st.data())
def test_the_rank_classes_walk_as_the_rank_windows(index: int, data: Any) -> None:
    """Bigger hands than the general search takes quickly: against the card-by-card walk."""
    new, cards, _plain = solvers(index)
    hand = data.draw(hands(new.deck, 20))
    assert new.solve(hand, check_contract=False) == cards.solve(hand, check_contract=False)
    assert new.min_deadwood(hand) == cards.min_deadwood(hand)
    assert new.holds_contract(hand) == cards.holds_contract(hand)


def _ruled_out(index: int, hand: list[Any]) -> bool:
    """Whether the least-deadwood bound rules out the melded cards of ``RULES[index]``'s
    contract in ``hand``: 9 (three melds of 3) or 6 (two of 3 or more)."""
    windows = solvers(index)[0]._windows()
    assert windows and windows.rank_classes is not None
    classes = windows.rank_classes
    mask = sum(1 << c.id for c in hand)
    need = 9 if RULES[index][4] == 0 else 6
    return classes.cannot_meld([classes.key(part) for part in windows.parts(mask)], need)


@pytest.mark.parametrize("index", [i for i, r in enumerate(RULES) if r[1] == "not_all_same"])
@SETTINGS
@given(data=st.data())
def test_the_least_deadwood_bound_rules_out_only_hands_without_the_contract(index: int, data: Any) -> None:
    """The contract's melds hold 9 (three of 3) or 6 (two of 3 or more) cards: a hand the
    bound rules out has no such collection, by the general search."""
    new, _cards, plain = solvers(index)
    hand = data.draw(hands(new.deck, 12))
    if _ruled_out(index, hand):
        assert not plain.holds_contract(hand)


@pytest.mark.parametrize("index", [0, 2, 5])
def test_the_least_deadwood_bound_answers_most_hands_without_the_contract(index: int) -> None:
    """The bound is reached: on seeded 10-card hands it rules out most that fail."""
    new, _cards, plain = solvers(index)
    rng = random.Random(7 + index)
    naturals = [c for c in new.deck.cards if not c.wild]
    failing = ruled = 0
    for _ in range(80):
        hand = rng.sample(naturals, 10)
        held = plain.holds_contract(hand)
        out = _ruled_out(index, hand)
        assert not (held and out)
        failing += not held
        ruled += out
    assert failing and ruled * 2 > failing


@pytest.mark.parametrize("index", [0, 4, 5])
def test_one_solver_over_many_hands(index: int) -> None:
    """Memos kept over a run of hands, as a game asks them (keys must hold the cards' order)."""
    new, _cards, plain = solvers(index)
    rng = random.Random(22 + index)
    naturals = [c for c in new.deck.cards if not c.wild]
    for _ in range(60):
        hand = rng.sample(naturals, 11)
        assert new.solve(hand[:10]) == plain.solve(hand[:10])
        assert new.best_discard(hand) == plain.best_discard(hand)


@pytest.mark.parametrize("index", range(len(RULES)))
@SETTINGS
@given(data=st.data())
def test_the_judge_reads_kinds_as_the_patterns_do(index: int, data: Any) -> None:
    """A wild-free group's kinds (read by rank pattern and one suit under suit-blind
    kinds) are what the patterns say of it."""
    new, _cards, _plain = solvers(index)
    group = data.draw(hands(new.deck, 6))
    bits = new.kinds_bits(group)
    assert bits == sum(1 << i for i, name in enumerate(new.kind_names) if new.kinds[name](group))
    assert new.kinds_of(group) == frozenset(name for name in new.kind_names if new.kinds[name](group))


def test_a_contract_reading_kinds_is_not_blind() -> None:
    deck = Deck.from_spec({"preset": "standard52", "ace": "both"})
    env = Env(Context.CONTRACT, deck, meld_kinds=("set", "run"))
    assert blind_contract(compile_expression("count == 3 and all(size == 3)", env, BOOL))
    assert not blind_contract(compile_expression("count == 2 and all(kind == set)", env, BOOL))
    assert not blind_contract(len)


def test_the_shipped_skarney_takes_the_rank_classes() -> None:
    rules = MeldRules.from_variant(load_variant("skarney_gin"))
    windows = rules._windows()
    assert windows and windows.rank_classes is not None and windows.rank_classes.one_class
    assert blind_contract(rules.contract)
