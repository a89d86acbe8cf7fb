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

from ..cards import Card
from .core import LayoffTarget, MeldCore, WorkBoundError
from .search import HandSearch
from .wildwindows import WILDS_MOST, windows_of

__all__ = ["discard_deadwoods", "parts_deadwood", "parts_discards"]


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
    by their parts (:meth:`.wildwindows.WildWindows.discards_within`): the natural cards
    whose discard leaves at most ``limit`` least deadwood, and whether a wild card's does;
    unchecked, as :func:`parts_deadwood`; None where the parts do not answer it."""
    natural = mask & rules._natural_mask
    w = (mask ^ natural).bit_count()
    if not natural or not w or w > WILDS_MOST or not (wild := windows_of(rules)):
        return None
    try:
        return wild.discards_within(natural, w, limit)
    except WorkBoundError as problem:
        raise rules._work_error(problem, mask.bit_count()) from None
