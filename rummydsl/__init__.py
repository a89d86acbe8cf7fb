"""rummydsl: a rules language for rummy card games.

Write a variant as YAML, check it, explain it, and solve hands under its melds:

>>> import rummydsl
>>> gin = rummydsl.load_variant("gin_rummy")
>>> gin.name, gin.deal.hand_size
('Gin Rummy', 10)
>>> rules = rummydsl.MeldRules.from_variant(gin)
>>> rules.solve(gin.deck.parse_cards("5H 6H 7H 9C 9D 9S KC")).deadwood
10

The names below are imported on first use, so ``rummydsl check`` starts without
loading the meld solver and ``import rummydsl`` stays cheap. A type checker reads
the same names from the ``TYPE_CHECKING`` imports, so ``rummydsl.load_variant``
has its real signature there, not ``Any``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummydsl.cards import Card, Deck, Rank, Suit
    from rummydsl.endings import Ending
    from rummydsl.engine.match import CHANCE, TERMINAL, Match
    from rummydsl.errors import (
        ActionError,
        AgentError,
        AmbiguousActionError,
        BackendError,
        CardError,
        DeckError,
        Diagnostic,
        ExpressionError,
        FormulaError,
        IllegalActionError,
        Location,
        MalformedActionError,
        MeldError,
        RecordError,
        RummyDslError,
        StalledGameError,
        StalledRoundError,
        SuiteError,
        VariantError,
    )
    from rummydsl.explainer import explain
    from rummydsl.expr import compile_expression
    from rummydsl.melds import Arrangement, MeldRules, melds_report
    from rummydsl.scoring import final_figures, score_round
    from rummydsl.variant import Variant, check_file, load_variant, shipped_variant_ids

__version__ = "0.1.0"

_EXPORTS = {
    "Card": "rummydsl.cards",
    "Deck": "rummydsl.cards",
    "Rank": "rummydsl.cards",
    "Suit": "rummydsl.cards",
    "Ending": "rummydsl.endings",
    "Match": "rummydsl.engine.match",
    "CHANCE": "rummydsl.engine.match",
    "TERMINAL": "rummydsl.engine.match",
    "DeckError": "rummydsl.errors",
    "Location": "rummydsl.errors",
    "Diagnostic": "rummydsl.errors",
    "RummyDslError": "rummydsl.errors",
    "VariantError": "rummydsl.errors",
    "ExpressionError": "rummydsl.errors",
    "FormulaError": "rummydsl.errors",
    "CardError": "rummydsl.errors",
    "MeldError": "rummydsl.errors",
    "ActionError": "rummydsl.errors",
    "MalformedActionError": "rummydsl.errors",
    "IllegalActionError": "rummydsl.errors",
    "AmbiguousActionError": "rummydsl.errors",
    "AgentError": "rummydsl.errors",
    "RecordError": "rummydsl.errors",
    "SuiteError": "rummydsl.errors",
    "StalledRoundError": "rummydsl.errors",
    "StalledGameError": "rummydsl.errors",
    "BackendError": "rummydsl.errors",
    "Variant": "rummydsl.variant",
    "load_variant": "rummydsl.variant",
    "check_file": "rummydsl.variant",
    "shipped_variant_ids": "rummydsl.variant",
    "compile_expression": "rummydsl.expr",
    "MeldRules": "rummydsl.melds",
    "Arrangement": "rummydsl.melds",
    "melds_report": "rummydsl.melds",
    "score_round": "rummydsl.scoring",
    "final_figures": "rummydsl.scoring",
    "explain": "rummydsl.explainer",
}
"""Each public name and the module it is imported from on first use (kept equal to
the ``TYPE_CHECKING`` imports above and to ``__all__`` by tests/unit/test_api.py)."""

__all__ = [
    "__version__",
    "Card",
    "Deck",
    "Rank",
    "Suit",
    "Ending",
    "Match",
    "CHANCE",
    "TERMINAL",
    "DeckError",
    "Location",
    "Diagnostic",
    "RummyDslError",
    "VariantError",
    "ExpressionError",
    "FormulaError",
    "CardError",
    "MeldError",
    "ActionError",
    "MalformedActionError",
    "IllegalActionError",
    "AmbiguousActionError",
    "AgentError",
    "RecordError",
    "SuiteError",
    "StalledRoundError",
    "StalledGameError",
    "BackendError",
    "Variant",
    "load_variant",
    "check_file",
    "shipped_variant_ids",
    "compile_expression",
    "MeldRules",
    "Arrangement",
    "melds_report",
    "score_round",
    "final_figures",
    "explain",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rummydsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
