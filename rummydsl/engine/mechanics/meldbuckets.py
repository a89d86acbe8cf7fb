"""The groups a hand with wild cards lists, bucket by bucket (:mod:`.meldlist`).

A bucket is the natural cards one kind's shape takes its groups from (a rank's, a suit's,
or all of them); its groups are its cards with 0, 1, 2 ... of the hand's wild cards, up to
:data:`MAX_LISTED` cards. :func:`viable_groups` leaves out, without building them, the
groups no kind's shape can take; :func:`face_codes` gives the code by which a group's
judgement is kept (copies of a face from other packs, and other wild cards, alike).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Iterator, Sequence, TypeVar

from ...cards import Card

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["MAX_LISTED", "face_codes", "bucket_groups", "viable_groups", "buckets"]

_T = TypeVar("_T")

#: Hands with wild cards list melds of at most this many cards (any size is still accepted).
MAX_LISTED = 6


_FACE_CODES: dict[int, tuple[object, tuple[int, ...]]] = {}


def face_codes(deck: Any) -> tuple[int, ...]:
    """Each card's share of a group's face code (by card id): the sum over a group counts
    each natural face and the wild cards, so that copies of a face from other packs, and
    other wild cards, make the same code. Whether a group forms a kind reads only that
    (the kinds read faces; wild cards are interchangeable where their meanings read no
    hand), so it is judged once per code (:func:`.meldlist._forms`)."""
    got = _FACE_CODES.get(id(deck))
    if got is None or got[0] is not deck:
        bits = max(1, deck.packs.bit_length())  # a face's count in a group: at most the packs
        codes = tuple(1 << (bits * deck.face_key(card)) for card in deck.cards)  # wild cards: the top field
        if len(_FACE_CODES) >= 16:
            _FACE_CODES.pop(next(iter(_FACE_CODES)))
        got = _FACE_CODES[id(deck)] = (deck, codes)
    return got[1]


def bucket_groups(bucket: Sequence[_T], wilds: int, low: int) -> Iterator[tuple[tuple[_T, ...], int]]:
    """The groups of a bucket with wild cards, as (its natural cards, how many wild cards),
    up to :data:`MAX_LISTED` cards and at least ``low``."""
    for size in range(1, min(len(bucket), MAX_LISTED) + 1):
        for chosen in itertools.combinations(bucket, size):
            for extra in range(0, min(wilds, MAX_LISTED - size) + 1):
                if size + extra >= low:
                    yield chosen, extra


def viable_groups(rnd: Round, bucket: Sequence[Card], wilds: int, low: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """:func:`bucket_groups` of a bucket's places, less groups no kind's shape can take
    (:func:`.meldlist._shape_test` would refuse them), which are never built.

    A subset is grown card by card in the bucket's order while some shape may still take
    it: a same-rank shape while its cards share a rank; a sequence shape while they share
    a suit (where it keeps one) and take distinct positions within a window of
    :data:`MAX_LISTED`, or one of them has no single position, or a card further on has
    none (it could make the group pass)."""
    positions = rnd.positions
    if positions is None:  # every sequence shape takes every group: nothing is left out
        yield from bucket_groups(range(len(bucket)), wilds, low)
        return
    shapes = [(shape.family == "same_rank", shape.same_suit) for shape in rnd.rules.shapes.values()]
    n = len(bucket)
    ranks = [card.rank.order if card.rank is not None else -1 for card in bucket]
    suits = [card.suit.index if card.suit is not None else -1 for card in bucket]
    spots = [positions[card.id] for card in bucket]
    loose_from = [False] * (n + 1)  # a card at this place or after has no single position
    for i in range(n - 1, -1, -1):
        loose_from[i] = loose_from[i + 1] or spots[i] < 0 or ranks[i] < 0 or suits[i] < 0
    mixed = -2
    found: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def grow(start: int, rank: int, suit: int, held: int, lo: int, hi: int, clash: bool, loose: bool) -> None:
        for i in range(start, n):
            r = ranks[i] if not chosen or rank == ranks[i] else mixed
            u = suits[i] if not chosen or suit == suits[i] else mixed
            spot = spots[i]
            now_loose = loose or spot < 0 or ranks[i] < 0 or suits[i] < 0
            now_clash = clash or (spot >= 0 and bool(held >> spot & 1))
            now_held = held | (1 << spot) if spot >= 0 else held
            now_lo = min(lo, spot) if spot >= 0 else lo
            now_hi = max(hi, spot) if spot >= 0 else hi
            takes = False
            for same_rank, same_suit in shapes:
                if same_rank:
                    if r != mixed:
                        takes = True
                        break
                elif (not same_suit or u != mixed) and (now_loose or (not now_clash and now_hi - now_lo < MAX_LISTED)):
                    takes = True
                    break
            if not takes and not loose_from[i + 1]:
                continue
            chosen.append(i)
            found.append(tuple(chosen))
            if len(chosen) < MAX_LISTED:
                grow(i + 1, r, u, now_held, now_lo, now_hi, now_clash, now_loose)
            chosen.pop()

    grow(0, -1, -1, 0, 1 << 30, -1, False, False)
    found.sort(key=lambda places: (len(places), places))
    for places in found:
        size = len(places)
        for extra in range(0, min(wilds, MAX_LISTED - size) + 1):
            if size + extra >= low:
                yield places, extra


def buckets(rnd: Round, naturals: Sequence[Card], kinds: int | None = None) -> list[list[Card]]:
    """The natural cards :func:`.meldlist._wild_groups` lists groups from, bucket by bucket (those
    of the first ``kinds`` kinds' shapes, when given)."""
    buckets: list[list[Card]] = []
    for shape in list(rnd.rules.shapes.values())[:kinds]:
        if shape.family == "same_rank":
            by_rank: dict[int, list[Card]] = {}
            for card in naturals:
                assert card.rank is not None
                by_rank.setdefault(card.rank.order, []).append(card)
            buckets.extend(by_rank.values())
        elif shape.same_suit:
            by_suit: dict[int, list[Card]] = {}
            for card in naturals:
                assert card.suit is not None
                by_suit.setdefault(card.suit.index, []).append(card)
            buckets.extend(by_suit.values())
        else:
            buckets.append(list(naturals))
    return buckets
