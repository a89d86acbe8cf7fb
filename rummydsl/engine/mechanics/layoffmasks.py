"""What may extend a table meld, as bitmasks by card id: the cards the kinds' shapes let
through (:func:`_candidates`), those of them the patterns judged to fit, kept on each meld
and shared by the melds of the same cards (:func:`extenders`), and the quick answer of a
listing: the melds a player may add to that some card held may extend (:func:`reached`).

The lay-off rules (:mod:`.layoffs`) read them; nothing here reads a hand but as a bitmask,
so a meld or card with wild cards under ``wild_unique_card`` (whose meanings depend on the
other cards held) is judged there, with the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ...cards import Card
from ...melds.shapes import suit_blind
from ..state import TableMeld
from .keep import kept

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["extenders", "candidates_of", "reached", "may_lay_off"]


class _DeckMasks:
    """A deck's cards by what :func:`_candidates` reads (bitmasks by card id): every card,
    the wild cards, the natural cards of each rank and of each suit, and (where the deck
    does not wrap) each natural card's sequence positions (an ace both low and high has
    two) with the natural cards that may stand at each position (``at``) and those that
    stand at none (``loose``: never ruled out)."""

    def __init__(self, deck: Any, positions: Sequence[int] | None) -> None:
        self.deck = deck
        self.all = 0
        self.wild = 0
        self.rank: dict[int, int] = {}
        self.suit: dict[int, int] = {}
        self.spots: list[tuple[int, ...]] = []
        self.at: dict[int, int] = {}
        self.loose = 0
        self.naturals = 0
        for card in deck.cards:
            bit = 1 << card.id
            self.all |= bit
            spots: tuple[int, ...] = ()
            if card.wild:
                self.wild |= bit
            else:
                self.naturals |= bit
                self.rank[id(card.rank)] = self.rank.get(id(card.rank), 0) | bit
                self.suit[id(card.suit)] = self.suit.get(id(card.suit), 0) | bit
                if positions is not None:
                    spots = tuple(deck.sequence_positions(card.rank))
                    for spot in spots:
                        self.at[spot] = self.at.get(spot, 0) | bit
                    if not spots:
                        self.loose |= bit
            while len(self.spots) <= card.id:
                self.spots.append(())
            self.spots[card.id] = spots


_MASKS: dict[int, _DeckMasks] = {}
""":class:`_DeckMasks` by deck (the last few kept)."""


def _deck_masks(rnd: Round) -> _DeckMasks:
    deck = rnd.variant.deck
    got = _MASKS.get(id(deck))
    if got is None or got.deck is not deck:
        got = _DeckMasks(deck, rnd.positions)
        if len(_MASKS) >= 32:
            _MASKS.pop(next(iter(_MASKS)))
        _MASKS[id(deck)] = got
    return got


#: The most ways of placing a meld's cards of several positions :func:`_candidates` tries.
_PLACINGS = 64


#: The most melds' readings :func:`_candidates` keeps for one set of kinds (then it starts again).
_READINGS_LIMIT = 1 << 14

_READINGS: dict[int, tuple[object, object, dict[tuple[object, ...], int]]] = {}
""":func:`_candidates` by the kinds' dictionary (the last few kept), by what it reads of a
meld's cards (:func:`_reading`)."""


def _candidates(rnd: Round, cards: Sequence[Card]) -> int:
    """:func:`_worked_candidates`, kept by what it reads of the cards (:func:`_reading`):
    from one deal to the next the melds laid differ in their cards, but far less in their
    ranks, their count and whether they are of one suit (a new table meld asks this once)."""
    memo = kept(_READINGS, rnd.rules.kinds, 16, dict, rnd.variant.deck)
    key = _reading(cards)
    got = memo.get(key)
    if got is None:
        if len(memo) >= _READINGS_LIMIT:
            memo.clear()
        got = memo[key] = _worked_candidates(rnd, cards)
    return got


def _reading(cards: Sequence[Card]) -> tuple[object, ...]:
    """What :func:`_worked_candidates` reads of a meld's cards: how many there are, the
    natural cards' ranks (by identity, sorted: the order of the cards changes nothing it
    gives) and, where every natural card has the same suit, that suit (by identity; else
    -1). The wild cards count by number only, and nothing else of a card is read (the
    ranks give the sequence positions)."""
    ranks: list[int] = []
    suit: object = None
    same = True
    for card in cards:
        if not card.wild:
            if not ranks:
                suit = card.suit
            elif card.suit is not suit:
                same = False
            ranks.append(id(card.rank))
    ranks.sort()
    return (len(cards), id(suit) if same and ranks else -1, *ranks)


def _worked_candidates(rnd: Round, cards: Sequence[Card]) -> int:
    """The cards the kinds' shapes let extend a meld of ``cards``, as a bitmask by card id
    (at least those: a superset is fine, each is judged by the patterns).

    A group of one rank needs the card's rank; a sequence needs natural cards at distinct
    positions within one window no longer than the group (and one suit, where the shape
    keeps one), a card of several positions (an ace both low and high) standing at one of
    them; a shape's largest size is never passed. Wild cards, kinds of no known shape,
    cards of no position and wrapping decks are never ruled out."""
    masks = _deck_masks(rnd)
    naturals = [c for c in cards if not c.wild]
    if not naturals or rnd.positions is None:
        return masks.all
    out = masks.wild
    size = len(cards)
    placings: list[tuple[int, int, set[int]]] | None = None
    placed = False
    for shape in rnd.rules.shapes.values():
        if shape.family == "any":
            return masks.all
        if shape.max_size is not None and size >= shape.max_size:
            continue
        if shape.family == "same_rank":
            rank = naturals[0].rank
            if all(c.rank is rank for c in naturals):
                out |= masks.rank.get(id(rank), 0)
            continue
        base = masks.naturals
        if shape.same_suit:
            suit = naturals[0].suit
            if any(c.suit is not suit for c in naturals):
                continue
            base = masks.suit.get(id(suit), 0)
        if not placed:
            placings, placed = _placings(masks, naturals, size), True
        if placings is None:
            out |= base
            continue
        out |= base & masks.loose
        at = masks.at
        for low, high, taken in placings:
            for spot in range(high - size, low + size + 1):
                if spot not in taken:
                    out |= base & at.get(spot, 0)
    return out


#: The most melds' readings :func:`_fits_read` keeps for one set of kinds (then it starts again).
_FITS_LIMIT = 1 << 14

_FITS: dict[int, tuple[object, object, dict[tuple[object, ...], int] | None]] = {}
""":func:`_fits_read` by the kinds' dictionary (the last few kept; None for kinds it does not
read), by what it reads of a meld's cards (:func:`_reading`)."""


def _fits_read(rnd: Round, cards: Sequence[Card], mask: int, naturals: int) -> int:
    """Every card that extends a wild-free meld of ``cards`` (card ids ``mask``, natural
    ones ``naturals``) into a kind, as a bitmask, where the kinds are suit-blind
    (:func:`~rummydsl.melds.shapes.suit_blind`: a group's kinds read only how many cards of
    each rank it holds and whether they share one suit) and the lay-offs read no hand;
    -1 elsewhere. Kept by the meld's reading (:func:`_reading`), which is all a lay-off's
    kinds then read of the meld: from one deal to the next the melds laid differ in their
    cards far more than in their ranks and suit."""
    rules = rnd.rules
    if rules.wild_unique_card:
        return -1
    memo = kept(_FITS, rules.kinds, 16, lambda: _fits_memo(rnd), rnd.variant.deck)
    if memo is None:
        return -1
    key = _reading(cards)
    got = memo.get(key)
    if got is None:
        if len(memo) >= _FITS_LIMIT:
            memo.clear()
        got = memo[key] = _worked_fits(rnd, cards, mask, naturals)
    return got & ~mask


def _fits_memo(rnd: Round) -> dict[tuple[object, ...], int] | None:
    """A new memo for :func:`_fits_read`, or None where the kinds are not suit-blind or a
    natural card of the deck has no rank or no suit."""
    if not suit_blind(rnd.rules.kinds):
        return None
    if any(c.rank is None or c.suit is None for c in rnd.variant.deck.cards if not c.wild):
        return None
    return {}


def _worked_fits(rnd: Round, cards: Sequence[Card], mask: int, naturals: int) -> int:
    """:func:`_fits_read` worked out: the candidates (:func:`_candidates`, a function of the
    reading too) in classes of one rank and one relation to the meld's suit (the same
    suit, or another; one class a rank where the meld's cards are of several suits), and a
    class's cards all extend the meld or none do (suit-blind kinds read nothing else of the
    card laid off), so one card of each is judged: one not among the meld's cards (a class
    held whole in the meld is held whole in every meld of the same reading, so never laid
    off). The wild cards are one class (interchangeable, the kinds reading no hand)."""
    masks = _deck_masks(rnd)
    judge = rnd.rules.kinds_bits_of
    deck_cards = rnd.variant.deck.cards
    suit = cards[0].suit
    for card in cards:
        if card.suit is not suit:
            suit = None
            break
    in_suit = masks.suit.get(id(suit), 0) if suit is not None else 0
    todo = _candidates(rnd, cards)
    fits = 0
    group = [*cards, cards[0]]
    wild = todo & masks.wild
    if wild:
        low = wild & -wild
        group[-1] = deck_cards[low.bit_length() - 1]
        if judge(naturals, 1, group):
            fits |= wild
    todo &= masks.naturals
    while todo:
        card = deck_cards[(todo & -todo).bit_length() - 1]
        same = masks.rank.get(id(card.rank), 0) & todo
        if suit is not None:
            same &= in_suit if card.suit is suit else ~in_suit
        todo &= ~same
        free = same & ~mask
        if not free:
            continue
        low = free & -free
        group[-1] = deck_cards[low.bit_length() - 1]
        if judge(naturals | low, 0, group):
            fits |= same
    return fits


#: The most melds :func:`candidates_of` keeps for one set of kinds (then it starts again).
_CANDIDATES_LIMIT = 1 << 14

_CANDIDATES: dict[int, tuple[object, object, dict[int, int]]] = {}
""":func:`candidates_of` by the kinds' dictionary (the last few kept)."""


def candidates_of(rnd: Round, meld: TableMeld) -> int:
    """:func:`_candidates` of a meld's cards, kept by the cards (as a bitmask by card id)
    for a variant's kinds and deck: a listing under ``wild_unique_card`` asks it of a meld
    once for each card held."""
    memo = kept(_CANDIDATES, rnd.rules.kinds, 16, dict, rnd.variant.deck)
    mask = meld.masks()[0]
    got = memo.get(mask)
    if got is None:
        if len(memo) >= _CANDIDATES_LIMIT:
            memo.clear()
        got = memo[mask] = _candidates(rnd, meld.cards)
    return got


def _placings(masks: _DeckMasks, naturals: Sequence[Card], size: int) -> list[tuple[int, int, set[int]]] | None:
    """The ways the natural cards of a meld of ``size`` cards may stand in a sequence: each
    at one of its positions, all distinct, within a window of ``size + 1`` (the lowest and
    highest position and the positions taken); None when one has no position or the ways
    are too many to try (then nothing is ruled out)."""
    ways: list[tuple[int, ...]] = [()]
    spots = masks.spots
    for card in naturals:
        options = spots[card.id]
        if not options:
            return None
        if len(options) == 1:
            spot = options[0]
            ways = [(*way, spot) for way in ways if spot not in way]
        else:
            ways = [(*way, spot) for way in ways for spot in options if spot not in way]
            if len(ways) > _PLACINGS:
                return None
    out = []
    for way in ways:
        low, high = min(way), max(way)
        if high - low <= size:
            out.append((low, high, set(way)))
    return out


def extenders(rnd: Round, meld: TableMeld, held: int) -> int:
    """The cards of ``held`` (a bitmask by card id) that extend ``meld`` into a kind (the
    same kind when kind-locked), as a bitmask.

    Each card is judged once for each state of the meld, and what is known is kept on it
    (:meth:`~..state.TableMeld.extenders`): at first every card but those the kinds'
    shapes let through (:func:`_candidates`) is known not to extend it; a candidate is
    judged by the meld's patterns when a hand holding it first asks. What is known of a
    meld's cards is shared by every meld of the same cards (:func:`_shared`): from one
    hand to the next the same melds are laid and grown again.

    Not for a meld or card with wild cards under ``wild_unique_card``, whose meanings
    depend on the other cards held: judge those with the hand (:func:`_judge_fit`).
    """
    hits = meld.known_extenders(held)
    return hits if hits >= 0 else _extend(rnd, meld, held, _shared(rnd))


def _extend(rnd: Round, meld: TableMeld, held: int, shared: dict[object, tuple[int, int]]) -> int:
    """:func:`extenders` where not every card of ``held`` is known for the meld as it lies:
    what is known of its cards (``shared``, :func:`_shared`) first, then the rest judged."""
    cards = meld.cards
    size = len(cards)
    ext = meld._extenders  # (meld.extenders() and meld.masks(), inline: asked of every new meld state)
    kept = ext[2:] if ext is not None and ext[0] == size and ext[1] == meld.kind else None
    got = meld._masks
    if got is not None and got[0] == size:
        _, mask, naturals, wilds = got
    else:
        mask, naturals, wilds = meld.masks()
    locked = rnd.variant.kind_locked
    key: object = (mask, meld.kind) if locked else mask
    known = shared.get(key)
    if known is not None:
        judged, fits = known if kept is None else (kept[0] | known[0], kept[1] | known[1])
    elif kept is not None:
        judged, fits = kept
    else:
        fits = -1 if locked or wilds else _fits_read(rnd, cards, mask, naturals)
        if fits >= 0:  # every card judged at once (suit-blind kinds: kept by the meld's reading)
            return _keep(meld, shared, key, size, _deck_masks(rnd).all, fits) & held
        judged, fits = _deck_masks(rnd).all & ~(_candidates(rnd, cards) & ~mask), 0
    todo = held & ~judged
    if todo:  # candidates only (the shapes' test of :func:`_candidates` lets each through)
        rules = rnd.rules
        kind_bit = 1 << rules.kind_names.index(meld.kind) if locked and meld.kind in rules.kind_names else 0
        deck_cards = rnd.variant.deck.cards
        judge = rules.kinds_bits_of
        judged |= todo
        group = [*cards, cards[0]]
        while todo:
            low = todo & -todo
            todo ^= low
            card = deck_cards[low.bit_length() - 1]
            group[-1] = card
            kinds = judge(naturals, wilds + 1, group) if card.wild else judge(naturals | low, wilds, group)
            if kinds and (not locked or kinds & kind_bit):
                fits |= low
    if known is None or known[0] != judged:
        if len(shared) >= _SHARED_LIMIT:
            shared.clear()
        shared[key] = (judged, fits)
    meld._extenders = (size, meld.kind, judged, fits)  # (meld.keep_extenders, inline)
    return fits & held


def _keep(meld: TableMeld, shared: dict[object, tuple[int, int]], key: object, size: int, judged: int,
          fits: int) -> int:
    """:func:`_extend`'s end for a meld state judged whole: kept in ``shared`` and on the meld."""
    if len(shared) >= _SHARED_LIMIT:
        shared.clear()
    shared[key] = (judged, fits)
    meld._extenders = (size, meld.kind, judged, fits)
    return fits


#: The most melds :func:`_shared` keeps for one set of kinds (then it starts again).
_SHARED_LIMIT = 1 << 16

_SHARED: dict[int, tuple[object, object, dict[object, tuple[int, int]]]] = {}
""":func:`_shared` by the kinds' dictionary (the last few kept)."""


def _shared(rnd: Round) -> dict[object, tuple[int, int]]:
    """What :func:`extenders` knows of each meld's cards, for a variant's kinds and deck:
    by the cards' ids as a bitmask (with the kind, when kind-locked), the cards judged and
    those of them that extend it. Kept by the kinds' dictionary, which the solvers of one
    variant's deals share (as :func:`.meldlist._listing` keeps the groups judged). The last
    kinds and deck asked are looked at first (:data:`_LAST_SHARED`)."""
    kinds = rnd.rules.kinds
    deck = rnd.variant.deck
    last = _LAST_SHARED
    if last[0] is kinds and last[1] is deck:
        got: dict[object, tuple[int, int]] = last[2]
        return got
    got = kept(_SHARED, kinds, 16, dict, deck)
    last[:] = [kinds, deck, got]
    return got


_LAST_SHARED: list[Any] = [None, None, None]
"""The last kinds, deck and what :func:`_shared` gave for them (a game asks of one variant)."""


def reached(rnd: Round, targets: Sequence[int], held: int) -> list[tuple[int, int, TableMeld, int]]:
    """The melds of ``targets`` (seats) that a card of ``held`` (a bitmask by card id) may
    extend, in table order, as (owner, index, meld, hits): ``hits`` the cards of ``held``
    that extend it, or -1 where some are left to judge (:meth:`~..state.TableMeld.known_extenders`:
    a meld not yet asked about as it lies, or a card held not yet judged for it).

    A listing's quick answer, one bitmask test a meld: empty exactly when every card held
    is known not to extend any of them, as in most meld steps of most games (the judged
    cards are kept on each meld, and shared by the melds of the same cards: :func:`extenders`).
    Not for wild cards under ``wild_unique_card`` (:func:`extenders`)."""
    out = []
    table = rnd.table
    for owner in targets:
        for index, meld in enumerate(table[owner]):
            got = meld._extenders  # (meld.known_extenders(held), inline: a listing asks every meld)
            if got is None or held & ~got[2] or got[0] != len(meld.cards) or got[1] != meld.kind:
                out.append((owner, index, meld, -1))
            elif got[3] & held:
                out.append((owner, index, meld, got[3] & held))
    return out


def may_lay_off(rnd: Round, player: int, targets: Sequence[int]) -> bool:
    """Whether a card of ``player``'s hand extends a meld of ``targets`` (seats): the quick
    answer (:func:`reached`), the cards left to judge judged (:func:`extenders`).

    Not for wild cards under ``wild_unique_card`` (:func:`extenders`)."""
    held = 0
    for card in rnd.hands[player]:
        held |= 1 << card.id
    return any(hits > 0 or extenders(rnd, meld, held) for _, _, meld, hits in reached(rnd, targets, held))
