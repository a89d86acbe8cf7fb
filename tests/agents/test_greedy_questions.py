"""The greedy agent's cheaper questions give the answers of the searches they replace.

The draw decision of a going-out game (BR) is asked of one search
(``discard_deadwoods`` or ``solve_discard``, with only the table melds a card of the
hand might extend) instead of one search per card of the hand; these tests play
random hands and, at every draw with a discard to take, compare it with the search
card by card, with and without wild cards and ``wild_unique_card``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummydsl.agents import GreedyAgent, RandomAgent
from rummydsl.agents.basic import _extendable, _layoff_table
from rummydsl.engine import Round
from rummydsl.engine.observe import Observation
from rummydsl.variant import load_variant

HOUSE_RULES = {
    "jokers": "deck: {preset: standard52, ace: low, wrap: false, wilds: 2}\ncard_value: \"wild ? 15 : min(order, 10)\"\n",
    "unique": ("deck: {preset: standard52, ace: both, wrap: false, wilds: 2}\n"
               "card_value: \"wild ? 15 : min(order, 10)\"\n"
               "meld_options: {wild_unique_card: true, kind_locked: true}\n"),
}


def _variant(name: str, folder: Path) -> object:
    if name == "rummy":
        return load_variant("rummy")
    path = folder / f"rummy_{name}.yaml"
    path.write_text(f"rummydsl: 1\nid: rummy_{name}\nextends: rummy\nname: rummy {name}\n"
                    f"description: a test house rule\n{HOUSE_RULES[name]}", encoding="utf-8")
    return load_variant(str(path))


def _card_by_card(observation: Observation) -> bool:
    """The draw decision as it was asked before: one search per card of the hand."""
    card = observation.top_discard
    assert card is not None
    hand = observation.hand
    table = _layoff_table(observation)
    rules = observation.rules

    def left(cards: object) -> int:
        return rules.solve(cards, table=table, check_contract=False).deadwood  # type: ignore[arg-type]

    now = left(hand)
    with_card = (*hand, card)
    return any(left([c for c in with_card if c is not out]) < now for out in hand)


@pytest.mark.parametrize("name", ["rummy", "jokers", "unique"])
def test_the_draw_decision_asked_once_is_the_decision_asked_card_by_card(name: str, tmp_path: Path) -> None:
    variant = _variant(name, tmp_path)
    rng = random.Random(5)
    asked = helped = dropped = 0
    for number in range(6):
        players = 2 + number % 3
        rnd = Round.deal(variant, rng, dealer=0, players=players)  # type: ignore[arg-type]
        agent = RandomAgent(random.Random(number))
        while rnd.result is None and len(rnd.actions) < 400:
            player = rnd.to_move
            assert player is not None
            observation = Observation(rnd, player)
            if observation.phase == "draw" and observation.top_discard is not None:
                fast = GreedyAgent()._pile_helps_going_out(observation)
                assert fast == _card_by_card(observation), (name, number, len(rnd.actions))
                asked += 1
                helped += fast
                table = _layoff_table(observation)
                dropped += len(_extendable(observation, (*observation.hand, observation.top_discard), table)) < len(table)
            rnd.apply(agent.act(observation))
    assert asked > 50 and 0 < helped < asked  # both answers were met
    assert dropped or name != "rummy"  # table melds no card could join were left out of the question


def test_the_promise_of_each_hand_less_a_card_is_the_promise_counted_card_by_card() -> None:
    """The contract player's measure of a hand (``_promise``) without each card, and with
    the top discard in place of each card, read off one pass over the hand's pairs."""
    from rummydsl.agents.basic import _pair_score, _promise, _promise_without

    def promised(cards: list, wanted: frozenset[str]) -> int:  # the measure as it was counted, pair by pair
        naturals = [c for c in cards if not c.wild and c.rank is not None]
        score = 2 * (len(cards) - len(naturals))
        for i, one in enumerate(naturals):
            for two in naturals[i + 1:]:
                if one.rank.order == two.rank.order:
                    score += "same_rank" in wanted
                elif "sequence" in wanted and one.suit is two.suit and abs(one.rank.order - two.rank.order) <= 2:
                    score += 1
        return score

    cards = [c for c in load_variant("contract_rummy").deck.cards]
    rng = random.Random(22)
    for number in range(300):
        hand = rng.sample(cards, rng.choice([1, 2, 5, 10, 12, 16]))
        wanted = [frozenset({"same_rank", "sequence"}), frozenset({"same_rank"}), frozenset({"sequence"})][number % 3]
        without = _promise_without(hand, wanted)
        now = _promise(hand, wanted)
        assert now == promised(hand, wanted)
        card = rng.choice([c for c in cards if c not in hand])
        gain = _promise([*hand, card], wanted) - now
        for out in hand:
            rest = [c for c in hand if c is not out]
            assert without[out.id] == promised(rest, wanted)
            assert without[out.id] + gain - _pair_score(out, card, wanted) == promised([*rest, card], wanted)
