"""Any variant as an OpenSpiel game: importing this module registers ``python_rummydsl``.

>>> import pyspiel
>>> import rummydsl.envs.openspiel
>>> game = pyspiel.load_game("python_rummydsl", {"variant": "skarney_gin"})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)
>>> game.num_players(), game.num_distinct_actions(), game.observation_tensor_shape()
(2, 2092, [16, 52])

It is registered in the manner of OpenSpiel's own Python games
(open_spiel/python/games/kuhn_poker.py): sequential moves, explicit stochastic chance
(the first dealer and every card dealt, the stock included, one chance outcome each:
:meth:`Match.new(chance="explicit") <rummydsl.engine.match.Match.new>`), imperfect
information, terminal rewards, zero-sum (each seat's points less the mean of the
others'). Parameters: ``variant`` (a shipped id or a path), ``players`` (0: the
variant's own count), ``episode`` (``hand`` or ``game``) and ``max_turns`` (decisions
before the episode ends where it stands, returns as they are: random play of a variant
that turns its pile over may go on a long time). Actions are the ids of
:attr:`Match.action_space <rummydsl.engine.match.Match.action_space>`; the observation
(``make_py_observer``) is :class:`~.planes.Planes` as a flat tensor, and its string the
seat's observation as JSON; only the seat's own observation is offered (no
information state, no public observer). A state's ``serialize()`` holds
:meth:`Match.to_json <rummydsl.engine.match.Match.to_json>`, so
``pyspiel.deserialize_game_and_state`` replays it step by step.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ..engine.match import Match
from ..errors import StalledGameError
from .core import Options, hand_shares
from .planes import Planes
from .text import table_text

__all__ = ["GAME_NAME", "RummyGame", "RummyState", "RummyObserver"]

GAME_NAME = "python_rummydsl"

_DEFAULTS = {"variant": "gin_rummy", "players": 0, "episode": "hand", "max_turns": 5000}

_UTILITY = 1e6
"""A loose bound of any seat's return (OpenSpiel asks for one; a tight one is not known
for a variant of the user's)."""

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="rummydsl: any rummy variant",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class RummyGame(pyspiel.Game):
    """A variant of rummydsl as an OpenSpiel game (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        players = int(given["players"]) or None
        self.options = Options.read(str(given["variant"]), players, str(given["episode"]), "zero_sum",
                                    int(given["max_turns"]))
        self.source = str(given["variant"])
        probe = Match.new(self.options.variant, chance="explicit", history=False)
        self.planes = Planes(probe)
        space = probe.action_space
        deals = self.options.variant.deck.size + 1
        turns = self.options.max_turns or 1
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=space.size,
            num_players=self.options.players,
            min_utility=-_UTILITY,
            max_utility=_UTILITY,
            utility_sum=0.0,
            max_game_length=turns + deals if self.options.episode == "hand" else turns * (deals + 1),
        )
        super().__init__(_GAME_TYPE, info, given)

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RummyObserver:
        if params:
            raise ValueError(f"{GAME_NAME}: the observer takes no parameters, not {params!r}")
        if iig_obs_type is not None and (
                iig_obs_type.perfect_recall or not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{GAME_NAME} offers only a seat's own observation (no information state, "
                             f"no public or all-seeing observer)")
        return RummyObserver(self)


class _Held:
    """The match a state holds: OpenSpiel clones a Python state by deep-copying its
    attributes and serializes it by pickling them, so a clone is :meth:`Match.copy` and a
    pickle is :meth:`Match.to_json` with the variant it is played by."""

    __slots__ = ("match", "source", "players", "decisions")

    def __init__(self, match: Match, source: str, players: int, decisions: int = 0) -> None:
        self.match = match
        self.source = source
        self.players = players
        self.decisions = decisions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.match.copy(), self.source, self.players, self.decisions)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (json.dumps(self.match.to_json()), self.source, self.players, self.decisions))


def _restore(text: str, source: str, players: int, decisions: int) -> _Held:
    options = Options.read(source, players, "hand", "zero_sum", None)
    return _Held(Match.from_json(json.loads(text), options.variant), source, players, decisions)


class RummyState(pyspiel.State):
    """A state of :class:`RummyGame`: a :class:`~rummydsl.engine.match.Match` dealt by chance."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        options = game.options
        self.held = _Held(Match.new(options.variant, chance="explicit", history=False), game.source,
                          options.players)
        self.episode = options.episode
        self.max_turns = options.max_turns

    @property
    def match(self) -> Match:
        """The match this state is (read it; play it through OpenSpiel's ``apply_action``)."""
        return self.held.match

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.match.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self.match.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        space = self.match.action_space
        return [(space.index(outcome), p) for outcome, p in self.match.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        match = self.match
        decision = match.to_move >= 0
        try:
            match.apply(int(action))
        except StalledGameError:  # played, and the game cannot go on: the match is over (TERMINAL)
            pass
        if decision:
            self.held.decisions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.match.action_space.action(int(action), max(player, 0)))

    def is_terminal(self) -> bool:
        match = self.match
        if match.over:
            return True
        if self.max_turns is not None and self.held.decisions >= self.max_turns:
            return True
        return self.episode == "hand" and bool(match.game.results)

    def returns(self) -> list[float]:
        """Zero until the end (terminal rewards); then the hand's points or the game's
        returns, each seat's less the mean of the others'."""
        match = self.match
        if not self.is_terminal():
            return [0.0] * match.players
        if self.episode == "hand":
            results = match.game.results
            if not results:
                return [0.0] * match.players
            points = [float(p) for p in results[0].points]
            return hand_shares(points, match.variant.game.winner == "lowest", match.round.sat_out)
        return match.returns("zero_sum")

    def __str__(self) -> str:
        return table_text(self.match)


class RummyObserver:
    """A seat's observation, conforming to OpenSpiel's PyObserver interface."""

    def __init__(self, game: RummyGame) -> None:
        self.planes = game.planes
        self.tensor = np.zeros(int(np.prod(self.planes.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.planes.shape)}

    def set_from(self, state: RummyState, player: int) -> None:
        self.dict["observation"][...] = self.planes.encode(state.match, player)

    def string_from(self, state: RummyState, player: int) -> str:
        return json.dumps(state.match.observation(player).to_json(), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, RummyGame)
