"""The play loop: a match played to its end by agents, one event at a time.

:func:`play` is the one loop every consumer runs (simulate and the lab through
:func:`rummydsl.record.run_game`, records and replay, saves, ``check --play``, the
terminal, the golden playthroughs): it asks ``agents[seat].act(match.view(seat))``
for each real decision, plays the moves nobody decides itself (a defender's ``done``
after gin, the next round's deal: :meth:`Match.apply <rummydsl.engine.match.Match.apply>`),
and yields each :class:`~rummydsl.engine.match.Event` in order.

docs/engine.md ("The play loop") has a worked example, tested with the docs.

An agent may answer :class:`TakeBack` instead of an action: the loop takes the match
back to that seat's previous decision (every move since, the other seats' and the
deals included) and asks it again, yielding a :class:`TakenBack` first; that needs a
match that keeps its history (``Match.new(..., history=True)``).

:func:`play_round` and :func:`play_game` are the loop over a :class:`Round` or a
:class:`Game` played in place (:meth:`Match.playing
<rummydsl.engine.match.Match.playing>`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, cast

from ..errors import AgentError, ExpressionError, MeldError, RummyDslError, StalledRoundError
from ..limits import MAX_ACTIONS
from .actions import Action, player_name
from .catalogue import ONE_ID_ACTIONS
from .match import CHANCE, TERMINAL, Event, Match
from .match_step import decide
from .observe import Observation

if TYPE_CHECKING:
    from .game import Game, GameResult
    from .round import Round, RoundResult

__all__ = ["play", "TakeBack", "TakenBack", "failed_event", "play_round", "play_game", "MAX_ACTIONS"]


@dataclass(frozen=True)
class TakeBack:
    """An agent's answer that takes back its previous decision (and all played since).

    :func:`play` undoes the match to just before that seat's previous decision and asks
    the seat again. Refused (see :func:`play`) where the seat has no earlier decision or
    the match keeps no history.
    """

    def __str__(self) -> str:
        return "take back"


@dataclass(frozen=True)
class TakenBack:
    """What :func:`play` yields when a seat took back: who, and how many applies were undone."""

    player: int
    undone: int
    """How many :meth:`Match.apply` calls were taken back (decisions, automatic moves, chance outcomes)."""


def failed_event(problem: BaseException) -> Event | None:
    """The event of the action whose round was played and scored before the game refused
    to go on (``problem`` raised by :meth:`Game.next_round`: a total past its limit, a
    ``deal.sit_out`` that failed, a game past its round cap), else None. A record writes
    it before saying why the game stopped, as it did before the loop was one."""
    event = getattr(problem, "event", None)
    return event if isinstance(event, Event) else None


def play(match: Match, agents: Sequence[Any], *, max_actions: int = MAX_ACTIONS,
         chance: random.Random | None = None, take_back: bool = True) -> Iterator[Event | TakenBack]:
    """Play ``match`` to its end, yielding each event: the agents' decisions, and the
    moves nobody decides (a round's automatic first move is its own event).

    Each agent sees only its own observation (``match.view(seat)``). Stop iterating to
    stop the game where it stands. ``chance``: the generator that draws chance outcomes
    for a match with ``chance="explicit"`` (a seeded match deals its own cards).
    ``take_back=False`` refuses every :class:`TakeBack` (a game being recorded: a record
    holds no taken-back move).

    :raises AgentError: when an agent's action is refused (the match stays as it was),
        naming the seat and the action; or a :class:`TakeBack` is refused (the seat has no
        earlier decision, or the match keeps no history).
    :raises ExpressionError: when a formula of the variant fails while scoring (the
        variant's fault, not the agent's: an integer past its limit, a division by zero);
        raised by a round's end, :func:`failed_event` gives that last action's event.
    :raises MeldError: the meld solver's work bound, naming the variant, round and seat.
    :raises StalledRoundError: if a round reaches ``max_actions`` actions without ending,
        or cannot go on: nobody may act though it is not over (a variant broken in play).
    :raises StalledGameError: if the game runs past its round cap.
    """
    return cast("Iterator[Event | TakenBack]", _play(match, agents, max_actions, chance, take_back, True))


def _play(match: Match, agents: Sequence[Any], max_actions: int, chance: random.Random | None, take_back: bool,
          events: bool) -> Iterator[Event | TakenBack | None]:
    """:func:`play`; with ``events`` False it yields None for a decision that does not end
    a round (the step works out no event: which cards were drawn, the automatic moves), for
    the loops that read no events (:func:`play_game`, :func:`play_round` without ``on_action``)."""
    variant = match.variant
    viewed: Round | None = None
    views: list[Observation] = []
    decisions: list[tuple[int, int]] = []
    """(seat, applies before it) of each decision made, for taking back."""
    applied = 0
    """How many applies the match has had since the loop began (kept with history only)."""
    history = match._history
    settled: Round | None = None
    """The round the last decision was played on, if it goes on: the step asked its
    automatic move until there was none (:func:`~.match_step.engine_step`), so the loop
    need not ask again while it has as many actions (``settled_at``)."""
    settled_at = -1
    while True:
        s = match._s
        rnd = s.round  # (Match.round)
        game = s.game  # Match.to_move, inline (asked every step):
        if game.result is not None or game.stalled is not None:
            seat = TERMINAL
        elif s.choose_dealer or s.dealing is not None:
            seat = CHANCE
        else:
            got = rnd.to_move
            seat = TERMINAL if got is None else got
        if seat < 0:  # (a seat is 0 or more)
            if seat == CHANCE:
                if chance is None:
                    raise ValueError("this match deals its cards as chance outcomes: give play() a "
                                     "random.Random as chance=")
                outcomes = match.chance_outcomes()
                pick = chance.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
                yield match.apply(pick)
                applied += 1
                continue
            assert seat == TERMINAL
            if rnd.result is None and not match.game.over and match.game.stalled is None:
                raise StalledRoundError(f"round {rnd.number} cannot go on: it is not over, but nobody is to move")
            return
        if rnd is not viewed:
            viewed = rnd
            views = [Observation(rnd, p) for p in range(rnd.players)]
        try:
            stalled = not rnd.listed()
        except MeldError as problem:
            raise MeldError(f"{problem} ({variant.id}: round {rnd.number}, {player_name(seat)} "
                            f"to move, holding {len(rnd.hands[seat])} cards)") from None
        if stalled:
            raise StalledRoundError(f"round {rnd.number} cannot go on: it is not over, but "
                                    f"{player_name(seat)} has no legal action")
        played = len(rnd.actions)
        if played >= max_actions:
            raise StalledRoundError(
                f"{variant.id}: round {rnd.number} ran past {max_actions:,} actions without ending "
                f"({player_name(seat)} to move, in the {rnd.phase.value} phase)")
        forced = None if rnd is settled and played == settled_at else rnd.automatic()
        try:
            answer: Action | TakeBack = forced if forced is not None else agents[seat].act(views[seat])
        except MeldError as problem:  # the meld solver's work bound (MAX_MELD_WORK): say where in the game
            raise MeldError(f"{problem} ({variant.id}: round {rnd.number}, {player_name(seat)} to move, "
                            f"holding {len(rnd.hands[seat])} cards)") from None
        engine = type(answer) in ONE_ID_ACTIONS
        if not engine and isinstance(answer, TakeBack):
            undone = _take_back(match, seat, decisions if take_back else None, applied, agents[seat])
            if undone:
                applied -= undone
                yield TakenBack(seat, undone)
            continue
        if TYPE_CHECKING:
            assert not isinstance(answer, TakeBack)
        try:
            if engine and not match._s.pending:  # an engine action: Match.apply's own path
                event = decide(match, seat, answer, events)
                if match._s.round is rnd and rnd.result is None:
                    settled, settled_at = rnd, len(rnd.actions)
            else:
                event = match.apply(answer)
        except ExpressionError:
            raise
        except MeldError as problem:  # refused: the round is as it was
            raise MeldError(f"{problem} ({variant.id}: round {rnd.number}, {player_name(seat)} played "
                            f"{str(answer)!r}, holding {len(rnd.hands[seat])} cards)") from None
        except RummyDslError as problem:
            if failed_event(problem) is not None:
                raise  # the action was played; the game refused to go on (a round's cap, a total)
            raise AgentError(player_name(seat), f"played {str(answer)!r}, which the engine refused: "
                             f"{getattr(problem, 'reason', problem)}", problem) from None
        if history:
            if forced is None and len(rnd.listed()) > 1:  # a choice (a seat's only move is no decision)
                decisions.append((seat, applied))
            applied += 1
        yield event


NOTHING_CHOSEN = "it has chosen no move yet"
"""Why a take-back is refused to a seat that has made no decision (its only moves are played for it)."""


def _take_back(match: Match, seat: int, decisions: list[tuple[int, int]] | None, applied: int, agent: Any) -> int:
    """Undo ``match`` to just before ``seat``'s previous decision (a move it chose among
    others: its only move is played again at once, so it is no place to go back to); how
    many applies that was.

    A refusal goes to the agent's ``refused(reason)`` if it has one (then 0: it is asked
    again where it stands), else it is an :class:`AgentError`.
    """
    reason = None
    at = None
    if decisions is None:
        reason = "this game is being recorded (a record holds no taken-back move)"
    elif not match._history:
        reason = "this match keeps no history"
    else:
        at = next((k for k in range(len(decisions) - 1, -1, -1) if decisions[k][0] == seat), None)
    if reason is None and at is None:
        reason = NOTHING_CHOSEN
    if reason is not None:
        refused: Callable[[str], None] | None = getattr(agent, "refused", None)
        if callable(refused):
            refused(reason)
            return 0
        raise AgentError(player_name(seat), f"asked to take back a move, but {reason}")
    assert at is not None and decisions is not None
    before = decisions[at][1]
    for _ in range(applied - before):
        match.undo()
    del decisions[at:]
    return applied - before


def play_round(rnd: Round, agents: Sequence[Any], *, max_actions: int = MAX_ACTIONS,
               on_action: Callable[[Round, Action], None] | None = None) -> RoundResult:
    """Play ``rnd`` to its end in place (the loop, :func:`play`, over a lone round).

    ``on_action(rnd, action)`` is called after each action, the moves nobody decides
    included (a defender's ``done`` after gin is played without asking the agent).

    :raises AgentError: when an agent's action is refused (the round stays as it was).
    :raises ExpressionError: when a formula of the variant fails while scoring (the
        variant's fault, not the agent's: an integer past its limit, a division by zero).
    :raises StalledRoundError: if the round reaches ``max_actions`` actions without ending,
        or cannot go on: nobody may act though it is not over (a variant broken in play).
    """
    if on_action is None:
        for _ in _play(Match.playing(rnd), agents, max_actions, None, True, False):  # (no events read)
            pass
    else:
        for event in play(Match.playing(rnd), agents, max_actions=max_actions):
            assert isinstance(event, Event)
            on_action(rnd, event.action)  # type: ignore[arg-type]
            for forced in event.automatic:
                on_action(rnd, forced)
    assert rnd.result is not None
    return rnd.result


def play_game(game: Game, agents: Sequence[Any], *, max_actions: int = MAX_ACTIONS) -> GameResult:
    """Play ``game`` to its end in place with one agent per seat (see :mod:`rummydsl.agents`).

    :raises StalledRoundError: if a round runs past ``max_actions`` actions.
    :raises StalledGameError: if the game runs past ``game.max_rounds`` rounds.
    """
    for _ in _play(Match.playing(game), agents, max_actions, None, True, False):  # (no events read)
        pass
    assert game.result is not None
    return game.result
