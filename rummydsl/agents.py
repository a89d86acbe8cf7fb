"""Players for the engine: random, greedy, and the interface every agent implements.

An agent sees only its :class:`~rummydsl.engine.observe.Observation` (its hand,
what is public, its legal actions) and answers with one legal action. Agents are
named in ``--agents`` as a comma list, one per seat, the last repeating:
``random``, ``greedy``, or ``cmd:PROGRAM`` for a program that speaks the agent
protocol over stdin and stdout (:mod:`rummydsl.protocol`).

>>> import random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Game, play_game
>>> game = Game(load_variant("gin_rummy"), random.Random(3))
>>> result = play_game(game, make_agents("greedy", 2, random.Random(3)))
>>> result.winner in (0, 1), game.over
(True, True)
"""

from __future__ import annotations

import math
import random
from typing import Protocol, Sequence

from .cards import Card
from .engine.actions import Action, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, Take
from .engine.observe import Observation
from .errors import AgentError
from .limits import MAX_HAND
from .melds import TableMeld as SolverMeld

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "make_agents", "dealt_low", "AGENT_NAMES"]

#: The built-in agent names of ``--agents`` (besides ``cmd:PROGRAM``).
AGENT_NAMES: tuple[str, ...] = ("random", "greedy")


class Agent(Protocol):
    """What plays a seat: one legal action for an observation."""

    def act(self, observation: Observation) -> Action:
        """The action to play; it must be one of ``observation.legal_actions()``."""
        ...


class RandomAgent:
    """Uniform over the listed legal actions, from its own ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Observation) -> Action:
        legal = observation.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class GreedyAgent:
    """Least deadwood, one move ahead.

    It takes the upcard or the top discard when that lowers its deadwood, and an
    offered card likewise; discards (and offers) the card that leaves the least
    deadwood; knocks or goes gin as soon as it may (the lowest knock) or, where
    any deadwood may knock (no ``knock.limit``, KR-3), once its deadwood is below
    what the others' hands are expected to hold (:meth:`knock_threshold`); meets the
    contract and puts down what it can, aiming to go out; claims a last discard
    when it may; and as a defender lays off every card it can (C-7).

    In a game won by going out (a meld step and a discard step, no knock: Rummy,
    BR) it counts lay-offs too: it takes the top discard when it can meld it or
    lay it off onto any player's melds, and once the stock has been turned over
    (a sign that the cards everyone waits for are stuck in hands) it discards the
    card it has held longest, so that no card is kept for ever.

    Where the variant draws deep into the discard pile (500 Rum, R5-3) it takes the
    draw whose cards meld for the most more than they cost, and passes at an empty
    stock when no discard is worth taking (R5-5).
    """

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks and observation.knock_limit is None:
            best = self._best_knock(observation, knocks)
            if self._knock_deadwood(observation, best) <= self.knock_threshold(observation):
                return best
            legal = [a for a in legal if not isinstance(a, Knock)]
        elif knocks:
            return self._best_knock(observation, knocks)
        phase = observation.phase
        player = observation.player
        if phase in ("upcard", "claim"):
            take = next((a for a in legal if isinstance(a, Draw)), None)
            if take is not None and (phase == "claim" or self._pile_helps(observation)):
                return take
            return next(a for a in legal if isinstance(a, Pass))
        if phase == "draw" and self._deep_variant(observation):
            return self._deep_draw(observation, legal)
        if phase == "draw":
            take = next((a for a in legal if isinstance(a, Draw) and a.source == "discard"), None)
            helps = (self._pile_helps_going_out(observation) if _going_out_game(observation)
                     else self._pile_helps(observation)) if take is not None else False
            if take is not None and (helps or len(legal) == 1):
                return take
            return next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), legal[0])
        if phase == "discard":
            discards = [a for a in legal if isinstance(a, Discard)]
            if discards and observation.turn_overs and _going_out_game(observation):
                return self._shed_oldest(observation, discards)
            return self._shed(observation, discards, legal)
        if phase == "offer":
            return self._shed(observation, [a for a in legal if isinstance(a, Offer)], legal)
        if phase == "answer":
            card = observation.offered
            assert card is not None
            rules = observation.rules
            hand = observation.hand
            before = rules.min_deadwood(hand)
            after = rules.min_deadwood((*hand, card))
            return next(a for a in legal if isinstance(a, Take) == (after < before))
        if phase == "meld":
            return self._meld(observation, legal)
        if phase == "showdown":
            return self._lay_off(observation, legal)
        return legal[0]

    # -- helpers ------------------------------------------------------------------

    @staticmethod
    def _deep_variant(observation: Observation) -> bool:
        """Whether the variant draws deep into the discard pile (R5-3)."""
        draw = observation.variant.step("draw")
        return draw is not None and draw.discard_depth == "any"

    @staticmethod
    def _melded_gain(observation: Observation, taken: Sequence[Card]) -> int | None:
        """What taking ``taken`` from the pile is worth: the card value the hand can then
        meld beyond what it melds now, less the taken cards left unmelded (they count
        against the hand if the round ends); None for a hand past the solver's size."""
        hand = observation.hand
        if len(hand) + len(taken) > MAX_HAND:
            return None
        rules = observation.rules
        values = observation.variant.card_values

        def melded(cards: Sequence[Card]) -> tuple[int, set[int]]:
            best = rules.solve(cards, check_contract=False)
            return sum(values[c.id] for m in best.melds for c in m), {c.id for c in best.unmatched}

        before, _ = melded(hand)
        after, left = melded([*hand, *taken])
        return after - before - sum(values[c.id] for c in taken if c.id in left)

    def _deep_draw(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """In a deep-draw variant: the discard draw whose cards meld for the most more
        than they cost, if that is worth anything; else the stock, else a pass."""
        pile = observation.discards
        best: tuple[int, int] | None = None
        choice: Action | None = None
        for action in legal:
            if not isinstance(action, Draw) or action.source != "discard":
                continue
            if action.card is None:
                taken: Sequence[Card] = pile[-1:]
            else:
                index = max(i for i, c in enumerate(pile) if c is action.card)
                taken = pile[index:]
            gain = self._melded_gain(observation, taken)
            if gain is None or gain <= 0:
                continue
            key = (gain, -len(taken))
            if best is None or key > best:
                best, choice = key, action
        if choice is not None:
            return choice
        stock = next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), None)
        if stock is not None:
            return stock
        return next((a for a in legal if isinstance(a, Pass)), legal[0])

    @staticmethod
    def _after_shedding(observation: Observation, hand: Sequence[Card], barred: Card | None) -> int:
        """The least deadwood of ``hand`` after discarding one card other than ``barred``."""
        rules = observation.rules
        if barred is None:
            return rules.min_deadwood(hand, discard=True)
        return min(rules.min_deadwood([c for c in hand if c is not out])
                   for out in hand if out is not barred)

    def _pile_helps(self, observation: Observation) -> bool:
        card = observation.top_discard
        if card is None:
            return False
        hand = observation.hand
        now = observation.rules.min_deadwood(hand)
        return self._after_shedding(observation, (*hand, card), card) < now

    @staticmethod
    def _left_after_putting_down(observation: Observation, hand: Sequence[Card]) -> int:
        """The least deadwood of ``hand`` once it has melded and laid off onto the table all it can."""
        table = [SolverMeld(tuple(m.cards), m.kind) for melds in observation.table for m in melds]
        return observation.rules.solve(hand, table=table, check_contract=False).deadwood

    def _pile_helps_going_out(self, observation: Observation) -> bool:
        """Whether the top discard would be melded or laid off (less left after putting down
        and discarding another card, or the same with one card fewer)."""
        card = observation.top_discard
        if card is None:
            return False
        hand = observation.hand
        now = self._left_after_putting_down(observation, hand)
        with_card = (*hand, card)
        return any(self._left_after_putting_down(observation, [c for c in with_card if c is not out]) < now
                   for out in hand)

    @staticmethod
    def _shed_oldest(observation: Observation, options: Sequence[Discard]) -> Discard:
        """The discard of the card held longest (the hand keeps the order cards came in)."""
        order = {card.id: at for at, card in enumerate(observation.hand)}
        return min(options, key=lambda action: order.get(action.card.id, len(order)))

    @staticmethod
    def _shed(observation: Observation, options: Sequence[Discard | Offer], legal: Sequence[Action]) -> Action:
        if not options:
            return legal[0]
        rules = observation.rules
        hand = observation.hand
        values = observation.variant.card_values
        if len(hand) > MAX_HAND + 1:  # past the solver (deep draws): the highest card goes
            return max(options, key=lambda action: (values[action.card.id], action.card.id))

        def left(action: Discard | Offer) -> tuple[int, int, int]:
            rest = [c for c in hand if c is not action.card]
            return (rules.min_deadwood(rest) if rest else 0, -values[action.card.id], -action.card.id)

        return min(options, key=left)

    @staticmethod
    def knock_threshold(observation: Observation) -> int:
        """The most deadwood it knocks with where any deadwood may knock: three
        quarters (:data:`KNOCK_SHARE`) of the lowest deadwood the other players' hands
        are expected to hold as dealt (:func:`dealt_low`), so that its knock is likely
        the lowest even after the others improve a little.

        Measured on Knock Rummy (docs/family.md): a lower bar (one point per card
        dealt, a nearly melded hand) waits too long against players who knock early;
        the whole expected lowest knocks too often into a lower hand.
        """
        return math.floor(KNOCK_SHARE * dealt_low(observation))

    @staticmethod
    def _knock_deadwood(observation: Observation, knock: Knock) -> int:
        """The deadwood a knock leaves (big gin: none)."""
        if knock.card is None:
            return 0
        return observation.rules.min_deadwood([c for c in observation.hand if c is not knock.card])

    @staticmethod
    def _best_knock(observation: Observation, knocks: Sequence[Knock]) -> Knock:
        rules = observation.rules
        hand = observation.hand

        def left(knock: Knock) -> int:
            if knock.card is None:
                return -1  # big gin first
            return rules.min_deadwood([c for c in hand if c is not knock.card])

        return min(knocks, key=left)

    @staticmethod
    def _meld(observation: Observation, legal: Sequence[Action]) -> Action:
        rules = observation.rules
        hand = observation.hand
        puts = [a for a in legal if isinstance(a, (Meld, Layoff))]
        if not puts:
            return next((a for a in legal if isinstance(a, Done)), legal[0])

        def left(action: Meld | Layoff) -> tuple[int, int]:
            gone = {c.id for m in action.melds for c in m} if isinstance(action, Meld) else {action.card.id}
            rest = [c for c in hand if c.id not in gone]
            if len(rest) > MAX_HAND:  # past the solver (deep draws): the most cards first
                return (0, -len(gone))
            return (rules.min_deadwood(rest) if rest else -1, -len(gone))

        return min(puts, key=left)

    @staticmethod
    def _lay_off(observation: Observation, legal: Sequence[Action]) -> Action:
        layoffs = [a for a in legal if isinstance(a, Layoff)]
        if not layoffs:
            return next(a for a in legal if isinstance(a, Done))
        ender = observation.ender
        assert ender is not None
        table = [SolverMeld(tuple(m.cards), m.kind) for m in observation.table[ender]]
        best = observation.rules.solve(observation.hand, table=table, check_contract=False)
        wanted = {(index, card.id) for index, cards in best.layoffs for card in cards}
        for action in layoffs:
            if (action.index, action.card.id) in wanted:
                return action
        return next(a for a in legal if isinstance(a, Done))


#: The share of :func:`dealt_low` the greedy agent knocks with where any deadwood may knock.
KNOCK_SHARE = 0.75

#: How many sample deals :func:`dealt_low` averages over.
DEALT_LOW_SAMPLES = 60

_DEALT_LOW: dict[tuple[int, int, int], tuple[object, float]] = {}


def dealt_low(observation: Observation) -> float:
    """The lowest least deadwood among the other players' hands as dealt, averaged over
    :data:`DEALT_LOW_SAMPLES` deals of the variant's pack shuffled by a fixed seed (so
    an agent's play stays a function of what it sees); worked out once per variant,
    hand size and number of players."""
    variant = observation.variant
    size, players = observation.hand_size, observation.players
    key = (id(variant), size, players)
    got = _DEALT_LOW.get(key)
    if got is not None and got[0] is variant:
        return got[1]
    rng = random.Random(0)
    cards = list(variant.deck.cards)
    rules = observation.rules
    total = 0
    for _ in range(DEALT_LOW_SAMPLES):
        rng.shuffle(cards)
        total += min((rules.min_deadwood(cards[k * size:(k + 1) * size]) for k in range(players - 1)),
                     default=0)
    low = total / DEALT_LOW_SAMPLES
    if len(_DEALT_LOW) >= 32:
        _DEALT_LOW.pop(next(iter(_DEALT_LOW)))
    _DEALT_LOW[key] = (variant, low)
    return low


def _going_out_game(observation: Observation) -> bool:
    """Whether rounds are won by going out: a meld step and a discard step, and no knock."""
    variant = observation.variant
    return variant.knock is None and variant.step("meld") is not None and variant.step("discard") is not None


def make_agents(spec: str, players: int, rng: random.Random) -> list[Agent]:
    """The agents of an ``--agents`` list (``random,greedy``; the last repeats).

    Each random agent gets its own generator drawn from ``rng``, so the same seed
    gives the same play.

    :raises AgentError: for an unknown agent name.
    """
    names = [name.strip() for name in spec.split(",") if name.strip()] or ["random"]
    names += [names[-1]] * (players - len(names))
    agents: list[Agent] = []
    for seat, name in enumerate(names[:players]):
        if name == "random":
            agents.append(RandomAgent(random.Random(rng.getrandbits(64))))
        elif name == "greedy":
            agents.append(GreedyAgent())
        elif name.startswith("cmd:") and len(name) > 4:
            from .protocol import ProgramAgent

            agents.append(ProgramAgent(name[4:], seat))
        else:
            raise AgentError(f"P{seat + 1}", f"unknown agent {name!r}; use random, greedy or cmd:PROGRAM")
    return agents
