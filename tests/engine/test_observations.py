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
from rummydsl.engine.mechanics.knock import within_limit
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


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_the_knock_limit_is_a_number_only_where_a_limit_applies(variant_id: str) -> None:
    """Issue 18, one meaning per value: ``knock_limit`` is None both where any deadwood may
    knock (KR-3) and where nobody knocks (``variant.knock`` tells them apart), never -1;
    the observation JSON carries the same (null; docs/protocol.md)."""
    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(5), dealer=0)
    seen = Observation(rnd, 0)
    if variant.knock is None or variant.knock.limit is None:
        assert rnd.knock_limit is None and seen.knock_limit is None
    else:
        assert isinstance(rnd.knock_limit, int) and seen.knock_limit == rnd.knock_limit
    assert seen.as_json()["knock_limit"] == seen.knock_limit
    if variant.knock is None:
        assert not within_limit(rnd, 0)  # nobody knocks, not even with no deadwood


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


# ------------------------------------------------------------------ copies of a face (issue 17)

def faces(cards: object) -> list[str]:
    return sorted(str(c) for c in cards)  # type: ignore[attr-defined]


def test_ginski_a_wild_taken_and_another_thrown_leaves_no_wild_known() -> None:
    """GS-4.2, GS-5 (issue 17): P2 takes the upcard, a wild, and must throw another card:
    P2 throws its own wild. The table saw a ``*`` go in and a ``*`` come out; that P2
    still holds a wild (the very one taken) is not something the table saw. Before, the
    taken card stayed known, so every observation showed P2 holding a wild."""
    rnd = position("ginski", dealer="P1",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R",
                          "P2": "4R 5R 6R 9G 9B * 10P 11P 12P 2Y",
                          "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
                   stock="13R 1R 1G 1Y 2G 2P 3R 3P 3Y 4B 4P 4Y", upcard="*")
    play(rnd, "P2 draw discard")
    for seat in (0, 2):
        assert faces(Observation(rnd, seat).known(1)) == ["*"]
    play(rnd, "P2 discard *")
    assert sum(c.wild for c in rnd.hands[1]) == 1  # P2 holds the upcard still
    for seat in (0, 2):
        obs = Observation(rnd, seat)
        assert obs.known(1) == ()
        assert obs.as_json()["known"]["P2"] == []
        check_observation(rnd, seat)


def test_ginski_two_wilds_taken_one_thrown_leaves_one_known() -> None:
    """Multiplicity (issue 17): two wilds taken from the pile, one thrown later: one wild
    is known, and it is one of the two taken (a card id seen going in)."""
    rnd = position("ginski", dealer="P1",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G *",
                          "P2": "4R 5R 6R 9G 9B 2G 10P 11P 12P 2Y",
                          "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
                   stock="13R 1R 1G 1Y 2P 3R 3P 3Y 4B 4P 4Y 5B", upcard="*")
    taken = rnd.discards[-1]
    play(rnd, "P2 draw discard", "P2 discard 2Y", "P3 draw stock", "P3 discard 12G",
         "P1 draw stock", "P1 discard *", "P2 draw discard")
    second = rnd.taken
    assert faces(Observation(rnd, 0).known(1)) == ["*", "*"]
    play(rnd, "P2 discard *", "P3 draw stock", "P3 discard 11R", "P1 draw stock", "P1 discard 1R",
         "P2 draw stock", "P2 discard *")
    for seat in (0, 2):
        assert Observation(rnd, seat).known(1) == ()
    rnd = position("ginski", dealer="P1",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G *",
                          "P2": "4R 5R 6R 9G 9B 2G 10P 11P 12P 2Y",
                          "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
                   stock="13R 1R 1G 1Y 2P 3R 3P 3Y 4B 4P 4Y 5B", upcard="*")
    play(rnd, "P2 draw discard", "P2 discard 2Y", "P3 draw stock", "P3 discard 12G",
         "P1 draw stock", "P1 discard *", "P2 draw discard", "P2 discard 2G",
         "P3 draw stock", "P3 discard 11R", "P1 draw stock", "P1 discard 1R", "P2 draw stock", "P2 discard *")
    known = Observation(rnd, 0).known(1)
    assert faces(known) == ["*"] and known[0].id in {taken.id, second.id}
    check_observation(rnd, 0)


def test_two_packs_a_face_taken_and_its_other_copy_thrown() -> None:
    """CR-1, CR-3 (issue 17): two packs, so two 7C. P1 takes the upcard 7C and throws 7C
    (``taken_card: allowed``: the engine throws the copy dealt to P1). The table saw 7C go in
    and 7C come out: nothing of P1's hand is known, though P1 still holds the upcard."""
    rnd = position("contract_rummy", dealer="P4",
                   hands={"P1": "7S 7H 7D KS KH KD 4C 5C 7C 8C",
                          "P2": "KC 3S 9H TD JC QH 2D 5H 9S AC",
                          "P3": "3H 4H 8S 8D TC JH QS 2C 5D 6D",
                          "P4": "AS 4S 6S TS JS QD AH 6H 9D 3C"},
                   stock="2S 2H 3D 4D 6C 9C TH JD QC AD 8H 5S", upcard="7C")
    upcard = rnd.discards[-1]
    play(rnd, "P1 draw discard", "P1 done", "P1 discard 7C")
    assert any(c is upcard for c in rnd.hands[0])
    assert rnd.discards[-1] is not upcard
    for seat in (1, 2, 3):
        obs = Observation(rnd, seat)
        assert obs.known(0) == () and obs.as_json()["known"]["P1"] == []
        check_observation(rnd, seat)


def test_500_rum_jokers_a_joker_taken_and_another_thrown() -> None:
    """R5-1 (jokers, a house rule), R5-3 (issue 17): P1 throws a joker, P2 takes it from the
    pile and later throws the joker it was dealt: a joker in and a joker out, so the table
    knows no joker in P2's hand (before, the joker taken stayed known)."""
    from .conftest import house

    variant = load_variant(house("r5_jokers", "rummy_500", "deck: {wilds: 2}\n"))
    deck = variant.deck
    first, second = deck.parse_cards("* *")
    p1 = [second, *deck.parse_cards("3S 4S 5S 9H 9C KD")]
    p2 = [first, *deck.parse_cards("7D 8D 6H JC QC AH")]
    p3 = deck.parse_cards("TS TH TC 2D 3D QS KS")
    rnd = Round.from_setup(variant, dealer=2, hands=[p1, p2, p3],
                           stock=deck.parse_cards("8C 6C 5D JS 2H 7S 9S"), upcard=deck.parse_card("4H"))
    play(rnd, "P1 draw stock", "P1 done", "P1 discard *", "P2 draw discard")
    assert rnd.taken is second and faces(Observation(rnd, 0).known(1)) == ["*"]
    play(rnd, "P2 done", "P2 discard *")
    assert rnd.discards[-1] is first and any(c is second for c in rnd.hands[1])
    for seat in (0, 2):
        obs = Observation(rnd, seat)
        assert obs.known(1) == () and obs.as_json()["known"]["P2"] == []
        check_observation(rnd, seat)


def test_two_packs_an_offer_of_a_face_already_known_adds_no_copy() -> None:
    """SK-7.2 with two packs (issue 17): P2 takes P1's offered 3D, then offers a 3D
    (the one it was dealt) and P1 declines. The table saw one 3D go in and a 3D shown:
    one 3D is known in P2's hand, not two (before, the declined copy was added beside the
    taken one, revealing that P2 held a second 3D)."""
    from .conftest import house

    variant = load_variant(house("skarney_two_packs", "skarney_gin", "deck: {packs: 2}\n"))
    deck = variant.deck
    mine, offered = deck.parse_cards("3D 3D")
    p1 = [offered, *deck.parse_cards("4S 5H 6D JC JD JH 8C 9C TC")]
    p2 = [mine, *deck.parse_cards("AS KD KH 5C 5D 5S 9H 2C 6C")]
    rnd = Round.from_setup(variant, dealer=1, hands=[p1, p2], stock=deck.parse_cards("QD QS KS AH TH 8H 7D 6H 4D"))
    play(rnd, "P1 draw stock", "P1 done", "P1 offer 3D", "P2 take")
    assert faces(Observation(rnd, 0).known(1)) == ["3D"]
    play(rnd, "P2 draw stock", "P2 done", "P2 offer 3D", "P1 decline")
    obs = Observation(rnd, 0)
    assert faces(obs.known(1)) == ["3D"] and obs.as_json()["known"]["P2"] == ["3D"]
    check_observation(rnd, 0)


# ------------------------------------------------------------------ the knock's discard, a void round (issue 17)

def test_the_knock_discard_stays_face_down_while_the_defender_lays_off() -> None:
    """GR-6.1, GR-15 (issue 17): P1 discards KC face down and knocks. While P2 lays off,
    and after the round, P2's observation does not show KC (not in the pile, not on top);
    P1 sees its own discard as ``knock_discard``."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert rnd.phase.value == "showdown"
    p2 = Observation(rnd, 1)
    assert "KC" not in tokens(rnd, 1)
    assert all(str(c) != "KC" for c in p2.discards) and str(p2.top_discard) == "QD"
    assert p2.knock_discard is None and p2.face_down
    assert p2.as_json()["knock_discard"] is None and p2.as_json()["discards"] == ["QD"]
    p1 = Observation(rnd, 0)
    assert str(p1.knock_discard) == "KC" and p1.as_json()["knock_discard"] == "KC"
    check_observation(rnd, 1)
    play(rnd, "P2 layoff 9H on P1#1", "P2 layoff 4H on P1#1", "P2 done")
    assert rnd.result is not None and rnd.result.points == (10, 0)
    assert "KC" not in tokens(rnd, 1) and Observation(rnd, 1).as_json()["knock_discard"] is None
    check_observation(rnd, 1)


def test_the_knock_discard_is_in_the_engine_pile_and_the_record() -> None:
    """The engine keeps the card where it lies (the pile's last card): a save, a record and
    the card count see it; only an observation hides it."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert str(rnd.discards[-1]) == "KC" and rnd.to_json()["discards"][-1] == "KC"
    assert str(rnd.actions[-1]).startswith("P1 knock KC")


def test_a_void_round_shows_no_other_hand_deadwood() -> None:
    """GR-8 (issue 17): the stock reaches its floor and the round is void: nobody shows a
    hand, so an observation's result gives the seat's own deadwood and null for the others
    (the engine's result keeps every deadwood, for records and statistics)."""
    rnd = position("gin_rummy", dealer="P2",
                   hands={"P1": "5H 6H 7H 8H 9C 9D 9S AC 2D 4S",
                          "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
                   stock="KC 3D 4D", upcard="QD")
    play(rnd, "P1 pass", "P2 pass", "P1 draw stock", "P1 discard KC")
    assert rnd.result is not None and rnd.result.void
    assert None not in rnd.result.deadwoods
    for seat in (0, 1):
        obs = Observation(rnd, seat)
        shown = obs.as_json()["result"]["deadwoods"]
        mine = rnd.result.deadwoods[seat]
        assert shown == {name: (mine if p == seat else None) for p, name in enumerate(("P1", "P2"))}
        assert obs.result is not None and obs.result.deadwoods[1 - seat] is None
        check_observation(rnd, seat)


def test_a_scored_round_shows_every_deadwood() -> None:
    """GR-9: a knock is scored on both hands, shown at the table: the result is whole."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]",
               "P2 layoff 9H on P1#1", "P2 layoff 4H on P1#1", "P2 done")
    assert rnd.result is not None
    assert Observation(rnd, 0).as_json()["result"] == rnd.result.as_json()


def test_table_melds_is_the_table_flattened_seat_by_seat() -> None:
    """``Observation.table_melds`` holds the very melds of ``table``, seat by seat, as play
    puts melds down and lays off (six-player Rummy, greedy seats)."""
    from rummydsl.agents import GreedyAgent
    from rummydsl.engine import play_round

    variant = load_variant("rummy")
    rnd = Round.deal(variant, random.Random(5), dealer=0, players=6)
    seen = []

    def check(played: Round, action: object) -> None:
        observation = Observation(played, 0)
        flat = observation.table_melds
        assert [id(m) for m in flat] == [id(m) for melds in observation.table for m in melds]
        seen.append(len(flat))

    play_round(rnd, [GreedyAgent() for _ in range(6)], on_action=check)
    assert max(seen) >= 2  # melds were put down
