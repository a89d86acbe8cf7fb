"""Illegal actions of every kind are refused with a reason, and the state is unchanged.

The state is compared as serialised JSON before and after the refused action
(STYLE.md section 2: check everything, then mutate).
"""

from __future__ import annotations

import pytest

from rummydsl.engine import Round
from rummydsl.errors import IllegalActionError, MalformedActionError

from .conftest import play, position


def gin(**kw: str) -> Round:
    return position("gin_rummy", dealer="P2",
                    hands={"P1": "5H 6H 7H 8H 9C 9D 9S AC 2D 4S", "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
                    stock="KC 3D 4D 5D 6D 8D TD JD 2H 3H TH", upcard=kw.get("upcard", "QD"))


def skarney() -> Round:
    return position("skarney_gin", dealer="P2",
                    hands={"P1": "4S 5H 6D JC JD JH 8C 9C TC 7C", "P2": "AS KD KH 5C 5D 5S 9H 2C 6C 7H"},
                    stock="3D QD QS KS AH TH 8H 7D 6H 4D")


CASES = [
    # (id, rule, setup, actions before, illegal action, reason fragment)
    ("wrong-player", "GR-4.1", gin, [], "P2 draw discard", "it is P1's move, not P2's"),
    ("card-not-held", "GR-5", gin, ["P1 pass", "P2 pass", "P1 draw stock"], "P1 discard QH",
     "P1 does not hold QH"),
    ("upcard-after-upcard-round", "GR-4.4", gin, ["P1 pass", "P2 pass"], "P1 draw discard",
     "the first draw is from the stock"),
    ("discard-taken-card", "GR-4.2", gin, ["P1 draw discard"], "P1 discard QD",
     "taken from the discard pile this turn"),
    ("discard-before-draw", "GR-5", gin, ["P1 pass", "P2 pass"], "P1 discard AC", "must draw first"),
    ("knock-over-limit", "GR-6.1", gin, ["P1 pass", "P2 pass", "P1 draw stock"], "P1 knock 9S",
     "at most 10 deadwood"),
    ("knock-with-non-meld", "GR-6.4", gin, ["P1 pass", "P2 pass", "P1 draw stock"],
     "P1 knock KC [5H 6H 7H 8H] [9C 9D AC]", "is not a meld"),
    ("layoff-after-gin", "GR-7.2", gin, [], "P1 layoff 9H on P2#1", "upcard round"),
    ("knocker-lays-off", "GR-7.3", gin, ["P1 pass", "P2 pass", "P1 draw stock",
                                         "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]"],
     "P1 layoff AC on P1#1", "it is P2's move, not P1's"),
    ("layoff-not-fitting", "GR-7.1", gin, ["P1 pass", "P2 pass", "P1 draw stock",
                                           "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]"],
     "P2 layoff QC on P1#1", "does not extend"),
    ("layoff-no-such-meld", "GR-7.1", gin, ["P1 pass", "P2 pass", "P1 draw stock",
                                            "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]"],
     "P2 layoff 9H on P1#5", "has no meld #5"),
    ("offer-last-card", "SK-7.3", skarney, ["P1 draw stock", "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]",
                                            "P1 layoff 7C on P1#3"],
     "P1 done", None),
    ("lay-down-before-contract", "SK-5.1", skarney, ["P1 draw stock"], "P1 meld [JC JD JH]",
     "must meet the contract"),
    ("layoff-before-contract", "SK-5.1", skarney, ["P1 draw stock"], "P1 layoff 7C on P2#1",
     "no lay-offs before meeting the contract"),
    ("draw-discard-without-pile", "SK-4.1", skarney, [], "P1 draw discard", "draws only from the stock"),
    ("offer-not-held", "SK-7.1", skarney, ["P1 draw stock", "P1 done"], "P1 offer 7S", "does not hold 7S"),
    ("skip-mandatory-offer", "SK-7.1", skarney, ["P1 draw stock", "P1 done"], "P1 done",
     "the offer is mandatory"),
    ("knock-in-skarney", "SK-8", skarney, ["P1 draw stock"], "P1 knock 7C", "no knocking"),
]


@pytest.mark.parametrize(("setup", "before", "action", "reason"),
                         [pytest.param(c[2], c[3], c[4], c[5], id=f"{c[1]}-{c[0]}") for c in CASES])
def test_refused_and_unchanged(setup, before, action, reason) -> None:  # type: ignore[no-untyped-def]
    rnd = play(setup(), *before)
    if reason is None:
        # the action is legal; the point is what happens after it (the last card is not offered)
        play(rnd, action)
        assert rnd.phase.value != "offer"
        return
    state = rnd.to_json()
    assert action not in rnd.legal_actions()
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(action)
    assert reason in caught.value.reason
    assert caught.value.action == action or str(rnd.parse(action)) == caught.value.action
    assert rnd.to_json() == state


def test_after_the_last_card_no_offer_is_possible() -> None:
    """SK-7.3: a player holding one card makes no offer; the turn passes."""
    rnd = play(skarney(), "P1 draw stock", "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]",
               "P1 layoff 7C on P1#3", "P1 done")
    assert rnd.to_move == 1 and rnd.phase.value == "draw"
    assert len(rnd.hands[0]) == 1


@pytest.mark.parametrize("text", ["P1 fly", "P9 draw stock", "P1 discard", "P1 discard 1Z",
                                  "P1 layoff 5H P2#1", "P1 knock KC [5H 6H", "P1 meld", "", "draw"])
def test_malformed_text_is_refused(text: str) -> None:
    rnd = gin()
    state = rnd.to_json()
    with pytest.raises(MalformedActionError):
        rnd.apply(text)
    assert rnd.to_json() == state
