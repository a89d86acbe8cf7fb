"""The meld step's single-meld actions are kept by their group (``melding._SINGLES``): a
listing gives the same objects for the same groups, each equal to a freshly built action,
and random Skarney play lists exactly the melds the plain listing gives."""

from __future__ import annotations

import random

from rummydsl.engine import Round
from rummydsl.engine.actions import Meld
from rummydsl.engine.state import Phase
from rummydsl.variant import load_variant

from .conftest import plain_listing


def test_kept_single_meld_actions_are_fresh_ones_and_the_plain_listing() -> None:
    variant = load_variant("skarney_gin")
    rng = random.Random(2026)
    seen: dict[tuple[int, tuple[int, ...]], Meld] = {}
    checked = 0
    for deal in range(40):
        rnd = Round.deal(variant, random.Random(deal), dealer=0)
        while not rnd.over and rnd.turns < 200:
            legal = list(rnd.legal_actions())
            player = rnd.to_move
            if rnd.phase is Phase.MELD and player is not None and rnd.met_contract[player]:
                hand = rnd.hands[player]
                singles = [a for a in legal if isinstance(a, Meld)]
                plain = [g for g in plain_listing(rnd, hand, len(hand))[0]]
                groups = [a.melds[0] for a in singles]
                # the plain listing's groups, in order, less those that would leave too few cards
                assert groups == [g for g in plain if g in groups]
                assert all(g in groups for g in plain if len(g) < len(hand) - 1)
                for action in singles:
                    assert action == Meld(player, action.melds) and len(action.melds) == 1
                    key = (player, tuple(c.id for c in action.melds[0]))
                    if key in seen and seen[key].melds[0] is action.melds[0]:
                        assert seen[key] is action  # the same group lists the same action
                    seen[key] = action
                    checked += 1
            rnd.apply(rng.choice(legal))
    assert checked > 50
