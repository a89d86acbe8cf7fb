"""The draw step: the top card of the stock or of the discard pile (GR-5, SK-4.1, GS-5).

The stock is never drawn below ``stock.floor``; the draw that brings it down to
the floor makes this the round's final turn (GR-8, SK-9), except with
``at_floor: turn_over`` (BR-4): then, when a player is to draw from a stock at
its floor, the discard pile but its top card is turned over beneath it first,
and the round is void only when there is nothing to turn over (or it has been
turned over ``max_turn_overs`` times). A player who accepted
an offered card matching ``skip_after_accepting`` skips the draw (SK-7.3).
With ``at_floor: discard_only`` (R5-5) play goes on at the floor with draws from the
discard pile only, and the player to draw may pass instead, which ends the round (as
does an empty pile). With ``discard_depth: any`` a card deeper in the pile may be
named (:mod:`.deep`, R5-3). With
``buying`` (CR-4) a draw from the stock first lets the others buy the top discard
(:mod:`.buying`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ...variant.model import DrawStep
from ..actions import Action, Draw, Pass, player_name
from ..state import Phase
from . import buying  # (it imports this module: its BUY is read when a draw asks it)
from .base import Mechanic
from .deep import deep_draw_reason, deep_draws, deep_index
from .voiding import void_at_discard_draw

from ..fields import Field, card_json
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["DrawMechanic", "draw_sources", "discard_only_now", "draw_from_stock"]

FIELDS: tuple[Field, ...] = (
    Field("stock_only", lambda rnd: False, json=lambda rnd, text: rnd.stock_only),
    Field("skip_draw", lambda rnd: [False] * rnd.players, "list", json=lambda rnd, text: list(rnd.skip_draw)),
    Field("taken", lambda rnd: None, json=lambda rnd, text: card_json(rnd.taken, text), turn=True),
    Field("turn_overs", lambda rnd: 0, json=lambda rnd, text: rnd.turn_overs),
)
"""``stock_only``: the first draw after everyone passed the upcard is from the stock
(GR-4.4); ``skip_draw``: a seat's next draw is skipped (SK-7.3); ``taken``: the card
taken from the pile this turn (GR-5: not discarded this turn); ``turn_overs``: how many
times the pile has been turned over into a new stock (BR-4)."""



def discard_only_now(rnd: Round) -> bool:
    """Whether the stock is at its floor with ``at_floor: discard_only`` (R5-5): the
    player to draw may take from the discard pile or pass, ending the round."""
    stock = rnd.variant.stock
    return stock.at_floor == "discard_only" and len(rnd.stock) <= stock.floor


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
        step = rnd.variant.turn[rnd.step]
        sources = step.sources if isinstance(step, DrawStep) else ("stock",)
        if not ((len(rnd.stock) > stock.floor and "stock" in sources)
                or ("discard" in sources and rnd.discards and not rnd.stock_only)):  # draw_sources is empty
            rnd.end_at_floor()  # nothing can be drawn: the round ends at the floor
            return True
        rnd.phase = Phase.DRAW  # as Mechanic.enter
        rnd.to_move = player
        return True

    def legal(self, rnd: Round, player: int) -> list[Action]:
        # the piles of draw_sources, each draw a prebuilt object (:mod:`..prebuilt`)
        step = rnd.variant.turn[rnd.step]
        drawstep = isinstance(step, DrawStep)
        sources = step.sources if drawstep else ("stock",)  # type: ignore[union-attr]
        stock = rnd.variant.stock
        out: list[Action] = []
        if "stock" in sources and len(rnd.stock) > stock.floor:
            out.append(rnd.prebuilt.draw_stock[player])
        if "discard" in sources and rnd.discards and not rnd.stock_only:
            out.append(rnd.prebuilt.draw_discard[player])
            if drawstep and step.discard_depth == "any":  # type: ignore[union-attr]
                out.extend(deep_draws(rnd, player))
        if stock.at_floor == "discard_only" and discard_only_now(rnd):
            out.append(rnd.prebuilt.passes[player])
        return out

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, Pass) and discard_only_now(rnd):
            return None
        if not isinstance(action, Draw):
            return f"{player_name(action.player)} must draw first"
        if action.source in draw_sources(rnd):
            if action.card is not None:
                return deep_draw_reason(rnd, action)
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
        if isinstance(action, Pass):
            rnd.end_at_floor()  # R5-5: the stock is at its floor and the player takes no discard
            return
        if TYPE_CHECKING:
            assert isinstance(action, Draw)
        player = action.player
        if action.source == "stock":
            if rnd.variant.buying is not None:
                if buying.BUY.begin(rnd, player):  # CR-4: the others may buy the discard first
                    return
            draw_from_stock(rnd, player)
            return
        if rnd.variant.void.at_discard_draw is not None and void_at_discard_draw(rnd):
            return  # the round is void: this draw from the pile is not made (``void.at_discard_draw``)
        if action.card is not None and (index := deep_index(rnd, action.card)) is not None \
                and index < len(rnd.discards) - 1:
            rnd.take_deep(player, index)
        else:
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
    if len(rnd.stock) <= stock.floor and stock.at_floor not in ("turn_over", "discard_only"):
        rnd.final_turn = True
    rnd.stock_only = False
    rnd.next_step()

