"""The types of a round's attributes, for the type checker: one declaration that the
parts of :class:`~.round.Round` (:class:`~.table.Table`, :class:`~.flow.Flow`,
:class:`~.finish.Finish`) share.

What each field *is* (its value at the deal, how it is copied and saved) is declared
where it is used, as a :class:`~.fields.Field` of the table, the flow or a mechanic;
tests/unit/test_round_state.py checks that the two agree, name for name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..cards import Card
from ..endings import Ending
from .actions import Action
from .state import PastRound, Phase, RoundResult, TableMeld

if TYPE_CHECKING:
    from ..expr.runtime import RoundFacts
    from ..melds import MeldRules
    from .mechanics.base import Mechanic
    from .prebuilt import Prebuilt
    from ..variant.model import Variant

__all__ = ["RoundState", "SETTINGS"]

SETTINGS = ("variant", "values", "highest_value", "positions", "players", "sat_out", "seated", "dealer",
            "number", "scores", "hand_size", "dealt", "earlier", "rules", "prebuilt", "forbid_taken", "_plain_deck", "_steps",
            "_knocks", "_listed", "_plan")
"""The attributes fixed when a round is dealt (and two caches: the listing, and the work a
check did for the apply that follows it): not fields."""


class RoundState:
    """The attributes of a round (types only; see the module docstring)."""

    # -- fixed at the deal (SETTINGS)
    variant: Variant
    values: Any
    highest_value: int
    positions: tuple[int, ...] | None
    players: int
    sat_out: int | None
    seated: tuple[int, ...]
    dealer: int
    number: int
    scores: tuple[int, ...]
    hand_size: int
    dealt: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card | None]
    earlier: tuple[PastRound, ...]
    rules: MeldRules
    prebuilt: Prebuilt
    forbid_taken: bool
    _plain_deck: bool
    _steps: tuple[tuple[str, Mechanic], ...]
    """Each turn step's name and mechanic, in the turn's order."""
    _knocks: bool
    """Whether the variant has a knock (``variant.knock``): a listing asks for knocks only then."""
    _listed: list[Action] | None
    _plan: tuple[Action, Any] | None
    # -- the table (table.py)
    hands: list[list[Card]]
    stock: list[Card]
    discards: list[Card]
    upcard: Card | None
    table: list[list[TableMeld]]
    known: list[list[Card]]
    # -- the flow (flow.py)
    phase: Phase
    to_move: int | None
    turn_player: int
    step: int
    drawn: bool
    final_turn: bool
    turns: int
    actions: list[Action]
    result: RoundResult | None
    # -- the mechanics (each module's FIELDS)
    stock_only: bool
    skip_draw: list[bool]
    taken: Card | None
    turn_overs: int
    must_meld: Card | None
    must_meld_copies: int
    met_contract: list[bool]
    melded_turns: list[int]
    laid_this_turn: bool
    contract_now: bool
    discard_draws: int
    throwbacks: int
    throwback_turn: int
    offered: Card | None
    last_accepted: list[Card | None]
    upcard_queue: list[int]
    claim_queue: list[int]
    must_knock: bool
    buy_queue: list[int]
    bought: list[int]
    buy_limit: int
    ender: int | None
    ending: Ending | None
    ender_deadwood: int
    face_down: Card | None
    defenders: list[int]
    declared: list[tuple[tuple[Card, ...], ...] | None]
    knock_limit: int | None

    if TYPE_CHECKING:  # the methods one part of a round calls on another
        def facts(self) -> RoundFacts: ...
        def value(self, cards: Sequence[Card]) -> int: ...
        def forget(self, player: int, card: Card) -> None: ...
        def begin_turn(self, player: int) -> None: ...
        def next_seat(self, player: int) -> int: ...
        def finish(self, ending: Ending, ender: int | None) -> None: ...
        def deadwood_of(self, player: int) -> int | None: ...
        def hand_value_of(self, player: int) -> int: ...
        def showdown_layoffs(self) -> bool: ...
