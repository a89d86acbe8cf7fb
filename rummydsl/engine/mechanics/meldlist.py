"""The meld step's listings: every single meld of a hand, in the order the legal actions
list them, and the groups of the hand each kind forms, which the contract's listing
(:mod:`.contractlist`: every lay-down that meets the contract, SK-5, CR-2) searches over.

Both are asked at every meld step of every player (the random and greedy players
list them each turn), so they keep what is worked out once: whether a group forms a
kind (by its faces, for a variant's kinds), whether a collection of meld shapes
meets a deal's contract; and they never judge what the kinds' shapes rule out. The
groups and lay-downs listed, and their order, are those of the plain search
(tests/engine/test_contract_listing.py).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ...cards import Card
from .meldbuckets import MAX_LISTED
from .meldbuckets import bucket_groups as _bucket_groups
from .meldbuckets import buckets as _buckets
from .meldbuckets import face_codes as _face_codes
from .meldbuckets import viable_places as _viable_places
from .keep import kept
from .meldblocks import natural_melds, sequence_windows
from .meldless import no_meld

if TYPE_CHECKING:
    from ...melds.rules import MeldRules
    from ..round import Round

__all__ = ["MAX_LISTED", "single_melds"]


def single_melds(rnd: Round, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every group of the hand that forms a meld, each once.

    Groups are listed from the kinds' shapes (one rank; one card per sequence
    position) and judged by the kinds' patterns. Hands with wild cards list groups
    of up to :data:`MAX_LISTED` cards by the shapes too (:func:`_wild_groups`);
    kinds with no known shape try every group of up to that many cards.
    """
    return _melds(rnd, hand, len(hand))


def _melds(rnd: Round, hand: Sequence[Card], high: int, kinds: int | None = None) -> list[tuple[Card, ...]]:
    """:func:`single_melds` of at most ``high`` cards (:func:`_judged_melds`' groups)."""
    return _judged_melds(rnd, hand, high, kinds)[0]


def _judged_melds(rnd: Round, hand: Sequence[Card], high: int,
                  kinds: int | None = None) -> tuple[list[tuple[Card, ...]], list[int]]:
    """:func:`single_melds` of at most ``high`` cards: the same groups in the same order,
    but for the longer ones, which are never built (a contract of three-card melds asks
    for these). With ``kinds``, only the groups of the first ``kinds`` kinds' shapes come
    before the rest (the groups listed only from later kinds' shapes are left out, as a
    contract that takes melds of none of those kinds asks): the groups of those kinds
    are all there, in their order. With each group, the kinds it forms as ``kinds_bits``
    gives them (-1 for a group with wild cards whose meanings read the hand)."""
    rules = rnd.rules
    fast = _FAST
    if fast[0] is rules and fast[1] is rnd.variant.deck and _listing is _LISTING:
        natural = fast[2]  # the natural path's set-up, kept (:func:`_natural`)
    else:
        memo, may_form, low, families, one_suit, buckets = _listing(rnd)
        natural = None
        if buckets is not None and "any" not in families:  # kept blocks (the tests' plain listing passes None)
            natural = _natural(rnd, memo, may_form, low, families, one_suit)
    if natural is not None:
        low, same_rank, sequences, one_suit, judge, faces = natural
        if len(hand) < low or high < low:  # every group listed holds at least ``low`` cards
            return [], []
        if no_meld(rnd, hand, high):
            return [], []  # the kinds' shapes rule every group out (meldless.py): no block looked up
        got = natural_melds(rnd, hand, high, low, same_rank,
                            sequences and (kinds is None or lists_sequences(rules, kinds)), one_suit, judge, faces)
        if got is not None:  # (None for a hand with wild cards: listed below)
            return got
    memo, may_form, low, families, one_suit, buckets = _listing(rnd)
    if len(hand) < low or high < low:
        return [], []
    sequences = "sequence" in families and (kinds is None or lists_sequences(rules, kinds))
    cards = sorted(hand, key=lambda c: c.id)
    groups: list[tuple[Card, ...]] = []
    if "any" in families:
        for size in range(low, min(len(cards), MAX_LISTED, high) + 1):
            groups.extend(itertools.combinations(cards, size))
    elif any(c.wild for c in cards):
        if buckets is not None and not rules.wild_unique_card:
            bits: list[int] = []
            found = _wild_melds(rnd, cards, low, memo, may_form, buckets, kinds, bits)
            if high >= len(cards):
                return found, bits
            short = [i for i, group in enumerate(found) if len(group) <= high]
            return [found[i] for i in short], [bits[i] for i in short]
        groups.extend(group for group in _wild_groups(rnd, cards, low) if len(group) <= high)
    else:
        if "same_rank" in families:
            by_rank: dict[int, list[Card]] = {}
            for card in cards:
                assert card.rank is not None
                by_rank.setdefault(card.rank.order, []).append(card)
            for same in by_rank.values():
                for size in range(low, min(len(same), high) + 1):
                    groups.extend(itertools.combinations(same, size))
        if sequences:
            groups.extend(_sequences(rnd, cards, low, one_suit and all(card.suit is not None for card in cards),
                                     high))
    found = []
    judged = []
    seen: set[int] = set()
    unique = rules.wild_unique_card
    kinds_bits = rules.kinds_bits
    faces = _face_codes(rnd.variant.deck)
    for group in groups:
        key = 0
        face = 0
        for card in group:
            key |= 1 << card.id
            face += faces[card.id]
        if key in seen:
            continue
        seen.add(key)
        if unique and any(c.wild for c in group):  # its wild cards' meanings read the hand
            if may_form(group) and rules.kinds_of(group, hand=hand):
                found.append(group)
                judged.append(-1)
            continue
        forms = _forms(memo, face, group, may_form, kinds_bits)
        if forms:
            found.append(group)
            judged.append(forms)
    return found, judged


_FAST: list[Any] = [None, None, None]
"""The rules and deck of the last listing that took the natural path (:func:`_natural`), and
what it reads there: the fewest cards a kind allows, whether same-rank kinds and sequence
kinds are listed, whether every sequence kind keeps one suit, the judge of a new group and
the deck's face codes (a game lists one variant's hands at every meld step)."""


def _natural(rnd: Round, memo: dict[int, int], may_form: Callable[[Sequence[Card]], bool], low: int,
             families: frozenset[str], one_suit: bool) -> tuple[Any, ...]:
    """The natural path's set-up (:func:`natural_melds`' arguments but the hand's: the fewest
    cards, whether same-rank and sequence kinds are listed, one suit, the judge of a new
    group, :func:`_forms` with the listing's memo, and the deck's face codes), kept in
    :data:`_FAST` for the next listing of these rules."""
    kinds_bits = rnd.rules.kinds_bits

    def judge(group: tuple[Card, ...], face: int) -> int:
        return _forms(memo, face, group, may_form, kinds_bits)

    got = (low, "same_rank" in families, "sequence" in families, one_suit, judge, _face_codes(rnd.variant.deck))
    _FAST[:] = [rnd.rules, rnd.variant.deck, got]
    return got


def _forms(memo: dict[int, int], key: int, group: Sequence[Card], may_form: Callable[[Sequence[Card]], bool],
           kinds_bits: Callable[[Sequence[Card]], int]) -> int:
    """The kinds ``group`` (face code ``key``, :func:`_face_codes`) forms, as ``kinds_bits``
    gives them (0: none), judged once (kept in ``memo``): the kinds read its faces alone."""
    forms = memo.get(key)
    if forms is None:
        if len(memo) >= _MELDS_MEMO_LIMIT:
            memo.clear()
        forms = memo[key] = kinds_bits(group) if may_form(group) else 0
    return forms


#: The most groups :func:`_listing` keeps judged for one set of kinds (then it starts again).
_MELDS_MEMO_LIMIT = 1 << 18

#: A bucket's melds (:func:`_wild_melds`): each group's natural cards (their places in the
#: bucket), wild-card count and kinds (``kinds_bits``), in listing order.
_Bucket = tuple[tuple[tuple[int, ...], int, int], ...]

_Listing = tuple[dict[int, int], Callable[[Sequence[Card]], bool], int, frozenset[str], bool,
                 "dict[tuple[int, ...], _Bucket] | None"]

_ASKED: dict[int, tuple[object, object, dict[int, bool]]] = {}
"""By the kinds' dictionary (the last few): whether the first ``kinds`` kinds' shapes list
sequences, by ``kinds`` (a contract's listing asks it at every listing)."""


def lists_sequences(rules: MeldRules, kinds: int) -> bool:
    """Whether some shape of the first ``kinds`` kinds is a sequence's (kept, :data:`_ASKED`)."""
    asked = kept(_ASKED, rules.kinds, 16, dict)
    listed = asked.get(kinds)
    if listed is None:
        listed = asked[kinds] = any(shape.family == "sequence" for shape in list(rules.shapes.values())[:kinds])
    return listed

_LISTINGS: dict[int, tuple[object, _Listing]] = {}


def _listing(rnd: Round) -> _Listing:
    """What :func:`single_melds` keeps for a variant's kinds: whether each group (by its
    face code, :func:`_face_codes`) forms a kind, as judged so far; the shape test
    (:func:`_shape_test`); the smallest size a kind allows; the shape families;
    whether every sequence kind keeps one suit; and the melds of each bucket of a hand
    with wild cards, as listed so far (:func:`_wild_melds`). Kept by the kinds' dictionary, which
    the solvers of one variant's deals share (``with_contract``), so that a hand's
    groups are judged once a game, not at every listing; the last few kept."""
    kinds = rnd.rules.kinds
    got = _LISTINGS.get(id(kinds))
    if got is None or got[0] is not kinds:
        shapes = rnd.rules.shapes.values()
        low = max(1, min((shape.min_size for shape in shapes), default=3))
        families = frozenset(shape.family for shape in shapes)
        one_suit = all(shape.same_suit for shape in shapes if shape.family == "sequence")
        if len(_LISTINGS) >= 16:
            _LISTINGS.pop(next(iter(_LISTINGS)))
        got = _LISTINGS[id(kinds)] = (kinds, ({}, _shape_test(rnd), low, families, one_suit, {}))
    return got[1]


_LISTING = _listing
"""The listing's own :func:`_listing` (:data:`_FAST` is read only while it is the one in use:
the tests' plain listing puts another in its place)."""


def _shape_test(rnd: Round) -> Callable[[Sequence[Card]], bool]:
    """A quick necessary condition for a group to form a kind, from the kinds' shapes
    (each a necessary condition, :class:`~rummydsl.melds.KindShape`): its size within
    some kind's bounds, and its natural cards of one rank (``same_rank``), or of one
    suit where the shape keeps one, at distinct sequence positions in a window no
    longer than the group (``sequence``; a card of several positions, an ace low or
    high, at one of them). The patterns still decide; a kind of no known shape, cards
    of no position and wrapping decks pass."""
    positions = rnd.positions
    shapes = [(shape.family, shape.min_size, shape.max_size, shape.same_suit)
              for shape in rnd.rules.shapes.values()]
    if any(family == "any" for family, _, _, _ in shapes):
        return lambda group: True
    deck = rnd.variant.deck
    several = {} if positions is None else {  # the positions of each natural card of several (by id)
        card.id: tuple(deck.sequence_positions(card.rank)) for card in deck.cards
        if not card.wild and card.rank is not None and positions[card.id] < 0}

    def may_form(group: Sequence[Card]) -> bool:
        size = len(group)
        naturals = [c for c in group if not c.wild]
        for family, low, high, same_suit in shapes:
            if size < low or (high is not None and size > high):
                continue
            if not naturals:
                return True
            ranks = [c.rank.order if c.rank is not None else None for c in naturals]
            if None in ranks:
                return True
            if family == "same_rank":
                if ranks.count(ranks[0]) == len(ranks):
                    return True
                continue
            if same_suit:
                suits = [c.suit.index if c.suit is not None else None for c in naturals]
                if None in suits:
                    return True
                if suits.count(suits[0]) != len(suits):
                    continue
            if positions is None:
                return True
            spots = [positions[c.id] for c in naturals]
            if -1 in spots:  # a card of several positions takes one of them (or of none: it passes)
                if _placed(spots, [several.get(c.id, ()) for c in naturals], size):
                    return True
                continue
            if len(set(spots)) == len(spots) and max(spots) - min(spots) < size:
                return True
        return False

    return may_form


def _placed(spots: Sequence[int], choices: Sequence[tuple[int, ...]], size: int) -> bool:
    """Whether cards at ``spots`` (-1 for a card whose positions are its ``choices``; a card
    of none passes) can take distinct positions in a window of ``size``, each one of its own."""
    if any(spot < 0 and not choice for spot, choice in zip(spots, choices)):
        return True
    for spread in itertools.product(*[choice if spot < 0 else (spot,) for spot, choice in zip(spots, choices)]):
        if len(set(spread)) == len(spread) and max(spread) - min(spread) < size:
            return True
    return False


def _wild_groups(rnd: Round, cards: Sequence[Card], low: int) -> Iterator[tuple[Card, ...]]:
    """Groups of up to :data:`MAX_LISTED` cards of a hand with wild cards, by the kinds'
    shapes: natural cards of one rank (a same-rank kind) or of one suit (a sequence
    kind that keeps one suit; any naturals otherwise), each with 0, 1, 2 ... of the
    wild cards (the wild cards are taken in hand order: they stand for any card)."""
    wilds = [c for c in cards if c.wild]
    buckets = _buckets(rnd, [c for c in cards if not c.wild])
    for bucket in buckets:
        for chosen, extra in _bucket_groups(bucket, len(wilds), low):
            yield (*chosen, *wilds[:extra])
    for size in range(low, min(len(wilds), MAX_LISTED) + 1):  # wild cards alone, where a kind allows it
        yield tuple(wilds[:size])


def _wild_melds(rnd: Round, cards: Sequence[Card], low: int, memo: dict[int, int],
                may_form: Callable[[Sequence[Card]], bool],
                buckets: dict[tuple[int, ...], _Bucket], kinds: int | None = None,
                bits: list[int] | None = None) -> list[tuple[Card, ...]]:
    """The melds among :func:`_wild_groups` (a hand with wild cards, whose meanings read
    no hand), each once, in its order, found bucket by bucket.

    A bucket's groups are its natural cards with 0, 1, 2 ... of the hand's wild cards,
    and whether one forms a kind depends on its natural cards and how many wild cards
    it holds, not which (wild cards are interchangeable), so the melds of a bucket are
    kept by its cards' faces in order (copies of a face from another pack alike) and the
    hand's count of wild cards, as places in the bucket: from one turn to the next a hand
    changes a card or two, and only the buckets holding them are listed again. With
    ``bits``, each meld's kinds (``kinds_bits``) are put there in order."""
    rules = rnd.rules
    kinds_bits = rules.kinds_bits
    wilds = [c for c in cards if c.wild]
    naturals = [c for c in cards if not c.wild]
    count = len(wilds)
    found: list[tuple[Card, ...]] = []
    seen: set[int] = set()
    faces = _face_codes(rnd.variant.deck)
    wild_face = faces[wilds[0].id] if wilds else 0
    tails = [tuple(wilds[:extra]) for extra in range(count + 1)]  # (a group's wild cards: the first ones)
    for bucket in _buckets(rnd, naturals, kinds):
        pattern = (*(faces[card.id] for card in bucket), count)
        melds = buckets.get(pattern)
        if melds is None:
            if len(buckets) >= _BUCKETS_LIMIT:
                buckets.clear()
            listed = []
            face_at = pattern.__getitem__
            for chosen in _viable_places(rnd, bucket):
                size = len(chosen)
                natural = sum(map(face_at, chosen))
                top = MAX_LISTED - size  # the most wild cards with them
                if count < top:
                    top = count
                for extra in range(low - size if size < low else 0, top + 1):
                    face = natural + extra * wild_face
                    forms = memo.get(face)
                    if forms is None:  # judged the first time (the group built only then)
                        forms = _forms(memo, face, (*map(bucket.__getitem__, chosen), *tails[extra]), may_form,
                                       kinds_bits)
                    if forms:
                        listed.append((chosen, extra, forms))
            melds = buckets[pattern] = tuple(listed)
        id_at = [1 << card.id for card in bucket].__getitem__
        card_at = bucket.__getitem__
        for chosen, extra, kinds_of in melds:
            pair = sum(map(id_at, chosen)) << 3 | extra  # the natural cards' ids, a bit each, then the wild cards
            if pair not in seen:
                seen.add(pair)
                found.append((*map(card_at, chosen), *tails[extra]))
                if bits is not None:
                    bits.append(kinds_of)
    for size in range(low, min(count, MAX_LISTED) + 1):  # wild cards alone, where a kind allows it
        group = tuple(wilds[:size])
        if size not in seen and may_form(group):
            alone = kinds_bits(group)
            if alone:
                seen.add(size)
                found.append(group)
                if bits is not None:
                    bits.append(alone)
    return found


#: The most buckets :func:`_wild_melds` keeps listed for one set of kinds (then it starts again).
_BUCKETS_LIMIT = 1 << 16


def _sequences(rnd: Round, cards: Sequence[Card], low: int, one_suit: bool = False,
               high: int | None = None) -> Iterator[tuple[Card, ...]]:
    """Groups of one card per position over windows of consecutive sequence positions
    (of at most ``high`` positions, when given).

    With ``one_suit`` (every sequence kind keeps one suit, and every other kind is of
    one rank, which no group of distinct positions is) only the groups of one suit,
    in the order of the whole product: the first card's suit, then that suit's cards
    at each further position.
    """
    deck = rnd.variant.deck
    at: dict[int, list[Card]] = {}
    for card in cards:
        assert card.rank is not None
        for position in deck.sequence_positions(card.rank):
            at.setdefault(position, []).append(card)
    for start in sorted(at):
        window: list[list[Card]] = []
        position = start
        while position in at and (high is None or len(window) < high):
            window.append(at[position])
            position += 1
        yield from sequence_windows(window, low, one_suit)
