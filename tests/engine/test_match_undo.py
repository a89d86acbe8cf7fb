"""A match with history changes its round in place and keeps undo records (engine/match_undo.py).

Property: any random walk of apply, undo, copy and hand-outs (``m.round``, ``m.view``,
``m.observation``) gives, at every step, the state that replaying the walk's surviving
moves from scratch gives; undo goes back to exactly the state recorded there; a copy
and the match it came from never disturb each other; a round handed out stays as it
was when the match moves on.
"""

from __future__ import annotations

import random
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl import Match
from rummydsl.engine import match_step
from rummydsl.engine.match_step import RECORDS_AFTER
from rummydsl.engine.match_undo import Delta

from .conftest import variant as _variant

VARIANTS = ["gin_rummy", "skarney_gin", "ginski", "contract_rummy", "rummy"]


def _replay(variant: object, seed: int, path: list[int | str]) -> Match:
    m = Match.new(variant, seed=seed, history=False)  # type: ignore[arg-type]
    for step in path:
        m.apply(step)
    return m


def _move(m: Match, rng: random.Random) -> int | str:
    """A random legal move: mostly an id, sometimes the action's notation."""
    ids = m.legal_ids()
    if not m._s.pending and rng.random() < 0.3:
        return str(rng.choice(m.legal_actions()))
    return rng.choice(ids)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), warm=st.integers(0, 140),
       ops=st.lists(st.sampled_from("aaaauucCrvo"), min_size=5, max_size=40))
def test_random_walk_matches_replay(name: str, seed: int, warm: int, ops: list[str]) -> None:
    variant = _variant(name)
    rng = random.Random(seed)
    m = Match.new(variant, seed=seed)
    path: list[int | str] = []
    states = [m.state()]
    for _ in range(warm):
        if m.over:
            break
        step = _move(m, rng)
        m.apply(step)
        path.append(step)
        states.append(m.state())
    handed: list[tuple[Callable[[], object], object]] = []  # how to read it again, and what it read
    for op in ops:
        if op == "a" and not m.over:
            step = _move(m, rng)
            m.apply(step)
            path.append(step)
            states.append(m.state())
        elif op == "u" and path:
            m.undo()
            path.pop()
            states.pop()
            assert m.state() == states[-1]
        elif op == "c":  # a copy goes its own way; the match is not disturbed
            other = m.copy()
            for _ in range(rng.randrange(1, 6)):
                if other.over:
                    break
                other.apply(_move(other, rng))
            if other.can_undo and rng.random() < 0.5:
                other.undo()
            assert m.state() == states[-1]
        elif op == "C":  # carry on with the copy, the old match left behind (and checked later)
            old = m
            m = m.copy()
            handed.append((old.state, old.state()))
        elif op == "r":
            rnd = m.round
            handed.append((rnd.to_json, rnd.to_json()))
        elif op == "v":
            view = m.view(rng.randrange(m.players))
            handed.append((view.as_json, view.as_json()))
        elif op == "o":
            seen = m.observation(rng.randrange(m.players))
            handed.append((seen.to_json, seen.to_json()))
        assert m.state() == states[-1]
    truth = _replay(variant, seed, path)
    assert m.state() == truth.state()
    assert m.legal_ids() == truth.legal_ids()
    for read, then in handed:  # nothing handed out changed as the match moved on
        assert read() == then
    while m.can_undo:  # all the way back, each state as it was
        m.undo()
        states.pop()
        assert m.state() == states[-1]
    assert len(states) == 1


def test_a_step_keeps_a_record_not_a_round() -> None:
    """After its first applies (each on a copy: RECORDS_AFTER), a match with history
    plays on its own round in place and keeps a Delta of the few fields a step changes;
    an undo, and a copy, send it back to copies for as many applies."""
    m = Match.new("gin_rummy", seed=4)
    rng = random.Random(4)
    for _ in range(RECORDS_AFTER):
        rnd = m._s.round
        m.apply(rng.choice(m.legal_ids()))
        assert m._s.round is not rnd and not isinstance(m._undo[0], Delta)  # type: ignore[index]
    m.apply(rng.choice(m.legal_ids()))
    rnd = m._s.round
    for _ in range(6):
        m.apply(rng.choice(m.legal_ids()))
        assert m._s.round is rnd
        entry = m._undo[0]  # type: ignore[index]
        assert isinstance(entry, Delta) and 1 <= len(entry.changed) <= 6
    copied = m.copy()
    copied.apply(rng.choice(copied.legal_ids()))
    assert copied._s.round is not rnd and m._s.round is rnd
    m.undo()
    m.apply(rng.choice(m.legal_ids()))
    assert m._s.round is not rnd and not isinstance(m._undo[0], Delta)  # type: ignore[index]


def test_a_failed_apply_in_place_leaves_the_round_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error raised after the round was changed in place (not a refusal, which checks
    first) puts the round back: the match is as before the apply."""
    m = Match.new("gin_rummy", seed=9)
    rng = random.Random(9)
    for _ in range(RECORDS_AFTER + 2):
        m.apply(rng.choice(m.legal_ids()))
    before = m.state()
    assert m._shadow is not None  # changed in place from here

    def broken(*args: object) -> None:
        raise RuntimeError("a bug after the move")

    monkeypatch.setattr(match_step, "_event", broken)  # (the step's event, built once the round has moved)
    with pytest.raises(RuntimeError):
        m.apply(rng.choice(m.legal_ids()))
    monkeypatch.undo()
    assert m.state() == before
    m.apply(m.legal_ids()[0])
    m.undo()
    assert m.state() == before
