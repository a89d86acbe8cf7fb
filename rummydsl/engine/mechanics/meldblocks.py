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

#: A block's melds in listing order: the groups, their kinds (``kinds_bits``) and their
#: cards' ids (a bit each), and whether some group may be listed by another block too
#: (it holds a card of several sequence positions, or is a single card: :func:`_judged`).
_Block = tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], tuple[int, ...], bool]

#: The most blocks kept for one set of kinds (then they start again).
_BLOCKS_LIMIT = 1 << 16


class _Layout:
    """What a listing reads of each card of a deck, by card id: the card, and for a natural
    card of a rank, the card, its rank's order, its bit and its sequence positions; and the
    cards of several positions (an ace both low and high), a bit each."""

    __slots__ = ("deck", "cards", "entries", "several", "suitless")

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        cards = list(deck.cards)
        size = max((c.id for c in cards), default=-1) + 1
        self.cards: list[Card | None] = [None] * size
        self.entries: list[tuple[Card, int, int, tuple[int, ...]] | None] = [None] * size
        self.several = 0
        self.suitless = 0
        """The natural cards of a rank and no suit, a bit each."""
        for card in cards:
            self.cards[card.id] = card
            if card.rank is not None and not card.wild:
                spots = tuple(deck.sequence_positions(card.rank))
                self.entries[card.id] = (card, card.rank.order, 1 << card.id, spots)
                if len(spots) > 1:
                    self.several |= 1 << card.id
                if card.suit is None:
                    self.suitless |= 1 << card.id


_KEPT: dict[int, tuple[object, object, tuple[_Layout, dict[object, _Block]]]] = {}
"""Per kinds' dictionary: the deck, its :class:`_Layout` and the blocks kept (the last few)."""


_LAST: list[Any] = [None, None, None]
"""The last kinds, deck and what :func:`_kept` gave for them (a game asks of one variant)."""


def _kept(rnd: Round) -> tuple[_Layout, dict[object, _Block]]:
    kinds = rnd.rules.kinds
    deck = rnd.variant.deck
    last = _LAST
    if last[0] is kinds and last[1] is deck:
        got: tuple[_Layout, dict[object, _Block]] = last[2]
        return got
    got = kept(_KEPT, kinds, 16, lambda: (_Layout(deck), {}), deck)
    last[:] = [kinds, deck, got]
    return got


def _lowest(mask: int) -> int:
    return mask & -mask


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
    deck_cards, entries, several = layout.cards, layout.entries, layout.several
    by_rank: dict[int, int] = {}
    at: dict[int, int] = {}
    held_ids = 0
    try:
        for card in hand:
            entry = entries[card.id]
            if entry is None or entry[0] is not card:
                return None  # a wild card, a card of no rank, or not the deck's own card
            _, rank, bit, spots = entry
            held_ids |= bit
            if same_rank:
                by_rank[rank] = by_rank.get(rank, 0) | bit
            if sequences:
                for spot in spots:
                    at[spot] = at.get(spot, 0) | bit
    except IndexError:  # (not a card of the deck)
        return None
    suited = one_suit and not held_ids & layout.suitless
    found: list[tuple[Card, ...]] = []
    bits: list[int] = []
    seen: set[int] = set()
    if same_rank:
        # a rank's groups come in the order of its lowest card id in the hand
        masks = [m for m in by_rank.values() if m.bit_count() >= low]
        if len(masks) > 1:
            masks.sort(key=_lowest)
        for mask in masks:
            cap = mask.bit_count()
            if cap > high:
                cap = high
            key: object = (mask, cap)
            block = blocks.get(key)
            if block is None:
                block = _store(blocks, key, _rank_block(deck_cards, mask, low, cap, judge, faces, several))
            if block[3]:
                _emit(block, found, bits, seen)
            else:  # (no other block lists its groups: :func:`_judged`)
                found.extend(block[0])
                bits.extend(block[1])
    if sequences and len(at) >= low:
        # the starts of windows of ``low`` or more held positions: in each run of held
        # positions from ``first`` to ``last``, those up to ``last - low + 1``
        held_spots = sorted(at)
        i = 0
        count = len(held_spots)
        while i < count:
            first = last = held_spots[i]
            i += 1
            while i < count and held_spots[i] == last + 1:
                last += 1
                i += 1
            for start in range(first, last - low + 2):
                end = start + high - 1
                if end > last:
                    end = last
                cards = 0
                for spot in range(start, end + 1):
                    cards |= at[spot]
                key = (start, end, cards, suited)
                block = blocks.get(key)
                if block is None:
                    held = [_cards_of(deck_cards, at[spot]) for spot in range(start, end + 1)]
                    block = _store(blocks, key, _judged(sequence_windows(held, low, suited), judge, faces,
                                                        several))
                if block[3]:
                    _emit(block, found, bits, seen)
                else:
                    found.extend(block[0])
                    bits.extend(block[1])
    return found, bits


def _store(blocks: dict[object, _Block], key: object, block: _Block) -> _Block:
    if len(blocks) >= _BLOCKS_LIMIT:
        blocks.clear()
    blocks[key] = block
    return block


def _emit(block: _Block, found: list[tuple[Card, ...]], bits: list[int], seen: set[int]) -> None:
    """Put a block's melds after the listing's so far, each group once (a block whose
    groups no other block lists goes in whole, unseen)."""
    for group, kinds, cards in zip(*block[:3]):
        if cards not in seen:
            seen.add(cards)
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
                faces: Sequence[int], several: int) -> _Block:
    """The melds among one rank's cards ``mask``: its groups of ``low`` to ``cap`` cards."""
    same = _cards_of(deck_cards, mask)
    return _judged(itertools.chain.from_iterable(itertools.combinations(same, size)
                                                 for size in range(low, cap + 1)), judge, faces, several)


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


def _judged(groups: Iterator[tuple[Card, ...]], judge: Judge, faces: Sequence[int], several: int) -> _Block:
    """The groups that form a kind, with their kinds and their cards' ids, and whether
    another block may list one of them too: only a group of one card (a rank's and a
    sequence's alike) or one holding a card of ``several`` positions may be listed twice.
    Another group's cards each stand at one position, and at distinct ones (a sequence's:
    its window, so its start, is theirs alone) or at the same one (a rank's: the cards of
    a rank share their positions), so it is listed from one start or one rank, once."""
    out = []
    kinds_of = []
    masks = []
    twice = False
    for group in groups:
        ids = 0
        face = 0
        for card in group:
            ids |= 1 << card.id
            face += faces[card.id]
        kinds = judge(group, face)
        if kinds:
            out.append(group)
            kinds_of.append(kinds)
            masks.append(ids)
            if ids & several or len(group) < 2:
                twice = True
    return tuple(out), tuple(kinds_of), tuple(masks), twice
