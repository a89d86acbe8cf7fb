"""Buying the top discard out of turn (CR-4): ``buying: {per_deal, penalty_cards}``.

When the player to move draws from the stock rather than taking the top discard,
the round stops before that stock card is taken (the buy phase): each other
player in turn order from the mover's left who has bought fewer than
``per_deal`` times this deal says ``buy`` or ``pass``. The first to buy takes the
discard (face up, seen by all) and ``penalty_cards`` from the top of the stock
(face down); nobody after them is asked. Then the mover's draw goes on: they
take the top card of the stock as it is now (after any penalty cards).

Near the stock floor nobody may buy: a buy is offered only while the stock
holds more than ``stock.floor + penalty_cards + 1`` cards, so the penalty cards
and the mover's own card both come off the stock above its floor. A buy takes
no turn: the buyer's turn comes in its order as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..actions import Action, Buy, Pass, player_name
from ..state import Phase
from .base import QueueMechanic
from .draw import draw_from_stock

from ..fields import Field, seat_map, seats
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["BuyMechanic", "BUY", "buy_limit", "may_buy"]

FIELDS: tuple[Field, ...] = (
    Field("buy_queue", lambda rnd: [], "list", json=lambda rnd, text: seats(rnd.buy_queue)),
    Field("bought", lambda rnd: [0] * rnd.players, "list", json=lambda rnd, text: seat_map(rnd.bought)),
    Field("buy_limit", lambda rnd: buy_limit(rnd), json=lambda rnd, text: rnd.buy_limit),
)
"""``buy_queue``: who may still buy the top discard, in order; ``bought``: how many times
each seat bought this deal; ``buy_limit``: the buys each may make this deal
(``buying.per_deal``, CR-4; 0 without buying)."""



def buy_limit(rnd: Round) -> int:
    """How many buys each player may make this deal (``buying.per_deal`` in this round; 0 without buying)."""
    buying = rnd.variant.buying
    if buying is None:
        return 0
    return max(0, int(buying.per_deal(rnd.facts())))


def may_buy(rnd: Round, player: int) -> bool:
    """Whether ``player`` has buys left this deal."""
    return rnd.bought[player] < rnd.buy_limit


def _stock_allows(rnd: Round) -> bool:
    """Whether the stock can give the penalty cards and the mover's card above its floor."""
    buying = rnd.variant.buying
    assert buying is not None
    return len(rnd.stock) > rnd.variant.stock.floor + buying.penalty_cards + 1


class BuyMechanic(QueueMechanic):
    phase = Phase.BUY
    queue = "buy_queue"
    forget_rest = True

    def begin(self, rnd: Round, mover: int) -> bool:
        """Open the buy phase as ``mover`` draws from the stock, where anyone may buy; False if nobody may."""
        if rnd.variant.buying is None or not rnd.discards or not _stock_allows(rnd):
            return False
        n = rnd.players
        return self.open(rnd, [(mover + k) % n for k in range(1, n) if may_buy(rnd, (mover + k) % n)])

    def legal(self, rnd: Round, player: int) -> Iterator[Action]:
        yield Buy(player)
        yield rnd.prebuilt.passes[player]

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, (Buy, Pass)):
            return None
        card = rnd.discards[-1] if rnd.discards else None
        return (f"{player_name(action.player)} may buy the discard {card} ('buy') or pass; "
                f"{player_name(rnd.turn_player)} draws from the stock after")

    def apply(self, rnd: Round, action: Action) -> None:
        player = action.player
        bought = isinstance(action, Buy)
        if self.answered(rnd, taken=bought):
            return
        if bought:
            buying = rnd.variant.buying
            assert buying is not None
            card = rnd.discards.pop()
            rnd.hands[player].append(card)
            rnd.known[player].append(card)
            for _ in range(buying.penalty_cards):
                rnd.hands[player].append(rnd.stock.pop())
            rnd.bought[player] += 1
        rnd.phase = Phase.DRAW
        rnd.to_move = rnd.turn_player
        draw_from_stock(rnd, rnd.turn_player)


BUY = BuyMechanic()
"""The buy phase's mechanic (the one :data:`~rummydsl.engine.mechanics.BY_PHASE` holds)."""
