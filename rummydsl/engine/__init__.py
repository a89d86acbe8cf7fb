"""The generic interpreter: play any declared variant, round by round, game by game.

- :mod:`~rummydsl.engine.actions`: one value type per verb, and the notation;
- :mod:`~rummydsl.engine.round`: a round's state and the rules that move it;
- :mod:`~rummydsl.engine.observe`: what one player may know;
- :mod:`~rummydsl.engine.game`: rounds to the target, dealers, final figures;
- :mod:`~rummydsl.engine.match`: one game as a state you step;
- :mod:`~rummydsl.engine.play`: the play loop (``engine.play.play(match, agents)``).

Nothing here names a game: the variant decides everything.
"""

from __future__ import annotations

from .actions import (
    Action,
    Buy,
    Decline,
    Discard,
    Done,
    Draw,
    Knock,
    Layoff,
    Meld,
    Offer,
    Pass,
    Take,
    parse_action,
    player_name,
)
from .game import Game, GameResult, Sheet
from .observe import Observation
from .play import TakeBack, TakenBack, play_game, play_round
from .round import LegalActions, Round, meld_rules
from .state import PastRound, Phase, RoundResult, SeenMove, TableMeld

__all__ = [
    "Action", "Draw", "Pass", "Discard", "Knock", "Meld", "Layoff", "Offer", "Take", "Decline", "Done",
    "Buy",
    "parse_action", "player_name",
    "Round", "RoundResult", "Phase", "TableMeld", "LegalActions", "meld_rules",
    "Observation", "SeenMove", "PastRound",
    "Game", "GameResult", "Sheet", "play_round", "play_game",
    "TakeBack", "TakenBack",
]
