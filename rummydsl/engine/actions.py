"""The actions of a round: one frozen value type per verb, and their notation.

Actions are written ``PLAYER VERB ARGS`` (DESIGN.md, "Conformance suites"); a card
list is written in brackets. Every action prints back to the text it was parsed
from (in the deck's canonical spelling), and its ``repr`` shows that text:

>>> from rummydsl.cards import Deck
>>> deck = Deck.preset("standard52")
>>> action = parse_action("P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]", deck, 2)
>>> action
Knock('P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]')
>>> str(parse_action("p2 layoff 6s on P1#1", deck, 2))
'P2 layoff 6S on P1#1'
>>> str(parse_action("P2 draw discard 7h", deck, 2))
'P2 draw discard 7H'

Players are seats counted from 0 in the values and written ``P1``, ``P2`` ... in
the notation. A card is one physical card of the deck; with several packs the
text names a face, and :meth:`Round.resolve` picks the copy the player holds.

Nothing here knows a rule: whether an action is allowed now is the round's
business (:mod:`rummydsl.engine.round`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, Iterator, Literal, Union

from ..cards import Card, Deck
from ..errors import CardError, MalformedActionError

__all__ = [
    "Action",
    "Draw",
    "Pass",
    "Discard",
    "Knock",
    "Meld",
    "Layoff",
    "Offer",
    "Take",
    "Decline",
    "Done",
    "Buy",
    "VERBS",
    "parse_action",
    "player_name",
    "parse_player",
    "card_text",
    "card_copy",
    "action_cards",
    "with_cards",
]

Melds = tuple[tuple[Card, ...], ...]


def player_name(seat: int) -> str:
    """The notation of a seat: ``P1`` for seat 0.

    >>> player_name(0), player_name(2)
    ('P1', 'P3')
    """
    return f"P{seat + 1}"


def card_text(card: Card) -> str:
    """A card's notation, with ``/copy`` for a copy after the first of its face (saves,
    records and a match's steps name the very card).

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.from_spec({"preset": "standard52", "packs": 2})
    >>> [card_text(c) for c in (deck.cards[0], deck.cards[52])]
    ['AS', 'AS/1']
    """
    return str(card) if card.copy == 0 else f"{card}/{card.copy}"


def card_copy(deck: Deck, card: Card, copy: int) -> Card | None:
    """Copy ``copy`` (from 0) of ``card``'s face in ``deck`` (what :func:`card_text`
    writes ``AS/1``), or None where the deck has no such copy.

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.from_spec({"preset": "standard52", "packs": 2})
    >>> card_copy(deck, deck.parse_card("AS"), 1) is deck.cards[52], card_copy(deck, deck.cards[0], 2)
    (True, None)
    """
    if card.wild:
        return deck.cards[deck.packs * deck.natural_faces + copy] if 0 <= copy < deck.wilds else None
    return deck.cards[copy * deck.natural_faces + deck.face_key(card)] if 0 <= copy < deck.packs else None


_CARD_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each action type's fields that hold cards (a card, or melds), found once per type."""


def _card_fields(kind: type) -> tuple[str, ...]:
    names = _CARD_FIELDS.get(kind)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(kind) if "Card" in str(f.type) or "Melds" in str(f.type))
        _CARD_FIELDS[kind] = names
    return names


def action_cards(value: Any) -> list[Card]:
    """The cards an action names, in the order of its fields (melds card by card)."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple):
        return [c for item in value for c in action_cards(item)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: list[Card] = []
        for name in _card_fields(type(value)):
            part = getattr(value, name)
            if isinstance(part, Card):
                out.append(part)
            elif part:
                out.extend(action_cards(part))
        return out
    return []


def with_cards(value: Any, cards: Iterator[Card]) -> Any:
    """``value`` (an action, or a part of one) with its cards replaced in order by ``cards``."""
    if isinstance(value, Card):
        return next(cards)
    if isinstance(value, tuple):
        return tuple(with_cards(item, cards) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: with_cards(getattr(value, f.name), cards)
                                             for f in dataclasses.fields(value)})
    return value


def _cards_text(cards: tuple[Card, ...]) -> str:
    return "[" + " ".join(str(card) for card in cards) + "]"


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of a pile: ``P1 draw stock``, ``P1 draw discard``.

    In the first-turn upcard round ``draw discard`` takes the upcard (GR-4, GS-4);
    after a final discard with ``last_discard_claim`` it claims that card (GR-8).
    ``P1 draw discard 7H`` names a card of the discard pile: with ``discard_depth:
    any`` the player takes it and every card above it (R5-3).
    """

    player: int
    source: Literal["stock", "discard"]
    card: Card | None = None
    """The card of the discard pile drawn down to (``None``: the top card)."""

    def __str__(self) -> str:
        deep = "" if self.card is None else f" {self.card}"
        return f"{player_name(self.player)} draw {self.source}{deep}"

    def __repr__(self) -> str:
        return f"Draw({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Pass:
    """Refuse the upcard in the upcard round, a last-discard claim, or a buy (CR-4): ``P2 pass``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} pass"

    def __repr__(self) -> str:
        return f"Pass({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card face up, ending the turn: ``P1 discard 7H``."""

    player: int
    card: Card

    def __str__(self) -> str:
        return f"{player_name(self.player)} discard {self.card}"

    def __repr__(self) -> str:
        return f"Discard({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Knock:
    """End the round: discard ``card`` face down and show melds (GR-6).

    ``card`` is ``None`` for big gin (every card melded, no discard). ``melds``
    are the melds the knocker shows; ``None`` lets the engine show the
    arrangement with least deadwood (the canonical one), and ``()`` (written
    ``[]``) shows none. No deadwood left is gin.
    """

    player: int
    card: Card | None = None
    melds: Melds | None = None

    def __str__(self) -> str:
        parts = [player_name(self.player), "knock"]
        if self.card is not None:
            parts.append(str(self.card))
        if self.melds == ():
            parts.append("[]")  # shows no melds at all (not the canonical arrangement)
        parts.extend(_cards_text(meld) for meld in self.melds or ())
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Knock({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Meld:
    """Put melds on the table (``P1 meld [3S 4S 5S] [7H 7D 7C]``).

    In a meld step the first lay-down must meet the contract where there is one
    (SK-5). After a knock, a defender shows its own melds this way; ``()``
    (written ``[]``) shows none.
    """

    player: int
    melds: Melds

    def __str__(self) -> str:
        if not self.melds:
            return f"{player_name(self.player)} meld []"  # a defender shows no melds
        return " ".join([player_name(self.player), "meld", *(_cards_text(m) for m in self.melds)])

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Layoff:
    """Add a card to a table meld: ``P1 layoff 6S on P2#1`` (meld 1 of P2, counting from 1)."""

    player: int
    card: Card
    owner: int
    index: int
    """The meld's index in its owner's table melds, from 0 (written from 1)."""

    def __str__(self) -> str:
        return f"{player_name(self.player)} layoff {self.card} on {player_name(self.owner)}#{self.index + 1}"

    def __repr__(self) -> str:
        return f"Layoff({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Offer:
    """Offer a card to the next player (SK-7): ``P1 offer 7H``."""

    player: int
    card: Card

    def __str__(self) -> str:
        return f"{player_name(self.player)} offer {self.card}"

    def __repr__(self) -> str:
        return f"Offer({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Take:
    """Accept the offered card: ``P2 take``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} take"

    def __repr__(self) -> str:
        return f"Take({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline the offered card: ``P2 decline``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} decline"

    def __repr__(self) -> str:
        return f"Decline({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the top discard out of turn, with a penalty card from the stock (CR-4): ``P3 buy``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} buy"

    def __repr__(self) -> str:
        return f"Buy({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Done:
    """End an optional step (melding, laying off, an optional offer): ``P1 done``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} done"

    def __repr__(self) -> str:
        return f"Done({str(self)!r})"


Action = Union[Draw, Pass, Discard, Knock, Meld, Layoff, Offer, Take, Decline, Done, Buy]

#: Every verb of the notation.
VERBS: tuple[str, ...] = ("draw", "pass", "discard", "knock", "meld", "layoff", "offer", "take",
                          "decline", "done", "buy")

_PLAYER = re.compile(r"[Pp]([1-9][0-9]?)")
_TARGET = re.compile(r"[Pp]([1-9][0-9]?)#([1-9][0-9]?)")
_TOKEN = re.compile(r"\[|\]|[^\s\[\]]+")
_MAX_TEXT = 2000


def parse_player(text: str, players: int) -> int:
    """The seat written ``text`` (``P1`` is seat 0).

    :raises MalformedActionError: when ``text`` is not ``P1`` .. ``Pn``.
    """
    match = _PLAYER.fullmatch(text)
    if match is None or not 1 <= int(match.group(1)) <= players:
        raise MalformedActionError(text, f"expected a player P1 to P{players}, got {text!r}")
    return int(match.group(1)) - 1


def parse_action(text: str, deck: Deck, players: int) -> Action:
    """Read one action in the notation of DESIGN.md.

    Cards are read with the deck's notation (case-insensitive); a repeated face
    inside one action takes the next copy of a several-pack deck.

    :raises MalformedActionError: for text that is not an action: an unknown verb
        or player, a bad card, a missing or extra argument, an unclosed bracket.

    >>> from rummydsl.cards import Deck
    >>> parse_action("P1 offer 7Z", Deck.preset("standard52"), 2)
    Traceback (most recent call last):
    ...
    rummydsl.errors.MalformedActionError: 'P1 offer 7Z': unknown card '7Z': no suit 'Z' in this deck (suits: S H D C)
    """
    if not isinstance(text, str):
        raise MalformedActionError(repr(text), "an action is a string such as 'P1 draw stock'")
    if len(text) > _MAX_TEXT:
        raise MalformedActionError(text[:40] + "...", f"an action is at most {_MAX_TEXT} characters")
    tokens = _TOKEN.findall(text)
    if len(tokens) < 2:
        raise MalformedActionError(text, "an action is 'PLAYER VERB ARGS', e.g. 'P1 draw stock'")
    try:
        player = parse_player(tokens[0], players)
    except MalformedActionError as problem:
        raise MalformedActionError(text, problem.reason) from None
    verb = tokens[1].lower()
    args = tokens[2:]
    try:
        return _parse_args(text, player, verb, args, deck, players)
    except CardError as problem:
        raise MalformedActionError(text, str(problem)) from None


def _parse_args(text: str, player: int, verb: str, args: list[str], deck: Deck, players: int) -> Action:
    def no_args() -> None:
        if args:
            raise MalformedActionError(text, f"'{verb}' takes nothing after it, got {' '.join(args)!r}")

    if verb == "draw":
        if len(args) == 2 and args[0].lower() == "discard" and args[1] not in "[]":
            return Draw(player, "discard", deck.parse_card(args[1]))
        if len(args) != 1 or args[0].lower() not in ("stock", "discard"):
            raise MalformedActionError(text, "write 'draw stock', 'draw discard' or 'draw discard CARD' "
                                             "(a card of the discard pile, with every card above it)")
        return Draw(player, "stock" if args[0].lower() == "stock" else "discard")
    if verb in ("pass", "take", "decline", "done", "buy"):
        no_args()
        simple: dict[str, type[Pass | Take | Decline | Done | Buy]] = {
            "pass": Pass, "take": Take, "decline": Decline, "done": Done, "buy": Buy}
        return simple[verb](player)
    if verb in ("discard", "offer"):
        if len(args) != 1 or args[0] in "[]":
            raise MalformedActionError(text, f"'{verb}' takes one card, e.g. '{verb} {deck.cards[0]}'")
        one = deck.parse_card(args[0])
        return Discard(player, one) if verb == "discard" else Offer(player, one)
    if verb == "layoff":
        if len(args) != 3 or args[1].lower() != "on":
            raise MalformedActionError(text, f"write 'layoff CARD on P2#1', e.g. 'layoff {deck.cards[0]} on P2#1'")
        target = _TARGET.fullmatch(args[2])
        if target is None or not 1 <= int(target.group(1)) <= players:
            raise MalformedActionError(text, f"expected a meld such as P2#1 (player, then meld number), "
                                             f"got {args[2]!r}")
        return Layoff(player, deck.parse_card(args[0]), int(target.group(1)) - 1, int(target.group(2)) - 1)
    if verb in ("knock", "meld"):
        card: Card | None = None
        rest = args
        if rest and rest[0] not in "[]":
            if verb == "meld":
                raise MalformedActionError(text, "write each meld in brackets: 'meld [3S 4S 5S]'")
            card = deck.parse_card(rest[0])
            rest = rest[1:]
        if verb == "knock" and rest == ["[", "]"]:
            return Knock(player, card, ())  # '[]': the knocker shows no melds
        if verb == "meld" and rest == ["[", "]"]:
            return Meld(player, ())  # '[]': a defender shows no melds
        melds = _parse_melds(text, rest, deck)
        if verb == "meld":
            if not melds:
                raise MalformedActionError(text, "'meld' needs at least one meld in brackets")
            return Meld(player, melds)
        return Knock(player, card, melds if melds else None)
    close = _close(verb)
    hint = f"; did you mean {close!r}?" if close else f" (verbs: {', '.join(VERBS)})"
    raise MalformedActionError(text, f"unknown verb {verb!r}{hint}")


def _parse_melds(text: str, tokens: list[str], deck: Deck) -> Melds:
    melds: list[tuple[str, ...]] = []
    current: list[str] | None = None
    for token in tokens:
        if token == "[":
            if current is not None:
                raise MalformedActionError(text, "a '[' inside a meld: close each meld with ']'")
            current = []
        elif token == "]":
            if current is None:
                raise MalformedActionError(text, "a ']' with no '[' before it")
            if not current:
                raise MalformedActionError(text, "an empty meld '[]'")
            melds.append(tuple(current))
            current = None
        elif current is None:
            raise MalformedActionError(text, f"{token!r} is outside the brackets: write each meld as [..]")
        else:
            current.append(token)
    if current is not None:
        raise MalformedActionError(text, "a meld is not closed: add ']'")
    flat = deck.parse_cards([card for meld in melds for card in meld])
    out: list[tuple[Card, ...]] = []
    at = 0
    for meld in melds:
        out.append(tuple(flat[at:at + len(meld)]))
        at += len(meld)
    return tuple(out)


def _close(word: str) -> str | None:
    from ..suggest import closest

    return closest(word, VERBS)
