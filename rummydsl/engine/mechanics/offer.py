"""Offering a card to the next player, who takes or declines it (SK-7).

A player holding at least ``min_hand`` cards offers one (``mandatory``) or may
say ``done``; fewer, and no offer is made (SK-7.3: the last card is never
offered). A card just accepted may not be offered back when
``no_reoffer_accepted`` (SK-7.3). The next player takes it (it joins their hand)
or declines it (it stays, now seen by all); either way the offerer's turn ends.
Accepting a card the draw step's ``skip_after_accepting`` matches forfeits the
acceptor's next draw (SK-7.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import Card
from ...variant.model import OfferStep
from ..actions import Action, Decline, Done, Offer, Take, player_name
from ..state import Phase
from .base import Mechanic

from ..fields import Field, card_json
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["OfferMechanic", "AnswerMechanic"]

FIELDS: tuple[Field, ...] = (
    Field("offered", lambda rnd: None, json=lambda rnd, text: card_json(rnd.offered, text), turn=True),
    Field("last_accepted", lambda rnd: [None] * rnd.players, "list",
          json=lambda rnd, text: [card_json(c, text) for c in rnd.last_accepted]),
)
"""``offered``: the card being offered, face up (SK-7); ``last_accepted``: the card each
seat last took from an offer, this turn."""



def _step(rnd: Round) -> OfferStep:
    step = rnd.variant.turn[rnd.step]
    assert isinstance(step, OfferStep)
    return step


def offer_problem(rnd: Round, player: int, card: Card) -> str | None:
    """Why ``player`` may not offer ``card`` now, or None."""
    step = _step(rnd)
    if len(rnd.hands[player]) < step.min_hand:
        return f"a player holding fewer than {step.min_hand} cards makes no offer"
    if step.no_reoffer_accepted and card is rnd.last_accepted[player]:
        return f"{card} was just accepted and may not be offered back"
    return None


class OfferMechanic(Mechanic):
    phase = Phase.OFFER

    def enter(self, rnd: Round) -> bool:
        player = rnd.turn_player
        step = rnd.variant.turn[rnd.step]  # (_step, inline: asked every turn)
        assert isinstance(step, OfferStep)
        hand = rnd.hands[player]
        if len(hand) < step.min_hand:
            return False
        if step.no_reoffer_accepted:  # offer_problem's two reasons, read once
            barred = rnd.last_accepted[player]
            if all(c is barred for c in hand):
                return False
        rnd.phase = self.phase  # (Mechanic.enter, inline)
        rnd.to_move = player
        return True

    def legal(self, rnd: Round, player: int) -> list[Action]:
        step = rnd.variant.turn[rnd.step]  # (_step, inline)
        assert isinstance(step, OfferStep)
        hand = rnd.hands[player]
        out: list[Action] = []
        if len(hand) >= step.min_hand:  # offer_problem's two reasons, read once
            barred = rnd.last_accepted[player] if step.no_reoffer_accepted else None
            offer = rnd.prebuilt.offer[player]  # the same objects every listing (:mod:`..prebuilt`)
            out = [offer[card.id] for card in rnd.distinct_faces(hand) if card is not barred]
        if not step.mandatory:
            out.append(rnd.prebuilt.done[player])
        return out

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, Done):
            return "the offer is mandatory: offer a card" if _step(rnd).mandatory else None
        if not isinstance(action, Offer):
            return "this is the offer step: offer a card"
        held = rnd.holds(action.player, action.card)
        if held is None:
            return f"{player_name(action.player)} does not hold {action.card}"
        return offer_problem(rnd, action.player, held)

    def apply(self, rnd: Round, action: Action) -> None:
        if isinstance(action, Done):
            rnd.next_step()
            return
        assert isinstance(action, Offer)
        held = rnd.holds(action.player, action.card)
        assert held is not None
        rnd.offered = held
        rnd.phase = Phase.ANSWER
        rnd.to_move = rnd.next_seat(action.player)

    def apply_listed(self, rnd: Round, action: Action) -> None:
        if type(action) is Done:
            rnd.enter_step(rnd.step + 1)  # (next_step)
            return
        # a listed offer names the very card held (the listing's are cards of the hand)
        rnd.offered = action.card  # type: ignore[union-attr]  # an Offer
        rnd.phase = Phase.ANSWER
        rnd.to_move = rnd.next_seat(action.player)


class AnswerMechanic(Mechanic):
    phase = Phase.ANSWER

    def legal(self, rnd: Round, player: int) -> list[Action]:
        kit = rnd.prebuilt
        return [kit.take[player], kit.decline[player]]

    def check(self, rnd: Round, action: Action) -> str | None:
        if isinstance(action, (Take, Decline)):
            return None
        return f"{player_name(action.player)} must take or decline the offered {rnd.offered}"

    def apply(self, rnd: Round, action: Action) -> None:
        card = rnd.offered
        assert card is not None
        giver = rnd.turn_player
        taker = action.player
        rnd.offered = None
        if isinstance(action, Take):
            rnd.remove(giver, card)
            rnd.hands[taker].append(card)
            rnd.known[taker].append(card)
            rnd.last_accepted[taker] = card
            draw = rnd.variant.step("draw")
            skip = draw.skip_after_accepting if draw is not None else None
            if skip is not None and skip(card):
                rnd.skip_draw[taker] = True
        elif not rnd.knows_face(giver, card):
            rnd.known[giver].append(card)  # it was shown face up (a face known already: no more is known)
        rnd.next_step()
