"""The actions a listing gives most often, built once per deck and player count.

A round lists its legal actions at every decision (:meth:`Round.listed
<rummydsl.engine.round.Round.listed>`): a discard step lists a discard per card in hand,
a draw step a draw per pile. Actions are immutable values, so the listing hands out the
same objects every time instead of building new ones: :class:`Prebuilt` holds, for each
seat, the discard, the knock and the offer of every card of the deck (by card id), the
draws, the pass, the done, and the answers to an offer (take, decline). A catalogue of ids numbers them once
(:class:`~rummydsl.engine.catalogue.ActionSpace`), so a listing's ids are read from a
table rather than worked out action by action.

Nothing here knows a rule: which of these actions is legal is the mechanics' business.

>>> from rummydsl.cards import Deck
>>> deck = Deck.preset("standard52")
>>> kit = Prebuilt.of(deck, 2)
>>> kit.discard[1][deck.parse_card("7H").id]
Discard('P2 discard 7H')
>>> kit is Prebuilt.of(deck, 2), kit.draw_stock[0], kit.knock[0][0]
(True, Draw('P1 draw stock'), Knock('P1 knock AS'))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, Decline, Discard, Done, Draw, Knock, Offer, Pass, Take

if TYPE_CHECKING:
    from ..cards import Deck

__all__ = ["Prebuilt"]

_KEPT = 32
_TABLES: dict[tuple[int, int], Prebuilt] = {}
"""The tables built so far, by deck object and player count (each holds its deck, so the
deck's id is not reused while it is here)."""


class Prebuilt:
    """The common actions of one deck at one player count, built once (see the module)."""

    __slots__ = ("deck", "players", "discard", "knock", "big_gin", "draw_stock", "draw_discard", "passes",
                 "done", "offer", "take", "decline")

    def __init__(self, deck: Deck, players: int) -> None:
        cards = deck.cards
        seats = range(players)
        self.deck = deck
        self.players = players
        self.discard: tuple[tuple[Discard, ...], ...] = tuple(tuple(Discard(p, c) for c in cards) for p in seats)
        """``discard[seat][card id]``: that seat discarding that card."""
        self.knock: tuple[tuple[Knock, ...], ...] = tuple(tuple(Knock(p, c) for c in cards) for p in seats)
        """``knock[seat][card id]``: that seat knocking with that card as its discard."""
        self.big_gin: tuple[Knock, ...] = tuple(Knock(p, None) for p in seats)
        """A knock without a discard (big gin), by seat."""
        self.draw_stock: tuple[Draw, ...] = tuple(Draw(p, "stock") for p in seats)
        self.draw_discard: tuple[Draw, ...] = tuple(Draw(p, "discard") for p in seats)
        self.passes: tuple[Pass, ...] = tuple(Pass(p) for p in seats)
        self.done: tuple[Done, ...] = tuple(Done(p) for p in seats)
        self.offer: tuple[tuple[Offer, ...], ...] = tuple(tuple(Offer(p, c) for c in cards) for p in seats)
        """``offer[seat][card id]``: that seat offering that card to the next (SK-7)."""
        self.take: tuple[Take, ...] = tuple(Take(p) for p in seats)
        self.decline: tuple[Decline, ...] = tuple(Decline(p) for p in seats)

    @classmethod
    def of(cls, deck: Deck, players: int) -> Prebuilt:
        """The table of ``deck`` at ``players`` seats, built once for each deck object."""
        key = (id(deck), players)
        table = _TABLES.get(key)
        if table is None or table.deck is not deck:
            table = cls(deck, players)
            if len(_TABLES) >= _KEPT:
                _TABLES.pop(next(iter(_TABLES)))
            _TABLES[key] = table
        return table

    def every(self) -> list[Action]:
        """Every action of the table, once."""
        out: list[Action] = []
        for seat in range(self.players):
            out.extend(self.discard[seat])
            out.extend(self.knock[seat])
            out.extend(self.offer[seat])
            out.extend((self.big_gin[seat], self.draw_stock[seat], self.draw_discard[seat], self.passes[seat],
                        self.done[seat], self.take[seat], self.decline[seat]))
        return out
