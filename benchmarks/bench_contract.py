"""Contract games' speed: random and greedy Contract Rummy games a CPU second, and what the
contract listing costs a random Skarney Gin hand (issue 22).

Prints one JSON object. Run it with ``PYTHONPATH=TREE`` for each tree to compare, the
trees' runs interleaved (docs/performance.md, "issue 22, third pass: contract")::

    PYTHONPATH=TREE python benchmarks/bench_contract.py --games 6 --hands 80

Contract Rummy's games are ``bench_engine.greedy_games`` (whole games of seven deals, seed
``--seed``); Skarney's hands ``bench_engine.random_hands``, with the engine's contract
listing (``engine/mechanics/contractlist._contract_melds``) timed inside them; with
``--rummy-games``, random Rummy games too (their single melds are listed by the same
module). A warm-up game and hands come first (the deck tables and the variants' memos are
built then).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_engine import greedy_games, random_hands  # noqa: E402

import rummydsl  # noqa: E402
from rummydsl.engine.mechanics import contractlist, melding  # noqa: E402
from rummydsl.variant import load_variant  # noqa: E402


def listing_cost(variant_id: str, hands: int, seed: int) -> dict[str, float]:
    """Random hands of ``variant_id`` with the contract listing timed: hands a CPU second,
    the listing's CPU µs each and its share of the hands."""
    variant = load_variant(variant_id)
    listing = contractlist._contract_melds
    spent = [0.0, 0]

    def timed(rnd: Any, player: int) -> Iterator[Any]:
        start = time.process_time()
        out = list(listing(rnd, player))
        spent[0] += time.process_time() - start
        spent[1] += 1
        return iter(out)

    random_hands(variant, 5, seed + 1)
    melding._contract_melds = timed  # type: ignore[assignment]
    try:
        start = time.process_time()
        random_hands(variant, hands, seed)
        total = time.process_time() - start
    finally:
        melding._contract_melds = listing  # type: ignore[assignment]
    return {"hands_per_s": hands / total, "listing_us": spent[0] / max(1, spent[1]) * 1e6,
            "listings_per_hand": spent[1] / hands, "listing_share": spent[0] / total}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="Contract Rummy games per agent kind (default 6)")
    parser.add_argument("--hands", type=int, default=80, help="random Skarney Gin hands (default 80)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    parser.add_argument("--rummy-games", type=int, default=0,
                        help="also random Rummy games, whose listing of single melds is the same code (default 0: none)")
    args = parser.parse_args(argv)
    contract = load_variant("contract_rummy")
    greedy_games(contract, 1, args.seed + 1, "random")
    out: dict[str, Any] = {"tree": str(Path(rummydsl.__file__).resolve().parent.parent)}
    for agents in ("random", "greedy"):
        sample = greedy_games(contract, args.games, args.seed, agents)
        out[f"contract_rummy_{agents}_games_per_s"] = sample.rate
    out["skarney_gin"] = listing_cost("skarney_gin", args.hands, args.seed)
    if args.rummy_games:
        rummy = load_variant("rummy")
        greedy_games(rummy, 2, args.seed + 1, "random")
        out["rummy_random_games_per_s"] = greedy_games(rummy, args.rummy_games, args.seed, "random").rate
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
