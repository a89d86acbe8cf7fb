"""The seat's view a prompt is written from, and what that seat may know of the moves so far.

Every function of :mod:`rummydsl.llm` takes an observation as the engine gives it: the
:class:`~rummydsl.engine.observe.Observation` an agent is handed (``Match.view(seat)``)
or a :class:`~rummydsl.engine.match_view.MatchObservation` (``Match.observation(seat)``,
whose round is read). Nothing here reads the round behind it but through the
observation, except the list of moves played this round, which the observation does
not carry: :func:`public_moves` reads it and writes each move as the seat saw it.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action, Knock, player_name
from ..engine.match_view import MatchObservation
from ..engine.observe import Observation

__all__ = ["seat_view", "public_moves", "move_text"]


def seat_view(observation: Observation | MatchObservation) -> Observation:
    """The engine's observation of the round in play, from either kind of observation.

    :raises TypeError: for anything else (a dict, a match): name the seat's observation.
    """
    if isinstance(observation, Observation):
        return observation
    if isinstance(observation, MatchObservation):
        return observation.round
    raise TypeError(f"expected a seat's observation (Match.view(seat) or Match.observation(seat)), "
                    f"got {type(observation).__name__}")


def move_text(action: Action, seat: int, face_down: bool) -> str:
    """One move of the round as seat ``seat`` saw it played.

    Every move is public as written but one: a knock that discards face down (GR-6.1)
    names its discard, which only the knocker sees; the others read ``P2 knock``
    (and the melds it named, which are shown at once).
    """
    if isinstance(action, Knock) and face_down and action.player != seat and action.card is not None:
        melds = "".join(" [" + " ".join(str(c) for c in meld) + "]" for meld in action.melds or ())
        return f"{player_name(action.player)} knock (discarding face down){melds}"
    return str(action)


def public_moves(observation: Observation | MatchObservation) -> list[str]:
    """The moves played so far this round, in order, each as the seat saw it (:func:`move_text`).

    >>> import rummydsl
    >>> m = rummydsl.Match.new("gin_rummy", seed=7)
    >>> for move in ("P1 pass", "P2 pass", "P1 draw stock"):
    ...     _ = m.apply(move)
    >>> public_moves(m.view(0))
    ['P1 pass', 'P2 pass', 'P1 draw stock']
    """
    view = seat_view(observation)
    rnd: Any = view._round  # the observation carries no move list; the round's is public but a knock's card
    return [move_text(action, view.player, view.face_down) for action in rnd.actions]
