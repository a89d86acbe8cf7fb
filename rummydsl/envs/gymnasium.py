"""One seat of any variant as a Gymnasium environment, the others played by rummydsl's agents.

Importing :mod:`rummydsl.envs` registers it as ``rummydsl/Rummy-v0``:

>>> import gymnasium
>>> import rummydsl.envs
>>> env = gymnasium.make("rummydsl/Rummy-v0", variant="skarney_gin", opponents="greedy")
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(info["legal"])
((16, 52), True)
>>> obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].nonzero()[0][0]))

The learner plays seat ``seat`` (0: P1); the other seats are the agents of
``opponents``, an ``--agents`` list (``greedy``, ``random``, ``cmd:PROGRAM``; the last
repeats), who move between the learner's steps. The observation, the action ids, the
mask and the options ``variant``, ``players``, ``episode``, ``reward``, ``max_turns``
``render_mode`` and ``encoding`` (with ``opponents_hand_visible``, ``knock_reward``,
``gin_reward``: the learner's seat through ``gin_rummy_v5``'s ids and planes) are those
of :mod:`rummydsl.envs.pettingzoo`; the reward of a step is
the learner's share of everything played from its action to its next decision. An
action the mask does not allow ends the episode with reward -1 (``info["illegal"]``),
as PettingZoo's wrapper does, since Gymnasium's ``Discrete`` samples ignore the mask
unless given it (``env.action_space.sample(obs["action_mask"])``). A round in which the
learner sits out is played through by the others; ``reset`` deals on until the
learner has a decision to make.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents import make_agents
from ..engine.match import Event, Match
from ..errors import StalledGameError
from .core import Options, RewardFunction
from .gin_v5 import GinV5, v5_reward
from .planes import Planes
from .text import table_text

__all__ = ["RummyEnv"]

ENCODINGS = ("planes", "pettingzoo_gin_v5")
"""The ``encoding=`` forms, as :mod:`.pettingzoo` takes them."""

_DEALS = 100
"""Games ``reset`` deals before giving up on one in which the learner decides something."""


class RummyEnv(gymnasium.Env[dict[str, Any], Any]):
    """One learning seat of a variant (see the module)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: Any = "gin_rummy", players: int | None = None, seat: int = 0,
                 opponents: str = "greedy", episode: str = "hand", reward: str | Path | RewardFunction | None = None,
                 max_turns: int | None = None, render_mode: str | None = None, encoding: str = "planes",
                 opponents_hand_visible: bool = False, knock_reward: float = 0.5, gin_reward: float = 1.0) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding is 'planes' or 'pettingzoo_gin_v5', not {encoding!r}")
        if reward == "pettingzoo_gin_v5" or (reward is None and encoding == "pettingzoo_gin_v5"):
            reward = v5_reward(knock_reward, gin_reward)
        self.options = Options.read(variant, players, episode, "zero_sum" if reward is None else reward, max_turns)
        n = self.options.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat is one of 0..{n - 1}, not {seat!r}")
        make_agents(opponents, n, random.Random(0))  # an unknown agent is refused here, by name
        self.seat = seat
        self.opponents = opponents
        self.render_mode = render_mode
        self.match = Match.new(self.options.variant, seed=0, history=False)
        """The game being played."""
        self.planes = Planes(self.match)
        self.v5 = GinV5(self.match, opponents_hand_visible) if encoding == "pettingzoo_gin_v5" else None
        """The ``gin_rummy_v5`` encoding of the learner's seat (:class:`~.gin_v5.GinV5`), or None."""
        size = self.match.action_space.size if self.v5 is None else self.v5.size
        shape = self.planes.shape if self.v5 is None else self.v5.shape
        self._size = size
        self.action_space = spaces.Discrete(size)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, shape, np.int8),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        })
        self._agents: list[Any] = []
        self._turns = 0
        self._before: list[float] = [0.0] * n
        self._over = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(_DEALS):
            game_seed = int(self.np_random.integers(2 ** 62))
            self.match = Match.new(self.options.variant, seed=game_seed, history=False)
            self._close_agents()
            self._agents = make_agents(self.opponents, self.options.players, random.Random(game_seed))
            self._turns = 0
            self._over = False
            self._before = self.options.scores(self.match)
            self._play_others()
            if not self._over:
                break
        else:
            raise RuntimeError(f"{self.options.variant.id}: seat {self.seat} had nothing to decide in "
                               f"{_DEALS} games")
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        if action not in self._legal():
            self._over = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal": True}
        reward = self._apply(int(action), learner=True)
        if not self._over:
            reward += self._play_others()
        truncated = False
        if not self._over and self.options.max_turns is not None and self._turns >= self.options.max_turns:
            self._over = truncated = True
        terminated = self._over and not truncated
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        return table_text(self.match)

    def close(self) -> None:
        """Stop the opponents' programs (``cmd:`` agents), if any."""
        self._close_agents()
        super().close()

    # ------------------------------------------------------------------ inside

    def _close_agents(self) -> None:
        for agent in self._agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        self._agents = []

    def _legal(self) -> Any:
        """The learner's legal ids, in its encoding."""
        return self.match.legal_ids() if self.v5 is None else self.v5.moves(self.match)

    def _apply(self, action: Any, learner: bool = False) -> float:
        """Play one decision (an id, or an opponent's action); the learner's reward."""
        match = self.match
        played = match.round
        sat_out = played.sat_out
        event: Event | None
        try:
            event = match.apply(action) if not (learner and self.v5 is not None) else self.v5.play(match, action)
        except StalledGameError:
            event = None
        self._turns += 1
        rewards = self.options.rewards(match, event, self._before, sat_out, played)
        self._before = self.options.scores(match)
        if self.options.ends(match, event):
            self._over = True
        return rewards[self.seat]

    def _play_others(self) -> float:
        """Let the opponents move until the learner is to move or the episode ends."""
        reward = 0.0
        match = self.match
        limit = self.options.max_turns
        while not self._over and match.to_move != self.seat:
            if limit is not None and self._turns >= limit:
                break
            seat = match.to_move
            reward += self._apply(self._agents[seat].act(match.view(seat)))
        return reward

    def _observe(self) -> dict[str, Any]:
        mask = np.zeros(self._size, dtype=np.int8)
        if not self._over and self.match.to_move == self.seat:
            mask[list(self._legal())] = 1
        grid = (self.planes.encode(self.match, self.seat) if self.v5 is None
                else self.v5.encode(self.match, self.seat))
        return {"observation": grid, "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        legal = [str(a) for a in self.match.legal_actions()] if not self._over else []
        return {"legal": legal}
