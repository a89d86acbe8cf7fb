"""The agent protocol and the first players: random, and greedy (least deadwood, one move ahead).

An agent sees only its :class:`~rummydsl.engine.observe.Observation` (its hand,
what is public, its legal actions) and answers with one legal action.

>>> import random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Game, play_game
>>> game = Game(load_variant("gin_rummy"), random.Random(3))
>>> result = play_game(game, [GreedyAgent(), RandomAgent(random.Random(1))])
>>> result.winner in (0, 1), game.over
(True, True)
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any, Protocol, Sequence

from ..cards import Card
from ..engine.actions import Action, Buy, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, Take
from ..engine.observe import Observation
from ..engine.round import LegalActions
from ..errors import RummyDslError
from ..limits import MAX_HAND
from ..melds import LayoffTarget
from ..melds.discards import discard_deadwoods
from .extendable import _extendable, _extendable_held
from .promise import _pair_score, _promise, _promise_without
from .tablegain import pile_helps_with_table

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "dealt_low"]


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
        view = observation.legal_actions()
        # (a round's view: its list itself, read without the view's checks at each len and index)
        legal = view.listed() if type(view) is LegalActions else view
        count = len(legal)
        rng = self.rng
        if type(rng) is not random.Random or not count:  # (a generator of its own kind; none to pick)
            return legal[rng.randrange(count)]
        # randrange(count) as random.Random works it out (the same bits drawn, the same
        # answer) without its argument checks: count's bit length of bits, drawn again
        # until they fall below count
        bits = rng.getrandbits
        width = count.bit_length()
        pick = bits(width)
        while pick >= count:
            pick = bits(width)
        return legal[pick]


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

    Before going down in a game with a contract and a discard step (CR), it keeps
    the cards that work towards the melds this deal's contract uses (pairs of a
    rank for sets, near cards of a suit for runs, wild cards) before those that
    lower its deadwood, and takes or buys (CR-4) a discard that makes two or more
    such pairs; after going down, where only lay-offs follow, it lays off what it
    can, takes a discard only to lay it off, and discards its dearest card.
    """

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        deep, going_out, plain = _turn_facts(observation.variant)
        if plain:  # no knock and no contract (BR): the draw and the discard asked at once
            phase = observation.phase
            if phase == "draw" and not deep:
                return self._plain_draw(observation, legal, going_out)
            if phase == "discard":
                discards = [a for a in legal if isinstance(a, Discard)]
                if discards and going_out and observation.turn_overs:
                    return self._shed_oldest(observation, discards)
                return self._shed(observation, discards, legal)
        # (a variant with no knock lists none: no need to look)
        knocks = [a for a in legal if isinstance(a, Knock)] if observation.variant.knock is not None else ()
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
            toward = _wanted_shapes(observation) is not None
            if take is None:
                helps = False
            elif _only_lays_off(observation):
                helps = self._fits_table(observation)
            elif toward:  # before the going-out test: a contract game is one too (CR-2)
                helps = self._take_serves(observation)
            elif _going_out_game(observation):
                helps = self._pile_helps_going_out(observation)
            else:
                helps = self._pile_helps(observation)
            if take is not None and (helps or len(legal) == 1):
                return take
            return next((a for a in legal if isinstance(a, Draw) and a.source == "stock"), legal[0])
        if phase == "buy":
            buy = next((a for a in legal if isinstance(a, Buy)), None)
            if buy is not None and self._buy_helps(observation):
                return buy
            return next(a for a in legal if isinstance(a, Pass))
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

    def _plain_draw(self, observation: Observation, legal: Sequence[Action], going_out: bool) -> Action:
        """The draw of a variant with no knock and no contract, as :meth:`act`'s draw
        step decides it (with no contract, no shapes are wanted and nothing is only laid
        off): the top discard where it helps, else the stock."""
        take = None
        stock = None
        for action in legal:
            if isinstance(action, Draw):
                if action.source == "discard":
                    if take is None:
                        take = action
                elif action.source == "stock" and stock is None:
                    stock = action
        if take is not None and (self._pile_helps_going_out(observation) if going_out
                                 else self._pile_helps(observation)):
            return take
        return stock if stock is not None else legal[0]

    @staticmethod
    def _deep_variant(observation: Observation) -> bool:
        """Whether the variant draws deep into the discard pile (R5-3)."""
        return _turn_facts(observation.variant)[0]

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
    def _left_after_putting_down(observation: Observation, hand: Sequence[Card],
                                 table: Sequence[LayoffTarget] | None = None) -> int:
        """The least deadwood of ``hand`` once it has melded and laid off onto the table all it can."""
        if table is None:
            table = _layoff_table(observation)
        return observation.rules.solve(hand, table=table, check_contract=False).deadwood

    def _pile_helps_going_out(self, observation: Observation) -> bool:
        """Whether the top discard would be melded or laid off (less left after putting down
        and discarding another card, or the same with one card fewer).

        Asked of one search, not one per card: with melds on the table that a card of
        the hand might extend (:func:`_extendable`), every way the cards may extend them,
        each asked of the per-suit tables (:func:`~.tablegain.pile_helps_with_table`),
        or where those do not answer, the deadwood after each discard from the hand
        with the card (:func:`~rummydsl.melds.discards.discard_deadwoods`), whose
        discard of the taken card is the hand now; with none,
        the knock question (discarding the taken card leaves the hand as it is, never
        less, so the least is less than now exactly when another card's discard is),
        except for wild cards whose meanings depend on the hand (``wild_unique_card``).
        """
        card = observation.top_discard
        if card is None:
            return False
        hand = observation.hand
        if not hand:
            return False
        rules = observation.rules
        with_card = (*hand, card)
        if len(with_card) <= MAX_HAND:
            held = 0
            for c in hand:
                held |= 1 << c.id
            taken = held | 1 << card.id
            try:
                melds = observation.table_melds
                kept = _extendable_held(observation, taken, melds) if melds else ()
                if kept and (helps := pile_helps_with_table(rules, observation.variant.deck, hand, card,
                                                            kept)) is not None:
                    return helps
                useful = [LayoffTarget(tuple(m.cards), m.kind) for m in kept]
                left = discard_deadwoods(rules, with_card, useful) if useful else None
                if left is not None:
                    return min(left[:-1]) < left[-1]
                if not useful and not (rules.wild_unique_card and any(c.wild for c in with_card)):
                    # min_deadwood's first answer, by the per-suit tables, without its check of
                    # the cards (the observation's own); the search where they do not answer
                    later = rules.table_deadwood(taken, discard=True)
                    now = rules.table_deadwood(held) if later is not None else None
                    if later is None or now is None:
                        return rules.min_deadwood(with_card, discard=True) < rules.min_deadwood(hand)
                    return later < now
            except RummyDslError:
                pass  # past the work bound with the discard: ask card by card, as before
        table = _layoff_table(observation)
        now = self._left_after_putting_down(observation, hand, table)
        return any(self._left_after_putting_down(observation, [c for c in with_card if c is not out], table) < now
                   for out in hand)

    @staticmethod
    def _shed_oldest(observation: Observation, options: Sequence[Discard]) -> Discard:
        """The discard of the card held longest (the hand keeps the order cards came in)."""
        by_card = {action.card.id: action for action in reversed(options)}  # (the first of each card)
        for card in observation.hand:  # the first held that is an option's card: the least of min(...)
            action = by_card.get(card.id)
            if action is not None:
                return action
        return options[0]

    @staticmethod
    def _shed(observation: Observation, options: Sequence[Discard | Offer], legal: Sequence[Action]) -> Action:
        if not options:
            return legal[0]
        rules = observation.rules
        hand = observation.hand
        values = observation.variant.card_values
        if len(hand) > MAX_HAND + 1:  # past the solver (deep draws): the highest card goes
            return max(options, key=lambda action: (values[action.card.id], action.card.id))
        if observation.phase == "discard" and _only_lays_off(observation):
            # after going down only lay-offs follow (CR-3): every card left counts, so shed the dearest
            return max(options, key=lambda a: (values[a.card.id], a.card.id))
        wanted = _wanted_shapes(observation) if observation.phase == "discard" else None
        if wanted is not None and observation.taken is not None and len(options) > 1:
            options = [a for a in options if a.card is not observation.taken]  # never give back what it took

        if wanted is not None:  # the most promising first; the solver judges only those
            without = _promise_without(hand, wanted)
            promise = {id(a): without[a.card.id] if a.card.id in without else _promise(hand, wanted)
                       for a in options}
            most = max(promise.values())
            options = [a for a in options if promise[id(a)] == most]

        def left(action: Discard | Offer) -> tuple[int, int, int]:
            rest = [c for c in hand if c is not action.card]
            return (rules.min_deadwood(rest) if rest else 0, -values[action.card.id], -action.card.id)

        if len(options) == 1:  # one left (the most promising): nothing to weigh
            return options[0]
        if wanted is None and len(options) > 2 and (pick := _best_shed(rules, hand, options)) is not None:
            return pick
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
    def _fits_table(observation: Observation) -> bool:
        """Whether the top discard would extend a meld on the table (to lay it off at once)."""
        card = observation.top_discard
        if card is None:
            return False
        rules = observation.rules
        return any(rules.kinds_of([*meld.cards, card]) for melds in observation.table for meld in melds)

    @staticmethod
    def _take_serves(observation: Observation) -> bool:
        """Whether taking the top discard, then discarding another card, leaves a hand that
        works towards this deal's contract more than the hand now (CR-2)."""
        card = observation.top_discard
        wanted = _wanted_shapes(observation)
        if card is None or wanted is None:
            return False
        hand = observation.hand
        now = _promise(hand, wanted)
        gain = _promise([*hand, card], wanted) - now  # what the card adds beside the whole hand
        without = _promise_without(hand, wanted)
        return any(without[out.id] + gain - _pair_score(out, card, wanted) > now for out in hand)

    @staticmethod
    def _buy_helps(observation: Observation) -> bool:
        """Whether the top discard serves the contract the player works towards (CR-2,
        CR-4): it makes at least two more pairs of the kinds the contract uses."""
        card = observation.top_discard
        wanted = _wanted_shapes(observation)
        if card is None or wanted is None:
            return False
        hand = observation.hand
        return _promise((*hand, card), wanted) >= _promise(hand, wanted) + 2

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

        contract = observation.variant.contract
        lays_off_after = contract is not None and not contract.new_melds_after
        values = observation.variant.card_values

        def left(action: Meld | Layoff) -> tuple[int, int]:
            gone = {c.id for m in action.melds for c in m} if isinstance(action, Meld) else {action.card.id}
            rest = [c for c in hand if c.id not in gone]
            if len(rest) > MAX_HAND:  # past the solver (deep draws): the most cards first
                return (0, -len(gone))
            if lays_off_after:  # CR-3: what stays in hand will never be melded: every card of it counts
                return (sum(values[c.id] for c in rest) if rest else -1, -len(gone))
            return (rules.min_deadwood(rest) if rest else -1, -len(gone))

        return min(puts, key=left)

    @staticmethod
    def _lay_off(observation: Observation, legal: Sequence[Action]) -> Action:
        layoffs = [a for a in legal if isinstance(a, Layoff)]
        if not layoffs:
            return next(a for a in legal if isinstance(a, Done))
        ender = observation.ender
        assert ender is not None
        table = [LayoffTarget(tuple(m.cards), m.kind) for m in observation.table[ender]]
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


def _best_shed(rules: Any, hand: Sequence[Card], options: Sequence[Discard | Offer]) -> Discard | Offer | None:
    """The option :meth:`GreedyAgent._shed` weighs best (least deadwood left, then the
    dearest card, then the highest id) from one knock question
    (:meth:`~rummydsl.melds.MeldRules.best_discard`, which breaks ties the same way) rather
    than one solve per option; None when the card it names is not an option (the
    taken card, another copy of a face) or the hand holds wild cards: weigh each then."""
    if any(c.wild for c in hand):
        return None
    try:
        card, _ = rules.best_discard(hand)
    except RummyDslError:
        return None
    for action in options:
        if action.card is card:
            return action
    return None


def _layoff_table(observation: Observation) -> list[LayoffTarget]:
    """Every meld on the table, as the solver's lay-off targets."""
    return [LayoffTarget(tuple(m.cards), m.kind) for melds in observation.table for m in melds]


def _going_out_game(observation: Observation) -> bool:
    """Whether rounds are won by going out: a meld step and a discard step, and no knock."""
    return _turn_facts(observation.variant)[1]


_TURN_FACTS: dict[int, tuple[object, tuple[bool, bool, bool]]] = {}
""":func:`_turn_facts` by variant (``id``; the entry holds the variant), the last few kept."""


def _turn_facts(variant: Any) -> tuple[bool, bool, bool]:
    """Whether ``variant`` draws deep into the discard pile (R5-3), whether its rounds
    are won by going out (:func:`_going_out_game`), and whether it has neither a knock
    nor a contract: read from its turn once, not at every decision (a variant does not
    change)."""
    got = _TURN_FACTS.get(id(variant))
    if got is not None and got[0] is variant:
        return got[1]
    draw = variant.step("draw")
    facts = (draw is not None and draw.discard_depth == "any",
             variant.knock is None and variant.step("meld") is not None and variant.step("discard") is not None,
             variant.knock is None and variant.contract is None)
    if len(_TURN_FACTS) >= 32:
        _TURN_FACTS.pop(next(iter(_TURN_FACTS)))
    _TURN_FACTS[id(variant)] = (variant, facts)
    return facts


def _only_lays_off(observation: Observation) -> bool:
    """Whether the player has met a contract after which only lay-offs follow (CR-3)."""
    contract = observation.variant.contract
    return (contract is not None and not contract.new_melds_after
            and observation.met_contract[observation.player])


def _wanted_shapes(observation: Observation) -> frozenset[str] | None:
    """The shape families (``same_rank``, ``sequence``) of the meld kinds this deal's
    contract can use, while the player works towards a contract not yet met in a
    game with a discard step (CR-2); None otherwise."""
    variant = observation.variant
    rules = observation.rules
    if (variant.contract is None or variant.step("discard") is None or rules.contract is None
            or observation.met_contract[observation.player]):
        return None
    got = _CONTRACT_SHAPES.get(id(rules))
    if got is None or got[0] is not rules:
        got = (rules, _contract_shapes(rules))
        if len(_CONTRACT_SHAPES) >= 32:
            _CONTRACT_SHAPES.pop(next(iter(_CONTRACT_SHAPES)))
        _CONTRACT_SHAPES[id(rules)] = got
    return got[1]


_CONTRACT_SHAPES: dict[int, tuple[object, frozenset[str]]] = {}
""":func:`_contract_shapes` by solver (one per deal's contract), the last few kept."""


def _contract_shapes(rules: Any) -> frozenset[str]:
    """The shape families of the kinds some lay-down of 1 to 4 melds of 3 or 4 cards
    meeting ``rules``' contract uses (asked once per solver: a greedy player asks
    before every choice)."""
    kinds = rules.kind_names
    used: set[str] = set()
    for count in range(1, 5):
        for combo in itertools.combinations_with_replacement(kinds, count):
            for size in (3, 4):
                try:
                    if rules.contract([(kind, (None,) * size) for kind in combo]):
                        used.update(combo)
                except RummyDslError:
                    continue
    return frozenset(rules.shapes[kind].family for kind in used if kind in rules.shapes)
