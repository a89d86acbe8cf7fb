"""Benchmark the learning environments (rummydsl.envs): steps and hands per CPU second.

A plain script, not a test (no test has a wall-clock limit)::

    python benchmarks/env_speed.py [--seconds S] [--variants gin_rummy,skarney_gin,...] [--json]

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

The issue measured RLCard's ``gin-rummy`` environment at 76-83 random hands per second
in-process on this machine (2026-12-01); rlcard is in the bench extra, not measured here.
"""

from __future__ import annotations

import argparse
import json
import random
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a row (default 3)")
    parser.add_argument("--variants", default="gin_rummy,skarney_gin,ginski,contract_rummy")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out: dict[str, dict[str, Any]] = {}
    for vid in args.variants.split(","):
        Match.new(vid, seed=0)  # load and build the variant's tables outside the clock
        rows: dict[str, Any] = {
            "pettingzoo": pettingzoo_row(vid, args.seconds),
            "raw": raw_row(vid, args.seconds),
            "match": match_row(vid, args.seconds),
            "openspiel": openspiel_row("python_rummydsl", {"variant": vid}, args.seconds),
        }
        if vid == "gin_rummy":
            rows["openspiel native gin_rummy"] = openspiel_row("gin_rummy", {}, args.seconds)
        out[vid] = rows
    if args.json:
        print(json.dumps({v: {k: None if r is None else {"steps_per_s": round(r[0]), "hands_per_s": round(r[1], 1)}
                              for k, r in rows.items()} for v, rows in out.items()}, indent=1))
        return
    print(f"{'variant':<16} {'row':<28} {'steps/CPU s':>12} {'hands/CPU s':>12}")
    for vid, rows in out.items():
        for name, row in rows.items():
            shown = ("-", "-") if row is None else (f"{row[0]:.0f}", f"{row[1]:.1f}")
            print(f"{vid:<16} {name:<28} {shown[0]:>12} {shown[1]:>12}")


if __name__ == "__main__":
    main()
