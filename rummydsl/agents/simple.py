"""``simple``: OpenSpiel's simple gin bot, written again from its published description
(the strategy summary of ``open_spiel/bots/gin_rummy/simple_gin_rummy_bot.h``), as a
reference player to measure against. No code of it is used.

The strategy as described there, in this engine's words:

- **Drawing** (the upcard or the top discard): take it when that allows a knock at
  once (after taking it, the best discard leaves deadwood the knock allows), or when
  the card lies in a meld of the best arrangement and taking it (then the best
  discard) lowers the hand's deadwood; else draw from the stock (or pass the upcard).
- **Discarding**: knock whenever a knock is legal (the one leaving least deadwood,
  big gin first); else throw the unmelded card worth the most points of the hand's
  best arrangement (ties: the highest card id, where the original breaks them
  arbitrarily).
- **After a knock**: as a defender, lay off nothing (``done``).

Phases the description does not cover (melding in a going-out game, contracts, buys,
offers) are played as :class:`~rummydsl.agents.basic.GreedyAgent` plays them.

>>> import random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Game, play_game
>>> result = play_game(Game(load_variant("gin_rummy"), random.Random(2)), [SimpleGinAgent(), SimpleGinAgent()])
>>> result.winner in (0, 1)
True
"""

from __future__ import annotations

from ..engine.actions import Action, Discard, Done, Draw, Knock, Pass
from ..engine.observe import Observation
from ..limits import MAX_HAND
from .basic import GreedyAgent

__all__ = ["SimpleGinAgent"]


class SimpleGinAgent(GreedyAgent):
    """OpenSpiel's simple gin bot, by its description (module docstring)."""

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        phase = observation.phase
        if len(observation.hand) > MAX_HAND:
            return super().act(observation)
        if phase in ("upcard", "draw"):
            take = next((a for a in legal if isinstance(a, Draw) and a.source in ("discard", "upcard")), None)
            other: Action | None = next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), None)
            if other is None:
                other = next((a for a in legal if isinstance(a, Pass)), None)
            if take is not None and other is not None:
                return take if self._worth_taking(observation) else other
        if phase == "discard":
            knocks = [a for a in legal if isinstance(a, Knock)]
            if knocks:
                return self._best_knock(observation, knocks)
            discards = [a for a in legal if isinstance(a, Discard)]
            if discards:
                return self._dearest_deadwood(observation, discards)
        if phase == "showdown" and observation.ender != observation.player:
            done = next((a for a in legal if isinstance(a, Done)), None)
            if done is not None:
                return done
        return super().act(observation)

    def _worth_taking(self, observation: Observation) -> bool:
        card = observation.top_discard if observation.phase == "draw" else observation.upcard
        if card is None:
            card = observation.top_discard
        if card is None:
            return False
        rules = observation.rules
        hand = observation.hand
        with_card = [*hand, card]
        after = self._after_shedding(observation, with_card, card)  # the taken card may not go back
        limit = observation.knock_limit
        if limit is not None and after <= limit:
            return True
        melded = any(c is card for meld in rules.solve(with_card, check_contract=False).melds for c in meld)
        return melded and after < rules.min_deadwood(hand)

    @staticmethod
    def _dearest_deadwood(observation: Observation, discards: list[Discard]) -> Action:
        values = observation.variant.card_values
        best = observation.rules.solve(observation.hand, check_contract=False)
        loose = {c.id for c in best.unmatched}
        pool = [a for a in discards if a.card.id in loose] or discards
        return max(pool, key=lambda a: (values[a.card.id], a.card.id))
