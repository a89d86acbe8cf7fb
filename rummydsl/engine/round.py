"""One round (hand) of any declared variant: the state, its phases, and the rules of play.

A :class:`Round` is built from a variant and a deal (:meth:`Round.deal` shuffles
with a ``random.Random`` passed in; :meth:`Round.from_setup` takes a fixed
position, as conformance cases do). It says who acts (:attr:`Round.to_move`),
what they may do (:meth:`Round.legal_actions`, a view that can be iterated,
counted and asked ``action in legal``), why an action is refused
(:meth:`Round.why_illegal`), and plays one (:meth:`Round.apply`), which checks
first, so a refused action leaves the round exactly as it was.

The turn is the variant's list of steps (``turn:``), each a mechanic of
:mod:`rummydsl.engine.mechanics` with the same shape (``enter``, ``legal``,
``check``, ``apply``): draw, meld, discard, offer; plus the phases around the
turn: the first-turn upcard offer (GR-4, GS-4), the last-discard claim (GR-8),
and the defenders' showdown after a knock (GR-7, GS-6.4). Nothing here names a
game: every difference between games comes from the variant.

>>> import random
>>> from rummydsl.variant import load_variant
>>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
>>> rnd.phase, rnd.to_move, len(rnd.hands[0]), len(rnd.stock)
(<Phase.UPCARD: 'upcard'>, 0, 10, 31)
>>> sorted(str(a) for a in rnd.legal_actions())
['P1 draw discard', 'P1 pass']
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ..cards import Card
from ..errors import IllegalActionError
from ..melds import MeldRules
from .actions import (
    Action,
    Decline,
    Discard,
    Done,
    Draw,
    Knock,
    Layoff,
    Meld,
    Offer,
    Pass,
    Take,
    parse_action,
    player_name,
)
from .view import RoundFacts

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["Phase", "TableMeld", "RoundResult", "Round", "LegalActions", "meld_rules"]


class Phase(str, enum.Enum):
    """What the round is waiting for."""

    UPCARD = "upcard"
    """The first-turn upcard offer: take it or pass (GR-4, GS-4)."""
    DRAW = "draw"
    MELD = "meld"
    DISCARD = "discard"
    OFFER = "offer"
    ANSWER = "answer"
    """The next player takes or declines an offered card (SK-7.2)."""
    CLAIM = "claim"
    """After a final discard, the others may claim it to knock at once (GR-8)."""
    SHOWDOWN = "showdown"
    """After a knock, each defender in turn shows melds and lays off (GR-7, GS-6.4)."""
    OVER = "over"


@dataclass
class TableMeld:
    """A meld on the table: its cards as they lie now, and the kind it was laid as."""

    cards: list[Card]
    kind: str

    def copy(self) -> TableMeld:
        return TableMeld(list(self.cards), self.kind)


@dataclass(frozen=True)
class RoundResult:
    """How a finished round ended and what it scored, like python-chess's ``Outcome``.

    ``ending`` is ``gin``, ``big_gin``, ``knock``, ``out``, ``stock_end`` or ``void``
    (the stock reached its floor and the round scores nothing, GR-8).
    """

    ending: str
    """How the round ended."""
    ender: int | None
    """Who ended it (knocked, went gin or out); ``None`` at the stock floor."""
    deadwoods: tuple[int, ...]
    """Each player's deadwood at the end (defenders' after lay-offs)."""
    points: tuple[int, ...]
    """Points each player won this round (GR-9, SK-10, GS-7), multiplier included."""
    undercut: bool = False
    """Whether someone else scored on the ender's knock (an undercut, GR-9.2, GS-7.4)."""
    turns: int = 0
    """Turns played (a turn is one player's draw-to-discard or offer)."""

    @property
    def void(self) -> bool:
        """Whether the round was void (the stock floor with ``at_floor: void``)."""
        return self.ending == "void"

    @property
    def winner(self) -> int | None:
        """The player who scored most this round, or ``None`` if nobody scored."""
        best = max(self.points) if self.points else 0
        if best <= 0:
            return None
        return self.points.index(best)

    def as_json(self) -> dict[str, Any]:
        """The result as plain JSON (players as ``P1``...)."""
        return {
            "ending": self.ending,
            "ender": None if self.ender is None else player_name(self.ender),
            "deadwoods": {player_name(i): d for i, d in enumerate(self.deadwoods)},
            "points": {player_name(i): p for i, p in enumerate(self.points)},
            "undercut": self.undercut,
            "turns": self.turns,
        }


_RULES: dict[int, tuple[Any, MeldRules]] = {}

#: Hands with wild cards list melds of at most this many cards (any size is still accepted).
_MAX_LISTED = 6


def meld_rules(variant: Variant) -> MeldRules:
    """The meld solver of a variant, built once per variant object."""
    got = _RULES.get(id(variant))
    if got is None or got[0] is not variant:
        got = (variant, MeldRules.from_variant(variant))
        _RULES[id(variant)] = got
    return got[1]


class LegalActions:
    """The legal actions of a round now: iterate, count, or ask ``action in legal``.

    ``in`` is answered by the rules (:meth:`Round.why_illegal`), not by listing
    every action, so it also accepts actions the listing leaves out (a knock
    that names its melds, a defender showing chosen melds).
    """

    __slots__ = ("_round",)

    def __init__(self, rnd: Round) -> None:
        self._round = rnd

    def __iter__(self) -> Iterator[Action]:
        return iter(self._round._list_legal())

    def __contains__(self, action: object) -> bool:
        if isinstance(action, str):
            try:
                action = self._round.parse(action)
            except Exception:
                return False
        return self._round.why_illegal(action) is None  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._round._list_legal())

    def count(self) -> int:
        """How many actions are listed."""
        return len(self)

    def __repr__(self) -> str:
        return f"<LegalActions {', '.join(str(a) for a in self)}>"


class Round:
    """The state of one round, and the rules that move it (see the module docstring)."""

    def __init__(self, variant: Variant, *, dealer: int, hands: Sequence[Sequence[Card]],
                 stock: Sequence[Card], upcard: Card | None, scores: Sequence[int] | None = None,
                 number: int = 1) -> None:
        """A round at its start. ``stock`` is top card first; ``upcard`` starts the discard pile.

        Prefer :meth:`deal` or :meth:`from_setup`, which check their inputs.
        """
        self.variant = variant
        self.rules = meld_rules(variant)
        self.values = variant.card_values
        n = len(hands)
        self.players = n
        self.dealer = dealer
        self.number = number
        self.scores: tuple[int, ...] = tuple(scores) if scores is not None else (0,) * n
        self.hands: list[list[Card]] = [list(hand) for hand in hands]
        self.stock: list[Card] = list(reversed(stock))  # the top card is last
        self.discards: list[Card] = [upcard] if upcard is not None else []
        self.upcard = upcard
        self.table: list[list[TableMeld]] = [[] for _ in range(n)]
        self.met_contract: list[bool] = [variant.contract is None] * n
        self.known: list[list[Card]] = [[] for _ in range(n)]
        """Cards in each hand that every player has seen (taken from the pile, offered)."""
        self.last_accepted: list[Card | None] = [None] * n
        self.skip_draw: list[bool] = [False] * n
        # the turn
        self.phase = Phase.DRAW
        self.to_move: int | None = None
        self.turn_player = (dealer + 1) % n
        self.step = 0
        self.drawn = False
        self.taken: Card | None = None
        """The card taken from the discard pile this turn (GR-5: not discarded this turn)."""
        self.contract_now = False
        """The contract was met this turn (SK-5.4)."""
        self.final_turn = False
        self.stock_only = False
        """The first draw after everyone passed the upcard comes from the stock (GR-4.4)."""
        self.must_knock = False
        self.offered: Card | None = None
        self.upcard_queue: list[int] = []
        self.claim_queue: list[int] = []
        # the ending
        self.ender: int | None = None
        self.ending = ""
        self.ender_deadwood = 0
        self.defenders: list[int] = []
        self.declared: list[tuple[tuple[Card, ...], ...] | None] = [None] * n
        self.result: RoundResult | None = None
        self.turns = 0
        self.actions: list[Action] = []
        self.knock_limit = self._knock_limit()
        self._legal_cache: list[Action] | None = None
        self._begin()

    # ------------------------------------------------------------------ building

    @classmethod
    def deal(cls, variant: Variant, rng: random.Random, *, dealer: int,
             players: int | None = None, scores: Sequence[int] | None = None, number: int = 1) -> Round:
        """Shuffle with ``rng`` and deal (GR-2, SK-2, GS-2): one card at a time from the
        dealer's left, then the upcard where the variant has one, the rest the stock."""
        n = variant.players if players is None else players
        cards = list(variant.deck.cards)
        rng.shuffle(cards)
        size = variant.deal.hand_size
        hands: list[list[Card]] = [[] for _ in range(n)]
        at = 0
        for _ in range(size):
            for k in range(1, n + 1):
                hands[(dealer + k) % n].append(cards[at])
                at += 1
        upcard = None
        if variant.deal.upcard:
            upcard = cards[at]
            at += 1
        return cls(variant, dealer=dealer, hands=hands, stock=cards[at:], upcard=upcard,
                   scores=scores, number=number)

    @classmethod
    def from_setup(cls, variant: Variant, *, dealer: int, hands: Sequence[Sequence[Card]],
                   stock: Sequence[Card], upcard: Card | None = None,
                   scores: Sequence[int] | None = None, number: int = 1) -> Round:
        """A fixed position (conformance cases): checks that no card is used twice.

        :raises IllegalActionError: never; :class:`~rummydsl.errors.CardError` for a
            repeated card or an upcard in a variant without one.
        """
        from ..errors import CardError

        seen: set[int] = set()
        everything = [c for hand in hands for c in hand] + list(stock) + ([upcard] if upcard else [])
        for card in everything:
            if card.id in seen:
                raise CardError(f"card {str(card)!r} is placed twice in the setup")
            seen.add(card.id)
        if upcard is not None and not variant.has_discard_pile:
            raise CardError("this variant has no discard pile, so no upcard")
        if not 0 <= dealer < len(hands):
            raise CardError(f"dealer {player_name(dealer)} is not one of the {len(hands)} players")
        return cls(variant, dealer=dealer, hands=hands, stock=stock, upcard=upcard,
                   scores=scores, number=number)

    def copy(self) -> Round:
        """An independent copy (for agents that search); the variant is shared."""
        other = object.__new__(Round)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.discards = list(self.discards)
        other.table = [[m.copy() for m in melds] for melds in self.table]
        other.met_contract = list(self.met_contract)
        other.known = [list(k) for k in self.known]
        other.last_accepted = list(self.last_accepted)
        other.skip_draw = list(self.skip_draw)
        other.upcard_queue = list(self.upcard_queue)
        other.claim_queue = list(self.claim_queue)
        other.defenders = list(self.defenders)
        other.declared = list(self.declared)
        other.actions = list(self.actions)
        other._legal_cache = None
        return other

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the round has ended (:attr:`result` is set)."""
        return self.result is not None

    def legal_actions(self) -> LegalActions:
        """The actions the player to move may take now."""
        return LegalActions(self)

    def parse(self, text: str) -> Action:
        """Read an action in this round's notation (the variant's deck).

        :raises MalformedActionError: for text that is not an action.
        """
        return parse_action(text, self.variant.deck, self.players)

    def why_illegal(self, action: Action) -> str | None:
        """Why ``action`` is not allowed now, or ``None`` if it is."""
        if self.result is not None:
            return "the round is over"
        if action.player != self.to_move:
            who = "nobody" if self.to_move is None else player_name(self.to_move)
            return f"it is {who}'s move, not {player_name(action.player)}'s"
        try:
            return self._check(action)
        except IllegalActionError as problem:
            return problem.reason

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
        self.verify(action)
        self._legal_cache = None
        self.actions.append(action)
        self._apply(action)
        return action

    def value(self, cards: Sequence[Card]) -> int:
        """The total deadwood value of some cards."""
        values = self.values
        return sum(values[c.id] for c in cards)

    def facts(self) -> RoundFacts:
        """The round context of expressions (upcard, dealer, round, scores)."""
        values = self.values
        return RoundFacts(players=tuple(range(self.players)), dealer=self.dealer, round=self.number,
                          hand_size=self.variant.deal.hand_size, upcard=self.upcard,
                          scores=self.scores, card_value=lambda card: values[card.id])

    def holds(self, player: int, card: Card) -> Card | None:
        """The card of ``player``'s hand with ``card``'s face (the copy held), or None."""
        hand = self.hands[player]
        if card in hand:
            return card
        key = self.variant.deck.face_key(card)
        for held in hand:
            if held.wild == card.wild and self.variant.deck.face_key(held) == key:
                return held
        return None

    # ------------------------------------------------------------------ flow

    def _begin(self) -> None:
        variant = self.variant
        n = self.players
        if variant.upcard_offer is not None and self.upcard is not None:
            self.upcard_queue = [(self.dealer + k) % n for k in range(1, n + 1)]
            self.phase = Phase.UPCARD
            self.to_move = self.upcard_queue[0]
            return
        self._start_turn((self.dealer + 1) % n)

    def _start_turn(self, player: int) -> None:
        self.turn_player = player
        self.to_move = player
        self.drawn = False
        self.taken = None
        self.contract_now = False
        self.final_turn = False
        self.must_knock = False
        self.offered = None
        self.turns += 1
        self._enter_step(0)

    def _enter_step(self, index: int) -> None:
        """Go to step ``index`` of the turn, skipping steps with nothing to do."""
        turn = self.variant.turn
        player = self.turn_player
        skip = self.variant.stock.final_turn_skip if self.final_turn else ()
        while index < len(turn):
            step = turn[index]
            self.step = index
            name = step.name
            if name in skip:
                index += 1
                continue
            if name == "draw":
                if self.skip_draw[player]:
                    self.skip_draw[player] = False
                    self.drawn = True
                    index += 1
                    continue
                if not self._draw_sources():
                    self._end_at_floor()
                    return
                self.phase = Phase.DRAW
                self.to_move = player
                return
            if name == "meld":
                self.phase = Phase.MELD
                self.to_move = player
                return
            if name == "discard":
                self.phase = Phase.DISCARD
                self.to_move = player
                return
            if name == "offer":
                if not self._offerable():
                    index += 1
                    continue
                self.phase = Phase.OFFER
                self.to_move = player
                return
            index += 1
        self._end_turn()

    def _next_step(self) -> None:
        self._enter_step(self.step + 1)

    def _end_turn(self, discarded: bool = False) -> None:
        player = self.turn_player
        self.last_accepted[player] = None
        if self.final_turn:
            if discarded and self.variant.stock.last_discard_claim and self.variant.knock is not None:
                n = self.players
                self.claim_queue = [(player + k) % n for k in range(1, n)]
                self.phase = Phase.CLAIM
                self.to_move = self.claim_queue[0]
                return
            self._end_at_floor()
            return
        self._start_turn((player + 1) % self.players)

    # ------------------------------------------------------------------ draw

    def _draw_sources(self) -> list[str]:
        step = self.variant.turn[self.step]
        sources = getattr(step, "sources", ("stock",))
        out = []
        if "stock" in sources and len(self.stock) > self.variant.stock.floor:
            out.append("stock")
        if "discard" in sources and self.discards and not self.stock_only:
            out.append("discard")
        return out

    def _draw(self, action: Draw) -> None:
        player = action.player
        if action.source == "stock":
            card = self.stock.pop()
            self.taken = None
            if len(self.stock) <= self.variant.stock.floor:
                self.final_turn = True
        else:
            card = self.discards.pop()
            self.taken = card
            self.known[player].append(card)
        self.hands[player].append(card)
        self.drawn = True
        self.stock_only = False
        self._next_step()

    # ------------------------------------------------------------------ upcard round

    def _upcard(self, action: Draw | Pass) -> None:
        player = action.player
        self.upcard_queue.pop(0)
        if isinstance(action, Draw):
            card = self.discards.pop()
            self.hands[player].append(card)
            self.known[player].append(card)
            self.turn_player = player
            self.drawn = True
            self.taken = card
            self.turns += 1
            draw_at = next((i for i, s in enumerate(self.variant.turn) if s.name == "draw"), -1)
            self._enter_step(draw_at + 1)
            return
        if self.upcard_queue:
            self.to_move = self.upcard_queue[0]
            return
        offer = self.variant.upcard_offer
        self.stock_only = offer is not None and offer.after_all_pass == "stock_only"
        self._start_turn((self.dealer + 1) % self.players)

    # ------------------------------------------------------------------ melding

    def _kinds(self, cards: Sequence[Card], hand: Sequence[Card]) -> frozenset[str]:
        return self.rules.kinds_of(cards, hand=hand)

    def _check_melds(self, player: int, melds: Sequence[Sequence[Card]], pool: Sequence[Card],
                     what: str) -> list[tuple[tuple[Card, ...], str]]:
        """Resolve and judge melds made of cards from ``pool``; their cards and first kinds."""
        used: set[int] = set()
        out = []
        for meld in melds:
            cards = []
            for card in meld:
                held = self._find(pool, card, used)
                if held is None:
                    raise IllegalActionError("", f"{player_name(player)} has no {card} {what}")
                used.add(held.id)
                cards.append(held)
            kinds = self._kinds(cards, pool)
            if not kinds:
                text = " ".join(str(c) for c in meld)
                raise IllegalActionError("", f"[{text}] is not a meld of this variant "
                                             f"(kinds: {', '.join(self.rules.kind_names)})")
            kind = next(k for k in self.rules.kind_names if k in kinds)
            out.append((tuple(cards), kind))
        return out

    def _find(self, pool: Sequence[Card], card: Card, used: set[int]) -> Card | None:
        if card in pool and card.id not in used:
            return card
        deck = self.variant.deck
        key = deck.face_key(card)
        for held in pool:
            if held.id not in used and held.wild == card.wild and deck.face_key(held) == key:
                return held
        return None

    def _contract_ok(self, melds: Sequence[tuple[tuple[Card, ...], str]], pool: Sequence[Card]) -> bool:
        contract = self.variant.contract
        if contract is None:
            return True
        import itertools

        choices = [sorted(self._kinds(cards, pool)) for cards, _ in melds]
        for kinds in itertools.product(*choices):
            if contract.melds([(kind, cards) for kind, (cards, _) in zip(kinds, melds)]):
                return True
        return False

    def _check_meld(self, action: Meld) -> None:
        player = action.player
        hand = self.hands[player]
        if self.phase is Phase.SHOWDOWN:
            if self.declared[player] is not None:
                raise IllegalActionError("", "melds were already shown this round")
            self._check_melds(player, action.melds, hand, "in hand")
            return
        if self.phase is not Phase.MELD:
            raise IllegalActionError("", f"melds are put down in the meld step, and this is the {self.phase.value} step")
        judged = self._check_melds(player, action.melds, hand, "in hand")
        contract = self.variant.contract
        if contract is not None and not self.met_contract[player]:
            if contract.concealed_until_met and not self._contract_ok(judged, hand):
                raise IllegalActionError("", "the first melds put down must meet the contract")
        elif contract is not None and self.contract_now and not contract.then_meld_same_turn:
            raise IllegalActionError("", "no more melding in the turn the contract was met")
        put = sum(len(cards) for cards, _ in judged)
        if put == len(hand) and not self._would_meet(player, judged, hand):
            raise IllegalActionError("", "a player cannot go out before meeting the contract")

    def _would_meet(self, player: int, judged: Sequence[tuple[tuple[Card, ...], str]],
                    hand: Sequence[Card]) -> bool:
        if self.met_contract[player]:
            return True
        contract = self.variant.contract
        assert contract is not None
        if contract.concealed_until_met:
            return self._contract_ok(judged, hand)
        on_table = [(tuple(m.cards), m.kind) for m in self.table[player]]
        return self._contract_ok([*on_table, *judged], hand)

    def _meld(self, action: Meld) -> None:
        player = action.player
        hand = self.hands[player]
        judged = self._check_melds(player, action.melds, hand, "in hand")
        if self.phase is Phase.SHOWDOWN:
            self.declared[player] = tuple(cards for cards, _ in judged)
            return
        meets = self._would_meet(player, judged, hand)
        for cards, kind in judged:
            for card in cards:
                hand.remove(card)
                self._forget(player, card)
            self.table[player].append(TableMeld(list(cards), kind))
        if not self.met_contract[player] and meets:
            self.met_contract[player] = True
            self.contract_now = True
        self._after_putting(player)

    def _after_putting(self, player: int) -> None:
        if not self.hands[player] and self.met_contract[player]:
            self._finish("out", player)

    def _layoff_targets(self, player: int) -> list[int]:
        """Whose table melds ``player`` may add to now."""
        if self.phase is Phase.SHOWDOWN:
            if self._showdown_layoffs() and self.ender is not None:
                return [self.ender]
            return []
        step = self.variant.turn[self.step]
        if self.phase is not Phase.MELD or not self.met_contract[player]:
            return []
        targets = []
        if getattr(step, "add_to_own", False):
            targets.append(player)
        if getattr(step, "add_to_opponents", False):
            targets.extend(q for q in range(self.players) if q != player)
        return targets

    def _check_layoff(self, action: Layoff) -> Card:
        player = action.player
        held = self.holds(player, action.card)
        if held is None:
            raise IllegalActionError("", f"{player_name(player)} does not hold {action.card}")
        if action.owner not in self._layoff_targets(player):
            if self.phase is Phase.MELD and not self.met_contract[player]:
                raise IllegalActionError("", "no lay-offs before meeting the contract")
            raise IllegalActionError("", f"{player_name(player)} may not lay off onto "
                                         f"{player_name(action.owner)}'s melds now")
        melds = self.table[action.owner]
        if not 0 <= action.index < len(melds):
            raise IllegalActionError("", f"{player_name(action.owner)} has no meld #{action.index + 1} "
                                         f"({len(melds)} on the table)")
        meld = melds[action.index]
        kinds = self._kinds([*meld.cards, held], self.hands[player])
        if not kinds or (self.variant.kind_locked and meld.kind not in kinds):
            locked = f" {meld.kind}" if self.variant.kind_locked else ""
            raise IllegalActionError("", f"{held} does not extend the{locked} meld "
                                         f"{' '.join(str(c) for c in meld.cards)}")
        if self.phase is Phase.MELD and len(self.hands[player]) == 1 and not self.met_contract[player]:
            raise IllegalActionError("", "a player cannot go out before meeting the contract")
        return held

    def _layoff(self, action: Layoff) -> None:
        held = self._check_layoff(action)
        player = action.player
        self.hands[player].remove(held)
        self._forget(player, held)
        meld = self.table[action.owner][action.index]
        meld.cards.append(held)
        if not self.variant.kind_locked:
            kinds = self._kinds(meld.cards, self.hands[player])
            if meld.kind not in kinds:
                meld.kind = next(k for k in self.rules.kind_names if k in kinds)
        if self.phase is Phase.MELD:
            self._after_putting(player)

    def _forget(self, player: int, card: Card) -> None:
        if card in self.known[player]:
            self.known[player].remove(card)

    # ------------------------------------------------------------------ knocking

    def _may_knock(self, player: int) -> bool:
        return (self.variant.knock is not None and player == self.turn_player and self.drawn
                and self.phase in (Phase.MELD, Phase.DISCARD, Phase.OFFER))

    def _knock_limit(self) -> int:
        knock = self.variant.knock
        if knock is None:
            return -1
        limit = knock.limit
        if isinstance(limit, int):
            return limit
        return int(limit(self.facts()))

    def _shown(self, player: int, kept: Sequence[Card],
               melds: Sequence[Sequence[Card]] | None) -> tuple[tuple[tuple[Card, ...], ...], int]:
        """The melds shown from ``kept`` and the deadwood left: named, or the canonical best."""
        if melds is None:
            best = self.rules.solve(kept, check_contract=False)
            unmatched = best.unmatched
            return tuple(best.melds), self.value(unmatched)
        judged = self._check_melds(player, melds, kept, "to show")
        shown = tuple(cards for cards, _ in judged)
        used = {c.id for cards in shown for c in cards}
        return shown, self.value([c for c in kept if c.id not in used])

    def _check_knock(self, action: Knock) -> None:
        player = action.player
        knock = self.variant.knock
        if knock is None:
            raise IllegalActionError("", "this variant has no knocking")
        if not self._may_knock(player):
            raise IllegalActionError("", "a player knocks only on their turn, after drawing")
        hand = self.hands[player]
        if action.card is None:
            if not knock.big_gin:
                raise IllegalActionError("", "big gin is off in this variant: knock with a discard")
            _, deadwood = self._shown(player, hand, action.melds)
            if deadwood:
                raise IllegalActionError("", f"big gin needs every card melded; {deadwood} deadwood is left")
            return
        held = self.holds(player, action.card)
        if held is None:
            raise IllegalActionError("", f"{player_name(player)} does not hold {action.card}")
        if held == self.taken and self._taken_forbidden():
            raise IllegalActionError("", f"{held} was taken from the discard pile this turn and "
                                         f"cannot be discarded now")
        kept = [c for c in hand if c is not held]
        _, deadwood = self._shown(player, kept, action.melds)
        if deadwood > self.knock_limit:
            raise IllegalActionError("", f"knocking needs at most {self.knock_limit} deadwood; "
                                         f"{deadwood} would be left")

    def _taken_forbidden(self) -> bool:
        step = self.variant.step("discard")
        return step is None or step.taken_card == "forbidden"

    def _knock(self, action: Knock) -> None:
        player = action.player
        hand = self.hands[player]
        if action.card is None:
            kept = list(hand)
        else:
            held = self.holds(player, action.card)
            assert held is not None
            kept = [c for c in hand if c is not held]
            hand.remove(held)
            self._forget(player, held)
            self.discards.append(held)  # face down; it ends the round
        shown, deadwood = self._shown(player, kept, action.melds)
        for cards in shown:
            for card in cards:
                hand.remove(card)
                self._forget(player, card)
            self.table[player].append(TableMeld(list(cards), self._first_kind(cards, kept)))
        self.declared[player] = shown
        self.ender_deadwood = deadwood
        ending = "big_gin" if action.card is None else "gin" if deadwood == 0 else "knock"
        self.ender = player
        self.ending = ending
        n = self.players
        self.defenders = [(player + k) % n for k in range(1, n)]
        if self._showdown_layoffs():
            self.phase = Phase.SHOWDOWN
            self.to_move = self.defenders[0]
            return
        self._finish(ending, player)

    def _first_kind(self, cards: Sequence[Card], pool: Sequence[Card]) -> str:
        kinds = self._kinds(cards, pool)
        return next(k for k in self.rules.kind_names if k in kinds)

    def _showdown_layoffs(self) -> bool:
        layoff = self.variant.layoff
        if layoff.onto == "none" or self.ender is None:
            return False
        return self.ending == "knock" or layoff.after_gin

    # ------------------------------------------------------------------ checks

    def _check(self, action: Action) -> str | None:
        """The reason ``action`` (by the player to move) is illegal, or None."""
        phase = self.phase
        player = action.player
        if isinstance(action, Knock):
            if phase is Phase.CLAIM:
                return "claim the discard first ('draw discard') or pass"
            self._check_knock(action)
            return None
        if self.must_knock:
            return "a claimed discard must be used to knock at once (GR-8)"
        if phase is Phase.UPCARD:
            if isinstance(action, Pass):
                return None
            if isinstance(action, Draw) and action.source == "discard":
                return None
            return "in the upcard round a player takes the upcard ('draw discard') or passes"
        if phase is Phase.CLAIM:
            if isinstance(action, Pass):
                return None
            if isinstance(action, Draw) and action.source == "discard":
                if not self._can_claim(player):
                    return "the last discard may be claimed only to knock or go gin at once (GR-8)"
                return None
            return "after the final discard a player claims it ('draw discard') or passes"
        if phase is Phase.DRAW:
            if not isinstance(action, Draw):
                return f"{player_name(player)} must draw first"
            sources = self._draw_sources()
            if action.source not in sources:
                allowed = getattr(self.variant.turn[self.step], "sources", ("stock",))
                if action.source not in allowed:
                    return f"this variant draws only from the {' or '.join(allowed)}"
                if action.source == "stock":
                    return f"the stock is at its floor of {self.variant.stock.floor} cards"
                if self.stock_only:
                    return "after everyone passed the upcard, the first draw is from the stock"
                return "the discard pile is empty"
            return None
        if phase is Phase.MELD:
            if isinstance(action, Meld):
                self._check_meld(action)
                return None
            if isinstance(action, Layoff):
                self._check_layoff(action)
                return None
            if isinstance(action, Done):
                step = self.variant.turn[self.step]
                if not getattr(step, "optional", True) and self._meld_options(player):
                    return "melding is not optional in this variant: put down what you can"
                return None
            return f"this is the meld step: meld, lay off, or 'done'"
        if phase is Phase.DISCARD:
            if not isinstance(action, Discard):
                return "this is the discard step: discard a card (or knock)"
            held = self.holds(player, action.card)
            if held is None:
                return f"{player_name(player)} does not hold {action.card}"
            if held == self.taken and self._taken_forbidden():
                return f"{held} was taken from the discard pile this turn and cannot be discarded now"
            return None
        if phase is Phase.OFFER:
            if isinstance(action, Done):
                step = self.variant.turn[self.step]
                if getattr(step, "mandatory", True):
                    return "the offer is mandatory: offer a card"
                return None
            if not isinstance(action, Offer):
                return "this is the offer step: offer a card"
            held = self.holds(player, action.card)
            if held is None:
                return f"{player_name(player)} does not hold {action.card}"
            return self._offer_problem(player, held)
        if phase is Phase.ANSWER:
            if isinstance(action, (Take, Decline)):
                return None
            return f"{player_name(player)} must take or decline the offered {self.offered}"
        if phase is Phase.SHOWDOWN:
            if isinstance(action, Meld):
                self._check_meld(action)
                return None
            if isinstance(action, Layoff):
                self._check_layoff(action)
                return None
            if isinstance(action, Done):
                return None
            return "after the knock a defender shows melds, lays off, or says 'done'"
        return "the round is over"

    # ------------------------------------------------------------------ offering

    def _offerable(self) -> bool:
        player = self.turn_player
        step = self.variant.turn[self.step]
        if len(self.hands[player]) < getattr(step, "min_hand", 2):
            return False
        return any(self._offer_problem(player, c) is None for c in self.hands[player])

    def _offer_problem(self, player: int, card: Card) -> str | None:
        step = self.variant.turn[self.step]
        if len(self.hands[player]) < getattr(step, "min_hand", 2):
            return f"a player holding fewer than {getattr(step, 'min_hand', 2)} cards makes no offer"
        if getattr(step, "no_reoffer_accepted", False) and card == self.last_accepted[player]:
            return f"{card} was just accepted and may not be offered back"
        return None

    def _offer(self, action: Offer) -> None:
        held = self.holds(action.player, action.card)
        assert held is not None
        self.offered = held
        self.phase = Phase.ANSWER
        self.to_move = (action.player + 1) % self.players

    def _answer(self, action: Take | Decline) -> None:
        card = self.offered
        assert card is not None
        giver = self.turn_player
        taker = action.player
        self.offered = None
        if isinstance(action, Take):
            self.hands[giver].remove(card)
            self._forget(giver, card)
            self.hands[taker].append(card)
            self.known[taker].append(card)
            self.last_accepted[taker] = card
            draw = self.variant.step("draw")
            skip = draw.skip_after_accepting if draw is not None else None
            if skip is not None and skip(card):
                self.skip_draw[taker] = True
        elif card not in self.known[giver]:
            self.known[giver].append(card)  # it was shown face up
        self._end_turn()

    # ------------------------------------------------------------------ the stock floor

    def _can_claim(self, player: int) -> bool:
        card = self.discards[-1]
        hand = [*self.hands[player], card]
        forbidden = self._taken_forbidden()
        for out in hand:
            if forbidden and out is card:
                continue
            kept = [c for c in hand if c is not out]
            if self._shown(player, kept, None)[1] <= self.knock_limit:
                return True
        return False

    def _claim(self, action: Draw | Pass) -> None:
        player = action.player
        self.claim_queue.pop(0)
        if isinstance(action, Draw):
            card = self.discards.pop()
            self.hands[player].append(card)
            self.known[player].append(card)
            self.turn_player = player
            self.drawn = True
            self.taken = card
            self.must_knock = True
            self.final_turn = False
            self.phase = Phase.DISCARD
            self.to_move = player
            return
        if self.claim_queue:
            self.to_move = self.claim_queue[0]
            return
        self._end_at_floor()

    def _end_at_floor(self) -> None:
        if self.variant.stock.at_floor == "void":
            self._finish("void", None)
        else:
            self._finish("stock_end", None)

    # ------------------------------------------------------------------ applying

    def _apply(self, action: Action) -> None:
        phase = self.phase
        if isinstance(action, Knock):
            self.must_knock = False
            self._knock(action)
        elif phase is Phase.UPCARD:
            self._upcard(action)  # type: ignore[arg-type]
        elif phase is Phase.CLAIM:
            self._claim(action)  # type: ignore[arg-type]
        elif isinstance(action, Draw):
            self._draw(action)
        elif isinstance(action, Discard):
            held = self.holds(action.player, action.card)
            assert held is not None
            self.hands[action.player].remove(held)
            self._forget(action.player, held)
            self.discards.append(held)
            self._end_turn(discarded=True)
        elif isinstance(action, Meld):
            self._meld(action)
        elif isinstance(action, Layoff):
            self._layoff(action)
        elif isinstance(action, Offer):
            self._offer(action)
        elif isinstance(action, (Take, Decline)):
            self._answer(action)
        elif isinstance(action, Done):
            if phase is Phase.SHOWDOWN:
                self._defender_done(action.player)
            else:
                self._next_step()

    def _defender_done(self, player: int) -> None:
        self.defenders.pop(0)
        if self.declared[player] is None:
            self.declared[player] = ()  # scored on the least deadwood (C-6)
        if self.defenders:
            self.to_move = self.defenders[0]
            return
        assert self.ender is not None
        self._finish(self.ending, self.ender)

    # ------------------------------------------------------------------ the end

    def deadwood_of(self, player: int) -> int:
        """``player``'s deadwood now: the shown melds' leftovers, or the least (C-6)."""
        hand = self.hands[player]
        if not hand:
            return 0
        declared = self.declared[player]
        if declared:
            used = {c.id for meld in declared for c in meld}
            if self.ender == player:
                return self.ender_deadwood
            return self.value([c for c in hand if c.id not in used])
        if self.ender == player:
            return self.ender_deadwood
        return self.rules.solve(hand, check_contract=False).deadwood

    def _finish(self, ending: str, ender: int | None) -> None:
        n = self.players
        deadwoods = tuple(self.deadwood_of(p) for p in range(n))
        if ending == "void":
            points: tuple[int, ...] = (0,) * n
        else:
            from ..scoring import score_round

            facts = self.facts()
            facts.ender = ender
            facts.ending = ending
            facts.deadwoods = deadwoods
            facts.contracts = tuple(self.met_contract)
            got = score_round(self.variant, facts)
            points = tuple(int(got.get(p, 0)) for p in range(n))
        undercut = ender is not None and any(points[q] > 0 for q in range(n) if q != ender)
        self.ender = ender
        self.ending = ending
        self.phase = Phase.OVER
        self.to_move = None
        self.result = RoundResult(ending, ender, deadwoods, points, undercut, self.turns)

    # ------------------------------------------------------------------ listing

    def _list_legal(self) -> list[Action]:
        if self._legal_cache is None:
            self._legal_cache = list(self._generate())
        return self._legal_cache

    def _generate(self) -> Iterator[Action]:
        player = self.to_move
        if player is None:
            return
        phase = self.phase
        if self.must_knock:
            yield from self._knocks(player)
            return
        if phase is Phase.UPCARD:
            yield Draw(player, "discard")
            yield Pass(player)
        elif phase is Phase.CLAIM:
            if self._can_claim(player):
                yield Draw(player, "discard")
            yield Pass(player)
        elif phase is Phase.DRAW:
            for source in self._draw_sources():
                yield Draw(player, source)  # type: ignore[arg-type]
        elif phase is Phase.MELD:
            yield from self._meld_options(player)
            step = self.variant.turn[self.step]
            if getattr(step, "optional", True) or not self._meld_options(player):
                yield Done(player)
            yield from self._knocks(player)
        elif phase is Phase.DISCARD:
            forbidden = self._taken_forbidden()
            seen: set[int] = set()
            for card in self.hands[player]:
                if forbidden and card == self.taken:
                    continue
                key = self.variant.deck.face_key(card)
                if key in seen:
                    continue
                seen.add(key)
                yield Discard(player, card)
            yield from self._knocks(player)
        elif phase is Phase.OFFER:
            seen = set()
            for card in self.hands[player]:
                key = self.variant.deck.face_key(card)
                if key in seen or self._offer_problem(player, card) is not None:
                    continue
                seen.add(key)
                yield Offer(player, card)
            step = self.variant.turn[self.step]
            if not getattr(step, "mandatory", True):
                yield Done(player)
            yield from self._knocks(player)
        elif phase is Phase.ANSWER:
            yield Take(player)
            yield Decline(player)
        elif phase is Phase.SHOWDOWN:
            yield from self._layoffs(player)
            yield Done(player)

    def _knocks(self, player: int) -> Iterator[Knock]:
        if not self._may_knock(player):
            return
        knock = self.variant.knock
        assert knock is not None
        hand = self.hands[player]
        rules = self.rules
        limit = self.knock_limit
        if knock.big_gin and self.value(rules.solve(hand, check_contract=False).unmatched) == 0:
            yield Knock(player, None)
        if rules.min_deadwood(hand, discard=True) > limit and rules.excludes_concealed_melds:
            return
        forbidden = self._taken_forbidden()
        for card in hand:
            if forbidden and card == self.taken:
                continue
            kept = [c for c in hand if c is not card]
            if self.value(rules.solve(kept, check_contract=False).unmatched) <= limit:
                yield Knock(player, card)

    def _layoffs(self, player: int) -> Iterator[Layoff]:
        hand = self.hands[player]
        for owner in self._layoff_targets(player):
            for index, meld in enumerate(self.table[owner]):
                for card in hand:
                    kinds = self._kinds([*meld.cards, card], hand)
                    if kinds and (not self.variant.kind_locked or meld.kind in kinds):
                        if self.phase is Phase.MELD and len(hand) == 1 and not self.met_contract[player]:
                            continue
                        yield Layoff(player, card, owner, index)

    def _meld_options(self, player: int) -> list[Action]:
        """Melds and lay-offs the player may make in the meld step (each as one action)."""
        out: list[Action] = []
        hand = self.hands[player]
        contract = self.variant.contract
        if contract is not None and not self.met_contract[player] and contract.concealed_until_met:
            out.extend(self._contract_melds(player))
        elif not (contract is not None and self.contract_now and not contract.then_meld_same_turn):
            for group in self._single_melds(hand):
                action = Meld(player, (group,))
                if len(group) == len(hand) and not self._would_meet(
                        player, [(group, self._first_kind(group, hand))], hand):
                    continue
                out.append(action)
            out.extend(self._layoffs(player))
        return out

    def _single_melds(self, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
        """Every group of the hand that forms a meld, each once.

        Groups are listed from the kinds' shapes (one rank; one card per
        sequence position), and every group is judged by the kinds' patterns.
        Hands with wild cards, or kinds with no known shape, try every group of
        up to :data:`_MAX_LISTED` cards.
        """
        import itertools

        rules = self.rules
        cards = sorted(hand, key=lambda c: c.id)
        shapes = rules.shapes.values()
        low = max(1, min((shape.min_size for shape in shapes), default=3))
        families = {shape.family for shape in shapes}
        groups: list[tuple[Card, ...]] = []
        if "any" in families or any(c.wild for c in cards):
            top = min(len(cards), _MAX_LISTED)
            for size in range(low, top + 1):
                groups.extend(itertools.combinations(cards, size))
        else:
            if "same_rank" in families:
                by_rank: dict[int, list[Card]] = {}
                for card in cards:
                    assert card.rank is not None
                    by_rank.setdefault(card.rank.order, []).append(card)
                for same in by_rank.values():
                    for size in range(low, len(same) + 1):
                        groups.extend(itertools.combinations(same, size))
            if "sequence" in families:
                groups.extend(self._sequences(cards, low))
        found = []
        seen: set[frozenset[int]] = set()
        for group in groups:
            key = frozenset(c.id for c in group)
            if key in seen:
                continue
            seen.add(key)
            if rules.kinds_of(group, hand=hand):
                found.append(group)
        return found

    def _sequences(self, cards: Sequence[Card], low: int) -> Iterator[tuple[Card, ...]]:
        """Groups of one card per position over windows of consecutive sequence positions."""
        import itertools

        deck = self.variant.deck
        at: dict[int, list[Card]] = {}
        for card in cards:
            assert card.rank is not None
            for position in deck.sequence_positions(card.rank):
                at.setdefault(position, []).append(card)
        for start in sorted(at):
            window: list[list[Card]] = []
            position = start
            while position in at:
                window.append(at[position])
                position += 1
                if len(window) >= low:
                    for choice in itertools.product(*window):
                        if len({c.id for c in choice}) == len(choice):
                            yield tuple(choice)

    def _contract_melds(self, player: int) -> list[Action]:
        """Every lay-down that meets the contract from this hand (SK-5)."""
        import itertools

        hand = self.hands[player]
        contract = self.variant.contract
        assert contract is not None
        candidates = self._single_melds(hand)
        most = self.rules.contract_max_melds or 4
        out: list[Action] = []
        for count in range(1, most + 1):
            for combo in itertools.combinations(candidates, count):
                ids = [c.id for group in combo for c in group]
                if len(ids) != len(set(ids)):
                    continue
                judged = [(group, self._first_kind(group, hand)) for group in combo]
                if self._contract_ok(judged, hand):
                    out.append(Meld(player, tuple(combo)))
        return out

    # ------------------------------------------------------------------ serialising

    def to_json(self, *, hidden: bool = False) -> dict[str, Any]:
        """The whole state as plain JSON (every hand: for tests, logs and debugging)."""
        def cards(seq: Sequence[Card]) -> list[str]:
            return [str(c) for c in seq]

        return {
            "round": self.number,
            "dealer": player_name(self.dealer),
            "phase": self.phase.value,
            "to_move": None if self.to_move is None else player_name(self.to_move),
            "hands": {player_name(p): cards(h) for p, h in enumerate(self.hands)},
            "stock": cards(reversed(self.stock)),  # type: ignore[arg-type]
            "discards": cards(self.discards),
            "upcard": None if self.upcard is None else str(self.upcard),
            "table": {player_name(p): [{"kind": m.kind, "cards": cards(m.cards)} for m in melds]
                      for p, melds in enumerate(self.table)},
            "met_contract": {player_name(p): met for p, met in enumerate(self.met_contract)},
            "known": {player_name(p): cards(k) for p, k in enumerate(self.known)},
            "offered": None if self.offered is None else str(self.offered),
            "turn_player": player_name(self.turn_player),
            "step": self.step,
            "drawn": self.drawn,
            "taken": None if self.taken is None else str(self.taken),
            "final_turn": self.final_turn,
            "stock_only": self.stock_only,
            "must_knock": self.must_knock,
            "skip_draw": list(self.skip_draw),
            "last_accepted": [None if c is None else str(c) for c in self.last_accepted],
            "ender": None if self.ender is None else player_name(self.ender),
            "ending": self.ending,
            "declared": [None if d is None else [cards(m) for m in d] for d in self.declared],
            "defenders": [player_name(p) for p in self.defenders],
            "upcard_queue": [player_name(p) for p in self.upcard_queue],
            "claim_queue": [player_name(p) for p in self.claim_queue],
            "turns": self.turns,
            "actions": [str(a) for a in self.actions],
            "result": None if self.result is None else self.result.as_json(),
        }
