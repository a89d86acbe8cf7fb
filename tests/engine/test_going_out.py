"""Going out by melding, laying off or discarding (BR-3, CR-5), ``going_out.final_discard``,
``melded_turns(p)`` in scores (BR-5), ``stock.at_floor: turn_over`` (BR-4), and lay-offs
onto every other player's melds with 3 to 6 players (BR-2).

The positions use a small rummy written here (seven cards, an upcard, draw, meld,
discard), so that these tests do not depend on a shipped game."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Round, play_round
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .conftest import house, play, position

PLAIN_RUMMY = """\
rummydsl: 1
id: plain_rummy
name: Plain rummy
players: {count: 3, min: 2, max: 6}
deck: {preset: standard52, ace: low}
card_value: "min(order, 10)"
deal: {hand_size: 7, upcard: true, rotation: next}
melds:
  set: "size in 3..4 and same(rank)"
  run: "size >= 3 and same(suit) and consecutive(rank)"
upcard_offer: null
turn:
  - draw: {from: [stock, discard]}
  - meld: {add_to_opponents: true}
  - discard: {taken_card: forbidden}
stock: {floor: 0, at_floor: turn_over}
scoring:
  round:
    - when: out
      ender: "(melded_turns(ender) <= 1 ? 2 : 1) * sum(deadwood(o) for o in opponents)"
game: {target: 500}
"""


def _plain() -> str:
    folder = Path(tempfile.mkdtemp(prefix="rummydsl-going-out-"))
    path = folder / "plain_rummy.yaml"
    path.write_text(PLAIN_RUMMY, encoding="utf-8")
    return str(path)


PLAIN = _plain()
REQUIRED = house("plain_required", PLAIN, "going_out: {final_discard: required}\n")
FORBIDDEN = house("plain_forbidden", PLAIN, "going_out: {final_discard: forbidden}\n")

# P1 holds two melds and draws the card that completes a third group or the last discard.
HANDS = {"P1": "3S 4S 5S 6S 9H 9C 9D", "P2": "2C 3C 4C 8H 8D JS QS", "P3": "AH AD 7C 7D TH JH QH"}


def test_going_out_by_discarding_ends_the_round() -> None:
    """BR-3: the last card discarded goes out; BR-5: a first lay-down that goes out is rummy."""
    rnd = position(PLAIN, dealer="P3", hands=HANDS, stock="KC 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S 6S] [9H 9C 9D]", "P1 done")
    assert [str(a) for a in rnd.legal_actions()] == ["P1 discard KC"]
    play(rnd, "P1 discard KC")
    assert rnd.result is not None and rnd.result.ending == "out" and rnd.result.ender == 0
    assert rnd.melded_turns == [1, 0, 0]
    # P2 keeps 8H 8D JS QS (36), P3 keeps AH AD 7C 7D (16): doubled for rummy
    assert rnd.result.deadwoods == (0, 36, 16) and rnd.result.points == (104, 0, 0)
    assert str(rnd.discards[-1]) == "KC"


def test_going_out_by_melding_the_whole_hand() -> None:
    """BR-3 (final_discard optional): melding the last cards goes out, no discard follows."""
    rnd = position(PLAIN, dealer="P3", hands=HANDS, stock="9S 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S 6S] [9H 9C 9D 9S]")
    assert rnd.result is not None and rnd.result.ending == "out" and rnd.result.points == (104, 0, 0)


def test_going_out_by_laying_off_onto_another_players_meld() -> None:
    """BR-2, BR-3: the last card laid off onto an opponent's meld goes out; a second turn
    that puts cards down is not rummy (BR-5), so the points are single."""
    hands = {"P1": "3S 4S 5S KD KH 9C TH", "P2": "7H 8H 9H QC QD 4D 6C", "P3": "AH AD 7C 7D 2D JS 5C"}
    rnd = position(PLAIN, dealer="P3", hands=hands, stock="KC 6H 8C 6S 2S 3H", upcard="2H")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [KD KH KC]", "P1 done", "P1 discard 9C",
         "P2 draw stock", "P2 meld [6H 7H 8H 9H]", "P2 done", "P2 discard 6C",
         "P3 draw stock", "P3 done", "P3 discard 8C",
         "P1 draw stock", "P1 layoff 6S on P1#1")
    assert "P1 layoff TH on P2#1" in rnd.legal_actions()
    play(rnd, "P1 layoff TH on P2#1")
    assert rnd.result is not None and rnd.result.ending == "out" and rnd.result.ender == 0
    assert rnd.melded_turns == [2, 1, 0]
    assert rnd.result.deadwoods == (0, 24, 33) and rnd.result.points == (57, 0, 0)


def test_final_discard_required_refuses_emptying_the_hand_by_melding() -> None:
    """going_out.final_discard required (BR-3): a meld or lay-off that would empty the hand is
    refused, and not listed; the last card goes by discarding."""
    rnd = position(REQUIRED, dealer="P3", hands=HANDS, stock="9S 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="the last card must be discarded"):
        rnd.apply("P1 meld [3S 4S 5S 6S] [9H 9C 9D 9S]")
    assert rnd.to_json() == before
    play(rnd, "P1 meld [3S 4S 5S 6S]")
    listed = [str(a) for a in rnd.legal_actions()]
    assert "P1 meld [9S 9H 9D]" in listed and "P1 meld [9S 9H 9D 9C]" not in listed
    optional = play(position(PLAIN, dealer="P3", hands=HANDS, stock="9S 5D 6D", upcard="2H"),
                    "P1 draw stock", "P1 meld [3S 4S 5S 6S]")
    assert "P1 meld [9S 9H 9D 9C]" in optional.legal_actions()
    play(rnd, "P1 meld [9H 9C 9D]")
    assert rnd.why_illegal(rnd.parse("P1 layoff 9S on P1#2")) == (
        "the last card must be discarded (going_out.final_discard: required, BR-3): keep a card to discard")
    assert not any(str(a).startswith("P1 layoff") for a in rnd.legal_actions())
    play(rnd, "P1 done", "P1 discard 9S")
    assert rnd.result is not None and rnd.result.ending == "out" and rnd.result.ender == 0


def test_final_discard_forbidden_goes_out_only_by_melding_or_laying_off() -> None:
    """going_out.final_discard forbidden (a house rule of Rummy): a meld that would leave one
    card with nowhere to go is refused; one that leaves a card that can be laid off must be
    followed by that lay-off (no 'done'), which goes out."""
    rnd = position(FORBIDDEN, dealer="P3", hands=HANDS, stock="KC 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock")
    before = rnd.to_json()
    with pytest.raises(IllegalActionError, match="the last card cannot be discarded"):
        rnd.apply("P1 meld [3S 4S 5S 6S] [9H 9C 9D]")  # KC would be left with nowhere to go
    assert rnd.to_json() == before
    assert "P1 meld [3S 4S 5S 6S] [9H 9C 9D]" not in rnd.legal_actions()
    # 6S can be laid off onto 3S 4S 5S, so leaving it is allowed, and then it must be laid off
    rnd = position(FORBIDDEN, dealer="P3", hands=HANDS, stock="9S 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [9H 9C 9D 9S]")
    assert [str(a) for a in rnd.legal_actions()] == ["P1 layoff 6S on P1#1"]
    assert rnd.why_illegal(rnd.parse("P1 done")) == (
        "the last card cannot be discarded (going_out.final_discard: forbidden): lay it off to go out")
    play(rnd, "P1 layoff 6S on P1#1")
    assert rnd.result is not None and rnd.result.ending == "out" and rnd.result.ender == 0


def test_final_discard_forbidden_refuses_discarding_the_last_card() -> None:
    """Under forbidden a player who reaches the discard step with one card cannot discard it:
    such a turn cannot end (check --play's play-no-legal-action example, no_draw_step.yaml)."""
    rnd = position(FORBIDDEN, dealer="P3", hands=HANDS, stock="KC 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S 6S]", "P1 done")
    assert len(rnd.hands[0]) == 4 and "P1 discard KC" in rnd.legal_actions()
    rnd.hands[0][:] = rnd.hands[0][:1]  # a hand of one card at the discard step
    rnd._listed = None
    assert list(rnd.legal_actions()) == []
    card = str(rnd.hands[0][0])
    assert rnd.why_illegal(rnd.parse(f"P1 discard {card}")) == (
        "the last card cannot be discarded (going_out.final_discard: forbidden): go out by melding or laying it off")


def test_a_player_short_of_the_contract_keeps_a_card_to_discard() -> None:
    """With a contract (CR-5) going out before meeting it is refused: where melds go down before
    the contract is met, a meld that would leave one card to discard is refused too."""
    contract = house("plain_contract", PLAIN,
                     'contract: {melds: "count >= 2", concealed_until_met: false}\n')
    hands = {"P1": "3S 4S 5S 6S 7S 8S 9S", "P2": "2C 3C 4C 8H 8D JS QS", "P3": "AH AD 7C 7D TH JH QH"}
    rnd = position(contract, dealer="P3", hands=hands, stock="KC 5D 6D", upcard="2H")
    play(rnd, "P1 draw stock")
    reason = rnd.why_illegal(rnd.parse("P1 meld [3S 4S 5S 6S 7S 8S 9S]"))
    assert reason is not None and "has not met the contract keeps two cards" in reason
    assert "P1 meld [3S 4S 5S 6S 7S 8S 9S]" not in [str(a) for a in rnd.legal_actions()]
    play(rnd, "P1 meld [3S 4S 5S 6S 7S 8S]", "P1 done")
    assert not rnd.met_contract[0] and len(rnd.legal_actions()) == 2


def test_melded_turns_counts_turns_not_melds() -> None:
    """melded_turns(p): several melds and lay-offs in one turn count once; a turn without any, not at all."""
    rnd = position(PLAIN, dealer="P3", hands=HANDS, stock="KC 5D 6D 2S", upcard="2H")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S]", "P1 meld [9H 9C 9D]")
    assert rnd.melded_turns == [1, 0, 0] and rnd.laid_this_turn
    play(rnd, "P1 done", "P1 discard KC", "P2 draw stock", "P2 done")
    assert rnd.melded_turns == [1, 0, 0] and not rnd.laid_this_turn


def test_turn_over_renews_the_stock_from_the_discard_pile() -> None:
    """stock.at_floor turn_over (BR-4): the pile but its top card, turned over without
    shuffling (its oldest card drawn first), is the new stock; play goes on."""
    rnd = position(PLAIN, dealer="P3", hands=HANDS, stock="KC 5D", upcard="2H")
    play(rnd, "P1 draw stock", "P1 done", "P1 discard KC", "P2 draw stock")
    assert rnd.stock == [] and not rnd.final_turn  # no final turn: the round goes on
    assert [str(c) for c in rnd.discards] == ["2H", "KC"]
    play(rnd, "P2 done", "P2 discard QS")
    # P3 is to draw from an empty stock: 2H KC turned over, 2H (the bottom card) on top
    assert rnd.to_move == 2 and [str(c) for c in reversed(rnd.stock)] == ["2H", "KC"]
    assert [str(c) for c in rnd.discards] == ["QS"]
    assert {str(a) for a in rnd.legal_actions()} == {"P3 draw stock", "P3 draw discard"}
    play(rnd, "P3 draw stock")
    assert str(rnd.hands[2][-1]) == "2H" and len(rnd.stock) == 1


def test_turn_over_with_nothing_to_turn_over_is_void() -> None:
    """BR-4: with a pile of one card (or none) nothing can be turned over: the round is void."""
    no_upcard = house("plain_no_upcard", PLAIN, "deal: {hand_size: 7, upcard: false}\n")
    rnd = position(no_upcard, dealer="P3", hands=HANDS, stock="KC")
    play(rnd, "P1 draw stock", "P1 done", "P1 discard KC")
    assert rnd.result is not None and rnd.result.void and rnd.result.points == (0, 0, 0)


def test_turn_over_keeps_the_floor_cards_on_top() -> None:
    """turn_over with a floor above 0: the cards left in the stock stay on top of the pile turned under."""
    floor = house("plain_floor_1", PLAIN, "stock: {floor: 1, at_floor: turn_over}\n")
    rnd = position(floor, dealer="P3", hands=HANDS, stock="KC 5D", upcard="2H")
    play(rnd, "P1 draw stock", "P1 done", "P1 discard KC")
    assert [str(c) for c in reversed(rnd.stock)] == ["5D", "2H"] and [str(c) for c in rnd.discards] == ["KC"]


def test_void_at_floor_ends_before_the_next_draw() -> None:
    """BR-4 stock_exhausted = void is the existing ``at_floor: void`` with floor 0: the turn that
    draws the last card is the last one, and the next player does not draw (not even the discard)."""
    void = house("plain_void", PLAIN, "stock: {floor: 0, at_floor: void}\n")
    rnd = position(void, dealer="P3", hands=HANDS, stock="KC", upcard="2H")
    play(rnd, "P1 draw stock", "P1 done", "P1 discard KC")
    assert rnd.result is not None and rnd.result.void


def _seat_hands(n: int) -> tuple[dict[str, str], str]:
    """Seats 1..n-1 each hold three of a rank (A, 2, 3, 4, 5 of spades, hearts, diamonds) and
    a king; the last seat holds every club of those ranks and two more."""
    ranks = "A2345"[:n - 1]
    fillers = ["KS", "KH", "KD", "KC", "QS"]
    hands = {f"P{k + 1}": f"{ranks[k]}S {ranks[k]}H {ranks[k]}D {fillers[k]}" for k in range(n - 1)}
    hands[f"P{n}"] = " ".join(f"{r}C" for r in ranks) + " 9S 9H"
    return hands, "8S 8H 8D 8C 7S 7H 7D"


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_lay_offs_onto_every_other_players_melds(n: int) -> None:
    """turn[].meld.add_to_opponents with 3 to 6 players (BR-2): the last seat lays off onto
    the meld of each other player."""
    variant = house(f"plain_{n}", PLAIN, f"players: {{count: {n}, min: 2, max: 6}}\n")
    hands, stock = _seat_hands(n)
    rnd = position(variant, dealer=f"P{n}", hands=hands, stock=stock, upcard="6C")
    ranks = "A2345"
    for k in range(n - 1):
        name = f"P{k + 1}"
        play(rnd, f"{name} draw stock", f"{name} meld [{ranks[k]}S {ranks[k]}H {ranks[k]}D]", f"{name} done")
        play(rnd, f"{name} discard {rnd.hands[k][0]}")
    last = f"P{n}"
    play(rnd, f"{last} draw stock")
    listed = {str(a) for a in rnd.legal_actions()}
    for k in range(n - 1):
        assert f"{last} layoff {ranks[k]}C on P{k + 1}#1" in listed
        play(rnd, f"{last} layoff {ranks[k]}C on P{k + 1}#1")
    assert all(len(rnd.table[k][0].cards) == 4 for k in range(n - 1))
    assert rnd.melded_turns[n - 1] == 1 and len(rnd.hands[n - 1]) == 3


def test_greedy_and_random_play_plain_rummy_to_the_end() -> None:
    """Seeded rounds of the plain rummy end (out, or void when the pile cannot be turned over)."""
    variant = load_variant(PLAIN)
    for seed in range(4):
        for kind in ("greedy", "random"):
            rng = random.Random(seed)
            rnd = Round.deal(variant, rng, dealer=0)
            result = play_round(rnd, make_agents(kind, variant.players, rng))
            assert result.ending in ("out", "void")


def test_explain_says_how_to_go_out_and_what_happens_at_the_floor() -> None:
    """explain: going out by any last card (or by discarding it), and the pile turned over."""
    from rummydsl.explainer import explain

    plain = " ".join(explain(load_variant(PLAIN)).split())
    assert "by melding, laying off or discarding the last card, ends the round" in plain
    assert "the discard pile except its top card is turned face down beneath it, without shuffling" in plain
    required = " ".join(explain(load_variant(REQUIRED)).split())
    assert "the last card always by discarding it" in required
    assert "Keep at least one card: the last card must be discarded." in required
