"""Any variant as a PettingZoo AEC environment, in the form of PettingZoo's classic games.

>>> from rummydsl.envs.pettingzoo import env
>>> e = env(variant="skarney_gin", max_turns=400)
>>> e.reset(seed=1)
>>> obs, reward, termination, truncation, info = e.last()
>>> e.agent_selection, obs["observation"].shape, obs["action_mask"].shape
('player_0', (16, 52), (2092,))
>>> e.step(int(obs["action_mask"].nonzero()[0][0]))

Agents are ``player_0`` ... ``player_{n-1}`` (seat P1 is ``player_0``); an observation
is ``{"observation": Box(0, 1, (planes, faces), int8), "action_mask": Box(0, 1, (N,),
int8)}`` (:class:`~.planes.Planes` names the planes: :meth:`raw_env.observation_spec`);
an action is an id of :attr:`Match.action_space <rummydsl.engine.match.Match.action_space>`
(``Discrete(N)``), a lay-down of melds taking one id a card (docs/engine.md, Ids). The
mask is all zeros for an agent not to move (a seat sitting out a round never moves).

Options: ``variant`` (a shipped id, a path, a :class:`Variant`), ``players``,
``episode`` (``"hand"``: one round; ``"game"``: to the game's target), ``reward``
(``"zero_sum"``: the round's points less the mean of the others', so two players'
rewards are ``+p`` and ``-p``; a seat sitting out the hand gets 0; ``"points"``: each
seat's own points; an expression of the reward context, or a ``Path`` to a file holding
one, checked now: :mod:`.reward`; or a function
``f(match, event, seat)``), ``max_turns`` (decisions before the episode is truncated:
random play of a variant that turns its pile over may go on a long time), and
``render_mode`` (``None`` or ``"ansi"``), ``encoding`` (``"planes"``, or
``"pettingzoo_gin_v5"``: the removed ``gin_rummy_v5``'s 110 actions, planes and rewards,
with its options ``opponents_hand_visible``, ``knock_reward`` and ``gin_reward``:
:mod:`.gin_v5`; ``reward="pettingzoo_gin_v5"`` is its reward, the default with it).
The options survive every ``reset``.

:func:`env` wraps :class:`raw_env` as PettingZoo's classic games are wrapped: an illegal
action ends the episode with reward -1 for the seat that made it, an id out of range
fails an assertion, and the call order is enforced.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..engine.match import Event, Match
from ..errors import StalledGameError
from .core import Options, RewardFunction
from .gin_v5 import GinV5, v5_reward
from .planes import Planes
from .text import table_text
from .wrapping import Checked

__all__ = ["env", "raw_env", "ENCODINGS"]

_INT8 = np.dtype(np.int8)

ENCODINGS = ("planes", "pettingzoo_gin_v5")
"""The ``encoding=`` forms: rummydsl's planes and ids, or the removed ``gin_rummy_v5``'s."""


def env(**kwargs: Any) -> Any:
    """:class:`raw_env` with the checks of PettingZoo's usual wrappers, in one layer
    (:class:`~.wrapping.Checked`; see the module)."""
    return Checked(raw_env(**kwargs), illegal_reward=-1)


class raw_env(AECEnv[str, dict[str, Any], int], EzPickle):
    """A variant of rummydsl as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": ["ansi"], "name": "rummydsl_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, variant: Any = "gin_rummy", players: int | None = None, episode: str = "hand",
                 reward: str | Path | RewardFunction | None = None, max_turns: int | None = None,
                 render_mode: str | None = None, encoding: str = "planes",
                 opponents_hand_visible: bool = False, knock_reward: float = 0.5,
                 gin_reward: float = 1.0) -> None:
        EzPickle.__init__(self, variant, players, episode, reward, max_turns, render_mode, encoding,
                          opponents_hand_visible, knock_reward, gin_reward)
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding is 'planes' or 'pettingzoo_gin_v5', not {encoding!r}")
        if reward == "pettingzoo_gin_v5" or (reward is None and encoding == "pettingzoo_gin_v5"):
            reward = v5_reward(knock_reward, gin_reward)
        self.options = Options.read(variant, players, episode, "zero_sum" if reward is None else reward, max_turns)
        self.render_mode = render_mode
        self.match = Match.new(self.options.variant, seed=0, history=False)
        """The game being played (read it; step it only through :meth:`step`)."""
        self.planes = Planes(self.match)
        self.v5 = GinV5(self.match, opponents_hand_visible) if encoding == "pettingzoo_gin_v5" else None
        """The ``gin_rummy_v5`` encoding (:class:`~.gin_v5.GinV5`), or None for the planes."""
        n = self.options.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        size = self.match.action_space.size if self.v5 is None else self.v5.size
        shape = self.planes.shape if self.v5 is None else self.v5.shape
        self._size = size
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0, 1, shape, np.int8),
            "action_mask": spaces.Box(0, 1, (size,), np.int8),
        }) for a in self.possible_agents}
        self._quiet = self.options.episode == "hand" and not callable(self.options.reward)
        """Whether a step that ends no round rewards nobody (a hand's named reward or expression)."""
        self._seeds = random.Random()
        self._turns = 0
        self._before: list[float] = [0.0] * n
        self.last_event: Event | None = None
        """What the last step did (None after a reset)."""
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observation_spec(self) -> str:
        """The observation's planes, one a line (:meth:`Planes.spec <.planes.Planes.spec>`)."""
        return self.planes.spec() if self.v5 is None else self.v5.spec()

    # ------------------------------------------------------------------ playing

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed`` the deals follow from it (and each later reset
        without one from the seeds it draws), else from fresh entropy."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.match = Match.new(self.options.variant, seed=self._seeds.getrandbits(63), history=False)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._turns = 0
        self._before = self.options.scores(self.match)
        self.last_event = None
        self.agent_selection = self.possible_agents[self.match.to_move]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        match = self.match
        played = match.round  # its sat_out stays as it is (a round's seats are fixed at its deal)
        event: Event | None
        try:
            event = match.apply(int(action)) if self.v5 is None else self.v5.play(match, int(action))
        except StalledGameError as stalled:  # played, but the game cannot go on: the episode ends
            event = None
            for a in self.agents:
                self.infos[a] = {"stalled": str(stalled)}
        self.last_event = event
        self._turns += 1
        options = self.options
        if self._quiet and event is not None and event.result is None:
            # a step inside a hand, rewarded by a named form or an expression: nothing to add
            for a in self.rewards:
                self.rewards[a] = 0.0
            to_move = match.to_move
            if to_move < 0:  # over (Options.ends)
                self.terminations = {a: True for a in self.agents}
            elif options.max_turns is not None and self._turns >= options.max_turns:
                self.truncations = {a: True for a in self.agents}
            else:
                self.agent_selection = self.possible_agents[to_move]
            return
        rewards = options.rewards(match, event, self._before, played.sat_out, played)
        self._before = options.scores(match)
        self.rewards = {a: rewards[i] for i, a in enumerate(self.possible_agents) if a in self.rewards}
        if options.ends(match, event):
            self.terminations = {a: True for a in self.agents}
        elif options.max_turns is not None and self._turns >= options.max_turns:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[match.to_move]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seats[agent]
        v5 = self.v5
        match = self.match
        to_move = match.to_move
        grid = self.planes.encode_at(match, seat, to_move) if v5 is None else v5.encode(match, seat)
        mask = bytearray(self._size)
        if (to_move == seat and agent in self.terminations
                and not (self.terminations[agent] or self.truncations[agent])):
            for i in (match.legal_ids() if v5 is None else v5.moves(match)):
                mask[i] = 1
        return {"observation": grid, "action_mask": np.ndarray((self._size,), _INT8, mask)}

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): every hand, the piles, the melds."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        last = "" if self.last_event is None else f"last: {self.last_event.action}\n"
        return last + table_text(self.match)

    def close(self) -> None:
        pass

    def seat_of(self, agent: str) -> int:
        """The seat of an agent (``player_0`` is seat 0, P1)."""
        return self._seats[agent]
