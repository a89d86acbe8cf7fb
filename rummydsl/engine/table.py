"""The physical table of a round: hands, stock, discard pile, table melds, known cards.

:class:`Table` is the part of :class:`~.round.Round` that moves cards: finding the copy
a hand holds, taking it out (and out of what the table knows of the hand), drawing from
the pile, turning the pile over. ``FIELDS`` declares its state (:mod:`.fields`).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..cards import Card
from .actions import player_name
from .fields import Field, card_json, cards_json
from .roundstate import RoundState

__all__ = ["Table", "FIELDS", "face_bits"]

FIELDS: tuple[Field, ...] = (
    Field("hands", lambda rnd: [list(hand) for hand in rnd.dealt[0]], "lists", cards=True,
          json=lambda rnd, text: {player_name(p): cards_json(h, text) for p, h in enumerate(rnd.hands)}),
    Field("stock", lambda rnd: list(reversed(rnd.dealt[1])), "list", cards=True,  # the top card is last
          json=lambda rnd, text: cards_json(rnd.stock[::-1], text)),
    Field("discards", lambda rnd: [] if rnd.dealt[2] is None else [rnd.dealt[2]], "list", cards=True,
          json=lambda rnd, text: cards_json(rnd.discards, text)),
    Field("upcard", lambda rnd: rnd.dealt[2], json=lambda rnd, text: card_json(rnd.upcard, text)),
    Field("table", lambda rnd: [[] for _ in range(rnd.players)], "melds",
          json=lambda rnd, text: {player_name(p): [m.as_json(text) for m in melds]
                                  for p, melds in enumerate(rnd.table)}),
    Field("known", lambda rnd: [[] for _ in range(rnd.players)], "lists",
          json=lambda rnd, text: {player_name(p): cards_json(k, text) for p, k in enumerate(rnd.known)}),
)
"""``hands``; ``stock`` (top card last); ``discards`` (top card last); the dealt
``upcard``; each seat's ``table`` melds; ``known``: the cards of each hand every player
has seen (taken from the pile, offered)."""


_FACE_BITS: dict[int, tuple[object, tuple[int, ...]]] = {}


def face_bits(deck: Any) -> tuple[int, ...]:
    """A bit for each of the deck's cards' faces (``1 << deck.face_key(card)``), by card
    id, kept per deck: the lay-off and discard listings ask it of every hand card."""
    got = _FACE_BITS.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_FACE_BITS) >= 16:
            _FACE_BITS.pop(next(iter(_FACE_BITS)))
        bits = [0] * (max((card.id for card in deck.cards), default=-1) + 1)
        for card in deck.cards:
            bits[card.id] = 1 << deck.face_key(card)
        got = _FACE_BITS[id(deck)] = (deck, tuple(bits))
    return got[1]


class Table(RoundState):
    """The card operations of a round (its state: ``FIELDS``)."""

    def value(self, cards: Sequence[Card]) -> int:
        """The total deadwood value of some cards."""
        values = self.values
        return sum(values[c.id] for c in cards)

    def holds(self, player: int, card: Card, barred: Card | None = None) -> Card | None:
        """The card of ``player``'s hand with ``card``'s face (the copy held), or None.

        A copy other than ``barred`` (a card the rules keep in hand now, such as
        the one just taken from the pile) when the hand has one: copies of a face
        are interchangeable.
        """
        hand = self.hands[player]
        held = self.find(hand, card, ())
        if held is not None and held is barred:
            return self.find(hand, card, (held.id,)) or held
        return held

    def find(self, pool: Sequence[Card], card: Card, used: Any) -> Card | None:
        """A card of ``pool`` with ``card``'s face whose id is not in ``used``, or None."""
        for held in pool:
            if held is card and held.id not in used:
                return held
        if self._plain_deck:
            return None
        deck = self.variant.deck
        key = deck.face_key(card)
        for held in pool:
            if held.id not in used and deck.face_key(held) == key:
                return held
        return None

    def distinct_faces(self, cards: Sequence[Card]) -> Sequence[Card]:
        """The cards with one copy of each face (copies and wild cards are interchangeable)."""
        if self._plain_deck:
            return cards
        bits = face_bits(self.variant.deck)
        seen = 0
        out = []
        for card in cards:
            bit = bits[card.id]
            if not seen & bit:
                seen |= bit
                out.append(card)
        return out

    def remove(self, player: int, card: Card) -> None:
        """Take ``card`` (that very card) out of ``player``'s hand, and one card of its
        face out of what is known there (:meth:`forget`)."""
        hand = self.hands[player]
        for i, held in enumerate(hand):
            if held is card:
                del hand[i]
                break
        if self.known[player]:  # (nothing is known of most hands: nothing to forget)
            self.forget(player, card)

    def forget(self, player: int, card: Card) -> None:
        """``card`` left ``player``'s hand: one card of its face is no longer known there.

        What the table knows of a hand is faces, not copies: the faces seen going in
        (taken from the pile, bought, offered) less the faces seen going out. Copies of
        a face look alike, so when a hand took one copy of a face and later gives up
        another (a wild taken from the pile and another wild thrown, in a deck of
        several packs or wild cards), the table saw a face go in and the same face go
        out: it knows nothing more of that face in the hand, though the very card taken
        is still there. The copy that left is forgotten if it was known, else another
        known copy of its face (the known cards stay cards of the hand, each one seen).
        """
        known = self.known[player]
        for i, held in enumerate(known):
            if held is card:
                del known[i]
                return
        if self._plain_deck:
            return
        bits = face_bits(self.variant.deck)  # (a face's bit, by card id: deck.face_key read from a table)
        bit = bits[card.id]
        for i, held in enumerate(known):
            if bits[held.id] == bit:
                del known[i]
                return

    def knows_face(self, player: int, card: Card) -> bool:
        """Whether a card of ``card``'s face is known in ``player``'s hand."""
        known = self.known[player]
        if self._plain_deck:
            for held in known:
                if held is card:
                    return True
            return False
        bits = face_bits(self.variant.deck)
        bit = bits[card.id]
        for held in known:
            if bits[held.id] == bit:
                return True
        return False

    def take_discard(self, player: int, *, new_turn: bool) -> None:
        """``player`` takes the top of the discard pile face up, seen by all (GR-5, GR-4,
        GR-8); with ``new_turn`` it begins their turn (the upcard, a claimed discard)."""
        card = self.discards.pop()
        self.hands[player].append(card)
        self.known[player].append(card)
        if new_turn:
            self.begin_turn(player)
        self.drawn = True
        self.taken = card

    def take_deep(self, player: int, index: int) -> None:
        """``player`` takes the discard pile's card at ``index`` and every card above it,
        face up (R5-3); the deepest is taken as ``taken``, and is to be melded this turn
        where the draw step says ``deep_draw_must_meld``."""
        cards = self.discards[index:]
        del self.discards[index:]
        self.hands[player].extend(cards)
        self.known[player].extend(cards)
        self.drawn = True
        self.taken = cards[0]
        step = self.variant.step("draw")
        if step is not None and step.deep_draw_must_meld:
            self.must_meld = cards[0]
            key = self.variant.deck.face_key(cards[0])
            self.must_meld_copies = sum(1 for c in self.hands[player] if self.variant.deck.face_key(c) == key)

    def turn_over_discards(self) -> bool:
        """Turn the discard pile but its top card over beneath the stock (BR-4).

        The pile is picked up and turned face down without shuffling: its bottom card
        (the oldest, the upcard where there was one) becomes the first card drawn,
        the card discarded just under the top one the last. The cards left in the
        stock (those of a floor above 0) stay on top. False (nothing changed) when
        the pile has fewer than two cards, or it has been turned over
        ``stock.max_turn_overs`` times already.
        """
        limit = self.variant.stock.max_turn_overs
        if len(self.discards) < 2 or (limit is not None and self.turn_overs >= limit):
            return False
        self.turn_overs += 1
        pile = self.discards[:-1]
        del self.discards[:-1]
        self.stock[:0] = reversed(pile)  # the stock's top card is last
        return True
