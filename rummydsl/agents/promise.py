"""The greedy contract player's measure of a hand: how much it works towards melds of the
contract's shapes (:func:`_promise`), and that measure of the hand less each card from one
pass over its pairs (:func:`_promise_without`)."""

from __future__ import annotations

from typing import Sequence

from ..cards import Card

__all__: list[str] = []


def _promise(cards: Sequence[Card], wanted: frozenset[str] = frozenset({"same_rank", "sequence"})) -> int:
    """How much a hand works towards melds of the ``wanted`` shapes: pairs of one rank
    (``same_rank``), pairs of one suit at most two ranks apart (``sequence``), and two
    for each wild card.

    >>> from rummydsl.cards import Deck
    >>> _promise(Deck.preset("standard52").parse_cards("7H 7S 8H KC"))
    2
    >>> _promise(Deck.preset("standard52").parse_cards("7H 7S 8H KC"), frozenset({"sequence"}))
    1
    """
    return sum(_promise_shares(cards, wanted)) // 2


def _pair_score(one: Card, two: Card, wanted: frozenset[str]) -> int:
    """What a pair of natural cards adds to :func:`_promise` (0 where either is wild)."""
    if one.wild or two.wild or one.rank is None or two.rank is None:
        return 0
    if one.rank.order == two.rank.order:
        return 1 if "same_rank" in wanted else 0
    if "sequence" in wanted and one.suit is two.suit and abs(one.rank.order - two.rank.order) <= 2:
        return 1
    return 0


def _promise_shares(cards: Sequence[Card], wanted: frozenset[str]) -> list[int]:
    """Each card's share of :func:`_promise` of ``cards``, counted twice over: the pairs
    it is in, and four for a wild card (so the shares sum to twice the promise, and the
    promise of the hand without a card is the promise less that card's share, halved
    once: see :func:`_promise_without`)."""
    naturals = [(i, c.rank.order, c.suit) for i, c in enumerate(cards) if not c.wild and c.rank is not None]
    shares = [0 if (not c.wild and c.rank is not None) else 4 for c in cards]
    sets, runs = "same_rank" in wanted, "sequence" in wanted
    for at, (i, rank, suit) in enumerate(naturals):
        for j, other, other_suit in naturals[at + 1:]:
            if rank == other:
                if sets:
                    shares[i] += 1
                    shares[j] += 1
            elif runs and suit is other_suit and abs(rank - other) <= 2:
                shares[i] += 1
                shares[j] += 1
    return shares


def _promise_without(cards: Sequence[Card], wanted: frozenset[str]) -> dict[int, int]:
    """:func:`_promise` of ``cards`` without each card, by the card's id: the whole
    hand's promise less the card's pairs (or the two a wild card adds), from one pass
    over the pairs instead of one a card."""
    shares = _promise_shares(cards, wanted)
    total = sum(shares) // 2
    out: dict[int, int] = {}
    for card, share in zip(cards, shares):
        out[card.id] = total - (share // 2 if card.wild or card.rank is None else share)
    return out
