"""The stock running low (GR-8, SK-9, GS-6.5).

The stock is never drawn below ``stock.floor``. The turn whose draw brings it
there is the final turn: the steps in ``final_turn_skip`` are left out (SK-9.3),
and when it ends without the round ending otherwise, the round ends at the
floor: ``void`` (no score) or ``stock_end`` (scored by the ``stock_end`` cases).
With ``last_discard_claim`` (GR-8), after a final discard each other player in
turn may claim that card, only to knock or go gin with it at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..actions import Action, Draw, Pass
from ..state import Phase
from .base import QueueMechanic
from .discard import taken_card_forbidden
from .knock import shown_melds, within_limit

from ..fields import Field, seats
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["ClaimMechanic", "can_claim"]

FIELDS: tuple[Field, ...] = (
    Field("claim_queue", lambda rnd: [], "list", json=lambda rnd, text: seats(rnd.claim_queue)),
    Field("must_knock", lambda rnd: False, json=lambda rnd, text: rnd.must_knock, turn=True),
)
"""``claim_queue``: who may still claim the last discard, in order; ``must_knock``: a
claimed discard must be used to knock at once (GR-8)."""



def can_claim(rnd: Round, player: int) -> bool:
    """Whether the top discard would let ``player`` knock at once."""
    card = rnd.discards[-1]
    hand = [*rnd.hands[player], card]
    forbidden = taken_card_forbidden(rnd)
    for out in hand:
        if forbidden and out is card:
            continue
        kept = [c for c in hand if c is not out]
        if within_limit(rnd, shown_melds(rnd, player, kept, None)[1]):
            return True
    return False


class ClaimMechanic(QueueMechanic):
    phase = Phase.CLAIM
    queue = "claim_queue"

    def begin(self, rnd: Round, discarder: int) -> bool:
        """Open the claim after ``discarder``'s final discard, where the variant has it."""
        if not rnd.variant.stock.last_discard_claim or rnd.variant.knock is None:
            return False
        return self.open(rnd, rnd.seats_after(discarder))

    def legal(self, rnd: Round, player: int) -> Iterator[Action]:
        if can_claim(rnd, player):
            yield rnd.prebuilt.draw_discard[player]
        yield rnd.prebuilt.passes[player]

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, Pass):
            return None
        if isinstance(action, Draw) and action.source == "discard":
            if not can_claim(rnd, action.player):
                return "the last discard may be claimed only to knock or go gin at once (GR-8)"
            return None
        return "after the final discard a player claims it ('draw discard') or passes"

    def apply(self, rnd: Round, action: Action) -> None:
        player = action.player
        taken = isinstance(action, Draw)
        if self.answered(rnd, taken=taken):
            return
        if taken:
            rnd.take_discard(player, new_turn=True)
            rnd.must_knock = True
            rnd.phase = Phase.DISCARD
            rnd.to_move = player
            return
        rnd.end_at_floor()
