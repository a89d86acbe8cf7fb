"""An optional step is ended by an action of a later step (issue 17, DESIGN.md's
``P1 draw stock``, ``P1 offer 7H``): ``apply`` plays the ``done`` first, atomically;
``legal_actions()`` still lists only the step's own actions and ``done``."""

from __future__ import annotations

import pytest

from rummydsl.engine import Done, Offer
from rummydsl.errors import IllegalActionError

from .conftest import house, play, position

SK_HANDS = {"P1": "3D 4D 5D 8S 8H 8C 9H TS JC 7H", "P2": "2C 3C 4C 7D 7C 7S 9S TH JD KC"}


def skarney(stock: str = "KD 5C QD 2S 3S 4S", variant: str = "skarney_gin"):  # type: ignore[no-untyped-def]
    return position(variant, dealer="P2", hands=SK_HANDS, stock=stock)


def test_an_offer_in_the_meld_step_ends_it_and_is_made() -> None:
    """SK-4.2, SK-5.5: the offer is the later step's action; the meld step is optional."""
    rnd = play(skarney(), "P1 draw stock")
    assert rnd.phase.value == "meld"
    played = rnd.apply("P1 offer 7H")
    assert isinstance(played, Offer) and str(played) == "P1 offer 7H"
    assert rnd.phase.value == "answer" and rnd.to_move == 1 and str(rnd.offered) == "7H"
    # the log says what happened: the step was ended, then the offer made
    assert [str(a) for a in rnd.actions] == ["P1 draw stock", "P1 done", "P1 offer 7H"]


def test_the_same_as_done_first() -> None:
    implicit = play(skarney(), "P1 draw stock", "P1 offer 7H")
    explicit = play(skarney(), "P1 draw stock", "P1 done", "P1 offer 7H")
    assert implicit.to_json() == explicit.to_json()


def test_the_listing_keeps_the_steps_own_actions_and_in_accepts_the_later_one() -> None:
    """Agents, the terminal's numbered list and the random agent see what they saw before."""
    rnd = play(skarney(), "P1 draw stock")
    listed = [str(a) for a in rnd.legal_actions()]
    assert "P1 done" in listed and not any(text.startswith("P1 offer") for text in listed)
    assert "P1 offer 7H" in rnd.legal_actions() and rnd.why_illegal(rnd.parse("P1 offer 7H")) is None
    assert "P1 offer AS" not in rnd.legal_actions()


@pytest.mark.parametrize(("action", "reason"), [
    ("P1 offer AS", "P1 does not hold AS"),
    ("P2 offer 7D", "it is P1's move, not P2's"),
    ("P1 draw stock", "this is the meld step: meld, lay off, or 'done'"),
])
def test_a_refused_later_action_changes_nothing(action: str, reason: str) -> None:
    """No half-ended step: the offer is checked after a 'done' on a copy, so a refused one
    leaves the round in its meld step."""
    rnd = play(skarney(), "P1 draw stock")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(action)
    assert caught.value.reason == reason and action in str(caught.value)
    assert rnd.to_json() == before and rnd.phase.value == "meld"


def test_no_offer_step_follows_on_the_final_turn() -> None:
    """SK-9.3: the final turn skips the offer, so an offer in its meld step is refused."""
    rnd = play(skarney(stock="KD 5C QD"), "P1 draw stock")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply("P1 offer 7H")
    assert caught.value.reason == ("this is the meld step, and no offer step follows it this turn "
                                   "(ending it ends P1's turn)")
    assert rnd.to_json() == before


def test_a_step_that_cannot_be_ended_refuses_the_later_action() -> None:
    """Melding not optional (``meld.optional: false``): while melds can be put down,
    'done' is refused, and so is the offer that would need it."""
    path = house("sk_meld_required", "skarney_gin",
                 "turn:\n  - draw: {from: [stock]}\n  - meld: {optional: false, add_to_own: true}\n"
                 "  - offer: {mandatory: true, min_hand: 2}\n")
    rnd = play(skarney(variant=path), "P1 draw stock")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply("P1 offer 7H")
    assert caught.value.reason.startswith("this is the meld step, and it cannot be ended yet: melding is not optional")
    assert rnd.to_json() == before


def test_a_discard_ends_rummys_meld_step() -> None:
    """BR-2: draw, meld (optional), discard; the discard ends the meld step and the turn."""
    rnd = position("rummy", dealer="P4",
                   hands={"P1": "3S 4S 5S 9H 9C 9D 5C", "P2": "2C 3C 4C 8H 8D JS QS",
                          "P3": "AH AD 7C 7D TH JH QH", "P4": "5H 6H 2D 4D 6C KS KD"},
                   stock="KC 2H 8C QC AC TS TC 3D 5D 9S 8S 7S", upcard="6S")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S]", "P1 discard KC")
    assert rnd.to_move == 1 and rnd.phase.value == "draw" and str(rnd.discards[-1]) == "KC"
    assert isinstance(rnd.actions[-2], Done)


def test_gin_has_no_optional_step_to_end() -> None:
    """GR-5: a discard before the draw is still refused (no earlier step is skipped)."""
    rnd = position("gin_rummy", dealer="P2",
                   hands={"P1": "5H 6H 7H 8H 9C 9D 9S AC 2D 4S", "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
                   stock="KC 3D 4D 5D 6D 8D TD JD 2H 3H TH", upcard="QD")
    play(rnd, "P1 pass", "P2 pass")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply("P1 discard 4S")
    assert caught.value.reason == "P1 must draw first" and rnd.to_json() == before
