"""Play at the terminal: a person's seat, and a running account of the game for them.

:class:`HumanAgent` is an agent like the others (``act(observation)``): when it is
the person's move it shows their hand sorted by suit and rank with its best melds and
deadwood, the contract in words, the table, the discard pile, the stock, the scores and
the legal moves numbered (:func:`render_observation`), then reads a line: a number, an
action in the notation (``discard 7H`` may leave out the player), ``help`` (this
variant's moves in its own cards: :func:`help_text`), ``hint``, ``score``, ``all``,
``undo``, ``quit``. Bad input gets a polite message and a new prompt.
:class:`TerminalWatcher` tells the person what the other players did between their
moves, the card they drew, and how each round ended. Plain text, no colour: it reads
the same on any terminal, in a pipe, and to a screen reader.

>>> import io, random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Round
>>> from rummydsl.engine.observe import Observation
>>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
>>> out = io.StringIO()
>>> agent = HumanAgent(0, io.StringIO("hello\\n2\\n"), out)
>>> str(agent.act(Observation(rnd, 0)))
'P1 pass'
>>> "I could not read 'P1 hello'" in out.getvalue()
True
"""

from __future__ import annotations

from .human import PROMPT, HumanAgent
from .screen import ordered, render_observation, sort_cards
from .watcher import ScoreSheet, TerminalWatcher
from .words import COMMANDS, contract_words, help_text

__all__ = ["HumanAgent", "TerminalWatcher", "ScoreSheet", "render_observation", "ordered", "sort_cards",
           "help_text", "contract_words", "HELP", "COMMANDS", "PROMPT"]

HELP = """\
Type the number of a move, or the move itself: 'discard 7H', 'knock 9C',
'meld [3S 4S 5S]', 'layoff 6S on P2#1' (your seat, e.g. P1, may be left out).
""" + COMMANDS
"""The help of a Gin-like game (kept for callers of 0.1; the play screen prints
:func:`help_text` of the variant played)."""
