"""What one player may know of a round, and nothing more.

An :class:`Observation` is a read-only window on a :class:`~rummydsl.engine.round.Round`
for one seat: their own hand; every table meld; the discard pile (every card
in it was seen face up) and the dealt upcard (GR-12.4); the cards of other
hands that everyone has seen (taken from the discard pile, offered in an
offer); each hand's size, the stock's size, the scores; whose move it is and
in which phase; after a knock the knocker's melds and deadwood, and the melds
each defender shows. A card another player holds face down never appears, nor the
card a knock discards face down (but to the knocker), nor the deadwood of other
hands after a void round (nobody shows a hand when nothing is scored).

Agents get an observation and the legal actions, never the round itself, so a
program cannot peek; :meth:`Observation.as_json` is what the agent protocol sends.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import chain
from typing import TYPE_CHECKING, Any, Sequence

from ..cards import Card
from .actions import Action, Knock, player_name
from .state import PastRound, RoundResult, SeenMove
from .mechanics.voiding import void_state

if TYPE_CHECKING:
    from .match import Match
    from ..melds import MeldRules
    from ..variant.model import Variant
    from .round import LegalActions, Round, TableMeld

__all__ = ["Observation", "face_up_pile", "result_for", "result_json", "seen_text"]


class Observation:
    """Seat ``player``'s view of ``rnd`` (live: it follows the round as it is played)."""

    __slots__ = ("_round", "player", "_legal")

    def __init__(self, rnd: Round, player: int) -> None:
        self._round = rnd
        self.player = player
        self._legal: LegalActions | None = None

    # -- the game -----------------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self._round.variant

    @property
    def rules(self) -> MeldRules:
        """The variant's meld solver (public knowledge)."""
        return self._round.rules

    @property
    def players(self) -> int:
        return self._round.players

    @property
    def number(self) -> int:
        """The round's number in the game, from 1."""
        return self._round.number

    @property
    def phase(self) -> str:
        return self._round.phase._value_  # (the member's value: ``.value`` is a slower descriptor)

    @property
    def to_move(self) -> int | None:
        return self._round.to_move

    @property
    def dealer(self) -> int:
        return self._round.dealer

    @property
    def sat_out(self) -> int | None:
        """The seat sitting out this round (G3-1: no cards, never to move), or None."""
        return self._round.sat_out

    @property
    def seated(self) -> tuple[int, ...]:
        """The seats dealt in this round, in seat order."""
        return self._round.seated

    @property
    def scores(self) -> tuple[int, ...]:
        return self._round.scores

    @property
    def knock_limit(self) -> int | None:
        """The most deadwood a knock may keep this round, or None where no limit
        applies: any deadwood may knock (KR-3) or, where ``variant.knock`` is None,
        nobody knocks."""
        return self._round.knock_limit

    def legal_actions(self) -> LegalActions:
        """This player's legal actions (empty while another player is to move)."""
        legal = self._legal
        if legal is None:  # a live view, like this observation: one serves every decision
            legal = self._legal = _legal_actions_type()(self._round, self.player)
        return legal

    def parse(self, text: str) -> Action:
        """Read an action in the round's notation.

        :raises MalformedActionError: for text that is not an action.
        """
        return self._round.parse(text)

    def why_illegal(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now (the rules' reason), or None: public knowledge."""
        return self._round.why_illegal(action)

    def sample(self, rng: random.Random) -> Match:
        """A match of this round alone, consistent with all this seat has seen: the cards
        hidden from it dealt again from ``rng`` (:meth:`Match.resample
        <rummydsl.engine.match.Match.resample>`), all it saw where it is. The match ends
        with the round (no later deal is played), keeps no history and shares nothing
        that the round in play changes: what search agents determinise through
        (``sample(rng).resample(player, rng)`` deals again at the cost of a resample).
        """
        from .match import Match

        return Match.playing(self._round).resample(self.player, rng)

    # -- the cards ----------------------------------------------------------------

    @property
    def hand(self) -> tuple[Card, ...]:
        """This player's own hand."""
        return tuple(self._round.hands[self.player])

    @property
    def hand_size(self) -> int:
        """The cards dealt to each player this round (``deal.hand_size``)."""
        return self._round.hand_size

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._round.hands)

    @property
    def stock_size(self) -> int:
        return len(self._round.stock)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile face up, bottom first (the top card is last); a knock's
        discard lies face down on it and is not shown (:attr:`knock_discard`)."""
        return tuple(face_up_pile(self._round))

    @property
    def top_discard(self) -> Card | None:
        """The top card of the pile face up (never a knock's face-down discard)."""
        pile = face_up_pile(self._round)  # (the round's own list, not a copy: agents ask at every decision)
        return pile[-1] if pile else None

    @property
    def knock_discard(self) -> Card | None:
        """The card a knock discarded face down (GR-6.1, GS-6.1): this player's own, if
        they knocked; None for everyone else (it stays face down after the round too)."""
        rnd = self._round
        return rnd.face_down if rnd.ender == self.player else None

    @property
    def face_down(self) -> bool:
        """Whether a knock discarded a card face down this round (seen by all: only the card is hidden)."""
        return self._round.face_down is not None

    @property
    def result(self) -> RoundResult | None:
        """The round's result as this player sees it (:func:`result_for`), once it is over."""
        rnd = self._round
        return None if rnd.result is None else result_for(rnd.result, self.player)

    @property
    def upcard(self) -> Card | None:
        """The card dealt face up at the start of the round (public all round)."""
        return self._round.upcard

    @property
    def table(self) -> tuple[tuple[TableMeld, ...], ...]:
        """Every player's table melds, by seat."""
        return tuple(tuple(melds) for melds in self._round.table)

    @property
    def table_melds(self) -> tuple[TableMeld, ...]:
        """Every table meld in one tuple, seat by seat (:attr:`table` flattened, without a
        tuple for each seat: a greedy player asks at every draw)."""
        return tuple(chain.from_iterable(self._round.table))

    def known(self, player: int) -> tuple[Card, ...]:
        """The cards of ``player``'s hand everyone has seen (all of it for oneself): by
        face and with multiplicity, the faces seen going in (taken from the pile, bought,
        offered) less the faces seen going out, each a card seen going in
        (:meth:`Round.forget <rummydsl.engine.round.Round.forget>`)."""
        if player == self.player:
            return self.hand
        return tuple(self._round.known[player])

    @property
    def offered(self) -> Card | None:
        """The card being offered, face up."""
        return self._round.offered

    @property
    def taken(self) -> Card | None:
        """The card this player took from the discard pile this turn, if it is their turn."""
        rnd = self._round
        return rnd.taken if rnd.turn_player == self.player else None

    @property
    def met_contract(self) -> tuple[bool, ...]:
        return tuple(self._round.met_contract)

    @property
    def turn_overs(self) -> int:
        """How many times the discard pile has been turned over into a new stock this round (BR-4)."""
        return self._round.turn_overs

    @property
    def discard_draws(self) -> int:
        """How many draw steps have taken from the discard pile this round (``void.at_discard_draw``)."""
        return self._round.discard_draws

    @property
    def melded_turns(self) -> tuple[int, ...]:
        """In how many of their turns each player has put cards on the table this round (BR-5)."""
        return tuple(self._round.melded_turns)

    @property
    def bought(self) -> tuple[int, ...]:
        """How many times each player has bought a discard this deal (CR-4)."""
        return tuple(self._round.bought)

    @property
    def buy_limit(self) -> int:
        """The buys each player may make this deal (0 without buying, CR-4)."""
        return self._round.buy_limit

    @property
    def turn_player(self) -> int:
        """The player whose turn it is (in the buy phase, the one drawing from the stock)."""
        return self._round.turn_player

    @property
    def ender(self) -> int | None:
        return self._round.ender

    @property
    def ender_deadwood(self) -> int | None:
        """After a knock: the knocker's deadwood (shown)."""
        rnd = self._round
        return rnd.ender_deadwood if rnd.ender is not None else None

    def shown(self, player: int) -> tuple[tuple[Card, ...], ...] | None:
        """The melds ``player`` showed after a knock (None: not shown yet)."""
        declared = self._round.declared[player]
        return None if declared is None else tuple(declared)

    # -- the game so far -----------------------------------------------------------

    def moves(self, round: int | None = None) -> tuple[SeenMove, ...]:
        """The moves of the game so far, in order, each as this seat saw it played
        (:func:`seen_text`) and with the number of its round: the rounds of the game
        played before this one (as the game dealt them: :attr:`Round.earlier
        <rummydsl.engine.round.Round.earlier>`), then this round's. ``round``: only the
        moves of the round with that number.

        Every move is public as written but a knock that discards face down, whose card
        only the knocker sees: the notation names no card drawn from the stock
        (``P2 draw stock``) nor a buy's penalty card (``P3 buy``), for anyone.
        docs/engine.md ("What a seat sees") has an example; tests/engine/test_seen_moves.py
        plays it through rounds, redeals, copies and JSON.
        """
        rnd = self._round
        rounds: list[tuple[int, Sequence[Action], bool]] = [
            (past.number, past.actions, past.face_down) for past in rnd.earlier]
        rounds.append((rnd.number, rnd.actions, rnd.face_down is not None))
        return tuple(SeenMove(number, action.player, seen_text(action, self.player, face_down))
                     for number, actions, face_down in rounds if round is None or number == round
                     for action in actions)

    def past_results(self) -> tuple[tuple[int, RoundResult], ...]:
        """The number and result of each round of the game played before this one, first
        first, each as this seat saw it at the table (:func:`result_for`: a void round shows
        no other hand's deadwood); none in a game's first round.
        """
        return tuple((past.number, result_for(past.result, self.player)) for past in self._round.earlier)

    # -- JSON ------------------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The observation as plain JSON, with the legal actions when it is this player's move."""
        rnd = self._round

        def cards(seq: Sequence[Card]) -> list[str]:
            return [str(c) for c in seq]

        out: dict[str, Any] = {
            "variant": rnd.variant.id,
            "you": player_name(self.player),
            "round": rnd.number,
            "dealer": player_name(rnd.dealer),
            **({} if rnd.sat_out is None else {"sat_out": player_name(rnd.sat_out)}),
            "phase": self.phase,
            "to_move": None if rnd.to_move is None else player_name(rnd.to_move),
            "hand": cards(sorted(self.hand, key=lambda c: c.id)),
            "hand_sizes": {player_name(p): n for p, n in enumerate(self.hand_sizes)},
            "stock_size": self.stock_size,
            "discards": cards(self.discards),
            **({} if rnd.face_down is None else
               {"knock_discard": None if self.knock_discard is None else str(self.knock_discard)}),
            "upcard": None if rnd.upcard is None else str(rnd.upcard),
            "table": {player_name(p): [m.as_json() for m in melds]
                      for p, melds in enumerate(rnd.table)},
            "known": {player_name(p): cards(rnd.known[p]) for p in range(rnd.players) if p != self.player},
            "offered": None if rnd.offered is None else str(rnd.offered),
            "met_contract": {player_name(p): m for p, m in enumerate(rnd.met_contract)},
            "melded_turns": {player_name(p): k for p, k in enumerate(rnd.melded_turns)},
            "turn_overs": rnd.turn_overs,
            "scores": {player_name(p): s for p, s in enumerate(rnd.scores)},
            "knock_limit": rnd.knock_limit,  # null without a limit and without knocking (docs/protocol.md)
        }
        void = void_state(rnd)
        if void:  # void.at_discard_draw, void.after_throwbacks: public counts
            out["void"] = void
        if rnd.variant.buying is not None:  # CR-4
            out["buying"] = {"limit": rnd.buy_limit,
                             "bought": {player_name(p): k for p, k in enumerate(rnd.bought)},
                             "turn_player": player_name(rnd.turn_player)}
        if rnd.ender is not None:
            out["ender"] = player_name(rnd.ender)
            out["ender_deadwood"] = rnd.ender_deadwood
            out["shown"] = {player_name(p): [cards(m) for m in d]
                            for p, d in enumerate(rnd.declared) if d is not None}
        if rnd.to_move == self.player:
            out["legal"] = [str(a) for a in rnd.legal_actions()]
        if rnd.result is not None:
            out["result"] = result_json(rnd.result, self.player)
        return out


def seen_text(action: Action, seat: int, face_down: bool) -> str:
    """``action`` in the notation as seat ``seat`` saw it played in a round in which a knock
    discarded face down (``face_down``) or not: another seat's such knock reads
    ``P2 knock (discarding face down)`` and the melds it named (shown at once), without the
    card; every other move as written.

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.engine.actions import parse_action
    >>> knock = parse_action("P2 knock 7H [3S 4S 5S]", Deck.preset("standard52"), 2)
    >>> seen_text(knock, 0, True), seen_text(knock, 1, True)
    ('P2 knock (discarding face down) [3S 4S 5S]', 'P2 knock 7H [3S 4S 5S]')
    """
    if isinstance(action, Knock) and face_down and action.player != seat and action.card is not None:
        melds = "".join(" [" + " ".join(str(c) for c in meld) + "]" for meld in action.melds or ())
        return f"{player_name(action.player)} knock (discarding face down){melds}"
    return str(action)


def face_up_pile(rnd: Round) -> Sequence[Card]:
    """The discard pile as every seat sees it, bottom first: the round's own list (read
    it, do not keep it), less a knock's face-down discard on top (:attr:`Observation.discards`
    is this as a tuple)."""
    pile = rnd.discards
    if rnd.face_down is not None and pile and pile[-1] is rnd.face_down:
        return pile[:-1]
    return pile


def result_for(result: RoundResult, seat: int) -> RoundResult:
    """``result`` as seat ``seat`` sees it at the table: a void round is not scored, so
    nobody shows their hand, and its deadwoods are hidden but the seat's own (None);
    every other ending shows every hand (the knocker's melds and each defender's, or the
    hands counted against the one who went out), so all is shown. The engine, records
    and statistics keep the whole result; this is what an observation and an agent's
    ``round_over`` message give."""
    if not result.void:
        return result
    hidden = tuple(d if p == seat else None for p, d in enumerate(result.deadwoods))
    return replace(result, deadwoods=hidden)


def result_json(result: RoundResult, seat: int) -> dict[str, Any]:
    """:func:`result_for` as plain JSON (the agent protocol's ``round_over`` result)."""
    return result_for(result, seat).as_json()


def _legal_actions_type() -> type[LegalActions]:
    """``round.LegalActions``, imported once (round imports this module's users; an import
    inside ``legal_actions`` cost a tenth of a random Gin decision)."""
    global _LEGAL_ACTIONS
    if _LEGAL_ACTIONS is None:
        from .round import LegalActions

        _LEGAL_ACTIONS = LegalActions
    return _LEGAL_ACTIONS


_LEGAL_ACTIONS: type[LegalActions] | None = None
