"""Benchmark the game engine: random hands, greedy games, scaling, memory and a profile.

A plain script, not a test (no test has a wall-clock limit)::

    python benchmarks/bench_engine.py [--seed S] [--quick] [--sections gin,variants,...]

It prints Markdown tables, every figure from the one run:

``gin``
    Random Gin Rummy hands per second, side by side with OpenSpiel's
    ``gin_rummy`` (C++, driven from Python) and RLCard's ``GinRummyGame`` (pure
    Python): uniform random legal actions to the end of one hand (OpenSpiel's
    chance nodes sampled uniformly from the legal outcomes, as cheaply as a Python
    driver can), with the mean actions per hand and how the hands ended; rummydsl
    through its play loop (``play_round``, a ``RandomAgent`` a seat) and through
    ``Match`` by ids. Passes over the same hands alternate between the engines (the
    machine is shared): each engine's median pass and its spread, and the ratios
    pass by pass.
``variants``
    Every shipped variant: random hands per second, and whole games to the
    target per second with greedy agents.
``scaling``
    Cost per hand against the number of players (Ginski for 2, 3 and 4 players)
    and against the hand size (Gin Rummy dealing 7, 10 and 13 cards), from small
    house-rule files written to a temporary folder.
``family``
    The wider rummy family (every shipped variant citing KR-, BR-, R5-, G3- or CR-
    rule ids): whole games per second with random and with greedy agents (and the
    hands of those games per second: three-handed Gin's random hands are nearly
    all void, so its random games are long), and the
    cost per hand against the number of players (2 to 6, where the rules allow),
    random and greedy, from house-rule files that set ``players``.
``memory``
    Random Gin hands in fresh processes: the peak of traced memory
    (``tracemalloc``), what is still allocated at the end, the peak RSS, and the
    live pymalloc blocks every tenth of the way.
``profile``
    ``cProfile`` of random hands: the top functions by cumulative and by own time.

Rates are per CPU second of this process (``time.process_time``), as the
machine is shared; each table also shows how crowded it was (CPU over wall time).

The peers are optional (``pip install open-spiel rlcard``); a missing one shows
as ``-``. See benchmarks/README.md and docs/performance.md ("Engine").
"""

from __future__ import annotations

import argparse
import cProfile
import collections
import gc
import importlib
import importlib.util
import json
import os
import platform
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from rummydsl import Match
from rummydsl.agents import RandomAgent, make_agents
from rummydsl.engine import Game, Round, play_game, play_round
from rummydsl.variant import Variant, load_variant, shipped_variant_ids

REPO = Path(__file__).resolve().parent.parent
SECTIONS = ("gin", "variants", "scaling", "family", "memory", "profile")

#: The reference figures of the brief, measured on this kind of machine on 2026-11-30.
REFERENCE = {"OpenSpiel": 399.0, "RLCard": 378.0}


@dataclass
class Sample:
    """One timed pass: how many hands (or games), how long, and what they did."""

    hands: int
    seconds: float
    """CPU seconds of this process (``time.process_time``).

    Other load on a shared machine moves it far less than wall time."""
    wall: float
    """Wall-clock seconds of the same pass."""
    actions: int = 0
    """Decisions made by the players (not chance events)."""
    chance: int = 0
    """Chance events sampled by the driver (OpenSpiel's deal and stock draws)."""
    endings: collections.Counter[str] = field(default_factory=collections.Counter)
    rounds: int = 0
    """Rounds played (games only)."""

    @property
    def rate(self) -> float:
        """Hands (or games) per CPU second."""
        return self.hands / self.seconds if self.seconds else float("inf")

    @property
    def ms(self) -> float:
        """CPU milliseconds per hand (or game)."""
        return self.seconds / self.hands * 1e3


class Stopwatch:
    """CPU time and wall time since it was made."""

    def __init__(self) -> None:
        self.cpu = time.process_time()
        self.wall = time.perf_counter()

    def read(self) -> tuple[float, float]:
        """(CPU seconds, wall seconds) so far."""
        return time.process_time() - self.cpu, time.perf_counter() - self.wall


def best(samples: Sequence[Sample]) -> Sample:
    """The fastest pass (the others only add the machine's noise)."""
    return min(samples, key=lambda s: s.seconds)


def endings_text(counter: collections.Counter[str], total: int) -> str:
    """How hands ended, most common first: ``void 97%, knock 3%``."""
    return ", ".join(f"{name} {count / total:.0%}" for name, count in counter.most_common())


# --------------------------------------------------------------------------- rummydsl


def random_hands(variant: Variant, count: int, seed: int, agents: str = "random") -> Sample:
    """``count`` first deals of ``variant``, played to the end with ``agents`` at every
    seat (random by default); the dealer rotates."""
    rng = random.Random(seed)
    n = variant.players
    endings: collections.Counter[str] = collections.Counter()
    actions = 0
    watch = Stopwatch()
    for number in range(count):
        rnd = Round.deal(variant, rng, dealer=number % n, players=n)
        seats = ([RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(n)] if agents == "random"
                 else make_agents(agents, n, random.Random(rng.getrandbits(64))))
        result = play_round(rnd, seats)
        actions += len(rnd.actions)
        endings[result.ending] += 1
    return Sample(count, *watch.read(), actions, 0, endings)


def match_hands(variant: Variant, count: int, seed: int) -> Sample:
    """``count`` first deals of ``variant`` through the state you step, :class:`~rummydsl.Match`
    without history (as an environment or a search steps it): ``m.apply(choice(m.legal_ids()))``
    until the round ends (that apply deals the next round, which is not played)."""
    rng = random.Random(seed)
    endings: collections.Counter[str] = collections.Counter()
    actions = 0
    watch = Stopwatch()
    for _ in range(count):
        m = Match.new(variant, seed=rng.getrandbits(63), history=False)
        while True:
            legal = m.legal_ids()
            actions += 1
            result = m.apply(legal[rng.randrange(len(legal))]).result
            if result is not None:
                break
        endings[result.ending] += 1
    return Sample(count, *watch.read(), actions, 0, endings)


def greedy_games(variant: Variant, count: int, seed: int, agents: str = "greedy") -> Sample:
    """``count`` whole games (to the target, match or Hollywood sheet) with ``agents`` at every seat."""
    rounds = 0
    endings: collections.Counter[str] = collections.Counter()
    watch = Stopwatch()
    for number in range(count):
        rng = random.Random(seed * 1000 + number)
        game = Game(variant, rng)
        play_game(game, make_agents(agents, game.players, rng))
        rounds += len(game.results)
        endings.update(r.ending for r in game.results)
    return Sample(count, *watch.read(), 0, 0, endings, rounds)


# --------------------------------------------------------------------------- peers


def sample_chance(state: Any, rng: random.Random) -> int:
    """An OpenSpiel chance outcome drawn uniformly from the legal outcomes, with one
    ``rng.randrange``: as cheap as an OpenSpiel driver can sample in Python (no walk over
    ``chance_outcomes()``). Right for ``gin_rummy``, whose every chance node (the deal, a
    stock draw) is uniform over the cards left: :func:`check_uniform_chance` checks it."""
    legal = state.legal_actions()
    return int(legal[rng.randrange(len(legal))])


def sample_chance_weighted(state: Any, rng: random.Random) -> int:
    """An OpenSpiel chance outcome drawn by its probability with one ``rng.random()``,
    walking ``chance_outcomes()`` in Python (the driver before issue 22: about 13% of
    OpenSpiel's hand)."""
    x = rng.random()
    outcomes = state.chance_outcomes()
    action: int = outcomes[-1][0]
    for outcome, p in outcomes:
        x -= p
        if x < 0:
            return int(outcome)
    return action


def check_uniform_chance(game: Any, hands: int = 3, seed: int = 1) -> None:
    """Play a few random ``gin_rummy`` hands and check that at every chance node the
    outcomes are the legal actions, all of one probability (what :func:`sample_chance`
    assumes). :raises AssertionError: where they are not."""
    rng = random.Random(seed)
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == list(state.legal_actions()), "chance outcomes are not the legal actions"
                assert max(p for _, p in outcomes) - min(p for _, p in outcomes) < 1e-12, "chance is not uniform"
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def openspiel_runner(fresh: bool) -> Callable[[int, int], Sample] | None:
    """Random OpenSpiel ``gin_rummy`` hands; ``fresh``: ``new_initial_state()`` per hand,
    else a clone of one initial state (OpenSpiel builds its meld tables per new state)."""
    try:
        import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    check_uniform_chance(game)
    knock = pyspiel.gin_rummy.KNOCK_ACTION
    initial = game.new_initial_state()

    def run(count: int, seed: int) -> Sample:
        rng = random.Random(seed)
        endings: collections.Counter[str] = collections.Counter()
        actions = chance = 0
        watch = Stopwatch()
        for _ in range(count):
            state = game.new_initial_state() if fresh else initial.clone()
            knocked = False
            while not state.is_terminal():
                if state.is_chance_node():
                    action = sample_chance(state, rng)
                    chance += 1
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    knocked = knocked or action == knock
                    actions += 1
                state.apply_action(action)
            endings["knock or gin" if knocked else "wall (stock at 2)"] += 1
        return Sample(count, *watch.read(), actions, chance, endings)

    return run


def rlcard_game_runner() -> Callable[[int, int], Sample] | None:
    """Random RLCard hands through ``GinRummyGame`` (the engine, no observation encoding)."""
    try:
        import numpy as np
        from rlcard.games.gin_rummy.game import GinRummyGame  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None
    game = GinRummyGame()
    names = {"DeclareDeadHandAction": "dead hand (stock at 2)", "KnockAction": "knock", "GinAction": "gin"}

    def run(count: int, seed: int) -> Sample:
        rng = random.Random(seed)
        game.np_random = np.random.RandomState(seed)
        endings: collections.Counter[str] = collections.Counter()
        actions = 0
        watch = Stopwatch()
        for _ in range(count):
            game.init_game()
            while not game.is_over():
                legal = game.judge.get_legal_actions()
                game.step(legal[rng.randrange(len(legal))])
            actions += len(game.actions)
            last = type(game.actions[-3]).__name__  # before the two scoring steps
            endings[names.get(last, last)] += 1
        return Sample(count, *watch.read(), actions, 0, endings)

    return run


def rlcard_env_runner() -> Callable[[int, int], Sample] | None:
    """Random RLCard hands through ``rlcard.make("gin-rummy")`` (encodes an observation per step)."""
    try:
        import rlcard  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None

    def run(count: int, seed: int) -> Sample:
        rng = random.Random(seed)
        env = rlcard.make("gin-rummy", config={"seed": seed})
        actions = 0
        watch = Stopwatch()
        for _ in range(count):
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                actions += 1
        return Sample(count, *watch.read(), actions)

    return run


# --------------------------------------------------------------------------- sections


def section_gin(args: argparse.Namespace) -> None:
    """Random Gin hands: rummydsl, OpenSpiel and RLCard, interleaved passes, ratios."""
    gin = load_variant("gin_rummy")
    engines: list[tuple[str, Callable[[int, int], Sample] | None]] = [
        ("rummydsl", lambda count, seed: random_hands(gin, count, seed)),
        ("rummydsl Match by ids", lambda count, seed: match_hands(gin, count, seed)),
        ("OpenSpiel (new_initial_state per hand)", openspiel_runner(fresh=True)),
        ("OpenSpiel (clone of one initial state)", openspiel_runner(fresh=False)),
        ("RLCard (GinRummyGame)", rlcard_game_runner()),
        ("RLCard (rlcard.make env)", rlcard_env_runner()),
    ]
    samples: dict[str, list[Sample]] = {name: [] for name, run in engines if run}
    for name, run in engines:
        if run:
            run(min(20, args.hands), args.seed + 1)  # warm up: tables, imports, caches
    for _ in range(args.repeat):
        for name, run in engines:
            if run:
                samples[name].append(run(args.hands, args.seed))
    print(f"## Random Gin Rummy hands ({args.hands} hands a pass, {args.repeat} interleaved passes; "
          "hands per CPU second: the median pass, and the lowest to the highest)")
    print()
    print("| engine | hands/s | spread | ms/hand | mean actions/hand | chance events/hand | µs/action | CPU/wall "
          "| how hands end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, run in engines:
        if not run:
            print(f"| {name} | - | - | - | - | - | - | - | not installed |")
            continue
        s = median_sample(samples[name])
        rates = [x.rate for x in samples[name]]
        chance = f"{s.chance / s.hands:.1f}" if s.chance else "-"
        ends = endings_text(s.endings, s.hands) if s.endings else "(not recorded)"
        print(f"| {name} | {s.rate:.0f} | {min(rates):.0f}–{max(rates):.0f} | {s.ms:.2f} | {s.actions / s.hands:.1f} "
              f"| {chance} | {s.seconds / s.actions * 1e6:.1f} | {s.seconds / s.wall:.2f} | {ends} |")
    print()
    ours_names = [name for name, run in engines if run and name.startswith("rummydsl")]
    print("Ratios, pass by pass (each rummydsl pass over the peer's pass beside it): the median, and the lowest "
          "to the highest.")
    print()
    print("| peer | " + " | ".join(f"{name} / peer" for name in ours_names)
          + " | peer's reference (2026-11-30) | peer now / reference |")
    print("| --- | " + " | ".join("---:" for _ in ours_names) + " | ---: | ---: |")
    for name, run in engines:
        if not run or name.startswith("rummydsl"):
            continue
        cells = []
        for ours in ours_names:
            ratios = pass_ratios(samples[ours], samples[name])
            cells.append(f"**{statistics.median(ratios):.2f}x** ({min(ratios):.2f}–{max(ratios):.2f})")
        theirs = median_sample(samples[name]).rate
        key = "OpenSpiel" if name.startswith("OpenSpiel") else "RLCard"
        ref = REFERENCE[key] if "new_initial" in name or "GinRummyGame" in name else None
        print(f"| {name} | " + " | ".join(cells) + f" | {f'{ref:.0f}' if ref else '-'} "
              f"| {f'{theirs / ref:.2f}' if ref else '-'} |")
    print()
    print("Goals (issue 22): at least 2x OpenSpiel's usual loop (new_initial_state per hand) and at least 1x "
          "its clone loop, the median of the passes.")
    print()


def median_sample(samples: Sequence[Sample]) -> Sample:
    """The pass of the median rate (the lower middle one of an even count)."""
    ordered = sorted(samples, key=lambda s: s.rate)
    return ordered[(len(ordered) - 1) // 2]


def pass_ratios(ours: Sequence[Sample], theirs: Sequence[Sample]) -> list[float]:
    """Our rate over theirs, pass by pass (passes run side by side share the machine's load)."""
    return [a.rate / b.rate for a, b in zip(ours, theirs)]


def section_variants(args: argparse.Namespace) -> None:
    """Every shipped variant: random hands and greedy games per CPU second."""
    print(f"## Every shipped variant ({args.variant_hands} random hands; {args.games} greedy games)")
    print()
    print("| variant | players | random hands/s | ms/hand | actions/hand | µs/action | how random hands end "
          "| greedy games/s | rounds/game | ms/greedy round |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    rates: dict[str, float] = {}
    for variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
        random_hands(variant, 3, args.seed + 1)  # warm up the solver's tables
        hands = random_hands(variant, args.variant_hands, args.seed)
        games = greedy_games(variant, args.games, args.seed)
        rates[variant_id] = hands.rate
        print(f"| {variant_id} | {variant.players} | {hands.rate:.1f} | {hands.ms:.2f} "
              f"| {hands.actions / hands.hands:.1f} | {hands.seconds / hands.actions * 1e6:.1f} "
              f"| {endings_text(hands.endings, hands.hands)} | {games.rate:.2f} | {games.rounds / games.hands:.1f} "
              f"| {games.seconds / games.rounds * 1e3:.1f} |", flush=True)
    print()
    if "gin_rummy" in rates and "skarney_gin" in rates:
        share = rates["skarney_gin"] / rates["gin_rummy"]
        print(f"Goal: Skarney random hands/s at least 1/3 of Gin's. This run: {share:.3f} of Gin's "
              f"({rates['skarney_gin']:.1f} against {rates['gin_rummy']:.1f}).")
        print()


HOUSE_RULE = """rummydsl: 1
id: {id}
extends: {parent}
name: {id}
description: A house rule written by benchmarks/bench_engine.py (scaling).
{body}
"""


def section_scaling(args: argparse.Namespace) -> None:
    """Cost per hand against players (Ginski) and hand size (Gin), from house-rule files."""
    rows: list[tuple[str, str, dict[str, Any]]] = [
        ("players", "ginski", {"players": n}) for n in (2, 3, 4)
    ] + [("hand size", "gin_rummy", {"hand_size": n}) for n in (7, 10, 13)]
    print(f"## Scaling ({args.scaling_hands} random hands each)")
    print()
    print("| house rule | players | hand size | hands/s | ms/hand | actions/hand | µs/action "
          "| ms/hand per player | how hands end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for axis, parent, setting in rows:
            key, n = next(iter(setting.items()))
            ident = f"{parent}_{key}_{n}"
            body = f"players: {{count: {n}}}" if key == "players" else f"deal: {{hand_size: {n}}}"
            path = Path(folder) / f"{ident}.yaml"
            path.write_text(HOUSE_RULE.format(id=ident, parent=parent, body=body), encoding="utf-8")
            variant = load_variant(str(path))
            random_hands(variant, 3, args.seed + 1)
            s = random_hands(variant, args.scaling_hands, args.seed)
            print(f"| {parent} + {body} | {variant.players} | {variant.deal.hand_size} | {s.rate:.1f} "
                  f"| {s.ms:.2f} | {s.actions / s.hands:.1f} | {s.seconds / s.actions * 1e6:.1f} "
                  f"| {s.ms / variant.players:.2f} | {endings_text(s.endings, s.hands)} |", flush=True)
    print()


FAMILY_PREFIXES = ("KR-", "BR-", "R5-", "G3-", "CR-")


def family_variants() -> list[Variant]:
    """The shipped variants that cite a rule of RULES-FAMILY.md."""
    found = []
    for variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
        if any(str(rule).startswith(FAMILY_PREFIXES) for rule in getattr(variant, "rules", ()) or ()):
            found.append(variant)
    return found


def dealt_size(variant: Variant, seed: int) -> int:
    """The most cards a player is dealt in a first deal (the hand size may depend on the count)."""
    n = variant.players
    rnd = Round.deal(variant, random.Random(seed), dealer=0, players=n)
    return max(len(hand) for hand in rnd.hands)


def hands_rate(games: Sample) -> float:
    """Hands (rounds, void ones included) per CPU second of whole games: the figure for
    a game whose random hands are nearly all void, and so long in games (three-handed Gin)."""
    return games.rounds / games.seconds if games.seconds else float("inf")


def section_family(args: argparse.Namespace) -> None:
    """The rummy family: games/s and hands/s with random and greedy agents, and cost per
    hand by player count."""
    variants = family_variants()
    print(f"## The rummy family ({args.games} games per agent kind; {args.scaling_hands} hands per row)")
    print()
    print("| variant | players | random games/s | random hands/s | rounds/game | greedy games/s "
          "| greedy hands/s | rounds/game | how greedy rounds end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for variant in variants:
        random_hands(variant, 3, args.seed + 1)
        randoms = greedy_games(variant, args.games, args.seed, "random")
        greedies = greedy_games(variant, args.games, args.seed, "greedy")
        print(f"| {variant.id} | {variant.players} | {randoms.rate:.2f} | {hands_rate(randoms):.1f} "
              f"| {randoms.rounds / randoms.hands:.1f} | {greedies.rate:.2f} | {hands_rate(greedies):.1f} "
              f"| {greedies.rounds / greedies.hands:.1f} "
              f"| {endings_text(greedies.endings, greedies.rounds)} |", flush=True)
    print()
    print("Cost per hand against the number of players:")
    print()
    print("| variant | players | hand size | random ms/hand | actions/hand | ms/hand per player "
          "| greedy ms/hand | how random hands end |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for parent in variants:
            low, high = parent.players_range
            for n in range(max(2, low), min(6, high) + 1):
                ident = f"{parent.id}_players_{n}"
                path = Path(folder) / f"{ident}.yaml"
                path.write_text(HOUSE_RULE.format(id=ident, parent=parent.id, body=f"players: {{count: {n}}}"),
                                encoding="utf-8")
                variant = load_variant(str(path))
                random_hands(variant, 3, args.seed + 1)
                s = random_hands(variant, args.scaling_hands, args.seed)
                g = random_hands(variant, max(1, args.scaling_hands // 4), args.seed, "greedy")
                print(f"| {parent.id} | {n} | {dealt_size(variant, args.seed)} | {s.ms:.2f} "
                      f"| {s.actions / s.hands:.1f} | {s.ms / n:.2f} | {g.ms:.2f} "
                      f"| {endings_text(s.endings, s.hands)} |", flush=True)
    print()


def peak_rss_kib() -> tuple[int, str]:
    """This process's peak resident set: ``VmHWM`` where /proc has it, else ``ru_maxrss``.

    A child's ``ru_maxrss`` on Linux starts from its parent's peak at ``fork`` (the
    figure survives ``exec``), so it would report the parent; ``VmHWM`` does not.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]), "VmHWM"
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "ru_maxrss"


def memory_child(count: int, seed: int, trace: bool) -> dict[str, Any]:
    """Run in a fresh process: ``count`` random Gin hands after a warm-up, measured.

    Every tenth of the way it notes the live pymalloc blocks and (traced) the
    traced memory now, so growth shows as a curve, not just an end figure.
    """
    gin = load_variant("gin_rummy")
    random_hands(gin, 20, seed + 1)  # the solver's tables and every code path are built
    gc.collect()
    if trace:
        tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0] if trace else 0
    blocks = [sys.getallocatedblocks()]
    traced = [0.0]
    step = max(1, count // 10)
    rng_seed = seed
    done = 0
    watch = Stopwatch()
    while done < count:
        n = min(step, count - done)
        random_hands(gin, n, rng_seed)
        rng_seed += 1
        done += n
        blocks.append(sys.getallocatedblocks())
        if trace:
            traced.append((tracemalloc.get_traced_memory()[0] - base) / 1024)
    seconds, wall = watch.read()
    rss, source = peak_rss_kib()
    out: dict[str, Any] = {"hands": count, "seconds": seconds, "wall": wall, "blocks": blocks, "traced": traced,
                           "peak_rss_kib": rss, "rss_source": source,
                           "ru_maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        out.update(peak_kib=(peak - base) / 1024, retained_kib=(current - base) / 1024)
    return out


def start_memory_child(count: int, seed: int, trace: bool) -> subprocess.Popen[str]:
    """Start :func:`memory_child` in a fresh interpreter (its answer is JSON on stdout)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--memory-child", str(count), "--seed", str(seed)]
    if trace:
        command.append("--trace")
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)


def child_result(child: subprocess.Popen[str]) -> dict[str, Any]:
    """Wait for a memory child and read its JSON answer."""
    out, _ = child.communicate()
    if child.returncode:
        raise RuntimeError(f"memory child {child.args!r} failed with exit status {child.returncode}")
    result: dict[str, Any] = json.loads(out)
    return result


def section_memory(args: argparse.Namespace) -> None:
    """Memory over ``--mem-hands`` random Gin hands, each count in fresh processes."""
    counts = [0] + [int(c) for c in args.mem_hands.split(",") if c.strip()]
    print("## Memory (random Gin hands after a 20-hand warm-up, each count in fresh processes: "
          f"one with tracemalloc (counts up to {args.trace_max:,}), one without, all run side by side)")
    print()
    print("| hands | tracemalloc peak above start (KiB) | traced at the end (KiB) "
          "| peak RSS, traced (MiB) | peak RSS, untraced (MiB) | live pymalloc blocks: after warm-up → end (max) "
          "| untraced hands/s |")
    print("| ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    children = [(start_memory_child(count, args.seed, True) if count <= args.trace_max else None,
                 start_memory_child(count, args.seed, False)) for count in counts]
    curves = []
    source = "?"
    for count, (traced_child, plain_child) in zip(counts, children):
        traced = child_result(traced_child) if traced_child else None
        plain = child_result(plain_child)
        source = plain["rss_source"]
        blocks = plain["blocks"]
        rate = f"{count / plain['seconds']:.0f}" if count else "-"
        cells = ([f"{traced['peak_kib']:.0f}", f"{traced['retained_kib']:.1f}", f"{traced['peak_rss_kib'] / 1024:.1f}"]
                 if traced else ["-", "-", "-"])
        print(f"| {count:,} | " + " | ".join(cells) + f" | {plain['peak_rss_kib'] / 1024:.1f} "
              f"| {blocks[0]:,} → {blocks[-1]:,} ({max(blocks):,}) | {rate} |", flush=True)
        curves.append((count, traced["traced"] if traced else None, blocks))
    print()
    print(f"Peak RSS is {source} of each child (ru_maxrss of a child starts from its parent's peak). "
          "Every tenth of the run:")
    print()
    for count, traced_curve, blocks in curves[1:]:
        traced_text = ("traced KiB " + ", ".join(f"{x:.0f}" for x in traced_curve) + "; ") if traced_curve else ""
        print(f"- {count:,} hands: {traced_text}live blocks " + ", ".join(f"{b:,}" for b in blocks))
    print()


def _where(key: tuple[str, int, str]) -> str:
    """A profile key as ``path:line(function)``, the path relative to the repository or stdlib."""
    path, line, name = key
    if path == "~":
        return name
    for root in (str(REPO) + os.sep, os.path.dirname(os.__file__) + os.sep, sys.prefix + os.sep):
        if path.startswith(root):
            path = path[len(root):]
    return f"{path}:{line}({name})"


def section_profile(args: argparse.Namespace) -> None:
    """cProfile of random hands for each ``--profile VARIANT=HANDS``: top functions."""
    for spec in args.profile.split(","):
        if not spec.strip():
            continue
        variant_id, _, hands_text = spec.partition("=")
        hands = int(hands_text or "1000")
        variant = load_variant(variant_id.strip())
        random_hands(variant, 3, args.seed + 1)
        profiler = cProfile.Profile()
        watch = Stopwatch()
        profiler.enable()
        random_hands(variant, hands, args.seed)
        profiler.disable()
        cpu, wall = watch.read()
        stats = pstats.Stats(profiler)
        table: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = stats.stats  # type: ignore[attr-defined]
        total = max(ct for (_, _, _, ct, _) in table.values())
        here = str(Path(__file__).resolve())
        rows = [(key, value) for key, value in table.items()
                if key[0] != here and key[2] not in ("<built-in method builtins.exec>",)
                and "_lsprof" not in key[2] and "disable" not in key[2]]
        for title, index in (("cumulative", 3), ("own", 2)):
            print(f"## Profile: {hands} random {variant_id} hands, top {args.top} by {title} time")
            print()
            print(f"cProfile's clock is wall time; shares are of the {total:.2f} s it counted. "
                  f"The same pass took {cpu:.2f} s of CPU ({cpu / wall:.0%} of its wall time; profiling "
                  "included): µs per hand below are CPU, the shares applied to that.")
            print()
            print("| function | calls per hand | own % | cumulative % | own µs per hand | cumulative µs per hand |")
            print("| --- | ---: | ---: | ---: | ---: | ---: |")
            ranked = sorted(rows, key=lambda kv: kv[1][index], reverse=True)[: args.top]
            for key, (cc, nc, tt, ct, _) in ranked:
                print(f"| `{_where(key)}` | {nc / hands:.1f} | {tt / total:.1%} | {ct / total:.0%} "
                      f"| {tt / total * cpu / hands * 1e6:.0f} | {ct / total * cpu / hands * 1e6:.0f} |")
            print()


# --------------------------------------------------------------------------- main


def versions() -> str:
    """The run's date, commit, Python, CPUs, load and peer versions, on one line."""
    from importlib import metadata

    parts = []
    for package, module in (("open-spiel", "pyspiel"), ("rlcard", "rlcard"), ("numpy", "numpy")):
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:  # not installed, or only importable (a directory on the path)
            spec = importlib.util.find_spec(module)
            found = getattr(importlib.import_module(module), "__version__", "?") if spec is not None else None
            parts.append(f"{package} {found} (on the path)" if found is not None else f"{package} not installed")
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=REPO, check=False).stdout.strip() or "?"
    except OSError:
        commit = "?"
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; commit {commit}; python {platform.python_version()}; "
            f"{os.cpu_count()} CPUs ({platform.machine()}); load average {load}; " + ", ".join(parts))


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and run the chosen sections (or one memory child)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--quick", action="store_true", help="a short smoke run (small counts)")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma list of sections to run (default: all of {','.join(SECTIONS)})")
    parser.add_argument("--hands", type=int, default=1000, help="Gin hands per engine per pass (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved passes of the Gin section (default 3)")
    parser.add_argument("--variant-hands", type=int, default=200, help="random hands per variant (default 200)")
    parser.add_argument("--games", type=int, default=10, help="greedy games per variant (default 10)")
    parser.add_argument("--scaling-hands", type=int, default=200, help="random hands per scaling row (default 200)")
    parser.add_argument("--mem-hands", default="1000",
                        help="comma list of hand counts for the memory section (default 1000; docs: 1000,100000)")
    parser.add_argument("--trace-max", type=int, default=100_000,
                        help="trace memory (tracemalloc, about 5x slower) only for counts up to this (default 100000)")
    parser.add_argument("--profile", default="gin_rummy=1000,skarney_gin=20",
                        help="comma list of VARIANT=HANDS to profile (default gin_rummy=1000,skarney_gin=20)")
    parser.add_argument("--top", type=int, default=15, help="rows per profile table (default 15)")
    parser.add_argument("--memory-child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child is not None:
        print(json.dumps(memory_child(args.memory_child, args.seed, args.trace)))
        return 0
    if args.quick:
        args.hands, args.repeat, args.variant_hands, args.games = 40, 1, 5, 1
        args.scaling_hands, args.mem_hands, args.profile = 10, "50", "gin_rummy=50"
    chosen = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    print(f"# bench_engine.py --seed {args.seed}{' --quick' if args.quick else ''}")
    print()
    print(versions())
    print()
    runners = {"gin": section_gin, "variants": section_variants, "scaling": section_scaling,
               "family": section_family, "memory": section_memory, "profile": section_profile}
    for name in SECTIONS:
        if name in chosen:
            watch = Stopwatch()
            runners[name](args)
            cpu, wall = watch.read()
            print(f"({name}: {cpu:.0f} s CPU, {wall:.0f} s wall)")
            print(flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
