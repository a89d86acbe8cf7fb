"""Invariants of seeded random and greedy play, checked after every action, for every shipped variant.

Every hand is dealt from ``random.Random(seed)`` and played by seeded agents, so a
failure names its seed and replays exactly. :data:`invariants.LIGHT_HANDS` hands per
variant are checked lightly and :data:`invariants.FULL_HANDS` per variant and agent
kind in full at every step (``RUMMYDSL_SOAK=1`` for a soak run of thousands); whole games check the totals, the dealer's rotation and the
end of the game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummydsl.engine import Observation, Round
from rummydsl.variant import load_variant

from .invariants import (
    FULL_HANDS,
    GAMES,
    LIGHT_HANDS,
    MAX_ROUND_ACTIONS,
    SHIPPED,
    Tally,
    check_conservation,
    check_result,
    check_unlisted,
    play_checked,
    play_game_checked,
    play_light,
    seeded_agents,
    state_of,
)
from rummydsl.engine.actions import card_text, player_name

VARIANTS = Path(__file__).resolve().parents[2] / "variants"
KINDS = ("random", "greedy", "mixed", "strong")


def test_the_list_of_shipped_variants_is_complete() -> None:
    """The invariant tests cover every file in variants/."""
    assert sorted(SHIPPED) == sorted(p.stem for p in VARIANTS.glob("*.yaml"))


@pytest.mark.parametrize("variant_id", ["ginski", "rummy", "gin_three_handed"])
def test_state_of_holds_what_to_json_holds(variant_id: str) -> None:
    """The step checks' ``state_of`` (the JSON but the action log, and the log's actions)
    writes back to ``to_json`` exactly, at every step of a seeded hand (a knock and its
    face-down discard, wild cards and known cards; table melds and lay-offs; a seat sitting
    out): so two rounds whose ``state_of`` agree have the same JSON (the log compared as
    actions is stricter). ``state_of`` reads the fields every variant's rounds have."""
    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(3), dealer=1 % variant.players)
    agents = seeded_agents(variant, "mixed", 3)
    count = 0
    while True:
        for text in (str, card_text):  # card_text: each card named as its copy (test_apply_listed.py's)
            data, log = state_of(rnd, text)
            data["dealer"] = player_name(data["dealer"])
            if data["sat_out"] is None:
                del data["sat_out"]
            else:
                data["sat_out"] = player_name(data["sat_out"])
            assert {**data, "actions": [str(a) for a in log]} == rnd.to_json(text)
            assert log == rnd.actions and log is not rnd.actions
        if rnd.result is not None:
            break
        player = rnd.to_move
        assert player is not None
        rnd.apply(agents[player].act(Observation(rnd, player)))
        count += 1
        assert count <= MAX_ROUND_ACTIONS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("variant_id", SHIPPED)
def test_every_step_of_seeded_hands(variant_id: str, kind: str) -> None:
    """Conservation, listed actions legal and applicable on a copy, refusals, observations."""
    variant = load_variant(variant_id)
    if kind == "strong" and variant.contract is not None:
        pytest.skip("in a contract game the rule agents play as greedy does (tested above)")
    tally = Tally()
    for seed in range(FULL_HANDS):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        play_checked(rnd, seeded_agents(variant, kind, seed), random.Random(~seed), tally)
    assert tally.hands == FULL_HANDS and tally.refused > 0
    tally.record(f"full[{variant_id}-{kind}]")


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_many_seeded_hands_end_and_score_right(variant_id: str) -> None:
    """Many hands (random, greedy and mixed seats): each ends and scores by the variant.

    The seeds below :data:`FULL_HANDS` are left out: seed ``s`` here is the very hand
    (the same deal, dealer and seeded agents of kind ``KINDS[s % 3]``) that
    test_every_step_of_seeded_hands plays checked in full, every check of
    :func:`play_light` among them (cards in place, a legal action listed, the agent's
    choice ``in`` the legal actions, the bound, the result)."""
    variant = load_variant(variant_id)
    tally = Tally()
    for seed in range(FULL_HANDS, LIGHT_HANDS):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        play_light(rnd, seeded_agents(variant, KINDS[seed % 3], seed), tally)
    assert tally.hands == LIGHT_HANDS - FULL_HANDS
    tally.record(f"light[{variant_id}]")


@pytest.mark.parametrize("kind", ("greedy", "mixed"))
@pytest.mark.parametrize("variant_id", SHIPPED)
def test_seeded_games_total_and_end(variant_id: str, kind: str) -> None:
    """GR-10, GR-11, GR-13, SK-10.4, GS-7.5: totals are sums of round points, dealers rotate by
    the rules, a game ends when (and only when) a sheet reaches its target, figures as GR-10.5."""
    tally = Tally()
    for seed in range(GAMES):
        game = play_game_checked(variant_id, kind, seed, tally)
        assert game.over
        tally.games += 1
    tally.record(f"games[{variant_id}-{kind}]")


SK_TURN = """\
turn:
  - draw: {from: [stock], skip_after_accepting: "rank == A"}
  - meld: {optional: true, add_to_own: true, add_to_opponents: false}
  - offer: {mandatory: false, min_hand: 2, no_reoffer_accepted: true}
"""

HOUSE_RULES = {
    "gin_claim": ("gin_rummy", "stock: {last_discard_claim: true}\n"),                # GR-8
    "ginski_claim": ("ginski", "stock: {last_discard_claim: true}\n"),                # GR-8, GS-6.5
    "gin_no_layoff": ("gin_rummy", "layoff: {onto: none}\n"),                         # GS-6.4
    "gin_no_big_gin": ("gin_rummy", "knock: {big_gin: false}\n"),                     # GR-6.3
    "gin_layoff_after_gin": ("gin_rummy", "layoff: {after_gin: true}\n"),             # GR-7.2 off
    "gin_taken_allowed": ("gin_rummy", "turn:\n  - draw: {from: [stock, discard]}\n"
                                       "  - discard: {taken_card: allowed}\n"),       # GS-5 option
    "gin_floor_5": ("gin_rummy", "stock: {floor: 5}\n"),                              # GR-8 stock_floor
    "ginski_either": ("ginski", "upcard_offer: {after_all_pass: either}\n"),          # GS-4.3
    "ginski_stock_end": ("ginski", "stock: {at_floor: stock_end}\n"),                 # GS-6.5
    "ginski_wild_unique": ("ginski", "meld_options: {wild_unique_card: true}\n"),     # GS-3.3
    "skarney_offer_options": ("skarney_gin", SK_TURN),                                # SK-7.1, SK-7.3
    "skarney_locked": ("skarney_gin", "meld_options: {kind_locked: true}\n"
                                      "contract: {then_meld_same_turn: false}\n"),     # SK-3.4, SK-5.4
    "skarney_final_offer": ("skarney_gin", "stock: {final_turn_skip: []}\n"),         # SK-9.3
    "skarney_concealed": ("skarney_gin", "deadwood: {excludes_concealed_melds: false}\n"),  # SK-10.1
    # Copies of a face (issue 17): known cards are faces with multiplicity, so a copy taken
    # and another thrown, or an offer of a face already known, reveal no second copy.
    "rummy_500_jokers": ("rummy_500", "deck: {wilds: 2}\n"),                         # R5-1 jokers
    "gin_two_packs_wilds": ("gin_rummy", "deck: {packs: 2, wilds: 4}\n"),            # GR-5, GR-7 with copies
}
"""House rules that select RULES.md's option alternatives, played like the shipped variants."""


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_step_of_house_rule_hands(name: str) -> None:
    """The step invariants hold for the options' alternatives too (mixed and random seats)."""
    from .conftest import variant as house_variant

    variant = house_variant(name, HOUSE_RULES)
    tally = Tally()
    for seed in range(FULL_HANDS):
        kind = ("mixed", "random")[seed % 2]
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        play_checked(rnd, seeded_agents(variant, kind, seed), random.Random(~seed), tally)
    assert tally.hands == FULL_HANDS
    tally.record(f"house[{name}]")


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_unlisted_melds_and_named_knocks_agree_with_apply(variant_id: str) -> None:
    """At every step of seeded mixed hands, melds and knocks that name their melds (which
    the listing leaves out) are refused by ``apply`` exactly when ``why_illegal`` says so."""
    variant = load_variant(variant_id)
    for seed in range(max(2, FULL_HANDS // 2)):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        agents = seeded_agents(variant, "mixed", seed)
        rng = random.Random(seed)
        count = 0
        while rnd.result is None:
            check_unlisted(rnd, rng)
            player = rnd.to_move
            assert player is not None
            rnd.apply(agents[player].act(Observation(rnd, player)))
            count += 1
            assert count <= MAX_ROUND_ACTIONS
