"""Which table melds a player's cards might extend: the greedy draw decision's filter.

The greedy player of a going-out game (BR) asks the solver whether the top discard
helps, with the table melds as lay-off targets; only the melds some card of the hand
might join are passed (:func:`_extendable`), the others cannot change the answer.
What a meld might take is read from the kinds' shapes once for each meld as it lies
(:func:`_takers`), and a hand is held against it as a bitmask of card ids.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence, TypeVar

from ..cards import Card
from ..engine.observe import Observation

__all__ = ["_extendable", "_extendable_held", "_takers"]


class _Meld(Protocol):
    @property
    def cards(self) -> Sequence[Card]: ...


_M = TypeVar("_M", bound=_Meld)

#: How many melds' :func:`_takers` each rules object keeps before it forgets them all.
_KEPT_MELDS = 4096

#: How many table meld objects :func:`_extendable` keeps by identity for each solver (it holds
#: them: a few rounds' melds, fewer than :data:`_KEPT_MELDS` ids' tuples).
_KEPT_MELD_OBJECTS = 512


class _DeckCards:
    """A deck's natural cards as bitmasks by card id: of each rank order, of each suit
    index, and holding each sequence position (a card with two positions is in both)."""

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        self.rank: dict[int, int] = {}
        self.suit: dict[int, int] = {}
        self.position: dict[int, int] = {}
        self.spot: dict[int, int] = {}
        """Each natural card's sequence position by id, if it has one only."""
        self.several = 0
        """The natural cards at more than one sequence position (or none)."""
        self.odd = 0
        """The wild cards and the cards without a rank or a suit."""
        for card in deck.cards:
            if card.wild or card.rank is None or card.suit is None:
                self.odd |= 1 << card.id
                continue
            bit = 1 << card.id
            order, suit = card.rank.order, card.suit.index
            self.rank[order] = self.rank.get(order, 0) | bit
            self.suit[suit] = self.suit.get(suit, 0) | bit
            spots = deck.sequence_positions(card.rank)
            for spot in spots:
                self.position[spot] = self.position.get(spot, 0) | bit
            if len(spots) == 1:
                self.spot[card.id] = spots[0]
            else:
                self.several |= bit


class _Kept:
    """What :func:`_extendable` keeps for one solver: its deck's cards, whether some kind
    has no known shape, and :func:`_takers` by meld (its cards' ids)."""

    def __init__(self, rules: Any, deck: Any) -> None:
        self.rules = rules
        self.deck = deck
        self.cards = _DeckCards(deck)
        self.loose = deck.wrap or any(shape.family == "any" for shape in rules.shapes.values())
        self.takers: dict[tuple[int, ...], int | None] = {}
        self.by_meld: dict[int, tuple[object, int, Card, int | None]] = {}
        """:func:`_takers` by table meld object (``id``): the meld, its length and last
        card when asked (a table meld only grows, by a card appended), its takers. A
        draw decision asks every meld on the table; this spares it their ids' tuples."""


_RULES: dict[int, _Kept] = {}
""":class:`_Kept` by solver (``id``), the last few."""


def _kept(rules: Any, deck: Any) -> _Kept:
    got = _RULES.get(id(rules))
    if got is None or got.rules is not rules or got.deck is not deck:
        got = _Kept(rules, deck)
        if len(_RULES) >= 32:
            _RULES.pop(next(iter(_RULES)))
        _RULES[id(rules)] = got
    return got


def _takers(rules: Any, deck: Any, group: Sequence[Card]) -> int | None:
    """The cards (a bitmask by card id) whose holding keeps the table meld ``group`` in
    the question (:func:`_extendable`), or None when it is kept whatever is held.

    Without wild cards in the meld: a meld of one rank takes a card of that rank
    (``same_rank``); a meld whose cards stand at consecutive single positions (of one
    suit, where the shape keeps one) takes a card at the position just below or above
    (``sequence``); a meld at a kind's largest size takes nothing more. A meld with wild
    cards, cards of several positions or positions that are not one block is kept.
    Worked out once for each meld, kept by its cards' ids.
    """
    kept = _kept(rules, deck)
    return _kept_takers(kept, group, tuple([c.id for c in group]))


def _kept_takers(kept: _Kept, group: Sequence[Card], key: tuple[int, ...]) -> int | None:
    memo = kept.takers
    if key in memo:
        return memo[key]
    if len(memo) >= _KEPT_MELDS:
        memo.clear()
    memo[key] = found = _work_out_takers(kept.rules, kept.deck, kept.cards, group)
    return found


def _work_out_takers(rules: Any, deck: Any, cards: _DeckCards, group: Sequence[Card]) -> int | None:
    """:func:`_takers`, worked out."""
    if any(c.wild or c.rank is None or c.suit is None for c in group):
        return None
    size = len(group)
    ranks = {c.rank.order for c in group}  # type: ignore[union-attr]
    suits = {c.suit.index for c in group}  # type: ignore[union-attr]
    spots = [deck.sequence_positions(c.rank) for c in group]
    takers = 0
    for shape in rules.shapes.values():
        if shape.max_size is not None and size + 1 > shape.max_size:
            continue
        if shape.family == "same_rank":
            if len(ranks) == 1:
                takers |= cards.rank.get(next(iter(ranks)), 0)
            continue
        if shape.same_suit and len(suits) != 1:
            continue
        if any(len(spot) != 1 for spot in spots):
            return None  # a card with several positions: not ruled out here
        low = min(spot[0] for spot in spots)
        high = max(spot[0] for spot in spots)
        if len({spot[0] for spot in spots}) != size or high - low != size - 1:
            return None  # not a block of consecutive positions: not ruled out here
        near = cards.position.get(low - 1, 0) | cards.position.get(high + 1, 0)
        if shape.same_suit:
            near &= cards.suit.get(next(iter(suits)), 0)
        takers |= near
    return takers


def _joiners(kept: _Kept, group: Sequence[Card], held: int) -> int | None:
    """The cards of ``held`` (a bitmask by card id, natural cards not in ``group``) that
    may join the natural cards ``group`` in one meld of some kind, by the kinds' shapes
    and whatever the meld's size (:mod:`.tablegain` judges every group of them): of a
    ``same_rank`` kind, the cards of the group's one rank; of a ``sequence`` kind, the
    cards (of the group's one suit, where the shape keeps one) at the positions of the
    one block of consecutive positions, each held or the group's, that holds the
    group's. None for a kind of no known shape, or a card at several positions or none
    where a sequence kind would need its place."""
    cards = kept.cards
    ranks = {c.rank.order for c in group}  # type: ignore[union-attr]
    suits = {c.suit.index for c in group}  # type: ignore[union-attr]
    out = 0
    for shape in kept.rules.shapes.values():
        if shape.family == "same_rank":
            if len(ranks) == 1:
                out |= held & cards.rank.get(next(iter(ranks)), 0)
            continue
        if shape.family != "sequence":
            return None
        if shape.same_suit:
            if len(suits) != 1:
                continue
            near = held & cards.suit.get(next(iter(suits)), 0)
        else:
            near = held
        if near & cards.several or any(c.id not in cards.spot for c in group):
            return None
        taken = {cards.spot[c.id] for c in group}
        if len(taken) != len(group):
            continue  # two cards of the group at one position: no sequence holds it
        free = set()
        rest = near
        while rest:
            low = rest & -rest
            rest ^= low
            free.add(cards.spot[low.bit_length() - 1])
        low, high = min(taken), max(taken)
        if any(spot not in taken and spot not in free for spot in range(low, high + 1)):
            continue
        while low - 1 in free:
            low -= 1
        while high + 1 in free:
            high += 1
        for spot in range(low, high + 1):
            out |= near & cards.position.get(spot, 0)
    return out


def _extendable(observation: Observation, cards: Sequence[Card], table: Sequence[_M]) -> list[_M]:
    """The table melds (anything with the meld's ``cards``: a
    :class:`~rummydsl.melds.LayoffTarget` or the engine's table meld) that some of
    ``cards`` might extend, by the kinds' shapes (each a necessary condition,
    :class:`~rummydsl.melds.KindShape`; :func:`_takers`), in their order; the solver is
    asked without the others, which no card of the hand can join (the least deadwood is
    the same), and is spared listing their extensions.

    Everything is kept for wild cards (in the hand, or on the table under
    ``wild_unique_card``), kinds of no known shape, wrapping decks and melds or cards
    :func:`_takers` does not cover.
    """
    held = 0
    for card in cards:
        held |= 1 << card.id
    return _extendable_held(observation, held, table)


def _extendable_held(observation: Observation, held: int, table: Sequence[_M]) -> list[_M]:
    """:func:`_extendable` of the cards ``held`` (a bitmask by card id)."""
    kept = _kept(observation.rules, observation.variant.deck)
    if kept.loose:
        return list(table)
    if held & kept.cards.odd:
        return list(table)  # (a wild card's meanings may read every card on the table)
    if kept.rules.wild_unique_card and any(c.wild for meld in table for c in meld.cards):
        return list(table)
    memo = kept.takers
    by_meld = kept.by_meld
    out = []
    for meld in table:
        group = meld.cards
        got = by_meld.get(id(meld))
        if got is not None and got[0] is meld and got[1] == len(group) and group and got[2] is group[-1]:
            takers = got[3]
        else:
            key = tuple([c.id for c in group])
            takers = memo[key] if key in memo else _kept_takers(kept, group, key)
            if group:
                if len(by_meld) >= _KEPT_MELD_OBJECTS:
                    by_meld.clear()
                by_meld[id(meld)] = (meld, len(group), group[-1], takers)
        if takers is None or takers & held:
            out.append(meld)
    return out
