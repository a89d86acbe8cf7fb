"""The play checker: seeded games that find rules which break only in play.

The static checks (:func:`rummydsl.variant.check_file`) read a variant; this
module plays it. :func:`play_check` plays ``games`` seeded games of a variant
with random agents (they explore) and one more with greedy agents (they end
rounds), and reports, at the line of the file to blame:

========================== ======= ==================================================
rule                       level   what play showed
========================== ======= ==================================================
``play-stalled``           error   a round ran past its action cap without ending
``play-no-legal-action``   error   a round not over, with nobody able to act
``play-scoring-error``     error   a formula failed while the round was played or
                                   scored (a division by zero, a name with no value
                                   at that ending): placed at the formula
``play-never-won``         warning in every game nobody won a round (every round
                                   ended void or at the stock floor)
``play-game-endless``      warning no game reached its end within the round cap
``play-engine``            error   the engine itself failed (a defect of rummydsl,
                                   reported rather than raised)
========================== ======= ==================================================

Each problem is reported once per file, with the number of games that showed it
and the first game and round that did. Game ``i`` is played exactly as
``rummydsl simulate FILE --games i --seed S --agents A`` plays its game ``i``
(the same seeds, :func:`rummydsl.simulate.game_seeds`), so the message says how
to watch it happen. Everything is bounded (:class:`PlayLimits`) and nothing
depends on the clock: the same file, games and seed give the same report.

>>> from rummydsl.resources import variants_dir
>>> play_check(str(variants_dir() / "gin_rummy.yaml"), games=2, seed=0)
[]
"""

from __future__ import annotations

import random
import re
import shlex
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .endings import Ending
from .errors import (AgentError, Diagnostic, ExpressionError, FormulaError, Location, RummyDslError, Severity,
                     StalledRoundError, VariantError)
from .variant.load_read import KeyPath

if TYPE_CHECKING:
    from .engine.match import Event

__all__ = ["PlayLimits", "PlayFinding", "PlayReport", "play_variant", "play_check", "PLAY_RULES"]

PLAY_RULES: tuple[str, ...] = ("play-stalled", "play-no-legal-action", "play-scoring-error",
                               "play-never-won", "play-game-endless", "play-engine")
"""The ``rule`` codes of the play checker's problems (docs/errors.md)."""

_WON_ENDINGS = frozenset({Ending.KNOCK, Ending.GIN, Ending.BIG_GIN, Ending.OUT})


@dataclass(frozen=True)
class PlayLimits:
    """How far the play checker goes: the caps that keep a broken variant from running forever.

    >>> PlayLimits().max_actions, PlayLimits().max_rounds, PlayLimits().greedy_rounds
    (3000, 40, 400)
    >>> PlayLimits().never_won_rounds
    200
    """

    max_actions: int = 3000
    """Actions in one round before it counts as stalled (the shipped variants' random
    rounds stay far below it)."""
    max_rounds: int = 40
    """Rounds of one random agents' game before it is left unfinished (random agents
    rarely knock: their games may need hundreds of rounds, and that is no fault of
    the variant)."""
    greedy_rounds: int = 400
    """Rounds of the greedy agents' game before it is left unfinished (a match to three
    games of 250 takes greedy agents about 130). Only a variant none of whose games
    ends is reported."""
    never_won_rounds: int = 200
    """The fewest rounds that must be played before "nobody won a round" is reported:
    some variants are seldom won (a Skarney whose poker melds need distinct suits:
    about 1 round in 40), and no win in 200 rounds puts the rate below 1.5% (95%)."""


@dataclass(frozen=True)
class PlayFinding:
    """One problem play showed, before it is placed in the file.

    ``path`` is the key path of the YAML node to blame (``("scoring", "let", "k")``);
    for a formula that failed, ``line``/``column`` are inside its text (1-based; 0
    when unknown).
    """

    rule: str
    message: str
    path: KeyPath
    severity: Severity = "error"
    line: int = 0
    column: int = 0
    game: int = 0
    """The first game (from 1) that showed it; 0 for a finding over all games."""
    round: int = 0
    """The round (from 1) of that game."""
    agents: str = "random"
    """The agents that played that game."""
    games: int = 1
    """How many games showed it."""


@dataclass
class PlayReport:
    """What :func:`play_variant` found, and the figures the findings rest on."""

    findings: list[PlayFinding] = field(default_factory=list)
    games: int = 0
    """Games played (finished or not)."""
    finished: int = 0
    """Games that reached their end within the round cap."""
    rounds: int = 0
    """Rounds played to their end."""
    endings: dict[str, int] = field(default_factory=dict)
    """Rounds by how they ended."""


class _FormulaFailed(RummyDslError, ValueError):
    """A formula of the variant failed while played (internal: :func:`play_variant` catches it)."""

    def __init__(self, path: KeyPath, message: str, line: int = 0, column: int = 0) -> None:
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        super().__init__(message)


class _Stop(Exception):
    """Ends the game being played with a finding (internal)."""

    def __init__(self, rule: str, message: str, path: KeyPath) -> None:
        self.rule = rule
        self.message = message
        self.path = path
        super().__init__(message)


# -- formulas that say where they are --------------------------------------------------------------


def _located(compiled: Any, path: KeyPath, names: frozenset[str]) -> Any:
    """``compiled`` whose failures name ``path``: an :class:`ExpressionError`, or a
    Python error where a name has no value (``deadwood(ender)`` when nobody ended
    the round), becomes a :class:`_FormulaFailed` at the formula.

    ``names`` are the names the formula reads, through its ``let`` names too. A
    case's ``ender`` formula called for a round nobody ended fails too: the engine
    would give its points to nobody.
    """
    if compiled is None:
        return None
    inner: Callable[..., Any] = compiled.fn
    text = str(getattr(compiled, "text", ""))
    gives_ender = path[-1:] == ("ender",)

    def fn(*args: Any, **kwargs: Any) -> Any:
        nobody = bool(_ending(args)) and getattr(args[0], "ender", 0) is None
        if gives_ender and nobody:
            raise _FormulaFailed(path, f"this case holds{_when(args)}, where nobody ended the round: its "
                                 "'ender' points go to nobody")
        try:
            return inner(*args, **kwargs)
        except _FormulaFailed:
            raise
        except ExpressionError as problem:
            line, column = problem.line, problem.column
            quoted = re.match(r"'(\w+)' has no value", problem.message) if not line else None
            if quoted is not None:  # a name with no value now (deal.sit_out's last_*): point at it
                line, column = _word_at(text, quoted.group(1))
            raise _FormulaFailed(path, problem.message + _when(args), line, column) from None
        except (TypeError, LookupError, AttributeError, ZeroDivisionError, ValueError) as problem:
            if "ender" in names and nobody:
                line, column = _word_at(text, "ender")
                raise _FormulaFailed(path, f"'ender' has no value{_when(args)}: nobody ended the round",
                                     line, column) from None
            raise _FormulaFailed(path, f"this formula failed at run time ({type(problem).__name__}: "
                                 f"{problem}){_when(args)}") from None

    return replace(compiled, fn=fn)


def _ending(args: Sequence[Any]) -> str:
    """How the round a formula is scoring ended (``""`` for a formula not scoring a round)."""
    return str(getattr(args[0], "ending", "") or "") if args else ""


def _when(args: Sequence[Any]) -> str:
    """When the formula called with ``args`` ran, for messages: `` when a round ends 'gin'``
    for a score, `` as round 3 is dealt`` for the knock limit, else nothing.

    >>> from rummydsl.expr.runtime import RoundFacts
    >>> _when([RoundFacts(players=(0, 1), dealer=0, ending="gin")])
    " when a round ends 'gin'"
    >>> _when([RoundFacts(players=(0, 1), dealer=0, round=3)])
    ' as round 3 is dealt'
    """
    ending = _ending(args)
    if ending:
        return f" when a round ends {ending!r}"
    number = getattr(args[0], "round", None) if args else None
    if isinstance(number, int) and hasattr(args[0], "dealer"):
        return f" as round {number} is dealt"
    return ""


def _word_at(text: str, word: str) -> tuple[int, int]:
    """The 1-based line and column of the first ``word`` in ``text`` (0, 0 if absent).

    >>> _word_at("sum(x for x in opponents)\\n + deadwood(ender)", "ender")
    (2, 13)
    """
    match = re.search(rf"\b{re.escape(word)}\b", text)
    if match is None:
        return 0, 0
    before = text[: match.start()]
    return before.count("\n") + 1, match.start() - (before.rfind("\n") + 1) + 1


def _instrumented(variant: Any) -> Any:
    """A copy of ``variant`` whose run-time formulas report the key path they were written at.

    The formulas of play and scoring: ``knock.limit``, ``contract``, a draw's
    ``skip_after_accepting``, ``deal.sit_out``, ``scoring.let``, ``scoring.multiplier``
    and every scoring case. Nothing else changes: the copy plays exactly as the variant does.
    """
    from .variant.semantics import _names_through_lets as reads  # the static check's own walk

    def wrap(compiled: Any, path: KeyPath) -> Any:
        return _located(compiled, path, frozenset(reads(variant, compiled)))

    scoring = variant.scoring
    cases = tuple(
        replace(case, **{name: wrap(getattr(case, name), ("scoring", "round", index, name))
                         for name in ("when", "points", "ender", "others")})
        for index, case in enumerate(scoring.cases))
    new_lets = tuple((name, wrap(compiled, ("scoring", "let", name))) for name, compiled in scoring.lets)
    changes: dict[str, Any] = {
        "scoring": replace(scoring, cases=cases, lets=new_lets,
                           multiplier=wrap(scoring.multiplier, ("scoring", "multiplier"))),
    }
    if variant.knock is not None and variant.knock.limit is not None and not isinstance(variant.knock.limit, int):
        changes["knock"] = replace(variant.knock, limit=wrap(variant.knock.limit, ("knock", "limit")))
    if variant.deal.hand_size_rule is not None:
        changes["deal"] = replace(variant.deal, hand_size_rule=wrap(variant.deal.hand_size_rule, ("deal", "hand_size")))
    if variant.contract is not None:
        changes["contract"] = replace(variant.contract, melds=wrap(variant.contract.melds, ("contract", "melds")))
    turn = []
    for index, step in enumerate(variant.turn):
        skip = getattr(step, "skip_after_accepting", None)
        if skip is not None:
            step = replace(step, skip_after_accepting=wrap(skip, ("turn", index, "draw", "skip_after_accepting")))
        turn.append(step)
    changes["turn"] = tuple(turn)
    if variant.deal.sit_out is not None:  # G3-2: worked out before each deal
        changes["deal"] = replace(variant.deal, sit_out=wrap(variant.deal.sit_out, ("deal", "sit_out")))
    return replace(variant, **changes)


# -- playing -------------------------------------------------------------------------------------


def _stall_path(variant: Any) -> tuple[KeyPath, str]:
    """Where a round that never ends is to blame, and why, from the variant's rules."""
    for index, step in enumerate(variant.turn):
        if step.name == "draw" and "stock" not in step.sources:
            return (("turn", index, "draw", "from"),
                    "no turn draws from the stock, so the stock never reaches its floor")
    if variant.knock is not None:
        return ("knock", "limit"), "nobody knocked, went gin or went out"
    for index, step in enumerate(variant.turn):
        if step.name == "meld":
            return ("turn", index), "nobody went out"
    return ("turn",), "nothing in the turn ends the round"


def _stopped(rnd: Any, variant: Any, limits: PlayLimits) -> _Stop:
    """The finding of a round the play loop stopped (:class:`StalledRoundError`): past
    its action cap, or not over with nobody able to act (``rnd`` as it stands)."""
    from .engine.actions import player_name

    if len(rnd.actions) >= limits.max_actions:
        path, why = _stall_path(variant)
        return _Stop("play-stalled", f"a round ran past {limits.max_actions} actions without ending: {why}", path)
    player = rnd.to_move
    who = "nobody is to move" if player is None else f"{player_name(player)} has no legal action"
    phase = getattr(rnd.phase, "value", rnd.phase)
    detail = f"{who} in the {phase!s} phase"
    if player is not None:
        detail += (f" ({len(rnd.hands[player])} card{'s' if len(rnd.hands[player]) != 1 else ''} "
                   f"in hand, {len(rnd.stock)} in the stock)")
    return _Stop("play-no-legal-action", f"the round is not over but {detail}", _no_action_path(variant, str(phase)))


def _round_ended(report: PlayReport, event: Event) -> None:
    """Count the round ``event`` ended, and the game if it did."""
    assert event.result is not None
    report.rounds += 1
    ending = str(event.result.ending)
    report.endings[ending] = report.endings.get(ending, 0) + 1
    if event.game is not None:
        report.finished += 1


_PHASE_KEYS: dict[str, KeyPath] = {
    "upcard": ("upcard_offer",),
    "answer": ("turn",),
    "claim": ("stock", "last_discard_claim"),
    "showdown": ("layoff",),
}
"""Where the rules of a phase outside the turn's own steps are written."""


def _no_action_path(variant: Any, phase: str) -> KeyPath:
    """The rules of the phase where nobody could act: its turn step, or the section
    of a phase around the turn (:data:`_PHASE_KEYS`); else the turn.

    >>> from rummydsl.variant import load_variant
    >>> _no_action_path(load_variant("gin_rummy"), "discard"), _no_action_path(load_variant("gin_rummy"), "claim")
    (('turn', 1), ('stock', 'last_discard_claim'))
    """
    for index, step in enumerate(variant.turn):
        if step.name == phase:
            return ("turn", index)
    return _PHASE_KEYS.get(phase, ("turn",))


def play_variant(variant: Any, *, games: int, seed: int = 0, agents: str = "random",
                 greedy_game: bool = True, limits: PlayLimits = PlayLimits()) -> PlayReport:
    """Play ``games`` seeded games of ``variant`` (and one of greedy agents) and collect what broke.

    Game ``i`` (from 1) is played from ``game_seeds(seed, ...)[i - 1]`` with the
    seeding of ``simulate``; the greedy game is game ``games + 1``.

    :raises AgentError: for an unknown agent name in ``agents``, or a program agent that failed.
    """
    from .agents import make_agents
    from .engine import Game
    from .engine.match import Event, Match
    from .engine.play import failed_event, play
    from .record import close_agents
    from .simulate import check_agents, game_seeds

    check_agents(agents, variant.players)
    played = _instrumented(variant)
    plan = [agents] * games + (["greedy"] if greedy_game else [])
    report = PlayReport()
    first: dict[tuple[str, KeyPath], PlayFinding] = {}
    for index, (spec, game_seed) in enumerate(zip(plan, game_seeds(seed, len(plan))), start=1):
        seeds = random.Random(game_seed)
        deal_rng = random.Random(seeds.getrandbits(64))
        agent_rng = random.Random(seeds.getrandbits(64))
        report.games += 1
        game: Any = None
        found: PlayFinding | None = None
        players: list[Any] = []
        try:
            players = make_agents(spec, variant.players, agent_rng)
            game = Game(played, deal_rng)
            match = Match.playing(game)
            cap = limits.greedy_rounds if spec == "greedy" else limits.max_rounds
            rounds = 0
            try:
                for event in play(match, players, max_actions=limits.max_actions):
                    assert isinstance(event, Event)
                    if event.result is not None:
                        _round_ended(report, event)
                        rounds += 1
                        if rounds >= cap:
                            break
            except StalledRoundError:
                raise _stopped(match.round, variant, limits) from None
            except AgentError as failed:
                if isinstance(failed.refused, _FormulaFailed):  # a formula failed as the move was played
                    raise failed.refused from None
                raise
            except RummyDslError as problem:  # a round scored, and then the next could not be dealt
                last = failed_event(problem)
                if last is not None and last.result is not None:
                    _round_ended(report, last)
                raise
        except AgentError as failed:
            if failed.refused is None:  # a program agent failed (``cmd:``): the caller's problem, not the variant's
                raise
            refused = failed.refused  # the engine refused a move it listed: its own defect
            found = PlayFinding("play-engine", f"the engine failed ({type(refused).__name__}: {refused}); "
                                "this is a defect of rummydsl, please report it", ())
        except _FormulaFailed as failed:
            found = PlayFinding("play-scoring-error", failed.message, failed.path, line=failed.line,
                                column=failed.column)
        except FormulaError as failed:  # a score or a total past its limit: at the formula or setting
            found = PlayFinding("play-scoring-error", failed.message, failed.key, line=failed.line,
                                column=failed.column)
        except _Stop as stop:
            found = PlayFinding(stop.rule, stop.message, stop.path)
        except Exception as problem:  # noqa: BLE001 - a defect of the engine is reported, never raised
            found = PlayFinding("play-engine", f"the engine failed ({type(problem).__name__}: {problem}); "
                                "this is a defect of rummydsl, please report it", ())
        finally:
            close_agents(players)
        if found is None:
            continue
        number = 1 if game is None else len(game.results) + 1  # the round being played or dealt
        key = (found.rule, found.path)
        if key in first:
            first[key] = replace(first[key], games=first[key].games + 1)
        else:
            first[key] = replace(found, game=index, round=number, agents=spec)
    report.findings = list(first.values())
    won = sum(report.endings.get(str(ending), 0) for ending in _WON_ENDINGS)
    # The findings over all games only where no game broke: a game stopped by an
    # error left its rounds (and the win that failed to score) uncounted.
    if report.rounds >= limits.never_won_rounds and not won and not report.findings:
        report.findings.append(_never_won(variant, report))
    if report.games and not report.finished and not report.findings:
        report.findings.append(PlayFinding(
            "play-game-endless", f"no game of {report.games} reached its end (random agents' games within "
            f"{limits.max_rounds} rounds, greedy agents' within {limits.greedy_rounds}; {won} of "
            f"{report.rounds} rounds were won by a player)", ("game", "target"), "warning"))
    return report


def _never_won(variant: Any, report: PlayReport) -> PlayFinding:
    """The warning that nobody ever won a round, placed at what ends a round."""
    if variant.knock is not None:
        path: KeyPath = ("knock", "limit")
    else:
        path = next((("turn", i) for i, step in enumerate(variant.turn) if step.name == "meld"), ("turn",))
    how = ", ".join(f"{count} {'void' if ending == 'void' else 'at the stock floor'}"
                    for ending, count in sorted(report.endings.items()))
    return PlayFinding("play-never-won", f"in {report.games} games nobody won a round: all {report.rounds} "
                       f"rounds ended without a knock, gin or going out ({how}); so at most 1 round in "
                       f"{report.rounds // 3} is won (95% confidence)", path, "warning")


# -- placing ------------------------------------------------------------------------------------


def _describe(finding: PlayFinding, path: str, games: int, seed: int, greedy_game: bool) -> str:
    """The finding's message with how often it showed and how to see it happen."""
    if not finding.game:
        return finding.message
    total = games + (1 if greedy_game else 0)
    return (f"{finding.message} (in {finding.games} of {total} games; first in game {finding.game}, "
            f"round {finding.round}: rummydsl simulate {shlex.quote(path)} --games {finding.game} --seed {seed} "
            f"--agents {shlex.quote(finding.agents)})")


def _place(positions: Any, finding: PlayFinding, path: str) -> Location:
    """The file position of a finding: inside a formula where known, else the nearest node
    of its key path that the file (or the file it extends) has."""
    key = finding.path
    while key and key not in positions:
        key = key[:-1]
    if not key:
        return Location(path, 1, 1)
    if key == finding.path and finding.line:
        inside: Location = positions.inside_scalar(key, finding.line, finding.column)
        return inside
    node: Location = positions.value(key)
    return node


def play_check(path: str, games: int, *, seed: int = 0, agents: str = "random", greedy_game: bool = True,
               limits: PlayLimits = PlayLimits(), players: int | None = None) -> list[Diagnostic]:
    """The problems of the variant file ``path`` that only playing shows, placed in the file.

    A problem that shows in a file this one extends is moved to the line of this
    file that made the difference (:func:`~rummydsl.variant.blame.place_in_child`),
    unless the parent, played alone, has it too.

    A file that does not load (its problems are the static check's) is not played:
    the answer is empty. ``players`` plays that many seats (``check --play N
    --players P``); a count the file's ``players`` does not allow is an error at the file.

    :raises AgentError: for an unknown agent name in ``agents``.
    """
    from .variant import load_variant, with_players
    from .variant.blame import place_in_child
    from .variant.extends import resolve

    try:
        variant = load_variant(path)
        resolved = resolve(path)
    except RummyDslError:
        return []
    try:
        variant = with_players(variant, players)
    except VariantError as problem:
        return list(problem.diagnostics)
    report = play_variant(variant, games=games, seed=seed, agents=agents, greedy_game=greedy_game, limits=limits)
    found = [Diagnostic(_place(resolved.positions, finding, path),
                        _describe(finding, path, games, seed, greedy_game), finding.rule, finding.severity)
             for finding in report.findings]
    if len(resolved.documents) < 2:
        return found
    parent = resolved.documents[1].path

    def also_in_parent() -> list[Diagnostic]:
        theirs = {(d.location, d.rule) for d in play_check(parent, games, seed=seed, agents=agents,
                                                           greedy_game=greedy_game, limits=limits,
                                                           players=players)}
        return [d for d in found if (d.location, d.rule) in theirs]

    return place_in_child(found, child=resolved.documents[0], data=resolved.data, positions=resolved.positions,
                          parent_problems=also_in_parent)
