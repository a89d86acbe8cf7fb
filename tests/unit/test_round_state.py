"""A round's state is declared once per part (issue 18, "The inside"): the table, the flow
and each mechanic declare their fields (rummydsl/engine/fields.py), and Round builds,
copies, resets and writes its state by going over them."""

from __future__ import annotations

import random

from rummydsl.engine.fields import Field, copy_value
from rummydsl.engine.mechanics import FIELDS as MECHANIC_FIELDS
from rummydsl.engine.round import STATE, Round
from rummydsl.engine.roundstate import SETTINGS, RoundState
from rummydsl.variant import load_variant


def test_every_field_is_typed_once_and_every_typed_attribute_is_a_field_or_a_setting() -> None:
    names = [f.name for f in STATE]
    assert len(names) == len(set(names)), "a field declared twice"
    typed = set(RoundState.__annotations__)
    assert typed == set(names) | set(SETTINGS)


def test_a_new_round_has_exactly_the_declared_attributes() -> None:
    rnd = Round.deal(load_variant("contract_rummy"), random.Random(1), dealer=0, players=4)
    assert set(vars(rnd)) == {f.name for f in STATE} | set(SETTINGS)


def test_a_copy_shares_no_list_a_field_declares() -> None:
    rnd = Round.deal(load_variant("rummy"), random.Random(2), dealer=0, players=3)
    other = rnd.copy()
    for field in STATE:
        if field.kind != "value":
            mine, theirs = getattr(rnd, field.name), getattr(other, field.name)
            assert mine == theirs and mine is not theirs, field.name
            if field.kind in ("lists", "melds"):
                assert all(a is not b for a, b in zip(mine, theirs)), field.name


def test_a_turn_begins_with_every_turn_field_at_its_start() -> None:
    rnd = Round.deal(load_variant("skarney_gin"), random.Random(3), dealer=0)
    turn = [f for f in STATE if f.turn]
    assert {f.name for f in turn} >= {"drawn", "taken", "offered", "must_meld", "contract_now"}
    for field in turn:
        setattr(rnd, field.name, object())
    rnd.begin_turn(1)
    assert all(getattr(rnd, f.name) == f.initial(rnd) for f in turn)


def test_the_mechanics_declare_their_own_state() -> None:
    owners = {f.name for f in MECHANIC_FIELDS}
    assert {"bought", "buy_queue", "claim_queue", "upcard_queue", "offered", "must_meld", "ender"} <= owners


def test_copy_value_by_kind() -> None:
    nested = [[1], [2]]
    copied = copy_value("lists", nested)
    assert copied == nested and copied[0] is not nested[0]
    assert copy_value("value", nested) is nested
    assert Field("x", lambda rnd: 0).key == "x"
