"""The flow of a round: the one place that sets the phase and the seat to move.

:class:`Flow` is the part of :class:`~.round.Round` that moves a turn from step to step
and from seat to seat (``start_turn``, ``enter_step``, ``next_step``, ``end_turn``),
ends it at the stock's floor, and notes what a turn did. A turn's fields (``turn=True``
in any part's ``FIELDS``) are set back to their start when a turn begins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..endings import Ending
from .actions import player_name
from .fields import Field
from .mechanics import CLAIM
from .roundstate import RoundState
from .state import Phase

if TYPE_CHECKING:
    from .round import Round

__all__ = ["Flow", "FIELDS"]

FIELDS: tuple[Field, ...] = (
    Field("phase", lambda rnd: Phase.DRAW, json=lambda rnd, text: rnd.phase.value),
    Field("to_move", lambda rnd: None,
          json=lambda rnd, text: None if rnd.to_move is None else player_name(rnd.to_move)),
    Field("turn_player", lambda rnd: rnd.next_seat(rnd.dealer), json=lambda rnd, text: player_name(rnd.turn_player)),
    Field("step", lambda rnd: 0, json=lambda rnd, text: rnd.step),
    Field("drawn", lambda rnd: False, json=lambda rnd, text: rnd.drawn, turn=True),
    Field("final_turn", lambda rnd: False, json=lambda rnd, text: rnd.final_turn, turn=True),
    Field("turns", lambda rnd: 0, json=lambda rnd, text: rnd.turns),
    Field("actions", lambda rnd: [], "list", json=lambda rnd, text: [str(a) for a in rnd.actions]),
    Field("result", lambda rnd: None, json=lambda rnd, text: None if rnd.result is None else rnd.result.as_json()),
)
"""The ``phase`` and the seat ``to_move``; the ``turn_player`` and the ``step`` of the
turn it is in; whether it has ``drawn``; whether this is the ``final_turn`` (the stock
at its floor); how many ``turns`` began; every action so far; the ``result`` once over."""

class Flow(RoundState):
    """The flow of a round's turns (its state: ``FIELDS``)."""

    _turn_start: dict[str, object] = {}
    """Each field a turn owns and its value when a turn begins (filled in by :mod:`.round`
    from the fields' declarations; a turn field starts at a constant: its ``initial``
    does not read the round)."""

    def next_seat(self, player: int) -> int:
        """The seat dealt in nearest ``player``'s left: who plays after ``player`` (every
        turn, offer and queue goes round by this, skipping a seat sitting out, G3-1;
        tests/engine/test_sit_out.py shows it)."""
        nxt = (player + 1) % self.players
        if nxt == self.sat_out:
            nxt = (nxt + 1) % self.players
        return nxt

    def seats_after(self, player: int) -> list[int]:
        """The other seats dealt in, in turn order from ``player``'s left (defenders, claims)."""
        n = self.players
        return [q for q in ((player + k) % n for k in range(1, n)) if q != self.sat_out]

    def begin_turn(self, player: int) -> None:
        """Make ``player`` the player on turn, with a fresh turn's state (every ``turn`` field)."""
        state = self.__dict__
        state.update(self._turn_start)
        state["turn_player"] = state["to_move"] = player
        state["turns"] += 1

    def start_turn(self, player: int) -> None:
        """Begin ``player``'s turn at its first step."""
        state = self.__dict__  # begin_turn, inline (every turn begins here)
        state.update(self._turn_start)
        state["turn_player"] = state["to_move"] = player
        state["turns"] += 1
        self.enter_step(0)

    def enter_step(self, index: int) -> None:
        """Go to step ``index`` of the turn, skipping steps with nothing to do; past the
        last step the turn ends."""
        steps = self._steps
        skip = self.variant.stock.final_turn_skip if self.final_turn else ()
        last = len(steps)
        while index < last:
            self.step = index
            name, mechanic = steps[index]
            if name not in skip and mechanic.enter(self):  # type: ignore[arg-type]  # a Flow is a Round's part
                return
            if self.result is not None:
                return
            index += 1
        self.end_turn()

    def next_step(self) -> None:
        """Go on to the step after the current one."""
        self.enter_step(self.step + 1)

    def end_turn(self, discarded: bool = False) -> None:
        """End the turn: the next player's turn, or the stock floor's ending after a final turn."""
        player = self.turn_player
        self.last_accepted[player] = None
        if self.final_turn:
            if not (discarded and CLAIM.begin(cast("Round", self), player)):
                self.end_at_floor()
            return
        nxt = (player + 1) % self.players  # next_seat, inline
        if nxt == self.sat_out:
            nxt = (nxt + 1) % self.players
        self.start_turn(nxt)

    def end_at_floor(self) -> None:
        """The round ends at the stock floor: void, or scored as ``stock_end`` (GR-8, SK-9;
        with ``discard_only`` when the player to draw passes or the pile is empty, R5-5);
        void too when the discard pile cannot be turned over (``turn_over``, BR-4)."""
        scored = self.variant.stock.at_floor in ("stock_end", "discard_only")
        self.finish(Ending.STOCK_END if scored else Ending.VOID, None)

    def put_on_table(self, player: int) -> None:
        """Note that ``player``, on turn, put a card on the table (``melded_turns``)."""
        if not self.laid_this_turn:
            self.laid_this_turn = True
            self.melded_turns[player] += 1

    def goes_out(self, player: int) -> bool:
        """End the round if ``player`` has emptied their hand and may go out (SK-8, BR-3)."""
        if self.hands[player] or not self.met_contract[player]:
            return False
        self.finish(Ending.OUT, player)
        return True
