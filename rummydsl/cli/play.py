"""``rummydsl play``: a person plays a variant in the terminal against agents."""

from __future__ import annotations

import argparse
from typing import Any, Callable, TextIO

from ..errors import Location
from .parser import EXIT_INPUT, EXIT_OK
from .runs import open_log, write_line

__all__ = [
    "cmd_play",
]


def cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl play``: a person plays in the terminal against agents."""
    import random

    from ..agents import GreedyAgent, make_agents
    from ..engine import Game
    from ..engine.match import Match
    from ..record import Quit, RecordWriter, close_agents, run_game
    from ..save import write_save
    from ..simulate import agent_names, check_agents
    from ..terminal import HumanAgent, ScoreSheet, TerminalWatcher, help_text
    from ..variant import load_variant, with_players

    if args.resume is not None:
        return _resume(args, out, err, inp)
    variant = with_players(load_variant(args.variant), args.players)
    players = variant.players
    seat = _seat(args.seat or "P1", players)
    if seat is None:
        print(f"rummydsl play: --seat must be one of P1 to P{players}, got {args.seat!r}", file=err)
        return EXIT_INPUT
    spec = args.agents or "greedy"
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    check_agents(spec, max(players - 1, 1))
    others = agent_names(spec, players - 1)
    names = others[:seat] + ["human"] + others[seat:]
    seeds = random.Random(seed)
    deal_seed = seeds.getrandbits(64)
    deal_rng = random.Random(deal_seed)
    agent_rng = random.Random(seeds.getrandbits(64))
    agents: list[Any] = make_agents(",".join(n if n != "human" else "random" for n in names), players, agent_rng)
    sheet = ScoreSheet(players)
    guide = help_text(variant)
    log = open_log(args.log) if args.log else None
    writer = RecordWriter(lambda line: write_line(log, line, flush=True)) if log is not None else None
    # Without a record the game keeps its history, so 'undo' can take moves back (a
    # record cannot hold a move taken back); both deal exactly as Game(variant, deal_rng).
    game: Game | Match = (Game(variant, deal_rng) if writer is not None
                          else Match.new(variant, seed=deal_seed, history=True))
    agents[seat] = HumanAgent(seat, inp, out, help=guide, sheet=sheet, adviser=GreedyAgent(),
                              saver=_saver(lambda: game, lambda: agents, seat, write_save))
    print(f"{variant.name}: you are P{seat + 1}; "
          + ", ".join(f"P{p + 1} {names[p]}" for p in range(players) if p != seat)
          + f" (seed {seed})", file=out)
    print(guide, file=out)
    try:
        if writer is not None:
            writer.header(variant, seed=seed, agents=names, mode="games")
            writer.game(1, seed)
        played = run_game(game, agents, writer=writer, watcher=TerminalWatcher(seat, out, inp, sheet))
    except (Quit, KeyboardInterrupt) as leaving:
        return _left(leaving, game, sheet, out)
    finally:
        close_agents(agents)
        if log is not None:
            log.close()
    if played.stopped is not None:
        print(f"rummydsl play: {played.stopped}", file=err)
        return EXIT_INPUT
    return EXIT_OK


def _resume(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl play VARIANT --resume FILE``: on with a saved game, from where it was saved.

    The save says who sits where: the seat it holds as a person's is the person's, the
    others' agents are made again, each generator where it was (a save that names a
    program agent is refused, as any save loaded without trust: docs/security.md). A save
    of a game without a person (made by a program) seats the person at ``--seat``, in that
    seat's agent's place; a save without agents gets ``--agents``' for the other seats.
    The game is played on in place, keeping no history: moves made before the save cannot
    be taken back.
    """
    import random

    from ..agents import GreedyAgent, agent_spec, make_agents
    from ..errors import RecordError
    from ..record import Quit, close_agents, run_game
    from ..save import read_save, write_save
    from ..simulate import agent_names, check_agents
    from ..terminal import HumanAgent, ScoreSheet, TerminalWatcher, help_text
    from ..variant import load_variant

    for flag, given in (("--seed", args.seed), ("--players", args.players), ("--log", args.log)):
        if given is not None:
            why = "a record starts at a game's first deal" if flag == "--log" else "its cards and seats"
            print(f"rummydsl play: {flag} cannot go with --resume: the save holds the game as it was ({why})",
                  file=err)
            return EXIT_INPUT
    variant = load_variant(args.variant)
    guide = help_text(variant)
    playing: dict[str, Any] = {}
    people: list[HumanAgent] = []

    def person(seat: int) -> Any:
        human = HumanAgent(seat, inp, out, help=guide, adviser=GreedyAgent(),
                           saver=_saver(lambda: playing["game"], lambda: playing["agents"], seat, write_save))
        people.append(human)
        return human

    game, saved = read_save(variant, args.resume, person=person)
    players = game.players
    if len(people) > 1:
        raise RecordError("the save seats people at " + " and ".join(f"P{h.seat + 1}" for h in people)
                          + "; rummydsl play seats one", Location(args.resume))
    given = "--seat" if args.seat is not None else "--agents" if args.agents is not None else None
    if people and given is not None:
        print(f"rummydsl play: {given} cannot go with this save: it says who sits where "
              f"(you are P{people[0].seat + 1})", file=err)
        return EXIT_INPUT
    if saved is not None and args.agents is not None:
        print("rummydsl play: --agents cannot go with this save: it holds its agents", file=err)
        return EXIT_INPUT
    if people:
        human = people[0]
    else:
        seat = _seat(args.seat or "P1", players)
        if seat is None:
            print(f"rummydsl play: --seat must be one of P1 to P{players}, got {args.seat!r}", file=err)
            return EXIT_INPUT
        human = person(seat)
    seat = human.seat
    agents: list[Any]
    if saved is not None:
        agents = list(saved)
    else:
        spec = args.agents or "greedy"
        check_agents(spec, max(players - 1, 1))
        others = agent_names(spec, players - 1)
        agents = list(make_agents(",".join(others[:seat] + ["random"] + others[seat:]), players,
                                  random.Random(random.SystemRandom().getrandbits(64))))
    agents[seat] = human
    playing.update(game=game, agents=agents)
    sheet = _earlier_rounds(game, players, ScoreSheet(players))
    human.sheet = sheet
    print(f"{variant.name}: resumed from {args.resume} in round {game.round.number}; you are P{seat + 1}; "
          + ", ".join(f"P{p + 1} {agent_spec(agents[p]) or _kind(agents[p])}" for p in range(players) if p != seat),
          file=out)
    print(guide, file=out)
    print("scores: " + " . ".join(f"P{p + 1} {s}" for p, s in enumerate(game.scores))
          + " (a resumed game takes no move back: 'undo' works in a game played from its start)", file=out)
    try:
        played = run_game(game, agents, watcher=TerminalWatcher(seat, out, inp, sheet))
    except (Quit, KeyboardInterrupt) as leaving:
        return _left(leaving, game, sheet, out)
    finally:
        close_agents(agents)
    if played.stopped is not None:
        print(f"rummydsl play: {played.stopped}", file=err)
        return EXIT_INPUT
    return EXIT_OK


def _kind(agent: Any) -> str:
    """An agent's name for the screen when it was not made from an ``--agents`` name."""
    return type(agent).__name__.removesuffix("Agent").lower() or "agent"


def _seat(text: str, players: int) -> int | None:
    """The seat ``P1`` ... ``PN`` names (from 0), or None."""
    text = text.strip()
    if text[:1] in "Pp" and text[1:].isdigit() and 1 <= int(text[1:]) <= players:
        return int(text[1:]) - 1
    return None


def _saver(game: Callable[[], Any], agents: Callable[[], list[Any]], seat: int,
           write: Callable[..., None]) -> Callable[[str], str]:
    """What ``save FILE`` does: the game as it stands and the other seats' agents (the
    person's seat saved as a person's) written to FILE whole or not at all."""

    def save(path: str) -> str:
        current = game()
        write(path, current, [None if p == seat else a for p, a in enumerate(agents())])
        rnd = current.round
        return (f"saved to {path} (round {rnd.number}, before move {len(rnd.actions) + 1}); "
                f"go on later with: rummydsl play {current.variant.id} --resume {path}")

    return save


def _earlier_rounds(game: Any, players: int, sheet: Any) -> Any:
    """``sheet`` with the rounds a resumed game has scored so far in the game being played,
    each with the totals after it; left empty where those points do not add up to the
    game's scores (a variant that scores otherwise)."""
    earlier = game.results[len(game.results) - (game.round.number - 1):] if game.round.number > 1 else []
    totals = [0] * players
    for number, result in enumerate(earlier, start=1):
        totals = [t + p for t, p in zip(totals, result.points)]
        how = result.ending.replace("_", " ")
        who = f" by P{result.ender + 1}" if result.ender is not None else ""
        sheet.add(number, f"{how}{who}{' (undercut)' if result.undercut else ''}", result.points, totals)
    if tuple(totals) != tuple(game.scores):
        sheet.rows.clear()
    return sheet


def _left(leaving: BaseException, game: Any, sheet: Any, out: TextIO) -> int:
    """The person left (``quit``, end of input, Ctrl-C): the totals, and goodbye."""
    if isinstance(leaving, KeyboardInterrupt):
        print("", file=out)
    _totals(game, sheet, out)
    print(f"bye: {getattr(leaving, 'person', 'interrupted')}", file=out)
    return EXIT_OK


def _totals(game: Any, sheet: Any, out: TextIO) -> None:
    """On leaving: the score sheet of the rounds played, or the totals when none was."""
    if game is None:
        return
    if sheet.rows:
        print(sheet.text(), file=out)
    else:
        print("totals: " + " . ".join(f"P{p + 1} {s}" for p, s in enumerate(game.round.scores))
              + " (no round was scored)", file=out)
