"""A hand's single melds without wild cards, listed block by block and kept (SK-5, CR-2).

:func:`.meldlist.single_melds` lists a hand's groups rank by rank (the same-rank
kinds), then start position by start position (the sequence kinds), and judges each.
What one rank lists reads only the hand's cards of that rank, and what one start
position lists reads only the cards at the positions from it to the first one the
hand has no card at (or the longest window asked for). From one decision to the next a
hand changes by a card or two, so most of those blocks are the ones the last listing
of the hand worked out: each block's melds are kept by the cards it reads (their ids,
a bit each), and a listing looks its blocks up and puts them together in the order of
the whole listing. The melds listed, and their order, are the whole listing's
(``tests/engine/test_listing_kept.py``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ...cards import Card
from .keep import kept

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["natural_melds", "sequence_windows"]

#: Whether a group forms a kind: its kinds as ``kinds_bits`` gives them (0: none), from
#: the group and its face code.
Judge = Callable[[tuple[Card, ...], int], int]

#: A block's melds in listing order: each group, its kinds (``kinds_bits``) and its
#: cards' ids (a bit each).
_Block = tuple[tuple[tuple[Card, ...], int, int], ...]

#: The most blocks kept for one set of kinds (then they start again).
_BLOCKS_LIMIT = 1 << 16


class _Layout:
    """What a listing reads of each card of a deck, by card id: the card, and for a natural
    card of a rank, the card, its rank's order, its bit and its sequence positions."""

    __slots__ = ("deck", "cards", "entries")

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        cards = list(deck.cards)
        size = max((c.id for c in cards), default=-1) + 1
        self.cards: list[Card | None] = [None] * size
        self.entries: list[tuple[Card, int, int, tuple[int, ...]] | None] = [None] * size
        for card in cards:
            self.cards[card.id] = card
            if card.rank is not None and not card.wild:
                self.entries[card.id] = (card, card.rank.order, 1 << card.id,
                                         tuple(deck.sequence_positions(card.rank)))


_KEPT: dict[int, tuple[object, object, tuple[_Layout, dict[object, _Block]]]] = {}
"""Per kinds' dictionary: the deck, its :class:`_Layout` and the blocks kept (the last few)."""


def _kept(rnd: Round) -> tuple[_Layout, dict[object, _Block]]:
    deck = rnd.variant.deck
    return kept(_KEPT, rnd.rules.kinds, 16, lambda: (_Layout(deck), {}), deck)


def natural_melds(rnd: Round, hand: Sequence[Card], high: int, low: int, same_rank: bool, sequences: bool,
                  one_suit: bool, judge: Judge, faces: Sequence[int]
                  ) -> tuple[list[tuple[Card, ...]], list[int]] | None:
    """The melds of ``hand`` (no wild card in it) of ``low`` to ``high`` cards and their
    kinds, as :func:`.meldlist._judged_melds` lists them: the same-rank groups (with
    ``same_rank``), then the sequences (with ``sequences``; of one suit where
    ``one_suit``), each group once, in the whole listing's order. ``judge`` judges a group
    the first time a block holding it is listed; ``faces`` is each card's share of a
    group's face code. None for a hand this cannot list (a card of no rank, or not the
    deck's own card object): list it group by group."""
    if high < low:  # (its caller asks meldless.no_meld first)
        return [], []
    layout, blocks = _kept(rnd)
    deck_cards, entries = layout.cards, layout.entries
    size = len(entries)
    by_rank: dict[int, int] = {}
    at: dict[int, int] = {}
    suited = one_suit
    for card in hand:
        cid = card.id
        entry = entries[cid] if cid < size else None
        if entry is None or entry[0] is not card:
            return None  # a wild card, a card of no rank, or not the deck's own card
        _, rank, bit, spots = entry
        by_rank[rank] = by_rank.get(rank, 0) | bit
        if sequences:
            for spot in spots:
                at[spot] = at.get(spot, 0) | bit
        if card.suit is None:
            suited = False
    found: list[tuple[Card, ...]] = []
    bits: list[int] = []
    seen: set[int] = set()
    if same_rank:
        # a rank's groups come in the order of its lowest card id in the hand
        for mask in sorted([m for m in by_rank.values() if m.bit_count() >= low], key=lambda m: m & -m):
            cap = min(mask.bit_count(), high)
            key: object = (mask, cap)
            block = blocks.get(key)
            if block is None:
                block = _store(blocks, key, _rank_block(deck_cards, mask, low, cap, judge, faces))
            _emit(block, found, bits, seen)
    if sequences and at:
        # the starts of windows of ``low`` or more held positions: in each run of held
        # positions from ``first`` to ``last``, those up to ``last - low + 1``
        held_spots = sorted(at)
        i = 0
        while i < len(held_spots):
            first = last = held_spots[i]
            i += 1
            while i < len(held_spots) and held_spots[i] == last + 1:
                last += 1
                i += 1
            for start in range(first, last - low + 2):
                end = min(last, start + high - 1)
                cards = 0
                for spot in range(start, end + 1):
                    cards |= at[spot]
                key = (start, end, cards, suited)
                block = blocks.get(key)
                if block is None:
                    held = [_cards_of(deck_cards, at[spot]) for spot in range(start, end + 1)]
                    block = _store(blocks, key, _judged(sequence_windows(held, low, suited), judge, faces))
                _emit(block, found, bits, seen)
    return found, bits


def _store(blocks: dict[object, _Block], key: object, block: _Block) -> _Block:
    if len(blocks) >= _BLOCKS_LIMIT:
        blocks.clear()
    blocks[key] = block
    return block


def _emit(block: _Block, found: list[tuple[Card, ...]], bits: list[int], seen: set[int]) -> None:
    """Put a block's melds after the listing's so far, each group once."""
    for group, kinds, ids in block:
        if ids not in seen:
            seen.add(ids)
            found.append(group)
            bits.append(kinds)


def _cards_of(deck_cards: Sequence[Card | None], mask: int) -> list[Card]:
    """The cards of ``mask`` (a bit a card id), in id order."""
    out = []
    while mask:
        low = mask & -mask
        card = deck_cards[low.bit_length() - 1]
        assert card is not None
        out.append(card)
        mask ^= low
    return out


def _rank_block(deck_cards: Sequence[Card | None], mask: int, low: int, cap: int, judge: Judge,
                faces: Sequence[int]) -> _Block:
    """The melds among one rank's cards ``mask``: its groups of ``low`` to ``cap`` cards."""
    same = _cards_of(deck_cards, mask)
    return _judged(itertools.chain.from_iterable(itertools.combinations(same, size)
                                                 for size in range(low, cap + 1)), judge, faces)


def sequence_windows(held: Sequence[Sequence[Card]], low: int, one_suit: bool) -> Iterator[tuple[Card, ...]]:
    """The sequences from one start position: ``held`` has the hand's cards at that
    position and each one after it (in id order), and the groups are one card a position
    over windows from the start of ``low`` or more positions, shortest first, each in the
    order of the whole product (:func:`.meldlist._sequences` lists every start's so). With
    ``one_suit``, only the groups of one suit: the first card's suit, then that suit's
    cards at each further position."""
    ids = [c.id for spot in held for c in spot]
    repeated = len(set(ids)) < len(ids)  # a card at two positions (an ace both low and high)
    for size in range(low, len(held) + 1):
        window = held[:size]
        if one_suit:
            choices: Iterator[tuple[Card, ...]] = (
                (first, *rest) for first in window[0] for rest in itertools.product(*(
                    [c for c in spot if c.suit.index == first.suit.index]  # type: ignore[union-attr]
                    for spot in window[1:])))
        else:
            choices = itertools.product(*window)
        if not repeated:  # one card a position, no card twice: every choice is a group
            yield from choices
            continue
        for choice in choices:
            if len({c.id for c in choice}) == len(choice):
                yield tuple(choice)


def _judged(groups: Iterator[tuple[Card, ...]], judge: Judge, faces: Sequence[int]) -> _Block:
    """The groups that form a kind, each with its kinds and its cards' ids."""
    out = []
    for group in groups:
        ids = 0
        face = 0
        for card in group:
            ids |= 1 << card.id
            face += faces[card.id]
        kinds = judge(group, face)
        if kinds:
            out.append((group, kinds, ids))
    return tuple(out)
