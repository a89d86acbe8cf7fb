"""One round (hand) of any declared variant: its state, and the flow between the mechanics.

A :class:`Round` is built from a variant and a deal (:meth:`Round.deal` shuffles
with a ``random.Random`` passed in; :meth:`Round.from_setup` takes a fixed
position, as conformance cases do). It says who acts (:attr:`Round.to_move`),
what they may do (:meth:`Round.legal_actions`, a view that can be iterated,
counted and asked ``action in legal``), why an action is refused
(:meth:`Round.why_illegal`), and plays one (:meth:`Round.apply`), which checks
first, so a refused action leaves the round exactly as it was.

The turn is the variant's list of steps (``turn:``); each step, and each phase
around the turn (the upcard offer, the last-discard claim, the showdown after a
knock), is a mechanic of :mod:`rummydsl.engine.mechanics` with one shape
(``enter``, ``legal``, ``check``, ``apply``). The round holds the state and
moves between them (``start_turn``, ``enter_step``, ``end_turn``, ``finish``).
Nothing here names a game: every difference between games comes from the variant.
docs/engine.md has a worked example (tested with the docs).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

from ..cards import Card
from ..errors import CardError, ExpressionError, IllegalActionError, MalformedActionError
from ..expr.runtime import RoundFacts
from ..limits import MAX_HAND, MAX_HAND_SIZE
from ..melds.bind import meld_rules
from ..melds.contract import BoundContract, first_deal_facts
from .actions import Action, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, parse_action, player_name
from .fields import Field
from .finish import Finish
from .flow import FIELDS as FLOW_FIELDS
from .flow import Flow
from .mechanics import BY_PHASE, FIELDS as MECHANIC_FIELDS, KNOCK, STEPS, UPCARD
from .mechanics.deep import pending, pending_reason
from .prebuilt import Prebuilt
from .seating import first_seating
from .state import Phase, RoundResult, TableMeld
from .table import FIELDS as TABLE_FIELDS
from .table import Table

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["Phase", "TableMeld", "RoundResult", "Round", "LegalActions", "meld_rules", "BoundContract",
           "dealt_hand_size", "first_deal_facts", "FIRST_DEAL", "STATE"]

STATE: tuple[Field, ...] = (*TABLE_FIELDS, *FLOW_FIELDS, *MECHANIC_FIELDS)
"""Every field of a round's state, as the table, the flow and the mechanics declare them."""
_PLAY_FIELDS = (*FLOW_FIELDS, *MECHANIC_FIELDS)
_TABLE_INITIAL = tuple((f.name, f.initial) for f in TABLE_FIELDS)
_PLAY_INITIAL = tuple((f.name, f.initial) for f in _PLAY_FIELDS)
"""Each field's name and initial value, in the order a round sets them (the table's
first: the meld solver's facts read them; then the flow's and the mechanics')."""
_LISTS = tuple(f.name for f in STATE if f.kind == "list")
_NESTED = tuple(f.name for f in STATE if f.kind == "lists")
_MELDS = tuple(f.name for f in STATE if f.kind == "melds")
Flow._turn_start = {f.name: f.initial(None) for f in STATE if f.turn}  # type: ignore[arg-type]

FIRST_DEAL = -1
"""``Round.deal``'s default ``sat_out``: whoever the variant seats out of a game's first deal."""

_KEPT = 32
_TURN_PHASES = (Phase.MELD, Phase.DISCARD, Phase.OFFER)
_STEP_ACTIONS: dict[str, tuple[type, ...]] = {
    "draw": (Draw, Pass), "meld": (Meld, Layoff), "discard": (Discard,), "offer": (Offer,)}
"""The verbs of each turn step (``done`` ends an optional step; a knock may come in any step after the draw)."""


_POSITIONS: dict[int, tuple[Any, tuple[int, ...] | None]] = {}


def _positions(deck: Any) -> tuple[int, ...] | None:
    """Each card's single sequence position (-1 for a wild card or an ace with two), per deck."""
    got = _POSITIONS.get(id(deck))
    if got is None or got[0] is not deck:
        table: tuple[int, ...] | None = None
        if not deck.wrap:
            out = []
            for card in deck.cards:
                spots = () if card.wild else tuple(deck.sequence_positions(card.rank))
                out.append(spots[0] if len(spots) == 1 else -1)
            table = tuple(out)
        got = (deck, table)
        if len(_POSITIONS) >= _KEPT:
            _POSITIONS.pop(next(iter(_POSITIONS)))
        _POSITIONS[id(deck)] = got
    return got[1]


_SETUPS: dict[int, tuple[Any, tuple[Any, ...]]] = {}


def _setup(variant: Variant) -> tuple[Any, ...]:
    """What a round of ``variant`` reads from it and never changes, worked out once per
    variant object: the card values and the highest, each card's sequence position,
    whether the taken card is forbidden (GR-5), whether the deck is one pack without
    wild cards, each turn step's name and mechanic (:data:`.mechanics.STEPS`), and
    whether the variant has a knock (without one, no listing asks for knocks)."""
    got = _SETUPS.get(id(variant))
    if got is None or got[0] is not variant:
        values = variant.card_values
        deck = variant.deck
        discard_step = variant.step("discard")
        got = (variant, (values, max(values, default=0), _positions(deck),
                         discard_step is None or discard_step.taken_card == "forbidden",
                         deck.packs == 1 and deck.wilds == 0,
                         tuple((step.name, STEPS[step.name]) for step in variant.turn),
                         variant.knock is not None))
        if len(_SETUPS) >= _KEPT:
            _SETUPS.pop(next(iter(_SETUPS)))
        _SETUPS[id(variant)] = got
    return got[1]


def dealt_hand_size(variant: Variant, *, players: int, dealer: int, number: int,
                    scores: Sequence[int] | None = None, sat_out: int | None = None) -> int:
    """The cards each player gets in deal ``number`` (from 1) of ``players`` seats:
    ``deal.hand_size``, worked out in the deal context when it is an expression
    (its ``players`` and ``player_count`` are the seats dealt in: not ``sat_out``, G3-1).

    :raises ExpressionError: rule ``expr-runtime``, when the expression fails or gives
        a size outside 1..19 (``check`` tries every player count and deal with totals
        of 0; a formula of the totals can still go wrong in play).
    """
    rule = variant.deal.hand_size_rule
    if rule is None:
        return variant.deal.hand_size
    seated = tuple(p for p in range(players) if p != sat_out)
    facts = RoundFacts(players=seated, dealer=dealer, round=number,
                       scores=tuple(scores) if scores is not None else (0,) * players)
    size = int(rule(facts))
    if not 1 <= size <= MAX_HAND_SIZE:
        raise ExpressionError(f"deal.hand_size {rule.text!r} gives {size} cards in deal {number} with "
                              f"{len(seated)} players; a hand is 1 to {MAX_HAND_SIZE} cards", 0, 0, "expr-runtime")
    return size


class LegalActions:
    """The legal actions of a round now: iterate, count, or ask ``action in legal``.

    ``in`` is answered by the rules (:meth:`Round.why_illegal`), not by listing
    every action, so it also accepts actions the listing leaves out (a knock
    that names its melds, a defender showing chosen melds). Text is parsed first.

    A view for one ``seat`` (an observation's) is empty while another player is
    to move: their actions would show their hand.
    """

    __slots__ = ("_round", "_seat")

    def __init__(self, rnd: Round, seat: int | None = None) -> None:
        self._round = rnd
        self._seat = seat

    def _hidden(self) -> bool:
        return self._seat is not None and self._seat != self._round.to_move

    def __iter__(self) -> Iterator[Action]:
        rnd = self._round
        if self._seat is not None and self._seat != rnd.to_move:  # (_hidden inline: asked every decision)
            return iter(())
        listed = rnd._listed
        return iter(listed if listed is not None else rnd.listed())

    def __getitem__(self, index: int) -> Action:
        rnd = self._round
        if self._seat is not None and self._seat != rnd.to_move:
            raise IndexError("no legal actions for this seat: another player is to move")
        listed = rnd._listed
        return (listed if listed is not None else rnd.listed())[index]

    def listed(self) -> Sequence[Action]:
        """The actions as a sequence to read, not change (the round's own list, as
        :meth:`Round.listed`), or ``()`` while another seat is to move: what iterating,
        counting and indexing this view read, in one call."""
        rnd = self._round
        if self._seat is not None and self._seat != rnd.to_move:
            return ()
        listed = rnd._listed
        return listed if listed is not None else rnd.listed()

    def __contains__(self, action: object) -> bool:
        rnd = self._round
        if self._hidden():
            return False
        if isinstance(action, str):
            try:
                action = rnd.parse(action)
            except MalformedActionError:
                return False
        return rnd.why_illegal(action) is None  # type: ignore[arg-type]

    def __len__(self) -> int:
        rnd = self._round
        if self._seat is not None and self._seat != rnd.to_move:
            return 0
        listed = rnd._listed
        return len(listed if listed is not None else rnd.listed())

    def count(self) -> int:
        """How many actions are listed."""
        return len(self)

    def __repr__(self) -> str:
        return f"<LegalActions {', '.join(str(a) for a in self)}>"


class Round(Table, Flow, Finish):
    """The state of one round, and the flow that moves it (see the module docstring).

    The attributes are the state; read them freely, change them only through
    :meth:`apply` (the mechanics use the flow methods below).
    """

    def __init__(self, variant: Variant, *, dealer: int, hands: Sequence[Sequence[Card]],
                 stock: Sequence[Card], upcard: Card | None, scores: Sequence[int] | None = None,
                 number: int = 1, sat_out: int | None = None) -> None:
        """A round at its start; ``stock`` is top card first. Use :meth:`deal` or :meth:`from_setup`.

        ``sat_out`` is the seat sitting out this round (G3-1: dealt nothing, never to move), or None.
        """
        state = self.__dict__
        state["variant"] = variant
        setup = _setup(variant)
        self.values = setup[0]
        self.highest_value = setup[1]
        """The highest card value of the deck (bounds what one discard can save)."""
        self.positions = setup[2]
        """Each card's one sequence position by id (-1: none or several), or None for a wrapping deck."""
        n = len(hands)
        self.players = n
        """Every seat of the game, those sitting out included (seats keep their numbers)."""
        self.sat_out = sat_out
        """The seat sitting out this round (G3-1), or None."""
        self.seated = tuple(range(n)) if sat_out is None else tuple(p for p in range(n) if p != sat_out)
        """The seats dealt in, in seat order: the round's players (turns, queues, scoring)."""
        self.dealer = dealer
        self.number = number
        self.scores = tuple(scores) if scores is not None else (0,) * n
        self.hand_size = dealt_hand_size(variant, players=n, dealer=dealer, number=number, scores=self.scores,
                                         sat_out=sat_out)
        """The cards dealt to each player this round (``deal.hand_size``, by player count and deal)."""
        self.dealt = (tuple(map(tuple, hands)), tuple(stock), upcard)
        """The deal as it was: each hand, the stock (top card first), the upcard (saves replay from it)."""
        self.earlier = ()
        """The rounds of the game played before this one (:class:`~.state.PastRound`, first
        first): a game sets them when it deals the round (:meth:`Game.next_round
        <rummydsl.engine.game.Game.next_round>`); a round dealt alone has none."""
        self.prebuilt = Prebuilt.of(variant.deck, n)
        """The listing's common actions, built once per deck and player count (:mod:`.prebuilt`)."""
        self.forbid_taken = setup[3]
        """Whether the card taken from the pile this turn may not be discarded this turn (GR-5)."""
        self._plain_deck = setup[4]
        self._steps = setup[5]
        self._knocks = setup[6]
        self._listed = None
        self._plan = None
        for name, initial in _TABLE_INITIAL:
            state[name] = initial(self)
        self.rules = meld_rules(variant, self.facts() if variant.contract is not None else None)
        """The meld solver, its contract judged in this round (CR-2)."""
        for name, initial in _PLAY_INITIAL:
            state[name] = initial(self)
        if not UPCARD.begin(self):
            self.start_turn(self.next_seat(dealer))

    # ------------------------------------------------------------------ building

    @classmethod
    def deal(cls, variant: Variant, rng: random.Random, *, dealer: int,
             players: int | None = None, scores: Sequence[int] | None = None, number: int = 1,
             sat_out: int | None = FIRST_DEAL) -> Round:
        """Shuffle with ``rng`` and deal (GR-2, SK-2, GS-2): one card at a time from the
        dealer's left, then the upcard where the variant has one, the rest the stock.

        The seat ``sat_out`` (G3-1) is dealt nothing; left as :data:`FIRST_DEAL`, it is
        the seat the variant's ``deal.sit_out`` names for a game's first deal by
        ``dealer`` (nobody without one), and with ``rotation: sitter`` that seat deals.
        """
        n = variant.players if players is None else players
        if sat_out == FIRST_DEAL:
            dealer, sat_out = first_seating(variant, dealer, n) if variant.deal.sit_out is not None else (dealer, None)
        cards = list(variant.deck.cards)
        rng.shuffle(cards)
        return cls.deal_cards(variant, cards, dealer=dealer, players=n, scores=scores, number=number,
                              sat_out=sat_out)

    @classmethod
    def deal_cards(cls, variant: Variant, cards: Sequence[Card], *, dealer: int, players: int,
                   scores: Sequence[int] | None = None, number: int = 1, sat_out: int | None = None) -> Round:
        """Deal the whole deck in the order ``cards`` (a shuffle: every card once), as
        :meth:`deal` does after shuffling: one card at a time from the dealer's left,
        then the upcard where the variant has one, the rest the stock (its top first).
        :class:`~rummydsl.engine.match.Match` deals this way when every card is a
        chance outcome."""
        n = players
        size = dealt_hand_size(variant, players=n, dealer=dealer, number=number, scores=scores, sat_out=sat_out)
        hands: list[Sequence[Card]] = [() for _ in range(n)]
        order = [(dealer + k) % n for k in range(1, n + 1)]
        if sat_out is not None:
            order.remove(sat_out)
        seated = len(order)
        at = size * seated
        if at + bool(variant.deal.upcard) > len(cards):
            raise CardError(f"{len(cards)} cards are too few to deal {seated} × {size}"
                            + (" and an upcard" if variant.deal.upcard else ""))
        for first, seat in enumerate(order):  # one card at a time: the seat's cards are every seated-th
            hands[seat] = cards[first:at:seated]
        upcard = None
        if variant.deal.upcard:
            upcard = cards[at]
            at += 1
        return cls(variant, dealer=dealer, hands=hands, stock=cards[at:], upcard=upcard,
                   scores=scores, number=number, sat_out=sat_out)

    @classmethod
    def from_setup(cls, variant: Variant, *, dealer: int, hands: Sequence[Sequence[Card]],
                   stock: Sequence[Card], upcard: Card | None = None,
                   scores: Sequence[int] | None = None, number: int = 1,
                   sat_out: int | None = None) -> Round:
        """A fixed position (conformance cases, replays); the stock is top card first.

        :raises CardError: for a card placed twice, a card of another deck, an
            upcard in a variant that deals none, a dealer not seated, or a
            seat sitting out (``sat_out``, G3-1) that is not a seat or holds cards.
        """
        cards = variant.deck.cards
        seen: set[int] = set()
        everything = [c for hand in hands for c in hand] + list(stock) + ([upcard] if upcard else [])
        for card in everything:
            if not 0 <= card.id < len(cards) or cards[card.id] is not card:
                raise CardError(f"{card!r} is not a card of this variant's deck")
            if card.id in seen:
                raise CardError(f"card {str(card)!r} is placed twice in the setup")
            seen.add(card.id)
        if upcard is not None and not variant.deal.upcard:
            raise CardError("this variant deals no upcard (deal.upcard: false), so a round starts without one")
        if not 0 <= dealer < len(hands):
            raise CardError(f"dealer {player_name(dealer)} is not one of the {len(hands)} players")
        if sat_out is not None:
            if not 0 <= sat_out < len(hands):
                raise CardError(f"the seat sitting out, {player_name(sat_out)}, is not one of the "
                                f"{len(hands)} players")
            if hands[sat_out]:
                raise CardError(f"{player_name(sat_out)} sits out this round but holds "
                                f"{len(hands[sat_out])} cards: a seat sitting out is dealt none (G3-1)")
        return cls(variant, dealer=dealer, hands=hands, stock=stock, upcard=upcard,
                   scores=scores, number=number, sat_out=sat_out)

    def copy(self) -> Round:
        """An independent copy (for agents that search, and a match's undo): every field
        copied as its declaration says (:mod:`.fields`); the variant and solver are shared."""
        other = object.__new__(Round)
        state = other.__dict__
        state.update(self.__dict__)
        for name in _LISTS:
            state[name] = state[name][:]
        for name in _NESTED:
            state[name] = [list(item) for item in state[name]]
        for name in _MELDS:
            state[name] = [[meld.copy() for meld in melds] for melds in state[name]]
        other._listed = None
        other._plan = None
        return other

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the round has ended (:attr:`result` is set)."""
        return self.result is not None

    def legal_actions(self) -> LegalActions:
        """The actions the player to move may take now."""
        return LegalActions(self)

    def listed(self) -> list[Action]:
        """The legal actions as a list (cached until the next action; do not change it)."""
        listed = self._listed
        if listed is None:
            player = self.to_move
            if player is None:
                listed = []
            elif self.must_knock:
                listed = list(KNOCK.legal(self, player))
            else:
                phase = self.phase
                mechanic = BY_PHASE.get(phase)
                got = mechanic.legal(self, player) if mechanic is not None else []
                listed = got if type(got) is list else list(got)  # a mechanic's list is the caller's
                if self._knocks and phase in _TURN_PHASES and (self.must_meld is None or pending(self) is None):
                    knocks = KNOCK.legal(self, player)
                    if knocks:
                        listed.extend(knocks)
            self._listed = listed
        return listed

    def parse(self, text: str) -> Action:
        """Read an action in this round's notation (the variant's deck).

        :raises MalformedActionError: for text that is not an action.
        """
        return parse_action(text, self.variant.deck, self.players)

    def why_illegal(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now, or ``None`` if it is.

        An action of a later step of the turn, sent while the player is in an optional
        step (melding, an offer that may be skipped), is allowed when ending the step(s)
        between with ``done`` is, and the action is legal once they are ended (DESIGN.md:
        ``P1 draw stock``, ``P1 offer 7H``): :meth:`apply` plays those ``done`` first.
        """
        if self.result is not None:
            return "the round is over"
        if action.player != self.to_move:
            who = "nobody" if self.to_move is None else player_name(self.to_move)
            return f"it is {who}'s move, not {player_name(action.player)}'s"
        if self._later_step(action):
            return self._after_done(action)[0]
        try:
            return self._check(action)
        except IllegalActionError as problem:
            return problem.reason

    def _later_step(self, action: Action) -> bool:
        """Whether ``action`` is no verb of the step the turn is in but of a later one
        (checked with :meth:`_after_done`: the steps between are ended by ``done``)."""
        if self.phase not in _TURN_PHASES or self.must_knock or isinstance(action, (Done, Knock)):
            return False
        turn = self.variant.turn
        if not 0 <= self.step < len(turn) or isinstance(action, _STEP_ACTIONS.get(turn[self.step].name, ())):
            return False
        return any(isinstance(action, _STEP_ACTIONS.get(step.name, ())) for step in turn[self.step + 1:])

    def _after_done(self, action: Action) -> tuple[str | None, int]:
        """Why ``action`` of a later step is refused now (None if it is allowed), and how
        many ``done`` reach its step: tried on a copy, so nothing here changes."""
        probe = self.copy()
        player = action.player
        turns = probe.turns
        ended = 0
        while probe._later_step(action):
            step = probe.phase.value
            reason = probe.why_illegal(Done(player))
            if reason is not None:
                return f"this is the {step} step, and it cannot be ended yet: {reason}", ended
            probe._play(Done(player))
            ended += 1
            if probe.result is not None or probe.turns != turns or probe.to_move != player:
                verb = type(action).__name__.lower()
                return (f"this is the {step} step, and no {verb} step follows it this turn "
                        f"(ending it ends {player_name(player)}'s turn)"), ended
        return probe.why_illegal(action), ended

    def verify(self, action: Action) -> None:
        """Raise if ``action`` is not allowed now.

        :raises IllegalActionError: with the reason.
        """
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(str(action), reason)

    def apply(self, action: Action | str) -> Action:
        """Play one action (checked first: a refused action changes nothing).

        :returns: the action played (parsed, when given as text).
        :raises MalformedActionError: for text that is not an action.
        :raises IllegalActionError: for an action not allowed now, with the reason.
        """
        listed = self._listed
        if listed is not None:
            for a in listed:
                if a is action:  # a listed action (that very object) is legal: played unchecked
                    # and logged, by the mechanic's ``apply_listed``, which leaves the round as
                    # _play after a check does (tests/engine/test_apply_listed.py)
                    self._listed = None
                    self.actions.append(action)
                    if type(action) is Knock:
                        KNOCK.apply_listed(self, action)
                    else:
                        BY_PHASE[self.phase].apply_listed(self, action)
                    self._plan = None
                    return action
        if isinstance(action, str):
            action = self.parse(action)
        if self.result is None and action.player == self.to_move and self._later_step(action):
            # the optional step(s) before the action's are ended with 'done': all checked, then played
            reason, ended = self._after_done(action)
            if reason is not None:
                raise IllegalActionError(str(action), reason)
            for _ in range(ended):
                self._play(Done(action.player))
            self._play(action)
            return action
        self.verify(action)
        self._play(action)
        return action

    def _play(self, action: Action) -> None:
        """Play ``action``, already checked, and log it."""
        self._listed = None
        self.actions.append(action)
        if isinstance(action, Knock):
            KNOCK.apply(self, action)
        else:
            BY_PHASE[self.phase].apply(self, action)
        self._plan = None

    def plan(self, action: Action, work: Any) -> None:
        """Keep what checking ``action`` worked out (a mechanic's ``check``), so that its
        ``apply`` carries it out rather than working it out again (:meth:`planned`)."""
        self._plan = (action, work)

    def planned(self, action: Action) -> Any:
        """What :meth:`plan` kept for this very action, or None (it was not checked: a
        listed action is known legal, so it is applied without a check)."""
        plan = self._plan
        return plan[1] if plan is not None and plan[0] is action else None

    def _check(self, action: Action) -> str | None:
        if isinstance(action, Knock):
            if self.phase is Phase.CLAIM:
                return "claim the discard first ('draw discard') or pass"
            if pending(self) is not None:
                return pending_reason(self)
            return KNOCK.check(self, action)
        if isinstance(action, Draw) and action.card is not None and self.phase is not Phase.DRAW:
            return "a card of the discard pile is named only in the turn's draw step ('draw discard CARD')"
        if self.must_knock:
            return "a claimed discard must be used to knock at once (GR-8)"
        mechanic = BY_PHASE.get(self.phase)
        if mechanic is None:
            return "the round is over"
        if isinstance(action, Meld) and not action.melds and self.phase is not Phase.SHOWDOWN:
            return "'meld []' (showing no melds) is said only by a defender after a knock"
        return mechanic.check(self, action)

    def facts(self) -> RoundFacts:
        """The round context of expressions (upcard, dealer, round, scores); its players
        are the seats dealt in."""
        values = self.values
        return RoundFacts(players=self.seated, dealer=self.dealer, round=self.number,
                          hand_size=self.hand_size, upcard=self.upcard,
                          scores=self.scores, card_value=lambda card: values[card.id])

    # ------------------------------------------------------------------ serialising

    def to_json(self, card_text: Callable[[Card], str] = str) -> dict[str, Any]:
        """The whole state as plain JSON (every hand: for tests, logs, debugging and saves),
        written field by field as each part declares it (:mod:`.fields`).

        ``card_text`` writes a card (a save tells copies of a face apart, :mod:`rummydsl.save`).
        """
        out: dict[str, Any] = {"round": self.number, "dealer": player_name(self.dealer)}
        if self.sat_out is not None:
            out["sat_out"] = player_name(self.sat_out)
        for field in STATE:
            if field.json is None:
                continue
            value = field.json(self, card_text)
            if field.key:
                out[field.key] = value
            else:
                out.update(value)
        return out
