"""Playing games while writing their record: :func:`run_game` and :func:`run_hand` run the
play loop (:func:`rummydsl.engine.play.play`), write every deal, action and result, tell a
:class:`~.writer.Watcher` (the terminal), and end a game cleanly when an agent fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

from ..errors import AgentError, ExpressionError, MeldError, RummyDslError
from ..engine.match import Event, Match
from ..engine.observe import result_json
from ..engine.play import TakenBack, failed_event, play
from ..limits import MAX_ACTIONS
from .writer import Quit, RecordWriter, Watcher

if TYPE_CHECKING:
    from ..agents import Agent
    from ..engine import Action, Game, GameResult, Round, RoundResult
    from ..variant.model import Variant


@dataclass(frozen=True)
class RoundSummary:
    """What statistics need of one finished round (small, picklable)."""

    dealer: int
    first: int
    """The player who moved first (the dealer's left)."""
    ending: str
    ender: int | None
    undercut: bool
    turns: int
    points: tuple[int, ...]
    winner: int | None
    """Who scored most this round, ``None`` when nobody scored."""
    sat_out: int | None = None
    """The seat that sat out the round (G3-1), ``None`` when everyone was dealt in."""


@dataclass
class PlayedGame:
    """A game (or a single hand) as played: its rounds, its result, or why it stopped."""

    rounds: list[RoundSummary] = field(default_factory=list)
    result: GameResult | None = None
    """The game's result (``None`` for a single hand, or a game that stopped)."""
    first_dealer: int = 0
    stopped: str | None = None
    """Why the game stopped early (``P2: no answer within 10 seconds``), else ``None``."""


def _summary(rnd: Round, result: RoundResult) -> RoundSummary:
    return RoundSummary(rnd.dealer, rnd.next_seat(rnd.dealer), str(result.ending), result.ender,
                        result.undercut, result.turns, tuple(result.points), result.winner, rnd.sat_out)


def _run(match: Match, agents: Sequence[Agent], writer: RecordWriter | None, watcher: Watcher | None,
         max_actions: int, played: PlayedGame) -> None:
    """Play ``match`` to its end through the play loop (:func:`rummydsl.engine.play.play`),
    writing and telling every deal, action and result, and telling the agents each round's end.

    :raises AgentError: when an agent fails (the match stays as it was).
    :raises Quit: when the person leaves.
    :raises StalledRoundError: past ``max_actions`` actions.
    :raises ExpressionError, MeldError, StalledGameError: as :func:`~rummydsl.engine.play.play`;
        when the game refused to go on after a round, that round's actions and result are
        written and told first (and counted in ``played``).
    """
    rnd = match.round
    _dealt(rnd, writer, watcher)
    quiet = writer is None and watcher is None
    try:
        for event in play(match, agents, max_actions=max_actions, take_back=writer is None):
            if isinstance(event, TakenBack):
                rnd = match.round  # a person took back: go on from where the match stands now
                if watcher is not None:
                    watcher.taken_back(rnd)
                continue
            if event.result is None:
                rnd = match.round if quiet else _told(match, rnd, event, writer, watcher)
                continue
            after = _told(match, rnd, event, writer, watcher)
            _round_over(match, after, event.result, agents, writer, watcher, played)
            if not match.over:
                rnd = match.round
                _dealt(rnd, writer, watcher)
    except RummyDslError as failure:
        last = failed_event(failure)
        if last is not None and last.result is not None:  # played and scored, then the game refused to go on
            after = _told(match, rnd, last, writer, watcher)
            _round_over(match, after, last.result, agents, writer, None, played)
        raise


def _dealt(rnd: Round, writer: RecordWriter | None, watcher: Watcher | None) -> None:
    if writer is not None:
        writer.deal(rnd)
    if watcher is not None:
        watcher.deal(rnd)


def _told(match: Match, rnd: Round, event: Event, writer: RecordWriter | None, watcher: Watcher | None) -> Round:
    """Write and tell ``event``'s action and the moves that followed it, played in ``rnd``;
    the round as they left it."""
    if event.result is None:
        after = match.round
    elif rnd.result is not None:
        after = rnd  # played in place (a match that keeps no history)
    else:  # a match with history keeps the round before: play the event on a copy
        after = rnd.copy()
        after.apply(event.action)  # type: ignore[arg-type]
        for forced in event.automatic:
            after.apply(forced)
    if writer is None and watcher is None:
        return after
    moves: list[Action] = [event.action, *event.automatic]  # type: ignore[list-item]
    first = len(after.actions) - len(moves)
    for k, move in enumerate(moves, start=1):
        if writer is not None:
            writer.action(after, move, n=first + k)
        if watcher is not None:
            watcher.action(after, move)
            if k == 1:
                for seat, cards in ((event.player, event.drawn), *event.others_drawn):
                    if cards and seat >= 0:
                        watcher.drawn(after, seat, cards)
    return after


def _round_over(match: Match, rnd: Round, result: RoundResult, agents: Sequence[Agent], writer: RecordWriter | None,
                watcher: Watcher | None, played: PlayedGame) -> None:
    """What follows a round's end: its result line, the agents told, its summary, the watcher told."""
    if writer is not None:
        writer.result(rnd, result)
    for seat, agent in enumerate(agents):
        told = getattr(agent, "round_over", None)
        if callable(told):
            told(result_json(result, seat))  # as the seat sees it: a void round shows no other hand
    played.rounds.append(_summary(rnd, result))
    if watcher is not None:
        watcher.round_over(rnd, result, _totals_after(match, rnd, result))


def run_game(game: Game | Match, agents: Sequence[Agent], *, writer: RecordWriter | None = None,
             watcher: Watcher | None = None, max_actions: int = MAX_ACTIONS) -> PlayedGame:
    """Play ``game`` to its end (or until an agent fails), recording as it goes.

    ``game``: a :class:`~rummydsl.engine.Game` (played in place) or a
    :class:`~rummydsl.engine.match.Match`.

    An agent's :class:`~rummydsl.errors.AgentError` stops the game cleanly: the
    record gets a ``stopped`` line and :attr:`PlayedGame.stopped` says who and why.
    So does a formula of the variant that fails in play (a division by zero, a score
    or a total past :data:`~rummydsl.limits.MAX_EXPR_INT`): the reason names the
    formula's file place, the formula, the variant and the round (the seat is null).

    :raises Quit: when a person leaves (after a ``stopped`` line).
    :raises StalledRoundError: for a round that never ends.
    """
    match = game if isinstance(game, Match) else Match.playing(game)
    played = PlayedGame(first_dealer=match.game.dealer)
    try:
        _run(match, agents, writer, watcher, max_actions, played)
    except AgentError as failure:
        played.stopped = str(failure)
        if writer is not None:
            writer.stopped(failure.reason, failure.seat)
        return played
    except ExpressionError as failure:
        if played.rounds and len(played.rounds) > len(match.game.results):
            played.rounds.pop()  # the round scored, but its total was refused: it is not counted
        _formula_failed(played, match.variant, failure, match.game.round.number, writer)
        return played
    except MeldError as failure:  # the meld solver's work bound: the play loop said where
        _solver_failed(played, failure, writer)
        return played
    except Quit as leaving:
        if writer is not None:
            writer.stopped(str(leaving) or "the player left")
        raise
    result = match.game.result
    assert result is not None
    played.result = result
    if writer is not None:
        writer.game_result(result)
    if watcher is not None:
        watcher.game_over(result)
    for agent in agents:
        told = getattr(agent, "game_over", None)
        if callable(told):
            told(result.as_json())
    return played


def _totals_after(match: Match, rnd: Round, result: RoundResult) -> tuple[int, ...]:
    """The game totals once ``rnd`` is scored (the next round's start, or the last sheet)."""
    if not match.over:
        return match.round.scores
    return tuple(s + p for s, p in zip(rnd.scores, result.points))


def run_hand(rnd: Round, agents: Sequence[Agent], *, writer: RecordWriter | None = None,
             watcher: Watcher | None = None, max_actions: int = MAX_ACTIONS) -> PlayedGame:
    """Play one round alone (``simulate --hands``), recording as it goes; like :func:`run_game`."""
    played = PlayedGame(first_dealer=rnd.dealer)
    try:
        _run(Match.playing(rnd), agents, writer, watcher, max_actions, played)
    except AgentError as failure:
        played.stopped = str(failure)
        if writer is not None:
            writer.stopped(failure.reason, failure.seat)
        return played
    except ExpressionError as failure:
        _formula_failed(played, rnd.variant, failure, rnd.number, writer)
        return played
    except MeldError as failure:
        _solver_failed(played, failure, writer)
        return played
    return played


def _formula_failed(played: PlayedGame, variant: Variant, failure: ExpressionError, round_number: int,
                    writer: RecordWriter | None) -> None:
    """Stop ``played`` for a formula that failed in play: the reason, and the record's ``stopped`` line."""
    from ..variant.locate import describe_play_failure

    played.stopped = describe_play_failure(variant, failure, round_number)
    if writer is not None:
        writer.stopped(played.stopped)


def _solver_failed(played: PlayedGame, failure: MeldError, writer: RecordWriter | None) -> None:
    """Stop ``played`` for the meld solver's work bound (:data:`~rummydsl.limits.MAX_MELD_WORK`):
    the reason (the pattern's file place, the variant, round and seat, from the play loop)
    and the record's ``stopped`` line, so the game so far is kept as for a formula."""
    played.stopped = str(failure)
    if writer is not None:
        writer.stopped(played.stopped)


def close_agents(agents: Sequence[Agent]) -> None:
    """Stop every program an agent started (agents without ``close`` are left alone)."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if callable(close):
            close()
