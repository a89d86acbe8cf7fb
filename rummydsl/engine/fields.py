"""A round's state, declared where it is used.

Each part of a round declares the fields it owns, where its code is: the table
(:mod:`.table`: hands, stock, discard pile, table melds, known cards), the flow
(:mod:`.flow`: phase, seat to move, turn, step) and each mechanic (``FIELDS`` in its
module of :mod:`.mechanics`: the upcard queue, the claim, buying, the offer, a deep
draw, voiding, melding, the knock). :class:`~.round.Round` builds, copies and writes
its state by going over these declarations, so a new mechanic's state is declared
once, beside its rules, and is then dealt, copied for undo and search, saved and
relabelled by a redeal (``Match.resample``) with no list kept by hand elsewhere.

>>> f = Field("bought", lambda rnd: [0] * rnd.players, kind="list",
...           json=lambda rnd, text: seat_map(rnd.bought))
>>> f.kind, f.key
('list', 'bought')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Literal, Sequence

from ..cards import Card
from .actions import player_name

if TYPE_CHECKING:
    from .round import Round

__all__ = ["Field", "Kind", "CardText", "seat_map", "seats", "cards_json", "card_json", "copy_value"]

Kind = Literal["value", "list", "lists", "melds"]
"""How a field is copied: ``value`` (immutable: a number, a card, a tuple, None),
``list`` (a list of immutable items), ``lists`` (a list of lists), ``melds`` (each
seat's list of :class:`~.state.TableMeld`)."""

CardText = Callable[[Card], str]


@dataclass(frozen=True, slots=True)
class Field:
    """One attribute of a round's state: its value at the deal, how it is copied, and
    how :meth:`Round.to_json <rummydsl.engine.round.Round.to_json>` writes it."""

    name: str
    initial: Callable[[Round], Any]
    """Its value when the round is dealt (earlier fields are already set)."""
    kind: Kind = "value"
    json: Callable[[Round, CardText], Any] | None = None
    """Its value in the round's JSON (None: not written; the replay of the actions rebuilds it)."""
    key: str | None = None
    """Its key in the JSON (default: the name); ``""`` merges a mapping the writer returns."""
    cards: bool = False
    """It holds cards a seat may not have seen (a redeal relabels them)."""
    turn: bool = False
    """It belongs to the turn: set back to its initial value when a turn begins (a
    constant: the ``initial`` of a turn field is called once, without a round)."""

    def __post_init__(self) -> None:
        if self.key is None:
            object.__setattr__(self, "key", self.name)


def copy_value(kind: Kind, value: Any) -> Any:
    """An independent copy of a field's value of ``kind``."""
    if kind == "list":
        return list(value)
    if kind == "lists":
        return [list(item) for item in value]
    if kind == "melds":
        return [[meld.copy() for meld in melds] for melds in value]
    return value


def seat_map(values: Sequence[Any]) -> dict[str, Any]:
    """``{"P1": values[0], ...}``."""
    return {player_name(p): v for p, v in enumerate(values)}


def seats(values: Sequence[int]) -> list[str]:
    """Seats written ``P1`` ...."""
    return [player_name(p) for p in values]


def cards_json(cards: Sequence[Card], text: CardText) -> list[str]:
    return [text(c) for c in cards]


def card_json(card: Card | None, text: CardText) -> str | None:
    return None if card is None else text(card)
