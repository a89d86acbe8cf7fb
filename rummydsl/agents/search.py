"""Search agents: information-set Monte Carlo tree search (``ismcts``) and perfect-information
Monte Carlo (``pimc``), for every variant.

Both see only their observation. Each iteration (ISMCTS) or sample (PIMC) imagines the
cards the seat cannot see through :meth:`Observation.sample
<rummydsl.engine.observe.Observation.sample>` and :meth:`Match.resample
<rummydsl.engine.match.Match.resample>`: the stock, the unseen cards of the other
hands and a face-down knock discard dealt again, consistently with all the seat saw.
The search stays inside the round in play: a playout runs to the round's end or for
``depth`` decisions, whichever is first, and is valued by :func:`values`.

- :class:`ISMCTSAgent` is single-observer ISMCTS (Cowling, Powley and Whitehouse,
  2012): a tree over the seat's information sets whose edges are actions by their
  notation, each node the value of the player who moved into it; a child is chosen by
  UCB1 among the children legal in this determinisation, with the count of times it
  was available in place of the parent's visits; one node is added per iteration.
  With ``focus=1`` (:data:`DEFAULT_FOCUS`) the root holds only the policy's move and
  one move of each other kind (:func:`~rummydsl.agents.focus.candidates`: knock or
  discard, take or draw, take or decline, meld or done), each played in turn in every
  sampled world so that their values pair world by world, and a node below the root
  tries the policy's move first and another only every :data:`DEFAULT_WIDEN` visits;
  the best root move is played if its paired differences with the policy's beat
  :data:`DEFAULT_MARGIN` by two standard errors, else the policy's move. With
  ``focus=0`` every legal action is a root child chosen by UCB1, and the most visited
  is played if it beats the policy's move clearly (:data:`DEFAULT_MARGIN`,
  :data:`MIN_VISITS`; unpaired).
- :class:`PIMCAgent` plays every legal action in each of ``samples`` determinisations
  and takes the one whose playouts are worth most on average.

Seeded by the generator each gets (:func:`~rummydsl.agents.spec.make_agents`), so the
same seed plays the same game; a time budget (``ms``) makes the count of iterations
depend on the machine, so only ``iters``/``samples`` runs reproduce.

>>> import random
>>> from rummydsl.engine.match import Match
>>> m = Match.new("gin_rummy", seed=4)
>>> agent = ISMCTSAgent(random.Random(1), iters=30)
>>> str(agent.act(m.view(m.to_move))) == str(ISMCTSAgent(random.Random(1), iters=30).act(m.view(m.to_move)))
True
>>> agent.stats.iterations
30
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..engine.actions import Action
from ..engine.observe import Observation
from ..errors import RummyDslError
from ..limits import MAX_HAND
from .basic import GreedyAgent
from .fast import FastAgent
from .focus import candidates
from .heuristic import HeuristicAgent

if TYPE_CHECKING:
    from ..engine.match import Match

__all__ = ["ISMCTSAgent", "PIMCAgent", "SearchStats", "values", "DEFAULT_ITERS", "DEFAULT_SAMPLES",
           "DEFAULT_DEPTH", "DEFAULT_C", "DEFAULT_SCALE", "DEFAULT_MARGIN", "MIN_VISITS", "MAX_TREE_STEPS",
           "DEFAULT_FOCUS", "DEFAULT_WIDEN"]

DEFAULT_ITERS = 100
"""ISMCTS iterations per move when neither ``iters`` nor ``ms`` is given."""
DEFAULT_SAMPLES = 12
"""PIMC determinisations per move when neither ``samples`` nor ``ms`` is given."""
DEFAULT_DEPTH = 10
"""Decisions a playout plays past the tree before it is valued (``depth``)."""
DEFAULT_C = 0.7
"""UCB1's exploration constant (``c``), for values between 0 and 1."""
DEFAULT_SCALE = 20.0
"""Points (or deadwood) at which a value is about 0.88 of the way to a sure win (``scale``)."""
DEFAULT_MARGIN = 0.02
"""How much better on average (values between 0 and 1) the searched move must be than the
playout policy's own move, beyond two standard errors of the difference, to be played
instead of it (``margin``): without this, noise in few playouts makes a search agent
play far worse than its policy (measured: docs/agents.md)."""
MIN_VISITS = 8
"""The playouts each of two ISMCTS root children needs before one may replace the other
(a standard error read from fewer is too unreliable: measured, docs/agents.md)."""
MAX_TREE_STEPS = 200
"""Moves one ISMCTS iteration follows down the tree at most (a safeguard, never reached in play)."""
DEFAULT_FOCUS = 1
"""Whether ISMCTS compares only one move of each kind at the root (``focus=1``:
:mod:`~rummydsl.agents.focus`, the root's moves tried in turn in shared worlds, the tree
below widened from the policy's move) or every legal action by UCB1 (``focus=0``, the
first version)."""
DEFAULT_WIDEN = 8
"""With ``focus=1``: the visits a node below the root needs per child before it tries a
move other than the policy's (progressive widening; ``widen``)."""


@dataclass
class SearchStats:
    """What the last searches cost: for benchmarks and ``tournament``'s report."""

    moves: int = 0
    """Moves searched (a move with one legal action is played without search)."""
    iterations: int = 0
    """ISMCTS iterations or PIMC playouts of the last move."""
    total_iterations: int = 0
    steps: int = 0
    """Moves applied to determinised matches, tree and playouts, over all searches."""
    seconds: float = 0.0
    """CPU seconds spent searching."""


def values(m: Match, scale: float) -> list[float]:
    """How good the state of ``m`` is for each seat, between 0 and 1 (0.5: even).

    At the round's end: its points, each seat's less the mean of the others' (the sign
    turned where the lowest total wins); before: the mean deadwood of the others less the
    seat's own, as the meld solver counts it (a seat sitting out is left out). Either
    difference ``x`` gives ``0.5 + 0.5 * tanh(x / scale)``.
    """
    rnd = m.round
    n = m.players
    seated = [p for p in range(n) if p != rnd.sat_out]
    result = rnd.result
    if result is not None:
        sign = -1.0 if m.variant.game.winner == "lowest" else 1.0
        figures = [sign * p for p in result.points]
    else:
        rules = rnd.rules
        values_of = m.variant.card_values
        figures = []
        for p in range(n):
            hand = rnd.hands[p]
            if p not in seated:
                figures.append(0.0)
            elif len(hand) > MAX_HAND:
                figures.append(-float(sum(values_of[c.id] for c in hand)))
            else:
                figures.append(-float(rules.min_deadwood(hand, discard=len(hand) > rnd.hand_size)))
    out = [0.5] * n
    if len(seated) < 2:
        return out
    total = sum(figures[p] for p in seated)
    for p in seated:
        diff = figures[p] - (total - figures[p]) / (len(seated) - 1)
        out[p] = 0.5 + 0.5 * math.tanh(diff / scale)
    return out


class _Search:
    """What both search agents share: settings, playouts, the root's actions."""

    def __init__(self, rng: random.Random, *, ms: float | None = None, rollout: str = "heuristic",
                 depth: int = DEFAULT_DEPTH, scale: float = DEFAULT_SCALE, margin: float = DEFAULT_MARGIN) -> None:
        self.rng = rng
        self.margin = margin
        self.ms = ms
        self.rollout = rollout
        self.depth = depth
        self.scale = scale
        self.stats = SearchStats()
        self.anchor: GreedyAgent = GreedyAgent() if rollout == "greedy" else HeuristicAgent()
        """The move a search must beat by ``margin`` (and the playout policy, but with ``random``
        and ``fast`` playouts)."""
        self.fast = FastAgent() if rollout == "fast" else None

    def _policy(self, m: Match, seat: int) -> Action:
        """The playout's move for ``seat`` in ``m``."""
        forced = m.round.automatic()
        if forced is not None:
            return forced
        if self.fast is not None:
            return self.fast.act(m.view(seat))
        if self.rollout != "random":
            return self.anchor.act(m.view(seat))
        legal = m.view(seat).legal_actions()
        return legal[self.rng.randrange(len(legal))]

    def _playout(self, m: Match) -> list[float]:
        """Play ``m`` on by the playout policy for :attr:`depth` decisions or to the round's
        end, then value it (a playout the engine refuses is valued where it stopped)."""
        steps = 0
        while steps < self.depth:
            seat = m.to_move
            if seat < 0 or m.round.result is not None:
                break
            try:
                m.apply(self._policy(m, seat))
            except RummyDslError:
                break
            steps += 1
        self.stats.steps += steps
        return values(m, self.scale)

    def _over_budget(self, started: float, done: int, count: int | None) -> bool:
        if count is not None and done >= count:
            return True
        return self.ms is not None and (time.process_time() - started) * 1000 >= self.ms


class _Node:
    __slots__ = ("children", "visits", "total", "squares", "avail", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail = 0
        self.player = player


def _back_up(path: Sequence[_Node], value: Sequence[float]) -> None:
    """Count a playout's values at each node of ``path``, for the player who moved into it."""
    for one in path:
        one.visits += 1
        one.total += value[one.player]
        one.squares += value[one.player] ** 2


def _legal(m: Match, seat: int) -> list[tuple[str, Action]]:
    """The actions of ``seat`` in ``m`` by their notation (a forced move alone)."""
    forced = m.round.automatic()
    if forced is not None:
        return [(str(forced), forced)]
    return [(str(a), a) for a in m.view(seat).legal_actions()]


class ISMCTSAgent(_Search):
    """Single-observer information-set MCTS (see the module docstring).

    ``iters``: iterations per move (default :data:`DEFAULT_ITERS`; with ``ms`` alone, as
    many as fit); ``ms``: a CPU-time budget per move in milliseconds; ``rollout``: the
    playout policy, ``heuristic`` (the default), ``greedy``, ``fast``
    (:class:`~rummydsl.agents.fast.FastAgent`, cheaper) or ``random``; ``depth``: decisions per playout; ``c``: UCB1's
    exploration constant; ``scale``: see :func:`values`; ``visits``: the playouts each of
    the searched and the policy's move needs before one replaces the other (at least 2).
    With ``iters`` too few for that (``focus=1``: fewer than ``visits`` worlds for each
    root move; ``focus=0``: fewer than the legal actions and twice ``visits`` less one,
    each root child being tried once first), the policy's move is played unsearched.
    ``focus``: 1 (the default) to compare one move of each kind in shared worlds, 0
    for every legal action by UCB1 (module docstring); ``widen``: with ``focus=1``, the
    visits a node below the root needs per child before it tries another move.
    With ``focus=1`` the iterations are whole worlds (``iters`` rounded up to a
    multiple of the root's moves).
    """

    def __init__(self, rng: random.Random, *, iters: int | None = None, ms: float | None = None,
                 rollout: str = "heuristic", depth: int = DEFAULT_DEPTH, c: float = DEFAULT_C,
                 scale: float = DEFAULT_SCALE, margin: float = DEFAULT_MARGIN, visits: int = MIN_VISITS,
                 focus: int = DEFAULT_FOCUS, widen: int = DEFAULT_WIDEN) -> None:
        super().__init__(rng, ms=ms, rollout=rollout, depth=depth, scale=scale, margin=margin)
        self.iters = iters if iters is not None or ms is not None else DEFAULT_ITERS
        self.c = c
        self.visits = max(2, visits)
        self.focus = bool(focus)
        self.widen = max(1, widen)

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        if self.focus:
            return self._focused(observation, legal)
        if self.ms is None and self.iters is not None and self.iters < len(legal) + 2 * (self.visits - 1):
            # every root child is tried once before any is tried again (the seat's actions are
            # the same in every world), so no child could reach ``visits`` beside the policy's
            return self.anchor.act(observation)
        started = time.process_time()
        seat = observation.player
        base = observation.sample(self.rng)
        root = _Node(seat)
        done = 0
        while not self._over_budget(started, done, self.iters) or done == 0:
            self._iterate(base.resample(seat, self.rng), root)
            done += 1
        self.stats.moves += 1
        self.stats.iterations = done
        self.stats.total_iterations += done
        self.stats.seconds += time.process_time() - started
        by_text = {str(a): a for a in legal}
        best = max((k for k in root.children if k in by_text),
                   key=lambda k: (root.children[k].visits, root.children[k].total), default=None)
        if best is None:
            return legal[0]
        anchor = self.anchor.act(observation)
        kept = root.children.get(str(anchor))
        chosen = root.children[best]
        if kept is not None and not _clearly_better(chosen, kept, self.margin, self.visits):
            return anchor
        return by_text[best]

    def _focused(self, observation: Observation, legal: list[Action]) -> Action:
        """``focus=1``: the policy's move against one move of each other kind
        (:func:`~rummydsl.agents.focus.candidates`), each played in every sampled world in
        turn (so their values pair, world by world), the tree below each grown by
        :meth:`_descend`; the best replaces the policy's move only if the paired
        differences beat ``margin`` by two standard errors over at least ``visits`` worlds."""
        anchor = self.anchor.act(observation)
        moves = candidates(observation, anchor, legal)
        if len(moves) < 2 or (self.ms is None and self.iters is not None
                              and self.iters < len(moves) * self.visits):
            return anchor
        started = time.process_time()
        seat = observation.player
        base = observation.sample(self.rng)
        roots = [_Node(seat) for _ in moves]
        worth: list[list[float]] = [[] for _ in moves]
        done = 0
        while not self._over_budget(started, done, self.iters) or done == 0:
            world = base.resample(seat, self.rng)
            for k, move in enumerate(moves):
                m = world.copy() if k + 1 < len(moves) else world
                try:
                    m.apply(move)
                except RummyDslError:
                    worth[k].append(values(m, self.scale)[seat])
                    continue
                self.stats.steps += 1
                worth[k].append(self._descend(m, roots[k])[seat])
            done += len(moves)
        self.stats.moves += 1
        self.stats.iterations = done
        self.stats.total_iterations += done
        self.stats.seconds += time.process_time() - started
        best = max(range(len(moves)), key=lambda k: (sum(worth[k]), -k))
        if best == 0 or len(worth[0]) < self.visits:
            return anchor
        pairs = [x - y for x, y in zip(worth[best], worth[0])]
        return moves[best] if _beats(pairs, self.margin) else anchor

    def _descend(self, m: Match, node: _Node) -> list[float]:
        """One iteration below a root move: down the tree by UCB1 among the children legal in
        this world, adding a child where a node has fewer than one per :attr:`widen` visits
        (the policy's move first, then one not tried, at random), then a playout; the values
        are backed up from ``node`` on."""
        path = [node]
        c, rng = self.c, self.rng
        for _ in range(MAX_TREE_STEPS):
            seat = m.to_move
            if seat < 0 or m.round.result is not None:
                break
            legal = _legal(m, seat)
            children = node.children
            tried: list[str] = []
            untried: list[str] = []
            for key, _action in legal:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
                    tried.append(key)
            actions = dict(legal)
            grow: str | None = None
            if untried and (not tried or len(tried) < 1 + node.visits // self.widen):
                first = str(self._policy(m, seat)) if len(legal) > 1 else legal[0][0]
                grow = first if first in actions and first not in children else untried[rng.randrange(len(untried))]
                child = children[grow] = _Node(seat)
                child.avail = 1
                chosen = grow
            else:
                chosen = _upper_bound_pick(children, tried, c)
                child = children[chosen]
            try:
                m.apply(actions[chosen])
            except RummyDslError:
                break
            self.stats.steps += 1
            path.append(child)
            node = child
            if grow is not None:
                break
        value = self._playout(m)
        _back_up(path, value)
        return value

    def _iterate(self, m: Match, root: _Node) -> None:
        node = root
        path: list[_Node] = []
        c, rng = self.c, self.rng
        for _ in range(MAX_TREE_STEPS):
            seat = m.to_move
            if seat < 0 or m.round.result is not None:
                break
            legal = _legal(m, seat)
            children = node.children
            untried = []
            for key, _action in legal:
                child = children.get(key)
                if child is None:
                    untried.append(key)
                else:
                    child.avail += 1
            actions = dict(legal)
            if untried:
                key = untried[rng.randrange(len(untried))]
                child = children[key] = _Node(seat)
                child.avail = 1
                chosen = key
            else:
                chosen = _upper_bound_pick(children, [key for key, _action in legal], c)
                child = children[chosen]
            try:
                m.apply(actions[chosen])
            except RummyDslError:
                break
            self.stats.steps += 1
            path.append(child)
            node = child
            if untried:
                break
        _back_up(path, self._playout(m))
        root.visits += 1


def _upper_bound_pick(children: dict[str, _Node], keys: Sequence[str], c: float) -> str:
    """The key among ``keys`` (each a child of ``children``) with the highest upper
    confidence bound (mean value plus ``c`` times the availability term), the first on a
    tie; a child never backed up (its move failed to apply) counts as unexplored."""
    log, sqrt = math.log, math.sqrt
    chosen, best_score = keys[0], -1.0
    for key in keys:
        one = children[key]
        score = one.total / one.visits + c * sqrt(log(one.avail) / one.visits) if one.visits else 2.0
        if score > best_score:
            chosen, best_score = key, score
    return chosen


class PIMCAgent(_Search):
    """Perfect-information Monte Carlo: each legal action played out in each of ``samples``
    determinisations (default :data:`DEFAULT_SAMPLES`; with ``ms`` alone, as many as fit),
    the best on average taken (ties: the first listed). ``rollout``, ``depth`` and ``scale``
    as for :class:`ISMCTSAgent`."""

    def __init__(self, rng: random.Random, *, samples: int | None = None, ms: float | None = None,
                 rollout: str = "heuristic", depth: int = DEFAULT_DEPTH, scale: float = DEFAULT_SCALE,
                 margin: float = DEFAULT_MARGIN) -> None:
        super().__init__(rng, ms=ms, rollout=rollout, depth=depth, scale=scale, margin=margin)
        self.samples = samples if samples is not None or ms is not None else DEFAULT_SAMPLES

    def act(self, observation: Observation) -> Action:
        legal = list(observation.legal_actions())
        if len(legal) == 1:
            return legal[0]
        started = time.process_time()
        seat = observation.player
        base = observation.sample(self.rng)
        totals = [0.0] * len(legal)
        worlds: list[list[float]] = [[] for _ in legal]
        done = 0
        while not self._over_budget(started, done, self.samples) or done == 0:
            world = base.resample(seat, self.rng)
            for k, action in enumerate(legal):
                m = world.copy()
                try:
                    m.apply(action)
                except RummyDslError:
                    continue
                self.stats.steps += 1
                worth = self._playout(m)[seat]
                totals[k] += worth
                worlds[k].append(worth)
            done += 1
        self.stats.moves += 1
        self.stats.iterations = done * len(legal)
        self.stats.total_iterations += done * len(legal)
        self.stats.seconds += time.process_time() - started
        best = max(range(len(legal)), key=lambda k: (totals[k], -k))
        anchor = self.anchor.act(observation)
        at = next((k for k, a in enumerate(legal) if str(a) == str(anchor)), None)
        if at is not None and best != at:
            pairs = [x - y for x, y in zip(worlds[best], worlds[at])]  # the same worlds: paired
            if not _beats(pairs, self.margin):
                return legal[at]
        return legal[best]


def _beats(differences: Sequence[float], margin: float) -> bool:
    """Whether the mean of ``differences`` exceeds ``margin`` by two standard errors."""
    n = len(differences)
    if n < 2:
        return False
    mean = sum(differences) / n
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1)
    return mean - margin > 2 * math.sqrt(variance / n)


def _clearly_better(chosen: _Node, kept: _Node, margin: float, visits: int = MIN_VISITS) -> bool:
    """Whether ``chosen``'s mean value exceeds ``kept``'s by ``margin`` and two standard
    errors of the difference (values from different sampled worlds: unpaired)."""
    if chosen is kept:
        return False
    if chosen.visits < visits or kept.visits < visits:
        return False
    spread = 0.0
    for node in (chosen, kept):
        mean = node.total / node.visits
        variance = max(0.0, (node.squares - node.visits * mean * mean) / (node.visits - 1))
        spread += variance / node.visits
    gap = chosen.total / chosen.visits - kept.total / kept.visits
    return gap - margin > 2 * math.sqrt(spread)

