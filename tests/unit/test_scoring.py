"""RULES.md's worked examples (GR-15, SK-11, GS-8) scored through the shipped variant files.

Deadwoods are given directly to a SimpleRoundView (finding the best arrangement is
the solver's job, tested elsewhere); the card arithmetic behind each deadwood is
checked against the variant's card values, and the melds named in the examples
against its meld patterns, so the numbers below are the examples' own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import pytest

from rummydsl.expr import SimpleRoundView
from rummydsl.scoring import final_figures, matching_case, score_round
from rummydsl.variant import load_variant
from rummydsl.variant.model import Variant


def house(tmp_path: Path, parent: str, body: str) -> Variant:
    """A house-rule variant: ``parent`` with ``body`` merged on."""
    path = tmp_path / "house.yaml"
    path.write_text(f"rummydsl: 1\nid: house\nname: House rule\nextends: {parent}\n{body}",
                    encoding="utf-8")
    return load_variant(str(path))


def round_view(variant: Variant, *, upcard: str | None = None, **kwargs: Any) -> SimpleRoundView:
    return SimpleRoundView(upcard=None if upcard is None else variant.deck.parse_card(upcard),
                           card_value=lambda c: variant.card_values[c.id], **kwargs)


def value(variant: Variant, cards: str) -> int:
    """The deadwood value of a group of cards, by the variant's card values."""
    return sum(variant.card_values[c.id] for c in variant.deck.parse_cards(cards))


def is_meld(variant: Variant, kind: str, cards: str) -> bool:
    pattern = {k.name: k.pattern for k in variant.meld_kinds}[kind]
    return bool(pattern(variant.deck.parse_cards(cards)))


# ================================================================== GR-15 (Gin Rummy)

GIN = "gin_rummy"
P12 = ("P1", "P2")


def gin_round(variant: Variant, ending: str, k: int, d: int, upcard: str | None = None) -> dict:
    view = round_view(variant, players=P12, ender="P1", ending=ending,
                      deadwoods={"P1": k, "P2": d}, upcard=upcard)
    return score_round(variant, view)


def test_gr15_hands() -> None:
    """GR-15: k = 1+2+4 = 7; the defender has 30 before and 17 after laying off 9♥ 4♥."""
    gin = load_variant(GIN)
    assert value(gin, "AC 2D 4S") == 7
    assert value(gin, "9H 4H QC 7D") == 30
    assert value(gin, "QC 7D") == 17
    assert value(gin, "KC") == 10
    for kind, cards in [("run", "5H 6H 7H 8H"), ("set", "9C 9D 9S"), ("set", "KS KH KD"),
                        ("run", "2C 3C 4C"), ("run", "4H 5H 6H 7H 8H 9H"), ("run", "2S 3S 4S"),
                        ("run", "2S 3S 4S 5S")]:
        assert is_meld(gin, kind, cards), (kind, cards)
    assert not is_meld(gin, "run", "AC 2D 4S")


@pytest.mark.parametrize(
    ("ending", "k", "d", "expected"),
    [
        pytest.param("knock", 7, 17, {"P1": 10, "P2": 0}, id="GR-15-GR-9.1-knock-17-7"),
        pytest.param("gin", 0, 30, {"P1": 55, "P2": 0}, id="GR-15-GR-9.3-gin-25+30"),
        pytest.param("big_gin", 0, 30, {"P1": 61, "P2": 0}, id="GR-15-GR-9.4-big-gin-31+30"),
        pytest.param("knock", 8, 5, {"P1": 0, "P2": 28}, id="GR-15-GR-9.2-undercut-8-5"),
        pytest.param("knock", 6, 6, {"P1": 0, "P2": 25}, id="GR-15-GR-9.2-undercut-tie"),
        pytest.param("gin", 0, 0, {"P1": 25, "P2": 0}, id="GR-9.3-gin-not-undercut"),
    ],
)
def test_gr15_round(ending: str, k: int, d: int, expected: dict) -> None:
    assert gin_round(load_variant(GIN), ending, k, d) == expected


def test_gr15_undercut_on_tie_false(tmp_path: Path) -> None:
    """GR-9.2 undercut_on_tie = false: k = d = 6 scores nothing for anyone."""
    variant = house(tmp_path, GIN, "options: {undercut_on_tie: {value: false}}\n")
    assert gin_round(variant, "knock", 6, 6) == {"P1": 0, "P2": 0}
    assert gin_round(variant, "knock", 8, 5) == {"P1": 0, "P2": 28}


@pytest.mark.parametrize(
    ("upcard", "limit", "expected"),
    [
        pytest.param("7S", 7, 20, id="GR-15-GR-12.3-oklahoma-7S-doubled"),
        pytest.param("7H", 7, 10, id="GR-12.1-oklahoma-7H"),
        pytest.param("QD", 10, 10, id="GR-12.1-oklahoma-face-card"),
    ],
)
def test_gr15_oklahoma(upcard: str, limit: int, expected: int) -> None:
    """GR-15 under Oklahoma: the upcard 7♠ makes the limit 7 (k = 7 may knock) and doubles."""
    oklahoma = load_variant("oklahoma_gin")
    view = round_view(oklahoma, players=P12, upcard=upcard)
    assert oklahoma.knock.limit(view) == limit
    assert 7 <= oklahoma.knock.limit(view)
    assert gin_round(oklahoma, "knock", 7, 17, upcard=upcard) == {"P1": expected, "P2": 0}


def test_gr12_oklahoma_ace_and_spade_gin() -> None:
    """GR-12.2: an ace upcard allows gin only; GR-12.3: a spade doubles bonuses too."""
    oklahoma = load_variant("oklahoma_gin")
    assert oklahoma.knock.limit(round_view(oklahoma, upcard="AS")) == 0
    assert gin_round(oklahoma, "gin", 0, 30, upcard="AS") == {"P1": 110, "P2": 0}
    assert gin_round(oklahoma, "gin", 0, 30, upcard="AD") == {"P1": 55, "P2": 0}


def test_gr14_straight_gin_limit() -> None:
    """GR-14: straight gin is knock_limit 0."""
    straight = load_variant("straight_gin")
    assert straight.knock.limit(round_view(straight, upcard="KS")) == 0
    assert gin_round(straight, "gin", 0, 30) == {"P1": 55, "P2": 0}


@pytest.mark.parametrize(
    ("shutout", "points", "wins", "expected"),
    [
        pytest.param(None, {"P1": 104, "P2": 27}, {"P1": 4, "P2": 1}, {"P1": 304, "P2": 52},
                     id="GR-15-GR-10.5-game-end"),
        pytest.param(None, {"P1": 104, "P2": 0}, {"P1": 4, "P2": 0}, {"P1": 608, "P2": 0},
                     id="GR-15-GR-10.4-shutout-double_total"),
        pytest.param("double_hand_points", {"P1": 104, "P2": 0}, {"P1": 4, "P2": 0},
                     {"P1": 104 * 2 + 100 + 100, "P2": 0}, id="GR-10.4-shutout-double_hand_points"),
        pytest.param("flat_100", {"P1": 104, "P2": 0}, {"P1": 4, "P2": 0},
                     {"P1": 304 + 100, "P2": 0}, id="GR-10.4-shutout-flat_100"),
        pytest.param("none", {"P1": 104, "P2": 0}, {"P1": 4, "P2": 0},
                     {"P1": 304, "P2": 0}, id="GR-10.4-shutout-off"),
        pytest.param("flat_100", {"P1": 104, "P2": 27}, {"P1": 4, "P2": 1},
                     {"P1": 304, "P2": 52}, id="GR-10.4-no-shutout-flat_100"),
        pytest.param("double_hand_points", {"P1": 27, "P2": 104}, {"P1": 1, "P2": 4},
                     {"P1": 52, "P2": 304}, id="GR-10.5-P2-wins"),
    ],
)
def test_gr15_game_end(tmp_path: Path, shutout: str | None, points: dict, wins: dict,
                       expected: dict) -> None:
    variant = load_variant(GIN) if shutout is None else house(
        tmp_path, GIN, f"game: {{shutout: {shutout}}}\n")
    assert final_figures(variant, points, wins) == expected


# ================================================================= SK-11 (Skarney Gin)

SKARNEY = "skarney_gin"
P2_HAND = "AS KD KH 5C 5D 5S 9H 2C 6C 7H 8S"   # SK-11 as corrected: K♥, not a second J♥


def test_sk11_hands() -> None:
    """SK-11: P1's last three cards all fit; P2's best arrangement leaves 37, the hand is 82."""
    skarney = load_variant(SKARNEY)
    assert is_meld(skarney, "poker", "4S 5H 6D")
    assert is_meld(skarney, "set", "JC JD JH")
    assert is_meld(skarney, "run", "8C 9C TC")
    assert is_meld(skarney, "run", "7C 8C 9C 10C")
    assert is_meld(skarney, "set", "JC JD JH JS")
    assert is_meld(skarney, "poker", "3H 4S 5H 6D")
    assert is_meld(skarney, "set", "5C 5D 5S")
    assert is_meld(skarney, "poker", "6C 7H 8S 9H")
    assert value(skarney, "AS KD KH 2C") == 37
    assert value(skarney, P2_HAND) == 82
    assert value(skarney, "KS 8D 3C") == 21
    assert value(skarney, "7C") == 7


def test_sk11_poker_suits_all_different() -> None:
    """SK-11 with poker_suits = all_different: 3♥ cannot join 4♠ 5♥ 6♦."""
    distinct = load_variant("skarney_poker_distinct")
    assert is_meld(distinct, "poker", "4S 5H 6D")
    assert not is_meld(distinct, "poker", "3H 4S 5H 6D")


@pytest.mark.parametrize(
    ("d", "expected"),
    [
        pytest.param(37, 62, id="SK-11-SK-10.2-gin-25+37"),
        pytest.param(82, 107, id="SK-11-SK-10.1-concealed-melds-count-25+82"),
    ],
)
def test_sk11_gin(d: int, expected: int) -> None:
    skarney = load_variant(SKARNEY)
    view = round_view(skarney, players=P12, ender="P1", ending="out", deadwoods={"P1": 0, "P2": d})
    assert score_round(skarney, view) == {"P1": expected, "P2": 0}


@pytest.mark.parametrize("ender", [pytest.param("P2", id="ender-P2"), pytest.param(None, id="no-ender")])
@pytest.mark.parametrize(
    ("deadwoods", "expected"),
    [
        pytest.param({"P1": 21, "P2": 7}, {"P1": 0, "P2": 14}, id="SK-11-SK-10.3-stock-end-21-7"),
        pytest.param({"P1": 4, "P2": 19}, {"P1": 15, "P2": 0}, id="SK-10.3-stock-end-other-way"),
        pytest.param({"P1": 12, "P2": 12}, {"P1": 0, "P2": 0}, id="SK-10.3-stock-end-tie"),
    ],
)
def test_sk11_stock_end(ender: str | None, deadwoods: dict, expected: dict) -> None:
    """SK-9/SK-10.3: P2 took the final turn; the lower deadwood scores the difference."""
    skarney = load_variant(SKARNEY)
    view = round_view(skarney, players=P12, ender=ender, ending="stock_end", deadwoods=deadwoods)
    assert score_round(skarney, view) == expected


def test_sk10_4_no_game_bonus() -> None:
    """SK-10.4: no game, box or shutout bonus."""
    skarney = load_variant(SKARNEY)
    assert skarney.game.target == 200
    assert final_figures(skarney, {"P1": 212, "P2": 0}, {"P1": 6, "P2": 0}) == {"P1": 212, "P2": 0}


# ====================================================================== GS-8 (Ginski)

GINSKI = "ginski"
SEATS = ("A", "B", "C")            # GS-8: A deals, B on A's left, C on B's left; B knocks
KNOCK = {"A": 26, "B": 2, "C": 48}


def ginski_round(variant: Variant, deadwoods: Mapping[str, int], ending: str = "knock",
                 seats: tuple[str, ...] = SEATS) -> dict:
    view = round_view(variant, players=seats, ender="B", ending=ending, deadwoods=dict(deadwoods))
    return score_round(variant, view)


def test_gs8_hands() -> None:
    """GS-8: e = 2; C has 64 before laying off R7 and Y9, 48 after; A has 26."""
    ginski = load_variant(GINSKI)
    assert round_view(ginski, players=SEATS, ender="B").opponents == ("C", "A")
    for kind, cards in [("run", "4R 5R 6R"), ("set", "9G 9B *"), ("run", "10P 11P 12P"),
                        ("run", "3G 4G 5G"), ("run", "4R 5R 6R 7R"), ("set", "9G 9B * 9Y"),
                        ("run", "1B 2B 3B"), ("set", "10R 10G 10Y")]:
        assert is_meld(ginski, kind, cards), (kind, cards)
    assert value(ginski, "2Y") == 2
    assert value(ginski, "13R") == 13
    assert value(ginski, "7R 9Y 13B 1P 11Y 11R 12G") == 64
    assert value(ginski, "13B 1P 11Y 11R 12G") == 48
    assert value(ginski, "5P 6P 13G 2R") == 26
    assert value(ginski, "5P 6P 13G 2R *") == 26 + 25       # an unmelded wild adds 25


@pytest.mark.parametrize(
    ("deadwoods", "expected"),
    [
        pytest.param(KNOCK, {"A": 0, "B": 70, "C": 0}, id="GS-8-GS-7.3-knock-70"),
        pytest.param({**KNOCK, "A": 1}, {"A": 26, "B": 0, "C": 0}, id="GS-8-GS-7.4-undercut-A1"),
        pytest.param({**KNOCK, "A": 2}, {"A": 0, "B": 46, "C": 0}, id="GS-7.4-tie-not-undercut"),
        pytest.param({"A": 1, "B": 2, "C": 1}, {"A": 26, "B": 0, "C": 26}, id="GS-7.4-two-undercutters"),
    ],
)
def test_gs8_knock(deadwoods: dict, expected: dict) -> None:
    assert ginski_round(load_variant(GINSKI), deadwoods) == expected


@pytest.mark.parametrize(
    ("body", "deadwoods", "expected"),
    [
        pytest.param("options: {knock_points: {value: lowest_difference}}\n", KNOCK,
                     {"A": 0, "B": 24, "C": 0}, id="GS-8-GS-7.3-lowest_difference-24"),
        pytest.param("options: {undercut_penalty: {value: deduct_from_ender}}\n", {**KNOCK, "A": 1},
                     {"A": 1, "B": -25, "C": 0}, id="GS-7.4-deduct_from_ender"),
        pytest.param("options: {undercut_on_tie: {value: true}}\n", {**KNOCK, "A": 2},
                     {"A": 25, "B": 0, "C": 0}, id="GS-7.4-undercut_on_tie-true-tie"),
        pytest.param("options: {undercut_on_tie: {value: true}}\n", KNOCK,
                     {"A": 0, "B": 70, "C": 0}, id="GS-7.4-undercut_on_tie-true-no-tie"),
    ],
)
def test_gs8_house_rules(tmp_path: Path, body: str, deadwoods: dict, expected: dict) -> None:
    assert ginski_round(house(tmp_path, GINSKI, body), deadwoods) == expected


@pytest.mark.parametrize(
    ("ending", "expected"),
    [
        # No lay-offs after Ginski (GS-6.4): C keeps 64, A 26; 26 + 64 = 90.
        pytest.param("gin", 25 + 90, id="GS-8-GS-7.1-ginski-25+sum"),
        pytest.param("big_gin", 31 + 90, id="GS-8-GS-7.2-big-ginski-31+sum"),
    ],
)
def test_gs8_ginski(ending: str, expected: int) -> None:
    ginski = load_variant(GINSKI)
    assert ginski_round(ginski, {"A": 26, "B": 0, "C": 64}, ending=ending) == {
        "A": 0, "B": expected, "C": 0}


@pytest.mark.parametrize(
    ("deadwoods", "expected"),
    [
        pytest.param({"A": 26, "B": 2, "C": 48, "D": 30}, {"A": 0, "B": 24 + 46 + 28, "C": 0, "D": 0},
                     id="GS-2.1-GS-7.3-four-players-knock"),
        pytest.param({"A": 3, "B": 5, "C": 3, "D": 40}, {"A": 27, "B": 0, "C": 27, "D": 0},
                     id="GS-2.1-GS-7.4-four-players-undercut"),
        pytest.param({"A": 26, "B": 0, "C": 64, "D": 30}, None, id="GS-2.1-GS-7.1-four-players-ginski"),
    ],
)
def test_ginski_four(deadwoods: dict, expected: dict | None) -> None:
    four = load_variant("ginski_four")
    assert four.players == 4
    seats = ("A", "B", "C", "D")
    if expected is None:
        assert ginski_round(four, deadwoods, ending="gin", seats=seats) == {
            "A": 0, "B": 25 + 26 + 64 + 30, "C": 0, "D": 0}
    else:
        assert ginski_round(four, deadwoods, seats=seats) == expected


def test_gs6_5_stock_end_lowest_deadwood(tmp_path: Path) -> None:
    """GS-6.5 stock_end = lowest_deadwood, B having taken the final turn."""
    variant = house(tmp_path, GINSKI, "stock: {at_floor: stock_end}\n")
    assert ginski_round(variant, KNOCK, ending="stock_end") == {"A": 0, "B": 70, "C": 0}
    assert ginski_round(variant, {"A": 9, "B": 20, "C": 4}, ending="stock_end") == {
        "A": 0, "B": 0, "C": 5 + 16}


def test_gs6_5_stock_end_without_an_ender(tmp_path: Path) -> None:
    """A round that ends by the stock running low has no ender; scoring must not need one
    (as Skarney Gin's SK-10.3 case does not)."""
    variant = house(tmp_path, GINSKI, "stock: {at_floor: stock_end}\n")
    view = round_view(variant, players=SEATS, ender=None, ending="stock_end", deadwoods=KNOCK)
    assert score_round(variant, view) == {"A": 0, "B": 70, "C": 0}


def test_gs7_5_no_game_bonus() -> None:
    """GS-7.5: first to 100; no game or box bonus, no shutout."""
    ginski = load_variant(GINSKI)
    assert ginski.game.target == 100
    assert final_figures(ginski, {"A": 104, "B": 0, "C": 0}, {"A": 5}) == {"A": 104, "B": 0, "C": 0}


def test_matching_case_cites_the_rule() -> None:
    """The case that scores a round carries the RULES.md id it implements."""
    gin, ginski = load_variant(GIN), load_variant(GINSKI)
    cases = {
        "GR-9.1": (gin, dict(players=P12, ender="P1", ending="knock", deadwoods={"P1": 7, "P2": 17})),
        "GR-9.2": (gin, dict(players=P12, ender="P1", ending="knock", deadwoods={"P1": 6, "P2": 6})),
        "GR-9.3": (gin, dict(players=P12, ender="P1", ending="gin", deadwoods={"P1": 0, "P2": 30})),
        "GR-9.4": (gin, dict(players=P12, ender="P1", ending="big_gin", deadwoods={"P1": 0, "P2": 30})),
        "GS-7.3": (ginski, dict(players=SEATS, ender="B", ending="knock", deadwoods=KNOCK)),
        "GS-7.4": (ginski, dict(players=SEATS, ender="B", ending="knock", deadwoods={**KNOCK, "A": 1})),
    }
    for rule, (variant, kwargs) in cases.items():
        case = matching_case(variant, round_view(variant, **kwargs))
        assert case is not None and case.rule == rule, rule
