"""The playground's games: a :class:`~rummydsl.Match` per game, agents at the other seats.

A :class:`Table` is one person's game: the match, the seat they play, an agent for
every other seat, what happened since their last move as they may see it, and the
summary of each round played. :class:`Tables` keeps the games of a server in memory,
at most :data:`MAX_GAMES` of them, each forgotten :data:`MAX_AGE` seconds after it was
last used (the oldest goes first when the server is full).

Every method here is plain blocking code: the server runs it in a worker thread
(:mod:`rummydsl.web.app`), one request at a time a game (each table has a lock).

>>> from rummydsl.variant import load_variant
>>> table = Table.new(load_variant("gin_rummy"), seed=7, agents="greedy", seat=0)
>>> view = table.view()
>>> view["to_move"], view["legal"]
('P1', ['P1 draw discard', 'P1 pass'])
>>> table.act("P1 pass")["to_move"]
'P1'
>>> table.undo()["legal"]
['P1 draw discard', 'P1 pass']
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..agents import AGENT_NAMES, make_agents
from ..engine.actions import Knock, player_name
from ..engine.match import CHANCE, TERMINAL, Event, Match
from ..engine.play import failed_event
from ..errors import RummyDslError
from ..limits import MAX_ACTIONS, MAX_WEB_GAME_SECONDS, MAX_WEB_GAMES
from ..simulate import agent_names
from ..variant import Variant
from .texts import quoted

__all__ = [
    "MAX_GAMES",
    "MAX_AGE",
    "MAX_LOG",
    "MAX_SEED",
    "GameProblem",
    "Table",
    "Tables",
    "seat_of",
    "check_agent_names",
    "whole_number",
]

MAX_GAMES = MAX_WEB_GAMES
"""The most games a server keeps at once (:data:`rummydsl.limits.MAX_WEB_GAMES`)."""

MAX_AGE = MAX_WEB_GAME_SECONDS
"""Seconds after its last request that a game is forgotten (:data:`rummydsl.limits.MAX_WEB_GAME_SECONDS`)."""

MAX_LOG = 60
"""The most lines of what happened a view carries (the newest)."""

MAX_SEED = 2 ** 63 - 1
"""The largest seed a request may give."""


class GameProblem(Exception):
    """A game request that cannot be done; ``str()`` is the message, ``status`` the HTTP code."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def check_agent_names(spec: Any, seats: int) -> str:
    """The other seats' agents as a comma list of built-in names (never ``cmd:``: a
    page may not start a program on the server).

    >>> check_agent_names(None, 1), check_agent_names("random", 2)
    ('greedy', 'random')
    >>> check_agent_names("cmd:/bin/sh", 1)
    Traceback (most recent call last):
    ...
    rummydsl.web.games.GameProblem: 'agents' names built-in agents only (random, greedy, heuristic, simple, ismcts, pimc), not 'cmd:/bin/sh'
    """
    if spec is None or spec == "":
        return "greedy"
    if not isinstance(spec, str) or len(spec) > 200:
        raise GameProblem("'agents' must be a comma list of agent names such as 'greedy'")
    names = [name.strip() for name in spec.split(",") if name.strip()] or ["greedy"]
    for name in names:
        if name not in AGENT_NAMES:
            raise GameProblem(f"'agents' names built-in agents only ({', '.join(AGENT_NAMES)}), not {quoted(name, 40)}")
    return ",".join(names)


def seat_of(seat: Any, players: int) -> int:
    """The human seat a request names: ``"P2"`` or the index ``1`` (0-based); default P1.

    >>> seat_of(None, 2), seat_of("P2", 2), seat_of(1, 2)
    (0, 1, 1)
    """
    if seat is None:
        return 0
    if isinstance(seat, str) and seat[:1] in "Pp" and seat[1:].isdigit() and 1 <= int(seat[1:]) <= players:
        return int(seat[1:]) - 1
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
        return seat
    raise GameProblem(f"'seat' must be one of P1 to P{players} (or 0 to {players - 1}), not {quoted(seat)}")


def whole_number(value: Any, what: str, low: int, high: int) -> int:
    """A request's whole number ``what`` from ``low`` to ``high`` (a JSON true is not one).

    >>> whole_number(7, "seed", 0, 9)
    7
    >>> whole_number(2.5, "games", 1, 200)
    Traceback (most recent call last):
    ...
    rummydsl.web.games.GameProblem: 'games' must be a whole number from 1 to 200, not 2.5
    """
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise GameProblem(f"'{what}' must be a whole number from {low} to {high}, not {quoted(value)}")


@dataclass
class Table:
    """One person's game against agents."""

    match: Match
    seat: int
    agents: list[Any]
    names: list[str]
    seed: int
    one_hand: bool = False
    """The game ends with its first round (a single hand)."""
    applied: int = 0
    """How many :meth:`Match.apply` calls the match has had."""
    marks: list[int] = field(default_factory=list)
    """``applied`` before each of the person's decisions (what undo goes back to)."""
    log: list[tuple[int, str]] = field(default_factory=list)
    """What happened, as the person may see it: (applied before it, the line)."""
    rounds: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """Each round played: (applied before its last action, its summary)."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    used: float = field(default_factory=time.monotonic)

    @classmethod
    def new(cls, variant: Variant, *, seed: Any = None, agents: Any = None, seat: Any = None,
            players: Any = None, one_hand: bool = False) -> Table:
        """A new game of ``variant``, the agents' first moves played.

        :raises GameProblem: for a seed, seat, players or agents the request got wrong.
        """
        from ..variant import with_players

        if players is not None:
            if not isinstance(players, int) or isinstance(players, bool):
                raise GameProblem(f"'players' must be a whole number, not {players!r}"[:200])
            variant = with_players(variant, players)
        n = variant.players
        human = seat_of(seat, n)
        spec = check_agent_names(agents, n - 1)
        seed = secrets.randbelow(2 ** 31) if seed is None else whole_number(seed, "seed", 0, MAX_SEED)
        seeds = random.Random(seed)
        deal_seed = seeds.getrandbits(64)
        others = make_agents(spec, n - 1, random.Random(seeds.getrandbits(64)))
        names = agent_names(spec, n - 1)
        seats: list[Any] = others[:human] + [None] + others[human:]
        labels = names[:human] + ["you"] + names[human:]
        table = cls(Match.new(variant, seed=deal_seed, history=True), human, seats, labels, seed, one_hand)
        table._advance()
        return table

    # ------------------------------------------------------------------ playing

    @property
    def over(self) -> bool:
        """The game is over (or, for a single hand, its round is)."""
        m = self.match
        return m.to_move == TERMINAL or (self.one_hand and bool(m.game.results))

    def _apply(self, action: Any) -> Event | None:
        """Apply ``action`` and tell what it did; None for the action after which the game
        could not go on (a total past its limit, a game past its rounds: played, then
        stopped, ``match.stalled`` saying why; undo takes it back).

        :raises RummyDslError: for an action refused (the match unchanged).
        """
        m = self.match
        before = m.round
        mover = m.to_move
        try:
            event: Event | None = m.apply(action)
        except RummyDslError as problem:
            if m.stalled is None or m.to_move != TERMINAL:
                raise
            event = failed_event(problem)  # the round it scored, if it did, is told all the same
        self.applied += 1
        at = self.applied - 1
        if event is not None:
            self._tell(at, mover, event)
            if event.result is not None:
                self.rounds.append((at, _summary(before, event, self.seat, m)))
        if m.stalled is not None:
            self.log.append((at, f"the game stopped: {m.stalled}"))
        return event

    def _tell(self, at: int, mover: int, event: Event) -> None:
        seen = event.seen_by(self.seat)
        for action in (seen.action, *seen.automatic):
            if mover == CHANCE:
                continue
            line = _told(action, self.seat)
            if line:
                self.log.append((at, line))
        if seen.drawn and mover == self.seat:
            self.log.append((at, "you drew " + " ".join(str(c) for c in seen.drawn)))
        if event.result is not None:
            r = event.result
            who = f" by {player_name(r.ender)}" if r.ender is not None else ""
            self.log.append((at, f"round over: {r.ending.replace('_', ' ')}{who}"
                                 + (" (undercut)" if r.undercut else "")))
        if event.game is not None:
            self.log.append((at, f"game over: {player_name(event.game.winner)} wins"))
        del self.log[:-MAX_LOG]

    def _advance(self) -> None:
        """Play the agents' moves until it is the person's move or the game is over."""
        m = self.match
        for _ in range(MAX_ACTIONS):
            if self.over or m.to_move == self.seat:
                return
            seat = m.to_move
            if seat == CHANCE:  # a seeded match deals itself; kept for a match that does not
                outcomes = m.chance_outcomes()
                self._apply(outcomes[0][0])
                continue
            try:
                self._apply(self.agents[seat].act(m.view(seat)))
            except RummyDslError as problem:
                raise GameProblem(f"{player_name(seat)} ({self.names[seat]}) could not play: {problem}",
                                  500) from None
        raise GameProblem(f"the agents played {MAX_ACTIONS:,} moves without reaching your turn", 500)

    def act(self, action: Any) -> dict[str, Any]:
        """Play the person's ``action`` (its notation), then the agents' moves; the new view.

        :raises GameProblem: for an action refused (the match unchanged), with the reason.
        """
        if not isinstance(action, str) or not action.strip() or len(action) > 400:
            raise GameProblem("'action' must be an action's notation, such as 'P1 discard 7H'")
        if self.over:
            raise GameProblem("the game is over: start a new one")
        if self.match.to_move != self.seat:
            raise GameProblem(f"it is not your move (it is {player_name(self.match.to_move)}'s)")
        mark = self.applied
        try:
            self._apply(action.strip())
        except RummyDslError as refused:
            raise GameProblem(f"refused: {refused}") from None
        self.marks.append(mark)
        self._advance()
        return self.view()

    def undo(self) -> dict[str, Any]:
        """Take back the person's last decision and every move played since; the new view.

        :raises GameProblem: when there is nothing of theirs to take back.
        """
        if not self.marks:
            raise GameProblem("nothing to undo: you have not moved yet")
        mark = self.marks.pop()
        while self.applied > mark:
            self.match.undo()
            self.applied -= 1
        self.log = [(at, line) for at, line in self.log if at < mark]
        self.rounds = [(at, summary) for at, summary in self.rounds if at < mark]
        return self.view()

    # ------------------------------------------------------------------ what the page shows

    def view(self) -> dict[str, Any]:
        """The person's view: their observation's JSON plus ``legal``, ``to_move``,
        ``over``, and for the page ``log``, ``rounds``, ``can_undo``, ``players``."""
        m = self.match
        out = m.observation(self.seat).to_json()
        over = self.over
        out["legal"] = [] if over else list(out.get("legal", []))
        out["over"] = over
        if over and m.to_move != TERMINAL:
            out["to_move"] = "over"
        out["seat"] = player_name(self.seat)
        out["players"] = [{"seat": player_name(p), "agent": self.names[p]} for p in range(m.players)]
        out["log"] = [line for _, line in self.log]
        out["rounds"] = [summary for _, summary in self.rounds]
        out["can_undo"] = bool(self.marks)
        out["one_hand"] = self.one_hand
        out["seed"] = self.seed
        if m.stalled is not None:
            out["stalled"] = m.stalled
        return out


def _told(action: Any, seat: int) -> str:
    """One action as the person sees it: another's knock without its face-down discard."""
    if isinstance(action, Knock) and action.card is not None and action.player != seat:
        return f"{player_name(action.player)} knocks, discarding a card face down"
    return str(action)


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def _summary(before: Any, event: Event, seat: int, m: Match) -> dict[str, Any]:
    """A round's end as the person sees it: everyone's melds, hand, deadwood and points
    (a void round shows only their own hand, as the terminal does)."""
    result = event.result
    assert result is not None
    rnd = before.copy()  # the round as it ended: the match has dealt the next one already
    try:
        rnd.apply(event.action)
        for forced in event.automatic:
            rnd.apply(forced)
    except RummyDslError:  # not expected; the summary then shows the round before its last move
        rnd = before
    seats = []
    for p in range(rnd.players):
        one: dict[str, Any] = {"seat": player_name(p), "you": p == seat,
                               "points": result.points[p], "deadwood": result.deadwoods[p]}
        if p == rnd.sat_out:
            one["sat_out"] = True
        one["melds"] = [_cards(meld.cards) for meld in rnd.table[p]]
        if result.void and p != seat:
            one["hand"] = None
            one["deadwood"] = None
        else:
            one["hand"] = _cards(rnd.hands[p])
            one["arranged"] = _arranged(m, one["hand"])
        seats.append(one)
    scores = m.game.scores
    return {"round": rnd.number, "ending": result.ending.replace("_", " "),
            "ender": None if result.ender is None else player_name(result.ender),
            "undercut": result.undercut, "void": result.void, "seats": seats,
            "scores": {player_name(p): scores[p] for p in range(len(scores))}}


def _arranged(m: Match, hand: list[str]) -> dict[str, Any] | None:
    """A hand left at a round's end in its best melds and its unmatched cards (what
    the deadwood was counted from), or None past the solver."""
    from ..engine.round import meld_rules
    from ..melds import melds_report

    try:
        report = melds_report(meld_rules(m.variant), hand, m.variant.deal.hand_size)
    except RummyDslError:
        return None
    return {"melds": report.get("melds", []), "unmatched": report.get("unmatched", [])}


class Tables:
    """The games of a server, in memory: at most ``limit``, each forgotten ``age`` seconds
    after its last use. ``clock`` is for tests (a monotonic clock by default)."""

    def __init__(self, limit: int = MAX_GAMES, age: float = MAX_AGE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.age = age
        self.clock = clock
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tables)

    def _forget_old(self) -> None:
        now = self.clock()
        for key in [k for k, t in self._tables.items() if now - t.used > self.age]:
            del self._tables[key]

    def add(self, table: Table) -> str:
        """Keep ``table``; its new id (forgetting the least recently used game when full)."""
        with self._lock:
            self._forget_old()
            while len(self._tables) >= self.limit:
                oldest = min(self._tables, key=lambda k: self._tables[k].used)
                del self._tables[oldest]
            key = secrets.token_urlsafe(12)
            table.used = self.clock()
            self._tables[key] = table
            return key

    def get(self, key: str) -> Table:
        """The game of id ``key``.

        :raises GameProblem: 404 for an id unknown (or forgotten).
        """
        with self._lock:
            self._forget_old()
            table = self._tables.get(key)
            if table is None:
                raise GameProblem(f"no game {quoted(key, 40)}: it never was, or it was forgotten after "
                                  f"{int(self.age // 60)} minutes unused; start a new one", 404)
            table.used = self.clock()
            return table
