"""RULES.md's worked examples (GR-15, SK-11, GS-8) played as scripted rounds."""

from __future__ import annotations

import pytest

from rummydsl.errors import IllegalActionError

from .conftest import play, position

FILLER_GIN = "3D 4D 5D 6D 8D TD JD 2H 3H TH"


def gr15(variant: str = "gin_rummy", upcard: str = "QD", p1_rest: str = "AC 2D 4S", draw: str = "KC"):
    """GR-15: P1 (non-dealer) draws KC, knocks with 5H-8H | 9C 9D 9S | deadwood."""
    return position(
        variant, dealer="P2",
        hands={"P1": f"5H 6H 7H 8H 9C 9D 9S {p1_rest}", "P2": "KS KH KD 2C 3C 4C 9H 4H QC 7D"},
        stock=f"{draw} {FILLER_GIN}", upcard=upcard)


def test_gr15_knock_and_layoffs_score_10() -> None:
    """GR-15, GR-6.1, GR-7.1, GR-9.1: k = 7, P2 lays off 9H and 4H, d = 17: P1 scores 10."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert rnd.phase.value == "showdown" and rnd.to_move == 1
    assert "P2 layoff 9H on P1#1" in rnd.legal_actions()
    play(rnd, "P2 layoff 9H on P1#1", "P2 layoff 4H on P1#1", "P2 done")
    assert rnd.result is not None
    assert rnd.result.ending == "knock"
    assert rnd.result.deadwoods == (7, 17)
    assert rnd.result.points == (10, 0)


def test_gr15_canonical_melds_when_none_named() -> None:
    """GR-6.4 / C-6: a knock without melds shows the arrangement with least deadwood."""
    rnd = play(gr15(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    shown = sorted(sorted(str(c) for c in m.cards) for m in rnd.table[0])
    assert shown == [["5H", "6H", "7H", "8H"], ["9C", "9D", "9S"]]


def test_gr15_oklahoma_spade_upcard_doubles() -> None:
    """GR-15 with Oklahoma, upcard 7S: knock legal at 7, spade doubles: 20 (GR-12.1, GR-12.3)."""
    rnd = play(gr15("oklahoma_gin", upcard="7S"), "P1 pass", "P2 pass", "P1 draw stock",
               "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]",
               "P2 layoff 9H on P1#1", "P2 layoff 4H on P1#1", "P2 done")
    assert rnd.result is not None and rnd.result.points == (20, 0)


def test_oklahoma_knock_over_the_upcard_is_refused() -> None:
    """GR-12.1: with upcard 5S the limit is 5; k = 7 is refused and nothing changes."""
    rnd = play(gr15("oklahoma_gin", upcard="5S"), "P1 pass", "P2 pass", "P1 draw stock")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="at most 5 deadwood; 7 would be left"):
        rnd.apply("P1 knock KC")
    assert rnd.to_json() == before


def test_gr15_gin_no_layoffs_55() -> None:
    """GR-15, GR-9.3, GR-7.2: gin with 2S 3S 4S: no lay-offs, 25 + 30 = 55."""
    rnd = play(gr15(p1_rest="2S 3S 4S"), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    assert rnd.result is not None
    assert rnd.result.ending == "gin" and rnd.result.points == (55, 0)


def test_gr15_big_gin_61() -> None:
    """GR-15, GR-6.3, GR-9.4: P1 draws 5S and keeps all 11 melded: 31 + 30 = 61."""
    rnd = play(gr15(p1_rest="2S 3S 4S", draw="5S"), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock")
    assert rnd.result is not None
    assert rnd.result.ending == "big_gin" and rnd.result.points == (61, 0)


def test_gr15_layoff_after_gin_refused() -> None:
    """GR-7.2, GR-7.1: after gin the defender shows melds but nobody lays off; the round
    is scored once the defender says done."""
    rnd = gr15(p1_rest="2S 3S 4S")
    for action in ("P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC"):
        rnd.apply(action)
    assert rnd.phase.value == "showdown" and rnd.result is None
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match=r"nothing is laid off after gin \(GR-7.2"):
        rnd.apply("P2 layoff 9H on P1#1")
    assert rnd.to_json() == before
    rnd.apply("P2 done")
    assert rnd.result is not None and rnd.result.points == (55, 0)


# ---------------------------------------------------------------- SK-11

SK11_TABLE_SETUP = "4S 5H 6D JC JD JH 8C 9C TC"


def sk11(variant: str = "skarney_gin"):
    """SK-11: P1 will hold the three table melds and 7C 3H; P2 the example's 11 cards less 8S."""
    rnd = position(variant, dealer="P1",
                   hands={"P1": f"{SK11_TABLE_SETUP} 7C 3H",
                          "P2": "AS KD KH 5C 5D 5S 9H 2C 6C 7H"},
                   stock="8S JS QD QS KS AH TH 8H 7D 6H 4D")
    # P2 (non-dealer) draws 8S, melds nothing, offers it; P1 declines: P2 holds SK-11's 11 cards.
    return play(rnd, "P2 draw stock", "P2 done", "P2 offer 8S", "P1 decline")


def test_sk11_scoring_the_example_exactly() -> None:
    """SK-11, SK-5.2, SK-6.1, SK-3.4, SK-8, SK-10.2: the contract goes down, then 7C, JS and 3H
    (3H 4S 5H 6D: suits not all the same); the hand is empty: gin, 25 + 37 = 62."""
    rnd = sk11()
    assert rnd.to_move == 0
    play(rnd, "P1 draw stock",  # JS
         "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]",
         "P1 layoff 7C on P1#3", "P1 layoff JS on P1#2")
    assert rnd.result is None and sorted(str(c) for c in rnd.hands[0]) == ["3H"]
    play(rnd, "P1 layoff 3H on P1#1")
    assert rnd.result is not None
    assert rnd.result.ending == "out" and rnd.result.ender == 0
    assert rnd.result.deadwoods == (0, 37)
    assert rnd.result.points == (62, 0)


def test_sk11_all_different_poker_keeps_3h_and_no_offer() -> None:
    """SK-11 with poker_suits = all_different: 3H does not join 4S 5H 6D; P1 keeps it and
    makes no offer (SK-7.3: the last card is not offered)."""
    rnd = play(sk11("skarney_poker_distinct"), "P1 draw stock",
               "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]",
               "P1 layoff 7C on P1#3", "P1 layoff JS on P1#2")
    assert "P1 layoff 3H on P1#1" not in rnd.legal_actions()
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="does not extend"):
        rnd.apply("P1 layoff 3H on P1#1")
    assert rnd.to_json() == before
    play(rnd, "P1 done")
    assert rnd.to_move == 1 and rnd.phase.value == "draw"  # no offer of the last card


def test_sk11_stock_low_end_p2_scores_14() -> None:
    """SK-11, SK-9.1, SK-10.3: P2 draws from a 3-card stock, melds, no offer; 21 vs 7: P2 scores 14."""
    rnd = position("skarney_gin", dealer="P1",
                   hands={"P1": "KS 8D 3C", "P2": "7C 4S 4H"},
                   stock="4D 2D 2S")
    play(rnd, "P2 draw stock")  # 4D; the stock is down to its floor of 2
    assert rnd.final_turn
    # P2 has not met the contract: nothing goes down; the turn ends with no offer (SK-9.3).
    play(rnd, "P2 done")
    assert rnd.result is not None
    assert rnd.result.ending == "stock_end"
    assert rnd.result.deadwoods == (21, 7)   # 4S 4H 4D is a concealed set (SK-10.1)
    assert rnd.result.points == (0, 14)


# ---------------------------------------------------------------- GS-8

def gs8(a_hand: str = "B1 B2 B3 R10 G10 Y10 P5 P6 G13 R2".replace("B1", "1B").replace("B2", "2B")):
    """GS-8: A dealer (P1), B (P2) knocks, C (P3) lays off first."""
    return position(
        "ginski", dealer="P1",
        hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R",
               "P2": "4R 5R 6R 9G 9B * 10P 11P 12P 2Y",
               "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
        stock="13R 1R 1G 1Y 2G 2P 3R 3P 3Y 4B 4P 4Y", upcard="8B")


def test_gs8_knock_scores_70() -> None:
    """GS-8, GS-6.4, GS-7.3: e = 2; C lays off 7R and 9Y (d = 48), A has 26: B scores 24 + 46 = 70."""
    rnd = play(gs8(), "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
               "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]")
    assert rnd.to_move == 2  # C, on B's left, lays off first
    play(rnd, "P3 layoff 7R on P2#1", "P3 layoff 9Y on P2#2", "P3 done", "P1 done")
    assert rnd.result is not None
    assert rnd.result.deadwoods == (26, 2, 48)
    assert rnd.result.points == (0, 70, 0)


def test_sk11_concealed_melds_count_107() -> None:
    """SK-11 with deadwood_excludes_concealed_melds = false: all 11 cards count, 82: 25 + 82 = 107."""
    import textwrap

    from rummydsl.variant import load_variant

    from .conftest import house

    path = house("skarney_concealed", "skarney_gin", textwrap.dedent("""\
        deadwood: {excludes_concealed_melds: false}
        """))
    load_variant(path)
    rnd = play(sk11(path), "P1 draw stock", "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]",
               "P1 layoff 7C on P1#3", "P1 layoff JS on P1#2", "P1 layoff 3H on P1#1")
    assert rnd.result is not None and rnd.result.points == (107, 0)


@pytest.mark.parametrize(("body", "expected"), [
    pytest.param("options: {knock_points: {value: lowest_difference}}\n", (0, 24, 0),
                 id="GS-8-GS-7.3-lowest-difference-24"),
])
def test_gs8_options(body: str, expected: tuple[int, ...]) -> None:
    from .conftest import house

    rnd = play(gs8_in(house("ginski_option", "ginski", body)), "P2 pass", "P3 pass", "P1 pass",
               "P2 draw stock", "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]",
               "P3 layoff 7R on P2#1", "P3 layoff 9Y on P2#2", "P3 done", "P1 done")
    assert rnd.result is not None and rnd.result.points == expected


def gs8_in(variant: str, a_hand: str = "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R"):
    return position(
        variant, dealer="P1",
        hands={"P1": a_hand,
               "P2": "4R 5R 6R 9G 9B * 10P 11P 12P 2Y",
               "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
        stock="13R 1R 1G 5Y 2G 2P 3R 3P 3Y 4B 4P 4Y", upcard="8B")


def test_gs8_undercut_a_scores_26() -> None:
    """GS-8, GS-7.4: had A's deadwood been 1 (1Y left), undercut: A scores (2 - 1) + 25 = 26."""
    rnd = play(gs8_in("ginski", a_hand="1B 2B 3B 10R 10G 10Y 5P 6P 7P 1Y"),
               "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
               "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]",
               "P3 layoff 7R on P2#1", "P3 layoff 9Y on P2#2", "P3 done", "P1 done")
    assert rnd.result is not None
    assert rnd.result.deadwoods == (1, 2, 48)
    assert rnd.result.points == (26, 0, 0) and rnd.result.undercut
