"""What a round's expressions read while it is played and when it is scored.

:class:`RoundFacts` answers the round context (the knock limit reads the upcard,
the dealer, the scores) and the score context (who ended the round, how, every
player's deadwood and contract) for :mod:`rummydsl.scoring`. Players are seats
(ints from 0), the same values the engine uses everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..cards import Card
from ..errors import ExpressionError
from ..limits import MAX_HAND

__all__ = ["RoundFacts"]


@dataclass
class RoundFacts:
    """A :class:`~rummydsl.expr.runtime.RoundView` over a round of the engine.

    >>> facts = RoundFacts(players=(0, 1, 2), dealer=0, ender=1, ending="knock",
    ...                    deadwoods=(26, 2, 48))
    >>> facts.opponents, facts.deadwood(2), facts.others(0)
    ((2, 0), 48, (1, 2))
    """

    players: tuple[int, ...]
    dealer: int
    round: int = 1
    hand_size: int = 10
    upcard: Card | None = None
    ender: int | None = None
    ending: str = ""
    deadwoods: tuple[int | None, ...] = ()
    """Each player's deadwood; None for a hand too large for the meld solver (after deep draws)."""
    hand_cards: tuple[int, ...] = ()
    """How many cards each player holds (for the message about a hand too large to solve)."""
    contracts: tuple[bool, ...] = ()
    hand_values: tuple[int, ...] = ()
    """Each player's hand value at the end (the score context's ``hand_value(p)``)."""
    melded: tuple[int, ...] = ()
    """Each player's ``melded_turns`` (BR-5)."""
    scores: tuple[int, ...] = ()
    card_value: Callable[[Card], int] = field(default=lambda card: 0)
    melded_of: Callable[[int], int] = field(default=lambda player: 0)
    """Works out ``melded(p)`` when a formula asks (the round's table, R5-6)."""

    @property
    def player_count(self) -> int:
        """How many players are dealt in."""
        return len(self.players)

    @property
    def opponents(self) -> tuple[int, ...]:
        """Every player but the ender, in seat order from the ender's left."""
        players = self.players
        if self.ender is None or self.ender not in players:
            return players
        at = players.index(self.ender)  # the players may skip a seat sitting out (G3-1)
        return players[at + 1:] + players[:at]

    def others(self, player: int) -> tuple[int, ...]:
        """Every player but ``player``, in seat order."""
        return tuple(q for q in self.players if q != player)

    def value(self, card: Card) -> int:
        """The deadwood value of ``card``."""
        return self.card_value(card)

    def score(self, player: int) -> int:
        """``player``'s game total before this round."""
        return self.scores[player] if self.scores else 0

    def deadwood(self, player: int) -> int:
        """``player``'s deadwood at the end of the round (after lay-offs).

        :raises ExpressionError: rule ``hand-too-large``, for a hand larger than the meld
            solver takes (the scoring names the formula that asked).
        """
        found = self.deadwoods[player]
        if found is None:
            held = self.hand_cards[player] if self.hand_cards else "too many"
            raise ExpressionError(f"deadwood(P{player + 1}): P{player + 1} holds {held} cards, more than "
                                  f"the meld solver takes ({MAX_HAND}), so their deadwood is not known",
                                  0, 0, "hand-too-large")
        return found

    def met_contract(self, player: int) -> bool:
        """Whether ``player`` met the contract this round (true without a contract)."""
        return self.contracts[player] if self.contracts else True

    def hand_value(self, player: int) -> int:
        """``player``'s hand value at the end: every card held, melds still held included."""
        return self.hand_values[player]

    def melded_turns(self, player: int) -> int:
        """In how many of ``player``'s turns they put at least one card on the table."""
        return self.melded[player] if self.melded else 0

    def melded_points(self, player: int) -> int:
        """The total melded value of the table cards credited to ``player`` (R5-4, R5-6)."""
        return self.melded_of(player)
