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

__all__ = ["MAX_LISTED", "face_codes", "bucket_groups", "viable_groups", "viable_places", "buckets"]

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
    :data:`MAX_LISTED` (pairwise: a card of several positions, an ace low or high, with
    one of them), or one of them has no position, or a card further on has none (it
    could make the group pass)."""
    for places in viable_places(rnd, bucket):
        size = len(places)
        for extra in range(0, min(wilds, MAX_LISTED - size) + 1):
            if size + extra >= low:
                yield places, extra


def viable_places(rnd: Round, bucket: Sequence[Card]) -> list[tuple[int, ...]]:
    """The natural cards of :func:`viable_groups`, as places in the bucket, each once, in
    its order (by size, then places): whatever wild cards join them."""
    positions = rnd.positions
    n = len(bucket)
    if positions is None:  # every sequence shape takes every group: nothing is left out
        return [places for size in range(1, min(n, MAX_LISTED) + 1)
                for places in itertools.combinations(range(n), size)]
    shapes = [(shape.family == "same_rank", shape.same_suit) for shape in rnd.rules.shapes.values()]
    ranks = [card.rank.order if card.rank is not None else -1 for card in bucket]
    suits = [card.suit.index if card.suit is not None else -1 for card in bucket]
    spots = [positions[card.id] for card in bucket]
    several = _several(rnd.variant.deck, positions) if -1 in spots else _NONE_SEVERAL
    # a card of several positions (an ace low or high) takes one of them: apart from
    # those at a distinct position within a window with one of its positions; a card
    # of no position, rank or suit is loose (a group holding one passes)
    loose = [(spots[i] < 0 and not several.get(bucket[i].id)) or ranks[i] < 0 or suits[i] < 0 for i in range(n)]
    loose_from = [False] * (n + 1)  # a card at this place or after is loose
    for i in range(n - 1, -1, -1):
        loose_from[i] = loose_from[i + 1] or loose[i]
    # per place, a bit per place: the same rank; the same suit; a distinct position within
    # a window of MAX_LISTED (both with one position). A group's cards share a rank (a
    # suit) when each is in every other's mask, and take distinct positions in a window
    # when they did before the last and it is in every other's: a group grows by masks
    same_rank = _classes(ranks)
    same_suit = _classes(suits)
    at = _classes(spots)  # the places at each position
    near: dict[int, int] = {}  # the places at a distinct position of a window with each position
    apart = []
    for place, spot in enumerate(spots):
        if spot < 0:
            apart.append(_apart_of_several(several.get(bucket[place].id, ()), place, spots, bucket, several))
            continue
        got = near.get(spot)
        if got is None:
            got = 0
            for other, there in zip(spots, at):
                if other >= 0 and other != spot and abs(other - spot) < MAX_LISTED:
                    got |= there
            for other_place, other in enumerate(spots):  # the cards of several positions, one near it
                if other < 0 and any(there != spot and abs(there - spot) < MAX_LISTED
                                     for there in several.get(bucket[other_place].id, ())):
                    got |= 1 << other_place
            near[spot] = got
        apart.append(got)
    found: list[tuple[int, ...]] = []
    everyone = (1 << n) - 1
    # by size, each size's groups in the order of their places (extending the last size's
    # in order keeps it): (places, the places of its rank, of its suit, apart from all (none
    # once two are not), loose)
    level: list[tuple[tuple[int, ...], int, int, int, bool]] = [((), everyone, everyone, everyone, False)]
    for _size in range(MAX_LISTED):
        grown: list[tuple[tuple[int, ...], int, int, int, bool]] = []
        for places, rank_in, suit_in, apart_in, was_loose in level:
            for i in range(places[-1] + 1 if places else 0, n):
                bit = 1 << i
                now_loose = was_loose or loose[i]
                takes = False
                for by_rank, by_suit in shapes:
                    if by_rank:
                        if rank_in & bit:
                            takes = True
                            break
                    elif (not by_suit or suit_in & bit) and (now_loose or apart_in & bit):
                        takes = True
                        break
                if not takes and not loose_from[i + 1]:
                    continue
                grown.append(((*places, i), rank_in & same_rank[i], suit_in & same_suit[i],
                              apart_in & apart[i] if apart_in & bit else 0, now_loose))
        if not grown:
            break
        found.extend(group[0] for group in grown)
        level = grown
    return found


def _apart_of_several(choices: tuple[int, ...], place: int, spots: Sequence[int], bucket: Sequence[Card],
                      several: dict[int, tuple[int, ...]]) -> int:
    """The places apart from the card at ``place`` (of the positions ``choices``, one of
    which it takes): each other card with a position distinct from one of its and within
    a window of :data:`MAX_LISTED` with it, a bit each (none for a card of no position)."""
    got = 0
    for other_place, other in enumerate(spots):
        if other_place == place:
            continue
        theirs = (other,) if other >= 0 else several.get(bucket[other_place].id, ())
        if any(mine != there and abs(mine - there) < MAX_LISTED for mine in choices for there in theirs):
            got |= 1 << other_place
    return got


_NONE_SEVERAL: dict[int, tuple[int, ...]] = {}

#: Per deck: the positions of each natural card of several (by id; :func:`viable_places`).
_SEVERAL: dict[int, tuple[object, dict[int, tuple[int, ...]]]] = {}


def _several(deck: Any, positions: Sequence[int]) -> dict[int, tuple[int, ...]]:
    """The sequence positions of each of ``deck``'s natural cards with several (``positions``:
    each card's one position by id, -1 for none or several), kept per deck."""
    got = _SEVERAL.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_SEVERAL) >= 16:
            _SEVERAL.pop(next(iter(_SEVERAL)))
        got = _SEVERAL[id(deck)] = (deck, {
            card.id: tuple(deck.sequence_positions(card.rank)) for card in deck.cards
            if not card.wild and card.rank is not None and positions[card.id] < 0})
    return got[1]


def _classes(values: Sequence[int]) -> list[int]:
    """For each place of ``values``, the places holding the same value, a bit each."""
    of: dict[int, int] = {}
    for place, value in enumerate(values):
        of[value] = of.get(value, 0) | 1 << place
    return [of[value] for value in values]


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
