"""The faces of a deck: :class:`Suit`, :class:`Rank` and :class:`Card`.

They are immutable; a :class:`~rummydsl.cards.Deck` makes them (a card's ``id`` is
its index in the deck, see :mod:`rummydsl.cards`).

>>> str(Card(0, Rank("A", "ace", 1), Suit("S", "spades", "black", 0), False, 0))
'AS'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Suit", "Rank", "Card", "AceOption", "ACE_OPTIONS", "WILD_TEXT"]

AceOption = Literal["low", "high", "both"]

#: The values of the deck's ``ace`` key.
ACE_OPTIONS: tuple[str, ...] = ("low", "high", "both")

#: How a wild card is written.
WILD_TEXT = "*"


@dataclass(frozen=True, slots=True)
class Suit:
    """One suit of a deck.

    >>> Suit("H", "hearts", "red", 1)
    Suit(symbol='H', name='hearts', colour='red', index=1)
    """

    symbol: str
    """One ASCII letter, as written in card notation (``H``)."""
    name: str
    """A word for messages and ``explain`` (``hearts``)."""
    colour: str
    """The colour, for patterns that compare colours (``red``)."""
    index: int
    """The position in the deck's suit order, from 0."""


@dataclass(frozen=True, slots=True)
class Rank:
    """One rank of a deck.

    >>> Rank("T", "ten", 10, ("10",))
    Rank(symbol='T', name='ten', order=10, aliases=('10',))
    """

    symbol: str
    """The primary spelling, used when formatting (``T``)."""
    name: str
    """A word for messages and ``explain`` (``ten``)."""
    order: int
    """The position from 1 (the lowest rank) up."""
    aliases: tuple[str, ...] = ()
    """Other spellings accepted when parsing (``10``)."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card: a natural card (rank and suit) or a wild card.

    ``str(card)`` is its notation. Cards of one deck are ordered (and hashed) by
    ``id``; compare faces across packs with :meth:`~rummydsl.cards.Deck.face_key`.

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.preset("standard52")
    >>> card = deck.parse_card("10h")
    >>> str(card), card.id, card.rank.name, card.suit.name, card.wild, card.copy
    ('TH', 22, 'ten', 'hearts', False, 0)
    >>> str(Deck.preset("rumski70").parse_card("*"))
    '*'
    """

    id: int
    """The index of the card in :attr:`Deck.cards <rummydsl.cards.Deck.cards>`."""
    rank: Rank | None
    """The rank; ``None`` for a wild card."""
    suit: Suit | None
    """The suit; ``None`` for a wild card."""
    wild: bool
    """Whether this is a wild card."""
    copy: int
    """Which pack the card comes from (from 0); for wild cards, which wild."""

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return WILD_TEXT
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card(id={self.id}, face={str(self)!r}, copy={self.copy})"

    def __hash__(self) -> int:
        return hash(self.id)
