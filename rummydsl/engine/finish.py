"""The end of a round: the showdown after a knock, everyone's deadwood, the points.

:class:`Finish` is the part of :class:`~.round.Round` that ends it: whether defenders
show melds and lay off (GR-7), the move nobody decides (a defender's ``done`` after
gin), each hand's deadwood and value, and :meth:`Finish.finish`, which scores the round
by the variant's scoring (:func:`rummydsl.scoring.score_round`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..endings import Ending
from ..limits import MAX_HAND
from ..scoring import score_round
from .actions import Action, Done
from .mechanics.arrangement import as_shown, unshown_deadwood
from .mechanics.credit import melded_total
from .roundstate import RoundState
from .state import Phase, RoundResult

if TYPE_CHECKING:
    from .round import Round

__all__ = ["Finish"]

_SHOWDOWN = Phase.SHOWDOWN
_KNOCKS = (Ending.KNOCK, Ending.GIN, Ending.BIG_GIN)
"""The endings a defender can undercut: another player scoring after going out is no undercut (R5-6)."""


class Finish(RoundState):
    """How a round ends and is scored."""

    def showdown(self) -> bool:
        """Whether the defenders show their melds before the round is scored: after every
        ending a knock makes (knock, gin, big gin) where defenders face the knocker's melds
        (``layoff.onto`` is not ``none``; GR-7.1: after gin they show melds but lay off
        nothing unless ``after_gin``, :meth:`showdown_layoffs`)."""
        return self.ender is not None and self.variant.layoff.onto != "none"

    def automatic(self) -> Action | None:
        """The move play makes for the player to move without asking its agent, or None.

        A defender after gin, when nothing may be laid off (GR-7.1), has nothing to
        decide: a defender is scored on its least deadwood (C-6), so melds it shows
        cannot change the score, and the listing offers only ``done``. Play loops say
        ``done`` for it, so agents see the same decisions (and seeded games give the
        same figures) as before the showdown waited for defenders after gin; a script,
        a suite or a caller of :meth:`apply` may still show melds first. With
        ``deadwood.arrangement: as_shown`` the melds shown count, so the defender decides.
        """
        if (self.phase is _SHOWDOWN and self.to_move is not None and not self.showdown_layoffs()
                and not as_shown(cast("Round", self))):
            return Done(self.to_move)
        return None

    def showdown_layoffs(self) -> bool:
        """Whether defenders may lay off after this ending (GR-7.1, GR-7.2, GS-6.4)."""
        layoff = self.variant.layoff
        if layoff.onto == "none" or self.ender is None:
            return False
        return self.ending == Ending.KNOCK or layoff.after_gin

    def deadwood_of(self, player: int) -> int | None:
        """``player``'s deadwood now: the ender's as shown, anyone else's the least their
        hand allows (C-6: engines compute the minimum; melds a defender showed are part
        of such an arrangement, checked when shown); None for a hand larger than the
        meld solver takes (:data:`~rummydsl.limits.MAX_HAND` cards, after deep draws)."""
        hand = self.hands[player]
        if not hand:
            return 0
        if self.ender == player:
            return self.ender_deadwood
        if self.declared[player] is not None and as_shown(cast("Round", self)):
            return unshown_deadwood(cast("Round", self), player)  # deadwood.arrangement: as_shown
        if len(hand) > MAX_HAND:
            return None
        return self.rules.min_deadwood(hand)  # the number alone: no arrangement to build (big hands, SK-10.3)

    def hand_value_of(self, player: int) -> int:
        """``player``'s hand value now ("hand value" of RULES-FAMILY.md): every card in
        the hand, melds still held included; a knocker's shown melds count too (they
        were shown from the hand at the end, not laid down in play)."""
        held = self.value(self.hands[player])
        if player == self.ender and self.ending in _KNOCKS:
            held += sum(self.value(meld) for meld in self.declared[player] or ())
        return held

    def finish(self, ending: Ending, ender: int | None) -> None:
        """End the round: everyone's deadwood, and the points by the variant's scoring."""
        n = self.players
        deadwoods = tuple(self.deadwood_of(p) for p in range(n))
        if ending == Ending.VOID:
            points: tuple[int, ...] = (0,) * n
        else:
            facts = self.facts()
            facts.ender = ender
            facts.ending = ending
            facts.deadwoods = deadwoods
            facts.contracts = tuple(self.met_contract)
            facts.hand_values = tuple(self.hand_value_of(p) for p in range(n))
            facts.melded = tuple(self.melded_turns)
            facts.hand_cards = tuple(len(hand) for hand in self.hands)
            facts.melded_of = lambda player: melded_total(cast("Round", self), player)
            got = score_round(self.variant, facts)
            points = tuple(int(got.get(p, 0)) for p in range(n))
        undercut = ending in _KNOCKS and ender is not None and any(points[q] > 0 for q in range(n) if q != ender)
        self.ender = ender
        self.ending = ending
        self.phase = Phase.OVER
        self.to_move = None
        self.result = RoundResult(ending, ender, deadwoods, points, undercut, self.turns,
                                  self.variant.game.winner == "lowest")
