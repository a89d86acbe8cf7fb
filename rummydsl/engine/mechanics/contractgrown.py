"""The contract listing's candidates grown from the player's last listing (SK-5, CR-2).

A contract listing (:func:`.contractlist._contract_melds`) searches the hand's single
melds of the sizes the contract allows: its candidates. Each is a group of the hand's
wild-free cards that forms a kind, and whether a group is one reads the group alone,
never the rest of the hand. Between two listings of one player the hand changes by a
card or two (it draws, takes the offered card, offers one), so its candidates are those
of the last hand listed that it still holds, and those that hold a card it gained: one
rank's cards with it, or one card a position over the few windows of sequence positions
through it (the kinds' shapes), judged as :func:`.meldlist._judged_melds` judges them
(by faces, kept). Kept per player and per round's solver: the last hand listed (its
cards, a bit a card id) and its candidates, which read nothing else, so they never go
stale. Most listings list nothing (two in three, in random play under a contract of
three three-card melds): those are told by the candidates' cards alone
(:func:`holds_apart`); the others take them in the listing's order (:func:`in_order`),
as ``_judged_melds`` lists them. A hand with a wild
card, rules whose wild cards read the hand, a kind of no known shape or a wrapping deck
are not answered here.
"""


from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING, Sequence

from ...cards import Card
from .keep import kept
from .meldbuckets import face_codes as _face_codes
from .meldlist import _forms, _listing, lists_sequences

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["grown_candidates", "in_order", "holds_apart"]

#: Per round's solver: by (player, least and most cards a meld, the kinds asked): the last
#: hand listed (a bit a card id), its candidates (:data:`Entry`), and how many of them
#: it was found to hold no disjoint collection of (0 where not asked, or it held one).
_LAST: dict[int, tuple[object, object, dict[tuple[int, int, int, int | None], tuple[int, tuple["Entry", ...], int]]]] = {}

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


#: A candidate as kept: its cards (a bit a card id), its group, its kinds (``kinds_bits``),
#: and where it stands in the listing: a same-rank group by its rank's cards (a bit each:
#: the rank's lowest card in the hand places it), a sequence by its start position (as a
#: negative number), then its size.
Entry = tuple[int, tuple[Card, ...], int, int, int]


def grown_candidates(rnd: Round, player: int, hand: Sequence[Card], small: int, big: int,
                     last: int | None, need: int = 0) -> tuple[int, list[Entry]] | None:
    """The hand's cards (a bit a card id) and its candidates (:data:`Entry`, in no order):
    those of the player's last listing that the hand still holds, and those that hold a
    card it gained since (all of them where none is kept, or the hand gained more than
    :data:`GAINED_LIMIT` cards): the groups of ``small`` to ``big`` cards
    :func:`.meldlist._judged_melds` lists (asked for the first ``last`` kinds). With
    ``need``, no candidates where no ``need`` of them share no card (:func:`holds_apart`;
    where the last listing's held none, only collections with a new one are tried).
    ``None`` for a hand not answered here (a wild card, or rules whose wild cards read
    the hand, or a kind of no known shape)."""
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
    key = (player, small, big, last)
    got = kept_hands.get(key)
    fresh = 0  # the first candidate that may be in ``need`` disjoint ones (those before it hold none)
    if got is not None and (mask & ~got[0]).bit_count() <= GAINED_LIMIT:
        before, entries, held_none = got
        gained = mask & ~before
        found = [entry for entry in entries if not entry[0] & ~mask]  # those it still holds
        if need and held_none == need:
            fresh = len(found)
    else:
        gained = mask
        found = []
    if gained:
        sequences = table[6] and (last is None or lists_sequences(rules, last))
        found.extend(_touching(rnd, table, mask, gained, max(small, _listing(rnd)[2]), big, sequences))
    apart = not need or holds_apart(list(map(_first, found)), need, small, fresh)
    if len(kept_hands) >= 64:
        kept_hands.clear()
    kept_hands[key] = (mask, tuple(found), 0 if apart else need)
    return mask, found if apart else []


def in_order(rnd: Round, mask: int, entries: Sequence[Entry]) -> list[Entry]:
    """``entries`` in the listing's order for the hand ``mask`` (a bit a card id): the
    same-rank groups by their rank's lowest card in the hand, then the sequences by
    start; by size within one; then by their cards' ids in the group's order (the
    combinations and products, of cards in id order, come so; kept by the group's cards,
    :data:`_IDS`)."""
    ids_of = kept(_IDS, rnd.rules, 32, dict)
    if len(ids_of) >= MET_LIMIT:
        ids_of.clear()
    keyed = []
    for entry in entries:
        ids = ids_of.get(entry[0])
        if ids is None:
            ids = ids_of[entry[0]] = tuple([card.id for card in entry[1]])
        where = entry[3]
        if where > 0:  # a same-rank group: by its rank's lowest card in the hand
            where &= mask
            keyed.append(((0, where & -where, entry[4], ids), entry))
        else:
            keyed.append(((1, -where, entry[4], ids), entry))
    keyed.sort(key=_first)  # (no two entries' keys alike: their cards differ)
    return list(map(_second, keyed))


_first = operator.itemgetter(0)
_second = operator.itemgetter(1)

#: Per round's solver: each group's card ids in its order, by its cards (a bit a card id:
#: a group of them is listed in one order, :data:`_MET`), for :func:`in_order`.
_IDS: dict[int, tuple[object, object, dict[int, tuple[int, ...]]]] = {}


#: Per round's solver: by (least and most cards a meld), the groups :func:`_touching` has
#: met, by their cards (a bit a card id): one rank's cards, and one card a sequence position
#: from a window's start, each as :data:`Entry` (:data:`NO_KIND` where it forms none).
_MET: dict[int, tuple[object, object, dict[tuple[int, int], tuple[dict[int, "Entry"], dict[int, "Entry"]]]]] = {}

#: What :data:`_MET` keeps for a group that forms no kind (no kinds).
NO_KIND: "Entry" = (0, (), 0, 0, 0)

#: The most groups :data:`_MET` keeps for one solver and bounds (then it starts again).
MET_LIMIT = 1 << 16


def _touching(rnd: Round, table: _Table, mask: int, gained: int, small: int, big: int,
              sequences: bool) -> list[Entry]:
    """Each group of the hand ``mask`` (natural cards, a bit a card id) of ``small`` to
    ``big`` cards that holds one of ``gained`` and forms a kind, as :data:`Entry`: one
    rank's cards, or (with ``sequences``) one card at each of consecutive sequence
    positions (the kinds' shapes, no wild card in it), each once (a same-rank group before
    a sequence, the lower start first, and of the products of the positions' cards in id
    order the first). The groups are walked as bitmasks; each is built and judged (by
    faces, as the listing judges them) the first time it is met (:data:`_MET`)."""
    naturals, ranks, spots, at, _odd, same_rank, _sequences = table
    per_bounds = kept(_MET, rnd.rules, 32, dict)
    met = per_bounds.get((small, big))
    if met is None:
        met = per_bounds[small, big] = ({}, {})
    by_rank, by_run = met
    if len(by_rank) + len(by_run) >= MET_LIMIT:
        by_rank.clear()
        by_run.clear()
    out: list[Entry] = []
    seen: set[int] = set()
    rest = gained
    done = 0
    starts = 0  # the windows' starts (a bit each)
    top = len(at) - 1
    while rest:
        low = rest & -rest
        rest ^= low
        cid = low.bit_length() - 1
        if same_rank and not done & low:
            same = ranks[cid] & mask
            done |= same
            if same.bit_count() >= small:
                for ids in _subsets(same, small, big):
                    if ids & gained and ids not in seen:
                        entry = by_rank.get(ids)
                        if entry is None:
                            entry = by_rank[ids] = _judged(rnd, tuple(_cards(naturals, ids)), ids, ranks[cid])
                        seen.add(ids)
                        if entry[2]:  # (it forms a kind)
                            out.append(entry)
        if sequences:
            for spot in spots[cid]:
                first = max(spot - big + 1, 0)
                starts |= ((2 << (spot - first)) - 1) << first
    if starts:  # only the starts of ``small`` positions each holding a card of the hand make a group
        held = 0  # the positions from the first start to the last one's ``small``-th that hold one (a bit each)
        for spot in range((starts & -starts).bit_length() - 1, min(starts.bit_length() - 1 + small, top)):
            if at[spot] & mask:
                held |= 1 << spot
        for shift in range(1, small):
            starts &= held >> shift
        starts &= held
    while starts:
        low = starts & -starts
        starts ^= low
        start = low.bit_length() - 1
        one = 0  # the product so far while each position holds one card
        made: list[int] | None = None  # the products so far once one holds several (no card twice)
        for spot in range(start, min(start + big, top)):
            here = at[spot] & mask
            if not here:
                break
            if made is None and not here & (here - 1):
                if one & here:
                    break  # (a card at two of the window's positions: no product from here on)
                one |= here
                if spot - start + 1 < small:
                    continue
                ids = one
                if ids & gained and ids not in seen:
                    entry = by_run.get(ids)
                    if entry is None:
                        entry = by_run[ids] = _judged(rnd, _run_group(naturals, at, start, spot, ids), ids, -1 - start)
                    seen.add(ids)
                    if entry[2]:  # (it forms a kind)
                        out.append(entry)
                continue
            if made is None:
                made = [one]
            bits = []
            while here:
                low = here & -here
                here ^= low
                bits.append(low)
            made = [ids | bit for ids in made for bit in bits if not ids & bit]
            if spot - start + 1 >= small:
                for ids in made:
                    if ids & gained and ids not in seen:
                        entry = by_run.get(ids)
                        if entry is None:
                            entry = by_run[ids] = _judged(rnd, _run_group(naturals, at, start, spot, ids), ids, -1 - start)
                        seen.add(ids)
                        if entry[2]:  # (it forms a kind)
                            out.append(entry)
    return out


def _subsets(cards: int, small: int, big: int) -> list[int]:
    """The subsets of ``small`` to ``big`` of ``cards`` (a bit each), by size, then as
    ``itertools.combinations`` takes them from the cards in id order."""
    bits = []
    while cards:
        low = cards & -cards
        cards ^= low
        bits.append(low)
    return [sum(chosen) for size in range(small, min(big, len(bits)) + 1)
            for chosen in itertools.combinations(bits, size)]


def _run_group(naturals: Sequence["Card | None"], at: Sequence[int], start: int, end: int, ids: int) -> tuple[Card, ...]:
    """The cards ``ids`` (a bit a card id) as the group of the sequence positions ``start``
    to ``end``: a card a position, the first product (:func:`_first_product`) where some
    card stands at two of them."""
    group = []
    for place in range(start, end + 1):
        here = at[place] & ids
        if here & (here - 1):
            return _first_product([_cards(naturals, at[spot] & ids) for spot in range(start, end + 1)], ids)
        card = naturals[here.bit_length() - 1]
        assert card is not None
        group.append(card)
    return tuple(group)


def _first_product(held: Sequence[Sequence[Card]], ids: int) -> tuple[Card, ...]:
    """The first of the products of ``held`` (each position's cards, in id order) that
    holds each of the cards ``ids`` (a bit a card id) once."""
    size = ids.bit_count()
    for group in itertools.product(*held):
        if len(group) == size and sum(1 << card.id for card in group) == ids:
            return group
    raise AssertionError(f"no product of {held!r} holds the cards {ids:#x}")  # (the ids come from one)


def _judged(rnd: Round, group: tuple[Card, ...], ids: int, where: int) -> Entry:
    """``group`` (its cards ``ids``, a bit a card id; ``where`` it stands) as :data:`Entry`,
    :data:`NO_KIND` where it forms no kind, judged by faces (:func:`.meldlist._forms`, kept)."""
    memo, may_form = _listing(rnd)[:2]
    faces = _face_codes(rnd.variant.deck)
    face = 0
    for card in group:
        face += faces[card.id]
    kinds = _forms(memo, face, group, may_form, rnd.rules.kinds_bits)
    return (ids, group, kinds, where, len(group)) if kinds else NO_KIND


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


def holds_apart(masks: Sequence[int], need: int, least: int = 1, fresh: int = 0) -> bool:
    """Whether ``need`` of the groups ``masks`` (their cards, a bit each, each of at least
    ``least`` cards) share no card, pairwise, where the first ``fresh`` of them are known to
    hold no ``need`` such: no, at once, where all of them hold fewer than ``need`` times
    ``least`` cards; else each group with the later ones that share no card with it (a
    list each, built as asked, the first ``need`` found ending it), or, past ``fresh``,
    each group from ``fresh`` on with the others that share none with it."""
    count = len(masks)
    if count < need:
        return False
    if need <= 1:
        return True
    if count <= fresh:
        return False
    held = 0
    for mask in masks:
        held |= mask
    if held.bit_count() < need * least:
        return False
    if not fresh:
        return _apart_masks(masks, need)
    known = masks[:fresh]
    for i in range(fresh, count):  # a collection with a new group: its first new one, and others
        mask = masks[i]
        rest = [other for other in known if not other & mask]
        rest += [other for other in masks[i + 1:] if not other & mask]
        if need == 2:
            if rest:
                return True
        elif len(rest) >= need - 1 and _apart_masks(rest, need - 1):
            return True
    return False


def _apart_masks(masks: Sequence[int], need: int) -> bool:
    """Whether ``need`` (at least two) of ``masks`` share no card, pairwise."""
    count = len(masks)
    for i, mask in enumerate(masks):
        if count - i < need:
            return False
        rest = [other for other in masks[i + 1:] if not other & mask]
        if need == 2:
            if rest:
                return True
        elif len(rest) >= need - 1 and _apart_masks(rest, need - 1):
            return True
    return False


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
