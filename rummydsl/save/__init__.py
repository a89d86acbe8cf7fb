"""Save a game in progress as JSON, and resume it to the identical continuation.

A save (:func:`save_game`) holds the whole game: the format version, the variant's id
and rules digest, every score sheet, the rounds played so far, the dealer, the state of
the random generator that deals the later rounds, and the current round as its deal, the
actions played since, and the position they lead to (phase, hands, stock order, discard
pile, table melds, whose turn, a knock in progress ...). With ``agents`` it also holds
each seat's agent and its own generator (a ``cmd:`` program keeps its state itself: it
is started afresh).

Loading (:func:`load_game`) checks everything before anything is built, so a save is
loaded whole or not at all: the version, the variant (the same rules digest, as
:func:`rummydsl.record.variant_digests` gives), every card of the deck exactly once in
the deal and in the position, each action legal where it stands (the round is replayed
from its deal: the actions are the authority), and the position the actions give equal
to the saved one. A problem is a :class:`~rummydsl.errors.RecordError` naming the key
and quoting the bad value.

Cards are written in the deck's notation; in a deck with several copies of a face a
copy after the first is marked ``/copy`` (``AS/1``, ``*/2``), so the very same cards
are where they were.

>>> import json, random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.agents import make_agents
>>> from rummydsl.engine import Game, Observation, play_game
>>> variant = load_variant("gin_rummy")
>>> game = Game(variant, random.Random(5))
>>> agents = make_agents("random", 2, random.Random(5))
>>> for _ in range(7):  # a few actions into the first round
...     seat = game.round.to_move
...     _ = game.round.apply(agents[seat].act(Observation(game.round, seat)))
>>> text = json.dumps(save_game(game, agents))
>>> again = load_game(variant, json.loads(text))
>>> again_agents = load_agents(json.loads(text))
>>> play_game(game, agents) == play_game(again, again_agents)
True
"""

from __future__ import annotations

from ..engine.actions import card_text
from .load import load_agents, load_game, read_save
from .parts import PERSON, SAVE_VERSION, Fields, card_places, check_cards, misplaced
from .write import save_agents, save_game, write_save

__all__ = [
    "SAVE_VERSION",
    "PERSON",
    "Fields",
    "card_text",
    "card_places",
    "misplaced",
    "check_cards",
    "save_game",
    "load_game",
    "save_agents",
    "load_agents",
    "write_save",
    "read_save",
]
