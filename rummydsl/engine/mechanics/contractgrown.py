"""Whether a hand holds enough disjoint candidates for the contract, told from the player's
last listing (SK-5, CR-2).

Most contract listings list nothing (two in three of a random Skarney hand's), and
between two listings of one player the hand changes by a card or two (it draws, takes
the offered card, offers one). A listing's candidates (the hand's single melds of the
sizes the contract allows, :func:`.contractlist._contract_melds`) are each a group of
the hand's wild-free cards that forms a kind: whether a group is one reads the group
alone, never the rest of the hand. So the candidates of a hand are those of the last
hand listed that it still holds, and the ones that hold a card it gained: these lie
among the cards that may share a meld with one of them (of its rank, or at most
``big - 1`` sequence positions from it, by the kinds' shapes), a few cards, listed as a
hand of their own. Kept per player: the last hand listed (its cards' ids, a bit each)
and its candidates' cards, which read nothing else, so they never go stale; a hand
with a wild card, or under rules whose wild cards read the hand, is not answered here.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Sequence

from ...cards import Card
from .keep import kept
from .meldbuckets import face_codes as _face_codes
from .meldlist import _forms, _listing

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["grown_candidates", "remember", "holds_apart"]

#: Per round's solver: by (player, least and most cards a meld, the kinds asked): the last
#: hand listed (a bit a card id) and its candidates (the same, one int each).
_LAST: dict[int, tuple[object, object, dict[tuple[int, int, int, int | None], tuple[int, tuple[int, ...]]]]] = {}

#: The most cards a hand may have gained since the last listing for its candidates to be
#: grown from those kept (past them, they are listed whole).
GAINED_LIMIT = 3

#: Per round's solver: each natural card by id (``None`` for a card of no rank or suit,
#: or wild), the ids of each one's rank (a bit each), each one's sequence positions, the
#: ids at each position, the deck's other cards (a bit each), and whether the kinds have
#: same-rank and sequence shapes; ``None`` when some kind has no known shape, or the deck
#: wraps.
_TABLES: dict[int, tuple[object, object, "_Table | None"]] = {}

_Table = tuple[list["Card | None"], list[int], list[tuple[int, ...]], list[int], int, bool, bool]


def _table(rnd: Round) -> _Table | None:
    """:data:`_TABLES`' entry for the round's solver."""

    def build() -> _Table | None:
        rules = rnd.rules
        shapes = [rules.shapes[name] for name in rules.kind_names]
        deck = rnd.variant.deck
        if deck.wrap or not all(shape.family in ("same_rank", "sequence") for shape in shapes):
            return None
        cards = list(deck.cards)
        size = max((c.id for c in cards), default=-1) + 1
        naturals: list[Card | None] = [None] * size
        ranks = [0] * size
        spots: list[tuple[int, ...]] = [()] * size
        odd = 0
        by_rank: dict[int, int] = {}
        for card in cards:
            if card.wild or card.rank is None or card.suit is None:
                odd |= 1 << card.id
            else:
                naturals[card.id] = card
                spots[card.id] = tuple(deck.sequence_positions(card.rank))
                by_rank[card.rank.order] = by_rank.get(card.rank.order, 0) | 1 << card.id
        at = [0] * (max((spot for row in spots for spot in row), default=0) + 2)
        for card in cards:
            if naturals[card.id] is not None:
                assert card.rank is not None
                ranks[card.id] = by_rank[card.rank.order]
                for spot in spots[card.id]:
                    at[spot] |= 1 << card.id
        return (naturals, ranks, spots, at, odd, any(shape.family == "same_rank" for shape in shapes),
                any(shape.family == "sequence" for shape in shapes))

    return kept(_TABLES, rnd.rules, 32, build)


def grown_candidates(rnd: Round, player: int, hand: Sequence[Card], small: int, big: int,
                     last: int | None) -> tuple[int, list[int]] | None:
    """The hand's cards (a bit a card id) and its candidates' cards (one int each, in no
    order; perhaps some the listing leaves out, of kinds it does not ask for): those of
    the player's last listing (:func:`remember`) that the hand still holds, and those
    that hold a card it gained since (all of them where none is kept, or the hand
    gained more than :data:`GAINED_LIMIT` cards). ``None`` for a hand not answered here
    (a wild card, or rules whose wild cards read the hand, or a kind of no known shape).
    ``small``, ``big``, ``last``: the listing's least and most cards a meld and the
    kinds it asks for (``_judged_melds``' ``kinds``)."""
    rules = rnd.rules
    if rules.wild_unique_card:
        return None
    table = _table(rnd)
    if table is None:
        return None
    mask = 0
    for card in hand:
        mask |= 1 << card.id
    if mask & table[4]:
        return None
    kept_hands = kept(_LAST, rules, 32, dict)
    got = kept_hands.get((player, small, big, last))
    if got is not None and (mask & ~got[0]).bit_count() <= GAINED_LIMIT:
        before, masks = got
        gained = mask & ~before
        found = [m for m in masks if not m & ~mask]  # the last hand's candidates it still holds
    else:
        gained = mask
        found = []
    if gained:
        found.extend(_touching(rnd, table, mask, gained, max(small, 1), big))
    kept_hands[(player, small, big, last)] = (mask, tuple(found))
    return mask, found


def _touching(rnd: Round, table: _Table, mask: int, gained: int, small: int, big: int) -> list[int]:
    """The cards (a bit each) of each group of the hand ``mask`` (natural cards, a bit a
    card id) of ``small`` to ``big`` cards that holds one of ``gained`` and forms a kind:
    one rank's cards, or one card at each of consecutive sequence positions (the kinds'
    shapes, no wild card in it), judged as the listing judges them (by faces, kept)."""
    naturals, ranks, spots, at, _odd, same_rank, sequences = table
    memo, may_form = _listing(rnd)[:2]
    kinds_bits = rnd.rules.kinds_bits
    faces = _face_codes(rnd.variant.deck)
    out: list[int] = []
    seen: set[int] = set()
    groups: list[tuple[Card, ...]] = []
    rest = gained
    done = 0
    starts: set[int] = set()
    top = len(at) - 1
    while rest:
        low = rest & -rest
        rest ^= low
        cid = low.bit_length() - 1
        if same_rank and not done & low:
            same = ranks[cid] & mask
            done |= same
            if same.bit_count() >= small:
                cards = _cards(naturals, same)
                for size in range(small, min(big, len(cards)) + 1):
                    groups.extend(itertools.combinations(cards, size))
        if sequences:
            for spot in spots[cid]:
                starts.update(range(max(spot - big + 1, 0), spot + 1))
    for start in starts:
        held = []
        for spot in range(start, min(start + big, top)):
            here = at[spot] & mask
            if not here:
                break
            held.append(_cards(naturals, here))
            if len(held) >= small:
                groups.extend(itertools.product(*held))  # type: ignore[arg-type]
    for group in groups:
        ids = 0
        face = 0
        for card in group:
            ids |= 1 << card.id  # type: ignore[union-attr]
            face += faces[card.id]  # type: ignore[union-attr]
        if ids & gained and ids not in seen and ids.bit_count() == len(group):
            seen.add(ids)
            if _forms(memo, face, group, may_form, kinds_bits):
                out.append(ids)
    return out


def _cards(naturals: Sequence["Card | None"], mask: int) -> list[Card]:
    """The cards of ``mask`` (a bit a card id), in id order."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        card = naturals[low.bit_length() - 1]
        assert card is not None
        out.append(card)
    return out


def remember(rnd: Round, player: int, small: int, big: int, last: int | None, mask: int,
             masks: Sequence[int]) -> None:
    """Keep ``masks`` as the candidates of the player's hand ``mask`` (a bit a card id)."""
    kept_hands = kept(_LAST, rnd.rules, 32, dict)
    if len(kept_hands) >= 64:
        kept_hands.clear()
    kept_hands[(player, small, big, last)] = (mask, tuple(masks))


def holds_apart(masks: Sequence[int], need: int) -> bool:
    """Whether ``need`` of the groups ``masks`` (their cards, a bit each) share no card, pairwise."""
    count = len(masks)
    if count < need:
        return False
    if need <= 1:
        return count >= need
    after = []
    for i, m in enumerate(masks):
        bits = 0
        for j in range(i + 1, count):
            if not m & masks[j]:
                bits |= 1 << j
        after.append(bits)
    return _apart(after, (1 << count) - 1, need)


def _apart(after: Sequence[int], free: int, need: int) -> bool:
    """Whether ``need`` of the candidates ``free`` (a bit each) share no card, pairwise;
    ``after``: each candidate's later ones that share none with it."""
    while free:
        low = free & -free
        free ^= low
        if need == 1:
            return True
        rest = free & after[low.bit_length() - 1]
        if need == 2:
            if rest:
                return True
        elif rest.bit_count() >= need - 1 and _apart(after, rest, need - 1):
            return True
    return False
