"""The meld step's listing alone: µs of CPU a listing (``MeldMechanic.options``), replayed.

Plays ``--hands`` random first hands of each variant (after ``--warm`` others), keeps a
copy of the round at every meld-step listing, then lists each copy again, ``--repeat``
times, and prints the median and range by kind of listing: a player who has not met the
contract (the lay-downs that meet it), and the rest (single melds and lay-offs). The
copies are listed with what the play that recorded them kept (the judged groups and
blocks, what is known of each meld's cards): the listing's own cost at the pace of play,
not a new hand's. To compare two trees, run it from each in turn with ``PYTHONPATH`` set
to the tree (docs/performance.md, "The meld step's listing kept").

    python benchmarks/listing_speed.py --variants skarney_gin,rummy --hands 200 --seed 2026
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from rummydsl.agents import RandomAgent
from rummydsl.engine import Round, play_round
from rummydsl.engine.mechanics import melding
from rummydsl.variant import load_variant


def record(variant: Any, hands: int, seed: int) -> list[tuple[Round, int, bool]]:
    """A copy of the round at each meld-step listing of ``hands`` random first hands."""
    kept: list[tuple[Round, int, bool]] = []
    real = melding.MeldMechanic.options

    def options(self: melding.MeldMechanic, rnd: Round, player: int) -> list[Any]:
        kept.append((rnd.copy(), player, bool(rnd.met_contract[player])))
        return real(self, rnd, player)

    melding.MeldMechanic.options = options  # type: ignore[method-assign]
    try:
        rng = random.Random(seed)
        for number in range(hands):
            rnd = Round.deal(variant, rng, dealer=number % variant.players, players=variant.players)
            play_round(rnd, [RandomAgent(random.Random(rng.getrandbits(64))) for _ in range(variant.players)])
    finally:
        melding.MeldMechanic.options = real  # type: ignore[method-assign]
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", default="skarney_gin", help="comma-separated variant ids")
    parser.add_argument("--hands", type=int, default=200, help="random hands recorded a variant")
    parser.add_argument("--warm", type=int, default=200, help="random hands played first (not recorded)")
    parser.add_argument("--repeat", type=int, default=5, help="passes over the recorded listings")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    mechanic = melding.MeldMechanic()
    print(f"python {sys.version.split()[0]}; {args.hands} random hands recorded after {args.warm}, "
          f"seed {args.seed}; µs of CPU a listing, median of {args.repeat} passes (range)")
    print()
    print("| variant | listing | listings | µs each | range |")
    print("| --- | --- | ---: | ---: | --- |")
    for vid in args.variants.split(","):
        variant = load_variant(vid)
        record(variant, args.warm, args.seed + 1)
        kept = record(variant, args.hands, args.seed)
        for met, label in ((False, "contract not met"), (True, "single melds and lay-offs")):
            rounds = [(rnd, player) for rnd, player, done in kept if done is met]
            if not rounds:
                continue
            times = []
            for _ in range(args.repeat):
                copies = [(rnd.copy(), player) for rnd, player in rounds]
                start = time.process_time()
                for rnd, player in copies:
                    mechanic.options(rnd, player)
                times.append((time.process_time() - start) / len(copies) * 1e6)
            print(f"| {vid} | {label} | {len(rounds)} | {statistics.median(times):.1f} "
                  f"| {min(times):.1f}-{max(times):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
