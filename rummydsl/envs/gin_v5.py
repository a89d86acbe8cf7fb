"""The encoding of PettingZoo's removed ``gin_rummy_v5``: its 110 actions, its planes, its rewards.

PettingZoo removed ``gin_rummy_v5`` (a wrapper of RLCard's gin rummy) in 2026. With
``encoding="pettingzoo_gin_v5"`` the PettingZoo environment of a two-player variant
on a 52-card deck speaks its contract, so a program written for it ports by changing
one import (docs/environments.md, "The gin_rummy_v5 encoding"):

>>> from rummydsl.envs.gin_v5 import ACTIONS, meaning
>>> ACTIONS, meaning(0), meaning(2), meaning(5), meaning(6), meaning(57), meaning(58), meaning(109)
(110, 'score player 0', 'draw card', 'gin', 'discard AS', 'discard KC', 'knock AS', 'knock KC')

A card's column is its suit's place in ``S H D C`` times 13 plus its rank less one (ace
0, king 12). The rules played are the variant's, not RLCard's: an id stands for the
variant's action of the same meaning (:meth:`GinV5.moves`), and the actions the variant
has where RLCard has none are played through the nearest id (the upcard offer's pass is
``draw card``; a defender's lay-offs and melds are played, as rummydsl's greedy agent
chooses them, by the defender's ``score player`` id).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..agents.basic import GreedyAgent
from ..endings import Ending
from ..engine.actions import Discard, Done, Draw, Knock, Layoff, Meld, Pass
from ..engine.match import Event
from ..engine.state import Phase

if TYPE_CHECKING:
    from ..cards import Card
    from ..engine.actions import Action
    from ..engine.match import Match

__all__ = ["ACTIONS", "GinV5", "PLANES", "meaning", "v5_reward", "column"]

ACTIONS = 110
"""The size of the action space."""
SCORE_PLAYER_0, SCORE_PLAYER_1, DRAW_CARD, PICK_UP_DISCARD, DECLARE_DEAD_HAND, GIN = range(6)
DISCARD = 6
"""``DISCARD + column``: discard that card."""
KNOCK = DISCARD + 52
"""``KNOCK + column``: knock, discarding that card."""
SUITS = "SHDC"
RANKS = "A23456789TJQK"
PLANES = ("hand", "top discard", "dead cards", "opponent known cards", "unknown cards")
"""The planes, in order (the last only with ``opponents_hand_visible``)."""

_FIXED = ("score player 0", "score player 1", "draw card", "pick up discard", "declare dead hand", "gin")


def column(card: Card) -> int:
    """A card's column: suits ``S H D C``, ranks ace to king (``AS`` 0, ``KC`` 51)."""
    assert card.suit is not None and card.rank is not None
    return SUITS.index(card.suit.symbol) * 13 + card.rank.order - 1


def meaning(action: int) -> str:
    """What id ``action`` means in ``gin_rummy_v5`` (cards written as in the notation)."""
    if not 0 <= action < ACTIONS:
        raise ValueError(f"gin_rummy_v5 has actions 0 to {ACTIONS - 1}, not {action}")
    if action < DISCARD:
        return _FIXED[action]
    verb, c = ("discard", action - DISCARD) if action < KNOCK else ("knock", action - KNOCK)
    return f"{verb} {RANKS[c % 13]}{SUITS[c // 13]}"


class GinV5:
    """The ``gin_rummy_v5`` spaces over a :class:`Match` of a two-player variant of 52 cards.

    >>> import rummydsl
    >>> m = rummydsl.Match.new("gin_rummy", seed=7)
    >>> v5 = GinV5(m)
    >>> v5.shape, {i: str(a) for i, a in v5.moves(m).items()}
    ((4, 52), {3: 'P1 draw discard', 2: 'P1 pass'})
    """

    size = ACTIONS

    def __init__(self, match: Match, opponents_hand_visible: bool = False) -> None:
        variant = match.variant
        if match.players != 2 or match.action_space.faces != 52 or any(
                card.wild or card.rank is None or card.suit is None or card.suit.symbol not in SUITS
                for card in variant.deck.cards) or len(variant.deck.cards) != 52:
            raise ValueError(f"encoding 'pettingzoo_gin_v5' is for two players and one 52-card pack; "
                             f"{variant.id!r} has {match.players} players and {len(variant.deck.cards)} cards")
        steps = [step.name for step in variant.turn]
        draw = variant.step("draw")
        if (steps != ["draw", "discard"] or variant.buying is not None
                or getattr(draw, "discard_depth", "top") != "top"):
            raise ValueError(f"encoding 'pettingzoo_gin_v5' is for a turn of a draw (stock or top discard) "
                             f"then a discard or a knock; {variant.id!r} has turn {steps}"
                             f"{' and buying' if variant.buying is not None else ''}"
                             f"{' and deep draws' if getattr(draw, 'discard_depth', 'top') != 'top' else ''}")
        self.visible = bool(opponents_hand_visible)
        self.names = PLANES if self.visible else PLANES[:4]
        """The name of each plane, in order."""
        self.shape = (len(self.names), 52)
        self._agent = GreedyAgent()

    def spec(self) -> str:
        """The planes, one a line."""
        lines = [f"{len(self.names)} planes of 52 columns (suits S H D C, ranks A..K: AS 0, KC 51)"]
        lines += [f"{i}  {name}" for i, name in enumerate(self.names)]
        return "\n".join(lines)

    def encode(self, match: Match, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """Seat ``seat``'s planes (:attr:`names`): only what its observation holds."""
        view = match.view(seat)
        out = np.zeros(self.shape, dtype=np.int8)
        hand = [column(c) for c in view.hand]
        pile = [column(c) for c in view.discards]
        other = 1 - seat
        known = [column(c) for c in view.known(other)]
        known += [column(c) for meld in view.table[other] for c in meld.cards]
        out[0, hand] = 1
        out[1, pile[-1:]] = 1
        out[2, pile[:-1]] = 1
        out[3, known] = 1
        if self.visible:
            seen: np.ndarray[Any, np.dtype[np.bool_]] = np.asarray(out[:4].any(axis=0))
            for melds in view.table:
                for meld in melds:
                    seen[[column(c) for c in meld.cards]] = True
            if view.knock_discard is not None:
                seen[column(view.knock_discard)] = True
            out[4] = ~seen
        return out

    def moves(self, match: Match) -> dict[int, Action]:
        """Each legal id and the first action of the variant it plays (empty at chance or the end).

        Discards and knocks by their card; a knock that leaves no deadwood is ``gin`` (big
        gin first, then the first such knock listed); the draws by their pile, the upcard
        offer's pass as ``draw card``, a pass on a final discard (GR-8's claim) as ``declare
        dead hand``; every action of a defender after a knock as its ``score player`` id."""
        seat = match.to_move
        out: dict[int, Action] = {}
        if seat < 0:
            return out
        phase = match.round.phase
        if phase == Phase.SHOWDOWN:
            return {seat: next(a for a in match.legal_actions() if isinstance(a, Done))}
        view = match.view(seat)
        rules, hand = view.rules, view.hand
        gins: list[Action] = []
        for action in match.legal_actions():
            if isinstance(action, Draw) and action.card is None:
                out.setdefault(DRAW_CARD if action.source == "stock" else PICK_UP_DISCARD, action)
            elif isinstance(action, Pass):
                out.setdefault(DRAW_CARD if phase == Phase.UPCARD else DECLARE_DEAD_HAND, action)
            elif isinstance(action, Knock) and action.melds is None:
                if action.card is None:
                    gins.insert(0, action)
                elif rules.min_deadwood([c for c in hand if c is not action.card]) == 0:
                    gins.append(action)
                else:
                    out[KNOCK + column(action.card)] = action
            elif isinstance(action, Discard):
                out[DISCARD + column(action.card)] = action
        if gins:
            out[GIN] = gins[0]
        if not out:
            raise ValueError(f"gin_rummy_v5 has no id for {', '.join(str(a) for a in match.legal_actions())} "
                             f"(phase {phase.value})")
        return out

    def play(self, match: Match, action: int) -> Event:
        """Play id ``action``; a defender's ``score player`` id plays its lay-offs first
        (as the greedy agent chooses them), then ``done``.

        :raises ValueError: for an id not legal now, naming it."""
        moves = self.moves(match)
        if action not in moves:
            legal = ", ".join(f"{i} ({meaning(i)})" for i in sorted(moves))
            raise ValueError(f"gin_rummy_v5 action {action} is not legal now; legal: {legal}")
        seat = match.to_move
        if match.round.phase != Phase.SHOWDOWN:
            return match.apply(moves[action])
        while True:
            chosen = self._agent.act(match.view(seat))
            if not isinstance(chosen, (Layoff, Meld, Done)):
                chosen = moves[action]
            event = match.apply(chosen)
            if isinstance(chosen, Done) or match.to_move != seat or match.round.phase != Phase.SHOWDOWN:
                return event


def v5_reward(knock_reward: float = 0.5, gin_reward: float = 1.0) -> Callable[[Match, Event, int], float]:
    """``gin_rummy_v5``'s rewards, paid when a round ends: the knocker ``knock_reward``,
    the player who goes gin (or big gin) ``gin_reward``, every other seat minus its
    deadwood (after lay-offs) over 100; a void round, each seat minus its deadwood over 100."""

    def reward(match: Match, event: Event, seat: int) -> float:
        result = event.result
        if result is None:
            return 0.0
        if seat == result.ender:
            if result.ending in (Ending.GIN, Ending.BIG_GIN):
                return float(gin_reward)
            if result.ending == Ending.KNOCK:
                return float(knock_reward)
        return -float(result.deadwoods[seat] or 0) / 100

    return reward
