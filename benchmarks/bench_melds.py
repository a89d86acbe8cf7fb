"""Benchmark the least-deadwood solver against OpenSpiel and RLCard (issue 3).

A plain script, not a test: ``python benchmarks/bench_melds.py [--hands N] [--seed S]``.
It prints a Markdown table of microseconds per hand, the ratios to the peers, and
how often the three disagree on the deadwood of the same hands.

Gin Rummy hands (standard52, set 3..4, run >= 3, ace low, values A=1..K=10):

- 10 cards: the least deadwood of the hand.
- 11 cards: the knock question, the least deadwood after the best discard
  (rummydsl ``best_discard``; OpenSpiel ``min_deadwood`` of 11 cards; RLCard's own
  way, as in ``judge.get_going_out_cards``: every meld cluster of the 11 cards,
  minus the most valuable unmatched card).

``uniform`` hands are random; ``meld-rich`` hands take their cards from a window of
5 consecutive ranks (20 cards), so many melds overlap.

Skarney Gin (ace both, poker sequences, the 3x3 contract flag computed) and Ginski
(Rumski deck, 0 to 3 wild cards) run for rummydsl alone: the peers have no such rules.

Times are the best of ``--repeat`` passes over the same hands (wall time, or with
``--clock cpu`` this process's CPU time, steadier when the machine is shared); the
solver's per-deck tables (built on first use) are then warm, so "first pass, cold
solver" also gives one pass of a freshly built solver. No result is cached per hand.

The peers are optional: ``pip install open-spiel rlcard`` (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from typing import Any, Callable, Sequence

from rummydsl.cards import Deck
from rummydsl.melds import MeldRules

GIN_MELDS = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)"}
SKARNEY_MELDS = {**GIN_MELDS, "poker": "size >= 3 and consecutive(rank) and not same(suit)"}
GINSKI_MELDS = {
    "run": "size >= 3 and naturals >= 1 and same(suit) and consecutive(rank)",
    "set": "size in 3..5 and naturals >= 1 and same(rank) and distinct(suit)",
}


def rules_for(variant_id: str) -> MeldRules:
    """The shipped variant's rules; falls back to compiling the same patterns here."""
    try:
        from rummydsl.variant import load_variant

        return MeldRules.from_variant(load_variant(variant_id))
    except Exception:  # the loader is optional for this script
        pass
    from rummydsl.expr import BOOL, INT, Context, Env, compile_expression

    spec, melds, value, contract = {
        "gin_rummy": ("standard52", GIN_MELDS, "min(order, 10)", None),
        "skarney_gin": ({"preset": "standard52", "ace": "both"}, SKARNEY_MELDS,
                        "rank == A ? 15 : min(order, 10)", "count == 3 and all(size == 3)"),
        "ginski": ("rumski70", GINSKI_MELDS, "wild ? 25 : order", None),
    }[variant_id]
    deck = Deck.from_spec(spec)
    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    pred = compile_expression(contract, Env(Context.CONTRACT, deck), BOOL) if contract else None
    return MeldRules(deck, kinds, compile_expression(value, Env(Context.CARD, deck), INT), pred)


def make_hands(deck: Deck, rng: random.Random, count: int, size: int, rich: bool,
               wilds: int = 0) -> list[tuple[Any, ...]]:
    naturals = [c for c in deck.cards if not c.wild]
    wild_cards = [c for c in deck.cards if c.wild]
    n = len(deck.ranks)
    out = []
    for _ in range(count):
        w = rng.randint(0, wilds)
        if rich:
            lo = rng.randint(1, n - 4)
            pool = [c for c in naturals if lo <= c.rank.order < lo + 5]
        else:
            pool = naturals
        out.append(tuple(rng.sample(pool, size - w)) + tuple(wild_cards[:w]))
    return out


# --------------------------------------------------------------------------- peers

# OpenSpiel numbers cards suit * 13 + rank with suits s c d h; rummydsl's
# standard52 (and RLCard) use S H D C.
_OS_SUIT = {0: 0, 1: 3, 2: 2, 3: 1}


def openspiel_solver() -> tuple[Callable[[Sequence[int]], int], Callable[[Any], list[int]]] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def convert(hand: Sequence[Any]) -> list[int]:
        return [_OS_SUIT[c.id // 13] * 13 + c.id % 13 for c in hand]

    return utils.min_deadwood, convert


def rlcard_solver() -> tuple[Callable[[Sequence[Any]], int], Callable[[Any], list[Any]]] | None:
    try:
        from rlcard.games.gin_rummy.utils import melding
        from rlcard.games.gin_rummy.utils import utils as rl
    except ImportError:
        return None

    def deadwood(hand: list[Any]) -> int:
        if len(hand) == 10:
            best = melding.get_best_meld_clusters(hand)
            if not best:
                return sum(rl.get_deadwood_value(c) for c in hand)
            return rl.get_deadwood_count(hand, best[0])
        values = [rl.get_deadwood_value(c) for c in hand]
        result = sum(values) - max(values)  # no meld at all
        for cluster in melding.get_meld_clusters(hand):
            melded = {id(c) for meld in cluster for c in meld}
            left = [v for c, v in zip(hand, values) if id(c) not in melded]
            result = min(result, sum(left) - max(left) if left else 0)
        return result

    def convert(hand: Sequence[Any]) -> list[Any]:
        return [rl.get_card(c.id) for c in hand]  # RLCard ids are S H D C like ours

    return deadwood, convert


# --------------------------------------------------------------------------- timing


def per_hand(fn: Callable[[Any], Any], hands: Sequence[Any], repeat: int,
             clock: Callable[[], float] = time.perf_counter) -> float:
    """Microseconds per hand: the best of ``repeat`` passes over all hands."""
    timer = timeit.Timer(lambda: [fn(h) for h in hands], timer=clock)
    return min(timer.repeat(repeat=repeat, number=1)) / len(hands) * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per row (default 1000)")
    parser.add_argument("--seed", type=int, default=2024, help="random seed (default 2024)")
    parser.add_argument("--repeat", type=int, default=5, help="timing passes, best taken (default 5)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default), or this process's CPU time (steadier on a shared machine)")
    parser.add_argument("--sizes", default=None,
                        help="big hands (issue 17): comma-separated hand sizes, e.g. 10,20,26,32; times only "
                             "the variants of --variants, uniform hands of the deck's natural cards")
    parser.add_argument("--variants", default="skarney_gin",
                        help="with --sizes: comma-separated shipped variants (default skarney_gin)")
    parser.add_argument("--alone", action="store_true",
                        help="only the rummydsl-alone table (Skarney Gin and Ginski), not the Gin table with the peers")
    parser.add_argument("--only", default=None, metavar="ROWS",
                        help="with --alone: only these rows, comma-separated VARIANT:SIZE:uniform|rich "
                             "(e.g. skarney_gin:10:uniform); a row left out deals no hands, so a later row's hands "
                             "differ from the whole table's (the first row's are the same)")
    parser.add_argument("--engine-hands", default=None, metavar="VARIANTS",
                        help="random hands per CPU second of shipped variants played by the engine (as "
                             "bench_engine.py --sections variants plays them), e.g. gin_rummy,skarney_gin,ginski; "
                             "--runs interleaved runs, median and spread, each variant against the first")
    parser.add_argument("--engine-count", type=int, default=100, help="with --engine-hands: hands a run (default 100)")
    parser.add_argument("--runs", type=int, default=3, help="with --engine-hands: interleaved runs (default 3)")
    parser.add_argument("--fresh", action="store_true",
                        help="with --engine-hands: each run deals new hands (seed, seed + 1, ...) rather than "
                             "the same ones again, so that nothing a solver keeps from a run answers the next")
    args = parser.parse_args(argv)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    def timed(fn: Callable[[Any], Any], hands: Sequence[Any], repeat: int) -> float:
        return per_hand(fn, hands, repeat, clock)

    rng = random.Random(args.seed)
    if args.sizes:
        return big_hands(args, rng, timed)
    if args.engine_hands:
        return engine_hands(args)
    if args.alone:
        print(f"python {sys.version.split()[0]}; hands per row: {args.hands}; seed {args.seed}; clock {args.clock}")
        print()
        return alone_table(args, rng, timed)

    gin = rules_for("gin_rummy")
    os_peer = openspiel_solver()
    rl_peer = rlcard_solver()
    print(f"python {sys.version.split()[0]}; hands per row: {args.hands}; seed {args.seed}; clock {args.clock}")
    print(f"OpenSpiel: {'yes' if os_peer else 'not installed'}; RLCard: {'yes' if rl_peer else 'not installed'}")
    print()
    print("| Gin hands | rummydsl solve | rummydsl deadwood only | OpenSpiel (C++) | RLCard "
          "| solve / OpenSpiel | deadwood only / OpenSpiel | solve / RLCard | disagree OpenSpiel "
          "| disagree RLCard | first pass, cold solver |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for size in (10, 11):
        for rich in (False, True):
            hands = make_hands(gin.deck, rng, args.hands, size, rich)
            cold_rules = rules_for("gin_rummy")  # a fresh solver: its tables are built in the pass
            if size == 10:
                cold = timed(cold_rules.solve, hands, 1)
                ours = [gin.solve(h).deadwood for h in hands]
                t_solve = timed(gin.solve, hands, args.repeat)
                t_num = timed(gin.min_deadwood, hands, args.repeat)
            else:
                cold = timed(cold_rules.best_discard, hands, 1)
                ours = [gin.best_discard(h)[1] for h in hands]
                t_solve = timed(gin.best_discard, hands, args.repeat)
                t_num = timed(lambda h: gin.min_deadwood(h, discard=True), hands, args.repeat)
            cells = [f"{size} {'meld-rich' if rich else 'uniform'}", f"{t_solve:.1f}", f"{t_num:.1f}"]
            t_os = t_rl = None
            dis_os = dis_rl = "-"
            if os_peer:
                fn, convert = os_peer
                os_hands = [convert(h) for h in hands]
                theirs = [fn(h) for h in os_hands]
                t_os = timed(fn, os_hands, args.repeat)
                higher = sum(t > o for t, o in zip(theirs, ours))
                lower = sum(t < o for t, o in zip(theirs, ours))
                dis_os = f"{higher + lower} ({higher} higher, {lower} lower)"
            if rl_peer:
                fn, convert = rl_peer
                rl_hands = [convert(h) for h in hands]
                theirs = [fn(h) for h in rl_hands]
                t_rl = timed(fn, rl_hands, args.repeat)
                dis_rl = str(sum(t != o for t, o in zip(theirs, ours)))
            cells += [f"{t_os:.1f}" if t_os else "-", f"{t_rl:.1f}" if t_rl else "-",
                      f"{t_solve / t_os:.1f}x" if t_os else "-", f"{t_num / t_os:.1f}x" if t_os else "-",
                      f"{t_solve / t_rl:.2f}x" if t_rl else "-", dis_os, dis_rl, f"{cold:.1f}"]
            print("| " + " | ".join(cells) + " |")

    print()
    return alone_table(args, rng, timed)


def alone_table(args: Any, rng: random.Random, timed: Callable[..., float]) -> int:
    """Skarney Gin and Ginski, rummydsl alone. *New hands* is one pass of ``solve`` over
    hands the warm solver has not seen (its memos of rank windows and of the last hand's
    search then hold nothing of them); the other columns are the best of ``--repeat``
    passes over the same hands."""
    print("| rummydsl alone | solve (µs) | solve, new hands (µs) | deadwood only (µs) | deadwood only, new hands (µs) "
          "| knock question (µs) | first pass, cold solver (µs) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    only = set(args.only.split(",")) if getattr(args, "only", None) else None
    for variant_id, label, wilds in (("skarney_gin", "Skarney Gin", 0), ("ginski", "Ginski, 0-3 wilds", 3)):
        for size in (10, 11):
            for rich in (False, True):
                if only is not None and f"{variant_id}:{size}:{'rich' if rich else 'uniform'}" not in only:
                    continue
                rules = rules_for(variant_id)
                hands = make_hands(rules.deck, rng, args.hands, size, rich, wilds)
                cold = timed(rules.solve, hands, 1)
                t_solve = timed(rules.solve, hands, args.repeat)
                t_num = timed(rules.min_deadwood, hands, args.repeat)
                t_knock = timed(rules.best_discard, hands, args.repeat) if size == 11 else None
                fresh = make_hands(rules.deck, rng, args.hands, size, rich, wilds)
                t_fresh = timed(rules.solve, fresh, 1)
                fresh = make_hands(rules.deck, rng, args.hands, size, rich, wilds)
                t_fresh_num = timed(rules.min_deadwood, fresh, 1)
                print(f"| {label}, {size} {'meld-rich' if rich else 'uniform'} | {t_solve:.1f} | {t_fresh:.1f} "
                      f"| {t_num:.1f} | {t_fresh_num:.1f} | {f'{t_knock:.1f}' if t_knock else '-'} | {cold:.1f} |",
                      flush=True)
    return 0


def engine_hands(args: Any) -> int:
    """Random hands per CPU second of whole deals played by the engine, each variant in
    ``--runs`` interleaved runs (``bench_engine.random_hands``: the same hands, agents
    and clock as ``bench_engine.py --sections variants``). Every run deals the same hands
    (``--seed``) unless ``--fresh``: then a solver's kept parts and memos from a run do not
    answer the next one's questions."""
    import statistics

    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
    from bench_engine import random_hands

    from rummydsl.variant import load_variant

    ids = args.engine_hands.split(",")
    variants = {vid: load_variant(vid) for vid in ids}
    for variant in variants.values():
        random_hands(variant, 3, args.seed + 1)  # the solver's tables
    rates: dict[str, list[float]] = {vid: [] for vid in ids}
    for run in range(args.runs):
        for vid in ids:
            rates[vid].append(random_hands(variants[vid], args.engine_count, args.seed + run * args.fresh).rate)
    print(f"python {sys.version.split()[0]}; {args.engine_count} random hands a run, {args.runs} interleaved runs, "
          f"seed {args.seed}{' (new hands each run)' if args.fresh else ''}; hands per CPU second")
    print()
    print(f"| variant | median | runs | median / {ids[0]} | runs / {ids[0]} |")
    print("| --- | ---: | --- | ---: | --- |")
    base = rates[ids[0]]
    for vid in ids:
        ratios = [r / b for r, b in zip(rates[vid], base)]
        print(f"| {vid} | {statistics.median(rates[vid]):.1f} | {', '.join(f'{r:.1f}' for r in rates[vid])} "
              f"| {statistics.median(ratios):.3f} | {', '.join(f'{r:.3f}' for r in ratios)} |")
    return 0


def big_hands(args: Any, rng: random.Random, timed: Callable[..., float]) -> int:
    """The ``--sizes`` table: µs per hand for the number alone (``min_deadwood``, what
    scoring asks) and the arrangement (``solve`` without the contract flag), by size."""
    sizes = [int(x) for x in args.sizes.split(",")]
    print(f"python {sys.version.split()[0]}; hands per row: {args.hands}; seed {args.seed}; clock {args.clock}")
    print()
    print("| variant | cards | deadwood only (µs) | solve (µs) | deadwood only / first size |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for variant_id in args.variants.split(","):
        rules = rules_for(variant_id)
        naturals = [c for c in rules.deck.cards if not c.wild]
        first = None
        for size in sizes:
            hands = [tuple(rng.sample(naturals, size)) for _ in range(args.hands)]
            t_num = timed(rules.min_deadwood, hands, args.repeat)
            t_solve = timed(lambda h: rules.solve(h, check_contract=False), hands, args.repeat)
            first = first or t_num
            print(f"| {variant_id} | {size} | {t_num:.1f} | {t_solve:.1f} | {t_num / first:.1f}x |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
