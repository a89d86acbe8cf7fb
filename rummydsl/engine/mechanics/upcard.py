"""The first-turn upcard offer (GR-4, GS-4).

From the dealer's left round to the dealer, each player may take the upcard
(``draw discard``) or pass. The first to take it discards another card (or
knocks, GR-4.5): that was their turn, and play goes on from their left
(GS-4.2). If everyone passes, the player on the dealer's left plays the first
normal turn, drawing from the stock only when ``after_all_pass: stock_only``
(GR-4.4, GS-4.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..actions import Action, Draw, Pass
from ..state import Phase
from .base import QueueMechanic

from ..fields import Field, seats
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["UpcardOffer"]

FIELDS: tuple[Field, ...] = (
    Field("upcard_queue", lambda rnd: [], "list", json=lambda rnd, text: seats(rnd.upcard_queue)),
)
"""``upcard_queue``: who may still take the upcard, in order (GR-4)."""



class UpcardOffer(QueueMechanic):
    phase = Phase.UPCARD
    queue = "upcard_queue"

    def begin(self, rnd: Round) -> bool:
        """Open the upcard round if the variant has one and an upcard was dealt."""
        if rnd.variant.upcard_offer is None or rnd.upcard is None:
            return False
        n = rnd.players
        return self.open(rnd, [q for q in ((rnd.dealer + k) % n for k in range(1, n + 1)) if q != rnd.sat_out])

    def legal(self, rnd: Round, player: int) -> Iterator[Action]:
        yield rnd.prebuilt.draw_discard[player]
        yield rnd.prebuilt.passes[player]

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, Pass) or (isinstance(action, Draw) and action.source == "discard"):
            return None
        return "in the upcard round a player takes the upcard ('draw discard') or passes"

    def apply(self, rnd: Round, action: Action) -> None:
        player = action.player
        taken = isinstance(action, Draw)
        if self.answered(rnd, taken=taken):
            return
        if taken:
            rnd.take_discard(player, new_turn=True)
            draw_at = next((i for i, s in enumerate(rnd.variant.turn) if s.name == "draw"), -1)
            rnd.enter_step(draw_at + 1)
            return
        offer = rnd.variant.upcard_offer
        rnd.stock_only = offer is not None and offer.after_all_pass == "stock_only"
        rnd.start_turn(rnd.next_seat(rnd.dealer))
