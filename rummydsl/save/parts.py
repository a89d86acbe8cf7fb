"""The pieces a save is made of: its version, cards written with their copy (and every card
of the deck placed exactly once), the random generator's state, and the typed reading of
a JSON object that names the key of anything wrong (:class:`Fields`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..engine.actions import card_copy, card_text, player_name
from ..errors import RecordError, RummyDslError

if TYPE_CHECKING:
    from ..cards import Card, Deck
    from ..engine import Round


#: The version of the save format, in each save.
SAVE_VERSION = 1

PERSON = "person"
"""The ``agent`` a save writes for a seat a person plays (``rummydsl play``'s ``save FILE``):
no agent can be made again for it, so only a loader that seats a person there takes it
(:func:`~rummydsl.save.load_agents`'s ``person``)."""

_COPY = "/"


# -- cards -------------------------------------------------------------------------------


class _Cards:
    """Reads cards written by :func:`card_text` in one deck."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck

    def card(self, text: Any, where: str) -> Card:
        if not isinstance(text, str):
            raise RecordError(f"{where}: expected a card, got {text!r:.60}")
        face, mark, copy = text.partition(_COPY)
        try:
            first = self.deck.parse_card(face)
        except RummyDslError as problem:
            raise RecordError(f"{where}: {problem}") from None
        number = int(copy) if mark and copy.isdigit() else (0 if not mark else -1)
        found = card_copy(self.deck, first, number)
        if found is None:
            raise RecordError(f"{where}: {text!r} is not a card of this deck (no copy {copy!r} of {face!r})")
        return found

    def cards(self, value: Any, where: str) -> list[Card]:
        if not isinstance(value, list):
            raise RecordError(f"{where}: expected a list of cards, got {value!r:.60}")
        return [self.card(text, f"{where}[{i}]") for i, text in enumerate(value)]


def card_places(rnd: Round) -> list[tuple[str, Sequence[Card]]]:
    """Every place a card can be in a round, named: each hand, the stock, the discard
    pile, each player's table melds."""
    places: list[tuple[str, Sequence[Card]]] = [(f"{player_name(p)}'s hand", hand)
                                                 for p, hand in enumerate(rnd.hands)]
    places.append(("the stock", rnd.stock))
    places.append(("the discard pile", rnd.discards))
    for p, melds in enumerate(rnd.table):
        places.append((f"{player_name(p)}'s melds", [c for meld in melds for c in meld.cards]))
    return places


def misplaced(deck: Deck, places: Sequence[tuple[str, Sequence[Card]]]) -> str | None:
    """Why ``places`` do not hold every card of ``deck`` exactly once, or ``None`` if they do.

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.preset("standard52")
    >>> misplaced(deck, [("P1's hand", deck.cards[:30]), ("the stock", deck.cards[29:])])
    "card '4D' is twice: in P1's hand and in the stock"
    >>> misplaced(deck, [("the stock", deck.cards[1:])])
    "card 'AS' is missing (the deck has 52 cards, 51 are placed)"
    """
    where: dict[int, str] = {}
    for name, cards in places:
        for card in cards:
            if not 0 <= card.id < len(deck.cards) or deck.cards[card.id] is not card:
                return f"{card!r} in {name} is not a card of this deck"
            if card.id in where:
                return f"card {card_text(card)!r} is twice: in {where[card.id]} and in {name}"
            where[card.id] = name
    if len(where) != len(deck.cards):
        missing = next(c for c in deck.cards if c.id not in where)
        return (f"card {card_text(missing)!r} is missing (the deck has {len(deck.cards)} cards, "
                f"{len(where)} are placed)")
    return None


def check_cards(rnd: Round) -> None:
    """Check that every card of the round's deck is in exactly one place.

    :raises RecordError: naming the card and its places.
    """
    problem = misplaced(rnd.variant.deck, card_places(rnd))
    if problem is not None:
        raise RecordError(f"round {rnd.number}: {problem}")


def _rng_json(rng: random.Random) -> dict[str, Any]:
    version, state, gauss = rng.getstate()
    return {"version": version, "state": list(state), "gauss": gauss}


def _rng_from_json(value: Any, where: str) -> random.Random:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected a generator's state, got {value!r:.60}")
    state = value.get("state")
    if not (isinstance(state, list) and len(state) == 625
            and all(type(v) is int and 0 <= v < 2 ** 32 for v in state) and state[-1] <= 624):
        raise RecordError(f"{where}.state: expected 625 whole numbers (a Mersenne Twister state), "
                          f"got {state!r:.60}")
    gauss = value.get("gauss")
    if gauss is not None and type(gauss) is not float:
        raise RecordError(f"{where}.gauss: expected a number or null, got {gauss!r:.60}")
    rng = random.Random()
    try:
        rng.setstate((value.get("version"), tuple(state), gauss))
    except (TypeError, ValueError) as problem:
        raise RecordError(f"{where}: not a generator's state: {problem}") from None
    return rng


def _seats(values: Sequence[Any]) -> dict[str, Any]:
    return {player_name(p): v for p, v in enumerate(values)}


class Fields:
    """Typed reading of a JSON object's fields (a save's, a run file's line): each problem a
    :class:`~rummydsl.errors.RecordError` naming the key (after ``where``) and quoting the value.

    >>> Fields(2).numbers({"points": [3, "x"]}, "points", "sheets[0].")
    Traceback (most recent call last):
    ...
    rummydsl.errors.RecordError: sheets[0].points: expected 2 whole numbers, got [3, 'x']
    """

    def __init__(self, players: int) -> None:
        self.players = players

    def get(self, data: Any, key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
        """``data[key]``, which must be of ``kind`` (``True`` is not a number here)."""
        value = data.get(key) if isinstance(data, Mapping) else None
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = {int: "a whole number", str: "text", list: "a list", dict: "an object",
                     bool: "true or false", type(None): "null"}
            raise RecordError(f"{where}{key}: expected {' or '.join(names.get(k, k.__name__) for k in kinds)}, "
                              f"got {value!r:.60}")
        return value

    def seat(self, value: Any, where: str, *, empty: bool = False) -> int | None:
        """The seat a player name (``P1``...) gives; with ``empty``, ``None`` for null."""
        n = self.players
        if value is None and empty:
            return None
        if isinstance(value, str) and value[:1] == "P" and value[1:].isdigit() and 1 <= int(value[1:]) <= n:
            return int(value[1:]) - 1
        raise RecordError(f"{where}: expected a player P1 to P{n}, got {value!r:.60}")

    def player(self, value: Any, where: str) -> int:
        """The seat a player name (``P1``...) gives."""
        seat = self.seat(value, where)
        assert seat is not None
        return seat

    def numbers(self, data: Any, key: str, where: str, kind: type = int) -> list[Any]:
        """``data[key]``: one whole number (or, with ``kind=bool``, true or false) a seat."""
        value = self.get(data, key, list, where)
        if len(value) != self.players or not all(type(v) is kind for v in value):
            what = "whole numbers" if kind is int else "true or false"
            raise RecordError(f"{where}{key}: expected {self.players} {what}, got {value!r:.60}")
        return list(value)

    def by_seat(self, data: Any, key: str, where: str) -> list[Any]:
        """``data[key]``, an object with one entry a seat (``{"P1": ..., "P2": ...}``), as a list."""
        value = self.get(data, key, dict, where)
        out: list[Any] = [None] * self.players
        for name, item in value.items():
            out[self.player(name, f"{where}{key}")] = item
        if len(value) != self.players:
            raise RecordError(f"{where}{key}: expected one entry for each of {self.players} players, "
                              f"got {value!r:.80}")
        return out
