"""A quick exact answer to "can this hand meld at all?", from the kinds' shapes (SK-5, BR-2).

Most meld steps of a many-handed game find no meld: six cards a hand rarely hold three
of a rank or three in sequence in a suit. :func:`no_meld` says so from one integer
summed over the hand's cards, without listing a group: a field of it counts the hand's
cards of each rank, one the cards at each sequence position of each suit, and one the
cards at each position in any suit (a field of bits each, wide enough never to carry
into the next). Each kind's shape (:class:`~rummydsl.melds.KindShape`) is a necessary
condition for its melds, read from the variant's meld kinds, never from its name: a
``same_rank`` kind of at least ``m`` cards needs ``m`` cards of one rank; a ``sequence``
kind needs ``m`` cards at ``m`` consecutive positions (of one suit, where the shape keeps
one). When no shape can be met, no group the listing builds forms a kind
(:mod:`.meldblocks`); "maybe" lists as before. A kind of no known shape, a wrapping
deck, a wild card or a card of no rank or suit answer "maybe"
(``tests/engine/test_meldless.py`` holds the answer to the whole listing).

>>> import random
>>> from rummydsl.engine import Round
>>> from rummydsl.variant import load_variant
>>> rnd = Round.deal(load_variant("rummy"), random.Random(0), dealer=0)
>>> deck = rnd.variant.deck
>>> no_meld(rnd, deck.parse_cards("3D KD 2S 5S KC AC 3H"), 7)
True
>>> no_meld(rnd, deck.parse_cards("3D KD 2S 5S KC KH 3H"), 7), no_meld(rnd, deck.parse_cards("3D 4D 5D"), 3)
(False, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ...cards import Card
from .keep import kept

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["no_meld"]

#: A test: the fewest cards of its shape, the addend that sets a field's top bit where the
#: field holds enough cards, those top bits, and for a sequence shape, the field width
#: (the step from one position's field to the next; 0 for a same_rank shape).
_Test = tuple[int, int, int, int]


class _Masks:
    """What :func:`no_meld` reads for a deck and a variant's kinds: by card id, the card
    object and its code (a 1 in the field of its rank, of each of its positions in its
    suit, and of each of its positions), and a test for each kind's shape that can be met."""

    __slots__ = ("cards", "codes", "tests", "unknown")

    def __init__(self, shapes: Sequence[Any], deck: Any) -> None:
        cards = list(deck.cards)
        size = max((c.id for c in cards), default=-1) + 1
        self.cards: list[Card | None] = [None] * size
        """The deck's natural cards of a rank and suit by id (None: a card answered "maybe")."""
        self.codes = [0] * size
        self.tests: list[_Test] = []
        self.unknown = bool(deck.wrap) or any(shape.family not in ("same_rank", "sequence") for shape in shapes)
        """Whether every hand answers "maybe"."""
        natural = [c for c in cards if not c.wild and c.rank is not None and c.suit is not None]
        ranks = sorted({c.rank.order for c in natural})
        rank_at = {order: i for i, order in enumerate(ranks)}
        spots = [deck.sequence_positions(c.rank) for c in natural]
        suits = max((c.suit.index for c in natural), default=0) + 1
        fewest = [max(1, shape.min_size) for shape in shapes]
        # a field holds a count below 2 ** (width - 1), and the test for m or more adds
        # 2 ** (width - 1) - m (at most m is asked): the field's top bit, never a carry
        width = max([len(natural), *fewest, 1]).bit_length() + 1
        span = max((spot for got in spots for spot in got), default=0) + 2  # (an empty field between suits)
        suited_at = len(ranks)  # the fields: the ranks, then each suit's positions, then the positions
        loose_at = suited_at + span * suits
        for card, got in zip(natural, spots):
            assert card.rank is not None and card.suit is not None
            code = 1 << (width * rank_at[card.rank.order])
            for spot in got:
                code |= 1 << (width * (suited_at + span * card.suit.index + spot))
                code |= 1 << (width * (loose_at + spot))
            self.cards[card.id] = card
            self.codes[card.id] = code

        def fields(first: int, count: int, least: int) -> tuple[int, int]:
            addend = top = 0
            for field in range(first, first + count):
                addend |= ((1 << (width - 1)) - least) << (width * field)
                top |= 1 << (width * field + width - 1)
            return addend, top

        suited: list[_Test] = []
        for shape, least in zip(shapes, fewest):
            if shape.max_size is not None and shape.max_size < least:
                continue  # no group of this kind
            if shape.family == "same_rank":
                self.tests.append((least, *fields(0, len(ranks), least), 0))
            elif shape.same_suit:
                suited.append((least, *fields(suited_at, span * suits, 1), width))
            else:
                self.tests.append((least, *fields(loose_at, span, 1), width))
        # a suited sequence test is met only where a test of positions in a row in any suit,
        # of no more cards, is met too, and no_meld answers "maybe" at the first test met:
        # such a suited test changes no answer, and is left out
        loose = [test[0] for test in self.tests if test[3]]
        self.tests.extend(test for test in suited if not loose or test[0] < min(loose))


_KEPT: dict[int, tuple[object, object, _Masks]] = {}
""":class:`_Masks` by the kinds' dictionary (and the deck), the last few."""

_LAST: list[Any] = [None, None, None]
"""The last kinds, deck and masks asked (a game asks of one variant at every meld step)."""


def _masks(rnd: Round) -> _Masks:
    kinds = rnd.rules.kinds
    deck = rnd.variant.deck
    last = _LAST
    if last[0] is kinds and last[1] is deck:
        masks: _Masks = last[2]
        return masks
    shapes = list(rnd.rules.shapes.values())
    masks = kept(_KEPT, kinds, 16, lambda: _Masks(shapes, deck), deck)
    last[:] = [kinds, deck, masks]
    return masks


def no_meld(rnd: Round, hand: Sequence[Card], high: int) -> bool:
    """Whether no group of ``hand`` of at most ``high`` cards can form a kind, by the
    kinds' shapes: True only when that is certain (then the meld listing finds none);
    False for "maybe" (and for every hand with a wild card, a card of no rank or suit,
    a card not the deck's own, a kind of no known shape or a wrapping deck)."""
    last = _LAST
    if last[0] is rnd.rules.kinds and last[1] is rnd.variant.deck:
        masks: _Masks = last[2]
    else:
        masks = _masks(rnd)
    if masks.unknown:
        return False
    cards, codes = masks.cards, masks.codes
    total = 0
    try:
        for card in hand:
            cid = card.id
            if cards[cid] is not card:
                return False
            total += codes[cid]
    except IndexError:  # (not a card of the deck)
        return False
    for least, addend, top, step in masks.tests:
        if least > high:
            continue
        held = (total + addend) & top  # the top bits of the fields holding enough cards
        if step and held:  # a sequence: ``least`` positions held in a row
            run = held
            for shift in range(step, step * least, step):
                run &= held >> shift
                if not run:
                    break
            held = run
        if held:
            return False
    return True
