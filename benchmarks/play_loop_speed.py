"""The play loop every game pays: µs of CPU a decision through ``rummydsl.engine.play``.

A plain script, not a test (no test has a wall-clock limit)::

    python benchmarks/play_loop_speed.py [--seed S] [--gin-hands N] [--games N]

Random Gin hands through ``play_round`` (a ``RandomAgent`` a seat, after some hands
not timed, which build the solver's tables), and whole Rummy games through the loop
``play_game`` runs (``play(Match.playing(game), agents)``) at 2 and at 6 players, random
and greedy, from house-rule files that set ``players``. It prints one JSON line: for
each row the hands, the decisions (events) and the CPU seconds (``time.process_time``),
with the load average. To compare two trees, put each first on ``PYTHONPATH`` in turn
and run them interleaved (docs/performance.md, "The state you step (Match)").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

from rummydsl import Match
from rummydsl.agents import RandomAgent, make_agents
from rummydsl.engine import Game, Round, play_round
from rummydsl.engine.play import play
from rummydsl.variant import load_variant

HOUSE_RULE = """rummydsl: 1
id: rummy_{n}p
extends: rummy
name: rummy_{n}p
description: A house rule written by benchmarks/play_loop_speed.py.
players: {{count: {n}}}
"""


def gin(hands: int, seed: int, warm: int = 50) -> tuple[int, int, float]:
    """``hands`` random Gin hands through ``play_round``: (hands, decisions, CPU seconds)."""
    variant = load_variant("gin_rummy")
    rng = random.Random(seed)
    n = variant.players
    for number in range(warm):  # the solver's tables built, the code warm: not timed
        rnd = Round.deal(variant, rng, dealer=number % n, players=n)
        play_round(rnd, [RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(n)])
    actions = 0
    start = time.process_time()
    for number in range(hands):
        rnd = Round.deal(variant, rng, dealer=number % n, players=n)
        play_round(rnd, [RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(n)])
        actions += len(rnd.actions)
    return hands, actions, time.process_time() - start


def rummy(folder: Path, players: int, games: int, agents: str, seed: int) -> tuple[int, int, float]:
    """``games`` whole Rummy games at ``players`` seats: (hands, decisions, CPU seconds)."""
    path = folder / f"rummy_{players}p.yaml"
    path.write_text(HOUSE_RULE.format(n=players), encoding="utf-8")
    variant = load_variant(str(path))
    for _ in play(Match.playing(Game(variant, random.Random(1))),
                  [RandomAgent(random.Random(2)) for _ in range(players)]):
        pass  # warm: not timed
    rng = random.Random(seed)
    hands = actions = 0
    start = time.process_time()
    for _ in range(games):
        game = Game(variant, random.Random(rng.getrandbits(64)))
        seats = (make_agents(agents, players, random.Random(rng.getrandbits(64))) if agents != "random"
                 else [RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(players)])
        for _ in play(Match.playing(game), seats):
            actions += 1
        hands += len(game.results)
    return hands, actions, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--gin-hands", type=int, default=1500)
    parser.add_argument("--games", type=int, default=20, help="random Rummy games a row (greedy: a fifth)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        greedy = max(1, args.games // 5)
        out = {"gin": gin(args.gin_hands, args.seed),
               "rummy2_random": rummy(folder, 2, args.games, "random", args.seed),
               "rummy6_random": rummy(folder, 6, args.games, "random", args.seed),
               "rummy2_greedy": rummy(folder, 2, greedy, "greedy", args.seed),
               "rummy6_greedy": rummy(folder, 6, greedy, "greedy", args.seed),
               "load": os.getloadavg()[0]}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
