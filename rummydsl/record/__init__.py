"""Game records: play games while writing a JSON-lines log, and replay a log through the engine.

The package has three parts: :mod:`.writer` (the format and its writer, what a front
end hears), :mod:`.play` (games played while written), :mod:`.replay` (a record played
back and checked). A record is one JSON object a line (docs/cli.md, "Game records")::

    {"type": "header", "record": 1, "rummydsl": "0.1.0", "variant": "gin_rummy", ...}
    {"type": "game", "game": 1, "seed": 123456789}
    {"type": "deal", "round": 1, "dealer": "P2", "hands": {...}, "stock": [...], "upcard": "7D", ...}
    {"type": "action", "round": 1, "n": 1, "action": "P1 pass"}
    ...
    {"type": "result", "round": 1, "ending": "knock", "points": {...}, ...}
    {"type": "game_result", "winner": "P1", ...}

:func:`run_game` and :func:`run_hand` play with agents, write the record through
a callback, tell a :class:`Watcher` (the terminal) what happens, and end a game
cleanly when an agent fails (:class:`~rummydsl.errors.AgentError`): the record so
far is kept and a ``stopped`` line names the seat and the reason.
:func:`replay_record` plays every round of a record back from its recorded deal
and checks every action and every result.

>>> import io, random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.agents import make_agents
>>> from rummydsl.engine import Game
>>> variant = load_variant("gin_rummy")
>>> lines = []
>>> writer = RecordWriter(lines.append)
>>> writer.header(variant, seed=5, agents=["greedy", "greedy"], mode="games")
>>> game = Game(variant, random.Random(5))
>>> played = run_game(game, make_agents("greedy", 2, random.Random(5)), writer=writer)
>>> played.stopped is None, lines[0]["type"], lines[-1]["type"]
(True, 'header', 'game_result')
"""

from __future__ import annotations

from ..errors import StalledRoundError
from ..limits import MAX_ACTIONS
from .play import PlayedGame, RoundSummary, close_agents, run_game, run_hand
from .replay import RECORD_FILE, LineFile, ReplaySummary, bounded_lines, replay_record
from .writer import RECORD_VERSION, Quit, RecordWriter, Watcher, shown_variant_path, variant_digests

__all__ = [
    "RECORD_VERSION",
    "MAX_ACTIONS",
    "StalledRoundError",
    "Quit",
    "Watcher",
    "RecordWriter",
    "RoundSummary",
    "PlayedGame",
    "run_game",
    "run_hand",
    "close_agents",
    "variant_digests",
    "shown_variant_path",
    "ReplaySummary",
    "replay_record",
    "LineFile",
    "RECORD_FILE",
    "bounded_lines",
]
