"""Lay-offs and going out: which melds a card may be laid off onto, checking and listing
lay-offs, and the rules that keep a card for the last discard (SK-6, BR-3, GR-7).

Part of the meld step (:mod:`.melding`), and used by the showdown after a knock
(:mod:`.knock`) and deep draws (:mod:`.deep`). Which cards extend a meld, as bitmasks kept
on each meld, and the listing's quick answer are :mod:`.layoffmasks`'.
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
from .layoffmasks import _extend, _shared, candidates_of, extenders

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["layoff_targets", "check_layoff", "apply_layoff", "list_layoffs", "final_discard_required",
           "FINAL_DISCARD_REASON", "TAKEN_LAST_REASON", "only_taken_left", "last_card_stays", "LAST_CARD_REASON"]

_MELD = Phase.MELD

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
    """:func:`_fits`, worked out: only a card the kinds' shapes let extend the meld
    (:func:`.layoffmasks.candidates_of`) is judged by the patterns."""
    if not candidates_of(rnd, meld) >> card.id & 1:
        return False
    kinds = rnd.rules.kinds_of([*meld.cards, card], hand=hand)
    return bool(kinds) and (not rnd.variant.kind_locked or meld.kind in kinds)


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
    player = action.player
    if listed:
        # a listed lay-off names the very card held (the listing's are cards of the hand),
        # which layoff_card gives back but for a defender's shown melds (GR-7.1)
        held = layoff_card(rnd, action) if rnd.declared[player] else action.card
        assert held is not None
    else:
        held = check_layoff(rnd, action)
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


def _free_cards(rnd: Round, hand: Sequence[Card], held: int,
                keep: Sequence[Card]) -> tuple[Sequence[Card], int, bool]:
    """The cards of ``hand`` (card-id mask ``held``) a lay-off may take, one of each face
    in hand order, with their mask, and whether the last card must stay playable (a hand
    of two: :func:`last_card_stays`): not the cards of ``keep``, nor with two cards one
    whose lay-off would leave only the card taken this turn."""
    two = False
    if keep or len(hand) == 2:
        free = [c for c in hand if not any(c is k for k in keep)] if keep else hand
        if len(hand) == 2:
            if rnd.taken is not None:
                free = [c for c in free if not only_taken_left(rnd, [o for o in hand if o is not c])]
            two = last_card_stays(rnd)
        faces = rnd.distinct_faces(free)
    else:
        faces = rnd.distinct_faces(hand)
    if faces is hand:
        return faces, held, two
    free_held = 0
    for card in faces:
        free_held |= 1 << card.id
    return faces, free_held, two


def list_layoffs(rnd: Round, player: int, keep: Sequence[Card] = ()) -> list[Layoff]:
    """Every single-card lay-off ``player`` may make now (of cards not in ``keep``):
    meld by meld, the cards of the hand (one of each face) in hand order, read from the
    meld's :func:`extenders` of the hand's cards as a bitmask.

    A list (the listing builds one every decision). The quick answer comes first: a
    meld whose kept extenders (``TableMeld._extenders``) know every card held and take
    none of them is passed over with one bitmask test, and the cards free to lay off
    (:func:`_free_cards`) are worked out only at the first meld a card held may extend,
    so that a table none of the hand's cards extends (most meld steps of most games)
    costs that and nothing more."""
    out: list[Layoff] = []
    phase = rnd.phase
    if phase is _MELD:  # (layoff_targets, inline: the meld step lists every decision)
        if not rnd.met_contract[player]:
            return out
        step = rnd.variant.turn[rnd.step]
        assert isinstance(step, MeldStep)
        if step.add_to_opponents:
            targets: Sequence[int] = _targets(rnd.seated, player, step.add_to_own)
            if not targets:
                return out
        elif step.add_to_own:
            targets = (player,)
        else:
            return out
    else:
        targets = layoff_targets(rnd, player)
        if not targets:
            return out
    if rnd.rules.wild_unique_card:
        return _unique_layoffs(rnd, player, targets, keep)
    hand = rnd.hands[player]
    if len(hand) == 1 and phase is _MELD and final_discard_required(rnd):
        return out  # the last card must be discarded
    held = 0
    for card in hand:
        held |= 1 << card.id
    faces: Sequence[Card] = ()
    free_held = -1  # (the cards to list, worked out for the first meld a card held may extend)
    two = False
    plain = not keep and len(hand) != 2 and rnd._plain_deck  # (_free_cards gives the hand itself)
    shared = None
    made = None
    deck_cards = rnd.variant.deck.cards
    table = rnd.table
    for owner in targets:
        for index, meld in enumerate(table[owner]):
            got = meld._extenders  # (reached(): meld.known_extenders(held), inline)
            if got is None or held & ~got[2] or got[0] != len(meld.cards) or got[1] != meld.kind:
                hits = -1
            else:
                hits = got[3] & held
                if not hits:
                    continue  # no card held extends it (most melds of most meld steps)
            if free_held < 0:
                if plain:
                    faces, free_held = hand, held
                else:
                    faces, free_held, two = _free_cards(rnd, hand, held, keep)
            if hits < 0:
                if free_held != held:
                    hits = meld.known_extenders(free_held)
                if hits < 0:
                    if shared is None:
                        shared = _shared(rnd)
                    hits = _extend(rnd, meld, free_held, shared)
                if not hits:
                    continue
            else:
                hits &= free_held  # (a part of the cards held)
                if not hits:
                    continue
            if made is None:
                made = _layoffs(rnd)
            # the cards in hand order (one card: the deck's card of its id, the face held)
            for card in faces if hits & (hits - 1) else (deck_cards[hits.bit_length() - 1],):
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


def _unique_layoffs(rnd: Round, player: int, targets: Sequence[int], keep: Sequence[Card]) -> list[Layoff]:
    """:func:`list_layoffs` under ``wild_unique_card`` (:func:`_judged_layoffs`)."""
    hand = rnd.hands[player]
    table = rnd.table
    melds = [(owner, index, meld) for owner in targets for index, meld in enumerate(table[owner])]
    if not melds or len(hand) == 1 and rnd.phase is Phase.MELD and final_discard_required(rnd):
        return []
    free = [c for c in hand if not any(c is k for k in keep)] if keep else hand
    two = False
    if len(hand) == 2:
        if rnd.taken is not None:
            free = [c for c in free if not only_taken_left(rnd, [o for o in hand if o is not c])]
        two = last_card_stays(rnd)
    return list(_judged_layoffs(rnd, player, melds, rnd.distinct_faces(free), two))


#: The most lay-off actions :func:`_layoffs` keeps for one deck (then it starts again).
_MADE_LIMIT = 1 << 14

_MADE: dict[int, tuple[object, object, dict[int, Layoff]]] = {}
""":func:`_layoffs` by deck (the last few kept)."""


def _layoffs(rnd: Round) -> dict[int, Layoff]:
    """The lay-off actions :func:`list_layoffs` has built for a deck, by card id, player,
    owner and meld index (bits 0-15, 16-19, 20-23 and 24 on): actions are immutable values,
    so a listing hands out the same one each time it lists that lay-off. The last deck
    asked is looked at first (:data:`_LAST_MADE`)."""
    deck = rnd.variant.deck
    last = _LAST_MADE
    if last[0] is deck:
        got: dict[int, Layoff] = last[1]
        return got
    got = kept(_MADE, deck, 8, dict)
    last[:] = [deck, got]
    return got


_LAST_MADE: list[Any] = [None, None]
"""The last deck and what :func:`_layoffs` gave for it."""


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
