"""The whole table as text, every hand face up: what an environment's ``render()`` shows.

A render is for the person watching a learning run, not for a seat, so it shows every
hand (as PettingZoo's classic card games do); a seat's own view is its observation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..cards import Card
from ..engine.actions import player_name
from ..engine.match_state import CHANCE, TERMINAL

if TYPE_CHECKING:
    from ..engine.match import Match

__all__ = ["table_text"]


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards) or "-"


def table_text(match: Match) -> str:
    """The table of ``match`` as lines of text.

    >>> import rummydsl
    >>> print(table_text(rummydsl.Match.new("gin_rummy", seed=1)).splitlines()[0])
    gin_rummy round 1, P2 to move (phase upcard), scores P1 0 P2 0
    """
    rnd = match.round
    to_move = match.to_move
    who = {CHANCE: "chance", TERMINAL: "nobody"}.get(to_move) or player_name(to_move)
    scores = " ".join(f"{player_name(p)} {v}" for p, v in enumerate(match.game.scores))
    lines = [f"{match.variant.id} round {rnd.number}, {who} to move (phase {rnd.phase.value}), scores {scores}"]
    top = rnd.discards[-1] if rnd.discards else None
    lines.append(f"stock {len(rnd.stock)} cards, discard pile {len(rnd.discards)} cards, top {top or '-'}")
    for p in range(match.players):
        hand = sorted(rnd.hands[p], key=lambda c: c.id)
        note = " (sits out)" if p == rnd.sat_out else ""
        lines.append(f"{player_name(p)}{note}: {_cards(hand)}")
        for meld in rnd.table[p]:
            lines.append(f"  table {meld.kind}: {_cards(meld.cards)}")
    if rnd.result is not None:
        lines.append(f"round over: {rnd.result.ending.value}, points {list(rnd.result.points)}")
    return "\n".join(lines)
