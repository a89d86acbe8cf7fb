"""Observations leak nothing: a card another player holds face down never shows.

Cards of another hand may show only once everyone has seen them: taken from the
discard pile (GR-5, GR-4), shown in an offer (SK-7.2), or shown in melds after a
knock (GR-6.4, GR-7.1). The seeded tests of test_invariants.py check every step
of play; these play the places where a leak is likeliest, by script.
"""

from __future__ import annotations

import random

import pytest

from rummydsl.engine import Observation, Round
from rummydsl.variant import load_variant

from .conftest import play, position
from .invariants import SHIPPED, check_observation, strings


def gr15() -> Round:
    """GR-15's hands: P1 (non-dealer) will knock, P2 defends."""
    return position("gin_rummy", dealer="P2",
                    hands={"P1": "5H 6H 7H 8H 9C 9D 9S AC 2D 4S",
                           "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
                    stock="KC 3D 4D 5D 6D 8D TD JD 2H 3H TH", upcard="QD")


def tokens(rnd: Round, seat: int) -> set[str]:
    return strings(Observation(rnd, seat).as_json())


P2_HAND = {"KS", "KH", "KD", "2C", "3C", "4C", "9H", "4H", "QC", "7D"}


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_legal_actions_of_a_player_not_to_move_are_empty(variant_id: str) -> None:
    """Regression: an observation listed the *mover's* legal actions to every seat, so a
    player saw the opponent's hand in its ``P2 discard ..`` actions. Now only the player to
    move has legal actions; ``in`` answers False for the others (their hand stays hidden)."""
    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(5), dealer=0)
    mover = rnd.to_move
    assert mover is not None
    for seat in range(rnd.players):
        legal = Observation(rnd, seat).legal_actions()
        if seat == mover:
            assert len(legal) > 0 and all(a.player == seat for a in legal)
            continue
        assert list(legal) == [] and len(legal) == 0 and legal.count() == 0
        with pytest.raises(IndexError):
            legal[0]
        for action in rnd.legal_actions():
            assert action not in legal and str(action) not in legal
        assert "legal" not in Observation(rnd, seat).as_json()


def test_during_discard_the_other_player_sees_no_card_of_the_mover() -> None:
    """GR-5: while P1 chooses a discard, P2's observation shows none of P1's cards."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock")
    p1 = {str(c) for c in rnd.hands[0]}
    assert not (p1 - {"QD"}) & tokens(rnd, 1)
    assert not p1 & {str(a.card) for a in Observation(rnd, 1).legal_actions() if hasattr(a, "card")}
    check_observation(rnd, 1)


def test_defender_hand_hidden_from_knocker_during_layoffs() -> None:
    """GR-6.4, GR-7.1: after P1 knocks, P2's hand stays hidden from P1 while P2 lays off,
    until P2 shows melds; then only the shown melds and the laid-off cards are seen."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert rnd.phase.value == "showdown" and rnd.to_move == 1
    assert not P2_HAND & tokens(rnd, 0), "the knocker sees the defender's hand before it is shown"
    check_observation(rnd, 0)
    play(rnd, "P2 layoff 9H on P1#1")
    assert (P2_HAND - {"9H"}) & tokens(rnd, 0) == set()
    check_observation(rnd, 0)
    play(rnd, "P2 meld [KS KH KD] [2C 3C 4C]")
    seen = tokens(rnd, 0)
    assert {"KS", "KH", "KD", "2C", "3C", "4C"} <= seen
    assert not {"4H", "QC", "7D"} & seen, "the defender's unshown deadwood is seen"
    check_observation(rnd, 0)


def test_ginski_first_defender_does_not_see_the_second() -> None:
    """GS-6.4: while C lays off after B's knock, neither B nor C sees A's hand, nor A C's."""
    rnd = position("ginski", dealer="P1",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R",
                          "P2": "4R 5R 6R 9G 9B * 10P 11P 12P 2Y",
                          "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
                   stock="13R 1R 1G 1Y 2G 2P 3R 3P 3Y 4B 4P 4Y", upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
         "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]", "P3 layoff 7R on P2#1")
    a_hand = {str(c) for c in rnd.hands[0]}
    c_hand = {str(c) for c in rnd.hands[2]}
    for seat in (1, 2):
        assert not a_hand & tokens(rnd, seat)
        check_observation(rnd, seat)
    assert not c_hand & tokens(rnd, 0)
    check_observation(rnd, 0)


def test_card_taken_from_the_pile_is_known_until_it_leaves() -> None:
    """GR-4.2, GR-5: the upcard P1 takes is known to P2; once P1 discards it later it is not
    reported in P1's hand any more (it is on the pile)."""
    rnd = play(gr15(), "P1 draw discard")
    assert [str(c) for c in Observation(rnd, 1).known(0)] == ["QD"]
    assert Observation(rnd, 1).as_json()["known"] == {"P1": ["QD"]}
    play(rnd, "P1 discard AC", "P2 draw stock", "P2 discard KC", "P1 draw stock", "P1 discard QD")
    assert Observation(rnd, 1).known(0) == ()
    check_observation(rnd, 1)


def test_offer_declined_is_known_in_the_offerer_hand_taken_in_the_taker() -> None:
    """SK-7.2: an offered card is shown face up; declined, it is known in the offerer's hand;
    taken, in the acceptor's. Nothing else of either hand shows."""
    rnd = position("skarney_gin", dealer="P2",
                   hands={"P1": "4S 5H 6D JC JD JH 8C 9C TC 7C", "P2": "AS KD KH 5C 5D 5S 9H 2C 6C 7H"},
                   stock="3D QD QS KS AH TH 8H 7D 6H 4D")
    play(rnd, "P1 draw stock", "P1 done", "P1 offer 3D")
    assert "3D" in tokens(rnd, 1)
    play(rnd, "P2 decline")
    assert [str(c) for c in Observation(rnd, 1).known(0)] == ["3D"]
    for seat in (0, 1):
        check_observation(rnd, seat)
    play(rnd, "P2 draw stock", "P2 done", "P2 offer QD", "P1 take")
    assert {str(c) for c in Observation(rnd, 1).known(0)} == {"3D", "QD"}
    p1_secret = {str(c) for c in rnd.hands[0]} - {"3D", "QD"}
    assert not p1_secret & tokens(rnd, 1)
    for seat in (0, 1):
        check_observation(rnd, seat)


def test_gr12_4_dealt_upcard_stays_public_after_it_is_taken() -> None:
    """GR-12.4: the dealt upcard stays public knowledge once taken (and is known in the hand)."""
    rnd = position("oklahoma_gin", dealer="P2",
                   hands={"P1": "5H 6H 7H 8H 9C 9D 9S AC 2D 4S", "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
                   stock="KC 3D 4D 5D", upcard="7S")
    play(rnd, "P1 draw discard", "P1 discard AC")
    for seat in (0, 1):
        obs = Observation(rnd, seat)
        assert str(obs.upcard) == "7S" and obs.as_json()["upcard"] == "7S"
        assert obs.knock_limit == 7
        check_observation(rnd, seat)
