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

import random
from typing import Protocol, Sequence

from .cards import Card
from .engine.actions import Action, Buy, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, Take
from .engine.observe import Observation
from .errors import AgentError
from .melds import TableMeld as SolverMeld

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "make_agents", "AGENT_NAMES"]

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
    deadwood; knocks or goes gin as soon as it may (the lowest knock); meets the
    contract and puts down what it can, aiming to go out; claims a last discard
    when it may; and as a defender lays off every card it can (C-7).

    Before going down in a game with a contract and a discard step (CR), among
    discards that leave the same deadwood it keeps the cards that work towards
    melds (pairs of a rank, near cards of a suit, wild cards), and it buys a
    discard (CR-4) that lowers its deadwood or works towards a meld.
    """

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            return self._best_knock(observation, knocks)
        phase = observation.phase
        player = observation.player
        if phase in ("upcard", "claim"):
            take = next((a for a in legal if isinstance(a, Draw)), None)
            if take is not None and (phase == "claim" or self._pile_helps(observation)):
                return take
            return next(a for a in legal if isinstance(a, Pass))
        if phase == "draw":
            take = next((a for a in legal if isinstance(a, Draw) and a.source == "discard"), None)
            if take is not None and (self._pile_helps(observation) or len(legal) == 1):
                return take
            return next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), legal[0])
        if phase == "buy":
            buy = next((a for a in legal if isinstance(a, Buy)), None)
            if buy is not None and self._buy_helps(observation):
                return buy
            return next(a for a in legal if isinstance(a, Pass))
        if phase == "discard":
            return self._shed(observation, [a for a in legal if isinstance(a, Discard)], legal)
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
    def _shed(observation: Observation, options: Sequence[Discard | Offer], legal: Sequence[Action]) -> Action:
        if not options:
            return legal[0]
        rules = observation.rules
        hand = observation.hand
        values = observation.variant.card_values
        toward = _working_towards(observation) and observation.phase == "discard"

        def left(action: Discard | Offer) -> tuple[int, int, int, int]:
            rest = [c for c in hand if c is not action.card]
            promise = -_promise(rest) if toward else 0
            return (rules.min_deadwood(rest) if rest else 0, promise, -values[action.card.id], -action.card.id)

        return min(options, key=left)

    @staticmethod
    def _buy_helps(observation: Observation) -> bool:
        """Whether the discard for sale serves the hand before going down (CR-4)."""
        card = observation.top_discard
        if card is None or observation.met_contract[observation.player]:
            return False
        hand = observation.hand
        rules = observation.rules
        if rules.min_deadwood((*hand, card)) < rules.min_deadwood(hand):
            return True
        return _promise((*hand, card)) > _promise(hand)

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


def _working_towards(observation: Observation) -> bool:
    """Whether the player is still working towards a contract it has not met (CR-2)."""
    return (observation.variant.contract is not None and observation.variant.step("discard") is not None
            and not observation.met_contract[observation.player])


def _promise(cards: Sequence[Card]) -> int:
    """How much a hand works towards melds: pairs of one rank, pairs of one suit at
    most two ranks apart, and two for each wild card.

    >>> from rummydsl.cards import Deck
    >>> _promise(Deck.preset("standard52").parse_cards("7H 7S 8H KC"))
    2
    """
    naturals = [c for c in cards if not c.wild and c.rank is not None]
    score = 2 * (len(cards) - len(naturals))
    for i, one in enumerate(naturals):
        for two in naturals[i + 1:]:
            assert one.rank is not None and two.rank is not None
            if one.rank.order == two.rank.order:
                score += 1
            elif one.suit is two.suit and abs(one.rank.order - two.rank.order) <= 2:
                score += 1
    return score


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
