"""``rummydsl play``: a person plays a variant in the terminal against agents."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from .parser import EXIT_INPUT, EXIT_OK
from .runs import open_log, write_line

__all__ = [
    "cmd_play",
]


def cmd_play(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl play``: a person plays in the terminal against agents."""
    import random

    from ..agents import make_agents
    from ..engine import Game
    from ..engine.match import Match
    from ..record import Quit, RecordWriter, close_agents, run_game
    from ..simulate import agent_names, check_agents
    from ..agents import GreedyAgent
    from ..terminal import HumanAgent, ScoreSheet, TerminalWatcher, help_text
    from ..variant import load_variant, with_players

    variant = with_players(load_variant(args.variant), args.players)
    players = variant.players
    seat_text = args.seat.strip()
    if not (seat_text[:1] in "Pp" and seat_text[1:].isdigit() and 1 <= int(seat_text[1:]) <= players):
        print(f"rummydsl play: --seat must be one of P1 to P{players}, got {args.seat!r}", file=err)
        return EXIT_INPUT
    seat = int(seat_text[1:]) - 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31)
    check_agents(args.agents, max(players - 1, 1))
    others = agent_names(args.agents, players - 1)
    names = others[:seat] + ["human"] + others[seat:]
    seeds = random.Random(seed)
    deal_seed = seeds.getrandbits(64)
    deal_rng = random.Random(deal_seed)
    agent_rng = random.Random(seeds.getrandbits(64))
    agents: list[Any] = make_agents(",".join(n if n != "human" else "random" for n in names), players, agent_rng)
    sheet = ScoreSheet(players)
    guide = help_text(variant)
    agents[seat] = HumanAgent(seat, inp, out, help=guide, sheet=sheet, adviser=GreedyAgent())
    log = open_log(args.log) if args.log else None
    writer = RecordWriter(lambda line: write_line(log, line, flush=True)) if log is not None else None
    print(f"{variant.name}: you are P{seat + 1}; "
          + ", ".join(f"P{p + 1} {names[p]}" for p in range(players) if p != seat)
          + f" (seed {seed})", file=out)
    print(guide, file=out)
    game: Game | Match | None = None
    try:
        if writer is not None:
            writer.header(variant, seed=seed, agents=names, mode="games")
            writer.game(1, seed)
        # Without a record the game keeps its history, so 'undo' can take moves back (a
        # record cannot hold a move taken back); both deal exactly as Game(variant, deal_rng).
        game = (Game(variant, deal_rng) if writer is not None
                              else Match.new(variant, seed=deal_seed, history=True))
        played = run_game(game, agents, writer=writer, watcher=TerminalWatcher(seat, out, inp, sheet))
    except Quit as leaving:
        _totals(game, sheet, out)
        print(f"bye: {leaving.person}", file=out)
        return EXIT_OK
    except KeyboardInterrupt:
        print("", file=out)
        _totals(game, sheet, out)
        print("bye: interrupted", file=out)
        return EXIT_OK
    finally:
        close_agents(agents)
        if log is not None:
            log.close()
    if played.stopped is not None:
        print(f"rummydsl play: {played.stopped}", file=err)
        return EXIT_INPUT
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
