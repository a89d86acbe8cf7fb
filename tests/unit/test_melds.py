"""The meld solver on the worked examples of RULES.md and on edge cases.

The rules are compiled from the shipped meld patterns by rummydsl.expr (the same
strings as variants/*.yaml), so these tests also exercise the patterns' wild-card
semantics through the solver.
"""

from __future__ import annotations

from typing import Any

import pytest

from rummydsl.cards import Deck
from rummydsl.errors import CardError
from rummydsl.expr import BOOL, INT, Context, Env, compile_expression
from rummydsl.melds import Arrangement, KindShape, LayoffTarget, MeldRules, melds_report

GIN_MELDS = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)"}
SKARNEY_MELDS = {**GIN_MELDS, "poker": "size >= 3 and consecutive(rank) and not same(suit)"}
SKARNEY_DISTINCT = {**GIN_MELDS, "poker": "size >= 3 and consecutive(rank) and distinct(suit)"}
GINSKI_MELDS = {
    "run": "size >= 3 and naturals >= 1 and same(suit) and consecutive(rank)",
    "set": "size in 3..5 and naturals >= 1 and same(rank) and distinct(suit)",
}
CONTRACT = "count == 3 and all(size == 3)"


def build(deck_spec: Any, melds: dict[str, str], value: str, contract: str | None = None,
          **kw: Any) -> MeldRules:
    deck = Deck.from_spec(deck_spec)
    kinds = {name: compile_expression(text, Env(Context.MELD, deck), BOOL) for name, text in melds.items()}
    card_value = compile_expression(value, Env(Context.CARD, deck), INT)
    pred = compile_expression(contract, Env(Context.CONTRACT, deck), BOOL) if contract else None
    return MeldRules(deck, kinds, card_value, pred, **kw)


GIN = build("standard52", GIN_MELDS, "min(order, 10)")
SKARNEY = build({"preset": "standard52", "ace": "both"}, SKARNEY_MELDS,
                "rank == A ? 15 : min(order, 10)", CONTRACT)
GINSKI = build("rumski70", GINSKI_MELDS, "wild ? 25 : order")


def cards(rules: MeldRules, text: str) -> tuple[Any, ...]:
    return rules.deck.parse_cards(text)


def texts(rules: MeldRules, group: Any) -> set[str]:
    return {str(c) for c in group}


# --------------------------------------------------------------------------- Gin Rummy


def test_gr15_knocker() -> None:
    """GR-15: 5H-8H, three 9s, A♣ 2♦ 4♠ after discarding KC: k = 7."""
    best = GIN.solve(cards(GIN, "5H 6H 7H 8H 9C 9D 9S AC 2D 4S"))
    assert best.deadwood == 7
    assert texts(GIN, best.unmatched) == {"AC", "2D", "4S"}
    assert GIN.best_discard(cards(GIN, "5H 6H 7H 8H 9C 9D 9S AC 2D 4S KC")) == (GIN.deck.parse_card("KC"), 7)


def test_gr15_defender_before_and_after_layoffs() -> None:
    """GR-15: the defender has 30 before lay-offs, 17 after laying 9H and 4H off."""
    defender = cards(GIN, "KS KH KD 2C 3C 4C 9H 4H QC 7D")
    assert GIN.solve(defender).deadwood == 30
    heart_run = LayoffTarget(cards(GIN, "5H 6H 7H 8H"), kind="run", owner="P1")
    nines = LayoffTarget(cards(GIN, "9C 9D 9S"), kind="set", owner="P1")
    after = GIN.solve(defender, table=[heart_run])
    assert after.deadwood == 17
    assert after.layoffs == ((0, cards(GIN, "4H 9H")),)
    assert texts(GIN, after.unmatched) == {"QC", "7D"}
    assert GIN.solve(defender, table=[heart_run, nines]).deadwood == 17


def test_layoff_chain() -> None:
    """GR-7.1: 9 and 10 together extend J-Q-K, though 9 alone does not fit."""
    run = LayoffTarget(cards(GIN, "JS QS KS"))
    assert GIN.solve(cards(GIN, "9S 5D"), table=[run]).deadwood == 14
    after = GIN.solve(cards(GIN, "9S TS 5D"), table=[run])
    assert after.deadwood == 5 and after.layoffs == ((0, cards(GIN, "9S TS")),)


def test_gr33_one_card_one_meld() -> None:
    """GR-3.3 / C-5: 7D serves the set or the run, not both."""
    best = GIN.solve(cards(GIN, "7C 7S 7D 8D 9D"))
    assert best.deadwood == 14
    assert texts(GIN, best.melds[0]) == {"7D", "8D", "9D"}
    assert best.kinds == (frozenset({"run"}),)


def test_gin_ace_is_low_only() -> None:
    """GR-3.2: A-2-3 is a run; Q-K-A and K-A-2 are not."""
    assert GIN.kinds_of(cards(GIN, "AH 2H 3H")) == {"run"}
    assert GIN.kinds_of(cards(GIN, "QH KH AH")) == frozenset()
    assert GIN.kinds_of(cards(GIN, "KH AH 2H")) == frozenset()
    assert GIN.solve(cards(GIN, "QH KH AH")).deadwood == 21


def test_gin_report_and_knock_question() -> None:
    report = melds_report(GIN, "5H 6H 7H 8H 9C 9D 9S AC 2D 4S KC".split(), 10)
    assert report == {
        "deadwood": 17,
        "melds": report["melds"],
        "unmatched": ["AC", "2D", "4S", "KC"],
        "contract": True,
        "best_discard": "KC",
        "deadwood_after_discard": 7,
    }
    assert sorted(map(sorted, report["melds"])) == [["5H", "6H", "7H", "8H"], ["9C", "9D", "9S"]]
    assert "best_discard" not in melds_report(GIN, "AS 2S 3S".split(), 10)


def test_big_gin_discard_keeps_gin() -> None:
    """GR-6.3: all 11 melded; discarding the end of a 4-card run still leaves gin."""
    card, after = GIN.best_discard(cards(GIN, "2S 3S 4S 5S 7H 7D 7C 9D TD JD QD"))
    assert after == 0
    assert str(card) in {"2S", "5S", "9D", "QD"}


def test_discard_tie_break_highest_value_then_id() -> None:
    """Ties go to the most valuable card, then the highest id (documented)."""
    card, after = GIN.best_discard(cards(GIN, "AS 2S 3S KH KD"))
    assert (str(card), after) == ("KD", 10)  # KH (id 25) and KD (id 38) tie: KD


# --------------------------------------------------------------------------- Skarney Gin


def test_sk11_p2_deadwood() -> None:
    """SK-11: P2's 11 cards: set of 5s, poker 6C-9H, deadwood 37."""
    hand = cards(SKARNEY, "AS KD JH 5C 5D 5S 9H 2C 6C 7H 8S")
    best = SKARNEY.solve(hand)
    assert best.deadwood == 37
    assert texts(SKARNEY, best.unmatched) == {"AS", "KD", "JH", "2C"}
    assert frozenset({"poker"}) in best.kinds and frozenset({"set"}) in best.kinds


def test_sk11_concealed_melds_counted() -> None:
    """SK-10.1 with deadwood_excludes_concealed_melds = false: all 11 cards = 82."""
    rules = build({"preset": "standard52", "ace": "both"}, SKARNEY_MELDS,
                  "rank == A ? 15 : min(order, 10)", CONTRACT, excludes_concealed_melds=False)
    assert rules.solve(cards(rules, "AS KD JH 5C 5D 5S 9H 2C 6C 7H 8S")).deadwood == 82


def test_sk11_p1_goes_out_by_layoffs() -> None:
    """SK-11: 7C, JS and 3H all go onto P1's own table melds (3H makes a poker)."""
    table = [LayoffTarget(cards(SKARNEY, "4S 5H 6D"), "poker"), LayoffTarget(cards(SKARNEY, "JC JD JH"), "set"),
             LayoffTarget(cards(SKARNEY, "8C 9C TC"), "run")]
    best = SKARNEY.solve(cards(SKARNEY, "7C 3H JS"), table=table)
    assert best.deadwood == 0 and not best.unmatched


def test_sk11_poker_all_different() -> None:
    """SK-11 with poker_suits = all_different: 3H cannot join 4S 5H 6D."""
    rules = build({"preset": "standard52", "ace": "both"}, SKARNEY_DISTINCT,
                  "rank == A ? 15 : min(order, 10)", CONTRACT)
    table = [LayoffTarget(cards(rules, "4S 5H 6D"), "poker"), LayoffTarget(cards(rules, "JC JD JH"), "set"),
             LayoffTarget(cards(rules, "8C 9C TC"), "run")]
    best = rules.solve(cards(rules, "7C 3H JS"), table=table)
    assert best.deadwood == 3 and texts(rules, best.unmatched) == {"3H"}
    assert rules.kinds_of(cards(rules, "3H 4S 5H 6D")) == frozenset()
    assert rules.kinds_of(cards(rules, "3C 4S 5H 6D")) == {"poker"}


def test_sk34_kind_locked() -> None:
    """SK-3.4: 3S 4S 5S + 6H is a poker; with kind_locked the run must stay a run."""
    run = LayoffTarget(cards(SKARNEY, "3S 4S 5S"), kind="run")
    assert SKARNEY.solve(cards(SKARNEY, "6H"), table=[run]).deadwood == 0
    locked = build({"preset": "standard52", "ace": "both"}, SKARNEY_MELDS,
                   "rank == A ? 15 : min(order, 10)", CONTRACT, kind_locked=True)
    assert locked.solve(cards(locked, "6H"), table=[run]).deadwood == 6
    assert locked.solve(cards(locked, "6S"), table=[run]).deadwood == 0


def test_skarney_ace_both_never_at_once() -> None:
    """SK-1: A-2-3 and Q-K-A are runs; K-A-2 is not."""
    assert SKARNEY.kinds_of(cards(SKARNEY, "AH 2H 3H")) == {"run"}
    assert SKARNEY.kinds_of(cards(SKARNEY, "QH KH AH")) == {"run"}
    assert SKARNEY.kinds_of(cards(SKARNEY, "KH AH 2H")) == frozenset()
    assert SKARNEY.kinds_of(cards(SKARNEY, "QH KS AH")) == {"poker"}


def test_skarney_aces_count_15() -> None:
    """DESIGN.md's conformance example: AS AH 7D 8D 9D -> 30, no contract."""
    report = melds_report(SKARNEY, "AS AH 7D 8D 9D".split(), 10)
    assert report["deadwood"] == 30 and report["contract"] is False


def test_contract_three_by_three() -> None:
    """SK-5.2: exactly three melds of three cards."""
    hand = cards(SKARNEY, "2S 3S 4S 7H 7D 7C 9C TC JC KD")
    assert SKARNEY.holds_contract(hand)
    best = SKARNEY.solve(hand, contract=True)
    assert best.contract and best.deadwood == 10
    assert sorted(len(m) for m in best.contract_melds) == [3, 3, 3]
    assert not SKARNEY.holds_contract(cards(SKARNEY, "2S 3S 4S 7H 7D 7C 9C TC QC KD"))


def test_contract_cuts_a_longer_run() -> None:
    """SK-5.3: from 5H 6H 7H 8H put down 5H 6H 7H and keep 8H."""
    hand = cards(SKARNEY, "5H 6H 7H 8H 2C 2D 2S KC KD KS")
    plain = SKARNEY.solve(hand)
    assert plain.deadwood == 0 and plain.contract
    met = SKARNEY.solve(hand, contract=True)
    # cut to 6H 7H 8H and keep 5H (5 points), better than keeping 8H
    assert met.contract and met.deadwood == 5
    assert texts(SKARNEY, met.unmatched) == {"5H"}


def test_contract_not_met_gives_plain_best() -> None:
    hand = cards(SKARNEY, "5H 6H 7H 8H 9H 2C 2D 2S KC QD")
    best = SKARNEY.solve(hand, contract=True)
    assert not best.contract and best.deadwood == 20


# --------------------------------------------------------------------------- Ginski


def test_gs8_b_with_a_wild() -> None:
    """GS-8: B's hand with a wild as the third 9: e = 2 after discarding 13R."""
    hand = cards(GINSKI, "4R 5R 6R 9G 9B * 10P 11P 12P 2Y")
    best = GINSKI.solve(hand)
    assert best.deadwood == 2 and texts(GINSKI, best.unmatched) == {"2Y"}
    card, after = GINSKI.best_discard(cards(GINSKI, "4R 5R 6R 9G 9B * 10P 11P 12P 2Y 13R"))
    assert (str(card), after) == ("13R", 2)


def test_gs8_c_lays_off_onto_b() -> None:
    """GS-8: C has 64, lays off 7R and 9Y onto B's melds: 48."""
    b_melds = [LayoffTarget(cards(GINSKI, m)) for m in ("4R 5R 6R", "9G 9B *", "10P 11P 12P")]
    c_hand = cards(GINSKI, "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G")
    assert GINSKI.solve(c_hand).deadwood == 64
    after = GINSKI.solve(c_hand, table=b_melds)
    assert after.deadwood == 48
    assert {(t, str(c)) for t, group in after.layoffs for c in group} == {(0, "7R"), (1, "9Y")}


def test_gs8_a_nothing_fits() -> None:
    b_melds = [LayoffTarget(cards(GINSKI, m)) for m in ("4R 5R 6R", "9G 9B *", "10P 11P 12P")]
    a_hand = cards(GINSKI, "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R")
    assert GINSKI.solve(a_hand).deadwood == 26
    assert GINSKI.solve(a_hand, table=b_melds).deadwood == 26


def test_gs8_unmelded_wild_counts_25() -> None:
    # a wild in A's hand instead of 2R makes 5P 6P * a run
    assert GINSKI.solve(cards(GINSKI, "1B 2B 3B 10R 10G 10Y 5P 6P 13G *")).deadwood == 13
    lone = GINSKI.solve(cards(GINSKI, "1B 5P 9G *"))
    assert lone.deadwood == 1 + 5 + 9 + 25


def test_ginski_wild_rules() -> None:
    """GS-3.3: a wild fills a run's gap or end, or a set's missing colour; at least one natural."""
    assert GINSKI.kinds_of(cards(GINSKI, "4R * 6R")) == {"run"}
    assert GINSKI.kinds_of(cards(GINSKI, "12R 13R *")) == {"run"}
    assert GINSKI.kinds_of(cards(GINSKI, "5R * *")) == {"run", "set"}
    assert GINSKI.kinds_of(cards(GINSKI, "* * *")) == frozenset()
    assert GINSKI.kinds_of(cards(GINSKI, "9R 9B 9G 9P 9Y")) == {"set"}
    assert GINSKI.kinds_of(cards(GINSKI, "9R 9B 9G 9P 9Y *")) == frozenset()
    assert GINSKI.kinds_of(cards(GINSKI, "12R 13R 1R")) == frozenset()  # GS-1.2: no wrap
    # the wild saves more as the third 9 than between 4R and 6R
    assert GINSKI.solve(cards(GINSKI, "4R * 6R 8G 9G 9B")).deadwood == 4 + 6 + 8


def test_ginski_wild_choice_matters() -> None:
    """Two wilds: the solver picks where each one saves most."""
    best = GINSKI.solve(cards(GINSKI, "13R 13B 12G 12P * *"))
    assert best.deadwood == 0 and len(best.melds) == 2


# --------------------------------------------------------------------------- GS-3.3 wild_unique_card

GINSKI_U = build("rumski70", GINSKI_MELDS, "wild ? 25 : order", wild_unique_card=True)


def meanings(rules: MeldRules, best: Arrangement) -> set[str]:
    return {str(meaning) for _wild, meaning in best.meanings}


def test_gs33_unique_wild_never_stands_for_a_held_card() -> None:
    """4R * 6R with 5R held: the wild may not be 5R, so the run takes 5R and the wild an end."""
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "4R * 6R")) == {"run"}
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "4R * 6R"), hand=cards(GINSKI_U, "5R 9G")) == frozenset()
    assert GINSKI.kinds_of(cards(GINSKI, "4R * 6R"), hand=cards(GINSKI, "5R")) == {"run"}  # option off
    best = GINSKI_U.solve(cards(GINSKI_U, "4R 6R * 5R 9G 9B"))
    assert best.deadwood == 0 and not meanings(GINSKI_U, best) & {"4R", "5R", "6R", "9G", "9B"}
    # without a third 9 the wild ends the run (3R or 7R), never 5R, and the 9s stay out
    best = GINSKI_U.solve(cards(GINSKI_U, "4R 6R * 5R 9G"))
    assert best.deadwood == 9 and meanings(GINSKI_U, best) <= {"3R", "7R"}
    assert GINSKI.solve(cards(GINSKI, "4R 6R * 5R 9G")).meanings == ()  # option off: no meanings


def test_gs33_unique_two_wilds_cannot_share_a_meaning() -> None:
    """B's set 9G 9P * on the table; C holds 9R 9B 8Y 10Y *. Laying 9R 9B off makes the
    table's wild 9Y (the one 9 left), and 8Y * 10Y needs its wild to be 9Y too."""
    table = [LayoffTarget(cards(GINSKI_U, "9G 9P *")[:2] + (GINSKI_U.deck.cards[-1],), kind="set")]
    hand = cards(GINSKI_U, "9R 9B 8Y 10Y *")
    off = GINSKI.solve(hand, table=table)
    assert off.deadwood == 0 and off.layoffs
    best = GINSKI_U.solve(hand, table=table)
    # 9R 9B * (deadwood 8 + 10) and 8Y * 10Y (9 + 9) tie at 18; the canonical order
    # takes the lowest card's meld: 9R 9B * (its wild the smallest free face, 9G)
    assert best.deadwood == 18 and not best.layoffs and texts(GINSKI_U, best.unmatched) == {"8Y", "10Y"}
    assert meanings(GINSKI_U, best) == {"9G"}
    # two wilds of one set need two free colours
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "9R 9B * *")) == {"set"}
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "9R 9B * *"), hand=cards(GINSKI_U, "9G")) == {"set"}
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "9R 9B * *"), hand=cards(GINSKI_U, "9G 9P")) == frozenset()
    # 9R 9B * and 9G 9P * would both be 9Y: the hand melds otherwise (9R * * is a run)
    best = GINSKI_U.solve(cards(GINSKI_U, "9R 9B * 9G 9P *"))
    assert best.deadwood == 0 and len(meanings(GINSKI_U, best)) == 2


def test_gs33_unique_set_with_only_held_colours_left() -> None:
    """All five 9s held: a wild can be no 9, so it stays out (25)."""
    hand = "9R 9B 9G 9P 9Y *"
    assert GINSKI.solve(cards(GINSKI, hand)).deadwood == 0
    best = GINSKI_U.solve(cards(GINSKI_U, hand))
    assert best.deadwood == 25 and texts(GINSKI_U, best.unmatched) == {"*"}
    assert best.meanings == ()  # an unmelded wild has no meaning
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "9R 9B *"), hand=cards(GINSKI_U, "9G 9P 9Y")) == frozenset()
    assert GINSKI_U.min_deadwood(cards(GINSKI_U, hand)) == 25
    card, after = GINSKI_U.best_discard(cards(GINSKI_U, hand + " 2G"))
    assert (str(card), after) == ("*", 2)


def test_gs33_unique_run_end() -> None:
    """12R 13R * can only mean 11R (no wrap); with 11R held the wild ends the run below."""
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "12R 13R *")) == {"run"}
    assert GINSKI_U.kinds_of(cards(GINSKI_U, "12R 13R *"), hand=cards(GINSKI_U, "11R")) == frozenset()
    best = GINSKI_U.solve(cards(GINSKI_U, "12R 13R * 11R"))
    assert best.deadwood == 0 and meanings(GINSKI_U, best) == {"10R"}
    best = GINSKI_U.solve(cards(GINSKI_U, "1R 2R * 3R 3B 3G 3P 3Y"))
    assert best.deadwood == 0 and meanings(GINSKI_U, best) == {"4R"}


def test_gs33_unique_layoff_onto_a_wild() -> None:
    """B's run 4B * 6B on the table: laying 7B off makes its wild 5B, which C holds."""
    run = LayoffTarget(cards(GINSKI_U, "4B * 6B"), kind="run", owner="B")
    hand = cards(GINSKI_U, "5B 5G 5P 7B")
    assert GINSKI.solve(hand, table=[run]).deadwood == 0       # 5B 5G 5P, 7B laid off
    best = GINSKI_U.solve(hand, table=[run])
    assert best.deadwood == 7 and texts(GINSKI_U, best.unmatched) == {"7B"}
    # 3G instead of 5B: 7B goes on, the table's wild means 5B
    best = GINSKI_U.solve(cards(GINSKI_U, "7B 3G"), table=[run])
    assert best.deadwood == 3 and meanings(GINSKI_U, best) == {"5B"}
    # a hand wild laid off takes a meaning apart from the table's naturals and wilds
    best = GINSKI_U.solve(cards(GINSKI_U, "* 9Y 5B"), table=[run])
    assert best.deadwood == 9 and best.layoffs and len(best.meanings) == 2
    assert len(meanings(GINSKI_U, best)) == 2 and not meanings(GINSKI_U, best) & {"4B", "5B", "6B"}


def test_gs33_unique_from_variant_and_default() -> None:
    """from_variant reads variant.wild_unique_card; the default changes nothing."""
    from types import SimpleNamespace

    base = dict(deck=GINSKI.deck, meld_kinds=GINSKI.kinds, card_values=GINSKI.values)
    assert MeldRules.from_variant(SimpleNamespace(**base)).wild_unique_card is False
    rules = MeldRules.from_variant(SimpleNamespace(**base, wild_unique_card=True))
    assert rules.wild_unique_card is True
    assert rules.solve(cards(rules, "9R 9B 9G 9P 9Y *")).deadwood == 25
    # hands without wild cards still take the per-suit tables
    assert rules._suit_tables() and rules.solve(cards(rules, "1R 2R 3R 9B")).deadwood == 9


# --------------------------------------------------------------------------- wrap and shapes


def test_wrap_only_where_declared() -> None:
    wrapped = build({"preset": "standard52", "wrap": True}, GIN_MELDS, "min(order, 10)")
    assert wrapped.kinds_of(cards(wrapped, "KH AH 2H")) == {"run"}
    assert wrapped.solve(cards(wrapped, "QH KH AH 2H 5C")).deadwood == 5
    assert GIN.solve(cards(GIN, "QH KH AH 2H 5C")).deadwood == 28


def test_shapes_read_from_patterns() -> None:
    assert SKARNEY.shapes["set"] == KindShape("same_rank", 3, 4)
    assert SKARNEY.shapes["run"] == KindShape("sequence", 3, None, True)
    assert SKARNEY.shapes["poker"] == KindShape("sequence", 3)
    assert SKARNEY.contract_max_melds == 3
    odd = build("standard52", {"flush": "size == 3 and same(suit)"}, "min(order, 10)")
    assert odd.shapes["flush"] == KindShape("any", 3, 3, True)
    assert odd.solve(cards(odd, "2H 9H KH 3S")).deadwood == 3


def test_arrangement_is_frozen() -> None:
    best = GIN.solve(cards(GIN, "AS 2S 3S"))
    assert isinstance(best, Arrangement)
    with pytest.raises(Exception):
        best.deadwood = 5  # type: ignore[misc]


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "hand, message",
    [
        ("AS XX", "unknown card"),
        ("AS AS", "duplicate card"),
        ("", "at least 1 card"),
    ],
)
def test_bad_hands_raise_card_errors(hand: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        melds_report(GIN, hand.split(), 10)
    with pytest.raises(CardError, match=message):
        GIN.solve(hand)


def test_duplicate_card_objects() -> None:
    ace = GIN.deck.parse_card("AS")
    with pytest.raises(CardError, match="duplicate card 'AS'"):
        GIN.solve([ace, ace])


def test_card_of_another_deck() -> None:
    with pytest.raises(CardError, match="not a card of this deck"):
        GIN.solve([GINSKI.deck.cards[69]])


def test_twenty_cards_is_fine() -> None:
    hand = Deck.preset("standard52").cards[:20]
    assert GIN.solve(hand).deadwood == 0  # AS..KS and AH..7H
    assert GIN.min_deadwood(hand) == 0
