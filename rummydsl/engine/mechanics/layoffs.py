"""Lay-offs and going out: which melds a card may be laid off onto, checking and listing
lay-offs, and the rules that keep a card for the last discard (SK-6, BR-3, GR-7).

Part of the meld step (:mod:`.melding`), and used by the showdown after a knock
(:mod:`.knock`) and deep draws (:mod:`.deep`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ...cards import Card
from ...errors import IllegalActionError
from ...variant.model import MeldStep
from ..actions import Layoff, player_name
from ..state import Phase, TableMeld
from .discard import barred
from .keep import kept

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["layoff_targets", "check_layoff", "apply_layoff", "list_layoffs", "final_discard_required",
           "FINAL_DISCARD_REASON", "TAKEN_LAST_REASON", "only_taken_left", "last_card_stays", "LAST_CARD_REASON"]

#: Why a meld or lay-off that would empty the hand is refused under ``final_discard: required``.
FINAL_DISCARD_REASON = ("the last card must be discarded (going_out.final_discard: required, BR-3): "
                        "keep a card to discard")


#: Why a meld or lay-off that would leave only the card taken from the pile is refused.
TAKEN_LAST_REASON = ("the card taken from the discard pile this turn cannot be discarded, so it cannot "
                     "be the last card left: keep another card to discard, or meld or lay off that one too")


def final_discard_required(rnd: Round) -> bool:
    """Whether a player must keep a card to discard: no meld or lay-off may empty the hand."""
    return rnd.variant.going_out.final_discard == "required"


def only_taken_left(rnd: Round, left: Sequence[Card]) -> bool:
    """Whether ``left`` is just the card taken from the pile this turn, which the discard
    step may not throw (the turn could not end). Under ``final_discard: forbidden`` no
    last card is discarded anyway: :func:`last_card_stays` decides there."""
    return (len(left) == 1 and rnd.phase is Phase.MELD and rnd.taken is not None
            and left[0] is barred(rnd) and rnd.variant.step("discard") is not None
            and rnd.variant.going_out.final_discard != "forbidden")


#: Why a meld or lay-off that would leave one card nowhere to go is refused under ``forbidden``.
LAST_CARD_REASON = ("the last card cannot be discarded (going_out.final_discard: forbidden): keep two "
                    "cards, or leave one that can be laid off")


def last_card_stays(rnd: Round) -> bool:
    """Whether a player's last card may not be discarded, in a turn that ends with a
    discard (``final_discard: forbidden``): a hand must never be left in the meld step
    with one card that cannot be laid off, or the turn could not end."""
    return (rnd.variant.going_out.final_discard == "forbidden" and rnd.phase is Phase.MELD
            and rnd.variant.step("discard") is not None)


def _last_card_fits(rnd: Round, player: int, card: Card, hand: Sequence[Card],
                    new: Sequence[TableMeld] = (), grown: tuple[TableMeld, Card] | None = None) -> bool:
    """Whether ``card`` (the one left in hand) can be laid off once ``new`` melds are down
    (as the player's own) and ``grown`` (a meld and the card laid off onto it) is extended."""
    targets = layoff_targets(rnd, player) if rnd.met_contract[player] or new else ()
    melds = [m for owner in targets for m in rnd.table[owner]]
    if new and player in targets:
        melds.extend(new)
    fresh = {id(meld) for meld in new}
    for meld in melds:
        if grown is not None and meld is grown[0]:
            if _judge_fit(rnd, TableMeld([*meld.cards, grown[1]], meld.kind), card, hand):
                return True
        elif (_judge_fit if id(meld) in fresh else _fits)(rnd, meld, card, hand):
            return True
    return False



def layoff_targets(rnd: Round, player: int) -> Sequence[int]:
    """Whose table melds ``player`` may add to now (one's own first, then the other
    seats in order)."""
    phase = rnd.phase
    if phase is Phase.MELD:
        if not rnd.met_contract[player]:
            return ()
        step = rnd.variant.turn[rnd.step]
        assert isinstance(step, MeldStep)
        if step.add_to_opponents:
            return _targets(rnd.seated, player, step.add_to_own)
        return (player,) if step.add_to_own else ()
    if phase is Phase.SHOWDOWN:
        return (rnd.ender,) if rnd.ender is not None and rnd.showdown_layoffs() else ()
    return ()


def _fits(rnd: Round, meld: TableMeld, card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``card`` extends ``meld`` into a kind (the same kind when kind-locked).

    Read from the meld's cards that extend it (:func:`extenders`), worked out once for
    each state of the meld, except where wild cards' meanings depend on the other
    cards held (``wild_unique_card``), which are judged each time.
    """
    if rnd.rules.wild_unique_card and (card.wild or any(c.wild for c in meld.cards)):
        return _judge_fit(rnd, meld, card, hand)
    return bool(extenders(rnd, meld, 1 << card.id))


def _judge_fit(rnd: Round, meld: TableMeld, card: Card, hand: Sequence[Card]) -> bool:
    """:func:`_fits`, worked out."""
    if not _may_extend(rnd, meld.cards, card):
        return False
    kinds = rnd.rules.kinds_of([*meld.cards, card], hand=hand)
    return bool(kinds) and (not rnd.variant.kind_locked or meld.kind in kinds)


def _may_extend(rnd: Round, cards: Sequence[Card], card: Card) -> bool:
    """A quick necessary condition from the kinds' shapes (the patterns still decide).

    A group of one rank needs the card's rank; a sequence needs natural cards of
    distinct positions within one window no longer than the group (and one suit,
    where the shape keeps one). Wild cards, kinds of no known shape, cards with
    several sequence positions (an ace both low and high) and wrapping decks are
    never ruled out here.
    """
    if card.wild:
        return True
    positions = rnd.positions
    naturals = [c for c in cards if not c.wild]
    if not naturals or positions is None:
        return True
    for shape in rnd.rules.shapes.values():
        if shape.family == "any":
            return True
        if shape.family == "same_rank":
            if all(c.rank is card.rank for c in naturals):
                return True
            continue
        if shape.same_suit and any(c.suit is not card.suit for c in naturals):
            continue
        spots = [positions[c.id] for c in naturals]
        spots.append(positions[card.id])
        if -1 in spots:
            return True  # several positions: let the pattern decide
        if len(set(spots)) == len(spots) and max(spots) - min(spots) < len(cards) + 1:
            return True
    return False


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


def _candidates(rnd: Round, cards: Sequence[Card]) -> int:
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
    kept = meld.extenders()
    cards = meld.cards
    locked = rnd.variant.kind_locked
    mask, naturals, wilds = meld.masks()
    key: object = (mask, meld.kind) if locked else mask
    known = shared.get(key)
    if known is not None:
        judged, fits = known if kept is None else (kept[0] | known[0], kept[1] | known[1])
    elif kept is not None:
        judged, fits = kept
    else:
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
    meld.keep_extenders(judged, fits)
    return fits & held


#: The most melds :func:`_shared` keeps for one set of kinds (then it starts again).
_SHARED_LIMIT = 1 << 16

_SHARED: dict[int, tuple[object, object, dict[object, tuple[int, int]]]] = {}
""":func:`_shared` by the kinds' dictionary (the last few kept)."""


def _shared(rnd: Round) -> dict[object, tuple[int, int]]:
    """What :func:`extenders` knows of each meld's cards, for a variant's kinds and deck:
    by the cards' ids as a bitmask (with the kind, when kind-locked), the cards judged and
    those of them that extend it. Kept by the kinds' dictionary, which the solvers of one
    variant's deals share (as :func:`.meldlist._listing` keeps the groups judged)."""
    return kept(_SHARED, rnd.rules.kinds, 16, dict, rnd.variant.deck)


def check_layoff(rnd: Round, action: Layoff) -> Card:
    """The card held that ``action`` lays off.

    :raises IllegalActionError: (reason only) when it may not be laid off.
    """
    player = action.player
    held = layoff_card(rnd, action)
    if held is None:
        raise IllegalActionError("", f"{player_name(player)} does not hold {action.card}")
    contract = rnd.variant.contract
    if (rnd.phase is Phase.MELD and contract is not None and rnd.contract_now
            and not contract.then_meld_same_turn):
        raise IllegalActionError("", "no more melding in the turn the contract was met")
    hand = rnd.hands[player]
    if rnd.phase is Phase.MELD and len(hand) == 1 and final_discard_required(rnd):
        raise IllegalActionError("", FINAL_DISCARD_REASON)
    if only_taken_left(rnd, [c for c in hand if c is not held]):
        raise IllegalActionError("", TAKEN_LAST_REASON)
    if action.owner not in layoff_targets(rnd, player):
        if rnd.phase is Phase.MELD and not rnd.met_contract[player]:
            raise IllegalActionError("", "no lay-offs before meeting the contract")
        raise IllegalActionError("", f"{player_name(player)} may not lay off onto "
                                     f"{player_name(action.owner)}'s melds now")
    melds = rnd.table[action.owner]
    if not 0 <= action.index < len(melds):
        raise IllegalActionError("", f"{player_name(action.owner)} has no meld #{action.index + 1} "
                                     f"({len(melds)} on the table)")
    meld = melds[action.index]
    if not _fits(rnd, meld, held, rnd.hands[player]):
        locked = f" {meld.kind}" if rnd.variant.kind_locked else ""
        raise IllegalActionError("", f"{held} does not extend the{locked} meld "
                                     f"{' '.join(str(c) for c in meld.cards)}")
    hand = rnd.hands[player]
    if len(hand) == 2 and last_card_stays(rnd):
        other = hand[1] if hand[0] is held else hand[0]
        if not _last_card_fits(rnd, player, other, hand, grown=(meld, held)):
            raise IllegalActionError("", LAST_CARD_REASON)
    return held


def layoff_card(rnd: Round, action: Layoff) -> Card | None:
    """The card held that ``action`` lays off (None: no card of its face is held): a
    defender's copy not among the melds it showed, where it holds one (GR-7.1)."""
    player = action.player
    held = rnd.holds(player, action.card)
    if held is not None and rnd.declared[player]:
        shown = {c.id for meld in rnd.declared[player] or () for c in meld}
        if held.id in shown:  # GR-7.1: a defender lays off deadwood: another copy of the face, if held
            held = rnd.find(rnd.hands[player], held, shown) or held
    return held


def apply_layoff(rnd: Round, action: Layoff, listed: bool = False) -> None:
    """Move the card onto the meld (its kind follows the group unless kind-locked);
    ``listed``: the action is one the listing gave (legal), so it is not checked again."""
    if listed:
        held = layoff_card(rnd, action)
        assert held is not None
    else:
        held = check_layoff(rnd, action)
    player = action.player
    rnd.remove(player, held)
    meld = rnd.table[action.owner][action.index]
    meld.add(held, player)
    if rnd.variant.kind_locked:
        return
    rules = rnd.rules
    names = rules.kind_names
    if rules.wild_unique_card:
        kinds = rules.kinds_of(meld.cards, hand=rnd.hands[player])
        if meld.kind not in kinds:
            meld.kind = next(k for k in names if k in kinds)
        return
    _, naturals, wilds = meld.masks()
    bits = rules.kinds_bits_of(naturals, wilds, meld.cards)  # judged already by the check
    if meld.kind not in names or not bits >> names.index(meld.kind) & 1:
        meld.kind = names[(bits & -bits).bit_length() - 1]  # the first kind it forms


def list_layoffs(rnd: Round, player: int, keep: Sequence[Card] = ()) -> list[Layoff]:
    """Every single-card lay-off ``player`` may make now (of cards not in ``keep``):
    meld by meld, the cards of the hand (one of each face) in hand order, read from the
    meld's :func:`extenders` of the hand's cards as a bitmask (a meld none of them
    extends is passed over at once).

    A list (the listing builds one every decision): an empty table, or no meld that
    any card held extends, costs a pass over the melds and nothing more."""
    out: list[Layoff] = []
    hand = rnd.hands[player]
    if len(hand) == 1 and rnd.phase is Phase.MELD and final_discard_required(rnd):
        return out
    table = rnd.table
    targets = layoff_targets(rnd, player)
    for owner in targets:
        if table[owner]:
            break
    else:
        return out  # no meld on the table to lay off onto
    free = [c for c in hand if not any(c is k for k in keep)] if keep else hand
    two = False
    if len(hand) == 2:
        if rnd.taken is not None:
            free = [c for c in free if not only_taken_left(rnd, [o for o in hand if o is not c])]
        two = last_card_stays(rnd)
    faces = rnd.distinct_faces(free)
    if rnd.rules.wild_unique_card:
        melds = [(owner, index, meld) for owner in targets for index, meld in enumerate(table[owner])]
        out.extend(_judged_layoffs(rnd, player, melds, faces, two))
        return out
    held = 0
    for card in faces:
        held |= 1 << card.id
    shared = None
    made = _layoffs(rnd)
    for owner in targets:
        index = -1
        for meld in table[owner]:
            index += 1
            hits = meld.known_extenders(held)
            if hits < 0:
                if shared is None:
                    shared = _shared(rnd)
                hits = _extend(rnd, meld, held, shared)
            if not hits:
                continue
            for card in faces:
                if hits >> card.id & 1:
                    if two and not _last_card_fits(rnd, player, hand[1] if hand[0] is card else hand[0],
                                                   hand, grown=(meld, card)):
                        continue
                    key = card.id | player << 16 | owner << 20 | index << 24
                    action = made.get(key)
                    if action is None:
                        if len(made) >= _MADE_LIMIT:
                            made.clear()
                        action = made[key] = Layoff(player, card, owner, index)
                    out.append(action)
    return out


#: The most lay-off actions :func:`_layoffs` keeps for one deck (then it starts again).
_MADE_LIMIT = 1 << 14

_MADE: dict[int, tuple[object, object, dict[int, Layoff]]] = {}
""":func:`_layoffs` by deck (the last few kept)."""


def _layoffs(rnd: Round) -> dict[int, Layoff]:
    """The lay-off actions :func:`list_layoffs` has built for a deck, by card id, player,
    owner and meld index (bits 0-15, 16-19, 20-23 and 24 on): actions are immutable values,
    so a listing hands out the same one each time it lists that lay-off."""
    return kept(_MADE, rnd.variant.deck, 8, dict)


_TARGETS: dict[tuple[tuple[int, ...], int, bool], tuple[int, ...]] = {}
""":func:`_targets` by seats, player and whether one's own melds come first (the last few kept)."""


def _targets(seated: tuple[int, ...], player: int, own: bool) -> tuple[int, ...]:
    """:func:`layoff_targets` where opponents' melds are targets: the player (if ``own``),
    then the other seats in order (kept: a listing asks every meld-step decision)."""
    key = (seated, player, own)
    got = _TARGETS.get(key)
    if got is None:
        others = tuple(q for q in seated if q != player)
        got = (player, *others) if own else others
        if len(_TARGETS) >= 256:
            _TARGETS.pop(next(iter(_TARGETS)))
        _TARGETS[key] = got
    return got


def _judged_layoffs(rnd: Round, player: int, melds: Sequence[tuple[int, int, TableMeld]],
                    faces: Sequence[Card], two: bool) -> Iterator[Layoff]:
    """:func:`list_layoffs` under ``wild_unique_card``: a wild card, or any card onto a
    meld with wild cards, is judged with the hand each time."""
    hand = rnd.hands[player]
    held = 0
    for card in faces:
        if not card.wild:
            held |= 1 << card.id
    for owner, index, meld in melds:
        if any(c.wild for c in meld.cards):
            fitting = [c for c in faces if _judge_fit(rnd, meld, c, hand)]
        else:
            hits = extenders(rnd, meld, held)
            fitting = [c for c in faces if (_judge_fit(rnd, meld, c, hand) if c.wild else hits >> c.id & 1)]
        for card in fitting:
            if two and not _last_card_fits(rnd, player, hand[1] if hand[0] is card else hand[0],
                                           hand, grown=(meld, card)):
                continue
            yield Layoff(player, card, owner, index)
