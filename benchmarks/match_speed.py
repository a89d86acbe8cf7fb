"""Benchmark the state you step (``rummydsl.Match``) beside ``Round`` and OpenSpiel.

A plain script, not a test (no test has a wall-clock limit)::

    python benchmarks/match_speed.py [--seed S] [--hands N] [--repeat R] [--quick] [--json] [--save PATH]

Everything is measured in one run, the engines and operations interleaved (each
repetition runs every row once, in turn), on the process's CPU clock
(``time.process_time``: the machine is shared); each row gives the median of the
repetitions and their spread (lowest to highest).

``hands``
    Random Gin Rummy hands per CPU second: through :class:`~rummydsl.Match` by ids
    only (``m.apply(rng.choice(m.legal_ids()))``) and by actions
    (``m.apply(rng.choice(m.legal_actions()))``), each with ``history=True`` (undo
    kept) and ``history=False``; against the same loop on :class:`~rummydsl.engine.Round`
    (``Round.deal``, then ``rnd.apply(rng.choice(rnd.listed()))``), the engine's play
    loop (``play_round`` with ``RandomAgent``: ``engine.play`` over a match), and OpenSpiel's
    ``gin_rummy`` (chance outcomes drawn uniformly from the legal ones, as cheaply as a
    Python driver can: they are uniform). A hand is one deal played to its end: a new
    ``Match.new(..., seed=...)`` per hand (its first round), a new ``Round.deal`` per
    hand, a new ``new_initial_state()`` per hand (and, in a row of its own, a clone of
    one initial state: OpenSpiel builds its meld tables for every new state).
``ops``
    Microseconds per call, for a Gin position mid-round: ``copy()``, ``undo()`` (of
    one apply), an apply + undo pair, ``Match.new``, ``resample(seat, rng)`` (also
    for Skarney Gin, Ginski and Contract Rummy positions), ``to_json()``,
    ``Match.from_json()`` and the round trip, also for a position late in a game
    (``from_json`` replays every step); and OpenSpiel's ``state.clone()``,
    ``state.serialize()`` with ``game.deserialize_state`` and
    ``pyspiel.serialize_game_and_state`` with ``deserialize_game_and_state`` for a
    Gin position as deep into its hand.

OpenSpiel is optional (``pip install open_spiel``); when it is missing its rows show
as ``-``. ``--json`` prints the same figures as one JSON object instead of tables;
``--save PATH`` writes that object to a file as well.
See docs/performance.md, "The state you step (Match)".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benchmarks beside this one

from bench_engine import sample_chance  # noqa: E402  (one way to sample OpenSpiel's chance)

from rummydsl import TERMINAL, Match
from rummydsl.engine import Round
from rummydsl.variant import Variant, load_variant

REPO = Path(__file__).resolve().parent.parent

GOALS_US = {"copy": 20.0, "undo": 20.0, "resample": 100.0, "round trip": 1000.0}
"""The goals of issue 18 in µs per call (the round trip: to_json + from_json)."""


# --------------------------------------------------------------------------- timing


def spread(values: list[float]) -> dict[str, float]:
    """The median and the lowest and highest of repeated measurements."""
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


def per_call_us(fn: Callable[[], Any], calls: int) -> float:
    """CPU µs per call of ``fn`` over ``calls`` calls."""
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls * 1e6


# --------------------------------------------------------------------------- random hands


def round_hands(variant: Variant, count: int, seed: int) -> int:
    """``count`` random hands through ``Round``: deal, then a uniform listed action to the end."""
    rng = random.Random(seed)
    n = variant.players
    actions = 0
    for number in range(count):
        rnd = Round.deal(variant, rng, dealer=number % n, players=n)
        while rnd.result is None:
            rnd.apply(rng.choice(rnd.listed()))
        actions += len(rnd.actions)
    return actions


def play_round_hands(variant: Variant) -> Callable[[int, int], int] | None:
    """Random hands through the engine's play loop (``play_round`` with a ``RandomAgent``
    per seat, as benchmarks/bench_engine.py plays them: since issue 18 the one loop,
    ``engine.play``, over ``Match.playing(rnd)``), or None if it is not there."""
    try:
        from rummydsl.agents import RandomAgent
        from rummydsl.engine import play_round  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None

    def run(count: int, seed: int) -> int:
        rng = random.Random(seed)
        n = variant.players
        actions = 0
        for number in range(count):
            rnd = Round.deal(variant, rng, dealer=number % n, players=n)
            play_round(rnd, [RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(n)])
            actions += len(rnd.actions)
        return actions

    return run


def match_hands(variant: Variant, count: int, seed: int, *, ids: bool, history: bool) -> int:
    """``count`` random hands through ``Match``: a new match per hand, played by ids or by
    actions until its first round ends (the next round is dealt inside that last apply)."""
    rng = random.Random(seed)
    steps = 0
    for _ in range(count):
        m = Match.new(variant, seed=rng.getrandbits(63), history=history)
        while True:
            choice = rng.choice(m.legal_ids() if ids else m.legal_actions())
            steps += 1
            if m.apply(choice).result is not None:  # the round ended (the game may have too)
                break
    return steps


def openspiel_hands(fresh: bool = True) -> Callable[[int, int], int] | None:
    """Random OpenSpiel ``gin_rummy`` hands (``new_initial_state()`` per hand, or with
    ``fresh=False`` a clone of one initial state), or None."""
    try:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    initial = game.new_initial_state()

    def run(count: int, seed: int) -> int:
        rng = random.Random(seed)
        actions = 0
        for _ in range(count):
            state = game.new_initial_state() if fresh else initial.clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    action = sample_chance(state, rng)
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    actions += 1
                state.apply_action(action)
        return actions

    return run


def section_hands(args: argparse.Namespace) -> dict[str, Any]:
    """Random Gin hands per CPU second, every engine once per repetition, in turn."""
    gin = load_variant("gin_rummy")
    rows: list[tuple[str, Callable[[int, int], int] | None]] = [
        ("Round (deal, apply(choice(listed())))", lambda c, s: round_hands(gin, c, s)),
        ("play_round + RandomAgent (engine.play over a Match)", play_round_hands(gin)),
        ("Match ids, history=True", lambda c, s: match_hands(gin, c, s, ids=True, history=True)),
        ("Match ids, history=False", lambda c, s: match_hands(gin, c, s, ids=True, history=False)),
        ("Match actions, history=True", lambda c, s: match_hands(gin, c, s, ids=False, history=True)),
        ("Match actions, history=False", lambda c, s: match_hands(gin, c, s, ids=False, history=False)),
        ("OpenSpiel gin_rummy (clone of one initial state)", openspiel_hands(fresh=False)),
        ("OpenSpiel gin_rummy (new_initial_state)", openspiel_hands()),
    ]
    for _, run in rows:
        if run:
            run(10, args.seed + 1)  # warm up: the solver's tables, imports, the catalogue
    rates: dict[str, list[float]] = {name: [] for name, run in rows if run}
    actions: dict[str, int] = {}
    cpu_total = wall_total = 0.0
    for rep in range(args.repeat):
        for name, run in rows:
            if not run:
                continue
            cpu, wall = time.process_time(), time.perf_counter()
            actions[name] = run(args.hands, args.seed + 100 * rep)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            cpu_total += cpu
            wall_total += wall
            rates[name].append(args.hands / cpu)
    out: dict[str, Any] = {"hands": args.hands, "repeat": args.repeat, "cpu_over_wall": cpu_total / wall_total,
                           "rows": {}}
    base = statistics.median(rates[rows[0][0]])
    peer = statistics.median(rates[rows[-1][0]]) if rows[-1][1] else None
    clone = statistics.median(rates[rows[-2][0]]) if rows[-2][1] else None
    for name, run in rows:
        if not run:
            out["rows"][name] = None
            continue
        s: dict[str, Any] = spread(rates[name])
        s["actions_per_hand"] = actions[name] / args.hands
        s["over_round"] = s["median"] / base
        s["over_openspiel"] = s["median"] / peer if peer else None
        s["over_openspiel_clone"] = s["median"] / clone if clone else None
        s["us_per_action"] = 1e6 / (s["median"] * s["actions_per_hand"])
        out["rows"][name] = s
    return out


# --------------------------------------------------------------------------- positions


def mid_round(variant: Variant, seed: int, steps: int) -> Match:
    """A match of ``variant`` after ``steps`` random ids in its first round (a seat to move,
    no lay-down half chosen): the position the operations are timed on."""
    for attempt in range(50):
        rng = random.Random(seed + attempt)
        m = Match.new(variant, seed=seed + attempt)
        ok = True
        for _ in range(steps):
            event = m.apply(rng.choice(m.legal_ids()))
            if event.result is not None or m.to_move < 0:
                ok = False
                break
        while ok and m._s.pending:  # finish a lay-down being chosen
            if m.apply(rng.choice(m.legal_ids())).result is not None:
                ok = False
        if ok and m.to_move >= 0:
            return m
    raise RuntimeError(f"no mid-round position of {variant.id} after {steps} steps")


def late_game(variant: Variant, seed: int, rounds: int) -> Match:
    """A match of ``variant`` played with random ids into its ``rounds``-th round (mid-round)."""
    rng = random.Random(seed)
    m = Match.new(variant, seed=seed, history=False)
    while m.round.number < rounds or len(m.round.actions) < 30:
        if m.to_move == TERMINAL:
            m = Match.new(variant, seed=rng.getrandbits(63), history=False)
            continue
        m.apply(rng.choice(m.legal_ids()))
    while m._s.pending or m.to_move < 0:
        m.apply(rng.choice(m.legal_ids()))
    return Match.from_json(m.to_json(), variant)  # with history, as a saved game comes back


def openspiel_position(moves: int, seed: int) -> tuple[Any, Any, Any] | None:
    """(pyspiel, game, a gin_rummy state after ``moves`` random moves, chance included), or None."""
    try:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    for attempt in range(50):
        rng = random.Random(seed + attempt)
        state = game.new_initial_state()
        while len(state.history()) < moves and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and not state.is_chance_node():
            return pyspiel, game, state
    return None


# --------------------------------------------------------------------------- operations


class Op:
    """One timed operation: ``prepare()`` makes what one batch needs (not timed), ``run(x)``
    is the call timed once per item."""

    def __init__(self, name: str, calls: int, run: Callable[[Any], Any],
                 prepare: Callable[[int], list[Any]] | None = None, goal: str | None = None) -> None:
        self.name, self.calls, self.run, self.prepare, self.goal = name, calls, run, prepare, goal

    def time(self) -> float:
        """CPU µs per call over one batch."""
        items = self.prepare(self.calls) if self.prepare else [None] * self.calls
        run = self.run
        start = time.process_time()
        for x in items:
            run(x)
        return (time.process_time() - start) / self.calls * 1e6


def match_ops(label: str, m: Match, scale: float) -> list[Op]:
    """The operations on one Match position."""
    ids = m.legal_ids()
    seat = m.to_move
    rng = random.Random(7)
    data = m.to_json()
    variant = m.variant

    def applied(count: int) -> list[Match]:
        out = []
        for k in range(count):
            c = m.copy()
            c.apply(ids[k % len(ids)])
            out.append(c)
        return out

    def apply_undo(_: Any, cycle: list[int] = [0]) -> None:  # noqa: B006 (a counter)
        m.apply(ids[cycle[0] % len(ids)])
        m.undo()
        cycle[0] += 1

    def n(base: int) -> int:
        return max(5, int(base * scale))

    g = f"{label}: "
    return [
        Op(g + "copy()", n(20000), lambda _: m.copy(), goal="copy"),
        Op(g + "undo() of one apply", n(20000), lambda c: c.undo(), applied, goal="undo"),
        Op(g + "apply(id) + undo()", n(3000), apply_undo),
        Op(g + "Match.new(variant, seed=...)", n(300), lambda _: Match.new(variant, seed=5)),
        Op(g + "resample(seat, rng)", n(1000), lambda _: m.resample(seat, rng), goal="resample"),
        Op(g + "to_json()", n(1000), lambda _: m.to_json()),
        Op(g + "Match.from_json(data)", n(100), lambda _: Match.from_json(data)),
        Op(g + "to_json() + from_json() round trip", n(100), lambda _: Match.from_json(m.to_json()),
           goal="round trip"),
        Op(g + "from_json(data), then its first undo()", n(100), lambda _: Match.from_json(data).undo()),
    ]


def resample_ops(label: str, m: Match, scale: float) -> list[Op]:
    rng = random.Random(7)
    seat = m.to_move
    return [Op(f"{label}: resample(seat, rng)", max(5, int(300 * scale)), lambda _: m.resample(seat, rng),
               goal="resample")]


def late_ops(label: str, m: Match, scale: float) -> list[Op]:
    data = m.to_json()
    rng = random.Random(9)
    seat = m.to_move
    return [
        Op(f"{label}: to_json()", max(5, int(300 * scale)), lambda _: m.to_json()),
        Op(f"{label}: to_json() + from_json() round trip", max(3, int(10 * scale)),
           lambda _: Match.from_json(m.to_json()), goal="round trip"),
        Op(f"{label}: Match.from_json(data)", max(3, int(10 * scale)), lambda _: Match.from_json(data)),
        Op(f"{label}: from_json(data), then its first undo()", max(3, int(10 * scale)),
           lambda _: Match.from_json(data).undo()),
        Op(f"{label}: copy()", max(5, int(20000 * scale)), lambda _: m.copy(), goal="copy"),
        Op(f"{label}: resample(seat, rng)", max(5, int(300 * scale)),
           lambda _: m.resample(seat, rng), goal="resample"),
    ]


def openspiel_ops(position: tuple[Any, Any, Any] | None, scale: float) -> list[Op]:
    if position is None:
        return []
    pyspiel, game, state = position
    text = state.serialize()
    both = pyspiel.serialize_game_and_state(game, state)
    legal = state.legal_actions()

    def apply_clone(_: Any, cycle: list[int] = [0]) -> None:  # noqa: B006 (a counter)
        s = state.clone()
        s.apply_action(legal[cycle[0] % len(legal)])
        cycle[0] += 1

    def n(base: int) -> int:
        return max(5, int(base * scale))

    g = "OpenSpiel gin_rummy: "
    return [
        Op(g + "state.clone()", n(20000), lambda _: state.clone()),
        Op(g + "clone() + apply_action (its apply + undo)", n(3000), apply_clone),
        Op(g + "state.serialize()", n(3000), lambda _: state.serialize()),
        Op(g + "game.deserialize_state(text)", n(100), lambda _: game.deserialize_state(text)),
        Op(g + "serialize() + deserialize_state round trip", n(100),
           lambda _: game.deserialize_state(state.serialize())),
        Op(g + "serialize_game_and_state + deserialize_game_and_state", n(100),
           lambda _: pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))),
        Op(g + "deserialize_game_and_state(text)", n(100), lambda _: pyspiel.deserialize_game_and_state(both)),
    ]


def section_ops(args: argparse.Namespace) -> dict[str, Any]:
    """µs per call of every operation, every operation once per repetition, in turn."""
    scale = args.ops_scale
    gin = load_variant("gin_rummy")
    gin_mid = mid_round(gin, args.seed, 40)
    positions: dict[str, dict[str, Any]] = {}

    def describe(label: str, m: Match) -> None:
        positions[label] = {"variant": m.variant.id, "players": m.players, "round": m.round.number,
                            "steps": m._s.steps, "round_actions": len(m.round.actions),
                            "json_bytes": len(json.dumps(m.to_json()))}

    describe("Gin mid-round", gin_mid)
    ops = match_ops("Gin mid-round", gin_mid, scale)
    for vid, label in (("skarney_gin", "Skarney mid-round"), ("ginski", "Ginski mid-round"),
                       ("contract_rummy", "Contract Rummy mid-round")):
        variant = load_variant(vid)
        m = mid_round(variant, args.seed, 30)
        describe(label, m)
        ops += resample_ops(label, m, scale)
    late = late_game(gin, args.seed, args.late_rounds)
    describe("Gin late in a game", late)
    ops += late_ops("Gin late in a game", late, scale)
    position = openspiel_position(positions["Gin mid-round"]["steps"], args.seed)
    if position is not None:
        state = position[2]
        positions["OpenSpiel gin_rummy"] = {"moves": len(state.history()), "text_bytes": len(state.serialize())}
    ops += openspiel_ops(position, scale)
    for op in ops:
        op.time()  # warm up
    times: dict[str, list[float]] = {op.name: [] for op in ops}
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(args.repeat):
        for op in ops:
            times[op.name].append(op.time())
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rows: dict[str, Any] = {}
    for op in ops:
        s: dict[str, Any] = spread(times[op.name])
        s["calls"] = op.calls
        if op.goal:
            s["goal_us"] = GOALS_US[op.goal]
            s["met"] = s["median"] < GOALS_US[op.goal]
        rows[op.name] = s
    return {"repeat": args.repeat, "cpu_over_wall": cpu / wall, "positions": positions, "rows": rows}


# --------------------------------------------------------------------------- report


def environment() -> dict[str, Any]:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True, check=False).stdout.strip()
    except OSError:
        commit = ""
    try:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
        from importlib.metadata import version

        openspiel = version("open_spiel")
    except Exception:  # not installed
        openspiel = None
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
            "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
            "openspiel": openspiel, "load_average": list(os.getloadavg())}


def fmt_spread(s: dict[str, float], digits: int) -> str:
    return f"{s['median']:.{digits}f} | {s['low']:.{digits}f}–{s['high']:.{digits}f}"


def print_tables(report: dict[str, Any]) -> None:
    env = report["environment"]
    print(f"# Match speed ({env['date']}, commit {env['commit']}, Python {env['python']}, "
          f"{env['cpus']} CPUs, OpenSpiel {env['openspiel'] or 'not installed'}; "
          f"load average at start {env['load_average'][0]:.2f}, at end {report['load_average_end'][0]:.2f})")
    print()
    hands = report.get("hands")
    if hands:
        print(f"## Random Gin hands per CPU second ({hands['hands']} hands a pass, median of "
              f"{hands['repeat']} interleaved passes; CPU/wall {hands['cpu_over_wall']:.2f})")
        print()
        print("| engine | hands/s (median) | spread | / Round | / OpenSpiel | / OpenSpiel clone | actions per hand "
              "| µs an action |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name, s in hands["rows"].items():
            if s is None:
                print(f"| {name} | - | - | - | - | - | not installed | - |")
                continue
            peer = f"{s['over_openspiel']:.2f}x" if s["over_openspiel"] else "-"
            clone = f"{s['over_openspiel_clone']:.2f}x" if s.get("over_openspiel_clone") else "-"
            print(f"| {name} | {fmt_spread(s, 0)} | {s['over_round']:.2f}x | {peer} | {clone} "
                  f"| {s['actions_per_hand']:.1f} | {s['us_per_action']:.1f} |")
        print()
    ops = report.get("ops")
    if ops:
        print(f"## Operations, CPU µs per call (median of {ops['repeat']} interleaved batches; "
              f"CPU/wall {ops['cpu_over_wall']:.2f})")
        print()
        for label, p in ops["positions"].items():
            print(f"- {label}: " + ", ".join(f"{k} {v}" for k, v in p.items()))
        print()
        print("| operation | µs (median) | spread | calls a batch | goal | met |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for name, s in ops["rows"].items():
            goal = f"< {s['goal_us']:.0f}" if "goal_us" in s else "-"
            met = ("yes" if s["met"] else "**no**") if "met" in s else "-"
            digits = 2 if s["median"] < 10 else 1 if s["median"] < 1000 else 0
            print(f"| {name} | {fmt_spread(s, digits)} | {s['calls']} | {goal} | {met} |")
        print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hands", type=int, default=200, help="random hands per engine per pass")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved passes (the median counts)")
    parser.add_argument("--ops-scale", type=float, default=1.0, help="scale the calls in each timed batch")
    parser.add_argument("--late-rounds", type=int, default=12, help="the round of the late-game position")
    parser.add_argument("--sections", default="hands,ops", help="hands, ops or both (comma-separated)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: few hands, small batches")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--save", metavar="PATH", help="also write the figures as JSON to PATH")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.repeat, args.ops_scale, args.late_rounds = 10, 2, 0.02, 3
    sections = {s.strip() for s in args.sections.split(",") if s.strip()}
    unknown = sections - {"hands", "ops"}
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    report: dict[str, Any] = {"environment": environment(),
                              "command": " ".join(["python", "benchmarks/match_speed.py", *sys.argv[1:]])}
    if "hands" in sections:
        report["hands"] = section_hands(args)
    if "ops" in sections:
        report["ops"] = section_ops(args)
    report["load_average_end"] = list(os.getloadavg())
    if args.save:
        Path(args.save).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print_tables(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
