"""Players for the engine: random, greedy, heuristic, search, and the interface every agent implements.

An agent sees only its :class:`~rummydsl.engine.observe.Observation` (its hand,
what is public, its legal actions) and answers with one legal action; a search
agent imagines the cards it cannot see through :meth:`Observation.sample
<rummydsl.engine.observe.Observation.sample>` (a redeal of exactly those). Agents
are named in ``--agents`` as a comma list, one per seat, the last repeating
(:mod:`~rummydsl.agents.spec`; docs/agents.md).

The package: :mod:`~rummydsl.agents.basic` (the protocol, random and greedy),
:mod:`~rummydsl.agents.heuristic` (the rule agent), :mod:`~rummydsl.agents.simple`
(OpenSpiel's simple gin bot, re-implemented from its description),
:mod:`~rummydsl.agents.search` (ISMCTS and PIMC) and :mod:`~rummydsl.agents.spec`
(names and settings). Import the names from here.

>>> import random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Game, play_game
>>> game = Game(load_variant("gin_rummy"), random.Random(3))
>>> result = play_game(game, make_agents("greedy", 2, random.Random(3)))
>>> result.winner in (0, 1), game.over
(True, True)
"""

from __future__ import annotations

from .basic import DEALT_LOW_SAMPLES, KNOCK_SHARE, Agent, GreedyAgent, RandomAgent, dealt_low
from .spec import AGENT_NAMES, SETTINGS, agent_names, agent_spec, check_agents, make_agents, parse_agent

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "make_agents", "dealt_low", "AGENT_NAMES", "SETTINGS",
           "parse_agent", "agent_names", "check_agents", "agent_spec", "KNOCK_SHARE", "DEALT_LOW_SAMPLES"]
