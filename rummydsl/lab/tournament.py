"""``rummydsl tournament``: every agent against every other, in every seat, on paired deals.

Deal ``d`` is played from the ``d``-th seed of :func:`rummydsl.simulate.game_seeds`
once for every pair of agents and every seating of the pair: each of the
``2**players - 2`` ways to put the two agents in the seats with both present (two
players: ``A,B`` then ``B,A``, the same cards dealt, the seats swapped). A game's
seed deals its cards and seeds its agents, so the same deal is the same cards for
every seating. The games go through :func:`rummydsl.simulate.run_tasks` (local
processes or Ray), which yields them in task order whatever the number of workers,
so every figure but the time per move is the same for any ``--workers``.

Figures (docs/agents.md, "Tournaments"):

- each pair's games, wins and draws, and ``a``'s score (wins plus half the draws,
  over games) with a 95% interval taken over deals (Student t on the per-deal
  scores: a deal and its swapped seats count as one observation, which is what
  pairing buys), beside the Wilson interval the same games would give were they
  unpaired;
- each agent's Bradley-Terry rating on the Elo scale with a bootstrap 95% interval
  (:mod:`~rummydsl.lab.ratings`);
- each agent's mean wall-clock milliseconds per decision (machine-dependent).

With ``until`` the run stops after the first multiple of ``check_every`` deals at
which every pair's paired interval is narrower than ``until``.

With ``budget`` each seat may think that many seconds in a game (read from
:data:`rummydsl.simulate.CLOCK`); the seat whose answer takes it past the budget
forfeits: the game stops and the other agent wins it (``forfeits`` per agent). A run
resumes from the games an out-file holds (``done_tasks``,
:mod:`~rummydsl.lab.tournament_file`) to the figures of an uninterrupted run, and the
game-quality metrics of every game are kept (:mod:`~rummydsl.lab.quality`).

>>> result = run_tournament(TournamentPlan("gin_rummy", ["greedy", "random"], seed=1, games=1))
>>> result.games, [(p.a, p.b, p.games, p.a_wins) for p in result.pairs]
(2, [('greedy', 'random', 2, 2)])
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generator, Sequence

from ..agents import check_agents
from ..errors import AgentError
from ..simulate import GameOutcome, GameTask, Interval, run_tasks, wilson
from ..variant import find_variant_path, load_variant, with_players
from . import defaults
from .quality import QualityFigures
from .ratings import bootstrap, bradley_terry
from .stats import Mean
from .tasks import LazyTasks

if TYPE_CHECKING:
    from ..backends import Backend

__all__ = ["TournamentPlan", "TournamentResult", "PairResult", "AgentResult", "run_tournament", "seatings",
           "check_names", "DEFAULT_MAX_DEALS"]

DEFAULT_MAX_DEALS = defaults.DEFAULT_MAX_DEALS
"""``--until``'s cap on deals when ``--max-games`` is not given."""


def seatings(agents: int, players: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """Every game of one deal: ``(a, b, seats)`` for each pair ``a < b`` and each way of
    seating the two with both present (``seats[p]`` is the agent at seat ``p``).

    >>> seatings(2, 2)
    [(0, 1, (0, 1)), (0, 1, (1, 0))]
    >>> len(seatings(3, 3))
    18
    """
    return [(a, b, tuple(a if mask >> p & 1 else b for p in range(players)))
            for a, b in itertools.combinations(range(agents), 2) for mask in range(1, 2 ** players - 1)]


@dataclass
class TournamentPlan:
    """What to play: a variant, the agents (two or more names), the seed, how many deals."""

    variant: str
    agents: Sequence[str]
    seed: int
    games: int | None = None
    """Deals to play (each played once per pair and seating); ``None`` with ``until``."""
    until: float | None = None
    max_games: int = DEFAULT_MAX_DEALS
    check_every: int = 20
    workers: int = 1
    backend: Backend | None = None
    players: int | None = None
    budget: float | None = None
    """Seconds of thinking each seat may spend in a game (``--budget``); ``None``: no limit.
    The seat that runs over forfeits that game: its agent loses it to the other."""


@dataclass
class PairResult:
    """Two agents' games against each other."""

    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    per_deal: Mean = field(default_factory=Mean)
    """``a``'s score on each deal (over that deal's seatings)."""

    @property
    def score(self) -> float:
        return (self.a_wins + self.draws / 2) / self.games if self.games else 0.0

    def interval(self) -> Interval:
        """``a``'s score with its 95% interval over deals (paired seats)."""
        found = self.per_deal.interval()
        return Interval(self.score, max(0.0, found.low), min(1.0, found.high))

    def unpaired(self) -> Interval:
        """The Wilson 95% interval of ``a``'s score as if the games were independent."""
        return wilson(self.a_wins + self.draws // 2, self.games)

    def as_json(self) -> dict[str, Any]:
        paired, unpaired = self.interval(), self.unpaired()
        return {"a": self.a, "b": self.b, "games": self.games, "a_wins": self.a_wins, "b_wins": self.b_wins,
                "draws": self.draws, "a_score": round(self.score, 6), "low": round(paired.low, 6),
                "high": round(paired.high, 6), "unpaired_low": round(unpaired.low, 6),
                "unpaired_high": round(unpaired.high, 6)}


@dataclass
class AgentResult:
    """One agent's rating and speed."""

    name: str
    rating: float = 0.0
    low: float = 0.0
    high: float = 0.0
    moves: int = 0
    seconds: float = 0.0
    forfeits: int = 0
    """Games this agent lost by running over ``--budget``."""
    most_seconds: float = 0.0
    """The most thinking time one of its seats took in one game (against ``--budget``)."""

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "rating": round(self.rating, 2), "low": round(self.low, 2),
                "high": round(self.high, 2), "moves": self.moves, "ms_per_move": round(self.ms_per_move, 3),
                "forfeits": self.forfeits, "most_seconds_in_a_game": round(self.most_seconds, 3)}


@dataclass
class TournamentResult:
    """The figures of a tournament and why it stopped."""

    variant: str
    seed: int
    deals: int
    games: int
    agents: list[AgentResult]
    pairs: list[PairResult]
    stop_reason: str
    players: int = 2
    quality: QualityFigures | None = None
    """The game-quality metrics of every game of the tournament (docs/lab.md)."""
    budget: float | None = None

    def narrowing(self) -> float | None:
        """How much narrower the paired intervals are than the unpaired ones, over the pairs
        (1 - the sum of paired widths over the sum of unpaired widths); ``None`` without games."""
        paired = sum(p.interval().high - p.interval().low for p in self.pairs if p.games)
        unpaired = sum(p.unpaired().high - p.unpaired().low for p in self.pairs if p.games)
        return 1 - paired / unpaired if unpaired > 0 else None

    def as_json(self) -> dict[str, Any]:
        """DESIGN.md's ``tournament --json`` object (extended: docs/agents.md)."""
        narrowing = self.narrowing()
        return {"variant": self.variant, "seed": self.seed, "players": self.players, "deals": self.deals,
                "games": self.games, "rating": "bradley-terry, elo scale, bootstrap over deals",
                "agents": [a.as_json() for a in self.agents], "pairs": [p.as_json() for p in self.pairs],
                "stop_reason": self.stop_reason, "budget": self.budget,
                "paired_narrowing": None if narrowing is None else round(narrowing, 6),
                "quality": None if self.quality is None else self.quality.as_json()}

    def text(self) -> str:
        """The tables ``rummydsl tournament`` prints."""
        lines = [f"{self.variant}: {self.games} games on {self.deals} deals, seed {self.seed} ({self.stop_reason})",
                 "", f"{'agent':<28}{'rating':>8}{'95% interval':>20}{'ms/move':>10}"]
        for agent in sorted(self.agents, key=lambda a: -a.rating):
            lines.append(f"{agent.name:<28}{agent.rating:>8.0f}{f'{agent.low:.0f} to {agent.high:.0f}':>20}"
                         f"{agent.ms_per_move:>10.2f}")
        lines += ["", f"{'a':<24}{'b':<24}{'games':>6}{'a wins':>8}{'b wins':>8}{'a score':>9}"
                  f"{'95% (paired)':>17}{'unpaired':>17}"]
        for pair in self.pairs:
            paired, unpaired = pair.interval(), pair.unpaired()
            lines.append(f"{pair.a:<24}{pair.b:<24}{pair.games:>6}{pair.a_wins:>8}{pair.b_wins:>8}"
                         f"{100 * pair.score:>8.1f}%{_span(paired):>17}{_span(unpaired):>17}")
        narrowing = self.narrowing()
        if narrowing is not None:
            how = "narrower" if narrowing >= 0 else "wider"
            lines += ["", f"paired deals: the paired intervals are {abs(100 * narrowing):.0f}% {how} than the "
                          "unpaired ones, summed over the pairs"]
        if self.budget is not None:
            forfeits = ", ".join(f"{a.name} {a.forfeits}" for a in self.agents)
            lines.append(f"budget {self.budget:g} s a seat a game; games forfeited on time: {forfeits}")
        if self.quality is not None:
            from .output import quality_text

            lines += [""] + quality_text(["every game"], [self.quality])
        return "\n".join(lines) + "\n"


def _span(interval: Interval) -> str:
    return f"{100 * interval.low:.1f} to {100 * interval.high:.1f}"


class _Tasks(LazyTasks):
    """The tasks of a tournament, deal by deal (every seating of every pair), made as they are read."""

    def __init__(self, path: str, names: Sequence[str], games: list[tuple[int, int, tuple[int, ...]]],
                 deals: int, seed: int, players: int | None, budget: float | None = None, start: int = 0) -> None:
        self.path = path
        self.names = list(names)
        self.seatings = games
        self.players = players
        self.budget = budget
        super().__init__(deals, len(games), seed, self._make, start)

    def _make(self, slot: int, deal: int, seed: int) -> GameTask:
        seats = self.seatings[slot][2]
        return GameTask(self.path, deal * len(self.seatings) + slot, seed, ",".join(self.names[k] for k in seats),
                        players=self.players, budget=self.budget)


def check_names(agents: Sequence[str], players: int | None = None) -> list[str]:
    """The agents' names, stripped, each checked (``--agents``'s place named in errors).

    :raises AgentError: for fewer than two agents, a name given twice, or an agent
        that cannot be made (naming its place: ``--agents item 2 ('clever')``).
    """
    names = [name.strip() for name in agents if name.strip()]
    if len(names) < 2:
        raise AgentError("--agents", "a tournament needs two agents or more, as a comma list (ismcts,greedy)")
    if len(set(names)) != len(names):
        raise AgentError("--agents", f"an agent is named twice in {','.join(names)}; name each once")
    if any("," in name for name in names):
        raise AgentError("--agents", "an agent's name holds a comma")
    for place, name in enumerate(names, start=1):
        try:
            check_agents(name, 1)
        except AgentError as problem:
            raise AgentError(f"--agents item {place} ({name!r})", problem.reason) from None
    return names


def run_tournament(plan: TournamentPlan, on_deal: Callable[[int, int | None], None] | None = None, *,
                   done_tasks: Sequence[GameOutcome] = (),
                   on_outcome: Callable[[GameOutcome, str], None] | None = None) -> TournamentResult:
    """Play ``plan`` and sum it up; ``on_deal(done, total)`` hears every finished deal.

    ``done_tasks`` are the outcomes of the first tasks, in task order, played before (a
    resumed run, ``--resume``): they are summed first, as if just played, and only the
    tasks after them are played, so the figures are those of an uninterrupted run.
    ``on_outcome(outcome, seating)`` hears each task newly played, in task order, with its
    agents seat by seat (``--out`` writes it).

    :raises AgentError: for fewer than two agents, an unknown agent or setting, or an
        agent that failed in a game (naming the game).
    :raises VariantError: for a variant that cannot be loaded.
    """
    names = check_names(plan.agents)
    path = find_variant_path(plan.variant)
    variant = with_players(load_variant(path), plan.players)
    players = variant.players
    games = seatings(len(names), players)
    total = plan.games if plan.until is None else plan.max_games
    assert total is not None
    tasks = _Tasks(path, names, games, total, plan.seed, plan.players, plan.budget, start=len(done_tasks))
    pairs = {(a, b): PairResult(names[a], names[b]) for a, b in itertools.combinations(range(len(names)), 2)}
    agents = [AgentResult(name) for name in names]
    quality = QualityFigures(players)
    deals: list[dict[tuple[int, int], tuple[float, int]]] = []
    this_deal: dict[tuple[int, int], tuple[float, int]] = {}
    reason = f"played the {total} deals asked for"
    done = 0
    with contextlib.closing(_outcomes(done_tasks, tasks, plan)) as outcomes:
        for outcome, new in outcomes:
            a, b, seats = games[outcome.index % len(games)]
            forfeit = outcome.over_budget if outcome.played.result is None else None
            if forfeit is None and (outcome.played.stopped is not None or outcome.played.result is None):
                why = outcome.played.stopped or "it did not end"
                raise AgentError(f"game {outcome.index + 1}", f"{','.join(names[k] for k in seats)} on deal "
                                 f"{outcome.index // len(games) + 1}: {why}")
            if new and on_outcome is not None:
                on_outcome(outcome, ",".join(names[k] for k in seats))
            _count(outcome, a, b, seats, pairs[(a, b)], agents, this_deal, forfeit)
            _quality(quality, outcome, seats, forfeit)
            if (outcome.index + 1) % len(games):
                continue
            for (x, y), (score, count) in this_deal.items():
                pairs[(x, y)].per_deal.add(score / count)
            deals.append(this_deal)
            this_deal = {}
            done += 1
            if on_deal is not None:
                on_deal(done, None if plan.until is not None else total)
            if plan.until is not None and done % plan.check_every == 0:
                widest = max(p.interval().high - p.interval().low for p in pairs.values())
                if widest < plan.until:
                    reason = (f"every pair's 95% interval is narrower than {plan.until:g} after {done} deals "
                              f"(the widest: {widest:.4f})")
                    break
            if done >= total:
                if plan.until is not None:
                    reason = f"reached the cap of {total} deals (--max-games) before every interval was narrower"
                break
    scores = {pair: (p.a_wins + p.draws / 2, p.games) for pair, p in pairs.items()}
    for agent, rating, (low, high) in zip(agents, bradley_terry(len(names), scores),
                                          bootstrap(len(names), deals, plan.seed)):
        agent.rating, agent.low, agent.high = rating, low, high
    return TournamentResult(variant.id, plan.seed, done, done * len(games), agents, list(pairs.values()), reason,
                            players, quality, plan.budget)


def _outcomes(done_tasks: Sequence[GameOutcome], tasks: _Tasks,
              plan: TournamentPlan) -> Generator[tuple[GameOutcome, bool], None, None]:
    """Every task's outcome in task order, each with whether it was played now: ``done_tasks``
    (read back by ``--resume``) first, then the rest as played (closing this stops the workers)."""
    for outcome in done_tasks:
        yield outcome, False
    if len(tasks) <= 0:
        return
    with contextlib.closing(run_tasks(tasks, workers=plan.workers, backend=plan.backend)) as played:
        for outcome in played:
            yield outcome, True


def _quality(quality: QualityFigures, outcome: GameOutcome, seats: tuple[int, ...], forfeit: int | None) -> None:
    """Count a game's quality metrics; a forfeit's winning seat is the first the other agent holds."""
    if forfeit is None:
        quality.add(outcome.played)
        return
    loser = seats[forfeit]
    quality.add(outcome.played, winner=next(seat for seat, agent in enumerate(seats) if agent != loser))


def _count(outcome: GameOutcome, a: int, b: int, seats: tuple[int, ...], pair: PairResult,
           agents: list[AgentResult], this_deal: dict[tuple[int, int], tuple[float, int]],
           forfeit: int | None = None) -> None:
    """Count one game: the pair's tally, the deal's score, each agent's moves and time
    (a game forfeited on time by seat ``forfeit`` is a win for the other agent)."""
    if forfeit is not None:
        winner: int | None = b if seats[forfeit] == a else a
        agents[seats[forfeit]].forfeits += 1
    else:
        result = outcome.played.result
        assert result is not None
        winner = seats[result.winner] if result.winner is not None else None
    pair.games += 1
    if winner == a:
        pair.a_wins += 1
        score = 1.0
    elif winner == b:
        pair.b_wins += 1
        score = 0.0
    else:
        pair.draws += 1
        score = 0.5
    was = this_deal.get((a, b), (0.0, 0))
    this_deal[(a, b)] = (was[0] + score, was[1] + 1)
    for seat, agent in enumerate(seats):
        if seat < len(outcome.moves):
            agents[agent].moves += outcome.moves[seat]
            agents[agent].seconds += outcome.seconds[seat]
            agents[agent].most_seconds = max(agents[agent].most_seconds, outcome.seconds[seat])
