"""What compiled round and score expressions read: the :class:`RoundView` protocol.

A compiled ROUND or SCORE expression is called as ``fn(view, p=None, lets=None)``.
``view`` is any object with the attributes and methods below, named as the
expression names are. The two views made here are the only ones: the engine's,
:class:`RoundFacts` (players are seats, ints from 0; the values in tuples by seat),
and :class:`SimpleRoundView` (any player values, the values in mappings) for tests,
examples, ``explain`` and the semantic checks.
A ROUND-context view needs only the round names (``upcard`` ... ``score``); the
score names are read only by SCORE-context expressions.

Values are passed through as they are: a player is whatever the view uses for
players (a seat number, ``"P1"``...), compared with ``==``; a card is a
:class:`~rummydsl.cards.Card` of the variant's deck.

>>> view = SimpleRoundView(players=("A", "B", "C"), ender="B", ending="knock",
...                        deadwoods={"A": 26, "B": 2, "C": 48})
>>> view.opponents, view.others("A"), view.deadwood("C")
(('C', 'A'), ('B', 'C'), 48)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from rummydsl.endings import SCORED_ENDING_NAMES, Ending
from rummydsl.errors import ExpressionError
from rummydsl.limits import MAX_HAND

if TYPE_CHECKING:
    from rummydsl.cards import Card

__all__ = ["RoundView", "SimpleRoundView", "RoundFacts", "NextDealView", "ENDINGS"]

ENDINGS: tuple[str, ...] = SCORED_ENDING_NAMES
"""The values of :attr:`RoundView.ending` (each is a boolean name in the score context):
the names of :data:`rummydsl.endings.SCORED_ENDINGS`."""


@runtime_checkable
class RoundView(Protocol):
    """The round as expressions see it (round and score contexts)."""

    @property
    def upcard(self) -> Any:
        """The card dealt face up at the start of the round (``None`` if none)."""

    @property
    def dealer(self) -> Any:
        """The player who dealt this round."""

    @property
    def round(self) -> int:
        """The number of this round in the game, from 1."""

    @property
    def hand_size(self) -> int:
        """The number of cards dealt to each player."""

    @property
    def players(self) -> Sequence[Any]:
        """Every player, in seat order."""

    def value(self, card: Any) -> int:
        """The deadwood value of ``card`` (the variant's card_value)."""

    def score(self, player: Any) -> int:
        """``player``'s game total before this round."""

    # -- score context only --

    @property
    def ender(self) -> Any:
        """The player who ended the round (knocked, went gin or out)."""

    @property
    def opponents(self) -> Sequence[Any]:
        """Every player but the ender, in seat order from the ender's left."""

    @property
    def ending(self) -> str:
        """How the round ended: one of :data:`ENDINGS` (an :class:`~rummydsl.endings.Ending` will do)."""

    def others(self, player: Any) -> Sequence[Any]:
        """Every player but ``player``."""

    def deadwood(self, player: Any) -> int:
        """``player``'s deadwood at the end of the round (after lay-offs)."""

    def met_contract(self, player: Any) -> bool:
        """Whether ``player`` has met the contract this round (true where the variant has none)."""

    def hand_value(self, player: Any) -> int:
        """The total card value of ``player``'s hand at the end, melds still held included."""

    def melded_turns(self, player: Any) -> int:
        """In how many of ``player``'s turns this round they put at least one card on the
        table, by melding or laying off (BR-5's "rummy": ``melded_turns(ender) <= 1``)."""

    def melded_points(self, player: Any) -> int:
        """The total ``melded_value`` of the table cards credited to ``player`` (``melded(p)``,
        R5-4, R5-6)."""


@dataclass
class SimpleRoundView:
    """A plain :class:`RoundView` made of values: for tests, examples and ``explain``.

    :raises ExpressionError: rule ``expr-runtime``, for an ``ending`` that is not a
        scored ending; and when an expression asks it what it was not given (a
        card's value without ``card_value``, the deadwood of a player not in
        ``deadwoods``).

    >>> SimpleRoundView(players=("P1", "P2"), ender="P1").opponents
    ('P2',)
    >>> SimpleRoundView(ending="gin").ending is Ending.GIN
    True
    >>> SimpleRoundView(ending="void")
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: a round view's ending must be one of gin, big_gin, knock, out, stock_end (or empty), got 'void'; a void round is not scored
    """

    players: Sequence[Any] = ("P1", "P2")
    dealer: Any = None
    round: int = 1
    hand_size: int = 10
    upcard: Any = None
    ender: Any = None
    ending: str = ""
    """How the round ended: a scored :class:`~rummydsl.endings.Ending` or its name; empty
    while the round is being played."""
    deadwoods: Mapping[Any, int] = field(default_factory=dict)
    """``player`` → deadwood, for :meth:`deadwood`."""
    scores: Mapping[Any, int] = field(default_factory=dict)
    """``player`` → game total, for :meth:`score` (absent players have 0)."""
    card_value: Callable[[Any], int] | None = None
    """The card values, for :meth:`value`."""
    contracts: Mapping[Any, bool] = field(default_factory=dict)
    """``player`` → whether they met the contract, for :meth:`met_contract` (absent: true)."""
    hand_values: Mapping[Any, int] = field(default_factory=dict)
    """``player`` → hand value, for :meth:`hand_value` (absent: their deadwood)."""
    melded: Mapping[Any, int] = field(default_factory=dict)
    """``player`` → turns in which they put cards on the table, for :meth:`melded_turns` (absent: 0)."""
    melded_values: Mapping[Any, int] = field(default_factory=dict)
    """``player`` → the melded value credited to them, for :meth:`melded_points` (absent: 0)."""

    def __post_init__(self) -> None:
        self.players = tuple(self.players)
        if self.dealer is None and self.players:
            self.dealer = self.players[0]
        if self.ending:
            if self.ending not in ENDINGS:
                void = "; a void round is not scored" if self.ending == Ending.VOID else ""
                raise ExpressionError(f"a round view's ending must be one of {', '.join(ENDINGS)} "
                                      f"(or empty), got {self.ending!r}{void}", 0, 0, "expr-runtime")
            self.ending = Ending(self.ending)

    @property
    def opponents(self) -> tuple[Any, ...]:
        """The players other than the ender, from the ender's left."""
        if self.ender not in self.players:
            return tuple(self.players)
        at = self.players.index(self.ender)
        return (*self.players[at + 1:], *self.players[:at])

    def others(self, player: Any) -> tuple[Any, ...]:
        """The players other than ``player``, in seat order."""
        return tuple(q for q in self.players if q != player)

    def value(self, card: Any) -> int:
        """``card_value(card)``."""
        if self.card_value is None:
            raise ExpressionError(f"value({card}): this round view was given no card_value",
                                  0, 0, "expr-runtime")
        return self.card_value(card)

    def score(self, player: Any) -> int:
        """``scores[player]``, 0 if absent."""
        return self.scores.get(player, 0)

    def deadwood(self, player: Any) -> int:
        """``deadwoods[player]``."""
        try:
            return self.deadwoods[player]
        except (KeyError, TypeError):
            given = ", ".join(map(str, self.deadwoods)) or "none"
            raise ExpressionError(f"deadwood({player!r}): this round view was given no deadwood for "
                                  f"that player (given: {given})", 0, 0, "expr-runtime") from None

    def met_contract(self, player: Any) -> bool:
        """``contracts[player]``, true if absent."""
        return self.contracts.get(player, True)

    def hand_value(self, player: Any) -> int:
        """``hand_values[player]``; the player's :meth:`deadwood` if absent."""
        if player in self.hand_values:
            return self.hand_values[player]
        return self.deadwood(player)

    def melded_turns(self, player: Any) -> int:
        """``melded[player]``, 0 if absent."""
        return self.melded.get(player, 0)

    def melded_points(self, player: Any) -> int:
        """``melded_values[player]``, 0 if absent."""
        return self.melded_values.get(player, 0)


@dataclass
class RoundFacts:
    """The engine's :class:`RoundView`: a round with players as seats (ints from 0), the
    values in tuples by seat.

    >>> facts = RoundFacts(players=(0, 1, 2), dealer=0, ender=1, ending="knock",
    ...                    deadwoods=(26, 2, 48))
    >>> facts.opponents, facts.deadwood(2), facts.others(0)
    ((2, 0), 48, (1, 2))
    """

    players: tuple[int, ...]
    dealer: int
    round: int = 1
    hand_size: int = 10
    upcard: Card | None = None
    ender: int | None = None
    ending: str = ""
    deadwoods: tuple[int | None, ...] = ()
    """Each player's deadwood; None for a hand too large for the meld solver (after deep draws)."""
    hand_cards: tuple[int, ...] = ()
    """How many cards each player holds (for the message about a hand too large to solve)."""
    contracts: tuple[bool, ...] = ()
    hand_values: tuple[int, ...] = ()
    """Each player's hand value at the end (the score context's ``hand_value(p)``)."""
    melded: tuple[int, ...] = ()
    """Each player's ``melded_turns`` (BR-5)."""
    scores: tuple[int, ...] = ()
    card_value: Callable[[Card], int] = field(default=lambda card: 0)
    melded_of: Callable[[int], int] = field(default=lambda player: 0)
    """Works out ``melded(p)`` when a formula asks (the round's table, R5-6)."""

    @property
    def player_count(self) -> int:
        """How many players are dealt in."""
        return len(self.players)

    @property
    def opponents(self) -> tuple[int, ...]:
        """Every player but the ender, in seat order from the ender's left."""
        players = self.players
        if self.ender is None or self.ender not in players:
            return players
        at = players.index(self.ender)  # the players may skip a seat sitting out (G3-1)
        return players[at + 1:] + players[:at]

    def others(self, player: int) -> tuple[int, ...]:
        """Every player but ``player``, in seat order."""
        return tuple(q for q in self.players if q != player)

    def value(self, card: Card) -> int:
        """The deadwood value of ``card``."""
        return self.card_value(card)

    def score(self, player: int) -> int:
        """``player``'s game total before this round."""
        return self.scores[player] if self.scores else 0

    def deadwood(self, player: int) -> int:
        """``player``'s deadwood at the end of the round (after lay-offs).

        :raises ExpressionError: rule ``hand-too-large``, for a hand larger than the meld
            solver takes (the scoring names the formula that asked).
        """
        found = self.deadwoods[player]
        if found is None:
            held = self.hand_cards[player] if self.hand_cards else "too many"
            raise ExpressionError(f"deadwood(P{player + 1}): P{player + 1} holds {held} cards, more than "
                                  f"the meld solver takes ({MAX_HAND}), so their deadwood is not known",
                                  0, 0, "hand-too-large")
        return found

    def met_contract(self, player: int) -> bool:
        """Whether ``player`` met the contract this round (true without a contract)."""
        return self.contracts[player] if self.contracts else True

    def hand_value(self, player: int) -> int:
        """``player``'s hand value at the end: every card held, melds still held included."""
        return self.hand_values[player]

    def melded_turns(self, player: int) -> int:
        """In how many of ``player``'s turns they put at least one card on the table."""
        return self.melded[player] if self.melded else 0

    def melded_points(self, player: int) -> int:
        """The total melded value of the table cards credited to ``player`` (R5-4, R5-6)."""
        return self.melded_of(player)


class NextDealView:
    """The next-deal context (``deal.sit_out``): the next deal of a game, and the last round.

    ``last_winner``, ``last_loser`` and ``last_sat_out`` are ``None`` when they have
    no value: reading one then raises :class:`~rummydsl.errors.ExpressionError`
    (rule ``expr-runtime``) that says why, in round 1 (nothing was played yet) or
    after a round nobody won (``last_void``). The engine supplies one with seats
    (ints); tests may use any player values.

    >>> view = NextDealView(players=("P1", "P2", "P3"), round=2, dealer="P1",
    ...                 last_sat_out="P1", last_winner="P2", last_loser="P3")
    >>> view.next("P3"), view.last_loser, view.last_void
    ('P1', 'P3', False)
    >>> NextDealView(players=("P1", "P2", "P3"), dealer="P1").last_winner
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: 'last_winner' has no value in round 1: no round was played before it (test 'round == 1' first)
    """

    def __init__(self, players: Sequence[Any] = ("P1", "P2"), round: int = 1, dealer: Any = None,
                 last_sat_out: Any = None, last_winner: Any = None, last_loser: Any = None,
                 last_void: bool = False, scores: Mapping[Any, int] | None = None) -> None:
        self.players: tuple[Any, ...] = tuple(players)
        self.round = round
        self.dealer = self.players[0] if dealer is None and self.players else dealer
        self.last_sat_out_player = last_sat_out
        """Who sat out the last round (``None``: nobody did, or round 1)."""
        self.last_winner_player = last_winner
        self.last_loser_player = last_loser
        self.last_void_round = last_void
        """Whether the last round had no winner: void at the stock floor, or nobody scored."""
        self.scores: dict[Any, int] = dict(scores or {})
        """``player`` → game total before this deal (absent players have 0)."""

    def _last(self, name: str, value: Any) -> Any:
        if self.round <= 1:
            raise ExpressionError(f"{name!r} has no value in round 1: no round was played before it "
                                  f"(test 'round == 1' first)", 0, 0, "expr-runtime")
        if value is None:
            why = ("nobody sat out the last round" if name == "last_sat_out"
                   else f"round {self.round - 1} had no winner (test 'last_void' first)")
            raise ExpressionError(f"{name!r} has no value in round {self.round}: {why}", 0, 0, "expr-runtime")
        return value

    @property
    def last_sat_out(self) -> Any:
        """Who sat out the last round."""
        return self._last("last_sat_out", self.last_sat_out_player)

    @property
    def last_void(self) -> bool:
        """Whether the last round had no winner (void, or nobody scored)."""
        return bool(self._last("last_void", self.last_void_round))

    @property
    def last_winner(self) -> Any:
        """Who scored most in the last round."""
        return self._last("last_winner", self.last_winner_player)

    @property
    def last_loser(self) -> Any:
        """A player dealt into the last round who did not win it (the lowest score, nearest the winner's left)."""
        return self._last("last_loser", self.last_loser_player)

    def next(self, player: Any) -> Any:
        """The seat on ``player``'s left (every seat counts, whoever sits out)."""
        try:
            at = self.players.index(player)
        except ValueError:
            raise ExpressionError(f"next({player!r}): not a player of this game", 0, 0, "expr-runtime") from None
        return self.players[(at + 1) % len(self.players)]

    def score(self, player: Any) -> int:
        """``player``'s game total before this deal."""
        return self.scores.get(player, 0)


class ScoreFrame:
    """One evaluation of a round/score expression: the view, ``p``, the lets, loop variables."""

    __slots__ = ("view", "p", "lets", "vars")

    def __init__(self, view: Any, p: Any, lets: Mapping[str, Any]) -> None:
        self.view = view
        self.p = p
        self.lets = lets
        self.vars: dict[str, Any] = {}


class ContractFrame:
    """One evaluation of a contract: the melds, the meld a per-meld test is looking at,
    and the round view the round names are read from (CR-2)."""

    __slots__ = ("melds", "total", "size", "kind", "view")

    def __init__(self, melds: Sequence[tuple[str, Sequence[Any]]], view: Any = None) -> None:
        self.melds = melds
        self.view = view
        self.total = sum(len(cards) for _, cards in melds)
        self.size = 0
        self.kind = ""
