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
information, terminal rewards. Parameters: ``variant`` (a shipped id or a path),
``players`` (0: the variant's own count), ``episode`` (``hand`` or ``game``),
``reward`` and ``max_turns`` (decisions before the episode ends where it stands, returns
as they are: random play of a variant that turns its pile over may go on a long time).
``reward`` is the PettingZoo environment's (:class:`~.core.Options`) but for a function:
``zero_sum`` (the default: each seat's points less the mean of the others'; the game
is registered zero-sum), ``points`` (each seat's own points) or an expression of the
reward context (:mod:`.reward`), a seat's return the sum of what it gives at the end of
each round played; with any reward but ``zero_sum`` the game's type is general-sum (an
expression cannot be known to add up to zero before it is played). OpenSpiel's game
strings (``python_rummydsl(reward=...)``, and so ``serialize``) cannot hold the brackets
and commas of most expressions: ``reward_file`` names a file holding the expression
instead (its path in the game string). Actions are the ids of
:attr:`Match.action_space <rummydsl.engine.match.Match.action_space>`; the observation
(``make_py_observer``) is :class:`~.planes.Planes` as a flat tensor, and its string the
seat's observation as JSON; with ``perfect_recall`` (the information state) the string
is that JSON after a digest of all the seat has seen (:mod:`.recall`); there is no
information-state tensor and no public observer. ``resample_from_infostate`` deals
again what the seat cannot see, for OpenSpiel's ISMCTS. A state's ``serialize()`` holds
:meth:`Match.to_json <rummydsl.engine.match.Match.to_json>`, so
``pyspiel.deserialize_game_and_state`` replays it step by step.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..engine.match import Match
from ..errors import StalledGameError
from .core import Options, hand_shares
from .planes import Planes
from .recall import advance, replay
from .reward import RewardExpression
from .text import table_text

__all__ = ["GAME_NAME", "RummyGame", "RummyState", "RummyObserver"]

GAME_NAME = "python_rummydsl"

_DEFAULTS = {"variant": "gin_rummy", "players": 0, "episode": "hand", "reward": "zero_sum", "reward_file": "",
             "max_turns": 5000}

_UTILITY = 1e6
"""A loose bound of any seat's return (OpenSpiel asks for one; a tight one is not known
for a variant of the user's)."""


def _game_type(utility: Any) -> Any:
    """The game's type, zero-sum or general-sum (``utility``); registered zero-sum, the
    default reward's."""
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="rummydsl: any rummy variant",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=10,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)
_GENERAL_SUM = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class RummyGame(pyspiel.Game):
    """A variant of rummydsl as an OpenSpiel game (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        players = int(given["players"]) or None
        reward: str | Path = str(given["reward"])
        if given["reward_file"]:
            if reward != "zero_sum":
                raise ValueError(f"{GAME_NAME}: give reward or reward_file, not both")
            reward = Path(str(given["reward_file"]))
        if reward == "pettingzoo_gin_v5":
            raise ValueError(f"{GAME_NAME}: reward 'pettingzoo_gin_v5' goes with that encoding, in the "
                             "PettingZoo environment only ('zero_sum', 'points' or an expression here)")
        self.options = Options.read(str(given["variant"]), players, str(given["episode"]), reward,
                                    int(given["max_turns"]))
        self.zero_sum = reward == "zero_sum"
        """Whether the returns add to zero (the default reward); else the game is general-sum."""
        self.source = str(given["variant"])
        probe = Match.new(self.options.variant, chance="explicit", history=False)
        self._start = probe
        """The match at the start (every state begins as a copy: OpenSpiel makes one for each clone)."""
        self._start_seen: dict[tuple[Any, ...], Any] = {}
        """What the start shows each seat (:attr:`_Held.seen`), shared by every state not yet
        stepped: OpenSpiel works out the observation tensor's shape from a new initial
        state's tensor each time it is asked (``ObservationTensorSize``, twice at every
        seat's check in ``random_sim_test``)."""
        self.recalls = False
        """Whether an information state was asked for: then every state keeps its seats' digests."""
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
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=turns + deals if self.options.episode == "hand" else turns * (deals + 1),
        )
        super().__init__(_GAME_TYPE if self.zero_sum else _GENERAL_SUM, info, given)

    def new_initial_state(self) -> RummyState:
        return RummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RummyObserver:
        if params:
            raise ValueError(f"{GAME_NAME}: the observer takes no parameters, not {params!r}")
        if iig_obs_type is not None and (
                not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{GAME_NAME} offers only a seat's own observation or information state "
                             f"(no public or all-seeing observer)")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        self.recalls = self.recalls or recall
        return RummyObserver(self, recall=recall)


class _Held:
    """The match a state holds: OpenSpiel clones a Python state by deep-copying its
    attributes and serializes it by pickling them, so a clone is :meth:`Match.copy` and a
    pickle is :meth:`Match.to_json` with the variant it is played by."""

    __slots__ = ("match", "source", "players", "decisions", "recall", "earned", "seen")

    def __init__(self, match: Match, source: str, players: int, decisions: int = 0,
                 recall: tuple[bytes, ...] | None = None, earned: tuple[float, ...] | None = None,
                 seen: dict[tuple[Any, ...], Any] | None = None) -> None:
        self.match = match
        self.source = source
        self.players = players
        self.decisions = decisions
        self.recall = recall
        """Each seat's digest of all it has observed (:mod:`.recall`), once asked for; then kept up."""
        self.earned = earned
        """With a reward expression: what each seat has earned by it so far (None: nothing yet)."""
        self.seen = {} if seen is None else seen
        """What the match now shows each seat, as it was first asked (:func:`_planes_of`,
        :func:`_json_of`): emptied at every step. OpenSpiel asks a state a seat's tensor and
        strings more than once (``random_sim_test`` asks every seat's observation tensor,
        observation string and information-state string, which holds the observation
        string, at every decision), and with an information state each step encodes every
        seat's planes for the digests, the planes the next tensor asked for is."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.match.copy(), self.source, self.players, self.decisions, self.recall, self.earned,
                     dict(self.seen))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (json.dumps(self.match.to_json()), self.source, self.players, self.decisions,
                           self.earned))


def _restore(text: str, source: str, players: int, decisions: int,
             earned: tuple[float, ...] | None = None) -> _Held:
    options = Options.read(source, players, "hand", "zero_sum", None)
    return _Held(Match.from_json(json.loads(text), options.variant), source, players, decisions,
                 earned=earned)


def _planes_of(held: _Held, planes: Planes, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
    """``planes.encode(held.match, seat)``, once a state (read-only: it is shared)."""
    key = (planes, seat)
    got = held.seen.get(key)
    if got is None:
        got = held.seen[key] = planes.encode(held.match, seat)
        got.flags.writeable = False
    return got


def _json_of(held: _Held, seat: int) -> str:
    """The seat's observation of ``held.match`` as JSON (keys sorted), once a state."""
    key = ("json", seat)
    got = held.seen.get(key)
    if got is None:
        got = held.seen[key] = json.dumps(held.match.observation(seat).to_json(), sort_keys=True)
    return got


class _Seen:
    """A game's planes read through a state's :attr:`_Held.seen` (what :func:`.recall.advance`
    asks of its ``planes``: :meth:`encode`), for the state's own match only."""

    __slots__ = ("held", "planes")

    def __init__(self, held: _Held, planes: Planes) -> None:
        self.held = held
        self.planes = planes

    def encode(self, match: Match, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        if match is not self.held.match:
            return self.planes.encode(match, seat)
        return _planes_of(self.held, self.planes, seat)


class RummyState(pyspiel.State):
    """A state of :class:`RummyGame`: a :class:`~rummydsl.engine.match.Match` dealt by chance."""

    def __init__(self, game: RummyGame) -> None:
        super().__init__(game)
        options = game.options
        self.held = _Held(game._start.copy(), game.source, options.players, seen=game._start_seen)
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
        mover = match.to_move
        played = match.round
        event: Any = None
        self.held.seen = {}
        try:
            event = match.apply(int(action))
        except StalledGameError as stalled:  # played, and the game cannot go on: the match is over (TERMINAL)
            event = getattr(stalled, "event", None)
        held = self.held
        reward = self.get_game().options.reward
        if isinstance(reward, RewardExpression) and event is not None and event.result is not None:
            got = reward.rewards(played, event.result, played.sat_out)
            held.earned = tuple(got if held.earned is None else (a + b for a, b in zip(held.earned, got)))
        if mover >= 0:
            held.decisions += 1
        if held.recall is None and self.get_game().recalls:
            held.recall = replay(match, self.planes)
        elif held.recall is not None:
            text = str(event.action) if event is not None else str(match.action_space.action(int(action), mover))
            held.recall = advance(held.recall, _Seen(held, self.planes), match, mover, text)  # type: ignore[arg-type]

    @property
    def planes(self) -> Planes:
        game: RummyGame = self.get_game()
        return game.planes

    def recall(self) -> tuple[bytes, ...]:
        """Each seat's digest of everything it has observed so far (:func:`.recall.replay`
        the first time, then kept up step by step)."""
        held = self.held
        if held.recall is None:
            held.recall = replay(held.match, self.planes)
        return held.recall

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> RummyState:
        """A state ``player_id`` cannot tell from this one: the cards hidden from it dealt
        again (:meth:`Match.resample <rummydsl.engine.match.Match.resample>`), its
        information state the same (what OpenSpiel's ISMCTS samples its worlds by)."""
        seed = random.getrandbits(63) if probability_sampler is None else int(probability_sampler() * 2 ** 63)
        other = RummyState(self.get_game())
        held = self.held
        other.held = _Held(held.match.resample(player_id, random.Random(seed)), held.source, held.players,
                           held.decisions, self.recall(), held.earned)
        return other

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
        """Zero until the end (terminal rewards); then the reward: the hand's points or
        the game's returns (``zero_sum``: each seat's less the mean of the others'), or
        what the reward expression gave at the end of each round played."""
        match = self.match
        if not self.is_terminal():
            return [0.0] * match.players
        reward = self.get_game().options.reward
        if isinstance(reward, RewardExpression):
            earned = self.held.earned
            return [0.0] * match.players if earned is None else list(earned)
        if self.episode == "hand":
            results = match.game.results
            if not results:
                return [0.0] * match.players
            points = [float(p) for p in results[0].points]
            if reward == "points":
                return points
            return hand_shares(points, match.variant.game.winner == "lowest", match.round.sat_out)
        return match.returns("points" if reward == "points" else "zero_sum")

    def __str__(self) -> str:
        return table_text(self.match)


class RummyObserver:
    """A seat's observation, or with ``recall`` its information state (perfect recall),
    conforming to OpenSpiel's PyObserver interface.

    The tensor is the planes of the seat's observation now (also with ``recall``: a
    tensor of fixed shape cannot hold a history of any length); the string is the seat's
    observation as JSON, after a line ``recall <hex>`` with ``recall``: the digest of
    every observation and own move so far (:mod:`.recall`)."""

    def __init__(self, game: RummyGame, recall: bool = False) -> None:
        self.planes = game.planes
        self.recall = recall
        self.tensor = np.zeros(int(np.prod(self.planes.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.planes.shape)}

    def set_from(self, state: RummyState, player: int) -> None:
        self.dict["observation"][...] = _planes_of(state.held, self.planes, player)

    def string_from(self, state: RummyState, player: int) -> str:
        seen = _json_of(state.held, player)
        if not self.recall:
            return seen
        return f"recall {state.recall()[player].hex()}\n{seen}"


pyspiel.register_game(_GAME_TYPE, RummyGame)
