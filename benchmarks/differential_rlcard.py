"""Lockstep differential: RLCard's gin rummy game against rummydsl's ``rlcard_gin``
through the ``pettingzoo_gin_v5`` encoding (the removed ``gin_rummy_v5``'s 110 ids).

A plain script, not a test (RLCard is in the bench extra, not the test one)::

    python benchmarks/differential_rlcard.py [--hands N] [--seed S]

Each hand is dealt by RLCard (its own seeded shuffle) and the same cards are dealt to
``Match.new("rlcard_gin", chance="explicit")``: RLCard gives the player left of the
dealer eleven cards and no upcard; rummydsl gives it ten and the eleventh as the stock's
top card, which its first move ``draw card`` takes (the same chances, docs/
environments.md). Then both play the same ids: at each decision the two sets of legal
ids are compared, a random id legal in both is played in both, and the hand's payoffs
are compared at the end (RLCard's scorer against ``v5_reward(knock_reward=0.2)``, RLCard's
own knock reward). A hand stops where the two disagree; the report counts the
decisions that agreed and names each kind of disagreement with an example, which is
where the rules differ (docs/environments.md, "RLCard's rules and gin_rummy.yaml").
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import Any

import numpy as np


def _kind(rl: set[int], rd: set[int]) -> str:
    """A short name for how two legal sets differ."""
    names = {0: "score P1", 1: "score P2", 2: "draw", 3: "pick up", 4: "dead hand", 5: "gin"}

    def say(ids: set[int]) -> str:
        parts = sorted({names.get(i, "discard" if 6 <= i < 58 else "knock") for i in ids})
        return "+".join(parts) or "nothing"

    return f"RLCard {say(rl - rd)} only / rummydsl {say(rd - rl)} only"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--policy", choices=("random", "knock"), default="knock",
                        help="random: any id legal in both; knock (default): gin or a knock when one is legal "
                             "in both (so that hands are scored), else any")
    args = parser.parse_args(argv)

    from rlcard.games.gin_rummy.game import GinRummyGame

    from rummydsl import Match
    from rummydsl.engine.catalogue import DealCard, FirstDealer
    from rummydsl.envs.gin_v5 import GinV5, v5_reward

    reward = v5_reward(knock_reward=0.2, gin_reward=1.0)
    rng = random.Random(args.seed)
    agreed = decisions = hands_equal = payoffs_equal = payoffs_compared = 0
    kinds: Counter[str] = Counter()
    examples: dict[str, str] = {}
    for hand in range(args.hands):
        game = GinRummyGame()
        game.np_random = np.random.RandomState(rng.getrandbits(31))
        game.init_game()
        rnd = game.round
        dealer = rnd.dealer_id
        first = (dealer + 1) % 2
        m = Match.new("rlcard_gin", chance="explicit", history=False)
        deck = m.variant.deck
        card = {str(c): c for c in deck.cards}

        def ours(rl_card: Any) -> Any:
            return card[f"{rl_card.rank}{rl_card.suit}"]

        eleven = [ours(c) for c in rnd.players[first].hand]
        ten = [ours(c) for c in rnd.players[dealer].hand]
        m.apply(FirstDealer(dealer))
        for k in range(10):
            m.apply(DealCard(eleven[k]))
            m.apply(DealCard(ten[k]))
        for c in [eleven[10]] + [ours(c) for c in reversed(rnd.dealer.stock_pile)]:
            m.apply(DealCard(c))
        v5 = GinV5(m)
        event = v5.play(m, 2)  # the eleventh card: rummydsl's first player draws it
        same = True
        while not game.is_over():
            rl = {a.action_id for a in game.judge.get_legal_actions()}
            rd = set(v5.moves(m)) if not m.game.results else set()
            if not rd and m.game.results and rl <= {0, 1}:
                # rummydsl scored the hand as it ended; RLCard asks each player's score step
                kinds["RLCard's score steps after the hand ended (rummydsl scores at once)"] += 1
                game.step(game.decode_action(min(rl)))
                continue
            decisions += 1
            if rl != rd or (rd and game.get_player_id() != m.to_move):
                kind = _kind(rl, rd) if rl != rd else "another player to move"
                kinds[kind] += 1
                examples.setdefault(kind, f"hand {hand}, decision {decisions}: RLCard {sorted(rl)}, "
                                          f"rummydsl {sorted(rd)}")
                same = False
                both = sorted(rl & rd)
                if not both:
                    break
            else:
                agreed += 1
                both = sorted(rl)
            going_out = [a for a in both if a == 5 or a >= 58]
            action = rng.choice(going_out if going_out and args.policy == "knock" else both)
            game.step(game.decode_action(action))
            event = v5.play(m, action)
        hands_equal += same
        if game.is_over() and m.game.results:  # both ended, the same ids played: the same payoffs?
            rl_pay = list(game.judge.scorer.get_payoffs(game))
            rd_pay = [reward(m, event, seat) for seat in range(2)]
            payoffs_compared += 1
            if np.allclose(rl_pay, rd_pay):
                payoffs_equal += 1
            else:
                kind = "payoffs differ"
                kinds[kind] += 1
                examples.setdefault(kind, f"hand {hand}: RLCard {rl_pay}, rummydsl {rd_pay}")
    print(f"{args.hands} hands, seed {args.seed}, policy {args.policy}: {agreed} of {decisions} decisions with "
          f"the same legal ids; {hands_equal} hands the same at every decision; of the hands both ended, "
          f"payoffs equal in {payoffs_equal} of {payoffs_compared}")
    for kind, count in kinds.most_common():
        example = examples.get(kind)
        print(f"  {count:>5}  {kind}" + (f"  (e.g. {example})" if example else ""))


if __name__ == "__main__":
    main()
