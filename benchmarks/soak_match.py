"""Soak `Match`: thousands of whole random games through action ids only (issue 18).

Every shipped variant at every player count, seeded and with explicit chance, played to
the end through ids alone, checking each state as tests/unit/test_match.py does (the
mask is the legal set, each step undone to the same state) and, every ``--deep`` steps
of a game's first ``--deep-until`` steps, copies, resampling for every seat against its
observation, and JSON against the state (a JSON check replays the whole game: late in a
long game it is the costly part).
Not part of the test run: it takes minutes to hours. Prints one line per variant (the
same games as ``RUMMYDSL_MATCH_GAMES=N pytest tests/unit/test_match.py -k through_ids``).

    python benchmarks/soak_match.py --games 40 --deep 25 --deep-until 400
    python benchmarks/soak_match.py --games 5 --only gin_rummy skarney_gin
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))

from test_match import play_through_ids  # noqa: E402

from rummydsl import Match  # noqa: E402
from rummydsl.variant import load_variant, shipped_variant_ids  # noqa: E402


def soak(vid: str, players: int, chance: str, games: int, deep: int, seed: int, until: int) -> tuple[int, int]:
    variant = load_variant(vid)
    steps = 0
    for game in range(games):
        m = Match.new(variant, seed=seed + game, players=players, chance=chance)
        rng = random.Random(f"{vid}/{players}/{chance}/{seed + game}")
        steps += play_through_ids(m, rng, steps=None, deep_every=deep, deep_until=until)
    return games, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per variant, player count and chance mode")
    parser.add_argument("--deep", type=int, default=25, help="the deep checks every this many steps")
    parser.add_argument("--deep-until", type=int, default=400, help="deep checks only in each game's first steps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="variant ids, played in this order (default: every shipped one)")
    parser.add_argument("--players", nargs="*", type=int, default=None,
                        help="player counts (default: every count each variant allows)")
    parser.add_argument("--chance", nargs="*", choices=("seeded", "explicit"), default=("seeded", "explicit"),
                        help="how the cards are dealt (default: both)")
    args = parser.parse_args()
    total_games = total_steps = 0
    start = time.process_time()
    for vid in args.only or shipped_variant_ids():  # --only's order: cheap variants first, say
        low, high = load_variant(vid).players_range
        for players in range(low, high + 1):
            if args.players and players not in args.players:
                continue
            for chance in args.chance:
                games, steps = soak(vid, players, chance, args.games, args.deep, args.seed, args.deep_until)
                total_games += games
                total_steps += steps
                print(f"{vid:24} {players} {chance:8} {games} games {steps:8,} steps ok", flush=True)
    print(f"all {total_games:,} games ({total_steps:,} steps) ok in {time.process_time() - start:,.0f} s of CPU")


if __name__ == "__main__":
    main()
