"""PettingZoo's three usual wrappers of a classic game, as one cheap layer.

PettingZoo's classic games are wrapped in ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. Each of those forwards every
attribute it does not have (``agent_selection``, ``terminations``, ...) through
``__getattr__``, so a loop of ``last()`` and ``step()`` pays for three failed lookups per
attribute read: a third of the time of a random Gin hand. :class:`Checked` does what the
three do, in one layer that reads the environment's attributes directly:

- before ``reset``: reading ``rewards``, ``terminations``, ``truncations``, ``infos``,
  ``agent_selection``, ``num_agents`` or ``agents`` raises ``AttributeError``; ``step``,
  ``observe``, ``render``, ``state`` and ``agent_iter`` raise PettingZoo's errors; a step
  with no agent left warns (the order-enforcing wrapper's checks, and its iterator);
- ``step`` asserts that the action is in the agent's action space (``None`` for a dead
  agent);
- an action the last observation's ``action_mask`` forbids ends the episode: every agent
  terminated and truncated, the one that played it rewarded ``illegal_reward``, the others
  0, and PettingZoo's warning "Illegal move made" logged;
- ``agent_iter`` is PettingZoo's order-enforcing iterator (at most ``max_iter`` turns,
  each stepped before the next), reading the environment directly.

It is an ``OrderEnforcingWrapper`` (PettingZoo's ``agent_iter`` and tests take it as one).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

__all__ = ["Checked"]

_INTEGERS = (int, np.integer)


def _forward(name: str) -> property:
    """The wrapped environment's attribute ``name``, read and written through (an
    AttributeError before ``reset``, as the order-enforcing wrapper raises)."""

    def get(self: Checked) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    def put(self: Checked, value: Any) -> None:
        setattr(self._raw, name, value)

    return property(get, put)


class Checked(OrderEnforcingWrapper[Any, Any, Any]):
    """``env`` with the illegal-move, out-of-bounds and call-order checks (see the module)."""

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")

    def __init__(self, env: AECEnv[Any, Any, Any], illegal_reward: float = -1) -> None:
        self._raw = env
        self._illegal_reward = float(illegal_reward)
        self._mask: Any = None
        self._sizes: dict[Any, int] = {}
        super().__init__(env)

    @property
    def num_agents(self) -> int:
        if not self._has_reset:
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self._raw.agents)

    @property
    def _cumulative_rewards(self) -> dict[Any, float]:
        rewards: dict[Any, float] = self._raw._cumulative_rewards
        return rewards

    @_cumulative_rewards.setter
    def _cumulative_rewards(self, value: dict[Any, float]) -> None:
        if "_raw" in self.__dict__:
            self._raw._cumulative_rewards = value

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._mask = None
        super().reset(seed=seed, options=options)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[Any, Any, Any]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Turns(self, max_iter)

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        raw = self._raw
        obs = raw.observe(agent)
        if agent == raw.agent_selection:
            self._mask = obs["action_mask"]
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        raw = self._raw
        agent = raw.agent_selection
        obs = None
        if observe:  # observe(agent), in this call: the agent is the one to move
            if not self._has_reset:
                EnvLogger.error_observe_before_reset()
            obs = raw.observe(agent)
            self._mask = obs["action_mask"]
        return (obs, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                raw.infos[agent])

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        if not raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            assert action is None or raw.action_space(agent).contains(action), "action is not in action space"
            self._mask = None
            raw.step(action)  # a dead agent's step (None) removes it
            return
        size = self._sizes.get(agent)
        if size is None:
            size = self._sizes[agent] = int(raw.action_space(agent).n)
        fits = (0 <= action < size if isinstance(action, _INTEGERS) and not isinstance(action, bool)
                else raw.action_space(agent).contains(action))
        assert fits, "action is not in action space"
        mask = self._mask
        if mask is None:
            mask = raw.observe(agent)["action_mask"]
        self._mask = None
        if mask[action]:
            raw.step(action)
            return
        EnvLogger.warn_on_illegal_move()
        raw._cumulative_rewards[agent] = 0
        raw.terminations = dict.fromkeys(raw.agents, True)
        raw.truncations = dict.fromkeys(raw.agents, True)
        raw.rewards = dict.fromkeys(raw.truncations, 0)
        raw.rewards[agent] = self._illegal_reward
        raw._accumulate_rewards()
        raw._deads_step_first()


class _Turns(AECOrderEnforcingIterable[Any, Any, Any]):
    """:meth:`Checked.agent_iter`: PettingZoo's order-enforcing iterable, its iterator
    reading the wrapped environment directly (:class:`_Turn`)."""

    def __iter__(self) -> AECOrderEnforcingIterator[Any, Any, Any]:
        return _Turn(self.env, self.max_iter)


class _Turn(AECOrderEnforcingIterator[Any, Any, Any]):
    """The agent to move, while agents are left and turns remain; each turn must be
    stepped before the next (the order-enforcing iterator's checks, in one call)."""

    def __init__(self, env: Any, max_iter: int) -> None:
        super().__init__(env, max_iter)
        self._raw = env._raw

    def __next__(self) -> Any:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection
