"""Credit for table cards, melded_value and melded(p), deep draws, discard-only play at the
stock floor, and hands past the solver's size (the constructs of 500 Rum, R5-1 to R5-6)."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

from rummydsl.engine import Round
from rummydsl.engine.mechanics.credit import melded_total, sequence_order
from rummydsl.engine.observe import Observation
from rummydsl.errors import ExpressionError, MalformedActionError
from rummydsl.variant import check_file, load_variant
from rummydsl.variant.model import Variant

BASE = """\
rummydsl: 1
id: {id}
name: R5 constructs
players: {{count: 2, min: 2, max: 4}}
deck: {{preset: standard52, ace: both, wilds: {wilds}}}
card_value: {card_value}
{melded_value}
deal: {{hand_size: 7, upcard: true}}
melds:
  set: "size in 3..4 and same(rank)"
  run: "size >= 3 and same(suit) and consecutive(rank)"
turn:
  - draw: {{from: [stock, discard]{depth}}}
  - meld: {{add_to_opponents: true}}
  - discard: {{taken_card: allowed}}
stock: {{floor: 0, at_floor: {at_floor}}}
scoring:
  round:
    - {{when: "out or stock_end", points: "{points}"}}
game: {{target: 500}}
"""

ACE = "kind == run and rank == A and position == 1 ? 1 : value"


def variant_file(tmp_path: Path, *, name: str = "r5c", wilds: int = 0,
                 melded_value: str | None = ACE, depth: str = ", discard_depth: any",
                 at_floor: str = "discard_only", points: str = "melded(p)") -> str:
    card_value = ('{A: 15, wild: 15, J: 10, Q: 10, K: 10}' if wilds else '"rank == A ? 15 : min(order, 10)"')
    text = BASE.format(id=name, wilds=wilds, card_value=card_value,
                       melded_value="" if melded_value is None else f'melded_value: "{melded_value}"',
                       depth=depth, at_floor=at_floor, points=points)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def setup(variant: Variant, hands: Sequence[str], pile: str, stock: str = "", *,
          rest_to_stock: bool = True, dealer: int | None = None) -> Round:
    """A round with these hands, this discard pile (bottom card first) and stock (top
    first; the cards not placed follow it unless ``rest_to_stock`` is false)."""
    deck = variant.deck
    dealt = [list(deck.parse_cards(hand)) for hand in hands]
    piled = list(deck.parse_cards(pile)) if pile else []
    stocked = list(deck.parse_cards(stock)) if stock else []
    used = {c.id for cards in (*dealt, piled, stocked) for c in cards}
    if rest_to_stock:
        stocked += [c for c in deck.cards if c.id not in used]
    n = len(hands)
    rnd = Round.from_setup(variant, dealer=n - 1 if dealer is None else dealer, hands=dealt,
                           stock=stocked, upcard=piled[0] if piled else None)
    rnd.discards = piled
    return rnd


def play(rnd: Round, *actions: str) -> Round:
    for action in actions:
        rnd.apply(action)
    return rnd


def legal(rnd: Round) -> list[str]:
    return [str(a) for a in rnd.legal_actions()]


@pytest.fixture()
def r5(tmp_path: Path) -> Variant:
    return load_variant(variant_file(tmp_path))


# ----------------------------------------------------------------------------- credit


def test_a_card_laid_off_stays_credited_to_who_laid_it_off(r5: Variant) -> None:
    """R5-4: P2's lay-off onto P1's meld is P2's, in P1's meld."""
    rnd = setup(r5, ["7H 7D 7C 2S 9D KS QS", "7S 3C 4C 5C 9H JH 2D"], "8H", "TD TH")
    play(rnd, "P1 draw stock", "P1 meld [7H 7D 7C]", "P1 done", "P1 discard 2S",
         "P2 draw stock", "P2 layoff 7S on P1#1")
    meld = rnd.table[0][0]
    assert [str(c) for c in meld.cards] == ["7H", "7D", "7C", "7S"]
    assert meld.by == [0, 0, 0, 1]
    assert rnd.to_json()["table"]["P1"] == [
        {"kind": "set", "cards": ["7H", "7D", "7C", "7S"], "by": ["P1", "P1", "P1", "P2"]}]
    seen = Observation(rnd, 0).as_json()["table"]["P1"][0]
    assert seen["by"] == ["P1", "P1", "P1", "P2"]
    copy = rnd.copy()
    copy.table[0][0].add(deck_card(r5, "TH"), 0)
    assert meld.by == [0, 0, 0, 1], "a copy's credit is its own"
    assert melded_total(rnd, 0) == 21 and melded_total(rnd, 1) == 7


def deck_card(variant: Variant, text: str):  # type: ignore[no-untyped-def]
    return variant.deck.parse_card(text)


# ----------------------------------------------------------------------------- melded_value


def test_the_ace_is_worth_1_only_at_the_low_end_of_a_run(r5: Variant) -> None:
    """R5-1: A-2-3 scores the ace 1; Q-K-A and a set of aces score it 15."""
    rnd = setup(r5, ["3H AH 2H QS KS AS 9D", "JS AD 4C 5C 9H JH 2D"], "8H", "TD TH")
    play(rnd, "P1 draw stock", "P1 meld [3H AH 2H] [AS QS KS]")
    assert melded_total(rnd, 0) == (1 + 2 + 3) + (10 + 10 + 15)
    play(rnd, "P1 done", "P1 discard 9D", "P2 draw stock", "P2 layoff JS on P1#2")
    assert melded_total(rnd, 1) == 10
    assert melded_total(rnd, 0) == (1 + 2 + 3) + (10 + 10 + 15), "the ace above J-Q-K is still high"


def test_without_melded_value_a_table_card_is_worth_its_card_value(tmp_path: Path) -> None:
    variant = load_variant(variant_file(tmp_path, name="plain", melded_value=None))
    rnd = setup(variant, ["3H AH 2H QS KS AS 9D", "AC AD 4C 5C 9H JH 2D"], "8H", "TD TH")
    play(rnd, "P1 draw stock", "P1 meld [3H AH 2H]")
    assert melded_total(rnd, 0) == 15 + 2 + 3


@pytest.mark.parametrize(("cards", "order"), [
    ("3H AH 2H", "AH 2H 3H"),
    ("AH KH QH", "QH KH AH"),
    ("5H 7H 6H 4H", "4H 5H 6H 7H"),
])
def test_sequence_order_puts_a_run_low_to_high_with_the_ace_where_it_stands(cards: str, order: str) -> None:
    variant = load_variant("skarney_gin")  # ace both
    deck = variant.deck
    group = deck.parse_cards(cards)
    found = sequence_order(deck, group)
    assert found is not None
    assert " ".join(str(group[i]) for i in found) == order


def test_wild_cards_stand_in_the_gaps_they_fill(tmp_path: Path) -> None:
    variant = load_variant(variant_file(tmp_path, name="wild", wilds=2))
    deck = variant.deck
    group = deck.parse_cards("* 5H 7H")
    found = sequence_order(deck, group)
    assert found is not None and [str(group[i]) for i in found] == ["5H", "*", "7H"]
    high = deck.parse_cards("QH * KH")  # Q-K and a wild: the wild is the ace above (the top)
    found = sequence_order(deck, high)
    assert found is not None and [str(high[i]) for i in found] == ["QH", "KH", "*"]
    two_sets = deck.parse_cards("5H 5S")
    assert sequence_order(deck, two_sets) is None


def test_melded_value_sees_position_and_size(tmp_path: Path) -> None:
    """position counts from the low end; size is the meld's cards."""
    variant = load_variant(variant_file(tmp_path, name="pos", melded_value="position * 100 + size"))
    rnd = setup(variant, ["7H 5H 6H QS KS AS 9D", "AC AD 4C 5C 9H JH 2D"], "8H", "TD TH")
    play(rnd, "P1 draw stock", "P1 meld [7H 5H 6H]")
    assert melded_total(rnd, 0) == 103 + 203 + 303


@pytest.mark.parametrize(("formula", "column", "fragment"), [
    ("kind == rn ? 1 : value", 9, "'rn' is not a meld kind; did you mean 'run'?"),
    ("valeu", 1, "unknown name 'valeu'; did you mean 'value'?"),
    ("deadwood(p)", 1, "'deadwood' is not available in the melded context"),
    ("kind", 1, "must give an int"),
])
def test_melded_value_errors_are_placed_in_the_file(tmp_path: Path, formula: str, column: int,
                                                     fragment: str) -> None:
    path = variant_file(tmp_path, name="bad", melded_value=formula)
    errors = [d for d in check_file(path) if d.severity == "error"]
    assert len(errors) == 1, errors
    where = errors[0].location
    assert (errors[0].rule.startswith("expr-"), where.line, where.column) == (True, 7, 15 + column), errors[0]
    assert fragment in errors[0].message


def test_melded_in_the_score_context_sums_the_credit(r5: Variant) -> None:
    """R5-6: each player scores the cards credited to them, lay-offs onto others' melds included."""
    from rummydsl.endings import Ending

    rnd = setup(r5, ["3H AH 2H 9S", "7C 7D 7S 4H 9H"], "8H", "KD 4C")
    play(rnd, "P1 draw stock", "P1 meld [3H AH 2H]", "P1 done", "P1 discard KD",
         "P2 draw stock", "P2 meld [7C 7D 7S]", "P2 layoff 4H on P1#1", "P2 done", "P2 discard 4C")
    assert melded_total(rnd, 0) == 6 and melded_total(rnd, 1) == 21 + 4
    rnd.finish(Ending.STOCK_END, None)
    assert rnd.result is not None and rnd.result.points == (6, 25)


# ----------------------------------------------------------------------------- deep draws


def test_draw_discard_card_is_written_and_read_back(r5: Variant) -> None:
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D")
    action = rnd.parse("p1 draw discard 3h")
    assert str(action) == "P1 draw discard 3H" and repr(action) == "Draw('P1 draw discard 3H')"
    with pytest.raises(MalformedActionError, match="draw discard CARD"):
        rnd.parse("P1 draw stock 3H")


def test_deep_draws_are_listed_only_where_the_deepest_card_can_be_melded(r5: Variant) -> None:
    """R5-3: 3H (with AH 2H) and 8D (with 7D above it and 9D) can be melded; nothing else."""
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    assert legal(rnd) == ["P1 draw stock", "P1 draw discard", "P1 draw discard 8D", "P1 draw discard 3H"]
    reason = rnd.why_illegal(rnd.parse("P1 draw discard 7D"))
    assert reason == ("7D could not be melded or laid off from this hand with the cards above it, "
                      "and the deepest card taken must be (R5-3)")
    assert rnd.why_illegal(rnd.parse("P1 draw discard 4H")) == "4H is not in the discard pile"
    assert rnd.why_illegal(rnd.parse("P2 draw discard 3H")) == "it is P1's move, not P2's"
    rnd2 = setup(r5, ["AS 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    reason = rnd2.why_illegal(rnd2.parse("P1 draw discard 3H"))
    assert reason is not None and "3H could not be melded or laid off" in reason


def test_a_deep_draw_takes_the_card_and_every_card_above_it(r5: Variant) -> None:
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    play(rnd, "P1 draw discard 8D")
    assert [str(c) for c in rnd.discards] == ["3H"]
    assert [str(c) for c in rnd.hands[0][-3:]] == ["8D", "7D", "4S"]
    assert [str(c) for c in rnd.known[0]] == ["8D", "7D", "4S"]
    assert rnd.to_json()["must_meld"] == "8D"


def test_the_deepest_card_must_be_melded_before_the_turn_goes_on(r5: Variant) -> None:
    """R5-3: done and discards are refused while the card is in the hand; a meld that
    would leave it unmeldable is refused; melding it frees the turn."""
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    play(rnd, "P1 draw discard 3H")
    reason = "3H was drawn from deep in the discard pile and must be melded or laid off this turn (R5-3)"
    assert rnd.why_illegal(rnd.parse("P1 done")) == reason
    assert "P1 done" not in legal(rnd)
    assert "P1 meld [AH 2H 3H]" in legal(rnd)
    play(rnd, "P1 meld [AH 2H 3H]")
    assert "P1 done" in legal(rnd)
    play(rnd, "P1 done", "P1 discard 4S")
    assert rnd.to_move == 1 and rnd.must_meld is None


def test_a_meld_that_would_strand_the_deep_card_is_refused(r5: Variant) -> None:
    """8D drawn deep with 7D, and 9D 9C 9H in hand: melding the nines leaves 8D no meld."""
    rnd = setup(r5, ["AH 2H 9C 9D KS QS 9H", "5S 5H 5C 6H KD KC 2C"], "3H 8D 7D 4S")
    play(rnd, "P1 draw discard 8D")
    reason = rnd.why_illegal(rnd.parse("P1 meld [9C 9D 9H]"))
    assert reason == ("this would leave 8D (drawn from deep in the discard pile) with no meld or "
                      "lay-off this turn (R5-3)")
    assert "P1 meld [9C 9D 9H]" not in legal(rnd)
    assert "P1 meld [7D 8D 9D]" in legal(rnd)


def test_the_discard_step_refuses_while_the_deep_card_is_held(r5: Variant) -> None:
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    play(rnd, "P1 draw discard 3H")
    rnd.phase = type(rnd.phase).DISCARD  # as if the meld step were left out
    rnd.step = 2
    assert rnd.why_illegal(rnd.parse("P1 discard 5C")) is not None
    assert legal(rnd) == []


def test_the_top_card_named_carries_no_obligation(r5: Variant) -> None:
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    play(rnd, "P1 draw discard 4S")
    assert rnd.must_meld is None and "P1 done" in legal(rnd)


def test_without_the_obligation_any_card_may_be_drawn_to(tmp_path: Path) -> None:
    path = variant_file(tmp_path, name="free", depth=", discard_depth: any, deep_draw_must_meld: false")
    variant = load_variant(path)
    rnd = setup(variant, ["AS 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    assert "P1 draw discard 3H" in legal(rnd)
    play(rnd, "P1 draw discard 3H", "P1 done")
    assert rnd.phase.value == "discard"


def test_a_top_only_variant_refuses_a_named_card(tmp_path: Path) -> None:
    variant = load_variant(variant_file(tmp_path, name="top", depth=""))
    rnd = setup(variant, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    assert legal(rnd) == ["P1 draw stock", "P1 draw discard"]
    assert rnd.why_illegal(rnd.parse("P1 draw discard 3H")) == (
        "this variant draws only the top card of the discard pile ('draw discard')")


def test_a_named_card_outside_the_draw_step_is_refused() -> None:
    gin = load_variant("gin_rummy")
    rnd = setup(gin, ["AH 2H 5C 9D KS QS 7C 8S 9S TS", "5S 5H 9C 9H KD KC 2C 3C 4C 6C"], "3H")
    assert rnd.phase.value == "upcard"
    assert rnd.why_illegal(rnd.parse("P1 draw discard 3H")) == (
        "a card of the discard pile is named only in the turn's draw step ('draw discard CARD')")


@pytest.mark.parametrize(("turn", "stock", "line", "column", "fragment"), [
    ("  - draw: {from: [stock], discard_depth: any}\n  - meld\n  - discard\n", "", 13, 42,
     "this draw step's 'from' has no 'discard'"),
    ("  - draw: {from: [stock, discard], discard_depth: any}\n  - discard\n", "", 13, 51,
     "no 'meld' step follows the draw"),
    ("  - draw: {from: [stock]}\n  - meld\n  - discard\n", "discard_only", 16, 29,
     "at_floor 'discard_only' goes on with draws from the discard pile"),
])
def test_deep_draw_checks(tmp_path: Path, turn: str, stock: str, line: int, column: int, fragment: str) -> None:
    path = Path(variant_file(tmp_path, name="chk", at_floor=stock or "stock_end"))
    text = path.read_text(encoding="utf-8")
    start = text.index("turn:\n") + len("turn:\n")
    end = text.index("stock:")
    path.write_text(text[:start] + turn + text[end:], encoding="utf-8")
    errors = [d for d in check_file(str(path)) if d.severity == "error"]
    assert [d.rule for d in errors] == ["deep-draw"], errors
    assert (errors[0].location.line, errors[0].location.column) == (line, column), errors[0]
    assert fragment in errors[0].message


# ----------------------------------------------------------------------------- discard only


def test_at_the_floor_play_goes_on_from_the_discard_pile(r5: Variant) -> None:
    """R5-5: with an empty stock the player draws from the pile or passes."""
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S", "6D",
                rest_to_stock=False)
    rest = [c for c in r5.deck.cards if not any(c is x for h in rnd.hands for x in h)
            and not any(c is x for x in rnd.discards) and str(c) != "6D"]
    assert rest  # the cards not placed are out of play for this test: a stock of 6D only
    play(rnd, "P1 draw stock", "P1 done", "P1 discard 6D")
    assert rnd.result is None and rnd.to_move == 1
    assert legal(rnd)[:1] == ["P2 draw discard"] and "P2 pass" in legal(rnd)
    assert rnd.why_illegal(rnd.parse("P2 draw stock")) == "the stock is at its floor of 0 cards"
    play(rnd, "P2 pass")
    assert rnd.result is not None and rnd.result.ending.value == "stock_end"


def test_an_empty_pile_at_the_floor_ends_the_round(r5: Variant) -> None:
    rnd = setup(r5, ["AH 2H 5C", "5S 5H 9C"], "", "", rest_to_stock=False)
    assert rnd.result is not None and rnd.result.ending.value == "stock_end"


def test_pass_is_refused_before_the_floor(r5: Variant) -> None:
    rnd = setup(r5, ["AH 2H 5C 9D KS QS 7C", "5S 5H 9C 9H KD KC 2C"], "3H 8D 7D 4S")
    assert rnd.why_illegal(rnd.parse("P1 pass")) == "P1 must draw first"


# ----------------------------------------------------------------------------- large hands


def big_round(tmp_path: Path, points: str) -> Round:
    variant = load_variant(variant_file(tmp_path, name="big", points=points))
    pile = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS 2D 3D 4D 5D 6D 7D 8D"
    return setup(variant, ["AH 2H 5C 9D KC QC 7C", "5H 6H 9C 9H KD KH 2C"], pile, "3C")


def test_a_hand_of_25_cards_plays_on(tmp_path: Path) -> None:
    """Past the solver's 20 cards: legal moves are still listed, and the round ends
    without the solver when no formula asks that hand's deadwood."""
    rnd = big_round(tmp_path, "melded(p)")
    play(rnd, "P1 draw discard 2S")
    assert len(rnd.hands[0]) == 25
    listed = legal(rnd)
    assert "P1 meld [2S 3S 4S]" in listed and "P1 done" not in listed
    play(rnd, "P1 meld [2S 3S 4S 5S 6S 7S 8S 9S TS JS QS]", "P1 done")
    assert len(rnd.hands[0]) == 14 and "P1 discard 2D" in legal(rnd)
    play(rnd, "P1 discard KC", "P2 draw discard", "P2 meld [KC KD KH]", "P2 done", "P2 discard 2C")
    assert rnd.to_move == 0 and rnd.result is None


def test_a_formula_that_asks_a_large_hands_deadwood_gets_it(tmp_path: Path) -> None:
    """R5-3 deep draws past 20 cards (issue 17): the hand's exact least deadwood is
    scored (it used to stop with hand-too-large: the solver took 20 cards at most)."""
    rnd = big_round(tmp_path, "melded(p) - deadwood(p)")
    play(rnd, "P1 draw discard 2S", "P1 meld [2S 3S 4S]", "P1 done", "P1 discard 5C")
    assert len(rnd.hands[0]) == 21
    from rummydsl.endings import Ending

    rnd.finish(Ending.STOCK_END, None)
    assert rnd.result is not None
    assert rnd.result.deadwoods[0] == rnd.rules.min_deadwood(rnd.hands[0])
    assert rnd.result.deadwoods[0] == rnd.rules.solve(rnd.hands[0], check_contract=False).deadwood


def test_a_large_hand_has_its_deadwood_in_the_result(tmp_path: Path) -> None:
    """A 21-card hand after a deep draw (R5-3): its deadwood is in the result (issue 17;
    it used to be null, the hand being past the solver's 20 cards)."""
    from rummydsl.endings import Ending

    rnd = big_round(tmp_path, "melded(p)")
    play(rnd, "P1 draw discard 2S", "P1 meld [2S 3S 4S]", "P1 done", "P1 discard 5C")
    rnd.finish(Ending.STOCK_END, None)
    assert rnd.result is not None
    assert rnd.result.deadwoods[0] == rnd.rules.min_deadwood(rnd.hands[0]) and rnd.result.points == (9, 0)
    assert rnd.result.as_json()["deadwoods"]["P1"] == rnd.result.deadwoods[0]


def test_two_packs_any_copy_of_the_deep_face_meets_the_obligation() -> None:
    """Regression (check --play on eight players and two packs): a player who held QH and
    drew the other QH deep was left with no legal action once a set took one copy. Copies
    are interchangeable: melding or laying off either copy meets the obligation."""
    variant = load_variant(str(Path(__file__).resolve().parents[1] / "conformance" / "variants"
                               / "r5_eight_players.yaml"))
    deck = variant.deck
    cards = deck.parse_cards("QH QD QS 2C 3D 5S 9C QH 4S")  # the second QH is the other copy
    held, pile = list(cards[:7]), list(cards[7:])
    assert held[0] is not pile[0] and str(held[0]) == str(pile[0]) == "QH"
    placed = {c.id for c in cards}
    rest = [c for c in deck.cards if c.id not in placed]
    hands = [held] + [rest[7 * k:7 * k + 7] for k in range(7)]
    rnd = Round.from_setup(variant, dealer=7, hands=hands, stock=rest[49:], upcard=pile[0])
    rnd.discards = list(pile)
    play(rnd, "P1 draw discard QH")
    assert rnd.must_meld is pile[0]
    assert "P1 done" not in legal(rnd)
    play(rnd, "P1 meld [QH QD QS]")
    assert "P1 done" in legal(rnd), "one QH of the two is melded: the obligation is met"


def test_explain_says_who_a_table_card_counts_for(tmp_path: Path) -> None:
    from rummydsl.explainer import explain

    plain = " ".join(explain(load_variant(variant_file(tmp_path, name="plainx", melded_value=None))).split())
    assert ("A card on the table is worth its card value to the player who laid it there, "
            "a card laid off onto another player's meld included.") in plain
    ace = " ".join(explain(load_variant(variant_file(tmp_path, name="acex"))).split())
    assert ("A card on the table is worth, to the player who laid it there: its card value (1 if it "
            "lies in a run and it is an ace and it is at the low end of its meld).") in ace
    assert "worth" not in " ".join(explain(load_variant("gin_rummy")).split()).split("Deal")[0]
