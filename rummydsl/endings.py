"""How a round ends: the :class:`Ending` names, shared by expressions and the engine.

A round ends when a player goes gin, big gin or out, knocks, or when the stock
reaches its floor (GR-8). The scored endings are also boolean names of the score
context (``gin``, ``knock`` ... are true when the round ended that way); a void
round scores nothing and is not one of them.

This module imports nothing of rummydsl, so both :mod:`rummydsl.expr` and the game
engine can use it.

>>> Ending.KNOCK == "knock", Ending("big_gin") is Ending.BIG_GIN
(True, True)
>>> [ending.value for ending in SCORED_ENDINGS]
['gin', 'big_gin', 'knock', 'out', 'stock_end']
>>> Ending.VOID.scored
False
"""

from __future__ import annotations

import enum

__all__ = ["Ending", "SCORED_ENDINGS", "SCORED_ENDING_NAMES"]


class Ending(str, enum.Enum):
    """How a round ended. A ``str``, so ``Ending.GIN == "gin"``."""

    GIN = "gin"
    """A knock with no deadwood (GR-6.2, GS-6.2)."""
    BIG_GIN = "big_gin"
    """All 11 cards melded before discarding; no discard (GR-6.3, GS-6.3)."""
    KNOCK = "knock"
    """A knock with deadwood within the limit (GR-6.1, GS-6.1)."""
    OUT = "out"
    """The hand emptied by melding (SK-8)."""
    STOCK_END = "stock_end"
    """The stock reached its floor and the round is scored (``stock.at_floor: stock_end``, SK-9)."""
    VOID = "void"
    """The stock reached its floor and nobody scores (GR-8, GS-6.5); not a score-context name."""

    @property
    def scored(self) -> bool:
        """Whether a round that ends so is scored (every ending but :attr:`VOID`)."""
        return self is not Ending.VOID

    def __str__(self) -> str:
        return self.value


SCORED_ENDINGS: tuple[Ending, ...] = tuple(ending for ending in Ending if ending.scored)
"""The endings a round is scored after: each is a boolean name in the score context."""

SCORED_ENDING_NAMES: tuple[str, ...] = tuple(ending.value for ending in SCORED_ENDINGS)
"""The names of :data:`SCORED_ENDINGS` (``"gin"``, ``"big_gin"`` ...), as the checker uses them."""
