"""The seat's view a prompt is written from, and what that seat may know of the moves so far.

Every function of :mod:`rummydsl.llm` takes an observation as the engine gives it: the
:class:`~rummydsl.engine.observe.Observation` an agent is handed (``Match.view(seat)``)
or a :class:`~rummydsl.engine.match_view.MatchObservation` (``Match.observation(seat)``,
whose round is read). Nothing here reads the round behind it: the moves so far are the
observation's own (:meth:`Observation.moves <rummydsl.engine.observe.Observation.moves>`,
each as the seat saw it played).
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.match_view import MatchObservation
from ..engine.observe import Observation, seen_text

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
    """One move as seat ``seat`` saw it played (the engine's
    :func:`~rummydsl.engine.observe.seen_text`): another seat's knock that discards face
    down (GR-6.1) reads ``P2 knock (discarding face down)`` and its melds, without the card."""
    return seen_text(action, seat, face_down)


def public_moves(observation: Observation | MatchObservation) -> list[str]:
    """The moves played so far this round, in order, each as the seat saw it
    (:meth:`Observation.moves <rummydsl.engine.observe.Observation.moves>` of this round).

    >>> import rummydsl
    >>> m = rummydsl.Match.new("gin_rummy", seed=7)
    >>> for move in ("P1 pass", "P2 pass", "P1 draw stock"):
    ...     _ = m.apply(move)
    >>> public_moves(m.view(0))
    ['P1 pass', 'P2 pass', 'P1 draw stock']
    """
    view = seat_view(observation)
    return [move.text for move in view.moves(round=view.number)]
