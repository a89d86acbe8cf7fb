"""The knock question asked of every card: the least deadwood after each discard.

A player weighing a card from the pile against the table asks, for each card it
might then discard, what the rest leaves once melded and laid off; with table melds
that is one search, not one per card (:func:`discard_deadwoods`).

>>> from rummydsl.melds import MeldRules
>>> from rummydsl.variant import load_variant
>>> rules = MeldRules.from_variant(load_variant("rummy"))
>>> discard_deadwoods(rules, "7H 7D 7C 8C 9C KS", [rules.check_hand("8D 9D TD")])
(10, 17, 34, 19, 18, 7)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import add

from ..cards import Card
from .core import LayoffTarget, MeldCore, WorkBoundError, bits_of
from .search import HandSearch
from .partsearch import PART_MOST
from .wildshares import _NONE, INFINITE, WILDS_MOST, _combine
from .wildwindows import WildWindows, windows_of

__all__ = ["discard_deadwoods", "parts_deadwood", "parts_discards", "parts_knock"]


def discard_deadwoods(rules: MeldCore, cards: Iterable[Card | str] | str,
                      table: Sequence[LayoffTarget | Sequence[Card]]) -> tuple[int, ...] | None:
    """The least deadwood left after discarding each card of ``cards`` in turn (in
    their order), melding and laying off onto the ``table`` melds as
    ``MeldRules.solve(rest, table=table)`` does, from one search: its candidate melds
    and table extensions are listed once, and each card's discard then places the
    rest. Without table melds, a hand with wild cards is answered by its parts
    (:mod:`.wildwindows`: each part's least deadwood with and without each of its
    cards, kept per solver). None where neither answers it: no table melds and no wild
    cards or no wild windows (the per-suit and deck tables answer each discard
    faster), or wild cards whose meanings depend on the hand (``wild_unique_card``).

    The table melds are taken as they are (a position of play: no card twice).

    :raises CardError: for bad cards.
    :raises MeldError: past the solver's work bound, or for a table meld sharing a
        card with the hand.
    """
    hand, mask = rules._check(cards)
    if not table:
        return _wild_discards(rules, hand, mask)
    if (rules.wild_unique_card and (
            any(c.wild for c in hand) or any(c.wild for t in table
                                             for c in (t.cards if isinstance(t, LayoffTarget) else t)))):
        return None
    try:
        search = HandSearch(rules, hand, table, True)
        full = (1 << search.n) - 1
        local = {cid: i for i, cid in enumerate(search.natural_ids)}
        unit = search.deadwood_unit
        out = []
        for card in hand:  # the discard made first: the rest placed with no discard left
            if card.wild:
                cost = search.least_cost(full, search.wild_count - 1, 0, 1)
            else:
                cost = search.least_cost(full ^ 1 << local[card.id], search.wild_count, 0, 1)
            out.append(int(cost // unit))
        return tuple(out)
    except WorkBoundError as problem:
        raise rules._work_error(problem, len(hand)) from None


def _wild_discards(rules: MeldCore, hand: tuple[Card, ...], mask: int) -> tuple[int, ...] | None:
    """:func:`discard_deadwoods` of a hand with wild cards and no table, by the wild windows."""
    windows = windows_of(rules)
    natural = mask & rules._natural_mask
    w = (mask ^ natural).bit_count()
    if not windows or not natural or not w or w > WILDS_MOST:
        return None
    try:
        each, wild = windows.discard_deadwoods(natural, w)
    except WorkBoundError as problem:
        raise rules._work_error(problem, len(hand)) from None
    assert wild is not None
    return tuple(wild if card.wild else each[card.id] for card in hand)


def parts_deadwood(rules: MeldCore, mask: int, *, discard: bool = False) -> int | None:
    """``rules.min_deadwood`` of the cards of card-id mask ``mask`` by their parts where they
    hold a wild card (:mod:`.wildwindows`: what ``min_deadwood`` answers such a hand with),
    unchecked (the caller holds the deck's own cards, as for ``MeldRules.table_deadwood``),
    else None (no wild card, or the parts do not apply)."""
    if not mask & ~rules._natural_mask or not (wild := windows_of(rules)):
        return None
    try:
        return wild.least(mask, discard)
    except WorkBoundError as problem:
        raise rules._work_error(problem, mask.bit_count()) from None


def parts_discards(rules: MeldCore, mask: int, limit: int) -> tuple[set[int], bool] | None:
    """The knock question of the cards of card-id mask ``mask`` where they hold a wild card,
    by their parts (:func:`_within`): the natural cards
    whose discard leaves at most ``limit`` least deadwood, and whether a wild card's does;
    unchecked, as :func:`parts_deadwood`; None where the parts do not answer it."""
    asked = parts_knock(rules, mask, limit, INFINITE)
    return None if asked is None else (asked[1] or set(), asked[2])


def parts_knock(rules: MeldCore, mask: int, limit: int, reach: int) -> tuple[int, set[int] | None, bool] | None:
    """:func:`parts_deadwood` and :func:`parts_discards` of the cards of card-id mask
    ``mask`` in one pass over their parts, as the knock listing asks them: the hand's
    least deadwood; unless it is more than ``limit + reach`` (``reach``: the most a
    discard may lower it, a card's highest value), the natural cards whose discard leaves
    at most ``limit``, else None; and whether a wild card's discard does (False with
    None). None where the parts do not answer it (no natural card or no wild card, more
    than :data:`~.wildwindows.WILDS_MOST` wild cards, or no wild windows)."""
    natural = mask & rules._natural_mask
    w = (mask ^ natural).bit_count()
    if not natural or not w or w > WILDS_MOST or not (wild := rules._wild_state or windows_of(rules)):
        return None
    try:
        return _within(wild, natural, w, limit, reach)
    except WorkBoundError as problem:
        raise rules._work_error(problem, mask.bit_count()) from None


def _within(windows: WildWindows, mask: int, w: int, limit: int,
            reach: int = INFINITE) -> tuple[int, set[int] | None, bool]:
    """The least deadwood of the natural cards of ``mask`` (at least one) with ``w`` wild
    cards; unless it is more than ``limit + reach``, the natural cards whose discard
    leaves at most ``limit`` least deadwood (else None); and whether discarding a wild
    card does: the knock listing's question. Discarding a card lowers the least
    deadwood by at most its value (add it back unmatched to an arrangement of the rest),
    so only the cards of value at least the hand's least deadwood less ``limit`` are
    asked, and only their parts' discards are searched
    (:meth:`~.wildwindows.WildWindows.costs`).

    :raises WorkBoundError: past a part search's work bound.
    """
    parts = windows.parts(mask, w)
    kept = windows.memo.get
    vector = windows.vector
    if w == 1:  # as _discard_deadwoods_one (:func:`~.wildshares._gains` folded in), for the cards asked
        got = []
        total = 0
        first = second = INFINITE
        for part in parts:  # (the parts' kept costs read in the same loop: no list built first)
            costs = kept(part << 3 | 1) or vector(part, 1)
            got.append(costs)
            a, b = costs
            total += a
            gain = b - a
            if gain < first:
                first, second = gain, first
            elif gain < second:
                second = gain
        whole = total + first  # the wild card in the part it gains most in
        if whole - reach > limit:
            return whole, None, False
        worth = windows.worth(whole - limit)  # the cards whose discard could leave the limit
        within: set[int] = set()
        if not worth:  # (most listings within reach: none, the hand too far over the limit)
            return whole, within, total <= limit
        # the part the wild card gains most in (the first of the least gain)
        first_at = next(i for i, (a, b) in enumerate(got) if b - a == first)
        for i, part in enumerate(parts):
            asked = part & worth
            if not asked:
                continue
            each = _discards_of(windows, part, 1, got[i], asked)
            room = limit - total + got[i][0]  # the limit less the other parts, no wild card
            # the wild card in the best other part (no other part: INFINITE, past any deadwood)
            room0 = room - (second if i == first_at else first)
            while asked:
                low = asked & -asked
                asked ^= low
                cid = low.bit_length() - 1
                e0, e1 = each[cid]
                if e1 <= room or e0 <= room0:
                    within.add(cid)
        return whole, within, total <= limit
    # a sum's entries below w depend on the entries below w alone, so best[w - 1] is the
    # least with a wild card less; the shares of the parts before each only where a discard is asked
    got = []
    if w == 2:  # (_combine written out with no list a part: two wild cards are most of the rest)
        b0, b1, b2 = _NONE[2]
        for part in parts:  # (each part's costs read in the loop that sums them, as above)
            costs = kept(part << 3 | 2) or vector(part, 2)
            got.append(costs)
            v0, v1, v2 = costs
            t = b0 + v1
            u = b1 + v0
            n1 = t if t < u else u
            t = b0 + v2
            u = b1 + v1
            if u < t:
                t = u
            u = b2 + v0
            b0, b1, b2 = b0 + v0, n1, t if t < u else u
        best: Sequence[int] = (b0, b1, b2)
    else:
        best = _NONE[w]
        for part in parts:
            costs = kept(part << 3 | w) or vector(part, w)
            got.append(costs)
            best = _combine(best, costs, w)
    if best[w] - reach > limit:
        return best[w], None, False
    worth = windows.worth(best[w] - limit)
    within = set()
    if not worth:
        return best[w], within, best[w - 1] <= limit
    before: list[Sequence[int]] = []
    after: list[Sequence[int]] = []
    for i, part in enumerate(parts):
        asked = part & worth
        if not asked:
            continue
        if not after:  # the shares of the parts before each and after each, combined
            before.append(_NONE[w])
            for whole_ in got:
                before.append(_combine(before[-1], whole_, w))
            after.append(_NONE[w])
            for whole_ in reversed(got):
                after.append(_combine(after[-1], whole_, w))
            after.reverse()
        each = _discards_of(windows, part, w, got[i], asked)
        others = _combine(before[i], after[i + 1], w)
        others.reverse()  # others[j]: the other parts with w - j wild cards
        for cid in bits_of(asked):
            if min(map(add, others, each[cid])) <= limit:
                within.add(cid)
    return best[w], within, best[w - 1] <= limit


def _discards_of(windows: WildWindows, part: int, w: int, whole: tuple[int, ...], asked: int) -> dict[int, tuple[int, ...]]:
    """The part's least deadwoods without each of the cards ``asked`` (a card-id mask in
    the part) and perhaps others (:meth:`~.wildwindows.WildWindows.discards_of`; ``whole``:
    its least deadwoods), filled in place: from the part's pattern where it has them, else
    from the part's search (kept open), and given to the pattern.

    :raises WorkBoundError: past a part search's work bound.
    """
    each = windows.discards_of(part, w)
    if len(each) == part.bit_count():  # (every discard of the part known: most parts asked)
        return each
    missing = [cid for cid in bits_of(asked) if cid not in each]
    if not missing:
        return each
    if not windows._plain_values or part.bit_count() > PART_MOST:
        return windows.costs(part, w, without=True)[1]
    top = w + 1
    grid = windows.grid
    if grid is None:
        windows.discards_for(part, w, missing, each)
        return each
    ranks = grid[1]
    assert windows.placed is not None
    pattern, _, place = windows.placed(part)  # place: a suit of the part -> its place in the pattern
    kept = windows.patterns.get(pattern)
    if kept is not None and len(kept) >= top:
        theirs = windows.pattern_each[pattern]
        still = []
        for cid in missing:
            vector = theirs.get(place[cid // ranks] * ranks + cid % ranks)
            if vector is None:
                still.append(cid)
            else:
                each[cid] = vector if len(vector) == top else vector[:top]
        if not still:
            return each
        missing = still
    windows.discards_for(part, w, missing, each)
    if kept is None:
        windows._keep_pattern(pattern, (whole, {place[c // ranks] * ranks + c % ranks: v for c, v in each.items()}))
    elif len(kept) == top:
        theirs = windows.pattern_each[pattern]
        for cid in missing:
            theirs[place[cid // ranks] * ranks + cid % ranks] = each[cid]
    return each
