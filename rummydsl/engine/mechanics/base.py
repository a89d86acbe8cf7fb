"""The shape every mechanic has: ``enter``, ``legal``, ``check``, ``apply``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..actions import Action
from ..state import Phase

if TYPE_CHECKING:
    from ..round import Round

__all__ = ["Mechanic", "QueueMechanic"]


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
        """The actions ``player`` (to move) may take, each once (a list returned is the
        caller's to keep: build a new one each call)."""
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

    def apply_listed(self, rnd: Round, action: Action) -> None:
        """Play ``action``, one of the very objects :meth:`legal` just listed: known legal,
        so what :meth:`check` would work out again (a meld's contract, a lay-off's fit) is
        not. It must leave the round as :meth:`apply` after a check does
        (tests/engine/test_apply_listed.py plays both). A mechanic that does not define it
        plays a listed action with its :meth:`apply` (:meth:`__init_subclass__`)."""
        self.apply(rnd, action)

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A mechanic that defines :meth:`apply` but not :meth:`apply_listed` plays a listed
        action with that same function (no call in between: Gin's every step takes it)."""
        super().__init_subclass__(**kwargs)
        if "apply" in cls.__dict__ and "apply_listed" not in cls.__dict__:
            cls.apply_listed = cls.__dict__["apply"]  # type: ignore[method-assign]


class QueueMechanic(Mechanic):
    """A phase that asks seats one after another, out of turn, whether they take
    something: the upcard (GR-4), a last discard (GR-8), the top discard to buy (CR-4).

    The queue of seats still to answer is the field named :attr:`queue` (declared in the
    mechanic's ``FIELDS``). :meth:`open` starts the phase with the seats in order;
    :meth:`answered` takes the seat that answered off the queue and hands the move to
    the next one, or says that everyone has answered, for the mechanic to go on.
    """

    queue: str = ""
    """The name of the round's field that holds the seats still to answer."""
    forget_rest: bool = False
    """Whether a take empties the queue (buying); the upcard and the claim keep the seats
    never asked, as the round's JSON and saves have always recorded them."""

    def open(self, rnd: Round, seats: list[int]) -> bool:
        """Ask ``seats`` in order, the first now; False (nothing changed) if there are none."""
        if not seats:
            return False
        setattr(rnd, self.queue, seats)
        rnd.phase = self.phase
        rnd.to_move = seats[0]
        return True

    def answered(self, rnd: Round, *, taken: bool) -> bool:
        """The seat first in the queue has answered (``taken``: it took what was offered,
        and nobody after it is asked). True if the next seat is now to move; False if the
        phase is over (taken, or everyone refused), for the mechanic to go on."""
        queue: list[int] = getattr(rnd, self.queue)
        queue.pop(0)
        if taken:
            if self.forget_rest:
                queue.clear()
            return False
        if queue:
            rnd.to_move = queue[0]
            return True
        return False
