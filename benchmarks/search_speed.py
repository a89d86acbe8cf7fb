"""How fast the search agents search: ISMCTS iterations and determinised playout steps per
CPU second, and where the time goes (Match.resample, Match.apply, the playout policy, the
listing of legal actions, the valuing of a position), per variant.

Each variant: a seeded game of ``ismcts`` (``--iters`` per move, ``--depth`` per playout)
against ``greedy``, the first ``--moves`` searched moves, under cProfile; the rates are on
the process's CPU clock (``time.process_time``) without the profiler, from a second run
of the same moves. Prints a Markdown table (``--json``: the figures as JSON).

    python benchmarks/search_speed.py --seed 2026 --moves 30 --iters 100
    python benchmarks/search_speed.py --quick          # a smoke run, seconds
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import time
from typing import Any

from rummydsl.agents.search import ISMCTSAgent
from rummydsl.agents import GreedyAgent
from rummydsl.engine.match import Match
from rummydsl.engine.play import play

PARTS = {
    "resample": [("match_step.py", "resample")],
    "apply": [("match.py", "apply")],
    "policy": [("search.py", "_policy")],
    "legal": [("round.py", "listed")],
    "values": [("search.py", "values")],
}
"""The functions whose cumulative time is shown: (file, function)."""


def _searched(variant: str, seed: int, moves: int, iters: int, depth: int, rollout: str,
              focus: int = 1) -> ISMCTSAgent:
    """Play until the search agent has searched ``moves`` moves (new games as needed)."""
    agent = ISMCTSAgent(random.Random(seed), iters=iters, depth=depth, rollout=rollout, focus=focus)
    game = 0
    while agent.stats.moves < moves:
        m = Match.new(variant, seed=seed + game, history=False)
        agents: list[Any] = [agent] + [GreedyAgent()] * (m.players - 1)
        for _ in play(m, agents):
            if agent.stats.moves >= moves:
                break
        game += 1
    return agent


def measure(variant: str, seed: int, moves: int, iters: int, depth: int, rollout: str,
            focus: int = 1) -> dict[str, Any]:
    started = time.process_time()
    agent = _searched(variant, seed, moves, iters, depth, rollout, focus)
    total = time.process_time() - started
    stats = agent.stats
    profile = cProfile.Profile()
    profile.enable()
    _searched(variant, seed, moves, iters, depth, rollout, focus)
    profile.disable()
    table = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    search = sum(v[3] for k, v in table.items() if k[0].endswith("search.py") and k[2] == "act")
    shares = {}
    for part, places in PARTS.items():
        spent = sum(v[3] for k, v in table.items() if any(k[0].endswith(f) and k[2] == n for f, n in places))
        shares[part] = spent / search if search else 0.0
    return {"variant": variant, "moves": stats.moves, "iterations": stats.total_iterations,
            "iterations_per_s": stats.total_iterations / stats.seconds, "steps": stats.steps,
            "steps_per_s": stats.steps / stats.seconds, "ms_per_move": 1000 * stats.seconds / stats.moves,
            "search_share": stats.seconds / total, "shares": shares}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="gin_rummy,skarney_gin,ginski")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--iters", type=int, default=100)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--rollout", default="heuristic")
    parser.add_argument("--focus", type=int, default=1, help="ismcts's focus setting (0: the first version)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.moves, args.iters = 3, 10
    rows = [measure(v, args.seed, args.moves, args.iters, args.depth, args.rollout, args.focus)
            for v in args.variants.split(",")]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"ismcts:iters={args.iters}:depth={args.depth}:rollout={args.rollout}:focus={args.focus}, "
          f"{args.moves} searched moves, "
          f"seed {args.seed}; CPU time\n")
    print("| variant | iterations/s | playout steps/s | ms/move | resample | apply | policy | legal listing | values |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        s = r["shares"]
        print(f"| {r['variant']} | {r['iterations_per_s']:,.0f} | {r['steps_per_s']:,.0f} | {r['ms_per_move']:.1f} "
              f"| {s['resample']:.0%} | {s['apply']:.0%} | {s['policy']:.0%} | {s['legal']:.0%} | {s['values']:.0%} |")
    print("\n(shares: of the search's time under cProfile, cumulative, so they overlap: apply includes "
          "the legal listing it checks against; policy includes its own solver calls)")


if __name__ == "__main__":
    main()
