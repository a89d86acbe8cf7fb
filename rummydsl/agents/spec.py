"""Agents by name: the ``--agents`` list, each name with its settings.

``--agents`` is a comma list, one name per seat, the last repeating. A name is one
of :data:`AGENT_NAMES`, optionally followed by settings after colons
(``ismcts:iters=400:rollout=greedy``; a bare number is the agent's main count,
``ismcts:400`` is ``ismcts:iters=400``), ``cmd:PROGRAM`` for a program that
speaks the agent protocol (:mod:`rummydsl.protocol`), or ``llm:PROGRAM`` for a
language model behind a program that reads a prompt (:mod:`rummydsl.llm`).

>>> parse_agent("ismcts:400:c=1.2")
('ismcts', {'iters': 400, 'c': 1.2})
>>> parse_agent("greedy")
('greedy', {})
>>> import random
>>> [type(a).__name__ for a in make_agents("greedy,ismcts:iters=20", 3, random.Random(1))]
['GreedyAgent', 'ISMCTSAgent', 'ISMCTSAgent']
"""

from __future__ import annotations

import random
import weakref
from typing import Any, Callable

from ..errors import AgentError
from .basic import Agent, GreedyAgent, RandomAgent

__all__ = ["AGENT_NAMES", "SETTINGS", "parse_agent", "make_agents", "agent_names", "check_agents", "agent_spec"]

AGENT_NAMES: tuple[str, ...] = ("random", "greedy", "heuristic", "simple", "ismcts", "pimc")
"""The built-in agent names of ``--agents`` (besides ``cmd:PROGRAM`` and ``llm:PROGRAM``)."""

PROGRAM_PREFIXES = ("cmd:", "llm:")
"""The agents that run a program: the rest of the name is the program."""

_INT, _FLOAT, _WORD = int, float, str

SETTINGS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "greedy": {},
    "heuristic": {},
    "simple": {},
    "ismcts": {"iters": _INT, "ms": _FLOAT, "rollout": _WORD, "depth": _INT, "c": _FLOAT, "scale": _FLOAT,
               "margin": _FLOAT, "visits": _INT, "focus": _INT, "widen": _INT},
    "pimc": {"samples": _INT, "ms": _FLOAT, "rollout": _WORD, "depth": _INT, "scale": _FLOAT, "margin": _FLOAT},
}
"""Each agent's settings and how each is read (docs/agents.md lists what they mean)."""

_MAIN = {"ismcts": "iters", "pimc": "samples"}
"""The setting a bare number sets (``ismcts:400``)."""

_ROLLOUTS = ("random", "fast", "greedy", "heuristic")


def parse_agent(name: str, seat: int = 0) -> tuple[str, dict[str, Any]]:
    """An agent's kind and settings from its name in ``--agents`` (not ``cmd:``).

    :raises AgentError: naming the seat, for an unknown name or setting, or a bad value.
    """
    kind, *parts = name.strip().split(":")
    where = f"P{seat + 1}"
    if kind not in SETTINGS:
        raise AgentError(where, f"unknown agent {name!r}; use {', '.join(AGENT_NAMES)}, cmd:PROGRAM or llm:PROGRAM")
    allowed = SETTINGS[kind]
    settings: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        if not eq and kind in _MAIN:
            key, text = _MAIN[kind], part
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise AgentError(where, f"agent {kind!r} has no setting {key!r} (its settings: {known})")
        try:
            value = allowed[key](text)
        except ValueError:
            raise AgentError(where, f"{kind}'s {key} must be a number, not {text!r}") from None
        if isinstance(value, (int, float)) and not (value >= 0 if key in ("margin", "focus") else value > 0):
            raise AgentError(where, f"{kind}'s {key} must be more than 0, not {text!r}")
        if key == "rollout" and value not in _ROLLOUTS:
            raise AgentError(where, f"{kind}'s rollout is random, fast, greedy or heuristic, not {text!r}")
        settings[key] = value
    return kind, settings


def agent_names(spec: str, players: int) -> list[str]:
    """The agent of each seat in an ``--agents`` list (the last repeats).

    >>> agent_names("greedy,random", 3)
    ['greedy', 'random', 'random']
    """
    names = [name.strip() for name in spec.split(",") if name.strip()] or ["random"]
    names += [names[-1]] * (players - len(names))
    return names[:players]


def check_agents(spec: str, players: int) -> None:
    """Refuse an unknown agent name or setting before anything is played.

    :raises AgentError: naming the seat and the name.
    """
    for seat, name in enumerate(agent_names(spec, players)):
        if name.startswith(PROGRAM_PREFIXES) and len(name) > 4:
            continue
        parse_agent(name, seat)


_SPECS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
"""The ``--agents`` name each agent :func:`make_agents` made was made from (a save names it)."""


def agent_spec(agent: Any) -> str | None:
    """The ``--agents`` name ``agent`` was made from by :func:`make_agents` (``ismcts:iters=50``,
    ``cmd:python3 bot.py``), or ``None`` for an agent made otherwise.

    >>> agent_spec(make_agents("greedy,pimc:samples=3", 2, random.Random(1))[1])
    'pimc:samples=3'
    """
    try:
        return _SPECS.get(agent)
    except TypeError:  # an agent that cannot be weakly referenced or hashed was not made here
        return None


def make_agents(spec: str, players: int, rng: random.Random) -> list[Agent]:
    """The agents of an ``--agents`` list (``random,greedy``; the last repeats).

    Each random or search agent gets its own generator drawn from ``rng`` in seat
    order, so the same seed gives the same play.

    :raises AgentError: for an unknown agent name or setting.
    """
    agents: list[Agent] = []
    for seat, name in enumerate(agent_names(spec, players)):
        if name.startswith("cmd:") and len(name) > 4:
            from ..protocol import ProgramAgent

            agents.append(ProgramAgent(name[4:], seat))
            continue
        if name.startswith("llm:") and len(name) > 4:
            from ..llm import LLMAgent

            agents.append(LLMAgent(name[4:], seat))
            continue
        kind, settings = parse_agent(name, seat)
        if kind == "random":
            agents.append(RandomAgent(random.Random(rng.getrandbits(64))))
        elif kind == "greedy":
            agents.append(GreedyAgent())
        elif kind == "heuristic":
            from .heuristic import HeuristicAgent

            agents.append(HeuristicAgent())
        elif kind == "simple":
            from .simple import SimpleGinAgent

            agents.append(SimpleGinAgent())
        elif kind == "ismcts":
            from .search import ISMCTSAgent

            agents.append(ISMCTSAgent(random.Random(rng.getrandbits(64)), **settings))
        else:
            from .search import PIMCAgent

            agents.append(PIMCAgent(random.Random(rng.getrandbits(64)), **settings))
    for agent, name in zip(agents, agent_names(spec, players)):
        _SPECS[agent] = name.strip()
    return agents
