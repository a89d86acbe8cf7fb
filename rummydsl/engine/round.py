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
from ..endings import Ending
from ..errors import CardError, ExpressionError, IllegalActionError, MalformedActionError
from ..expr.runtime import RoundFacts
from ..limits import MAX_HAND, MAX_HAND_SIZE
from ..melds.bind import meld_rules
from ..melds.contract import BoundContract, first_deal_facts
from .actions import Action, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, parse_action, player_name
from .mechanics import BY_PHASE, CLAIM, KNOCK, STEPS, UPCARD
from .mechanics.credit import melded_total
from .mechanics.deep import pending, pending_reason
from .mechanics.buying import buy_limit
from .mechanics.knock import knock_limit
from .mechanics.arrangement import as_shown, unshown_deadwood
from .mechanics.voiding import void_state
from .state import Phase, RoundResult, TableMeld

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["Phase", "TableMeld", "RoundResult", "Round", "LegalActions", "meld_rules", "BoundContract",
           "dealt_hand_size", "first_deal_facts", "FIRST_DEAL"]

FIRST_DEAL = -1
"""``Round.deal``'s default ``sat_out``: whoever the variant seats out of a game's first deal."""

_KEPT = 32
_TURN_PHASES = (Phase.MELD, Phase.DISCARD, Phase.OFFER)
_STEP_ACTIONS: dict[str, tuple[type, ...]] = {
    "draw": (Draw, Pass), "meld": (Meld, Layoff), "discard": (Discard,), "offer": (Offer,)}
"""The verbs of each turn step (``done`` ends an optional step; a knock may come in any step after the draw)."""
_KNOCKS = (Ending.KNOCK, Ending.GIN, Ending.BIG_GIN)
"""The endings a defender can undercut: another player scoring after going out is no undercut (R5-6)."""


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
        return iter(() if self._hidden() else self._round.listed())

    def __getitem__(self, index: int) -> Action:
        if self._hidden():
            raise IndexError("no legal actions for this seat: another player is to move")
        return self._round.listed()[index]

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
        return 0 if self._hidden() else len(self._round.listed())

    def count(self) -> int:
        """How many actions are listed."""
        return len(self)

    def __repr__(self) -> str:
        return f"<LegalActions {', '.join(str(a) for a in self)}>"


class Round:
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
        self.variant = variant
        self.values = variant.card_values
        self.highest_value = max(self.values, default=0)
        """The highest card value of the deck (bounds what one discard can save)."""
        self.positions = _positions(variant.deck)
        """Each card's one sequence position by id (-1: none or several), or None for a wrapping deck."""
        n = len(hands)
        self.players = n
        """Every seat of the game, those sitting out included (seats keep their numbers)."""
        self.sat_out = sat_out
        """The seat sitting out this round (G3-1), or None."""
        self.seated: tuple[int, ...] = tuple(p for p in range(n) if p != sat_out)
        """The seats dealt in, in seat order: the round's players (turns, queues, scoring)."""
        self.dealer = dealer
        self.number = number
        self.scores: tuple[int, ...] = tuple(scores) if scores is not None else (0,) * n
        self.hand_size = dealt_hand_size(variant, players=n, dealer=dealer, number=number, scores=self.scores,
                                         sat_out=sat_out)
        """The cards dealt to each player this round (``deal.hand_size``, by player count and deal)."""
        self.dealt: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card | None] = (
            tuple(tuple(hand) for hand in hands), tuple(stock), upcard)
        """The deal as it was: each hand, the stock (top card first), the upcard (saves replay from it)."""
        self.hands: list[list[Card]] = [list(hand) for hand in hands]
        self.stock: list[Card] = list(reversed(stock))  # the top card is last
        self.discards: list[Card] = [upcard] if upcard is not None else []
        self.upcard = upcard
        self.rules = meld_rules(variant, self.facts())
        """The meld solver, its contract judged in this round (CR-2)."""
        self.table: list[list[TableMeld]] = [[] for _ in range(n)]
        self.met_contract: list[bool] = [variant.contract is None] * n
        self.turn_overs = 0
        """How many times the discard pile has been turned over into a new stock (BR-4)."""
        self.discard_draws = 0
        """Draw-step draws from the discard pile so far (``void.at_discard_draw``, :mod:`.mechanics.voiding`)."""
        self.throwbacks = 0
        """The turns in a row that discarded the card they took from the pile (``void.after_throwbacks``)."""
        self.throwback_turn = -1
        """The turn (by :attr:`turns`) of the last of those throwbacks."""
        self.melded_turns: list[int] = [0] * n
        """In how many of their turns each player put at least one card on the table (BR-5)."""
        self.laid_this_turn = False
        """The player on turn has put a card on the table this turn."""
        self.known: list[list[Card]] = [[] for _ in range(n)]
        """Cards in each hand that every player has seen (taken from the pile, offered)."""
        self.last_accepted: list[Card | None] = [None] * n
        self.skip_draw: list[bool] = [False] * n
        # the turn
        self.phase = Phase.DRAW
        self.to_move: int | None = None
        self.turn_player = self.next_seat(dealer)
        self.step = 0
        self.drawn = False
        self.taken: Card | None = None
        """The card taken from the discard pile this turn (GR-5: not discarded this turn)."""
        self.must_meld: Card | None = None
        """The card drawn from deep in the discard pile this turn, to be melded or laid
        off before the turn goes on (R5-3, :mod:`.mechanics.deep`)."""
        self.must_meld_copies = 0
        """How many cards of ``must_meld``'s face the hand held just after that draw."""
        self.contract_now = False
        """The contract was met this turn (SK-5.4)."""
        self.final_turn = False
        self.stock_only = False
        """The first draw after everyone passed the upcard comes from the stock (GR-4.4)."""
        self.must_knock = False
        self.offered: Card | None = None
        self.upcard_queue: list[int] = []
        self.claim_queue: list[int] = []
        self.buy_queue: list[int] = []
        """Who may still buy the top discard, in order (CR-4)."""
        self.bought: list[int] = [0] * n
        """How many times each player has bought this deal (CR-4)."""
        # the ending
        self.ender: int | None = None
        self.ending: Ending | None = None
        self.ender_deadwood = 0
        self.face_down: Card | None = None
        """The card a knock discarded face down (GR-6.1, GS-6.1): it lies on the discard
        pile (its last card) but nobody but the knocker sees it (:class:`Observation`)."""
        self.defenders: list[int] = []
        self.declared: list[tuple[tuple[Card, ...], ...] | None] = [None] * n
        self.result: RoundResult | None = None
        self.turns = 0
        self.actions: list[Action] = []
        self._listed: list[Action] | None = None
        deck = variant.deck
        self._plain_deck = deck.packs == 1 and deck.wilds == 0
        self.knock_limit = knock_limit(self)
        self.buy_limit = buy_limit(self)
        """The buys each player may make this deal (``buying.per_deal``, CR-4; 0 without buying)."""
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
            from .seating import first_seating

            dealer, sat_out = first_seating(variant, dealer, n)
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
        hands: list[list[Card]] = [[] for _ in range(n)]
        order = [(dealer + k) % n for k in range(1, n + 1)]
        if sat_out is not None:
            order.remove(sat_out)
        at = 0
        for _ in range(size):
            for seat in order:
                hands[seat].append(cards[at])
                at += 1
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
        """An independent copy (for agents that search); the variant is shared."""
        other = object.__new__(Round)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.discards = list(self.discards)
        other.table = [[m.copy() for m in melds] for melds in self.table]
        for name in ("met_contract", "melded_turns", "last_accepted", "skip_draw", "upcard_queue", "claim_queue",
                     "defenders", "declared", "actions", "buy_queue", "bought"):
            setattr(other, name, list(getattr(self, name)))
        other.known = [list(k) for k in self.known]
        other._listed = None
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
                mechanic = BY_PHASE.get(self.phase)
                listed = list(mechanic.legal(self, player)) if mechanic is not None else []
                if self.phase in _TURN_PHASES and (self.must_meld is None or pending(self) is None):
                    listed.extend(KNOCK.legal(self, player))
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
        if isinstance(action, str):
            action = self.parse(action)
        listed = self._listed
        if listed is None or not any(a is action for a in listed):  # a listed action is legal
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

    # ------------------------------------------------------------------ cards

    def value(self, cards: Sequence[Card]) -> int:
        """The total deadwood value of some cards."""
        values = self.values
        return sum(values[c.id] for c in cards)

    def holds(self, player: int, card: Card, barred: Card | None = None) -> Card | None:
        """The card of ``player``'s hand with ``card``'s face (the copy held), or None.

        A copy other than ``barred`` (a card the rules keep in hand now, such as
        the one just taken from the pile) when the hand has one: copies of a face
        are interchangeable.
        """
        hand = self.hands[player]
        held = self.find(hand, card, ())
        if held is not None and held is barred:
            return self.find(hand, card, (held.id,)) or held
        return held

    def find(self, pool: Sequence[Card], card: Card, used: Any) -> Card | None:
        """A card of ``pool`` with ``card``'s face whose id is not in ``used``, or None."""
        for held in pool:
            if held is card and held.id not in used:
                return held
        if self._plain_deck:
            return None
        deck = self.variant.deck
        key = deck.face_key(card)
        for held in pool:
            if held.id not in used and deck.face_key(held) == key:
                return held
        return None

    def distinct_faces(self, cards: Sequence[Card]) -> Sequence[Card]:
        """The cards with one copy of each face (copies and wild cards are interchangeable)."""
        if self._plain_deck:
            return cards
        deck = self.variant.deck
        seen: set[int] = set()
        out = []
        for card in cards:
            key = deck.face_key(card)
            if key not in seen:
                seen.add(key)
                out.append(card)
        return out

    def remove(self, player: int, card: Card) -> None:
        """Take ``card`` (that very card) out of ``player``'s hand, and one card of its
        face out of what is known there (:meth:`forget`)."""
        hand = self.hands[player]
        for i, held in enumerate(hand):
            if held is card:
                del hand[i]
                break
        self.forget(player, card)

    def forget(self, player: int, card: Card) -> None:
        """``card`` left ``player``'s hand: one card of its face is no longer known there.

        What the table knows of a hand is faces, not copies: the faces seen going in
        (taken from the pile, bought, offered) less the faces seen going out. Copies of
        a face look alike, so when a hand took one copy of a face and later gives up
        another (a wild taken from the pile and another wild thrown, in a deck of
        several packs or wild cards), the table saw a face go in and the same face go
        out: it knows nothing more of that face in the hand, though the very card taken
        is still there. The copy that left is forgotten if it was known, else another
        known copy of its face (the known cards stay cards of the hand, each one seen).
        """
        known = self.known[player]
        for i, held in enumerate(known):
            if held is card:
                del known[i]
                return
        if self._plain_deck:
            return
        deck = self.variant.deck
        key = deck.face_key(card)
        for i, held in enumerate(known):
            if deck.face_key(held) == key:
                del known[i]
                return

    def knows_face(self, player: int, card: Card) -> bool:
        """Whether a card of ``card``'s face is known in ``player``'s hand."""
        known = self.known[player]
        if self._plain_deck:
            return any(held is card for held in known)
        deck = self.variant.deck
        key = deck.face_key(card)
        return any(deck.face_key(held) == key for held in known)

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

    def facts(self) -> RoundFacts:
        """The round context of expressions (upcard, dealer, round, scores); its players
        are the seats dealt in."""
        values = self.values
        return RoundFacts(players=self.seated, dealer=self.dealer, round=self.number,
                          hand_size=self.hand_size, upcard=self.upcard,
                          scores=self.scores, card_value=lambda card: values[card.id])

    # ------------------------------------------------------------------ flow (for the mechanics)

    def begin_turn(self, player: int) -> None:
        """Make ``player`` the player on turn, with a fresh turn's state."""
        self.turn_player = player
        self.to_move = player
        self.drawn = False
        self.taken = None
        self.must_meld = None
        self.must_meld_copies = 0
        self.contract_now = False
        self.laid_this_turn = False
        self.final_turn = False
        self.must_knock = False
        self.offered = None
        self.turns += 1

    def take_discard(self, player: int, *, new_turn: bool) -> None:
        """``player`` takes the top of the discard pile face up, seen by all (GR-5, GR-4,
        GR-8); with ``new_turn`` it begins their turn (the upcard, a claimed discard)."""
        card = self.discards.pop()
        self.hands[player].append(card)
        self.known[player].append(card)
        if new_turn:
            self.begin_turn(player)
        self.drawn = True
        self.taken = card

    def take_deep(self, player: int, index: int) -> None:
        """``player`` takes the discard pile's card at ``index`` and every card above it,
        face up (R5-3); the deepest is taken as ``taken``, and is to be melded this turn
        where the draw step says ``deep_draw_must_meld``."""
        cards = self.discards[index:]
        del self.discards[index:]
        self.hands[player].extend(cards)
        self.known[player].extend(cards)
        self.drawn = True
        self.taken = cards[0]
        step = self.variant.step("draw")
        if step is not None and step.deep_draw_must_meld:
            self.must_meld = cards[0]
            key = self.variant.deck.face_key(cards[0])
            self.must_meld_copies = sum(1 for c in self.hands[player] if self.variant.deck.face_key(c) == key)

    def start_turn(self, player: int) -> None:
        """Begin ``player``'s turn at its first step."""
        self.begin_turn(player)
        self.enter_step(0)

    def enter_step(self, index: int) -> None:
        """Go to step ``index`` of the turn, skipping steps with nothing to do; past the
        last step the turn ends."""
        turn = self.variant.turn
        skip = self.variant.stock.final_turn_skip if self.final_turn else ()
        while index < len(turn):
            self.step = index
            name = turn[index].name
            if name not in skip and STEPS[name].enter(self):
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
            if not (discarded and CLAIM.begin(self, player)):
                self.end_at_floor()
            return
        self.start_turn(self.next_seat(player))

    def end_at_floor(self) -> None:
        """The round ends at the stock floor: void, or scored as ``stock_end`` (GR-8, SK-9;
        with ``discard_only`` when the player to draw passes or the pile is empty, R5-5);
        void too when the discard pile cannot be turned over (``turn_over``, BR-4)."""
        scored = self.variant.stock.at_floor in ("stock_end", "discard_only")
        self.finish(Ending.STOCK_END if scored else Ending.VOID, None)

    def turn_over_discards(self) -> bool:
        """Turn the discard pile but its top card over beneath the stock (BR-4).

        The pile is picked up and turned face down without shuffling: its bottom card
        (the oldest, the upcard where there was one) becomes the first card drawn,
        the card discarded just under the top one the last. The cards left in the
        stock (those of a floor above 0) stay on top. False (nothing changed) when
        the pile has fewer than two cards, or it has been turned over
        ``stock.max_turn_overs`` times already.
        """
        limit = self.variant.stock.max_turn_overs
        if len(self.discards) < 2 or (limit is not None and self.turn_overs >= limit):
            return False
        self.turn_overs += 1
        pile = self.discards[:-1]
        del self.discards[:-1]
        self.stock[:0] = reversed(pile)  # the stock's top card is last
        return True

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

    def showdown(self) -> bool:
        """Whether the defenders show their melds before the round is scored: after every
        ending a knock makes (knock, gin, big gin) where defenders face the knocker's melds
        (``layoff.onto`` is not ``none``; GR-7.1: after gin they show melds but lay off
        nothing unless ``after_gin``, :meth:`showdown_layoffs`)."""
        return self.ender is not None and self.variant.layoff.onto != "none"

    def automatic(self) -> Action | None:
        """The move play makes for the player to move without asking its agent, or None.

        A defender after gin, when nothing may be laid off (GR-7.1), has nothing to
        decide: a defender is scored on its least deadwood (C-6), so melds it shows
        cannot change the score, and the listing offers only ``done``. Play loops say
        ``done`` for it, so agents see the same decisions (and seeded games give the
        same figures) as before the showdown waited for defenders after gin; a script,
        a suite or a caller of :meth:`apply` may still show melds first. With
        ``deadwood.arrangement: as_shown`` the melds shown count, so the defender decides.
        """
        if (self.phase is Phase.SHOWDOWN and self.to_move is not None and not self.showdown_layoffs()
                and not as_shown(self)):
            return Done(self.to_move)
        return None

    def showdown_layoffs(self) -> bool:
        """Whether defenders may lay off after this ending (GR-7.1, GR-7.2, GS-6.4)."""
        layoff = self.variant.layoff
        if layoff.onto == "none" or self.ender is None:
            return False
        return self.ending == Ending.KNOCK or layoff.after_gin

    # ------------------------------------------------------------------ the end

    def deadwood_of(self, player: int) -> int | None:
        """``player``'s deadwood now: the ender's as shown, anyone else's the least their
        hand allows (C-6: engines compute the minimum; melds a defender showed are part
        of such an arrangement, checked when shown); None for a hand larger than the
        meld solver takes (:data:`~rummydsl.limits.MAX_HAND` cards, after deep draws)."""
        hand = self.hands[player]
        if not hand:
            return 0
        if self.ender == player:
            return self.ender_deadwood
        if self.declared[player] is not None and as_shown(self):
            return unshown_deadwood(self, player)  # deadwood.arrangement: as_shown
        if len(hand) > MAX_HAND:
            return None
        return self.rules.min_deadwood(hand)  # the number alone: no arrangement to build (big hands, SK-10.3)

    def hand_value_of(self, player: int) -> int:
        """``player``'s hand value now ("hand value" of RULES-FAMILY.md): every card in
        the hand, melds still held included; a knocker's shown melds count too (they
        were shown from the hand at the end, not laid down in play)."""
        held = self.value(self.hands[player])
        if player == self.ender and self.ending in _KNOCKS:
            held += sum(self.value(meld) for meld in self.declared[player] or ())
        return held

    def finish(self, ending: Ending, ender: int | None) -> None:
        """End the round: everyone's deadwood, and the points by the variant's scoring."""
        n = self.players
        deadwoods = tuple(self.deadwood_of(p) for p in range(n))
        if ending == Ending.VOID:
            points: tuple[int, ...] = (0,) * n
        else:
            from ..scoring import score_round

            facts = self.facts()
            facts.ender = ender
            facts.ending = ending
            facts.deadwoods = deadwoods
            facts.contracts = tuple(self.met_contract)
            facts.hand_values = tuple(self.hand_value_of(p) for p in range(n))
            facts.melded = tuple(self.melded_turns)
            facts.hand_cards = tuple(len(hand) for hand in self.hands)
            facts.melded_of = lambda player: melded_total(self, player)
            got = score_round(self.variant, facts)
            points = tuple(int(got.get(p, 0)) for p in range(n))
        undercut = ending in _KNOCKS and ender is not None and any(points[q] > 0 for q in range(n) if q != ender)
        self.ender = ender
        self.ending = ending
        self.phase = Phase.OVER
        self.to_move = None
        self.result = RoundResult(ending, ender, deadwoods, points, undercut, self.turns,
                                  self.variant.game.winner == "lowest")

    # ------------------------------------------------------------------ serialising

    def to_json(self, card_text: Callable[[Card], str] = str) -> dict[str, Any]:
        """The whole state as plain JSON (every hand: for tests, logs, debugging and saves).

        ``card_text`` writes a card (a save tells copies of a face apart, :mod:`rummydsl.save`).
        """
        def cards(seq: Sequence[Card]) -> list[str]:
            return [card_text(c) for c in seq]

        def card(c: Card | None) -> str | None:
            return None if c is None else card_text(c)

        return {
            "round": self.number,
            "dealer": player_name(self.dealer),
            **({} if self.sat_out is None else {"sat_out": player_name(self.sat_out)}),
            "phase": self.phase.value,
            "to_move": None if self.to_move is None else player_name(self.to_move),
            "hands": {player_name(p): cards(h) for p, h in enumerate(self.hands)},
            "stock": cards(reversed(self.stock)),  # type: ignore[arg-type]
            "discards": cards(self.discards),
            "upcard": card(self.upcard),
            "table": {player_name(p): [m.as_json(card_text) for m in melds]
                      for p, melds in enumerate(self.table)},
            "met_contract": {player_name(p): met for p, met in enumerate(self.met_contract)},
            "melded_turns": {player_name(p): k for p, k in enumerate(self.melded_turns)},
            "known": {player_name(p): cards(k) for p, k in enumerate(self.known)},
            "offered": card(self.offered),
            "turn_player": player_name(self.turn_player),
            "step": self.step,
            "drawn": self.drawn,
            "taken": card(self.taken),
            "must_meld": card(self.must_meld),
            "laid_this_turn": self.laid_this_turn,
            "turn_overs": self.turn_overs,
            **void_state(self),
            "final_turn": self.final_turn,
            "stock_only": self.stock_only,
            "must_knock": self.must_knock,
            "skip_draw": list(self.skip_draw),
            "last_accepted": [card(c) for c in self.last_accepted],
            "ender": None if self.ender is None else player_name(self.ender),
            "ending": None if self.ending is None else self.ending.value,
            "declared": [None if d is None else [cards(m) for m in d] for d in self.declared],
            "defenders": [player_name(p) for p in self.defenders],
            "upcard_queue": [player_name(p) for p in self.upcard_queue],
            "claim_queue": [player_name(p) for p in self.claim_queue],
            "buy_queue": [player_name(p) for p in self.buy_queue],
            "bought": {player_name(p): k for p, k in enumerate(self.bought)},
            "buy_limit": self.buy_limit,
            "turns": self.turns,
            "actions": [str(a) for a in self.actions],
            "result": None if self.result is None else self.result.as_json(),
        }
