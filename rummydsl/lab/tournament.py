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

>>> result = run_tournament(TournamentPlan("gin_rummy", ["greedy", "random"], seed=1, games=1))
>>> result.games, [(p.a, p.b, p.games, p.a_wins) for p in result.pairs]
(2, [('greedy', 'random', 2, 2)])
"""

from __future__ import annotations

import contextlib
import itertools
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, overload

from ..agents import check_agents
from ..errors import AgentError
from ..simulate import GameOutcome, GameTask, Interval, run_tasks, wilson
from ..variant import find_variant_path, load_variant, with_players
from .ratings import bootstrap, bradley_terry
from .stats import Mean

if TYPE_CHECKING:
    from ..backends import Backend

__all__ = ["TournamentPlan", "TournamentResult", "PairResult", "AgentResult", "run_tournament", "seatings",
           "DEFAULT_MAX_DEALS"]

DEFAULT_MAX_DEALS = 5_000
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

    @property
    def ms_per_move(self) -> float:
        return 1000 * self.seconds / self.moves if self.moves else 0.0

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "rating": round(self.rating, 2), "low": round(self.low, 2),
                "high": round(self.high, 2), "moves": self.moves, "ms_per_move": round(self.ms_per_move, 3)}


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

    def as_json(self) -> dict[str, Any]:
        """DESIGN.md's ``tournament --json`` object (extended: docs/agents.md)."""
        return {"variant": self.variant, "seed": self.seed, "players": self.players, "deals": self.deals,
                "games": self.games, "rating": "bradley-terry, elo scale, bootstrap over deals",
                "agents": [a.as_json() for a in self.agents], "pairs": [p.as_json() for p in self.pairs],
                "stop_reason": self.stop_reason}

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
        return "\n".join(lines) + "\n"


def _span(interval: Interval) -> str:
    return f"{100 * interval.low:.1f} to {100 * interval.high:.1f}"


class _Tasks(Sequence[GameTask]):
    """The tasks of a tournament, deal by deal, made as they are read."""

    def __init__(self, path: str, names: Sequence[str], games: list[tuple[int, int, tuple[int, ...]]],
                 deals: int, seed: int, players: int | None) -> None:
        self.path = path
        self.names = list(names)
        self.games = games
        self.deals = deals
        master = random.Random(seed)  # the draws of simulate.game_seeds
        self.seeds = [master.getrandbits(64) for _ in range(deals)]
        self.players = players

    def __len__(self) -> int:
        return self.deals * len(self.games)

    def _task(self, position: int) -> GameTask:
        deal, at = divmod(position, len(self.games))
        seats = self.games[at][2]
        return GameTask(self.path, position, self.seeds[deal], ",".join(self.names[k] for k in seats),
                        players=self.players)

    def __iter__(self) -> Iterator[GameTask]:
        return (self._task(k) for k in range(len(self)))

    @overload
    def __getitem__(self, position: int) -> GameTask: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[GameTask]: ...

    def __getitem__(self, position: int | slice) -> GameTask | Sequence[GameTask]:
        if isinstance(position, slice):
            return [self._task(k) for k in range(*position.indices(len(self)))]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(position)
        return self._task(position)


def run_tournament(plan: TournamentPlan, on_deal: Callable[[int, int | None], None] | None = None) -> TournamentResult:
    """Play ``plan`` and sum it up; ``on_deal(done, total)`` hears every finished deal.

    :raises AgentError: for fewer than two agents, an unknown agent or setting, or an
        agent that failed in a game (naming the game).
    :raises VariantError: for a variant that cannot be loaded.
    """
    names = [name.strip() for name in plan.agents if name.strip()]
    if len(names) < 2:
        raise AgentError("--agents", "a tournament needs two agents or more, as a comma list (ismcts,greedy)")
    if len(set(names)) != len(names):
        raise AgentError("--agents", f"an agent is named twice in {','.join(names)}; name each once")
    if any("," in name for name in names):
        raise AgentError("--agents", "an agent's name holds a comma")
    path = find_variant_path(plan.variant)
    variant = with_players(load_variant(path), plan.players)
    players = variant.players
    for name in names:
        check_agents(name, 1)
    games = seatings(len(names), players)
    total = plan.games if plan.until is None else plan.max_games
    assert total is not None
    tasks = _Tasks(path, names, games, total, plan.seed, plan.players)
    pairs = {(a, b): PairResult(names[a], names[b]) for a, b in itertools.combinations(range(len(names)), 2)}
    agents = [AgentResult(name) for name in names]
    deals: list[dict[tuple[int, int], tuple[float, int]]] = []
    this_deal: dict[tuple[int, int], tuple[float, int]] = {}
    reason = f"played the {total} deals asked for"
    done = 0
    with contextlib.closing(run_tasks(tasks, workers=plan.workers, backend=plan.backend)) as outcomes:
        for outcome in outcomes:
            a, b, seats = games[outcome.index % len(games)]
            if outcome.played.stopped is not None or outcome.played.result is None:
                why = outcome.played.stopped or "it did not end"
                raise AgentError(f"game {outcome.index + 1}", f"{','.join(names[k] for k in seats)} on deal "
                                 f"{outcome.index // len(games) + 1}: {why}")
            _count(outcome, a, b, seats, pairs[(a, b)], agents, this_deal)
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
                            players)


def _count(outcome: GameOutcome, a: int, b: int, seats: tuple[int, ...], pair: PairResult,
           agents: list[AgentResult], this_deal: dict[tuple[int, int], tuple[float, int]]) -> None:
    """Count one game: the pair's tally, the deal's score, each agent's moves and time."""
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
