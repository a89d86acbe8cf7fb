"""The rules OpenSpiel's gin_rummy plays that the language says since issue 17:
``deadwood.arrangement: as_shown`` (hands scored on the melds shown, beside C-6's
least deadwood), ``void.at_discard_draw`` and ``void.after_throwbacks``
(variants/openspiel_gin.yaml; docs/language.md, "deadwood" and "void")."""

from __future__ import annotations

import pytest

from rummydsl.engine import Round
from rummydsl.engine.actions import Meld, parse_action
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .conftest import house, play, position

P1 = "5H 6H 7H 8H 9C 9D 9S AC 2D AS"
P2 = "KS KH KD 2C 3C 4C 9H 4H QC 7D"   # 69 in all; KS KH KD and 2C 3C 4C leave 30
STOCK = "KC 3D 4D 5D 6D 8D TD JD 2H 3H TH"
SHOWN = house("gin_as_shown", "gin_rummy", "deadwood: {arrangement: as_shown}\n")


def deal(variant: str, p1: str = P1, p2: str = P2, stock: str = STOCK, upcard: str = "QD") -> Round:
    return position(variant, dealer="P2", hands={"P1": p1, "P2": p2}, stock=stock, upcard=upcard)


def knock_fewer(variant: str) -> Round:
    """P1 draws KC and knocks it, showing [6H 7H 8H] [9C 9D 9S]: 9 left (5H AC 2D AS),
    where [5H 6H 7H 8H] would leave 4."""
    return play(deal(variant), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [6H 7H 8H] [9C 9D 9S]")


# ------------------------------------------------------------------ deadwood.arrangement


def test_least_refuses_a_knock_that_shows_fewer_melds_than_it_could() -> None:
    """C-6 (the default, least): the knocker picks among the arrangements of least deadwood."""
    rnd = play(deal("gin_rummy"), "P1 pass", "P2 pass", "P1 draw stock")
    with pytest.raises(IllegalActionError, match=r"leave 9 deadwood, but 4 is the least \(C-6\)"):
        rnd.apply("P1 knock KC [6H 7H 8H] [9C 9D 9S]")


def test_as_shown_knocker_keeps_what_it_did_not_show() -> None:
    """as_shown (C-6's option): any melds leaving at most the knock limit; their deadwood is the rest."""
    rnd = knock_fewer(SHOWN)
    assert rnd.ender_deadwood == 9 and rnd.phase.value == "showdown" and rnd.to_move == 1


def test_as_shown_knocker_still_keeps_to_the_limit() -> None:
    """GR-6.1: as shown, the melds must still leave at most the knock limit (10)."""
    rnd = play(deal(SHOWN), "P1 pass", "P2 pass", "P1 draw stock")
    with pytest.raises(IllegalActionError, match="knocking needs at most 10 deadwood; 30 would be left"):
        rnd.apply("P1 knock KC [9C 9D 9S]")


@pytest.mark.parametrize("defender,deadwood,points", [
    (["P2 meld []", "P2 done"], 69, 60),                        # shows nothing: every card counts
    (["P2 meld [KS KH KD]", "P2 done"], 39, 30),               # shows one meld: the rest counts
    (["P2 layoff 9H on P1#1", "P2 meld [KS KH KD]", "P2 done"], 30, 21),  # GR-7.1 lay-off, then a meld
    (["P2 done"], 30, 21),                                      # shows nothing of its own accord: the least (C-7)
], ids=["none", "one-meld", "layoff-then-meld", "automatic"])
def test_as_shown_defender_is_scored_on_what_it_showed(defender: list[str], deadwood: int, points: int) -> None:
    """GR-7.1 and GR-9.1, as shown: the defender's deadwood is what it neither melded nor laid off."""
    rnd = play(knock_fewer(SHOWN), *defender)
    assert rnd.result is not None
    assert rnd.result.deadwoods == (9, deadwood) and rnd.result.points == (points, 0)


def test_least_defender_is_scored_on_its_least_deadwood_whatever_it_showed() -> None:
    """C-6 (least): a defender showing no melds is still scored on its least deadwood."""
    rnd = play(deal("gin_rummy"), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC", "P2 meld []", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (4, 30) and rnd.result.points == (26, 0)


def test_as_shown_defenders_show_melds_after_gin_without_laying_off() -> None:
    """GR-7.2 as shown: after gin the defender shows melds (they count) but lays nothing off."""
    rnd = play(deal(SHOWN, p1="5H 6H 7H 8H 9C 9D 9S AC 2C 3C", p2="KS KH KD 2S 3S 4S 9H 4H QC 7D"),
               "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    assert rnd.ending is not None and rnd.ending.value == "gin" and rnd.result is None
    assert [str(a) for a in rnd.legal_actions()] == ["P2 done"]
    with pytest.raises(IllegalActionError, match=r"nothing is laid off after gin \(GR-7.2"):
        rnd.apply("P2 layoff 9H on P1#1")
    play(rnd, "P2 meld [KS KH KD]", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (0, 39) and rnd.result.points == (25 + 39, 0)


def test_as_shown_with_no_layoffs_still_lets_defenders_show() -> None:
    """layoff.onto: none with as_shown: the defender shows melds, lays nothing off."""
    variant = house("gin_shown_no_layoff", "gin_rummy", "deadwood: {arrangement: as_shown}\nlayoff: {onto: none}\n")
    rnd = knock_fewer(variant)
    assert [str(a) for a in rnd.legal_actions()] == ["P2 done"]
    with pytest.raises(IllegalActionError, match=r"no lay-offs \(layoff.onto: none\)"):
        rnd.apply("P2 layoff 9H on P1#1")
    play(rnd, "P2 meld []", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (9, 69)


def test_meld_none_is_said_only_by_a_defender() -> None:
    """'meld []' (no melds) is a showdown word: refused in a turn, with the reason."""
    rnd = play(deal("gin_rummy"), "P1 pass", "P2 pass", "P1 draw stock")
    with pytest.raises(IllegalActionError, match=r"'meld \[\]' \(showing no melds\) is said only by a defender"):
        rnd.apply("P1 meld []")
    assert len(rnd.hands[0]) == 11  # unchanged


def test_meld_none_round_trips_in_the_notation() -> None:
    deck = load_variant("gin_rummy").deck
    action = parse_action("P2 meld []", deck, 2)
    assert action == Meld(1, ()) and str(action) == "P2 meld []"


# ------------------------------------------------------------------ void.at_discard_draw


DRAWS = house("gin_discard_draws", "gin_rummy",
              "turn: [draw: {from: [stock, discard]}, discard: {taken_card: allowed}]\n"
              "void: {at_discard_draw: 2}\n")


def test_the_second_draw_from_the_pile_voids_the_round_without_being_made() -> None:
    """void.at_discard_draw: 2: the second draw step taking from the pile voids the round; the card stays."""
    rnd = play(deal(DRAWS), "P1 pass", "P2 pass", "P1 draw stock", "P1 discard AS",
               "P2 draw discard", "P2 discard AS")
    assert rnd.result is None and rnd.discard_draws == 1
    play(rnd, "P1 draw discard")
    assert rnd.result is not None and rnd.result.ending == "void" and rnd.result.points == (0, 0)
    assert len(rnd.hands[0]) == 10 and str(rnd.discards[-1]) == "AS"


def test_taking_the_first_upcard_is_no_draw_step_and_does_not_count() -> None:
    """GR-4: the first-turn upcard offer is not a draw step: only the later draw counts."""
    rnd = play(deal(DRAWS), "P1 draw discard", "P1 discard AS", "P2 draw discard", "P2 discard AS")
    assert rnd.result is None and rnd.discard_draws == 1


def test_claiming_the_last_discard_does_not_count() -> None:
    """GR-8: the last-discard claim is no draw step, so even a limit of 1 lets it through."""
    claim = house("gin_claim_draws", "gin_rummy",
                  "stock: {last_discard_claim: true}\nvoid: {at_discard_draw: 1}\n")
    rnd = play(deal(claim, p2="KS KH KD 2C 3C 4C 7D 7C QC AD", stock="7S 3D 2H"),
               "P1 pass", "P2 pass", "P1 draw stock", "P1 discard 7S", "P2 draw discard", "P2 knock QC", "P1 done")
    assert rnd.result is not None and rnd.result.ending == "knock"


# ------------------------------------------------------------------ void.after_throwbacks


def test_two_throwbacks_in_a_row_void_the_round() -> None:
    """void.after_throwbacks: 2 (openspiel_gin): the upcard taken and thrown back by both in turn."""
    rnd = play(deal("openspiel_gin"), "P1 draw discard", "P1 discard QD", "P2 draw discard")
    assert rnd.result is None and rnd.throwbacks == 1
    play(rnd, "P2 discard QD")
    assert rnd.result is not None and rnd.result.ending == "void" and rnd.result.points == (0, 0)


def test_a_turn_between_breaks_the_row() -> None:
    """A turn that throws another card breaks the row: one throwback after it is not two."""
    rnd = play(deal("openspiel_gin"), "P1 draw discard", "P1 discard QD", "P2 draw stock", "P2 discard KC",
               "P1 draw discard", "P1 discard KC")
    assert rnd.result is None and rnd.throwbacks == 1
    play(rnd, "P2 draw discard", "P2 discard KC")
    assert rnd.result is not None and rnd.result.ending == "void"


def test_one_throwback_is_no_void_with_a_limit_of_two() -> None:
    rnd = play(deal("openspiel_gin"), "P1 pass", "P2 draw discard", "P2 discard QD", "P1 draw stock",
               "P1 discard KC")
    assert rnd.result is None and rnd.throwbacks == 0


def test_variants_without_the_rules_keep_their_state_json() -> None:
    """Old variants' positions (saves, goldens) are unchanged: the counters appear only where used."""
    plain = deal("gin_rummy").to_json()
    assert "discard_draws" not in plain and "throwbacks" not in plain
    assert {"discard_draws", "throwbacks", "throwback_turn"} <= set(deal("openspiel_gin").to_json())


def test_the_counts_are_public_in_the_observation_and_at_the_terminal() -> None:
    """Every seat sees how many pile draws and throwbacks there were (docs/protocol.md, ``void``);
    a defender at the terminal is told that what it shows is scored."""
    from rummydsl.engine.observe import Observation
    from rummydsl.terminal import render_observation

    rnd = play(deal("openspiel_gin"), "P1 draw discard", "P1 discard QD")
    seen = Observation(rnd, 1).as_json()
    assert seen["void"] == {"discard_draws": 0, "throwbacks": 1, "throwback_turn": 1}
    assert "void" not in Observation(deal("gin_rummy"), 1).as_json()
    rnd = knock_fewer("openspiel_gin")
    text = render_observation(Observation(rnd, 1), list(rnd.legal_actions()))
    assert "(the round is void at draw 50)" in text and "you are scored on the melds you show" in text


def test_explain_says_the_new_rules_in_plain_words() -> None:
    """explain: as_shown and both void rules, at OpenSpiel's values and at 1."""
    from rummydsl.explainer import explain

    text = " ".join(explain(load_variant("openspiel_gin")).split())
    assert "for the 50th time in the round" in text
    assert "2 turns in a row each take the top discard and throw that same card straight back" in text
    assert "The knocker may show any melds that leave at most 10 deadwood" in text
    ones = house("os_ones", "openspiel_gin", "void: {at_discard_draw: 1, after_throwbacks: 1}\n")
    text = " ".join(explain(load_variant(ones)).split())
    assert "for the 1st time in the round" in text
    assert "when a turn takes the top discard and discards that same card" in text
    plain = " ".join(explain(load_variant("gin_rummy")).split())
    assert "void (nobody scores) when" not in plain and "by the arrangement that leaves the least" in plain
