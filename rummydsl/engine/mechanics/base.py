"""The shape every mechanic has: ``enter``, ``legal``, ``check``, ``apply``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..actions import Action
from ..state import Phase

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["Mechanic"]


class Mechanic:
    """One mechanic of play (a turn step, or a phase around the turn).

    The round calls :meth:`enter` when play reaches it, :meth:`legal` to list
    what the player to move may do, :meth:`check` before :meth:`apply`. A
    mechanic reads its settings from the variant (``rnd.variant``) and moves the
    round on with the round's flow methods (``next_step``, ``end_turn``,
    ``finish``); it never names a game.
    """

    phase: Phase = Phase.OVER

    def enter(self, rnd: Round) -> bool:
        """Start this step for ``rnd.turn_player``; False when there is nothing to do (skip it)."""
        rnd.phase = self.phase
        rnd.to_move = rnd.turn_player
        return True

    def legal(self, rnd: Round, player: int) -> Iterable[Action]:
        """The actions ``player`` (to move) may take, each once."""
        return ()

    def check(self, rnd: Round, action: Action) -> str | None:
        """Why ``action`` (by the player to move) is not allowed, or None.

        May raise :class:`~rummydsl.errors.IllegalActionError` from deep inside a
        check; the round turns it into the reason.
        """
        return "nothing can be played now"

    def apply(self, rnd: Round, action: Action) -> None:
        """Play ``action``, already checked."""
        raise NotImplementedError
