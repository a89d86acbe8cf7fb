"""The work of a new 10-card Skarney Gin solve, for counting under valgrind (issue 22).

A plain script, not a test. It plays the warm part of ``bench_melds.py --alone --only
skarney_gin:10:uniform`` (300 hands, seed 2024: one cold pass, five repeated ``solve``
passes, five ``min_deadwood`` passes), then with ``full`` one ``solve`` pass over 300 new
hands (``--hands`` to change the count). Count both runs' instructions; their difference
over the hand count is what a new hand costs, a figure a shared machine's load does not
move (CPU times there spread by a third)::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no python benchmarks/solve_instructions.py warm
    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no python benchmarks/solve_instructions.py full

(``I refs`` in each run's summary; ``repeat`` in place of ``full`` gives a repeated hand's.)
The cyclic garbage collector is off, as ``timeit`` turns it off while ``bench_melds.py``
times a pass: whether a collection of the whole heap fell inside the pass moved the count
with a few kept objects more or fewer (``--gc`` leaves it on).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_melds import make_hands, rules_for  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("warm", "full", "repeat"),
                        help="warm: the warm passes only; full: then one pass over new hands; repeat: then one more "
                             "pass over the same hands")
    parser.add_argument("--hands", type=int, default=300, help="hands a pass (default 300)")
    parser.add_argument("--gc", action="store_true", help="leave the cyclic garbage collector on")
    args = parser.parse_args(argv)
    if not args.gc:
        gc.disable()
    rules = rules_for("skarney_gin")
    rng = random.Random(2024)
    hands = make_hands(rules.deck, rng, args.hands, 10, False)
    for _ in range(6):
        for hand in hands:
            rules.solve(hand)
    for _ in range(5):
        for hand in hands:
            rules.min_deadwood(hand)
    fresh = make_hands(rules.deck, rng, args.hands, 10, False)
    for hand in fresh if args.mode == "full" else hands if args.mode == "repeat" else ():
        rules.solve(hand)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
