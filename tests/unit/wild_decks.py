"""Solvers for the wild-card meld tests: shipped variants by id, and two built decks
(Skarney-like rules with four wild cards, two packs with four wild cards) that no
shipped variant has. Shared by test_melds_wildwindows.py and test_melds_part_search.py."""

from __future__ import annotations

from functools import lru_cache

from rummydsl.cards import Deck
from rummydsl.expr import BOOL, INT, Context, Env, compile_expression
from rummydsl.melds import MeldRules
from rummydsl.variant import load_variant

BUILT = {
    "skarney_wild": ({"preset": "standard52", "ace": "both", "wilds": 4}, {
        "set": "size in 3..4 and naturals >= 1 and same(rank)",
        "run": "size >= 3 and naturals >= 1 and same(suit) and consecutive(rank)",
        "poker": "size >= 3 and naturals >= 1 and consecutive(rank) and not same(suit)"}),
    "two_packs_wild": ({"preset": "standard52", "packs": 2, "wilds": 4}, {
        "set": "size >= 3 and same(rank)",
        "run": "size >= 4 and same(suit) and consecutive(rank)"}),
}


@lru_cache(maxsize=None)
def solver(name: str) -> MeldRules:
    """The solver of a shipped variant, or of a deck of :data:`BUILT` (a wild card worth
    20, a natural its order up to 10)."""
    if name not in BUILT:
        return MeldRules.from_variant(load_variant(name))
    spec, melds = BUILT[name]
    deck = Deck.from_spec(spec)
    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    value = compile_expression("wild ? 20 : min(order, 10)", Env(Context.CARD, deck), INT)
    return MeldRules(deck, kinds, value)
