"""The draw step: the top card of the stock or of the discard pile (GR-5, SK-4.1, GS-5).

The stock is never drawn below ``stock.floor``; the draw that brings it down to
the floor makes this the round's final turn (GR-8, SK-9), except with
``at_floor: turn_over`` (BR-4): then, when a player is to draw from a stock at
its floor, the discard pile but its top card is turned over beneath it first,
and the round is void only when there is nothing to turn over. A player who accepted
an offered card matching ``skip_after_accepting`` skips the draw (SK-7.3). With
``buying`` (CR-4) a draw from the stock first lets the others buy the top discard
(:mod:`.buying`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...variant.model import DrawStep
from ..actions import Action, Draw, player_name
from ..state import Phase
from .base import Mechanic

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["DrawMechanic", "draw_sources", "draw_from_stock"]


def draw_sources(rnd: Round) -> list[str]:
    """The piles the player may draw from now."""
    step = rnd.variant.turn[rnd.step]
    sources = step.sources if isinstance(step, DrawStep) else ("stock",)
    out = []
    if "stock" in sources and len(rnd.stock) > rnd.variant.stock.floor:
        out.append("stock")
    if "discard" in sources and rnd.discards and not rnd.stock_only:
        out.append("discard")
    return out


class DrawMechanic(Mechanic):
    phase = Phase.DRAW

    def enter(self, rnd: Round) -> bool:
        player = rnd.turn_player
        if rnd.skip_draw[player]:
            rnd.skip_draw[player] = False
            rnd.drawn = True
            return False
        stock = rnd.variant.stock
        if (stock.at_floor == "turn_over" and len(rnd.stock) <= stock.floor
                and not rnd.turn_over_discards()):
            rnd.end_at_floor()  # BR-4: nothing to turn over: the round is void
            return True
        if not draw_sources(rnd):
            rnd.end_at_floor()  # nothing can be drawn: the round ends at the floor
            return True
        return super().enter(rnd)

    def legal(self, rnd: Round, player: int) -> Iterable[Action]:
        return [Draw(player, "stock" if source == "stock" else "discard") for source in draw_sources(rnd)]

    def check(self, rnd: Round, action: Action) -> str | None:
        if not isinstance(action, Draw):
            return f"{player_name(action.player)} must draw first"
        if action.source in draw_sources(rnd):
            return None
        step = rnd.variant.turn[rnd.step]
        allowed = step.sources if isinstance(step, DrawStep) else ("stock",)
        if action.source not in allowed:
            return f"this variant draws only from the {' or '.join(allowed)}"
        if action.source == "stock":
            return f"the stock is at its floor of {rnd.variant.stock.floor} cards"
        if rnd.stock_only:
            return "after everyone passed the upcard, the first draw is from the stock"
        return "the discard pile is empty"

    def apply(self, rnd: Round, action: Action) -> None:
        assert isinstance(action, Draw)
        player = action.player
        if action.source == "stock":
            from . import BUY

            if BUY.begin(rnd, player):  # CR-4: the others may buy the discard first
                return
            draw_from_stock(rnd, player)
            return
        rnd.take_discard(player, new_turn=False)
        rnd.stock_only = False
        rnd.next_step()


def draw_from_stock(rnd: Round, player: int) -> None:
    """``player`` takes the top card of the stock, and the turn goes on to its next step;
    the draw that brings the stock to its floor makes this the final turn (GR-8)."""
    rnd.hands[player].append(rnd.stock.pop())
    rnd.taken = None
    rnd.drawn = True
    stock = rnd.variant.stock
    if len(rnd.stock) <= stock.floor and stock.at_floor != "turn_over":
        rnd.final_turn = True
    rnd.stock_only = False
    rnd.next_step()

