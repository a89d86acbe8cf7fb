"""A variant's meld solver, bound to a round: :func:`meld_rules`.

The engine asks for the solver of its variant in every round, and a contract by deal
(CR-2: ``round == 1 ? ... : ...``) reads the round, so the solver of such a variant is
bound to the round's facts (:class:`~rummydsl.melds.contract.BoundContract`). Both are
built once per variant object (and values of the round names read) and the last few
kept. The engine re-exports :func:`meld_rules` from :mod:`rummydsl.engine.round`.

>>> from rummydsl.variant import load_variant
>>> gin = load_variant("gin_rummy")
>>> meld_rules(gin) is meld_rules(gin)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..expr.check import CONTRACT_ROUND_NAMES
from ..expr.runtime import RoundFacts
from .contract import BoundContract, first_deal_facts
from .rules import MeldRules

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["meld_rules"]

_KEPT = 32
"""How many variants' solvers are kept (a run of mutants or house rules must not hold
every solver it ever built)."""
_RULES: dict[int, tuple[Any, MeldRules]] = {}
"""The solver of each variant, by the variant object's id."""
_BOUND: dict[tuple[Any, ...], tuple[Any, MeldRules]] = {}
"""The solvers of contracts by deal (CR-2), by variant and the values of the round names read."""


def meld_rules(variant: Variant, facts: RoundFacts | None = None) -> MeldRules:
    """The meld solver of a variant, built once per variant object (the last few kept:
    a run of mutants or house rules must not hold every solver it ever built).

    A contract that reads the round (``round == 1 ? ...``, CR-2) is judged in the
    round ``facts`` describe (without them: the first deal, dealt by P1); such a
    solver is made once per variant and values of the round names the contract
    reads, sharing the variant's tables (:meth:`MeldRules.with_contract`).
    """
    got = _RULES.get(id(variant))
    if got is None or got[0] is not variant:
        got = (variant, MeldRules.from_variant(variant))
        if len(_RULES) >= _KEPT:
            _RULES.pop(next(iter(_RULES)))
        _RULES[id(variant)] = got
    rules = got[1]
    contract = variant.contract
    reads = (frozenset(getattr(contract.melds, "names", ())) & CONTRACT_ROUND_NAMES
             if contract is not None else frozenset())
    if not reads:
        return rules
    assert contract is not None
    if facts is None:
        facts = first_deal_facts(variant)
    key = (id(variant), *_read_values(facts, reads))
    bound = _BOUND.get(key)
    if bound is None or bound[0] is not variant:
        bound = (variant, rules.with_contract(BoundContract(contract.melds, facts)))
        if len(_BOUND) >= _KEPT * 8:
            _BOUND.pop(next(iter(_BOUND)))
        _BOUND[key] = bound
    return bound[1]


def _read_values(facts: RoundFacts, names: frozenset[str]) -> tuple[Any, ...]:
    """The values of the round names a contract reads, as a cache key."""
    out: list[Any] = []
    for name in sorted(names):
        if name == "score":
            out.append(tuple(facts.scores))
        elif name == "players":
            out.append(len(facts.players))
        elif name == "upcard":
            out.append(None if facts.upcard is None else facts.upcard.id)
        elif name != "value":
            out.append(getattr(facts, name))
    return tuple(out)
