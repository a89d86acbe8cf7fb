"""Benchmark the backends: games per second in 1 and 2 local processes and as Ray
tasks on this machine, Ray's overhead against local processes, and the driver's
memory against the number of games.

A plain script, not a test (no test has a wall-clock limit)::

    python benchmarks/bench_scale.py [--games 1000] [--hands 1000,100000] [--repeats 2]
                                     [--backends local1,local2,ray] [--seed 1]

Every run is a fresh process (``--child``, internal) playing
``simulate(VARIANT, games=N | hands=N, agents="greedy")`` on one backend:

``local1``, ``local2``
    :class:`~rummydsl.backends.LocalBackend` with 1 and 2 worker processes.
``ray``
    :class:`~rummydsl.backends.RayBackend` on a new local Ray instance of 2 CPUs
    (no dashboard), batches and in-flight limit chosen as for ``--ray``.

For each run the script prints the CPU seconds of the whole process tree (the
driver, its pool or Ray's daemons and workers, read with
``getrusage(RUSAGE_CHILDREN)`` once the run's process has exited: the figure that
other load on a shared machine moves least), the wall time, the games per CPU
second and per wall second, and the driver's peak RSS (``VmHWM``) and the length of
the per-game lists :class:`~rummydsl.simulate.Statistics` keeps. Runs of the same
count are interleaved (``--repeats`` rounds of every backend), and each backend's
least CPU counts. The figures of every backend are checked equal (``seconds``
aside): the script stops if they are not.

The results go in docs/scale.md.

``--players VARIANT`` measures instead the cost of one game against the number of
players, and compares source trees side by side::

    python benchmarks/bench_scale.py --players rummy [--trees before=/tmp/old,after=.]
        [--runs 3] [--random-games 20] [--greedy-games 10] [--hands 30] [--seed 0]
        [--hands-of skarney_gin]

Each run is a fresh process with one tree first on its ``PYTHONPATH``, playing
(after a few unmeasured hands, so that tables built once a process are not counted)
random and greedy whole games of ``VARIANT`` at its own player count, then greedy
first hands (the dealer rotating) at every count from 2 to 6 the variant allows,
from house rules that only set ``players`` (and, with ``--hands-of``, random first
hands of other variants: ten times ``--hands`` of each). The runs of the trees alternate
(``--runs`` rounds of every tree); the tables give each figure's median and least and
most, per CPU second of the process, and the players rows' ratio to two players, a
hand's and an action's (a hand at six players has more than twice the actions of one
at two: six players take turns, and most hands outlast the stock).
The results go in docs/performance.md ("Scaling").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import tempfile
import sys
import time
from dataclasses import dataclass
from typing import Any, Sequence

BACKENDS = ("local1", "local2", "ray")


@dataclass
class Run:
    """One timed run in its own process."""

    backend: str
    unit: str
    count: int
    cpu: float
    """CPU seconds (user + system) of the run's whole process tree."""
    wall: float
    driver_cpu: float
    """CPU seconds of the driver process alone."""
    driver_peak_kib: int
    """Peak resident memory of the driver (VmHWM)."""
    kept: int
    """Items in Statistics' per-game lists at the end (points per seat, turns per round)."""
    figures: dict[str, Any]


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _become_subreaper() -> None:
    """Adopt this process's orphaned descendants (Linux ``PR_SET_CHILD_SUBREAPER``).

    Ray's workers are children of its raylet; when Ray shuts down they would be
    adopted by init and their CPU time lost. As a subreaper this process adopts and
    reaps them, so its parent's ``RUSAGE_CHILDREN`` counts the whole tree.
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        raise SystemExit(f"prctl(PR_SET_CHILD_SUBREAPER) failed: errno {ctypes.get_errno()}")


def _reap_descendants(limit: float = 120.0) -> None:
    """Wait for every child and adopted descendant to exit (at most ``limit`` seconds)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.05)
    raise SystemExit("some of the run's processes were still running after it ended")


def _descendants_cpu() -> float:
    """CPU seconds of this process's live descendants (and of the children they reaped),
    read from ``/proc/PID/stat``: what Ray's daemons and workers have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        used[int(entry)] = sum(int(value) for value in fields[11:15]) / tick  # utime stime cutime cstime
    me = os.getpid()

    def descends(pid: int) -> bool:
        while pid in parents and pid > 1:
            pid = parents[pid]
            if pid == me:
                return True
        return False

    return sum(cpu for pid, cpu in used.items() if descends(pid))


def child(backend_name: str, unit: str, count: int, seed: int, variant: str) -> None:
    """Play one run in this process and print what the parent reads, as JSON."""
    import logging

    from rummydsl.backends import Backend, LocalBackend, RayBackend
    from rummydsl.simulate import simulate

    backend: Backend
    ray_backend = None
    if backend_name == "ray":
        _become_subreaper()
        ray_backend = RayBackend(init_options={"num_cpus": 2, "include_dashboard": False,
                                               "logging_level": logging.ERROR,
                                               "object_store_memory": 200 * 1024 * 1024,
                                               "_node_ip_address": "127.0.0.1"})
        backend = ray_backend
    else:
        backend = LocalBackend(int(backend_name.removeprefix("local")))
    started = time.perf_counter()
    keywords = {"games": count} if unit == "games" else {"hands": count}
    stats = simulate(variant, seed=seed, agents="greedy", backend=backend, **keywords)  # type: ignore[arg-type]
    seconds = time.perf_counter() - started
    live_cpu = _descendants_cpu()
    if ray_backend is not None:
        ray_backend.close()
    if ray_backend is not None:
        _reap_descendants()  # a pool's workers are joined by multiprocessing itself
    kept = sum(len(points) for points in stats.per_unit_points) + len(stats.turns)
    print(json.dumps({"figures": stats.as_json(seconds), "driver_cpu": time.process_time(),
                      "live_cpu": live_cpu,
                      "driver_peak_kib": _status_kib("VmHWM"), "kept": kept}))


class _Canned:
    """A backend that plays one hand and hands back a copy of it for every task: the
    driver's own memory (tasks, statistics, buffers) without the cost of play."""

    def __init__(self) -> None:
        self.played: Any = None

    def run(self, tasks: Any) -> Any:
        from dataclasses import replace

        from rummydsl.simulate import play_task

        for task in tasks:
            if self.played is None:
                self.played = play_task(task)
            yield replace(self.played, index=task.index, seed=task.seed)


def driver_memory(count: int) -> None:
    """Print the driver's peak RSS and traced peak for ``count`` canned hands (a child)."""
    import tracemalloc

    from rummydsl.simulate import simulate

    tracemalloc.start()
    stats = simulate("gin_rummy", hands=count, seed=1, agents="greedy", backend=_Canned())
    traced = tracemalloc.get_traced_memory()[1]
    kept = sum(len(points) for points in stats.per_unit_points) + len(stats.turns)
    print(json.dumps({"peak_kib": _status_kib("VmHWM"), "traced": traced, "kept": kept}))


def measure(backend: str, unit: str, count: int, seed: int, variant: str) -> Run:
    """Run one child process and read its tree's CPU time from ``RUSAGE_CHILDREN``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--child", backend, unit, str(count), str(seed), variant],
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{backend} {unit} {count} failed:\n{done.stderr}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    reaped = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # Whichever sees more: the reaped tree, or the driver and its live descendants
    # just before Ray shut down (a daemon killed at shutdown may escape the first).
    cpu = max(reaped, data["driver_cpu"] + data["live_cpu"])
    print(f"<!-- {backend} {unit} {count}: reaped tree {reaped:.2f} s, driver {data['driver_cpu']:.2f} s "
          f"+ live descendants {data['live_cpu']:.2f} s -->", file=sys.stderr)
    figures = data["figures"]
    figures.pop("seconds")
    return Run(backend, unit, count, cpu, wall, data["driver_cpu"], data["driver_peak_kib"], data["kept"],
               figures)


PLAYERS_HOUSE_RULE = """rummydsl: 1
id: {id}
extends: {parent}
name: {parent} for {count}
description: A house rule written by benchmarks/bench_scale.py (--players).
players: {{count: {count}}}
"""


def players_child(variant_id: str, random_games: int, greedy_games: int, hands: int, seed: int,
                  others: Sequence[str] = ()) -> None:
    """One ``--players`` run in this process (the tree is the one on ``sys.path``): print
    its figures as JSON, CPU seconds of this process (``time.process_time``)."""
    import random

    from rummydsl.agents import RandomAgent, make_agents
    from rummydsl.engine import Game, Round, play_game, play_round
    from rummydsl.variant import load_variant

    def games(variant: Any, count: int, agents: str) -> float:
        started = time.process_time()
        for number in range(count):
            rng = random.Random(seed * 1000 + number)
            game = Game(variant, rng)
            play_game(game, make_agents(agents, game.players, rng))
        return count / (time.process_time() - started)

    def first_hands(variant: Any, count: int, agents: str, at: int) -> tuple[float, float]:
        rng = random.Random(at)
        n = variant.players
        actions = 0
        started = time.process_time()
        for number in range(count):
            rnd = Round.deal(variant, rng, dealer=number % n, players=n)
            seats = ([RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(n)] if agents == "random"
                     else make_agents(agents, n, random.Random(rng.getrandbits(64))))
            play_round(rnd, seats)
            actions += len(rnd.actions)
        return (time.process_time() - started) / count * 1e3, actions / count

    variant = load_variant(variant_id)
    first_hands(variant, 3, "greedy", seed + 1)
    first_hands(variant, 3, "random", seed + 1)
    out: dict[str, Any] = {"random games/s": games(variant, random_games, "random"),
                           "greedy games/s": games(variant, greedy_games, "greedy")}
    low, high = variant.players_range
    with tempfile.TemporaryDirectory() as folder:
        for count in range(max(2, low), min(6, high) + 1):
            ident = f"{variant.id}_players_{count}"
            path = os.path.join(folder, f"{ident}.yaml")
            with open(path, "w", encoding="utf-8") as house:
                house.write(PLAYERS_HOUSE_RULE.format(id=ident, parent=variant.id, count=count))
            house_rule = load_variant(path)
            first_hands(house_rule, 2, "greedy", seed + 1)
            ms, actions = first_hands(house_rule, hands, "greedy", seed)
            out[f"greedy ms/hand {count}"] = ms
            out[f"actions/hand {count}"] = actions
    for other_id in others:
        other = load_variant(other_id)
        first_hands(other, 3, "random", seed + 1)
        ms, _ = first_hands(other, 10 * hands, "random", seed)
        out[f"{other_id} random hands/s"] = 1e3 / ms
    print(json.dumps(out))


def players_main(args: argparse.Namespace) -> None:
    """``--players``: the runs of every tree, interleaved, and the tables."""
    trees = [tuple(item.split("=", 1)) if "=" in item else (item, item) for item in args.trees.split(",")]
    figures: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
    print(f"# bench_scale --players {args.players}: {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the start; {args.runs} runs of each tree "
          f"({', '.join(f'{name}={path}' for name, path in trees)}), {args.random_games} random and "
          f"{args.greedy_games} greedy games, {args.hands} greedy first hands a row, seed {args.seed}")
    for run in range(args.runs):
        for name, path in trees:
            env = dict(os.environ, PYTHONPATH=os.path.abspath(path))
            done = subprocess.run([sys.executable, __file__, "--players-child", args.players, str(args.random_games),
                                   str(args.greedy_games), str(args.hands), str(args.seed), args.hands_of],
                                  capture_output=True, text=True, check=False, env=env)
            if done.returncode != 0:
                raise SystemExit(f"{name} run {run + 1} failed:\n{done.stderr}")
            got = json.loads(done.stdout.strip().splitlines()[-1])
            figures[name].append(got)
            print(f"<!-- {name} run {run + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in got.items()) + " -->",
                  file=sys.stderr, flush=True)

    def cell(values: list[float]) -> str:
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"

    names = [name for name, _ in trees]
    keys = [k for k in figures[names[0]][0] if not k.startswith("actions")]
    print()
    print("| figure | " + " | ".join(names) + (f" | {names[-1]} / {names[0]} |" if len(names) > 1 else " |"))
    print("| --- |" + " ---: |" * (len(names) + (len(names) > 1)))
    for key in keys:
        medians = [statistics.median(run[key] for run in figures[name]) for name in names]
        ratio = f" | {medians[-1] / medians[0]:.2f}x" if len(names) > 1 else ""
        print(f"| {key} | " + " | ".join(cell([run[key] for run in figures[name]]) for name in names) + ratio + " |")
    counts = sorted(int(k.rsplit(" ", 1)[1]) for k in keys if k.startswith("greedy ms/hand"))
    if counts:
        print()
        print("Greedy cost per hand against the number of players, each over its own two-player figure "
              "(the ratio of the medians), and per action (a decision or automatic move: ms a hand over "
              "the actions a hand):")
        print()
        print("| players | actions/hand | " + " | ".join(f"{name} ms/hand | {name} / 2 players" for name in names)
              + " | " + " | ".join(f"{name} µs/action | {name} / 2 players" for name in names) + " |")
        print("| ---: | ---: |" + " ---: | ---: |" * 2 * len(names))
        for count in counts:
            actions = statistics.median(run[f"actions/hand {count}"] for run in figures[names[0]])
            row, per = [], []
            for name in names:
                values = [run[f"greedy ms/hand {count}"] for run in figures[name]]
                two = statistics.median(run[f"greedy ms/hand {counts[0]}"] for run in figures[name])
                row.append(f"{cell(values)} | {statistics.median(values) / two:.2f}x")
                each = [run[f"greedy ms/hand {count}"] / run[f"actions/hand {count}"] * 1e3 for run in figures[name]]
                two_each = statistics.median(run[f"greedy ms/hand {counts[0]}"] / run[f"actions/hand {counts[0]}"] * 1e3
                                             for run in figures[name])
                per.append(f"{cell(each)} | {statistics.median(each) / two_each:.2f}x")
            print(f"| {count} | {actions:.0f} | " + " | ".join(row) + " | " + " | ".join(per) + " |")
    print(f"\nload {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1000", help="counts of whole games, comma-separated ('' for none)")
    parser.add_argument("--hands", default="1000,100000", help="counts of single hands, comma-separated")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--large-backends", default="local2,ray",
                        help="the backends for counts over 10,000 (the rest are too slow to repeat)")
    parser.add_argument("--repeats", type=int, default=2, help="interleaved rounds for counts up to 10,000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="gin_rummy")
    parser.add_argument("--child", nargs=5, metavar=("BACKEND", "UNIT", "COUNT", "SEED", "VARIANT"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--driver-memory", metavar="COUNTS",
                        help="only the driver's memory, for these counts of canned hands (no play)")
    parser.add_argument("--driver-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--players", metavar="VARIANT",
                        help="only the cost of a game against the number of players, for VARIANT (see above)")
    parser.add_argument("--trees", default=".", help="with --players: NAME=PATH,... source trees to compare")
    parser.add_argument("--runs", type=int, default=3, help="with --players: interleaved runs of each tree")
    parser.add_argument("--random-games", type=int, default=20, help="with --players: random games a run")
    parser.add_argument("--greedy-games", type=int, default=10, help="with --players: greedy games a run")
    parser.add_argument("--hands-of", default="", metavar="VARIANT,...",
                        help="with --players: also random first hands a CPU second of these variants "
                             "(ten times --hands of each)")
    parser.add_argument("--players-child", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.players_child:
        variant, random_games, greedy_games, hands, seed, others = args.players_child
        players_child(variant, int(random_games), int(greedy_games), int(hands), int(seed),
                      [v for v in others.split(",") if v])
        return
    if args.players:
        if args.hands == "1000,100000":
            args.hands = "30"
        args.hands = int(args.hands)
        args.seed = args.seed if args.seed != 1 else 0
        players_main(args)
        return
    if args.driver_child is not None:
        driver_memory(args.driver_child)
        return
    if args.driver_memory:
        print("| canned hands | driver peak RSS MiB | traced peak MiB | traced bytes per hand | kept |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for count in (int(c) for c in args.driver_memory.split(",")):
            done = subprocess.run([sys.executable, __file__, "--driver-child", str(count)],
                                  capture_output=True, text=True, check=True)
            data = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"| {count:,} | {data['peak_kib'] / 1024:.1f} | {data['traced'] / 2 ** 20:.2f} | "
                  f"{data['traced'] / count:.1f} | {data['kept']:,} |", flush=True)
        return
    if args.child:
        backend, unit, count, seed, variant = args.child
        child(backend, unit, int(count), int(seed), variant)
        return
    print(f"# bench_scale: {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f} at the start, variant {args.variant}, greedy agents, seed {args.seed}")
    print()
    print("| unit | count | backend | tree CPU s | wall s | per CPU s | per wall s | CPU/wall "
          "| driver CPU s | driver peak RSS MiB | kept |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    plan = [("games", int(c)) for c in args.games.split(",") if c] + \
           [("hands", int(c)) for c in args.hands.split(",") if c]
    best: dict[tuple[str, int, str], Run] = {}
    for unit, count in plan:
        large = count > 10_000
        names = (args.large_backends if large else args.backends).split(",")
        reference: dict[str, Any] | None = None
        for _ in range(1 if large else args.repeats):
            for name in names:
                run = measure(name, unit, count, args.seed, args.variant)
                if reference is None:
                    reference = run.figures
                elif run.figures != reference:
                    raise SystemExit(f"{name} gave other figures than the first backend at {unit} {count}")
                print(f"| {unit} | {count:,} | {name} | {run.cpu:.2f} | {run.wall:.2f} | "
                      f"{count / run.cpu:.1f} | {count / run.wall:.1f} | {run.cpu / run.wall:.2f} | "
                      f"{run.driver_cpu:.2f} | {run.driver_peak_kib / 1024:.1f} | {run.kept:,} |", flush=True)
                key = (unit, count, name)
                if key not in best or run.cpu < best[key].cpu:
                    best[key] = run
    print()
    print("Best run of each (least tree CPU); Ray's overhead is its CPU (and wall) over local2's.")
    print()
    print("| unit | count | backend | per CPU s | CPU ms per unit | Ray CPU / local2 CPU | Ray wall / local2 wall |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for (unit, count, name), run in best.items():
        ratio = wall_ratio = ""
        local2 = best.get((unit, count, "local2"))
        if name == "ray" and local2 is not None:
            ratio = f"{run.cpu / local2.cpu:.3f}"
            wall_ratio = f"{run.wall / local2.wall:.3f}"
        print(f"| {unit} | {count:,} | {name} | {count / run.cpu:.1f} | {1000 * run.cpu / count:.3f} | "
              f"{ratio} | {wall_ratio} |")
    print(f"\nload {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
