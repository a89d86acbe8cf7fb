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
loading the meld solver and ``import rummydsl`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Card": "rummydsl.cards",
    "Deck": "rummydsl.cards",
    "Rank": "rummydsl.cards",
    "Suit": "rummydsl.cards",
    "DeckError": "rummydsl.errors",
    "Location": "rummydsl.errors",
    "Diagnostic": "rummydsl.errors",
    "RummyDslError": "rummydsl.errors",
    "VariantError": "rummydsl.errors",
    "ExpressionError": "rummydsl.errors",
    "CardError": "rummydsl.errors",
    "MeldError": "rummydsl.errors",
    "ActionError": "rummydsl.errors",
    "MalformedActionError": "rummydsl.errors",
    "IllegalActionError": "rummydsl.errors",
    "AmbiguousActionError": "rummydsl.errors",
    "AgentError": "rummydsl.errors",
    "RecordError": "rummydsl.errors",
    "SuiteError": "rummydsl.errors",
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
    "explain": "rummydsl.explain",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rummydsl' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
