"""Environments for learning agents: any variant in PettingZoo, Gymnasium and OpenSpiel.

- :mod:`rummydsl.envs.pettingzoo`: ``env(variant=...)`` and ``raw_env``, AEC environments
  in the form of PettingZoo's classic games;
- :mod:`rummydsl.envs.gymnasium`: one learning seat against rummydsl's agents; importing
  this package registers it as ``rummydsl/Rummy-v0`` (when Gymnasium is installed);
- :mod:`rummydsl.envs.openspiel`: importing it registers the OpenSpiel game
  ``python_rummydsl``.

All are built on :class:`rummydsl.Match`; :class:`~.planes.Planes` is the observation
they share. They need the ``rl`` extra (``pip install rummydsl[rl]``); OpenSpiel is
the ``openspiel`` extra (docs/dependencies.md says why it is apart).
"""

from __future__ import annotations

__all__ = ["GYM_ID"]

GYM_ID = "rummydsl/Rummy-v0"
"""The id :mod:`rummydsl.envs.gymnasium` is registered under."""


def _register_gymnasium() -> None:
    try:
        import gymnasium
    except ImportError:  # the rl extra is not installed: nothing to register
        return
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="rummydsl.envs.gymnasium:RummyEnv")


_register_gymnasium()
