"""RULES.md played: one test per rule (its id in the name), from fixed positions and house rules.

Positions are written in card notation (``position``), house rules are tiny files
extending a shipped variant (``house``), and whole games are driven through
:class:`~rummydsl.engine.Game` with scripted rounds put in place of the dealt ones
(:func:`scripted_round`), so game-level rules (GR-10, GR-11, GR-13, dealers) are
checked with exact numbers.
"""

from __future__ import annotations

import random
from typing import Sequence

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Game, Round, play_round
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .conftest import house, play, position

# ---------------------------------------------------------------------------- helpers

GR15_KNOCKER = "5H 6H 7H 8H 9C 9D 9S AC 2D 4S"
GR15_DEFENDER = "KS KH KD 2C 3C 4C 9H 4H QC 7D"
GR15_STOCK = "KC 3D 4D 5D 6D 8D TD JD 2H 3H TH"
GIN_KNOCKER = "5H 6H 7H 8H 9C 9D 9S 2S 3S 4S"


def gin(variant: str = "gin_rummy", *, p1: str = GR15_KNOCKER, p2: str = GR15_DEFENDER,
        stock: str = GR15_STOCK, upcard: str = "QD", dealer: str = "P2") -> Round:
    """A two-player gin position (GR-15's hands by default; P2 deals, so P1 plays first)."""
    return position(variant, dealer=dealer, hands={"P1": p1, "P2": p2}, stock=stock, upcard=upcard)


def refused(rnd: Round, action: str, reason: str) -> None:
    """``action`` is not listed, is refused with ``reason`` in the message, and changes nothing."""
    before = rnd.to_json()
    assert action not in rnd.legal_actions()
    assert str(action) not in {str(a) for a in rnd.legal_actions()}
    with pytest.raises(IllegalActionError) as caught:
        rnd.apply(action)
    assert reason in caught.value.reason
    assert rnd.to_json() == before


def listed(rnd: Round) -> list[str]:
    return sorted(str(a) for a in rnd.legal_actions())


def scripted_round(game: Game, hands: dict[str, str], stock: str, upcard: str | None,
                   actions: Sequence[str]) -> None:
    """Put a fixed deal in place of the game's dealt round, play ``actions``, go on.

    ``N`` and ``D`` in the hands' keys and the actions stand for the non-dealer and the
    dealer of a two-player game (the game decides who deals).
    """
    dealer = game.dealer
    names = {"D": f"P{dealer + 1}", "N": f"P{(dealer + 1) % 2 + 1}"}

    def fill(text: str) -> str:
        for role, name in names.items():
            text = text.replace(f"{{{role}}}", name)
        return text

    seats = {fill(k): v for k, v in hands.items()}
    rnd = position(game.variant.path, dealer=names["D"], hands=seats, stock=stock, upcard=upcard,
                   scores=game.scores)
    rnd.number = len(game.results) + 1
    game.round = rnd
    play(rnd, *(fill(a) for a in actions))
    assert rnd.result is not None
    game.next_round()


KNOCK_10 = ({"{N}": GR15_KNOCKER, "{D}": GR15_DEFENDER}, GR15_STOCK, "QD",
            ["{N} pass", "{D} pass", "{N} draw stock", "{N} knock KC [5H 6H 7H 8H] [9C 9D 9S]",
             "{D} layoff 9H on {N}#1", "{D} layoff 4H on {N}#1", "{D} done"])
"""GR-15: the non-dealer knocks and scores 10."""
GIN_55 = ({"{N}": GIN_KNOCKER, "{D}": GR15_DEFENDER}, GR15_STOCK, "QD",
          ["{N} pass", "{D} pass", "{N} draw stock", "{N} knock KC"])
"""GR-15: the non-dealer goes gin and scores 25 + 30 = 55."""
VOID = ({"{N}": "AC 3C 5C 7C 9C JC KC AD 3D 5D", "{D}": "2C 4C 6C 8C TC QC 2D 4D 6D 8D"},
        "AS 2S 3S", "KD", ["{N} pass", "{D} pass", "{N} draw stock", "{N} discard AS"])
"""GR-8: the non-dealer draws the third-to-last stock card and discards: void."""


def game_of(variant: str, dealer: int = 1) -> Game:
    return Game(load_variant(variant), random.Random(0), dealer=dealer)


# ---------------------------------------------------------------------------- GR-4 upcard round

def test_gr4_4_both_pass_non_dealer_must_draw_stock() -> None:
    """GR-4.4: after both pass, the non-dealer draws from the stock; the upcard is not offered."""
    rnd = play(gin(), "P1 pass", "P2 pass")
    assert rnd.to_move == 0 and rnd.phase.value == "draw"
    assert listed(rnd) == ["P1 draw stock"]
    refused(rnd, "P1 draw discard", "the first draw is from the stock")
    play(rnd, "P1 draw stock", "P1 discard AC")
    assert "P2 draw discard" in rnd.legal_actions()  # normal turns follow (GR-5)


def test_gr4_2_non_dealer_takes_upcard_discards_another_dealer_plays() -> None:
    """GR-4.2: the non-dealer takes the upcard, must discard another card; the dealer then
    plays a normal turn."""
    rnd = play(gin(), "P1 draw discard")
    assert "P1 discard QD" not in {str(a) for a in rnd.legal_actions()}
    refused(rnd, "P1 discard QD", "taken from the discard pile this turn")
    play(rnd, "P1 discard AC")
    assert rnd.to_move == 1 and rnd.phase.value == "draw"
    assert listed(rnd) == ["P2 draw discard", "P2 draw stock"]


def test_gr4_3_dealer_takes_upcard_then_non_dealer_plays() -> None:
    """GR-4.3: the non-dealer passes, the dealer takes the upcard and discards another card;
    the non-dealer then plays a normal turn (and may take that discard)."""
    rnd = play(gin(), "P1 pass", "P2 draw discard")
    refused(rnd, "P2 discard QD", "taken from the discard pile this turn")
    play(rnd, "P2 discard 7D")
    assert rnd.to_move == 0 and rnd.phase.value == "draw"
    assert listed(rnd) == ["P1 draw discard", "P1 draw stock"]
    assert [str(c) for c in rnd.discards] == ["7D"]


def test_gr4_5_knock_on_the_upcard() -> None:
    """GR-4.5: taking the upcard counts as the draw; the non-dealer may knock on it at once."""
    rnd = play(gin(p1="5H 6H 7H 8H 9C 9D 9S 2S 3S KC", upcard="4S", stock="3D 4D 5D"),
               "P1 draw discard")
    assert "P1 knock KC" in rnd.legal_actions()
    play(rnd, "P1 knock KC")
    assert rnd.result is not None and rnd.result.ending == "gin" and rnd.result.points == (55, 0)


GINSKI_HANDS = {"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R",
                "P2": "4R 5R 6R 9G 9B * 10P 11P 12P 2Y",
                "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"}
GINSKI_STOCK = "13R 1R 1G 1Y 2G 2P 3R 3P 3Y 4B 4P 4Y"


def test_gs4_2_l2_takes_upcard_then_dealer_plays() -> None:
    """GS-4.1, GS-4.2: L1 passes, L2 takes the upcard and discards; play goes on to L2's
    left, the dealer; L1, who passed, waits for the normal rotation."""
    rnd = position("ginski", dealer="P1", hands=GINSKI_HANDS, stock=GINSKI_STOCK, upcard="8B")
    assert rnd.to_move == 1  # L1 = P2
    play(rnd, "P2 pass", "P3 draw discard")
    refused(rnd, "P3 discard 8B", "taken from the discard pile this turn")
    play(rnd, "P3 discard 13B")
    assert rnd.to_move == 0 and rnd.phase.value == "draw"
    assert listed(rnd) == ["P1 draw discard", "P1 draw stock"]
    play(rnd, "P1 draw stock", "P1 discard 13G")
    assert rnd.to_move == 1


def test_gs4_2_dealer_takes_upcard_then_l1_plays() -> None:
    """GS-4.2: L1 and L2 pass, the dealer takes it and discards; L1 plays next."""
    rnd = position("ginski", dealer="P1", hands=GINSKI_HANDS, stock=GINSKI_STOCK, upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 draw discard", "P1 discard 13G")
    assert rnd.to_move == 1 and rnd.phase.value == "draw"


def test_gs4_3_all_pass_l1_draws_stock_only() -> None:
    """GS-4.3 (first_draw_after_all_pass = stock_only): all three pass; L1 draws the stock."""
    rnd = position("ginski", dealer="P1", hands=GINSKI_HANDS, stock=GINSKI_STOCK, upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 pass")
    assert listed(rnd) == ["P2 draw stock"]
    refused(rnd, "P2 draw discard", "the first draw is from the stock")


def test_gs4_3_either_after_all_pass() -> None:
    """GS-4.3 with first_draw_after_all_pass = either: L1 may take the refused upcard."""
    path = house("ginski_either", "ginski", "upcard_offer: {after_all_pass: either}\n")
    rnd = position(path, dealer="P1", hands=GINSKI_HANDS, stock=GINSKI_STOCK, upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 pass")
    assert listed(rnd) == ["P2 draw discard", "P2 draw stock"]


def test_gs5_wild_copy_not_taken_may_be_discarded() -> None:
    """GS-5, GS-3.3 regression: holding two wild cards, one just taken from the pile, the
    other may be discarded (or knocked with). ``P1 discard *`` was listed (the other wild)
    but refused, because the text named the wild just taken."""
    variant = load_variant("ginski")
    deck = variant.deck
    wilds = [c for c in deck.cards if c.wild]
    cards = deck.parse_cards
    hands = [[*cards("1R 2R 3R 5B 6B 7B 9G 10G 11G"), wilds[1]],
             list(cards("1B 2B 3B 4B 8B 9B 10B 11B 12B 13B")),
             list(cards("1G 2G 3G 4G 5G 6G 7G 8G 12G 13G"))]
    rnd = Round.from_setup(variant, dealer=2, hands=hands, stock=cards("1P 2P 3P 4P 5P 6P 7P"),
                           upcard=wilds[0])
    play(rnd, "P1 draw discard")  # the first wild card, now rnd.taken
    assert rnd.taken is wilds[0]
    assert "P1 discard *" in {str(a) for a in rnd.legal_actions()}
    assert "P1 discard *" in rnd.legal_actions()
    assert "P1 knock *" in rnd.legal_actions()
    copy = play(rnd.copy(), "P1 discard *")
    assert copy.discards[-1] is wilds[1] and wilds[0] in copy.hands[0]
    play(rnd, "P1 knock *")
    assert rnd.discards[-1] is wilds[1]
    assert rnd.result is not None and rnd.result.ending == "gin"


# ---------------------------------------------------------------------------- GR-8 stock floor

def floor_position(variant: str = "gin_rummy") -> Round:
    """Three cards in the stock: the non-dealer's draw leaves the floor of 2."""
    return gin(variant, stock="AS 2S 3S")


def test_gr8_draw_to_the_floor_is_the_final_turn_and_a_discard_voids() -> None:
    """GR-8: the draw that leaves 2 cards makes it the final turn; discarding voids the round."""
    rnd = play(floor_position(), "P1 pass", "P2 pass", "P1 draw stock")
    assert len(rnd.stock) == 2 and rnd.final_turn
    play(rnd, "P1 discard 4S")
    assert rnd.result is not None and rnd.result.void
    assert rnd.result.points == (0, 0) and rnd.result.ender is None


def test_gr8_knock_on_the_final_turn_scores() -> None:
    """GR-8, GR-6.1: the final turn may still end by a knock, scored normally (GR-15: 10)."""
    rnd = play(gin(stock="KC 2S 3S"), "P1 pass", "P2 pass", "P1 draw stock",
               "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]", "P2 layoff 9H on P1#1", "P2 layoff 4H on P1#1",
               "P2 done")
    assert rnd.result is not None and rnd.result.points == (10, 0)


def test_gr8_stock_never_drawn_below_the_floor() -> None:
    """GR-8: with 2 cards left nobody draws the stock: the void comes before any such draw."""
    rnd = play(gin(stock="AS 2S"), "P1 pass", "P2 pass")
    assert rnd.result is not None and rnd.result.void


CLAIM = "stock: {last_discard_claim: true}\n"
CLAIM_P1 = "AC 2D 4S 7H TC JC QS 9C 9S 5D"
CLAIM_P2 = "KS KH KD 2C 3C 4C 5H 6H QD 9D"
"""P2's deadwood is 5 + 6 + 10 + 9: P1's 7H lets P2 knock (9 left after QD goes), QS does not."""


def test_gr8_last_discard_claim_only_to_knock() -> None:
    """GR-8 last_discard_claim = on: after the final discard, the other player may take it
    only to knock at once; then a knock is the only legal action."""
    path = house("gin_claim", "gin_rummy", CLAIM)
    rnd = gin(path, p1=CLAIM_P1, p2=CLAIM_P2, stock="AS 2S 3S", upcard="8S")
    play(rnd, "P1 pass", "P2 pass", "P1 draw stock", "P1 discard 7H")
    assert rnd.result is None and rnd.phase.value == "claim" and rnd.to_move == 1
    assert listed(rnd) == ["P2 draw discard", "P2 pass"]
    play(rnd, "P2 draw discard")
    assert all(str(a).startswith("P2 knock") for a in rnd.legal_actions())
    refused(rnd, "P2 discard 9D", "must be used to knock")
    refused(rnd, "P2 knock 7H", "taken from the discard pile this turn")
    play(rnd, "P2 knock QD")
    assert rnd.ender == 1 and rnd.ender_deadwood == 9 and rnd.phase.value == "showdown"


def test_gr8_last_discard_claim_refused_when_it_does_not_knock() -> None:
    """GR-8 last_discard_claim = on: a discard that gives no knock cannot be claimed; passing
    leaves the round void."""
    path = house("gin_claim", "gin_rummy", CLAIM)
    rnd = gin(path, p1=CLAIM_P1, p2=CLAIM_P2, stock="AS 2S 3S", upcard="8S")
    play(rnd, "P1 pass", "P2 pass", "P1 draw stock", "P1 discard QS")
    assert listed(rnd) == ["P2 pass"]
    refused(rnd, "P2 draw discard", "only to knock or go gin")
    play(rnd, "P2 pass")
    assert rnd.result is not None and rnd.result.void


def test_gr2_3_void_round_same_dealer_deals_again() -> None:
    """GR-2.3 (void_redeal = same_dealer): after a void round the same dealer deals."""
    game = game_of("gin_rummy", dealer=1)
    scripted_round(game, *VOID)
    assert game.results[-1].void
    assert game.dealer == 1 and game.round.dealer == 1
    scripted_round(game, *KNOCK_10)
    assert game.dealer == 0  # a scored round: the deal alternates (GR-2.2)


def test_gs2_2_void_round_rotates_the_deal() -> None:
    """GS-2.2: in Ginski the deal passes to the left after every round, a void one included."""
    game = game_of("ginski", dealer=0)
    rnd = position("ginski", dealer="P1", hands=GINSKI_HANDS, stock="13R 1R 1G", upcard="8B")
    game.round = rnd
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock", "P2 discard 2Y")
    assert rnd.result is not None and rnd.result.void
    game.next_round()
    assert game.dealer == 1 and game.round.dealer == 1


# ---------------------------------------------------------------------------- SK-7 offers

SK_TURN = """\
turn:
  - draw: {{from: [stock], skip_after_accepting: {skip}}}
  - meld: {{optional: true, add_to_own: true, add_to_opponents: false}}
  - offer: {{mandatory: {mandatory}, min_hand: 2, no_reoffer_accepted: {no_reoffer}}}
"""


def skarney(path: str = "skarney_gin") -> Round:
    return position(path, dealer="P2",
                    hands={"P1": "4S 5H 6D JC JD JH 8C 9C TC 7C", "P2": "AS KD KH 5C 5D 5S 9H 2C 6C 7H"},
                    stock="AD QD QS KS AH TH 8H 7D 6H 4D")


def sk_house(name: str, *, skip: str = "null", mandatory: str = "true", no_reoffer: str = "false") -> str:
    return house(name, "skarney_gin", SK_TURN.format(skip=skip, mandatory=mandatory, no_reoffer=no_reoffer))


def test_sk7_3_accepted_card_may_be_offered_back_by_default() -> None:
    """SK-7.3 (no_reoffer_accepted_card = false): a card just accepted may be offered back."""
    rnd = play(skarney(), "P1 draw stock", "P1 done", "P1 offer 7C", "P2 take", "P2 draw stock", "P2 done")
    assert "P2 offer 7C" in rnd.legal_actions()


def test_sk7_3_no_reoffer_accepted_card() -> None:
    """SK-7.3 no_reoffer_accepted_card = true: the acceptor may not offer it back next turn;
    on the turn after it is an ordinary card again."""
    rnd = play(skarney(sk_house("sk_no_reoffer", no_reoffer="true")),
               "P1 draw stock", "P1 done", "P1 offer 7C", "P2 take", "P2 draw stock", "P2 done")
    refused(rnd, "P2 offer 7C", "just accepted and may not be offered back")
    play(rnd, "P2 offer 2C", "P1 decline", "P1 draw stock", "P1 done", "P1 offer 4S", "P2 decline",
         "P2 draw stock", "P2 done")
    assert "P2 offer 7C" in rnd.legal_actions()


def test_sk7_3_accepted_ace_skips_the_next_draw() -> None:
    """SK-7.3 accepted_ace_skips_draw = true (skip_after_accepting: rank == A): accepting an
    offered ace forfeits the acceptor's next stock draw; they still meld and offer."""
    rnd = play(skarney(sk_house("sk_ace_skip", skip='"rank == A"')), "P1 draw stock")  # AD
    play(rnd, "P1 done", "P1 offer AD", "P2 take")
    stock = len(rnd.stock)
    assert rnd.to_move == 1 and rnd.phase.value == "meld"
    refused(rnd, "P2 draw stock", "meld")
    play(rnd, "P2 done", "P2 offer 2C", "P1 decline")
    assert len(rnd.stock) == stock  # P2 drew nothing
    assert rnd.to_move == 0 and rnd.phase.value == "draw"  # the skip is used up; P1 draws as usual


def test_sk7_3_accepted_non_ace_does_not_skip() -> None:
    """SK-7.3 accepted_ace_skips_draw: only an ace forfeits the draw."""
    rnd = play(skarney(sk_house("sk_ace_skip", skip='"rank == A"')), "P1 draw stock", "P1 done",
               "P1 offer 7C", "P2 take")
    assert rnd.to_move == 1 and rnd.phase.value == "draw"


def test_sk7_1_offer_optional() -> None:
    """SK-7.1 offer_mandatory = false: the player may end the turn without offering."""
    rnd = play(skarney(sk_house("sk_offer_optional", mandatory="false")), "P1 draw stock", "P1 done")
    assert rnd.phase.value == "offer" and "P1 done" in rnd.legal_actions()
    play(rnd, "P1 done")
    assert rnd.to_move == 1 and rnd.phase.value == "draw" and len(rnd.hands[0]) == 11


def test_sk7_1_offer_mandatory_by_default() -> None:
    """SK-7.1 (offer_mandatory = true): the offer may not be skipped."""
    rnd = play(skarney(), "P1 draw stock", "P1 done")
    refused(rnd, "P1 done", "the offer is mandatory")


# ---------------------------------------------------------------------------- SK-5.4, SK-3.4

CONTRACT = "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]"


def test_sk5_4_more_melding_after_the_contract_by_default() -> None:
    """SK-5.4 (contract_then_meld_same_turn = true): 7C may go onto the run the same turn."""
    rnd = play(skarney(), "P1 draw stock", CONTRACT)
    assert "P1 layoff 7C on P1#3" in rnd.legal_actions()


def test_sk5_4_no_melding_after_the_contract_the_same_turn() -> None:
    """SK-5.4 contract_then_meld_same_turn = false: after the contract nothing more goes
    down that turn (not a lay-off, not a meld); the next turn it may."""
    path = house("sk_contract_alone", "skarney_gin", "contract: {then_meld_same_turn: false}\n")
    rnd = play(skarney(path), "P1 draw stock", CONTRACT)
    assert listed(rnd) == ["P1 done"]
    refused(rnd, "P1 layoff 7C on P1#3", "no more melding in the turn the contract was met")
    play(rnd, "P1 done", "P1 offer AD", "P2 decline", "P2 draw stock", "P2 done", "P2 offer 2C",
         "P1 decline", "P1 draw stock")
    assert "P1 layoff 7C on P1#3" in rnd.legal_actions()


def test_sk3_4_meld_changes_kind_by_default() -> None:
    """SK-3.4 (meld_kind_locked = false): 3S 4S 5S + 6H is a legal poker; the meld changes kind."""
    rnd = position("skarney_gin", dealer="P2",
                   hands={"P1": "3S 4S 5S JC JD JH 8C 9C TC 6H", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="AD QD QS KS AH TH 8H 7D 6S 4D")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
    assert rnd.table[0][0].kind == "run"
    play(rnd, "P1 layoff 6H on P1#1")
    assert rnd.table[0][0].kind == "poker"


def test_sk3_4_kind_locked() -> None:
    """SK-3.4 meld_kind_locked = true: 6H may not turn the run 3S 4S 5S into a poker."""
    path = house("sk_locked", "skarney_gin", "meld_options: {kind_locked: true}\n")
    rnd = position(path, dealer="P2",
                   hands={"P1": "3S 4S 5S JC JD JH 8C 9C TC 6H", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="AD QD QS KS AH TH 8H 7D 6S 4D")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
    refused(rnd, "P1 layoff 6H on P1#1", "does not extend the run meld")
    rnd2 = position(path, dealer="P2",
                    hands={"P1": "3S 4S 5S JC JD JH 8C 9C TC 6S", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                    stock="AD QD QS KS AH TH 8H 7D 6H 4D")
    play(rnd2, "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]", "P1 layoff 6S on P1#1")
    assert rnd2.table[0][0].kind == "run"


# ---------------------------------------------------------------------------- layoff, big gin

def test_gs6_4_layoff_none_ends_at_the_knock() -> None:
    """GS-6.4 layoff = none (here on Gin Rummy's GR-15): no lay-offs; the round ends at the
    knock with the defender's least deadwood, 30: P1 scores 30 - 7 = 23."""
    path = house("gin_no_layoff", "gin_rummy", "layoff: {onto: none}\n")
    rnd = play(gin(path), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert rnd.result is not None
    assert rnd.result.deadwoods == (7, 30) and rnd.result.points == (23, 0)


def test_gs6_4_layoff_none_in_ginski() -> None:
    """GS-6.4 layoff = none: GS-8 without lay-offs: C keeps 64, A 26: B scores 24 + 62 = 86."""
    path = house("ginski_no_layoff", "ginski", "layoff: {onto: none}\n")
    rnd = position(path, dealer="P1", hands=GINSKI_HANDS, stock=GINSKI_STOCK, upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
         "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]")
    assert rnd.result is not None
    assert rnd.result.deadwoods == (26, 2, 64) and rnd.result.points == (0, 86, 0)


def test_gr6_3_big_gin_off() -> None:
    """GR-6.3 big_gin = off: with all 11 cards melded the player must still discard; the
    knock is a gin (25 + 30 = 55), not a big gin."""
    path = house("gin_no_big", "gin_rummy", "knock: {big_gin: false}\n")
    rnd = play(gin(path, p1=GIN_KNOCKER, stock="5S " + GR15_STOCK), "P1 pass", "P2 pass", "P1 draw stock")
    refused(rnd, "P1 knock", "big gin is off")
    play(rnd, "P1 knock 5S")
    assert rnd.result is not None and rnd.result.ending == "gin" and rnd.result.points == (55, 0)


def test_gr6_3_big_gin_on() -> None:
    """GR-6.3 (big_gin = on): the same hand may go big gin, 31 + 30 = 61."""
    rnd = play(gin(p1=GIN_KNOCKER, stock="5S " + GR15_STOCK), "P1 pass", "P2 pass", "P1 draw stock")
    assert "P1 knock" in rnd.legal_actions()
    play(rnd, "P1 knock")
    assert rnd.result is not None and rnd.result.ending == "big_gin" and rnd.result.points == (61, 0)


# ---------------------------------------------------------------------------- GR-2.2 dealers

def test_gr2_2_alternate() -> None:
    """GR-2.2 (dealer_rotation = alternate): the deal passes whoever won."""
    game = game_of("gin_rummy", dealer=1)
    scripted_round(game, *KNOCK_10)  # the non-dealer P1 wins
    assert game.dealer == 0
    scripted_round(game, *KNOCK_10)  # the non-dealer P2 wins
    assert game.dealer == 1


@pytest.mark.parametrize(("rotation", "after_n_wins"), [("winner_deals", "N"), ("loser_deals", "D")])
def test_gr2_2_winner_or_loser_deals(rotation: str, after_n_wins: str) -> None:
    """GR-2.2 dealer_rotation = winner_deals / loser_deals: the winner (the loser) of a hand
    deals the next one; after a void hand the same dealer deals (GR-2.3)."""
    path = house(f"gin_{rotation}", "gin_rummy", f"deal: {{rotation: {rotation}}}\n")
    game = game_of(path, dealer=1)  # P2 deals, so P1 is the non-dealer
    scripted_round(game, *KNOCK_10)
    assert game.dealer == (0 if after_n_wins == "N" else 1)
    dealer = game.dealer
    scripted_round(game, *VOID)
    assert game.dealer == dealer


def test_sk2_2_loser_deals() -> None:
    """SK-2.2: in Skarney the loser of a round deals the next."""
    game = game_of("skarney_gin", dealer=1)
    rnd = position("skarney_gin", dealer="P2", hands={"P1": "KS 8D 3C", "P2": "7C 4S 4H"},
                   stock="4D 2D 2S 5C")
    game.round = rnd
    play(rnd, "P1 draw stock", "P1 done", "P1 offer KS", "P2 decline", "P2 draw stock", "P2 done")
    assert rnd.result is not None and rnd.result.points == (0, 25 - 17)
    game.next_round()
    assert game.dealer == 0  # P1 lost


# ---------------------------------------------------------------------------- GR-10 game end

@pytest.mark.parametrize(("shutout", "p1_figure"), [
    ("double_total", (10 + 100 + 25) * 2),
    ("double_hand_points", 10 * 2 + 100 + 25),
    ("flat_100", 10 + 100 + 25 + 100),
    ("none", 10 + 100 + 25),
])
def test_gr10_4_shutout(shutout: str, p1_figure: int) -> None:
    """GR-10.4: the game ends on the first hand (target 10); the loser scored nothing."""
    path = house(f"gin_t10_{shutout}", "gin_rummy", f"game: {{target: 10, shutout: {shutout}}}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *KNOCK_10)
    assert game.over and game.result is not None
    assert game.result.winner == 0 and game.result.rounds == 1
    assert game.result.figures == (p1_figure, 0)
    assert game.result.shutout


def test_gr10_game_end_with_bonuses() -> None:
    """GR-10.1, GR-10.2, GR-10.3, GR-10.5: to 60: P1 knocks (10), P2 knocks (10), P1 gins (55):
    P1 = 65 + 100 + 2 x 25 = 215, P2 = 10 + 25 = 35; no shutout; margin 180."""
    path = house("gin_t60", "gin_rummy", "game: {target: 60}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *KNOCK_10)       # P1 (non-dealer) +10
    assert not game.over and game.scores == (10, 0)
    scripted_round(game, *KNOCK_10)       # P2 (non-dealer now) +10
    assert not game.over and game.scores == (10, 10)
    assert game.round.scores == (10, 10)
    scripted_round(game, *GIN_55)         # P1 +55
    assert game.over and game.result is not None
    assert game.result.points == (65, 10)
    assert game.result.figures == (215, 35)
    assert not game.result.shutout and game.result.margin == 180
    with pytest.raises(RuntimeError):
        game.next_round()


def test_gr10_1_game_does_not_end_below_the_target() -> None:
    """GR-10.1: 59 of 60 does not end the game."""
    path = house("gin_t60", "gin_rummy", "game: {target: 60}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *GIN_55)
    assert not game.over and game.scores == (55, 0)


def test_gs7_5_tie_above_the_target_plays_on() -> None:
    """GS-7.5, GS-7.4: B knocks with 2; A and C both have 1: both undercut and score
    (2 - 1) + 25 = 26, passing the target of 1 together, tied: another round is played."""
    path = house("ginski_t1", "ginski", "game: {target: 1}\n")
    game = game_of(path, dealer=0)
    rnd = position(path, dealer="P1", stock="13R 1R 1G", upcard="8B",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 7P 1Y",
                          "P2": GINSKI_HANDS["P2"],
                          "P3": "3G 4G 5G 11Y 11R 11B 12Y 12G 12R 1P"})
    game.round = rnd
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
         "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]", "P3 done", "P1 done")
    assert rnd.result is not None and rnd.result.points == (26, 0, 26)
    game.next_round()
    assert not game.over and game.scores == (26, 0, 26)


# ---------------------------------------------------------------------------- GR-13, GR-11

def test_gr13_hollywood_entries() -> None:
    """GR-13: each hand's points go to every open game where the player has an entry, plus the
    lowest-numbered open game where they have none: 1st win -> game 1, 2nd -> 1-2, 3rd -> 1-3."""
    path = house("hollywood_big", "hollywood_gin", "game: {target: 1000}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *KNOCK_10)  # P1 +10
    assert [s.points for s in game.sheets] == [[10, 0], [0, 0], [0, 0]]
    scripted_round(game, *KNOCK_10)  # P2 +10: P2's first win
    assert [s.points for s in game.sheets] == [[10, 10], [0, 0], [0, 0]]
    scripted_round(game, *KNOCK_10)  # P1 +10: second win
    assert [s.points for s in game.sheets] == [[20, 10], [10, 0], [0, 0]]
    scripted_round(game, *KNOCK_10)  # P2 +10: second win
    assert [s.points for s in game.sheets] == [[20, 20], [10, 10], [0, 0]]
    scripted_round(game, *GIN_55)    # P1 +55: third win, all three games
    assert [s.points for s in game.sheets] == [[75, 20], [65, 10], [55, 0]]
    assert [s.wins for s in game.sheets] == [[3, 2], [2, 1], [1, 0]]


def test_gr13_hollywood_closes_each_game_and_a_shut_out_player_enters_the_next() -> None:
    """GR-13: a game closes at its target and is settled on its own entries (boxes = entries
    there); a player shut out of a closed game starts in the next open one; play stops
    when all three are closed."""
    path = house("hollywood_t50", "hollywood_gin", "game: {target: 50}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *GIN_55)    # P1 +55 -> game 1 closes at 55-0 (a shutout)
    assert game.sheets[0].closed and game.sheets[0].winner == 0
    assert game.sheets[0].figures == ((55 + 100 + 25) * 2, 0)
    assert not game.over
    scripted_round(game, *KNOCK_10)  # P2 +10 -> P2 has no entry in the open games: game 2
    assert [s.points for s in game.sheets] == [[55, 0], [0, 10], [0, 0]]
    scripted_round(game, *GIN_55)    # P1 (non-dealer again) +55: game 2 (first open, no entry)
    assert [s.points for s in game.sheets] == [[55, 0], [55, 10], [0, 0]]
    assert game.sheets[1].closed and game.sheets[1].figures == (55 + 100 + 25, 10 + 25)
    scripted_round(game, *GIN_55)    # P2 +55: game 3, closes
    assert game.over and game.result is not None
    assert [s.points for s in game.sheets][2] == [0, 55]
    assert game.result.games_won == (2, 1) and game.result.winner == 0
    figures = [s.figures for s in game.sheets]
    assert game.result.figures == tuple(sum(f[p] for f in figures) for p in range(2))


def test_gr11_match_first_to_win_games() -> None:
    """GR-11: games are played until a player has won games_to_win of them (here 2 games of
    10 points); each game starts from 0."""
    path = house("match_small", "tournament_gin", "game: {target: 10, match: {games_to_win: 2}}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *KNOCK_10)  # P1 wins game 1
    assert not game.over and game.games_won == [1, 0] and game.scores == (0, 0)
    scripted_round(game, *KNOCK_10)  # P2 wins game 2
    assert not game.over and game.games_won == [1, 1]
    scripted_round(game, *GIN_55)    # P1 wins game 3 and the match
    assert game.over and game.result is not None
    assert game.result.winner == 0 and game.result.games_won == (2, 1)
    assert [g[0] for g in game.finished_games] == [0, 1, 0]
    assert game.result.figures == ((55 + 100 + 25) * 2, 0)


def test_gr11_tournament_preset() -> None:
    """GR-11: the shipped tournament preset is 250 a game, first to three games."""
    variant = load_variant("tournament_gin")
    assert variant.game.target == 250 and variant.game.match_games_to_win == 3


def test_seeded_greedy_game_of_a_house_rule_ends() -> None:
    """GR-10 through play: a seeded greedy game to a small target ends with the figures of
    its points (a quick end-to-end check of Game with agents)."""
    path = house("gin_t30", "gin_rummy", "game: {target: 30}\n")
    variant = load_variant(path)
    game = Game(variant, random.Random(11))
    agents = make_agents("greedy", 2, random.Random(11))
    while not game.over:
        play_round(game.round, agents)
        game.next_round()
    assert game.result is not None and max(game.result.points) >= 30


# ---------------------------------------------------------------------------- GR-7 showdown

def test_gr7_1_cards_of_shown_melds_are_not_listed_as_layoffs() -> None:
    """GR-7.1 regression: once the defender shows melds, only deadwood may be laid off; the
    listing offered 'P2 layoff 9H on P1#1' for a 9H in a shown meld, which is refused."""
    rnd = play(gin(p2="KS KH KD 2C 3C 4C 9H TH JH 7D", stock="KC 3D 4D 5D 6D 8D QD 2H 3H TC", upcard="TD"),
               "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert "P2 layoff 9H on P1#1" in rnd.legal_actions()  # before showing, 9H may go on 5H-8H
    play(rnd, "P2 meld [9H TH JH] [KS KH KD] [2C 3C 4C]")
    assert listed(rnd) == ["P2 done"]
    refused(rnd, "P2 layoff 9H on P1#1", "in a meld already shown")
    play(rnd, "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (7, 7)
    assert rnd.result.points == (0, 25)  # d <= k: undercut (GR-9.2)


TIE_7 = ({"{N}": GR15_KNOCKER, "{D}": "KS KH KD 2C 3C 4C 9H TH JH 7D"}, "KC 3D 4D 5D 6D 8D QD 2H 3H TC", "TD",
         ["{N} pass", "{D} pass", "{N} draw stock", "{N} knock KC [5H 6H 7H 8H] [9C 9D 9S]",
          "{D} meld [9H TH JH] [KS KH KD] [2C 3C 4C]", "{D} done"])
"""k = d = 7: an undercut by default (GR-9.2), no score with undercut_on_tie = false."""


def test_gr2_3_tie_that_scores_nothing_is_not_void() -> None:
    """GR-2.3, GR-9.2 undercut_on_tie = false: a knock tied at 7 scores nothing, but it is
    not a void round, so the deal alternates as usual (GR-2.2)."""
    path = house("gin_no_tie_undercut", "gin_rummy", "options: {undercut_on_tie: {value: false}}\n")
    game = game_of(path, dealer=1)
    scripted_round(game, *TIE_7)
    result = game.results[-1]
    assert result.points == (0, 0) and not result.void and result.winner is None
    assert game.dealer == 0


def test_gr9_2_tie_is_an_undercut_by_default() -> None:
    """GR-9.2 (undercut_on_tie = true): k = d = 7: the defender scores 0 + 25."""
    game = game_of("gin_rummy", dealer=1)
    scripted_round(game, *TIE_7)
    assert game.results[-1].points == (0, 25) and game.results[-1].undercut


def test_gr9_3_gin_cannot_be_undercut() -> None:
    """GR-9.3: gin against a defender who also has no deadwood (AC-4C, KKK, TH-QH): the
    knocker scores 25 + 0; d = 0 does not undercut a gin."""
    rnd = play(gin(p1=GIN_KNOCKER, p2="KS KH KD 2C 3C 4C TH JH QH AC", stock="KC 3D 4D 5D", upcard="TD"),
               "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    assert rnd.result is not None and rnd.result.ending == "gin"
    assert rnd.result.deadwoods == (0, 0) and rnd.result.points == (25, 0) and not rnd.result.undercut


# ---------------------------------------------------------------------------- GR-2.1, GR-12, GR-14, GS-7.4

@pytest.mark.parametrize(("variant_id", "stock"), [("gin_rummy", 31), ("skarney_gin", 32), ("ginski", 39),
                                                   ("ginski_four", 29)])
def test_gr2_1_deal_one_card_at_a_time_from_the_dealer_left(variant_id: str, stock: int) -> None:
    """GR-2.1, SK-2.1, GS-2.3: the shuffled pack is dealt one card at a time starting left of
    the dealer, then the upcard (where there is one); the rest is the stock, top card next."""
    variant = load_variant(variant_id)
    cards = list(variant.deck.cards)
    random.Random(4).shuffle(cards)
    n = variant.players
    dealer = n - 1
    rnd = Round.deal(variant, random.Random(4), dealer=dealer)
    for k in range(n):
        seat = (dealer + 1 + k) % n
        assert rnd.hands[seat] == cards[k:10 * n:n]
    rest = cards[10 * n:]
    if variant.deal.upcard:
        assert rnd.upcard is rest[0] and rnd.discards == [rest[0]]
        rest = rest[1:]
    assert len(rnd.stock) == stock and rnd.stock[::-1] == rest


def test_gr12_2_ace_upcard_allows_only_gin() -> None:
    """GR-12.2 (oklahoma_ace = gin_only): with an ace upcard a knock needs 0 deadwood."""
    rnd = play(gin("oklahoma_gin", p1="5H 6H 7H 8H 9C 9D 9S 2S 3S AC", upcard="AD", stock="4S 3D 4D"),
               "P1 pass", "P2 pass", "P1 draw stock")
    assert rnd.knock_limit == 0
    play(rnd, "P1 knock AC")
    assert rnd.result is not None and rnd.result.ending == "gin"
    rnd = play(gin("oklahoma_gin", p1="5H 6H 7H 9C 9D 9S 6C 7C 8C AS", upcard="AD", stock="3D 4D 5D"),
               "P1 pass", "P2 pass", "P1 draw stock")
    refused(rnd, "P1 knock 3D", "at most 0 deadwood; 1 would be left")


def test_gr12_3_spade_upcard_doubles_gin_and_bonus() -> None:
    """GR-12.3: a spade upcard doubles every score of the round, bonuses included: (25 + 30) x 2."""
    rnd = play(gin("oklahoma_gin", p1=GIN_KNOCKER, upcard="JS", stock="KC 3D 4D"),
               "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    assert rnd.result is not None and rnd.result.points == (110, 0)


def test_gr14_straight_gin_refuses_any_knock_with_deadwood() -> None:
    """GR-14: knock_limit = 0: GR-15's knock with 7 is refused; gin is allowed."""
    rnd = play(gin("straight_gin"), "P1 pass", "P2 pass", "P1 draw stock")
    refused(rnd, "P1 knock KC", "at most 0 deadwood; 7 would be left")
    assert not any(str(a).startswith("P1 knock") for a in rnd.legal_actions())


TWO_UNDERCUTTERS = {"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 7P 1Y", "P2": GINSKI_HANDS["P2"],
                    "P3": "3G 4G 5G 11Y 11R 11B 12Y 12G 12R 1P"}


@pytest.mark.parametrize(("penalty", "points"), [
    ("bonus_to_undercutter", (26, 0, 26)),
    ("deduct_from_ender", (1, -25, 1)),
    ("both", (26, -25, 26)),
])
def test_gs7_4_undercut_penalty_with_two_undercutters(penalty: str, points: tuple[int, ...]) -> None:
    """GS-7.4: B knocks with 2, A and C both have 1: each scores 2 - 1 (+ 25 to the undercutter);
    with deduct_from_ender / both the ender loses the bonus once, not once per undercutter."""
    path = house(f"ginski_{penalty}", "ginski", f"options: {{undercut_penalty: {{value: {penalty}}}}}\n")
    rnd = position(path, dealer="P1", hands=TWO_UNDERCUTTERS, stock="13R 1R 1G", upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
         "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]", "P3 done", "P1 done")
    assert rnd.result is not None
    assert rnd.result.deadwoods == (1, 2, 1) and rnd.result.points == points and rnd.result.undercut


def test_gs7_4_negative_points_enter_the_game_total() -> None:
    """GS-7.4 deduct_from_ender through Game: the ender's -25 goes into the total."""
    path = house("ginski_deduct_from_ender", "ginski", "options: {undercut_penalty: {value: deduct_from_ender}}\n")
    game = game_of(path, dealer=0)
    rnd = position(path, dealer="P1", hands=TWO_UNDERCUTTERS, stock="13R 1R 1G", upcard="8B")
    game.round = rnd
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
         "P2 knock 13R [4R 5R 6R] [9G 9B *] [10P 11P 12P]", "P3 done", "P1 done")
    game.next_round()
    assert game.scores == (1, -25, 1) and game.round.scores == (1, -25, 1)


# ---------------------------------------------------------------------------- GR-5, GS-5, SK-6.2, SK-10.3

def test_gr5_a_stock_card_may_be_discarded_at_once() -> None:
    """GR-5: a card drawn from the stock may be discarded in the same turn."""
    rnd = play(gin(), "P1 pass", "P2 pass", "P1 draw stock", "P1 discard KC")
    assert [str(c) for c in rnd.discards][-1] == "KC" and rnd.to_move == 1


def test_gs5_discard_taken_card_allowed() -> None:
    """GS-5 discard_taken_card = allowed: the card taken from the pile may go straight back."""
    path = house("gin_taken_allowed", "gin_rummy",
                 "turn:\n  - draw: {from: [stock, discard]}\n  - discard: {taken_card: allowed}\n")
    rnd = play(gin(path), "P1 draw discard")
    assert "P1 discard QD" in rnd.legal_actions()
    play(rnd, "P1 discard QD")
    assert [str(c) for c in rnd.discards] == ["QD"] and rnd.to_move == 1


def test_sk6_2_no_adding_to_the_opponent_melds() -> None:
    """SK-6.2: after both met the contract, a player may not add to the opponent's melds."""
    rnd = position("skarney_gin", dealer="P2",
                   hands={"P1": "4S 5H 6D JC JD JH 8C 9C TC 2H",
                          "P2": "3S 3H 3D QS QH QD 5C 6C 7C 4C"},
                   stock="AD AH KS KH 2D 2S 9D 9S 8H 8D")
    play(rnd, "P1 draw stock", "P1 meld [4S 5H 6D] [JC JD JH] [8C 9C TC]", "P1 done", "P1 offer AD",
         "P2 decline", "P2 draw stock", "P2 meld [3S 3H 3D] [QS QH QD] [5C 6C 7C]")
    refused(rnd, "P2 layoff 4C on P1#3", "may not lay off onto P1's melds")
    assert "P2 layoff 4C on P2#3" in rnd.legal_actions()


def test_sk10_3_stock_end_tie_scores_nothing_and_contract_required() -> None:
    """SK-10.3: at the stock end a tie scores nothing; with stock_end_contract = required the
    lower deadwood scores only if its player met the contract."""
    rnd = position("skarney_gin", dealer="P1", hands={"P1": "KS 8D 3C", "P2": "AC 4S 4H 6S"},
                   stock="4D 2D 2S")
    play(rnd, "P2 draw stock", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (21, 21) and rnd.result.points == (0, 0)
    path = house("sk_contract_required", "skarney_gin", "options: {stock_end_contract: {value: required}}\n")
    rnd = position(path, dealer="P1", hands={"P1": "KS 8D 3C", "P2": "7C 4S 4H"}, stock="4D 2D 2S")
    play(rnd, "P2 draw stock", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (21, 7) and rnd.result.points == (0, 0)


def test_gs6_4_a_wild_of_the_deadwood_is_laid_off_though_another_is_shown() -> None:
    """GS-6.4 (wilds may be laid off), GR-7.1 regression: C shows [3G 4G *] and holds a second
    wild; 'P3 layoff * on P2#1' was listed (the free wild) but its text was refused, because
    '*' named the wild already shown. The free copy is laid off."""
    rnd = position("ginski", dealer="P1", stock="13R 1R 1G 1Y 2G", upcard="8B",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R",
                          "P2": "4R 5R 6R 9G 9B 9Y 10P 11P 12P 2Y",
                          "P3": "3G 4G * * 7Y 13B 1P 11Y 11R 12G"})
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock",
         "P2 knock 13R [4R 5R 6R] [9G 9B 9Y] [10P 11P 12P]", "P3 meld [3G 4G *]")
    assert "P3 layoff * on P2#1" in {str(a) for a in rnd.legal_actions()}
    assert "P3 layoff * on P2#1" in rnd.legal_actions()
    play(rnd, "P3 layoff * on P2#1")
    shown = rnd.declared[2]
    assert shown is not None and any(c.wild for c in shown[0])
    assert any(c.wild for c in rnd.table[1][0].cards)
    assert all(c.wild or c.rank is not None for c in rnd.hands[2])
    assert sum(c.wild for c in rnd.hands[2]) == 1  # the shown wild stays in hand, in its meld
    refused(rnd, "P3 layoff * on P2#1", "in a meld already shown")
