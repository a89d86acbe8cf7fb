"""What every environment here shares: the options, checked, and the rewards of a step.

The PettingZoo, Gymnasium and OpenSpiel environments are thin layers over
:class:`~rummydsl.engine.match.Match`; this module holds what they would otherwise each
write again: reading ``variant``, ``players``, ``episode``, ``reward`` and ``max_turns``
(a clear error naming the option for a bad one), and the reward each seat gets from
one :meth:`Match.apply <rummydsl.engine.match.Match.apply>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Union

from ..engine.match import Event, Match
from ..errors import ExpressionError
from ..suggest import closest
from ..variant import load_variant, shipped_variant_ids, with_players
from .reward import RewardExpression

if TYPE_CHECKING:
    from ..engine.round import Round
    from ..variant.model import Variant

__all__ = ["Options", "EPISODES", "REWARDS", "RewardFunction", "hand_shares", "zero_sum"]

#: ``episode=``: one round (a hand) or the whole game to its target.
EPISODES = ("hand", "game")
#: The named ``reward=`` forms.
REWARDS = ("zero_sum", "points")

RewardFunction = Callable[[Match, Event, int], float]
"""A reward of your own: ``f(match, event, seat)`` after each step, the match as it now stands."""


@dataclass(frozen=True)
class Options:
    """An environment's options, checked once (:meth:`read`)."""

    variant: Variant
    players: int
    episode: str
    reward: Union[str, RewardFunction, RewardExpression]
    """``"zero_sum"``, ``"points"``, a function, or a compiled expression (:mod:`.reward`)."""
    max_turns: int | None

    @classmethod
    def read(cls, variant: Variant | str, players: int | None, episode: str,
             reward: str | Path | RewardFunction, max_turns: int | None) -> Options:
        """Check the options and load the variant. ``reward``: a named form, a function,
        an expression of the reward context or a :class:`~pathlib.Path` to a file holding one.

        :raises VariantError: for an unknown variant or a player count it does not allow.
        :raises ExpressionError: for a reward expression that does not check, its place first.
        :raises ValueError: naming the option, for any other bad value.
        """
        if isinstance(variant, str) and variant in shipped_variant_ids():
            variant = _variant(variant, players)
        else:
            variant = with_players(load_variant(variant) if isinstance(variant, str) else variant, players)
        if episode not in EPISODES:
            raise ValueError(f"episode is 'hand' or 'game', not {episode!r}")
        form: str | RewardFunction | RewardExpression
        if isinstance(reward, Path) or (isinstance(reward, str) and reward not in REWARDS):
            try:
                form = RewardExpression.compile(reward, variant)
            except ExpressionError as problem:
                if isinstance(reward, str) and reward.isidentifier():  # perhaps a named form, misspelled
                    close = closest(reward, REWARDS + ("pettingzoo_gin_v5",))
                    hint = f"; did you mean {close!r}?" if close else ""
                    problem.args = (f"{problem.args[0]}\n(reward is 'zero_sum', 'points', an expression or a "
                                    f"function f(match, event, seat){hint})",)
                raise
        elif callable(reward) or reward in REWARDS:
            form = reward
        else:
            raise ValueError("reward is 'zero_sum', 'points', an expression (a string or a Path) or a function "
                             f"f(match, event, seat), not {reward!r}")
        if max_turns is not None and (not isinstance(max_turns, int) or isinstance(max_turns, bool)
                                      or max_turns < 1):
            raise ValueError(f"max_turns is a positive integer or None, not {max_turns!r}")
        return cls(variant, variant.players, episode, form, max_turns)

    def ends(self, match: Match, event: Event | None) -> bool:
        """Whether the episode is over after ``event`` (None: the game stopped short)."""
        if event is None or match.over:
            return True
        return self.episode == "hand" and event.result is not None

    def rewards(self, match: Match, event: Event | None, before: list[float],
                sat_out: int | None = None, played: Round | None = None) -> list[float]:
        """Each seat's reward for the step that gave ``event``; ``before``: the match's
        :meth:`scores` before it; ``sat_out``: the seat that sat out the round played
        (it gets 0 of a hand's zero-sum reward, which the seats that played share);
        ``played``: the round the step was played in (a reward expression reads it)."""
        reward = self.reward
        n = match.players
        if isinstance(reward, RewardExpression):
            if event is None or event.result is None:
                return [0.0] * n
            return reward.rewards(match.round if played is None else played, event.result, sat_out)
        if callable(reward):
            return [float(reward(match, event, seat)) for seat in range(n)] if event is not None else [0.0] * n
        if self.episode == "hand":
            if event is None or event.result is None:
                return [0.0] * n
            points = [float(p) for p in event.result.points]
            if reward == "points":
                return points
            return hand_shares(points, match.variant.game.winner == "lowest", sat_out)
        after = self.scores(match)
        return [a - b for a, b in zip(after, before)]

    def scores(self, match: Match) -> list[float]:
        """What a whole-game reward is the change of: the match's returns in this reward's form."""
        if self.episode == "game" and isinstance(self.reward, str) and self.reward in REWARDS:
            return match.returns(self.reward)
        return [0.0] * match.players


@lru_cache(maxsize=64)
def _variant(name: str, players: int | None) -> Variant:
    """A shipped variant at a player count, loaded once: its meld tables are built
    on first use, seconds for a large deck, and every environment of it may share them."""
    return with_players(load_variant(name), players)


def hand_shares(points: list[float], lowest: bool, sat_out: int | None) -> list[float]:
    """A hand's zero-sum rewards: :func:`zero_sum` among the seats that played it, 0 for
    the one that sat out.

    >>> hand_shares([0.0, 30.0, 0.0], False, 2)
    [-30.0, 30.0, 0.0]
    """
    seated = [p for p in range(len(points)) if p != sat_out]
    out = [0.0] * len(points)
    for p, share in zip(seated, zero_sum([points[p] for p in seated], lowest)):
        out[p] = share
    return out


def zero_sum(points: list[float], lowest: bool) -> list[float]:
    """Each seat's points less the mean of the others', turned where the lowest total wins.

    >>> zero_sum([25.0, 0.0], False)
    [25.0, -25.0]
    """
    n = len(points)
    if n < 2:
        return [0.0] * n
    total = sum(points)
    sign = -1.0 if lowest else 1.0
    return [sign * (p - (total - p) / (n - 1)) for p in points]
