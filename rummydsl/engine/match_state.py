"""The values a :class:`~.match.Match` is made of: its state, its events, its markers.

Kept apart from :mod:`.match` so that the parts of a match (:mod:`.match_step`,
:mod:`.match_view`) and the match itself import them from one place below them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

from ..cards import Card
from .actions import Action
from .catalogue import MatchAction
from .game import Game
from .round import Round, RoundResult

if TYPE_CHECKING:
    from ..cards import Deck
    from ..variant.model import Variant
    from .game import GameResult

__all__ = ["CHANCE", "TERMINAL", "MATCH_FORMAT", "MATCH_VERSION", "Event", "State", "left_of_face", "left_to_deal"]

CHANCE = -1
""":attr:`Match.to_move` while a card is dealt as a chance outcome (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL = -4
""":attr:`Match.to_move` once the game is over (OpenSpiel's ``kTerminalPlayerId``)."""
MATCH_FORMAT = "rummydsl-match"
MATCH_VERSION = 1


class Event(NamedTuple):
    """What one :meth:`Match.apply` did: the action asked, and what followed from it."""

    action: MatchAction
    player: int
    """The seat that acted, or :data:`CHANCE`."""
    drawn: tuple[Card, ...] = ()
    """Cards that came from the stock into the player's hand (theirs alone to see)."""
    automatic: tuple[Action, ...] = ()
    """Moves play made after it for players with nothing to decide (a defender's
    ``done`` after gin, :meth:`Round.automatic <rummydsl.engine.round.Round.automatic>`)."""
    result: RoundResult | None = None
    """The round this action ended, with its points."""
    game: GameResult | None = None
    """The game this action ended."""
    others_drawn: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """``(seat, cards)`` for cards that came from the stock into another seat's hand by
    this action: a draw it completed (CR-4: the stock card of the player to move comes
    with the last pass on buying, or with a buy, beside the buyer's penalty card); each
    theirs alone to see."""

    def drawn_for(self, seat: int) -> tuple[Card, ...]:
        """The cards that came from the stock into ``seat``'s hand by this action."""
        if seat == self.player:
            return self.drawn
        return next((cards for who, cards in self.others_drawn if who == seat), ())

    def seen_by(self, seat: int) -> Event:
        """The event as ``seat`` sees it: another player's drawn cards are not named."""
        if not self.drawn and not self.others_drawn:
            return self
        return self._replace(drawn=self.drawn if seat == self.player else (),
                             others_drawn=tuple(o for o in self.others_drawn if o[0] == seat))


_FIELDS = ("game", "round", "pending", "dealing", "choose_dealer", "log", "steps", "round_start", "redeals",
           "one_round")


class State:
    """Everything that changes as a match is played: each apply makes a new one (:meth:`_replace`),
    but for a match that alone holds its state (``Match._exclusive``: no history, never
    copied), whose apply changes it in place (a plain step: the log and the count)."""

    __slots__ = _FIELDS
    game: Game
    round: Round
    """The round in play, or the one that ended last (while the next is dealt, or at the end)."""
    pending: tuple[int, ...]
    """The ids chosen so far of a lay-down of melds (choose, close)."""
    dealing: tuple[Card, ...] | None
    """The cards dealt so far of a deal made of chance outcomes (None: no deal under way)."""
    choose_dealer: bool
    """The first dealer is still to be drawn (a chance outcome)."""
    log: Any
    """Every step applied, newest first, as nested pairs (step, older): shared by copies."""
    steps: int
    round_start: int
    """How many steps were applied when the round in play was dealt."""
    redeals: tuple[tuple[int, tuple[int, ...], int | None], ...]
    """Deals :meth:`Match.resample` replaced: (steps, card ids in dealing order, new seed)."""
    one_round: bool
    """The match is one round (:meth:`Match.playing` of a lone round): it ends with it."""

    def __init__(self, game: Game, round: Round, pending: tuple[int, ...] = (),
                 dealing: tuple[Card, ...] | None = None, choose_dealer: bool = False, log: Any = None,
                 steps: int = 0, round_start: int = 0,
                 redeals: tuple[tuple[int, tuple[int, ...], int | None], ...] = (), one_round: bool = False) -> None:
        self.game = game
        self.round = round
        self.pending = pending
        self.dealing = dealing
        self.choose_dealer = choose_dealer
        self.log = log
        self.steps = steps
        self.round_start = round_start
        self.redeals = redeals
        self.one_round = one_round

    def _replace(self, **changes: Any) -> State:
        """A new state: this one with ``changes`` (as a named tuple's ``_replace``)."""
        new = _new_state(State)
        for name in _FIELDS:
            setattr(new, name, getattr(self, name))
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def stepped(self, rnd: Round, log: Any, steps: int) -> State:
        """A new state after a step: ``rnd`` in play, nothing pending, ``log`` and ``steps``
        (what :meth:`_replace` would make, field by field: each step with history makes one)."""
        new = _new_state(State)
        new.game = self.game
        new.round = rnd
        new.pending = ()
        new.dealing = self.dealing
        new.choose_dealer = self.choose_dealer
        new.log = log
        new.steps = steps
        new.round_start = self.round_start
        new.redeals = self.redeals
        new.one_round = self.one_round
        return new

    def __repr__(self) -> str:
        return f"State(steps={self.steps}, round={self.round.number}, pending={self.pending})"


_new_state = object.__new__


def left_to_deal(variant: Variant, dealt: Sequence[Card]) -> dict[int, list[Card]]:
    """The cards not dealt yet, by face (copies lowest id first), in deck order."""
    gone = {c.id for c in dealt}
    deck = variant.deck
    left: dict[int, list[Card]] = {}
    for card in deck.cards:
        if card.id not in gone:
            left.setdefault(deck.face_key(card), []).append(card)
    return left


_COPIES: dict[int, tuple[Deck, dict[int, tuple[Card, ...]]]] = {}
"""Each deck's cards by face (copies lowest id first), by ``id`` of the deck (kept alive
with it, so an id is never another deck's; emptied past :data:`_COPIES_HELD` decks)."""
_COPIES_HELD = 64


def _copies(deck: Deck) -> dict[int, tuple[Card, ...]]:
    held = _COPIES.get(id(deck))
    if held is None or held[0] is not deck:
        if len(_COPIES) >= _COPIES_HELD:
            _COPIES.clear()
        faces: dict[int, list[Card]] = {}
        for card in deck.cards:
            faces.setdefault(deck.face_key(card), []).append(card)
        held = _COPIES[id(deck)] = (deck, {key: tuple(cards) for key, cards in faces.items()})
    return held[1]


def left_of_face(variant: Variant, dealt: Sequence[Card], card: Card) -> list[Card]:
    """The copies of ``card``'s face not dealt yet, lowest id first: what
    ``left_to_deal(variant, dealt).get(face)`` holds (or ``[]``), without walking the deck."""
    copies = _copies(variant.deck).get(variant.deck.face_key(card), ())
    gone = {c.id for c in dealt}
    return [c for c in copies if c.id not in gone]
