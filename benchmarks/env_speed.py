"""Benchmark the learning environments (rummydsl.envs): steps and hands per CPU second.

A plain script, not a test (no test has a wall-clock limit)::

    python benchmarks/env_speed.py [--seconds S] [--repeat R] [--variants gin_rummy,skarney_gin,...]
                                   [--rows ROW,...] [--performance-benchmark] [--json]

Rows, for each variant, measured on the process's CPU clock (``time.process_time``: the
machine is shared), uniformly random legal play, one hand an episode:

``pettingzoo``
    The wrapped AEC environment (``rummydsl.envs.pettingzoo.env``) played the way
    PettingZoo's ``performance_benchmark`` plays it: ``last()`` (the observation of the
    agent to move, planes and mask) then ``step`` for every agent in turn, ``reset`` at
    each episode's end. A step is one call of ``step`` (a dead agent's included, as
    that benchmark counts them).
``raw``
    ``raw_env`` with the observation built for each decision: the cost a learner pays.
``match``
    ``Match`` alone (``apply(rng.choice(legal_ids()))``), no observation: what the
    environment adds is the difference.
``openspiel``
    The registered game ``python_rummydsl`` (chance outcomes drawn by their
    probabilities, no observation), beside OpenSpiel's native C++ ``gin_rummy`` for Gin;
    ``-`` without OpenSpiel.

``rlcard step`` and ``rlcard run`` (Gin only)
    RLCard's ``gin-rummy`` environment in the same process: ``env.step`` of a random legal
    action from each state it returns (the state is its observation, built each step: the
    ``raw`` row's peer), and ``env.run`` with RLCard's ``RandomAgent`` in every seat (its
    own loop, trajectories kept). ``-`` without rlcard (``pip install rlcard``).

Each row is measured ``--repeat`` times (default 3), the rows taking turns, and printed as
the median with the lowest and highest, and for Gin the PettingZoo row's median over each
RLCard row's (the issue's goal compares the PettingZoo environment with RLCard's, 3x, in
one run). ``--rows pettingzoo,"rlcard run"`` measures only the rows named (more samples of
those in the same time). ``--performance-benchmark`` also runs PettingZoo's
own ``pettingzoo.test.performance_benchmark`` on each variant's wrapped environment (it
plays for 5 seconds of wall-clock time and prints turns and cycles per second).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any, Callable

import numpy as np

from rummydsl import Match


def _timed(run_hand: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(steps, hands) per CPU second of ``run_hand`` repeated for about ``seconds``."""
    steps = hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += run_hand()
        hands += 1
    spent = time.process_time() - start
    return steps / spent, hands / spent


def pettingzoo_row(vid: str, seconds: float) -> tuple[float, float]:
    from rummydsl.envs.pettingzoo import env

    e = env(variant=vid, max_turns=5000)
    e.reset(seed=0)
    rng = random.Random(0)

    def hand() -> int:
        e.reset()
        steps = 0
        for _ in e.agent_iter():
            obs, _, termination, truncation, _ = e.last()
            if termination or truncation:
                e.step(None)
            else:
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps

    return _timed(hand, seconds)


def raw_row(vid: str, seconds: float) -> tuple[float, float]:
    from rummydsl.envs.pettingzoo import raw_env

    e = raw_env(variant=vid, max_turns=5000)
    e.reset(seed=0)
    rng = random.Random(0)

    def hand() -> int:
        e.reset()
        steps = 0
        while not any(e.terminations.values()) and not any(e.truncations.values()):
            obs = e.observe(e.agent_selection)
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps

    return _timed(hand, seconds)


def match_row(vid: str, seconds: float) -> tuple[float, float]:
    rng = random.Random(0)
    seeds = iter(range(10 ** 9))

    def hand() -> int:
        m = Match.new(vid, seed=next(seeds), history=False)
        steps = 0
        while not m.over and not m.game.results:
            m.apply(rng.choice(m.legal_ids()))
            steps += 1
        return steps

    return _timed(hand, seconds)


def openspiel_row(name: str, params: dict[str, Any], seconds: float) -> tuple[float, float] | None:
    try:
        import pyspiel

        import rummydsl.envs.openspiel  # noqa: F401  (registers python_rummydsl)
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)
    rng = random.Random(0)

    def hand() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        return steps

    return _timed(hand, seconds)


def rlcard_rows(seconds: float) -> dict[str, Callable[[], tuple[float, float] | None]]:
    """RLCard's gin-rummy environment: stepped by hand, and its own ``run`` (see the module)."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return {"rlcard step": lambda: None, "rlcard run": lambda: None}
    stepped = rlcard.make("gin-rummy", config={"seed": 0})
    run = rlcard.make("gin-rummy", config={"seed": 0})
    run.set_agents([RandomAgent(num_actions=run.num_actions) for _ in range(run.num_players)])
    rng = random.Random(0)

    def step_hand() -> int:
        state, _ = stepped.reset()
        steps = 0
        while not stepped.is_over():
            state, _ = stepped.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    def run_hand() -> int:
        trajectories, _ = run.run(is_training=False)
        return sum(len(t) // 2 for t in trajectories)

    return {"rlcard step": lambda: _timed(step_hand, seconds), "rlcard run": lambda: _timed(run_hand, seconds)}


def _spread(samples: list[tuple[float, float] | None]) -> dict[str, Any] | None:
    """The median and range of each figure of a row's samples (None: not measured)."""
    got = [s for s in samples if s is not None]
    if not got:
        return None
    out: dict[str, Any] = {}
    for k, key in enumerate(("steps_per_s", "hands_per_s")):
        values = [g[k] for g in got]
        out[key] = {"median": statistics.median(values), "low": min(values), "high": max(values)}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a row (default 3)")
    parser.add_argument("--variants", default="gin_rummy,skarney_gin,ginski,contract_rummy")
    parser.add_argument("--repeat", type=int, default=3, help="samples of each row (default 3)")
    parser.add_argument("--rows", default=None,
                        help="only these rows, by name, comma-separated (e.g. 'pettingzoo,rlcard run'): more "
                             "samples in the same time")
    parser.add_argument("--performance-benchmark", action="store_true",
                        help="also run PettingZoo's performance_benchmark on each variant")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    seconds = args.seconds
    out: dict[str, dict[str, Any]] = {}
    for vid in args.variants.split(","):
        Match.new(vid, seed=0)  # load and build the variant's tables outside the clock
        rows: dict[str, Callable[[], tuple[float, float] | None]] = {
            "pettingzoo": lambda: pettingzoo_row(vid, seconds),
            "raw": lambda: raw_row(vid, seconds),
            "match": lambda: match_row(vid, seconds),
            "openspiel": lambda: openspiel_row("python_rummydsl", {"variant": vid}, seconds),
        }
        if vid == "gin_rummy":
            rows["openspiel native gin_rummy"] = lambda: openspiel_row("gin_rummy", {}, seconds)
            rows.update(rlcard_rows(seconds))
        if args.rows is not None:
            wanted = [name.strip() for name in args.rows.split(",")]
            unknown = [name for name in wanted if name not in rows]
            if unknown:
                parser.error(f"no row {unknown[0]!r} for {vid}; the rows are {', '.join(rows)}")
            rows = {name: rows[name] for name in wanted}
        samples: dict[str, list[tuple[float, float] | None]] = {name: [] for name in rows}
        for _ in range(args.repeat):
            for name, measure in rows.items():
                samples[name].append(measure())
        out[vid] = {name: _spread(got) for name, got in samples.items()}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{'variant':<16} {'row':<28} {'steps/CPU s':>22} {'hands/CPU s':>22}")
        for vid, spreads in out.items():
            for name, spread in spreads.items():
                if spread is None:
                    shown = ("-", "-")
                else:
                    st, ha = spread["steps_per_s"], spread["hands_per_s"]
                    shown = (f"{st['median']:.0f} ({st['low']:.0f}-{st['high']:.0f})",
                             f"{ha['median']:.1f} ({ha['low']:.1f}-{ha['high']:.1f})")
                print(f"{vid:<16} {name:<28} {shown[0]:>22} {shown[1]:>22}")
        for vid, spreads in out.items():
            ours = spreads.get("pettingzoo")
            for peer in ("rlcard step", "rlcard run"):
                theirs = spreads.get(peer)
                if ours is not None and theirs is not None:
                    ratio = ours["hands_per_s"]["median"] / theirs["hands_per_s"]["median"]
                    print(f"{vid}: pettingzoo / {peer}: {ratio:.2f}x (medians, hands per CPU second, this run)")
    if args.performance_benchmark:
        from pettingzoo.test import performance_benchmark

        from rummydsl.envs.pettingzoo import env

        for vid in args.variants.split(","):
            print(f"performance_benchmark {vid}:")
            performance_benchmark(env(variant=vid, max_turns=5000))


if __name__ == "__main__":
    main()
