"""The discard step: one card face up, ending the turn (GR-5, GS-5).

A card taken from the discard pile this turn may not be discarded when the
step says ``taken_card: forbidden`` (GR-4.2, GR-5). A knock may replace the
discard (:mod:`.knock`). A player who discards their last card goes out (BR-3,
CR-5): the round ends (not before meeting the contract, where there is one, and
never with ``going_out.final_discard: forbidden``, where the last card must be
melded or laid off).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ...cards import Card
from ..actions import Action, Discard, player_name
from ..table import face_bits
from ..state import Phase
from .base import Mechanic
from .keep import kept
from .voiding import void_after_discard

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["DiscardMechanic", "taken_card_forbidden", "barred"]


def taken_card_forbidden(rnd: Round) -> bool:
    """Whether the card taken from the pile this turn may not be thrown this turn
    (the discard step's ``taken_card``, read when the round is dealt)."""
    return rnd.forbid_taken


def barred(rnd: Round) -> Card | None:
    """The card that may not be discarded this turn (taken from the pile), if any."""
    return rnd.taken if rnd.forbid_taken else None


_SHARED: dict[int, tuple[object, object, tuple[int, ...]]] = {}
_LAST: list[Any] = [None, ()]
"""The last deck asked of :func:`shared_face_bits` and its answer (read inline by the listing)."""


def shared_face_bits(deck: Any) -> tuple[int, ...]:
    """:func:`~..table.face_bits` by card id, but 0 for a card whose face no other card of
    the deck has (the discard listing looks at the others only), kept per deck."""
    bits = kept(_SHARED, deck, 16, lambda: _shared_only(face_bits(deck)))
    _LAST[:] = deck, bits
    return bits


def _shared_only(bits: tuple[int, ...]) -> tuple[int, ...]:
    counts: dict[int, int] = {}
    for bit in bits:
        counts[bit] = counts.get(bit, 0) + 1
    return tuple(bit if counts[bit] > 1 else 0 for bit in bits)


def last_card_kept(rnd: Round, player: int) -> str | None:
    """Why ``player`` may not discard their last card (going out by discarding), or None."""
    if rnd.variant.going_out.final_discard == "forbidden":
        return ("the last card cannot be discarded (going_out.final_discard: forbidden): "
                "go out by melding or laying it off")
    if not rnd.met_contract[player]:
        return "a player cannot go out before meeting the contract"
    return None


class DiscardMechanic(Mechanic):
    phase = Phase.DISCARD

    def legal(self, rnd: Round, player: int) -> Iterable[Action]:
        hand = rnd.hands[player]
        if (rnd.must_meld is not None and _pending(rnd)) or (len(hand) == 1
                                                             and last_card_kept(rnd, player) is not None):
            return []
        taken = rnd.taken if rnd.forbid_taken else None
        discard = rnd.prebuilt.discard[player]  # the same objects every listing (:mod:`..prebuilt`)
        if rnd._plain_deck:
            return [discard[c.id] for c in hand if c is not taken]
        # rnd.distinct_faces of the cards but the one taken, inline: only a face some other
        # card of the deck has is looked at (wild cards that share one face; every face of two packs)
        deck = rnd.variant.deck
        bits = _LAST[1] if _LAST[0] is deck else shared_face_bits(deck)
        seen = 0
        if taken is None:  # (most turns: the card drawn from the stock)
            return [discard[c.id] for c in hand if not (bit := bits[c.id]) or not seen & bit and (seen := seen | bit)]
        return [discard[c.id] for c in hand
                if c is not taken and (not (bit := bits[c.id]) or not seen & bit and (seen := seen | bit))]

    def check(self, rnd: Round, action: Action) -> str | None:
        if not isinstance(action, Discard):
            return "this is the discard step: discard a card (or knock)"
        if rnd.must_meld is not None and _pending(rnd):
            from .deep import pending_reason

            return pending_reason(rnd)
        held = rnd.holds(action.player, action.card, barred(rnd))
        if held is None:
            return f"{player_name(action.player)} does not hold {action.card}"
        if held is rnd.taken and taken_card_forbidden(rnd):
            return f"{held} was taken from the discard pile this turn and cannot be discarded now"
        if len(rnd.hands[action.player]) == 1:
            return last_card_kept(rnd, action.player)
        return None

    def apply(self, rnd: Round, action: Action) -> None:
        if TYPE_CHECKING:
            assert isinstance(action, Discard)
        if not rnd._plain_deck:  # (one card of each face, a plain deck: the card named is the one held)
            copy = rnd.holds(action.player, action.card, rnd.taken if rnd.forbid_taken else None)
            assert copy is not None
            if copy is not action.card:  # the copy held, discarded as the listing names it
                action = rnd.prebuilt.discard[action.player][copy.id]
        self.apply_listed(rnd, action)

    def apply_listed(self, rnd: Round, action: Action) -> None:
        if TYPE_CHECKING:
            assert isinstance(action, Discard)
        player = action.player
        held = action.card  # a listed discard names a card of the hand (not the one barred)
        rnd.remove(player, held)
        rnd.discards.append(held)
        if rnd.variant.void.after_throwbacks is not None and void_after_discard(rnd, held):
            return  # a row of throwbacks: the round is void (``void.after_throwbacks``)
        if rnd.hands[player] or not rnd.goes_out(player):  # BR-3: going out by discarding (an empty hand)
            rnd.end_turn(discarded=True)


def _pending(rnd: Round) -> bool:
    """Whether a deep-drawn card still waits to be melded (R5-3; :mod:`.deep` imports the
    melding module, which imports this one, so it is asked here on use)."""
    from .deep import pending

    return pending(rnd) is not None
