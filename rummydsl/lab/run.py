"""Play the same seeds under several variants and sum up every figure as the games stream in.

Game ``i`` of every variant is played from the ``i``-th seed of
:func:`rummydsl.simulate.game_seeds`; the tasks are interleaved (game 0 of each
variant, then game 1 of each, ...) and all go through
:func:`rummydsl.simulate.run_tasks`, which yields them in task order whatever the
number of workers. So game ``i`` of one variant meets game ``i`` of the others as
soon as both are played, its paired differences are counted, and nothing per game
is kept: the memory of a run does not grow with its number of games.

With ``until`` (``--until WIDTH``) the run stops after the first multiple of
``check_every`` games at which every rate's 95% interval, in every variant, is
narrower than ``until``; the check only reads the games before it, in game order,
so where a run stops does not depend on the workers either.

>>> arms = [Arm.load("gin_rummy"), Arm.load("straight_gin")]
>>> result = run_lab(Plan(arms, seed=3, agents="greedy", games=4))
>>> result.games, result.paired, result.stop_reason
(4, [True], 'played the 4 games asked for')
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generator

from ..errors import Diagnostic, Location, VariantError
from ..simulate import GameOutcome, GameTask, agent_names, check_agents, run_tasks
from ..variant import find_variant_path, load_variant
from ..variant.model import Variant
from . import defaults
from .derive import DerivedVariant
from .figures import ArmFigures, FigureRow, PairFigures, figure_rows
from .tasks import LazyTasks

if TYPE_CHECKING:
    from ..backends import Backend

__all__ = ["Arm", "Plan", "LabResult", "run_lab", "deals_agree", "widest_interval", "DEFAULT_MAX_GAMES"]

DEFAULT_MAX_GAMES = defaults.DEFAULT_MAX_GAMES
"""``--until``'s cap on the games of each variant when ``--max-games`` is not given."""


@dataclass(frozen=True)
class Arm:
    """One variant of a run: its label in tables, the file workers load, and how it was made."""

    label: str
    path: str
    variant: Variant
    derived: DerivedVariant | None = None

    @classmethod
    def load(cls, name: str, label: str | None = None, derived: DerivedVariant | None = None) -> "Arm":
        """The arm of a shipped variant id or a file.

        :raises VariantError: if the variant cannot be loaded.
        """
        variant = load_variant(name)
        return cls(label or variant.id, find_variant_path(name), variant, derived)

    def as_json(self) -> dict[str, Any]:
        """The arm as a JSON object (``variants`` items of ``--json``)."""
        out: dict[str, Any] = {"label": self.label, "id": self.variant.id}
        if self.derived is None:
            out["path"] = self.path
        else:  # the child's file was temporary: (base, text) says all of it
            out["base"] = self.derived.base
            out["text"] = self.derived.text
        return out


def deals_agree(a: Variant, b: Variant) -> bool:
    """Whether one seed deals the same cards under both variants: the same seats, deck, hand size and upcard.

    >>> from rummydsl.variant import load_variant
    >>> deals_agree(load_variant("gin_rummy"), load_variant("oklahoma_gin"))
    True
    >>> deals_agree(load_variant("gin_rummy"), load_variant("skarney_gin"))
    False
    """
    return (a.players == b.players and a.deal.hand_size == b.deal.hand_size and a.deal.upcard == b.deal.upcard
            and [str(c) for c in a.deck.cards] == [str(c) for c in b.deck.cards])


@dataclass
class Plan:
    """What to play: the variants, the seed and agents, and how many games (or until how sure)."""

    arms: Sequence[Arm]
    seed: int
    agents: str = "greedy"
    games: int | None = None
    """Games per variant; ``None`` with ``until``."""
    until: float | None = None
    """Play until every rate's interval is narrower than this."""
    max_games: int = DEFAULT_MAX_GAMES
    check_every: int = 100
    workers: int = 1
    backend: Backend | None = None
    """Where the games are played (``--ray``: a :class:`~rummydsl.backends.RayBackend`);
    ``None``: ``workers`` local processes. The same figures either way."""


@dataclass
class LabResult:
    """The figures of a run, each variant against the first, and why the run stopped."""

    arms: list[Arm]
    seed: int
    agents: list[str]
    games: int
    figures: list[ArmFigures]
    rows: list[FigureRow]
    paired: list[bool]
    """Per later variant: whether its games pair with the first's (the same deals)."""
    stop_reason: str
    stopped: str | None = None
    """Why a game stopped early (an agent failed), else ``None``."""
    until: float | None = None
    widest: tuple[float, str, str] | None = None
    """The widest rate interval at the end: (width, figure, variant)."""
    extra: dict[str, Any] = field(default_factory=dict)
    pairs: list[PairFigures | None] = field(default_factory=list)
    """Per later variant: its per-game differences from the first (``None`` when the deals differ)."""


class _Tasks(LazyTasks):
    """The interleaved tasks of a run (game 0 of each variant, then game 1 of each, ...),
    made as they are read (no list of a million tasks)."""

    def __init__(self, paths: Sequence[str], games: int, seed: int, agents: str, start: int = 0) -> None:
        self.paths = list(paths)
        self.agents = agents
        super().__init__(games, len(self.paths), seed, self._make, start)

    def _make(self, slot: int, game: int, seed: int) -> GameTask:
        return GameTask(self.paths[slot], game, seed, self.agents)


def widest_interval(arms: Sequence[Arm], figures: Sequence[ArmFigures]) -> tuple[float, str, str]:
    """The widest 95% interval of any rate figure of any variant: (width, figure label, variant label)."""
    rows = figure_rows(figures, [None] * (len(figures) - 1))
    widest = (0.0, "", "")
    for row in rows:
        if row.figure.kind != "rate":
            continue
        for arm, estimate in zip(arms, row.estimates):
            width = estimate.high - estimate.low
            if width > widest[0]:
                widest = (width, row.figure.label, arm.label)
    return widest


def run_lab(plan: Plan, on_game: Callable[[int, int | None, float | None], None] | None = None, *,
            done_tasks: Sequence[GameOutcome] = (),
            on_outcome: Callable[[GameOutcome, Arm], None] | None = None) -> LabResult:
    """Play ``plan`` and sum it up; ``on_game(done, total, width)`` hears every finished game
    (``total`` is ``None`` with ``until``; ``width`` is the widest rate interval at the last
    until-check, ``None`` before the first).

    ``done_tasks`` are the outcomes of the first tasks, in task order, played before (a
    resumed run, ``--resume``): they are summed first, as if just played, and only the
    tasks after them are played, so the figures are those of an uninterrupted run.
    ``on_outcome(outcome, arm)`` hears each task newly played and summed, in task order
    (``--out`` writes it); not a game that stopped early, nor one played past the end.

    :raises VariantError: when the variants seat different numbers of players.
    :raises AgentError: for an unknown agent name.
    """
    arms = list(plan.arms)
    players = arms[0].variant.players
    for arm in arms[1:]:
        if arm.variant.players != players:
            raise VariantError([Diagnostic(Location(arm.path), f"{arm.label} seats {arm.variant.players} players "
                                           f"but {arms[0].label} seats {players}; compare variants "
                                           "with the same number of players", "lab-players")])
    check_agents(plan.agents, players)
    paired = [deals_agree(arms[0].variant, arm.variant) for arm in arms[1:]]
    figures = [ArmFigures(players) for _ in arms]
    pairs = [PairFigures() for _ in arms[1:]]
    total = plan.games if plan.until is None else plan.max_games
    assert total is not None
    tasks = _Tasks([arm.path for arm in arms], total, plan.seed, plan.agents, start=len(done_tasks))
    done = 0
    stopped: str | None = None
    reason = f"played the {total} games asked for"
    values: list[dict[str, float]] = []
    latest: float | None = None
    with contextlib.closing(_outcomes(done_tasks, tasks, plan)) as outcomes:  # closing stops the workers
        for outcome, new in outcomes:
            if outcome.played.stopped is not None:
                stopped = f"game {outcome.index + 1} of {arms[len(values)].label}: {outcome.played.stopped}"
                reason = "a game stopped early"
                break
            if new and on_outcome is not None:
                on_outcome(outcome, arms[len(values)])
            values.append(figures[len(values)].add(outcome.played))
            if len(values) < len(arms):
                continue
            for k, pair in enumerate(pairs, start=1):
                if paired[k - 1]:
                    pair.add(values[0], values[k])
            values = []
            done += 1
            if plan.until is not None and done % plan.check_every == 0:
                latest, label, arm_label = widest_interval(arms, figures)
                if latest < plan.until:
                    reason = (f"every rate's 95% interval is narrower than {plan.until:g} after {done} games "
                              f"(the widest: {latest:.4f}, {label}, {arm_label})")
                    total = done
            if on_game is not None:
                on_game(done, None if plan.until is not None else total, latest)
            if done >= total:
                break
    if plan.until is not None and done >= plan.max_games and total == plan.max_games:
        width, label, arm_label = widest_interval(arms, figures)
        reason = (f"reached the cap of {plan.max_games} games (--max-games) with an interval still "
                  f"{width:.4f} wide ({label}, {arm_label}), not narrower than {plan.until:g}")
    return _result(plan, arms, figures, pairs, paired, done, reason, stopped)


def _outcomes(done_tasks: Sequence[GameOutcome], tasks: _Tasks,
              plan: Plan) -> Generator[tuple[GameOutcome, bool], None, None]:
    """The outcomes of every task in task order, each with whether it was played now:
    ``done_tasks`` first, then the rest as played (closing this closes the backend's run)."""
    for outcome in done_tasks:
        yield outcome, False
    if len(tasks) <= 0:
        return
    with contextlib.closing(run_tasks(tasks, workers=plan.workers, backend=plan.backend)) as played:
        for outcome in played:
            yield outcome, True


def _result(plan: Plan, arms: list[Arm], figures: list[ArmFigures], pairs: list[PairFigures], paired: list[bool],
            done: int, reason: str, stopped: str | None) -> LabResult:
    kept = [pair if ok else None for pair, ok in zip(pairs, paired)]
    rows = figure_rows(figures, kept)
    return LabResult(arms, plan.seed, agent_names(plan.agents, arms[0].variant.players), done, figures, rows,
                     paired, reason, stopped, plan.until, widest_interval(arms, figures), pairs=kept)
