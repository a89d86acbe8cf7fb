"""A listed action is played unchecked (``Mechanic.apply_listed``), an outside one checked:
both leave the same round.

:meth:`Round.apply <rummydsl.engine.round.Round.apply>` plays an action that is one of
the very objects the round just listed without checking it again, through the mechanic's
``apply_listed`` (a meld's contract and a lay-off's fit are not judged twice); any other
action (text, an equal object built elsewhere, one listed in another position) is checked
first and refused with the round unchanged. Seeded random hands of every shipped variant
play each listed action (a sample of long listings) both ways on copies of the round, and
by its text, and compare the rounds whole.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummydsl.engine import Round
from rummydsl.engine.actions import Discard, Knock, card_text
from rummydsl.engine.mechanics import BY_PHASE, KNOCK
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .invariants import SHIPPED, same_text, state_of

HANDS = 2
"""Seeded hands per variant."""
SAMPLE = 6
"""Listed actions tried both ways at each decision (all of them, in a shorter listing)."""
MAX_ACTIONS = 400


def _state(rnd: Round) -> tuple[dict[str, Any], list[Any]]:
    """The whole round, each card named as the very copy (``card_text``): ``to_json(card_text)``
    but the action log, and the log's actions (compared by :func:`same_text`, as their text:
    writing the whole log out for each comparison was nearly half of this file's time)."""
    return state_of(rnd, card_text)


def _both_ways(rnd: Round, index: int, plays: dict[str, int]) -> None:
    """Play listed action ``index`` on two copies of ``rnd``: as listed there (unchecked)
    and as the same object on a copy without a listing (checked); also by its text."""
    action = rnd.listed()[index]
    listed = rnd.copy()
    own = listed.listed()[index]  # the copy's own listing: that very object is played unchecked
    assert str(own) == str(action)
    before = len(listed.actions)
    mechanic = KNOCK if isinstance(own, Knock) else BY_PHASE[listed.phase]
    played = mechanic.apply_listed
    calls = []

    def spy(r: Round, a: Any) -> None:
        calls.append(a)
        played(r, a)

    mechanic.apply_listed = spy  # type: ignore[method-assign]
    try:
        listed.apply(own)
    finally:
        del mechanic.apply_listed
    assert calls == [own], f"{own} was not played as listed"
    checked = rnd.copy()  # no listing: the action is checked first
    checked.apply(action)
    assert len(listed.actions) == before + 1
    want = _state(checked)  # written once for both comparisons
    assert same_text(_state(listed), want), f"{action}: the listed and the checked path differ"
    assert listed.rules is checked.rules and listed.to_move == checked.to_move
    for seat in range(rnd.players):
        assert [id(c) for c in listed.hands[seat]] == [id(c) for c in checked.hands[seat]]
        assert [(m.kind, [id(c) for c in m.cards], m.by) for m in listed.table[seat]] == \
               [(m.kind, [id(c) for c in m.cards], m.by) for m in checked.table[seat]]
    if rnd._plain_deck:  # (with copies of a face, the text names a face: the copy played may differ)
        texted = rnd.copy()
        texted.listed()
        texted.apply(str(action))  # parsed: a new object, checked
        assert same_text(_state(texted), want), f"{action}: played by its text, the round differs"
    plays[type(action).__name__] = plays.get(type(action).__name__, 0) + 1


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_listed_and_checked_paths_leave_equal_rounds(variant_id: str) -> None:
    variant = load_variant(variant_id)
    plays: dict[str, int] = {}
    for seed in range(HANDS):
        rng = random.Random(seed)
        rnd = Round.deal(variant, rng, dealer=seed % variant.players)
        while rnd.result is None and len(rnd.actions) < MAX_ACTIONS:
            listing = rnd.listed()
            indexes = range(len(listing))
            for index in (indexes if len(listing) <= SAMPLE else rng.sample(indexes, SAMPLE)):
                _both_ways(rnd, index, plays)
            rnd.apply(listing[rng.randrange(len(listing))])
            while rnd.result is None and (forced := rnd.automatic()) is not None:
                rnd.apply(forced)
    assert sum(plays.values()) > 10, plays
    if variant.contract is not None or any(step.name == "meld" for step in variant.turn):
        assert "Meld" in plays or "Layoff" in plays, plays
    if variant.step("offer") is not None:
        assert plays.get("Offer") and (plays.get("Take") or plays.get("Decline")), plays


def test_an_action_listed_before_is_checked_now() -> None:
    """A listed object played after the round moved on (its listing gone) is checked, and
    refused with the round unchanged; an equal object that was not listed is checked too."""
    variant = load_variant("ginski")
    rnd = Round.deal(variant, random.Random(3), dealer=0)
    while rnd.phase.value != "discard":
        rnd.apply(rnd.listed()[0])
    stale = next(a for a in rnd.listed() if isinstance(a, Discard))
    rnd.apply(stale)
    before = rnd.to_json(card_text)
    with pytest.raises(IllegalActionError):
        rnd.apply(stale)  # no longer that seat's move
    assert rnd.to_json(card_text) == before
    while rnd.phase.value != "discard":
        rnd.apply(rnd.listed()[0])
    player = rnd.to_move
    assert player is not None
    held = {c.id for c in rnd.hands[player]}
    foreign = Discard(player, next(c for c in variant.deck.cards if c.id not in held and not c.wild))
    with pytest.raises(IllegalActionError, match="does not hold"):
        rnd.apply(foreign)
    after = rnd.to_json(card_text)
    listed = next(a for a in rnd.listed() if isinstance(a, Discard))
    copy = Discard(player, listed.card)  # equal, not the listed object: checked, then played
    assert copy == listed and copy is not listed
    rnd.apply(copy)
    assert rnd.to_json(card_text) != after
