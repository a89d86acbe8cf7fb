"""The contract's listing: every lay-down from a hand that meets the deal's contract
(SK-5, CR-2), each once, in the order the legal actions list them.

A depth-first search over the disjoint single melds of the hand (:mod:`.meldlist`'s
groups), judged by the multiset of the melds' shapes, which is worked out once per
contract and kept across listings. The lay-downs listed, and their order, are those
of the plain search (tests/engine/test_contract_listing.py). Split from
:mod:`.meldlist`, which lists the single melds it searches over.
"""

from __future__ import annotations

import itertools
import operator
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ...cards import Card
from ...errors import RummyDslError
from ..actions import Meld, Melds
from .contractfit import kinds_used, may_meet
from .contractgrown import _apart, grown_candidates, in_order
from .keep import kept
from .meldbuckets import face_codes as _face_codes
from .meldlist import _judged_melds

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["contract_bounds"]


def contract_bounds(rnd: Round, hand: Sequence[Card]) -> tuple[int, int, int, int]:
    """The deal's contract read as bounds on a lay-down of ``hand``: the fewest and most
    melds, and the smallest and biggest meld, from the contract's facts where it states
    them (else one meld, the rules' ``contract_max_melds`` or four, one card, the hand)."""
    contract = rnd.variant.contract
    assert contract is not None
    facts = getattr(contract.melds, "facts", None)
    fewest = getattr(facts, "min_melds", 1)
    most = getattr(facts, "max_melds", None) or rnd.rules.contract_max_melds or 4
    small = getattr(facts, "min_size", 1)
    big = getattr(facts, "max_size", None) or len(hand)
    return fewest, most, small, big


def _contract_melds(rnd: Round, player: int) -> list[Meld]:
    """Every lay-down from this hand that meets the contract (SK-5), each once.

    A depth-first search over disjoint candidate melds (the hand's single melds of the
    sizes the contract's facts allow), bounded by how many melds it takes; a collection
    is listed when it meets the contract for some choice of its melds' kinds. A contract
    reads only each meld's kind and size (and the round), so a collection is judged as
    its multiset of ``(kinds, size)`` shapes: which multisets the hand's shapes allow
    meet it, and which are part of one that does, is worked out once per multiset of
    shapes the candidates have (:func:`_shape_targets`, kept across listings), and the
    search enters only branches part of one. A hand whose counts rule every lay-down out
    (:func:`~.contractfit.may_meet`) builds no group at all, and one whose candidates
    hold no ``fewest`` disjoint ones (:func:`_apart`) judges no shape. The lay-downs listed, and
    their order, are those of the whole search (tests/engine/test_contract_listing.py).
    """
    hand = rnd.hands[player]
    lasts = kept(_LASTS, rnd.rules, 32, dict)
    bounds = lasts.get(len(hand))
    if bounds is None:
        fewest, most, small, big = contract_bounds(rnd, hand)
        used = kinds_used(rnd, len(hand), fewest, most, small, big)
        bounds = lasts[len(hand)] = (fewest, most, small, big, None if used is None else max(
            (j for j, use in enumerate(used) if use), default=-1) + 1)
    fewest, most, small, big, last = bounds
    grown = grown_candidates(rnd, player, hand, small, big, last, max(fewest, 1)) if big < len(hand) else None
    if grown is not None:  # the candidates grown from the player's last listing (contractgrown.py)
        if not grown[1]:
            return []  # every lay-down listed holds ``fewest`` disjoint candidates: none here
        entries = in_order(rnd, grown[0], grown[1])
        candidates = list(map(_group_of, entries))
        masks = list(map(_mask_of, entries))
        shapes: list[Any] = [entry[2] << 8 | entry[4] for entry in entries]  # (kinds, size) as an int
        count = len(candidates)
        holders = [0] * (max(masks).bit_length())
        bit = 1
        for group in candidates:
            for card in group:
                holders[card.id] |= bit
            bit <<= 1
    else:
        if not may_meet(rnd, hand, fewest, most, small, big):
            return []
        listed_groups, judged = _judged_melds(rnd, hand, big, last)
        keep = [i for i, group in enumerate(listed_groups) if small <= len(group)]
        candidates = [listed_groups[i] for i in keep]
        if not candidates:
            return []
        # each candidate's cards (a bit a card id), and the candidates after each that share
        # no card with it (a bit each): those after it less those that hold one of its cards
        count = len(candidates)
        holders = [0] * len(_face_codes(rnd.variant.deck))  # (a code a face, by card id)
        masks = []
        for j, group in enumerate(candidates):
            bit = 1 << j
            mask = 0
            for card in group:
                cid = card.id
                mask |= 1 << cid
                holders[cid] |= bit
            masks.append(mask)
        shapes = [judged[i] << 8 | len(group) for i, group in zip(keep, candidates)]
    full = (1 << count) - 1
    after = []
    for i, group in enumerate(candidates):
        clash = (2 << i) - 1
        for card in group:
            clash |= holders[card.id]
        after.append(full & ~clash)
    if grown is None and fewest > 1 and not _apart(after, full, fewest):
        return []  # every lay-down listed holds ``fewest`` disjoint candidates (the grown: told above)
    rules = rnd.rules
    meets = rules.contract  # judged in this round (a contract by deal, CR-2)
    assert meets is not None
    # with several packs, copies of a face make the same lay-down twice: it is listed once,
    # by its text (the action's, but for the player's name, which is the same throughout);
    # a hand whose cards all read differently lists no text twice
    deck = rnd.variant.deck
    faces = _face_codes(deck)  # (a code a face, by card id: copies of a face share one)
    distinct = _one_card_a_face(deck, faces) or len({faces[card.id] for card in hand}) == len(hand)
    # each shape (its kinds, its size) a field of a packed count, shapes in sorted order:
    # the same multiset of shapes packs to the same int in every hand
    kinds: list[list[str]]
    width = max(most, 1).bit_length() + 1  # (a shape's count, at most ``most``, in a field this wide)
    said: dict[tuple[int, ...], int] | None = None
    if rules.wild_unique_card:  # its wild cards' meanings read the hand
        kinds = [sorted(rules.kinds_of(group, hand=hand)) for group in candidates]
        shapes = [(tuple(kinds[i]), len(candidates[i])) for i in range(len(candidates))]
        shape_list = [(*shape, shape) for shape in sorted(set(shapes))]
    else:  # the kinds the listing judged (by the groups' faces, as kinds_bits reads them)
        # what the shapes' answer came to the last time the hand's shapes came in these
        # numbers (at most ``most`` each): no lay-down, each collection, or the search
        tally: dict[int, int] = {}
        for shape in shapes:
            tally[shape] = tally.get(shape, 0) + 1
        said = kept(_SAID, rules, 32, dict, meets)
        said_key = (fewest, most, *sorted([shape << width | min(n, most) for shape, n in tally.items()]))
        answer = said.get(said_key)
        if answer is not None:
            if answer == _NONE:
                return []
            if answer == _EACH and distinct:
                found: list[Meld] = []
                _every_disjoint(found, player, candidates, after, full, fewest, most)
                return found
        names: dict[int, tuple[str, ...]] = kept(_NAMES, rules, 32, dict)
        shape_list = []
        for shape in tally:
            got = names.get(shape >> 8)
            if got is None:
                got = names[shape >> 8] = tuple(sorted(name for j, name in enumerate(rules.kind_names)
                                                       if shape >> 8 >> j & 1))
            shape_list.append((got, shape & 255, shape))
        shape_list.sort()
        kinds = []  # (built only for a contract that fails on some shapes, below)
    shape_at = {shape[-1]: sid for sid, shape in enumerate(shape_list)}
    sids = [shape_at[shape] for shape in shapes]
    codes = [1 << (width * sid) for sid in sids]
    avail = [0] * len(shape_list)
    first = [-1] * len(shape_list)
    for i, sid in enumerate(sids):
        avail[sid] += 1
        if first[sid] < 0:
            first[sid] = i
    try:
        targets, parts, every = _shape_targets(meets, [shape[:2] for shape in shape_list],
                                               [min(count, most) for count in avail], fewest, most, width,
                                               [candidates[i] for i in first])
    except RummyDslError:  # the contract failed on some shapes: judge every collection, to meet it there
        if not kinds:
            kinds = [list(shape_list[sid][0]) for sid in sids]
        return list(_every_collection(player, candidates, kinds, masks, codes, meets, fewest, most))
    if said is not None:
        if len(said) >= _SAID_LIMIT:
            said.clear()
        said[said_key] = _NONE if not targets else _EACH if every else _SEARCH
    if not targets:
        return []
    if distinct and every:  # every collection of fewest to most disjoint candidates, each listed
        found = []
        _every_disjoint(found, player, candidates, after, full, fewest, most)
        return found
    listed: set[str] = set()
    texts: list[str | None] = [None] * len(candidates)

    def text_of(i: int) -> str:
        got = texts[i]
        if got is None:
            got = texts[i] = "[" + " ".join(str(card) for card in candidates[i]) + "]"
        return got

    found = []

    def emit(chosen: tuple[int, ...], picked: Melds) -> None:
        if distinct:
            found.append(Meld(player, picked))
        else:
            text = " ".join([text_of(i) for i in chosen])
            if text not in listed:
                listed.add(text)
                found.append(Meld(player, picked))

    def search(free: int, chosen: tuple[int, ...], picked: Melds, key: int) -> None:
        """``free``: the candidates that may join ``chosen`` (after its last, sharing no
        card); ``picked``: the groups of ``chosen``."""
        if key in targets:
            emit(chosen, picked)
        depth = len(chosen) + 1
        if depth > most:
            return
        if depth == most:  # the last meld: a lay-down with it is listed or not, nothing below it
            while free:
                low = free & -free
                free ^= low
                i = low.bit_length() - 1
                if key + codes[i] in targets:  # (every target is a part of one)
                    if distinct:
                        found.append(Meld(player, (*picked, candidates[i])))
                    else:
                        emit((*chosen, i), (*picked, candidates[i]))
            return
        while free:
            low = free & -free
            free ^= low
            i = low.bit_length() - 1
            if key + codes[i] in parts:
                rest = free & after[i]
                if depth < fewest and rest.bit_count() < fewest - depth:
                    continue  # too few disjoint candidates left to reach the fewest melds
                search(rest, (*chosen, i), (*picked, candidates[i]), key + codes[i])

    search((1 << count) - 1, (), (), 0)
    del search  # the recursion's cell holds the function: freed now, not by the cycle collector
    return found


def _every_disjoint(found: list[Meld], player: int, candidates: Sequence[tuple[Card, ...]], after: Sequence[int],
                    free: int, fewest: int, most: int) -> None:
    """:func:`_contract_melds`' search where every collection of ``fewest`` (at least one)
    to ``most`` disjoint candidates meets the contract, and no two lay-downs read alike:
    each collection of ``free`` (a bit a candidate; ``after``: each candidate's later ones
    that share no card with it), in the search's order, onto ``found``. The shapes are not
    asked; the first three melds are taken in loops in one call (each lay-down's tuple
    built whole, its ``Meld`` by the slots, inline), the rest by :func:`_every_deeper`."""
    new, set_player, set_melds, append = _new, _set_player, _set_melds, found.append
    while free:
        low = free & -free
        free ^= low
        i = low.bit_length() - 1
        first = candidates[i]
        rest = free & after[i]
        if fewest <= 1:
            meld = new(Meld)
            set_player(meld, player)
            set_melds(meld, (first,))
            append(meld)
        elif rest.bit_count() < fewest - 1:
            continue  # too few disjoint candidates left to reach the fewest melds
        if most < 2:
            continue
        while rest:
            low = rest & -rest
            rest ^= low
            j = low.bit_length() - 1
            second = candidates[j]
            last = rest & after[j]
            if fewest <= 2:
                meld = new(Meld)
                set_player(meld, player)
                set_melds(meld, (first, second))
                append(meld)
            elif not last or fewest > 3 and last.bit_count() < fewest - 2:
                continue
            if most < 3:
                continue
            if most == 3:  # the last meld (each collection listed, most >= fewest)
                while last:
                    low = last & -last
                    last ^= low
                    meld = new(Meld)
                    set_player(meld, player)
                    set_melds(meld, (first, second, candidates[low.bit_length() - 1]))
                    append(meld)
                continue
            while last:
                low = last & -last
                last ^= low
                k = low.bit_length() - 1
                more = last & after[k]
                picked = (first, second, candidates[k])
                if fewest <= 3:
                    append(_meld(player, picked))
                elif more.bit_count() < fewest - 3:
                    continue
                _every_deeper(found, player, candidates, after, more, picked, fewest, most)


def _every_deeper(found: list[Meld], player: int, candidates: Sequence[tuple[Card, ...]], after: Sequence[int],
                  free: int, picked: Melds, fewest: int, most: int) -> None:
    """:func:`_every_disjoint` past its third meld: each collection that holds ``picked``
    and more of ``free``, in the search's order, onto ``found``; the last meld in a loop."""
    depth = len(picked) + 1  # the melds of the collections made with one more of ``free``
    if depth > most:
        return
    while free:
        low = free & -free
        free ^= low
        i = low.bit_length() - 1
        with_i = (*picked, candidates[i])
        if depth == most:
            found.append(_meld(player, with_i))
            continue
        rest = free & after[i]
        if depth >= fewest:
            found.append(_meld(player, with_i))
        elif rest.bit_count() < fewest - depth:
            continue  # too few disjoint candidates left to reach the fewest melds
        _every_deeper(found, player, candidates, after, rest, with_i, fewest, most)


_mask_of = operator.itemgetter(0)  # (an entry's cards, and its group: contractgrown.Entry)
_group_of = operator.itemgetter(1)

_new = object.__new__
_set_player = Meld.__dict__["player"].__set__  # (the slots' descriptors)
_set_melds = Meld.__dict__["melds"].__set__


def _meld(player: int, melds: Melds) -> Meld:
    """``Meld(player, melds)``, built by its slots (a frozen dataclass's ``__init__`` sets
    each field through ``object.__setattr__``: 0.8 µs against 0.3 here, and a contract
    listing builds 32 of them on average where it lists any)."""
    meld = _new(Meld)
    _set_player(meld, player)
    _set_melds(meld, melds)
    return meld


def _every_collection(player: int, candidates: Sequence[tuple[Card, ...]], kinds: Sequence[Sequence[str]],
                      masks: Sequence[int], codes: Sequence[int], meets: Callable[..., Any], fewest: int,
                      most: int) -> Iterator[Meld]:
    """:func:`_contract_melds`'s search entering every branch, each collection judged
    (once per multiset of shapes), for a contract that fails on some shapes."""
    seen: dict[int, bool] = {}
    listed: set[str] = set()

    def search(start: int, used: int, chosen: list[int], key: int) -> Iterator[Meld]:
        if len(chosen) >= fewest:
            got = seen.get(key)
            if got is None:
                got = seen[key] = any(
                    meets([(kind, candidates[i]) for kind, i in zip(choice, chosen)])
                    for choice in itertools.product(*(kinds[i] for i in chosen)))
            if got:
                text = " ".join("[" + " ".join(str(card) for card in candidates[i]) + "]" for i in chosen)
                if text not in listed:
                    listed.add(text)
                    yield Meld(player, tuple(candidates[i] for i in chosen))
        if len(chosen) == most:
            return
        for i in range(start, len(candidates)):
            if not masks[i] & used:
                chosen.append(i)
                yield from search(i + 1, used | masks[i], chosen, key + codes[i])
                chosen.pop()

    yield from search(0, 0, [], 0)


_Shape = tuple[tuple[str, ...], int]

#: Per round's solver: by hand size, the contract's bounds on a lay-down
#: (:func:`contract_bounds`: they read the solver's variant and rules alone) and the kinds
#: a contract listing asks for (:func:`_contract_melds`'s ``last``); and each set of kinds
#: (``kinds_bits``) as sorted names.
_LASTS: dict[int, tuple[object, object, dict[int, tuple[int, int, int, int, int | None]]]] = {}
_NAMES: dict[int, tuple[object, object, dict[int, tuple[str, ...]]]] = {}

#: Per round's solver and its contract: what :func:`_contract_melds` made of a hand's
#: shapes (``kinds_bits << 8 | size``) in given numbers (each at most ``most``, a field
#: under its shape, sorted), after the fewest and most melds: no lay-down
#: (:data:`_NONE`), each collection of disjoint candidates (:data:`_EACH`), or the
#: search over the shapes' packed counts (:data:`_SEARCH`).
_SAID: dict[int, tuple[object, object, dict[tuple[int, ...], int]]] = {}
_NONE, _EACH, _SEARCH = 0, 1, 2
_SAID_LIMIT = 1 << 12

#: Per deck: whether no two of its cards share a face code (then every hand's cards
#: read differently).
_DISTINCT: dict[int, tuple[object, bool]] = {}


def _one_card_a_face(deck: object, faces: Sequence[int]) -> bool:
    """Whether no two cards of ``deck`` (``faces``: its face codes, by card id) share a face."""
    got = _DISTINCT.get(id(deck))
    if got is None or got[0] is not deck:
        if len(_DISTINCT) >= 16:
            _DISTINCT.pop(next(iter(_DISTINCT)))
        got = _DISTINCT[id(deck)] = (deck, len(set(faces)) == len(faces))
    return got[1]


#: Per contract predicate: whether each multiset of shapes (sorted) meets it, and the
#: packed multisets that meet it and that are part of one, by the shapes a hand has.
_CONTRACT_MEMO: dict[int, tuple[object, dict[tuple[_Shape, ...], bool],
                                dict[tuple[Any, ...], tuple[frozenset[int], frozenset[int], bool]]]] = {}


def _shape_targets(meets: Callable[..., Any], shape_list: Sequence[_Shape], avail: Sequence[int], fewest: int,
                   most: int, width: int,
                   examples: Sequence[tuple[Card, ...]]) -> tuple[frozenset[int], frozenset[int], bool]:
    """The multisets of the shapes ``shape_list`` (each at most ``avail`` times), packed a
    count per ``width`` bits, that meet the contract ``meets`` with ``fewest`` to ``most``
    melds, every multiset part of one of them (theirs included), and whether every
    multiset of ``fewest`` (at least one) to ``most`` melds meets it; ``examples`` holds a
    group of each shape, for the contract to read. Kept per contract by the shapes and
    their counts; whether a multiset meets the contract is kept across them.

    :raises RummyDslError: when the contract fails on a multiset.
    """
    got = _CONTRACT_MEMO.get(id(meets))
    if got is None or got[0] is not meets:
        if len(_CONTRACT_MEMO) >= 32:
            _CONTRACT_MEMO.pop(next(iter(_CONTRACT_MEMO)))
        got = _CONTRACT_MEMO[id(meets)] = (meets, {}, {})
    shapes_met, by_hand = got[1], got[2]
    key = (tuple(shape_list), tuple(avail), fewest, most)
    found = by_hand.get(key)
    if found is not None:
        return found
    targets: set[int] = set()
    parts: set[int] = set()
    counts = [0] * len(shape_list)
    asked = [0]  # the multisets of fewest to most melds

    def judge() -> bool:
        chosen = [sid for sid, n in enumerate(counts) for _ in range(n)]
        shape_key = tuple(shape_list[sid] for sid in chosen)  # sorted, as shape_list is
        met = shapes_met.get(shape_key)
        if met is None:
            met = shapes_met[shape_key] = any(
                meets([(kind, examples[sid]) for kind, sid in zip(choice, chosen)])
                for choice in itertools.product(*(shape_list[sid][0] for sid in chosen)))
        return met

    def add_parts(sid: int, packed: int) -> None:
        if sid == len(counts):
            parts.add(packed)
            return
        for n in range(counts[sid] + 1):
            add_parts(sid + 1, packed + (n << (width * sid)))

    def walk(sid: int, total: int, packed: int) -> None:
        if sid == len(counts):
            if total >= fewest:
                asked[0] += 1
                if judge():
                    targets.add(packed)
                    add_parts(0, 0)
            return
        for n in range(min(avail[sid], most - total) + 1):
            counts[sid] = n
            walk(sid + 1, total + n, packed + (n << (width * sid)))
        counts[sid] = 0

    walk(0, 0, 0)
    if len(by_hand) >= 1 << 14:
        by_hand.clear()
    found = by_hand[key] = (frozenset(targets), frozenset(parts), fewest >= 1 and len(targets) == asked[0])
    return found
