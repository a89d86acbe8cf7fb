"""The parts of a round's state that every mechanic shares: phases, table melds, results."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..endings import Ending
from .actions import Action, player_name

__all__ = ["Phase", "TableMeld", "RoundResult", "PastRound", "SeenMove"]


class Phase(str, enum.Enum):
    """What the round is waiting for."""

    UPCARD = "upcard"
    """The first-turn upcard offer: take it or pass (GR-4, GS-4)."""
    DRAW = "draw"
    """The turn's draw step."""
    MELD = "meld"
    """The turn's meld step: put melds down, lay off, or say done (SK-5, SK-6)."""
    DISCARD = "discard"
    """The turn's discard step (or a knock instead, GR-6)."""
    OFFER = "offer"
    """The turn's offer step (SK-7)."""
    ANSWER = "answer"
    """The next player takes or declines an offered card (SK-7.2)."""
    BUY = "buy"
    """The player to move drew from the stock: the others in turn may buy the top discard (CR-4)."""
    CLAIM = "claim"
    """After a final discard, the others may claim it to knock at once (GR-8)."""
    SHOWDOWN = "showdown"
    """After a knock, each defender in turn shows melds and lays off (GR-7, GS-6.4)."""
    OVER = "over"
    """The round has ended."""


@dataclass
class TableMeld:
    """A meld on the table: its cards as they lie now, the kind it was laid as, and who
    put each card there (R5-4: a card laid off stays credited to the player who laid it
    off, whoever's meld it lies in).

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.preset("standard52")
    >>> meld = TableMeld(list(deck.parse_cards("7H 7D 7C")), "set", [0, 0, 0])
    >>> meld.add(deck.parse_card("7S"), 1)
    >>> meld.by, meld.credited(1)
    ([0, 0, 0, 1], ['7S'])
    """

    cards: list[Card]
    kind: str
    by: list[int] = field(default_factory=list)
    """The seat that laid each card, parallel to ``cards``."""
    _extenders: tuple[int, str, int, int] | None = field(default=None, init=False, repr=False, compare=False)
    """:meth:`extenders`' bitmasks, with the size and kind they were worked out for."""
    _masks: tuple[int, int, int, int] | None = field(default=None, init=False, repr=False, compare=False)
    """:meth:`masks`, with the size it was worked out for."""

    def copy(self) -> TableMeld:
        """An independent copy (it shares the memos of what extends the meld, which a
        change of either replaces rather than alters)."""
        other = TableMeld(list(self.cards), self.kind, list(self.by))
        other._extenders = self._extenders
        other._masks = self._masks
        return other

    def add(self, card: Card, player: int) -> None:
        """Lay ``card`` off onto this meld, credited to ``player``."""
        self.cards.append(card)
        self.by.append(player)
        self._extenders = None
        got = self._masks
        if got is not None and got[0] == len(self.cards) - 1:
            bit = 1 << card.id
            self._masks = ((got[0] + 1, got[1] | bit, got[2], got[3] + 1) if card.wild
                           else (got[0] + 1, got[1] | bit, got[2] | bit, got[3]))

    def masks(self) -> tuple[int, int, int]:
        """The meld's cards as bitmasks by card id (bit ``id``): all of them, the natural
        ones, and how many are wild; kept for the meld as it lies (and kept up as it grows).

        >>> from rummydsl.cards import Deck
        >>> deck = Deck.from_spec({"preset": "standard52", "wilds": 2})
        >>> meld = TableMeld(list(deck.parse_cards("7H 7D")), "set", [0, 0])
        >>> meld.add(next(c for c in deck.cards if c.wild), 1)
        >>> every, naturals, wilds = meld.masks()
        >>> naturals == sum(1 << c.id for c in meld.cards[:2]), every.bit_count(), wilds
        (True, 3, 1)
        """
        got = self._masks
        cards = self.cards
        if got is None or got[0] != len(cards):
            every = naturals = wilds = 0
            for card in cards:
                bit = 1 << card.id
                every |= bit
                if card.wild:
                    wilds += 1
                else:
                    naturals |= bit
            got = self._masks = (len(cards), every, naturals, wilds)
        return got[1], got[2], got[3]

    def extenders(self) -> tuple[int, int] | None:
        """Which cards extend the meld as it lies now, as far as worked out: two bitmasks by
        card id (bit ``id``), the cards judged and those of them that extend it. The
        lay-off rules (:mod:`.mechanics.layoffs`) work them out and keep them
        (:meth:`keep_extenders`), so that a listing judges each card once for each state
        of the meld; None before, and again once a card is added or the kind changes.

        >>> from rummydsl.cards import Deck
        >>> meld = TableMeld(list(Deck.preset("standard52").parse_cards("7H 7D 7C")), "set", [0, 0, 0])
        >>> meld.keep_extenders(0b11 << 44, 1 << 45)
        >>> meld.extenders() == (0b11 << 44, 1 << 45), meld.copy().extenders() == meld.extenders()
        (True, True)
        >>> meld.known_extenders(1 << 45 | 1 << 44), meld.known_extenders(1 << 43)
        (35184372088832, -1)
        >>> meld.kind = "run"
        >>> meld.extenders() is None
        True
        """
        got = self._extenders
        if got is None or got[0] != len(self.cards) or got[1] != self.kind:
            return None
        return got[2], got[3]

    def known_extenders(self, held: int) -> int:
        """The cards of ``held`` (a bitmask by card id) that extend the meld, when every one
        of them has been judged (:meth:`extenders`), else -1: a listing's quick look."""
        got = self._extenders
        if got is None or held & ~got[2] or got[0] != len(self.cards) or got[1] != self.kind:
            return -1
        return got[3] & held

    def keep_extenders(self, judged: int, fits: int) -> None:
        """Keep what :meth:`extenders` gives for the meld as it lies now: the cards judged
        (a bitmask by card id) and those of them that extend it."""
        self._extenders = (len(self.cards), self.kind, judged, fits)

    def credited(self, player: int) -> list[str]:
        """The cards of this meld that ``player`` laid, as text."""
        return [str(c) for c, who in zip(self.cards, self.by) if who == player]

    def as_json(self, card_text: Any = str) -> dict[str, Any]:
        """The meld as plain JSON: kind, cards, and who laid each card (``P1``...)."""
        return {"kind": self.kind, "cards": [card_text(c) for c in self.cards],
                "by": [player_name(p) for p in self.by]}


@dataclass(frozen=True)
class RoundResult:
    """How a finished round ended and what it scored, like python-chess's ``Outcome``.

    ``ending`` is an :class:`~rummydsl.endings.Ending` (a ``str``: ``gin``, ``big_gin``,
    ``knock``, ``out``, ``stock_end`` or ``void``, the stock reached its floor and
    the round scores nothing, GR-8).

    >>> result = RoundResult(Ending.KNOCK, 0, (7, 17), (10, 0))
    >>> result.winner, result.void
    (0, False)
    """

    ending: Ending
    """How the round ended."""
    ender: int | None
    """Who ended it (knocked, went gin or out); ``None`` at the stock floor."""
    deadwoods: tuple[int | None, ...]
    """Each player's deadwood at the end (defenders' after lay-offs); None for a hand
    larger than the meld solver takes (:data:`~rummydsl.limits.MAX_HAND`, after deep draws)."""
    points: tuple[int, ...]
    """Points each player won this round (GR-9, SK-10, GS-7), multiplier included."""
    undercut: bool = False
    """Whether someone other than the ender scored on a knock (GR-9.2, GS-7.4)."""
    turns: int = 0
    """Turns begun in the round (taking the upcard counts as a turn)."""
    lowest: bool = False
    """Whether the lowest score is best (``game.winner: lowest``, CR-6): then the round's
    :attr:`winner` is the player who scored least, such as the one who went out."""

    @property
    def void(self) -> bool:
        """Whether the round was void (the stock floor with ``at_floor: void``)."""
        return self.ending == Ending.VOID

    @property
    def winner(self) -> int | None:
        """The player who scored most this round (the first such seat), or ``None`` if nobody scored.

        Where the lowest score is best (:attr:`lowest`) it is the one player who scored
        least while someone scored more (``None`` for a tie for least, or nobody scoring).

        >>> RoundResult(Ending.OUT, 2, (10, 5, 0), (10, 5, 0), lowest=True).winner
        2
        """
        if not self.points:
            return None
        if self.lowest:
            least = min(self.points)
            if self.points.count(least) != 1 or max(self.points) == least:
                return None
            return self.points.index(least)
        best = max(self.points)
        if best <= 0:
            return None
        return self.points.index(best)

    def as_json(self) -> dict[str, Any]:
        """The result as plain JSON (players as ``P1``...)."""
        return {
            "ending": self.ending.value,
            "ender": None if self.ender is None else player_name(self.ender),
            "deadwoods": {player_name(i): d for i, d in enumerate(self.deadwoods)},
            "points": {player_name(i): p for i, p in enumerate(self.points)},
            "undercut": self.undercut,
            "turns": self.turns,
        }


@dataclass(frozen=True)
class PastRound:
    """A round of the game already played, as the game keeps it for the rounds after it
    (:attr:`Round.earlier <rummydsl.engine.round.Round.earlier>`): the whole truth, a
    knock's face-down discard included, so only :class:`~.observe.Observation` reads it
    out to a seat."""

    number: int
    """The round's number in its game, from 1."""
    actions: tuple[Action, ...]
    """Every action played in it, in order."""
    face_down: bool
    """Whether a knock discarded a card face down in it (GR-6.1): that card stays hidden
    from all but the knocker."""
    result: RoundResult
    """How it ended and what it scored (whole: :func:`~.observe.result_for` gives a seat's view)."""


@dataclass(frozen=True)
class SeenMove:
    """One move of the game as a seat saw it played (:meth:`Observation.moves
    <rummydsl.engine.observe.Observation.moves>`).

    >>> SeenMove(1, 0, "P1 draw stock")
    SeenMove(round=1, player=0, text='P1 draw stock')
    """

    round: int
    """The number of the round it was played in, from 1 (a match's next game counts afresh)."""
    player: int
    """The seat that played it."""
    text: str
    """The move in the notation, as the seat saw it: another seat's knock that discards
    face down reads ``P2 knock (discarding face down)`` and its melds, without the card."""
