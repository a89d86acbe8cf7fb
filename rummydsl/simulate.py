"""Simulation: play many seeded games (or single hands) and sum up what a house-rule designer asks.

Each game ``i`` is played from its own seed, drawn from the master seed before
anything is played (:func:`game_seeds`), so game ``i`` is the same game whatever
the number of worker processes; the per-game summaries are merged in game order.
:class:`Statistics` turns them into wins and points per seat, how rounds end, turns
per round and the dealer's and first player's win rates, each rate with a Wilson
95% interval and each mean with a Student t interval.

>>> stats = simulate("gin_rummy", games=2, seed=1, agents="greedy")
>>> stats.games, stats.hands == sum(stats.round_wins) + stats.endings.get("void", 0) + stats.ties
(2, True)
>>> simulate("gin_rummy", games=2, seed=1, agents="greedy").as_json(0.0) == stats.as_json(0.0)
True
"""

from __future__ import annotations

import contextlib
import copy
import math
import random
import time
from dataclasses import dataclass, field
from array import array
from collections.abc import Sequence as SequenceABC
from typing import TYPE_CHECKING, Any, Callable, Generator, Sequence, overload

from .engine.actions import player_name
from .errors import MeldError
from .record import PlayedGame, RecordWriter

if TYPE_CHECKING:
    from .backends import Backend

__all__ = ["GameTask", "GameOutcome", "Statistics", "Interval", "wilson", "mean_interval", "game_seeds", "play_task",
           "run_tasks", "simulate", "ENDINGS", "make_tasks", "GameTasks", "agent_names", "check_agents", "t975"]

#: How a round can end, in the order statistics list them.
ENDINGS: tuple[str, ...] = ("knock", "gin", "big_gin", "out", "stock_end", "void")

_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval."""

    value: float
    low: float
    high: float

    def as_json(self, name: str = "value") -> dict[str, float]:
        return {name: round(self.value, 6), "low": round(self.low, 6), "high": round(self.high, 6)}


def wilson(successes: int, trials: int) -> Interval:
    """The rate ``successes / trials`` with its Wilson 95% score interval.

    >>> r = wilson(8, 10)
    >>> round(r.value, 3), round(r.low, 3), round(r.high, 3)
    (0.8, 0.49, 0.943)
    >>> wilson(0, 0)
    Interval(value=0.0, low=0.0, high=1.0)
    """
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


# Student t quantiles t(0.975, df) for df 1..30; beyond, Hill's expansion is exact to 1e-4.
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
         2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
         2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom.

    >>> t975(1), t975(30), round(t975(1000), 3)
    (12.7062, 2.0423, 1.962)
    """
    if df <= len(_T975):
        return _T975[max(df, 1) - 1]
    z = _Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def mean_interval(values: Sequence[float], floor: float | None = None) -> Interval:
    """The mean of ``values`` with its Student t 95% interval (one value: no spread known),
    its low end raised to ``floor`` where it falls below (a count's mean is never below 0:
    ``floor=0``; docs/lab.md, "Intervals of counts").

    >>> m = mean_interval([1, 2, 3, 4])
    >>> m.value, round(m.low, 3), round(m.high, 3)
    (2.5, 0.446, 4.554)
    >>> mean_interval([1, 42], floor=0).low
    0.0
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half if floor is None else max(float(floor), mean - half), mean + half)


def game_seeds(seed: int, count: int) -> list[int]:
    """One 64-bit seed per game, from the master seed: game ``i`` never depends on the workers.

    >>> game_seeds(1, 3) == game_seeds(1, 5)[:3]
    True
    """
    master = random.Random(seed)
    return [master.getrandbits(64) for _ in range(count)]


@dataclass(frozen=True)
class GameTask:
    """One game (or hand) to play: everything a worker process needs, picklable."""

    variant: str
    """The variant's file (each worker loads it once)."""
    index: int
    """From 0, in the order of the run."""
    seed: int
    agents: str
    hand: bool = False
    """A single hand (``--hands``) dealt by seat ``index % players``, rather than a game."""
    log: bool = False
    """Keep the record lines of the game."""
    players: int | None = None
    """The seats played (``--players``), or None for the variant's ``players`` count."""
    budget: float | None = None
    """Seconds of thinking each seat's agent may spend in the whole game (``tournament
    --budget``), read from :data:`CLOCK`; the seat that runs over forfeits (the game stops
    there, :attr:`GameOutcome.over_budget`). ``None``: no limit."""


CLOCK: Callable[[], float] = time.perf_counter
"""The clock agents' thinking time is read from (a test puts a fake one here, for a
game played in its own process)."""


@dataclass
class GameOutcome:
    """A played task: the game's summary, and its record lines when asked."""

    index: int
    seed: int
    played: PlayedGame
    lines: list[dict[str, Any]] = field(default_factory=list)
    moves: tuple[int, ...] = ()
    """Decisions each seat's agent was asked for (``tournament``'s time per move)."""
    seconds: tuple[float, ...] = ()
    """Wall-clock seconds each seat's agent took to answer, summed (machine-dependent)."""
    over_budget: int | None = None
    """The seat whose agent ran over :attr:`GameTask.budget` (the game stopped at that move), else ``None``."""


def play_task(task: GameTask) -> GameOutcome:
    """Play one task (in this process or a worker). Agent failures end the game cleanly.

    :raises RummyDslError: for a variant that cannot be loaded, an unknown agent,
        or a round that never ends.
    """
    from .agents import make_agents
    from .engine import Game, Round
    from .record import close_agents, run_game, run_hand
    from .variant import load_variant, with_players

    variant = with_players(load_variant(task.variant), task.players)
    lines: list[dict[str, Any]] = []
    writer = RecordWriter(lines.append) if task.log else None
    seeds = random.Random(task.seed)
    deal_rng = random.Random(seeds.getrandbits(64))
    agent_rng = random.Random(seeds.getrandbits(64))
    if writer is not None:
        writer.game(task.index + 1, task.seed)
    agents = [_Timed(agent, player_name(seat), task.budget)
              for seat, agent in enumerate(make_agents(task.agents, variant.players, agent_rng))]
    try:
        if task.hand:
            rnd = Round.deal(variant, deal_rng, dealer=task.index % variant.players)
            played = run_hand(rnd, agents, writer=writer)
        else:
            played = run_game(Game(variant, deal_rng), agents, writer=writer)
    except MeldError as problem:  # the meld solver's work bound (MAX_MELD_WORK): which game
        raise MeldError(f"{problem}, in game {task.index + 1} (seed {task.seed})") from None
    finally:
        close_agents(agents)
    over = next((seat for seat, agent in enumerate(agents) if agent.ran_over), None)
    return GameOutcome(task.index, task.seed, played, lines, tuple(a.moves for a in agents),
                       tuple(a.seconds for a in agents), over)


class _Timed:
    """An agent whose answers are counted and timed (everything else passes through); with a
    budget, the answer that takes its time past it is refused with an :class:`AgentError`,
    which stops the game (:func:`rummydsl.record.run_game`)."""

    def __init__(self, agent: Any, seat: str = "P1", budget: float | None = None) -> None:
        self.agent = agent
        self._seat = seat
        self._budget = budget
        self.moves = 0
        self.seconds = 0.0
        self.ran_over = False
        """Whether this seat ran over its budget (the game stopped at its answer)."""

    def act(self, observation: Any) -> Any:
        started = CLOCK()
        try:
            answer = self.agent.act(observation)
        finally:
            self.seconds += CLOCK() - started
            self.moves += 1
        if self._budget is not None and self.seconds > self._budget:
            from .errors import AgentError

            self.ran_over = True
            raise AgentError(self._seat, f"ran over its time budget: {self.seconds:.3f} s of thinking in this "
                                         f"game, the budget {self._budget:g} s (it forfeits the game)")
        return answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.agent, name)


def run_tasks(tasks: Sequence[GameTask], workers: int | None = 1, *,
              backend: Backend | None = None) -> Generator[GameOutcome, None, None]:
    """Play ``tasks``, yielding outcomes in task order: on ``backend``, else in
    ``workers`` local processes (``None``: every CPU, for a run long enough).

    Stop iterating (or ``close()`` the generator) to cancel what is left.
    See :mod:`rummydsl.backends`.

    >>> from rummydsl.variant import find_variant_path
    >>> tasks = make_tasks(find_variant_path("gin_rummy"), count=2, seed=1, agents="greedy", hands=True, log=False)
    >>> [outcome.index for outcome in run_tasks(tasks)]
    [0, 1]
    """
    from .backends import LocalBackend

    chosen: Backend = backend if backend is not None else LocalBackend(workers)
    yield from chosen.run(tasks)


@dataclass
class Statistics:
    """The figures of a run, summed game by game in game order."""

    variant: str
    players: int
    agents: list[str]
    seed: int
    mode: str = "games"
    games: int = 0
    """Games played to the end (0 with ``--hands``)."""
    hands: int = 0
    """Rounds played to the end."""
    wins: list[int] = field(default_factory=list)
    """Games won per seat (with ``--hands``: hands won, i.e. scored most)."""
    points: list[int] = field(default_factory=list)
    """Points per seat: game points, or with ``--hands`` hand points."""
    per_unit_points: list[list[int]] = field(default_factory=list)
    """Each seat's points in each game (or hand), for the interval of the mean."""
    round_wins: list[int] = field(default_factory=list)
    """Rounds each seat won (scored most)."""
    ties: int = 0
    """Rounds that ended scoring nothing though not void (nobody scored)."""
    endings: dict[str, int] = field(default_factory=dict)
    undercuts: int = 0
    turns: list[int] = field(default_factory=list)
    dealer_round_wins: int = 0
    first_round_wins: int = 0
    decided_rounds: int = 0
    """Rounds somebody won (the denominator of the first player's round rate)."""
    dealer_rounds: int = 0
    """Rounds somebody won in which the dealer was dealt in (the denominator of the dealer's
    round rate: a dealer sitting out, G3-2, cannot win the round)."""
    sat_out_rounds: int = 0
    """Rounds in which a seat sat out (G3-1): the even share of a round is then 1/(players - 1)."""
    dealer_game_wins: int = 0
    first_game_wins: int = 0
    stopped: list[str] = field(default_factory=list)
    """Games that stopped early, with the reason (``game 3: P2: ...``)."""
    quality: Any = None
    """The game-quality metrics of the games (a :class:`rummydsl.lab.quality.QualityFigures`,
    made at the first game; ``None`` with ``--hands``)."""

    def __post_init__(self) -> None:
        n = self.players
        self.wins = self.wins or [0] * n
        self.points = self.points or [0] * n
        self.per_unit_points = self.per_unit_points or [[] for _ in range(n)]
        self.round_wins = self.round_wins or [0] * n

    def add(self, outcome: GameOutcome) -> None:
        """Count one played game (or hand)."""
        played = outcome.played
        n = self.players
        if played.stopped is not None:
            self.stopped.append(f"{'hand' if self.mode == 'hands' else 'game'} {outcome.index + 1}: "
                                f"{played.stopped}")
            return
        for rnd in played.rounds:
            self.hands += 1
            self.endings[rnd.ending] = self.endings.get(rnd.ending, 0) + 1
            self.undercuts += rnd.undercut
            self.turns.append(rnd.turns)
            self.sat_out_rounds += rnd.sat_out is not None
            if rnd.winner is None:
                self.ties += rnd.ending != "void"
                continue
            self.round_wins[rnd.winner] += 1
            self.decided_rounds += 1
            self.dealer_rounds += rnd.dealer != rnd.sat_out
            self.dealer_round_wins += rnd.winner == rnd.dealer
            self.first_round_wins += rnd.winner == rnd.first
        if self.mode == "hands":
            (rnd,) = played.rounds
            if rnd.winner is not None:
                self.wins[rnd.winner] += 1
            for seat in range(n):
                self.points[seat] += rnd.points[seat]
                self.per_unit_points[seat].append(rnd.points[seat])
            return
        result = played.result
        assert result is not None
        self.games += 1
        self.wins[result.winner] += 1
        for seat in range(n):
            self.points[seat] += result.points[seat]
            self.per_unit_points[seat].append(result.points[seat])
        self.dealer_game_wins += result.winner == played.first_dealer
        first = played.rounds[0].first if played.rounds else (played.first_dealer + 1) % n
        self.first_game_wins += result.winner == first
        if self.quality is None:
            from .lab.quality import QualityFigures

            self.quality = QualityFigures(n)
        self.quality.add(played)

    # -- reading ------------------------------------------------------------------

    @property
    def units(self) -> int:
        """Games played, or hands with ``--hands``."""
        return self.hands if self.mode == "hands" else self.games

    def as_json(self, seconds: float) -> dict[str, Any]:
        """The ``simulate --json`` object (DESIGN.md: ``variant``, ``games``, ``hands``,
        ``seconds``, per-player ``wins`` and ``points``, and the rest of the figures)."""
        n = self.players
        names = [player_name(p) for p in range(n)]
        units = self.units
        out: dict[str, Any] = {
            "variant": self.variant,
            "seed": self.seed,
            "mode": self.mode,
            "agents": dict(zip(names, self.agents)),
            "games": self.games,
            "hands": self.hands,
            "seconds": round(seconds, 3),
            "wins": dict(zip(names, self.wins)),
            "points": dict(zip(names, self.points)),
            "win_rate": {name: wilson(self.wins[p], units).as_json("rate") for p, name in enumerate(names)},
            "mean_points": {name: _points(self.per_unit_points[p]).as_json("mean")
                            for p, name in enumerate(names)},
            "round_wins": dict(zip(names, self.round_wins)),
            "endings": {ending: {"count": self.endings.get(ending, 0),
                                 **wilson(self.endings.get(ending, 0), self.hands).as_json("rate")}
                        for ending in self._ending_names()},
            "undercuts": {"count": self.undercuts, **wilson(self.undercuts, self.hands).as_json("rate")},
            "turns_per_round": mean_interval(self.turns, 0.0).as_json("mean"),
            "dealer": {"rounds": {"won": self.dealer_round_wins, "of": self.dealer_rounds,
                                  **wilson(self.dealer_round_wins, self.dealer_rounds).as_json("rate")}},
            "first_player": {"rounds": {"won": self.first_round_wins, "of": self.decided_rounds,
                                        **wilson(self.first_round_wins, self.decided_rounds).as_json("rate")}},
            "stopped": list(self.stopped),
        }
        if self.mode == "games":
            out["dealer"]["games"] = {"won": self.dealer_game_wins, "of": self.games,
                                      **wilson(self.dealer_game_wins, self.games).as_json("rate")}
            out["first_player"]["games"] = {"won": self.first_game_wins, "of": self.games,
                                            **wilson(self.first_game_wins, self.games).as_json("rate")}
            if self.quality is not None:
                out["quality"] = self.quality.as_json()
        return out

    def _ending_names(self) -> list[str]:
        return [e for e in ENDINGS if e in self.endings] + sorted(set(self.endings) - set(ENDINGS))

    def text(self, seconds: float) -> str:
        """The human-readable report of ``simulate``."""
        n = self.players
        unit = "hand" if self.mode == "hands" else "game"
        lines = [f"{self.variant}: {self.units} {unit}{'s' if self.units != 1 else ''}, "
                 f"{self.hands} round{'s' if self.hands != 1 else ''} in {seconds:.1f} s (seed {self.seed})"]
        if self.stopped:
            lines.append(f"stopped early: {len(self.stopped)}")
        lines.append("")
        lines.append(f"{'seat':6}{'agent':12}{unit + ' wins':>11}{'rate [95% CI]':>26}"
                     f"{'points':>10}{'mean/' + unit + ' [95% CI]':>30}")
        for p in range(n):
            rate = wilson(self.wins[p], self.units)
            mean = _points(self.per_unit_points[p])
            lines.append(f"{player_name(p):6}{self.agents[p]:12}{self.wins[p]:>11}{_pct(rate):>26}"
                         f"{self.points[p]:>10}{_num(mean):>30}")
        lines.append("")
        lines.append(f"how rounds end (of {self.hands})")
        for ending in self._ending_names():
            count = self.endings.get(ending, 0)
            lines.append(f"  {ending:12}{count:>8}  {_pct(wilson(count, self.hands))}")
        if self.undercuts or "knock" in self.endings:  # no line for games without a knock
            lines.append(f"  {'undercut':12}{self.undercuts:>8}  {_pct(wilson(self.undercuts, self.hands))}"
                         "  (a knock someone else scored on; also counted above)")
        lines.append("")
        lines.append(f"turns per round: {_num(mean_interval(self.turns, 0.0))}")
        fair = 1 / (n - 1 if self.sat_out_rounds and n > 2 else n)
        lines.append(f"rounds won (of {self.decided_rounds} someone won; an even share is {fair:.1%}):")
        lines.append(f"  dealer        {self.dealer_round_wins:>8}  {_pct(wilson(self.dealer_round_wins, self.dealer_rounds))}")
        lines.append(f"  first player  {self.first_round_wins:>8}  {_pct(wilson(self.first_round_wins, self.decided_rounds))}")
        if self.mode == "games":
            lines.append(f"games won (of {self.games}) by the first dealer and the first to play:")
            lines.append(f"  dealer        {self.dealer_game_wins:>8}  {_pct(wilson(self.dealer_game_wins, self.games))}")
            lines.append(f"  first player  {self.first_game_wins:>8}  {_pct(wilson(self.first_game_wins, self.games))}")
        for reason in self.stopped:
            lines.append(f"stopped: {reason}")
        return "\n".join(lines) + "\n"


def _points(values: Sequence[float]) -> Interval:
    """Points never below 0 in the run are a count: their interval stops at 0 (500 Rum's can be negative)."""
    return mean_interval(values, 0.0 if all(v >= 0 for v in values) else None)


def _pct(interval: Interval) -> str:
    return f"{interval.value:6.1%} [{interval.low:5.1%}, {interval.high:5.1%}]"


def _num(interval: Interval) -> str:
    return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


def make_tasks(variant_path: str, *, count: int, seed: int, agents: str, hands: bool,
               log: bool) -> list[GameTask]:
    """The tasks of a run: game ``i`` from the ``i``-th seed of :func:`game_seeds`."""
    return [GameTask(variant_path, index, game_seed, agents, hands, log)
            for index, game_seed in enumerate(game_seeds(seed, count))]


class GameTasks(SequenceABC[GameTask]):
    """The tasks of :func:`make_tasks` made on demand: 8 bytes a game (its seed), not a
    :class:`GameTask` object each (about 200 bytes), so a run of a million games does
    not hold a million tasks.

    >>> tasks = GameTasks("v.yaml", count=3, seed=1, agents="greedy", hands=False, log=False)
    >>> list(tasks) == make_tasks("v.yaml", count=3, seed=1, agents="greedy", hands=False, log=False)
    True
    >>> len(tasks), tasks[-1].index, [t.index for t in tasks[1:]], tasks[1:][0] == tasks[1]
    (3, 2, [1, 2], True)
    """

    def __init__(self, variant_path: str, *, count: int, seed: int, agents: str, hands: bool,
                 log: bool, players: int | None = None) -> None:
        master = random.Random(seed)
        self.variant = variant_path
        self.players = players
        self.agents = agents
        self.hands = hands
        self.log = log
        self._seeds = array("Q", (master.getrandbits(64) for _ in range(count)))
        self._first = 0
        """The game index of ``self._seeds[0]`` (a part of a run starts past 0)."""

    def __len__(self) -> int:
        return len(self._seeds)

    @overload
    def __getitem__(self, index: int) -> GameTask: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[GameTask]: ...

    def __getitem__(self, index: int | slice) -> GameTask | Sequence[GameTask]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            part = copy.copy(self)  # consecutive games (a resumed run's rest): still made on demand
            part._seeds = self._seeds[start:max(start, stop)]
            part._first = self._first + start
            return part
        position = range(len(self))[index]  # negative indexes; IndexError past the end
        return GameTask(self.variant, self._first + position, self._seeds[position], self.agents,
                        self.hands, self.log, self.players)


def agent_names(spec: str, players: int) -> list[str]:
    """The agent of each seat in an ``--agents`` list (the last repeats).

    >>> agent_names("greedy,random", 3)
    ['greedy', 'random', 'random']
    """
    from .agents import agent_names as names

    return names(spec, players)


def simulate(variant: str, *, games: int = 0, hands: int = 0, seed: int = 0, agents: str = "greedy",
             workers: int | None = 1, log: bool = False,
             on_outcome: Callable[[GameOutcome], None] | None = None,
             stop_on_failure: bool = True, done: Sequence[GameOutcome] = (),
             backend: Backend | None = None, players: int | None = None) -> Statistics:
    """Play ``games`` games (or ``hands`` single hands) of ``variant`` and sum them up.

    The games are played on ``backend`` (:mod:`rummydsl.backends`), else in
    ``workers`` local processes (``None``: every CPU, for a run long enough); the
    figures are the same on any backend.

    ``on_outcome`` hears every outcome in game order (to write a log, show progress);
    with ``log`` each outcome carries its record lines.
    With ``stop_on_failure`` the run stops at the first game an agent failed in.
    ``players`` plays with that many seats (``--players``: a count the variant's
    ``players`` map allows). ``done`` are the outcomes of the run's first games, already played (a resumed run,
    :mod:`rummydsl.runlog`): they are counted, not played nor heard, and the run goes on
    from the next game, each game with its own seed, to the figures of an uninterrupted run.

    :raises AgentError: for an unknown agent name.
    :raises VariantError: for a variant that cannot be loaded, or ``players`` it does not allow.
    """
    from .variant import find_variant_path, load_variant, with_players

    path = find_variant_path(variant)
    loaded = with_players(load_variant(path), players)
    check_agents(agents, loaded.players)
    mode = "hands" if hands else "games"
    stats = Statistics(loaded.id, loaded.players, agent_names(agents, loaded.players), seed, mode)
    tasks = GameTasks(path, count=hands or games, seed=seed, agents=agents, hands=bool(hands),
                       log=log, players=players)
    _check_done(done, tasks, mode)
    for outcome in done:
        stats.add(outcome)
        if outcome.played.stopped is not None and stop_on_failure:
            return stats
    rest = tasks[len(done):]
    with contextlib.closing(run_tasks(rest, workers, backend=backend)) as outcomes:  # closing stops the workers
        for outcome in outcomes:
            if on_outcome is not None:
                on_outcome(outcome)
            stats.add(outcome)
            if outcome.played.stopped is not None and stop_on_failure:
                break
    return stats


def _check_done(done: Sequence[GameOutcome], tasks: Sequence[GameTask], mode: str) -> None:
    """Refuse outcomes that are not this run's first games (another seed, another order).

    :raises RecordError: naming the game.
    """
    from .errors import RecordError

    unit = "hand" if mode == "hands" else "game"
    if len(done) > len(tasks):
        raise RecordError(f"{len(done)} {unit}s are done already, but the run has only {len(tasks)}")
    for index, (outcome, task) in enumerate(zip(done, tasks)):
        if outcome.index != index or outcome.seed != task.seed:
            raise RecordError(f"{unit} {outcome.index + 1} played from seed {outcome.seed} is not {unit} "
                              f"{index + 1} of this run (its seed is {task.seed})")


def check_agents(spec: str, players: int) -> None:
    """Refuse an unknown agent name or setting before anything is played.

    :raises AgentError: naming the seat and the name.
    """
    from .agents import check_agents as check

    check(spec, players)
