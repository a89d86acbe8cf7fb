"""``heuristic``: the greedy agent with three ideas of the field added, for every variant.

1. **Safe discards.** Among the discards that leave at most :data:`SLACK` more deadwood
   than the best one, it throws the card least likely to help the next player: the one
   sharing a rank, or a suit within two ranks, with the fewest cards that player was
   seen taking (``Observation.known``), the dearer first. A card that player could not
   use is as good a discard as the least deadwood, and giving a meld away costs more.
2. **Take only to meld.** It takes the top discard (in the draw step, not the upcard)
   only when the card then lies in a meld of the hand's best arrangement; a card taken
   merely because it is lower than one held tells the others what it collects and
   gains little.
3. **Wary knocks.** Where the knock has a limit (Gin), it holds back a knock leaving
   more than :data:`WARY_DEADWOOD` deadwood while an opponent has been seen taking
   at least :data:`WARY_PICKS` cards and the stock still holds more than
   :data:`WARY_STOCK` (an undercut is then likeliest, and there is time to improve).
4. **Safe offers.** Where a turn ends by offering a card to the next player, who may
   take it (SK-7), it offers, among the cards its best arrangement leaves unmelded,
   the one that player is least likely to meld (:func:`meld_chance`, in steps of
   :data:`OFFER_STEP`), the dearest first. A card is taken only when it melds in the
   taker's hand, so a safe offer gives nothing away; greedy offers its dearest loose card
   whatever the taker was seen collecting.

Everything else is :class:`~rummydsl.agents.basic.GreedyAgent`'s play. The parameters:

============================  =======  ====================================================
name                          default  meaning
============================  =======  ====================================================
:data:`SLACK`                 1        extra deadwood a safer discard may leave
:data:`WARY_DEADWOOD`         5        the most deadwood it knocks with when wary
:data:`WARY_PICKS`            2        cards an opponent took from the pile, to be wary
:data:`WARY_STOCK`            10       the stock left below which it knocks anyway
:data:`OFFER_STEP`            0.05     chances to meld closer than this count as equal
============================  =======  ====================================================

>>> import random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Game, play_game
>>> result = play_game(Game(load_variant("gin_rummy"), random.Random(2)), [HeuristicAgent(), HeuristicAgent()])
>>> result.winner in (0, 1)
True
"""

from __future__ import annotations

from typing import Sequence

from ..cards import Card
from ..engine.actions import Action, Discard, Draw, Knock, Offer
from ..engine.observe import Observation
from ..limits import MAX_HAND
from .basic import GreedyAgent
from .fast import forms_meld, links

__all__ = ["HeuristicAgent", "SLACK", "WARY_DEADWOOD", "WARY_PICKS", "WARY_STOCK", "OFFER_STEP", "meld_chance"]

SLACK = 1
WARY_DEADWOOD = 5
WARY_PICKS = 2
WARY_STOCK = 10
OFFER_STEP = 0.05


class HeuristicAgent(GreedyAgent):
    """Greedy, with safe discards, takes only to meld, wary knocks and safe offers (module docstring)."""

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        phase = observation.phase
        if phase == "discard" and self._plain(observation):
            knocks = [a for a in legal if isinstance(a, Knock)]
            if knocks and observation.knock_limit is not None and not self._wary(observation, knocks):
                return self._best_knock(observation, knocks)
            discards = [a for a in legal if isinstance(a, Discard)]
            if discards:
                return self._safe_discard(observation, discards)
        if phase == "draw" and self._plain(observation):
            take = next((a for a in legal if isinstance(a, Draw) and a.source == "discard"), None)
            stock = next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), None)
            if take is not None and stock is not None and self._pile_helps(observation):
                return take if self._melds_top(observation) else stock
        if phase == "offer":
            offers = [a for a in legal if isinstance(a, Offer)]
            if len(offers) > 1:
                return self._safe_offer(observation, offers)
        return super().act(observation)

    def _safe_offer(self, observation: Observation, offers: Sequence[Offer]) -> Action:
        """Idea 4: among the cards its best arrangement leaves unmelded, the one the receiver
        is least likely to meld (:func:`meld_chance`), the dearest first; a hand melded whole
        offers as greedy does."""
        hand = observation.hand
        if len(hand) > MAX_HAND:
            return super().act(observation)
        rules = observation.rules
        loose = {c.id for c in rules.solve(hand, check_contract=False).unmatched}
        options = [a for a in offers if a.card.id in loose]
        if not options:
            return super().act(observation)
        receiver = self._next_seat(observation)
        values = observation.variant.card_values
        chance = {id(a): meld_chance(observation, receiver, a.card) for a in options}
        return min(options, key=lambda a: (round(chance[id(a)] / OFFER_STEP), -values[a.card.id], -a.card.id))

    @staticmethod
    def _plain(observation: Observation) -> bool:
        """A hand the ideas apply to: no contract to work towards, no deep draws, within the solver."""
        variant = observation.variant
        draw = variant.step("draw")
        return (variant.contract is None and (draw is None or draw.discard_depth != "any")
                and len(observation.hand) <= MAX_HAND and observation.turn_overs == 0)

    def _next_seat(self, observation: Observation) -> int:
        seats = [p for p in range(observation.players) if p != observation.sat_out]
        at = seats.index(observation.player) if observation.player in seats else 0
        return seats[(at + 1) % len(seats)]

    def _wary(self, observation: Observation, knocks: Sequence[Knock]) -> bool:
        best = self._best_knock(observation, knocks)
        left = self._knock_deadwood(observation, best)
        others = [p for p in range(observation.players) if p != observation.player and p != observation.sat_out]
        picks = max(len(observation.known(p)) for p in others)  # any of them may undercut
        return left > WARY_DEADWOOD and picks >= WARY_PICKS and observation.stock_size > WARY_STOCK

    def _safe_discard(self, observation: Observation, discards: Sequence[Discard]) -> Action:
        rules = observation.rules
        hand = observation.hand
        values = observation.variant.card_values
        taken = observation.taken
        options = [a for a in discards if a.card is not taken] or list(discards)
        left = {id(a): rules.min_deadwood([c for c in hand if c is not a.card]) for a in options}
        least = min(left.values())
        near = [a for a in options if left[id(a)] <= least + SLACK]
        wanted = observation.known(self._next_seat(observation))
        return min(near, key=lambda a: (_danger(a.card, wanted), left[id(a)], -values[a.card.id], -a.card.id))

    @staticmethod
    def _melds_top(observation: Observation) -> bool:
        card = observation.top_discard
        if card is None:
            return False
        best = observation.rules.solve([*observation.hand, card], check_contract=False)
        return any(c is card for meld in best.melds for c in meld)


def _danger(card: Card, wanted: Sequence[Card]) -> int:
    """How many of ``wanted`` share ``card``'s rank or lie within two ranks in its suit (a wild card: all)."""
    if card.wild or card.rank is None:
        return len(wanted)
    count = 0
    for other in wanted:
        if other.wild or other.rank is None:
            continue
        if other.rank.order == card.rank.order or (other.suit is card.suit
                                                    and abs(other.rank.order - card.rank.order) <= 2):
            count += 1
    return count


def meld_chance(observation: Observation, seat: int, card: Card) -> float:
    """How likely ``card`` is to form a three-card meld with two cards of ``seat``'s hand,
    from what ``observation`` shows: the expected number of such pairs ``seat`` holds (the
    sum over the pairs of cards that meld with it of the chance ``seat`` holds both), a
    card seen going into that hand (``known``) held for sure, a card not seen anywhere held
    with the share of that hand not seen, the others' not."""
    rules = observation.rules
    mine = {c.id for c in observation.hand}
    seen = set(mine)
    for melds in observation.table:
        for meld in melds:
            seen.update(c.id for c in meld.cards)
    seen.update(c.id for c in observation.discards)
    held = {c.id for c in observation.known(seat)}
    for p in range(observation.players):
        if p != observation.player and p != seat:
            seen.update(c.id for c in observation.known(p))
    unseen = [c for c in rules.deck.cards if c.id not in seen and c.id not in held and c.id != card.id]
    hidden_hand = max(0, observation.hand_sizes[seat] - len(held))
    share = hidden_hand / len(unseen) if unseen else 0.0
    masks = links(rules)
    near = masks[card.id]
    pool = [(c, 1.0) for c in rules.deck.cards if c.id in held and c.id != card.id and near >> c.id & 1]
    pool += [(c, share) for c in unseen if near >> c.id & 1]
    total = 0.0
    for i, (one, p_one) in enumerate(pool):
        for two, p_two in pool[i + 1:]:
            if masks[one.id] >> two.id & 1 and forms_meld(rules, card, one, two):
                total += p_one * p_two
    return total
