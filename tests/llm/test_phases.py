"""An instruction for every kind of decision of every shipped variant (Kaggle
kaggle-environments PR #1191 found a phase of its Gin harness with none, and an
instruction picked by the shape of the legal moves that sent the stock's floor to the
lay-off text): the kinds come from the variant, each has its writer, and in play every
decision a seat is asked is covered by an instruction of its own phase."""

from __future__ import annotations

import random

import pytest

from rummydsl import Match
from rummydsl.agents import make_agents
from rummydsl.engine.match_view import PHASES
from rummydsl.llm import DECISIONS, decisions, generate_prompt, instructions, situation
from rummydsl.llm.phases import _WRITERS
from rummydsl.variant import load_variant, shipped_variant_ids

VARIANTS = shipped_variant_ids()

DECISION_PHASES = set(PHASES) - {"over"}
"""Every phase in which a seat decides."""


UNMET = {"straight_gin": {"showdown", "layoff_after_knock"}, "knock_rummy": {"floor"}}
"""Kinds the games played do not meet: Straight Gin ends only by gin, after which a defender
has nothing to decide (play says 'done' for it); Knock Rummy's knocks come long before the
stock's floor."""


def test_every_kind_of_decision_has_a_writer_and_every_phase_a_kind() -> None:
    assert set(_WRITERS) == set(DECISIONS)
    assert DECISION_PHASES <= set(DECISIONS)


@pytest.mark.parametrize("vid", VARIANTS)
def test_every_decision_a_variant_declares_gets_an_instruction(vid: str) -> None:
    variant = load_variant(vid)
    kinds = decisions(variant)
    assert "draw" in kinds and set(kinds) <= set(DECISIONS)
    view = Match.new(vid, seed=1).view(0)
    for kind in kinds:
        text = _WRITERS[kind](view)
        assert text.strip() and "None" not in text, f"{vid}: the {kind!r} instruction is empty or unfilled"


@pytest.mark.parametrize("vid", VARIANTS)
def test_every_decision_met_in_play_is_declared_and_instructed(vid: str) -> None:
    variant = load_variant(vid)
    declared = set(decisions(variant))
    met: set[str] = set()
    for seed, agent in ((1, "greedy"), (0, "random"), (1, "random"), (2, "random")):
        m = Match.new(vid, seed=seed, history=False)
        agents = make_agents(agent, m.players, random.Random(seed))
        for _ in range(600 if agent == "greedy" else 1500):
            if m.over:
                break
            view = m.view(m.to_move)
            now = situation(view)
            assert view.phase in now, f"{vid}: no instruction for the {view.phase!r} phase"
            assert set(now) <= declared, f"{vid}: {set(now) - declared} met in play but not declared"
            met.update(now)
            texts = instructions(view)
            assert len(texts) == len(now) and all(texts)
            assert not any("None" in text for text in texts), f"{vid}: an instruction left a value unfilled"
            if agent == "greedy":
                prompt = generate_prompt(view, variant)
                assert all(text in prompt for text in texts)
            m.apply(agents[m.to_move].act(view))
    unmet = declared - met - UNMET.get(vid, set())
    assert not unmet, f"{vid}: {sorted(unmet)} never met in play, so never tested there"


def test_the_variant_named_must_be_the_one_played() -> None:
    m = Match.new("gin_rummy", seed=1)
    with pytest.raises(ValueError, match="the observation is of variant 'gin_rummy', not 'oklahoma_gin'"):
        generate_prompt(m.view(m.to_move), "oklahoma_gin")
    assert generate_prompt(m.view(m.to_move), load_variant("gin_rummy")) == generate_prompt(m.view(m.to_move))


def test_the_prompt_gives_the_variants_own_values() -> None:
    """Oklahoma Gin's knock limit is the upcard's (Kaggle's prompt said Oklahoma for a game that was not)."""
    for seed in range(20):
        m = Match.new("oklahoma_gin", seed=seed)
        view = m.view(m.to_move)
        limit = view.knock_limit
        if limit != 10:
            break
    prompt = generate_prompt(view)
    assert f"Knock limit this round: at most {limit} deadwood." in prompt
    assert "(variant oklahoma_gin)" in prompt and "Oklahoma" in prompt
    plain = generate_prompt(Match.new("gin_rummy", seed=seed).view(0))
    assert "Oklahoma" not in plain and "Knock limit this round: at most 10 deadwood." in plain


def test_a_defender_sees_the_knockers_melds_and_may_lay_off() -> None:
    """Kaggle PR #1191: lay-offs were unplayable without the knocker's melds in the prompt."""
    m = Match.new("gin_rummy", seed=5, history=False)
    agents = make_agents("greedy", 2, random.Random(5))
    while m.round.phase.value != "showdown":
        m.apply(agents[m.to_move].act(m.view(m.to_move)))
    view = m.view(m.to_move)
    prompt = generate_prompt(view, legal=True)
    ender = f"P{view.ender + 1}"
    assert f"After the knock: {ender} ended the round with {view.ender_deadwood} deadwood." in prompt
    for k, meld in enumerate(view.table[view.ender]):
        assert f"- {ender}#{k + 1}: [{' '.join(str(c) for c in meld.cards)}]" in prompt
    assert "layoff_after_knock" in situation(view) and "lay cards off onto the knocker's melds" in prompt
    assert "knock (discarding face down)" in prompt


def test_a_seat_not_to_move_is_told_so() -> None:
    m = Match.new("gin_rummy", seed=1)
    other = 1 - m.to_move
    prompt = generate_prompt(m.view(other), legal=True)
    assert "It is not your move" in prompt and "Your legal moves" not in prompt and situation(m.view(other)) == ()


def test_an_observation_of_the_match_gives_the_same_prompt() -> None:
    m = Match.new("skarney_gin", seed=3)
    assert generate_prompt(m.observation(m.to_move), legal=True) == generate_prompt(m.view(m.to_move), legal=True)
    with pytest.raises(TypeError, match="expected a seat's observation"):
        generate_prompt(m.observation(0).to_json())  # type: ignore[arg-type]
