"""What the meld solver and the semantic checks read from patterns and contracts:
necessary conditions only, from top-level ``and``s; anything else says nothing."""

from __future__ import annotations

import pytest

from rummydsl.cards import Deck
from rummydsl.expr import BOOL, ContractFacts, Context, Env, PatternFacts, compile_expression

DECK = Deck.preset("rumski70")
OPTIONS = {"set_max": 5, "min_naturals": 1, "strict": True}


@pytest.mark.parametrize("pattern,facts", [
    ("size in 3..4 and same(rank)", PatternFacts(3, 4, same_rank=True)),                     # GR-3.1
    ("size >= 3 and same(suit) and consecutive(rank)", PatternFacts(3, None, same_suit=True,
                                                                    consecutive=True)),      # GR-3.2
    ("size >= 3 and consecutive(rank) and not same(suit)", PatternFacts(3, None, consecutive=True)),  # SK-3.3
    ("size >= 3 and size <= set_max and same(rank) and distinct(suit)", PatternFacts(3, 5, same_rank=True)),
    ("size > 2 and size < 6", PatternFacts(3, 5)),
    ("size == 3", PatternFacts(3, 3)),
    ("3 <= size", PatternFacts()),                        # only 'size OP bound' is read
    ("same(rank) or same(suit)", PatternFacts()),         # an 'or' guarantees neither
    ("not same(rank)", PatternFacts()),
    ("strict ? same(rank) : same(suit)", PatternFacts()),
    ("size >= min_naturals and (same(rank) and size <= 4)", PatternFacts(1, 4, same_rank=True)),
])
def test_pattern_facts(pattern: str, facts: PatternFacts) -> None:
    compiled = compile_expression(pattern, Env(Context.MELD, DECK, options=OPTIONS), BOOL)
    assert compiled.facts == facts


@pytest.mark.parametrize("contract,facts", [
    ("count == 3 and all(size == 3)", ContractFacts(3, 3, 3, 3)),   # SK-5.2: 3 melds of 3 cards
    ("count >= 2 and all(size >= 4) and all(size <= 6)", ContractFacts(2, None, 4, 6)),
    ("count == 2 and any(size == 4)", ContractFacts(2, 2)),   # any(...) says nothing of every meld
    ("count in 2..3", ContractFacts(2, 3)),
    ("cards >= 6", ContractFacts()),
    ("count >= 2 or cards == 9", ContractFacts()),
    # CR-2, a contract by deal: what both branches say
    ("round == 1 ? count == 2 and all(size >= 3) : count == 3 and all(size >= 4)", ContractFacts(2, 3, 3)),
    ("round == 1 ? count == 2 : cards >= 6", ContractFacts(1, None)),
    ("round <= 4 ? count == 2 : round == 5 ? count == 3 : count == 3 and all(size <= 5)", ContractFacts(2, 3)),
])
def test_contract_facts(contract: str, facts: ContractFacts) -> None:
    compiled = compile_expression(contract, Env(Context.CONTRACT, DECK, meld_kinds=("run", "set")), BOOL)
    assert compiled.facts == facts


def test_other_contexts_have_no_facts() -> None:
    assert compile_expression("order", Env(Context.CARD, DECK), "int").facts is None


def test_contract_reading_the_round_needs_a_round() -> None:
    """A contract by deal (CR-2) is judged against a round view; without one it says so."""
    from rummydsl.errors import ExpressionError
    from rummydsl.expr import SimpleRoundView

    compiled = compile_expression("round == 1 ? count == 2 and all(kind == set) : count == 2 and all(kind == run)",
                                  Env(Context.CONTRACT, DECK, meld_kinds=("run", "set")), BOOL)
    melds = [("set", ()), ("set", ())]
    assert compiled(melds, SimpleRoundView(round=1)) and not compiled(melds, SimpleRoundView(round=2))
    with pytest.raises(ExpressionError, match="reads the round"):
        compiled(melds)
