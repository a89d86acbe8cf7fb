"""One test per setting of the language that the engine plays (docs/engine.md maps each
schema key to where it acts and to the test that shows it). House rules are tiny files
that extend a shipped variant and change one key."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rummydsl.agents import make_agents
from rummydsl.engine import Game, Round, play_game, play_round
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .conftest import house, play, position

REPO = Path(__file__).resolve().parents[2]

P1_GIN = "5H 6H 7H 8H 9C 9D 9S AC 2D 4S"
P2_GIN = "KS KH KD 2C 3C 4C 9H 4H QC 7D"
STOCK_GIN = "KC 3D 4D 5D 6D 8D TD JD 2H 3H TH"


def gin(variant: str = "gin_rummy", **kw: str) -> Round:
    return position(variant, dealer="P2", hands={"P1": kw.get("p1", P1_GIN), "P2": kw.get("p2", P2_GIN)},
                    stock=kw.get("stock", STOCK_GIN), upcard=kw.get("upcard", "QD"))


# ------------------------------------------------------------------ players, deck, deal


def test_players_count_deals_every_seat() -> None:
    """players.count (GS-2.1): ginski_four deals four hands of ten from the 70-card deck."""
    rnd = Round.deal(load_variant("ginski_four"), random.Random(1), dealer=0)
    assert [len(h) for h in rnd.hands] == [10, 10, 10, 10]
    assert len(rnd.stock) == 70 - 40 - 1


def test_custom_deck_plays_whole_games() -> None:
    """deck (packs, wilds, a value table): a two-pack, four-joker house game plays to its end."""
    variant = load_variant(str(REPO / "tests" / "examples" / "good" / "two_pack_jokers.yaml"))
    rng = random.Random(4)
    game = Game(variant, rng)
    result = play_game(game, make_agents("greedy", variant.players, rng))
    assert game.over and result.figures[result.winner] >= 150
    rnd = Round.deal(variant, random.Random(2), dealer=0)
    everything = [c.id for h in rnd.hands for c in h] + [c.id for c in rnd.stock] + [c.id for c in rnd.discards]
    assert sorted(everything) == list(range(108))


def test_deal_hand_size_and_order() -> None:
    """deal.hand_size, GR-2.1: one card at a time from the dealer's left; the next card is the upcard."""
    variant = load_variant(house("gin_seven", "gin_rummy", "deal: {hand_size: 7}\n"))
    cards = list(variant.deck.cards)
    random.Random(9).shuffle(cards)
    rnd = Round.deal(variant, random.Random(9), dealer=1)
    assert rnd.hands[0] == cards[0:14:2] and rnd.hands[1] == cards[1:14:2]
    assert rnd.upcard is cards[14] and len(rnd.stock) == 52 - 15


def test_deal_without_upcard_has_no_pile() -> None:
    """deal.upcard false (SK-2.1): no upcard, no discard pile, the non-dealer plays first."""
    rnd = Round.deal(load_variant("skarney_gin"), random.Random(1), dealer=0)
    assert rnd.upcard is None and rnd.discards == [] and rnd.to_move == 1
    assert [str(a) for a in rnd.legal_actions()] == ["P2 draw stock"]


def test_first_dealer_is_drawn_from_the_seed() -> None:
    """deal.first_dealer random (GR-2.1): the same seed, the same first dealer; seeds differ."""
    variant = load_variant("gin_rummy")
    dealers = {Game(variant, random.Random(seed)).dealer for seed in range(20)}
    assert dealers == {0, 1}
    assert Game(variant, random.Random(5)).dealer == Game(variant, random.Random(5)).dealer


@pytest.mark.parametrize(("rotation", "void_redeal", "points", "ending", "expected"), [
    ("next", "same_dealer", (10, 0), "knock", 1),
    ("next", "same_dealer", (0, 0), "void", 0),
    ("next", "rotate", (0, 0), "void", 1),
    ("next", "same_dealer", (0, 0), "knock", 1),     # GR-2.3: a knock nobody scores is not void
    ("winner_deals", "same_dealer", (0, 10), "knock", 1),
    ("winner_deals", "same_dealer", (10, 0), "knock", 0),
    ("loser_deals", "same_dealer", (10, 0), "knock", 1),
    ("loser_deals", "same_dealer", (0, 0), "stock_end", 0),   # SK-2.2: no winner, same dealer
    ("loser_deals", "rotate", (0, 0), "stock_end", 1),
])
def test_deal_rotation_and_void_redeal(rotation: str, void_redeal: str, points: tuple[int, int],
                                       ending: str, expected: int) -> None:
    """deal.rotation, deal.void_redeal (GR-2.2, GR-2.3, SK-2.2): who deals next, the dealer being P1."""
    from rummydsl.engine import RoundResult

    variant = load_variant(house(f"rot_{rotation}_{void_redeal}", "gin_rummy",
                                 f"deal: {{rotation: {rotation}, void_redeal: {void_redeal}}}\n"))
    game = Game(variant, random.Random(0), dealer=0)
    assert game._next_dealer(RoundResult(ending, 0, (5, 5), points)) == expected


# ------------------------------------------------------------------ melds and contracts


def test_kind_locked_refuses_a_change_of_kind() -> None:
    """meld_options.kind_locked (SK-3.4): a run that would become a poker is refused."""
    locked = house("sk_locked", "skarney_gin", "meld_options: {kind_locked: true}\n")
    hands = {"P1": "3S 4S 5S JC JD JH 8C 9C TC 6H", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"}
    for variant, allowed in (("skarney_gin", True), (locked, False)):
        rnd = position(variant, dealer="P2", hands=hands, stock="QD QS KS AH TH 8H 7D 6D 4D")
        play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
        assert ("P1 layoff 6H on P1#1" in rnd.legal_actions()) is allowed


def test_contract_then_meld_same_turn_false() -> None:
    """contract.then_meld_same_turn false (SK-5.4): nothing more goes down in the contract's turn."""
    variant = house("sk_no_more", "skarney_gin", "contract: {then_meld_same_turn: false}\n")
    rnd = position(variant, dealer="P2",
                   hands={"P1": "3S 4S 5S JC JD JH 8C 9C TC 6S", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="QD QS KS AH TH 8H 7D 6D 4D")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
    with pytest.raises(IllegalActionError, match="contract was met"):
        rnd.apply("P1 layoff 6S on P1#1")
    assert rnd.met_contract[0]


def test_contract_met_counts_for_score() -> None:
    """contract.melds: met_contract(p) in the score context follows the lay-down (SK-10.3)."""
    rnd = position("skarney_gin", dealer="P2",
                   hands={"P1": "3S 4S 5S JC JD JH 8C 9C TC KS", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="QD QS 8S AH TH 8H 7D 6D 4D")
    play(rnd, "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
    assert rnd.met_contract == [True, False]


# ------------------------------------------------------------------ the upcard round


def test_upcard_offer_either_lets_the_first_player_take_it_after_all_pass() -> None:
    """upcard_offer.after_all_pass either (GS-4.3): after both pass the first player may take it."""
    either = house("gin_either", "gin_rummy", "upcard_offer: {after_all_pass: either}\n")
    rnd = play(gin(either), "P1 pass", "P2 pass")
    assert "P1 draw discard" in rnd.legal_actions()
    assert "P1 draw discard" not in play(gin(), "P1 pass", "P2 pass").legal_actions()


def test_no_upcard_offer_means_a_normal_first_turn() -> None:
    """upcard_offer null: the first player draws from either pile at once."""
    plain = house("gin_no_offer", "gin_rummy", "upcard_offer: null\n")
    rnd = gin(plain)
    assert rnd.phase.value == "draw" and {str(a) for a in rnd.legal_actions()} == {"P1 draw stock",
                                                                                  "P1 draw discard"}


# ------------------------------------------------------------------ turn steps


def test_draw_from_only_the_stock() -> None:
    """turn[].draw.from [stock] (SK-4.1): the discard pile is not a source."""
    stock_only = house("gin_stock_only", "gin_rummy",
                       "upcard_offer: null\nturn: [draw: {from: [stock]}, discard]\n")
    rnd = gin(stock_only)
    assert [str(a) for a in rnd.legal_actions()] == ["P1 draw stock"]


def test_skip_after_accepting() -> None:
    """turn[].draw.skip_after_accepting (SK-7.3 accepted_ace_skips_draw): taking an offered ace skips the draw."""
    variant = house("sk_ace_skips", "skarney_gin",
                    'turn:\n  - draw: {from: [stock], skip_after_accepting: "rank == A"}\n  - meld\n  - offer\n')
    rnd = position(variant, dealer="P2",
                   hands={"P1": "AS 4S 7S JC JD 2H 8C 9C TC 6H", "P2": "KS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="QD QS 3S AH TH 8H 7D 6D 4D")
    play(rnd, "P1 draw stock", "P1 done", "P1 offer AS", "P2 take")
    assert rnd.to_move == 1 and rnd.phase.value == "meld"  # no draw: straight to melding


def test_meld_step_not_optional() -> None:
    """turn[].meld.optional false: 'done' is refused while something can be put down."""
    variant = house("sk_must_meld", "skarney_gin", "turn: [draw: {from: [stock]}, meld: {optional: false}, offer]\n")
    rnd = position(variant, dealer="P2",
                   hands={"P1": "3S 4S 5S JC JD JH 8C 9C TC 6H", "P2": "AS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="QD QS KS AH TH 8H 7D 6D 4D")
    play(rnd, "P1 draw stock")
    with pytest.raises(IllegalActionError, match="not optional"):
        rnd.apply("P1 done")


def test_meld_add_to_own_and_opponents() -> None:
    """turn[].meld.add_to_own, add_to_opponents (SK-6.1, SK-6.2)."""
    hands = {"P1": "3S 4S 5S JC JD JH 8C 9C TC 6S", "P2": "3H 4H 5H QC QD QH 2C 2D 2S 7C"}
    stock = "KD 6H KS AH TH 8H 7D 6D 4D"
    base = position("skarney_gin", dealer="P1", hands=hands, stock=stock)
    play(base, "P2 draw stock", "P2 meld [3H 4H 5H] [QC QD QH] [2C 2D 2S]", "P2 done", "P2 offer KD", "P1 decline",
         "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
    assert "P1 layoff 6S on P1#1" in base.legal_actions()
    assert "P1 layoff 7C on P2#1" not in base.legal_actions()  # SK-6.2: not onto the opponent's
    both = house("sk_add_to_all", "skarney_gin",
                 "turn: [draw: {from: [stock]}, meld: {add_to_opponents: true}, offer]\n")
    rnd = position(both, dealer="P1", hands=hands, stock=stock)
    play(rnd, "P2 draw stock", "P2 meld [3H 4H 5H] [QC QD QH] [2C 2D 2S]", "P2 done", "P2 offer KD", "P1 decline",
         "P1 draw stock", "P1 meld [3S 4S 5S] [JC JD JH] [8C 9C TC]")
    assert "P1 layoff 6H on P2#1" in rnd.legal_actions()


def test_discard_taken_card_allowed() -> None:
    """turn[].discard.taken_card allowed (GS-5 discard_taken_card): the card taken may be thrown back."""
    allowed = house("gin_taken_ok", "gin_rummy",
                    "turn: [draw: {from: [stock, discard]}, discard: {taken_card: allowed}]\n")
    assert "P1 discard QD" in play(gin(allowed), "P1 draw discard").legal_actions()
    assert "P1 discard QD" not in play(gin(), "P1 draw discard").legal_actions()


def test_offer_not_mandatory_and_min_hand() -> None:
    """turn[].offer.mandatory false, min_hand (SK-7.1, SK-7.3)."""
    hands = {"P1": "AS 4S 7S JC JD 2H 8C 9C TC 6H", "P2": "KS KD KH 5C 5D 2S 9H 2C 6C 7H"}
    optional = house("sk_offer_optional", "skarney_gin",
                     "turn: [draw: {from: [stock]}, meld, offer: {mandatory: false}]\n")
    rnd = play(position(optional, dealer="P2", hands=hands, stock="QD QS 3S AH TH"), "P1 draw stock", "P1 done")
    assert "P1 done" in rnd.legal_actions()
    play(rnd, "P1 done")
    assert rnd.to_move == 1 and rnd.phase.value == "draw"
    big = house("sk_offer_min_12", "skarney_gin", "turn: [draw: {from: [stock]}, meld, offer: {min_hand: 12}]\n")
    rnd = play(position(big, dealer="P2", hands=hands, stock="QD QS 3S AH TH"), "P1 draw stock", "P1 done")
    assert rnd.to_move == 1  # 11 cards < 12: no offer


def test_offer_no_reoffer_accepted() -> None:
    """turn[].offer.no_reoffer_accepted (SK-7.3): the card just accepted may not be offered back."""
    variant = house("sk_no_reoffer", "skarney_gin",
                    "turn: [draw: {from: [stock]}, meld, offer: {no_reoffer_accepted: true}]\n")
    rnd = position(variant, dealer="P2",
                   hands={"P1": "AS 4S 7S JC JD 2H 8C 9C TC 6H", "P2": "KS KD KH 5C 5D 2S 9H 2C 6C 7H"},
                   stock="QD QS 3S AH TH 8H")
    play(rnd, "P1 draw stock", "P1 done", "P1 offer QD", "P2 take", "P2 draw stock", "P2 done")
    assert "P2 offer QD" not in rnd.legal_actions()
    assert "P2 offer KS" in rnd.legal_actions()


# ------------------------------------------------------------------ knocking and lay-offs


def test_knock_limit_and_big_gin_off() -> None:
    """knock.limit (GR-6.1) and knock.big_gin false (GR-6.3): straight gin refuses a knock of 7;
    without big gin a fully melded 11-card hand must still discard."""
    rnd = play(gin("straight_gin"), "P1 pass", "P2 pass", "P1 draw stock")
    with pytest.raises(IllegalActionError, match="at most 0 deadwood"):
        rnd.apply("P1 knock KC")
    no_big = house("gin_no_big", "gin_rummy", "knock: {big_gin: false}\n")
    rnd = play(gin(no_big, p1="5H 6H 7H 8H 9C 9D 9S 2S 3S 4S", stock="5S " + STOCK_GIN),
               "P1 pass", "P2 pass", "P1 draw stock")
    assert "P1 knock" not in rnd.legal_actions()
    with pytest.raises(IllegalActionError, match="big gin is off"):
        rnd.apply("P1 knock")


def test_no_knocking() -> None:
    """knock null (SK-8): no knock is ever listed or accepted."""
    rnd = play(Round.deal(load_variant("skarney_gin"), random.Random(3), dealer=0), "P2 draw stock")
    assert not any(str(a).split()[1] == "knock" for a in rnd.legal_actions())


def test_layoff_onto_none_and_after_gin() -> None:
    """layoff.onto none (GS-6.4 layoff): the round is scored at once; layoff.after_gin true: defenders lay off after gin."""
    none = house("gin_no_layoff", "gin_rummy", "layoff: {onto: none}\n")
    rnd = play(gin(none), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    assert rnd.result is not None and rnd.result.deadwoods == (7, 30) and rnd.result.points == (23, 0)
    after = house("gin_layoff_after_gin", "gin_rummy", "layoff: {after_gin: true}\n")
    rnd = play(gin(after, p1="5H 6H 7H 8H 9C 9D 9S 2S 3S 4S"), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    assert rnd.phase.value == "showdown" and "P2 layoff 9H on P1#1" in rnd.legal_actions() or \
        any(str(a).startswith("P2 layoff 9H") for a in rnd.legal_actions())


def test_defender_shows_chosen_melds() -> None:
    """GR-7.1 / C-6: a defender may show melds of a least arrangement; the deadwood is the least
    (showing only KS KH KD still scores 2C 3C 4C as a run); melds that leave more are refused."""
    rnd = play(gin(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]",
               "P2 meld [KS KH KD]", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods[1] == 9 + 4 + 10 + 7
    rnd = play(gin(p2="KS KH KD 2C 3C 4C 5C 4H QC 7D"), "P1 pass", "P2 pass", "P1 draw stock",
               "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]")
    with pytest.raises(IllegalActionError, match="would leave 23 deadwood, but 21 is the least"):
        rnd.apply("P2 meld [KS KH KD] [3C 4C 5C]")


# ------------------------------------------------------------------ the stock floor


def test_stock_floor_final_turn_voids() -> None:
    """stock.floor, stock.at_floor void (GR-8): the discard after the draw that leaves 2 voids the round."""
    rnd = play(gin(stock="KC 3D 2H"), "P1 pass", "P2 pass", "P1 draw stock")
    assert rnd.final_turn and len(rnd.stock) == 2
    play(rnd, "P1 discard KC")
    assert rnd.result is not None and rnd.result.ending == "void" and rnd.result.points == (0, 0)


def test_stock_floor_other_value() -> None:
    """stock.floor 4: the final turn comes with four cards left."""
    variant = house("gin_floor_4", "gin_rummy", "stock: {floor: 4}\n")
    rnd = play(gin(variant, stock="KC 3D 2H 3H 4D"), "P1 pass", "P2 pass", "P1 draw stock")
    assert rnd.final_turn and len(rnd.stock) == 4


def test_stock_end_scores_lowest_deadwood() -> None:
    """stock.at_floor stock_end (GS-6.5 stock_end = lowest_deadwood): the round is scored, not void."""
    variant = house("gs_stock_end", "ginski", "stock: {at_floor: stock_end}\n")
    rnd = position(variant, dealer="P1",
                   hands={"P1": "1B 2B 3B 10R 10G 10Y 5P 6P 13G 2R",
                          "P2": "4R 5R 6R 9G 9B 7B 10P 11P 12P 2Y",
                          "P3": "3G 4G 5G 7R 9Y 13B 1P 11Y 11R 12G"},
                   stock="13R 1R 1G", upcard="8B")
    play(rnd, "P2 pass", "P3 pass", "P1 pass", "P2 draw stock", "P2 discard 13R")
    assert rnd.result is not None and rnd.result.ending == "stock_end"
    assert rnd.result.deadwoods == (26, 27, 64)   # P2 kept 9G 9B 7B 2Y
    assert rnd.result.points == ((27 - 26) + (64 - 26), 0, 0)


def test_final_turn_skip_normal_keeps_the_offer() -> None:
    """stock.final_turn_skip [] (SK-9.3 final_turn_offer = normal): the final turn still offers."""
    normal = house("sk_final_offer", "skarney_gin", "stock: {final_turn_skip: []}\n")
    hands = {"P1": "KS 8D 3C", "P2": "7C 4S 4H"}
    rnd = play(position(normal, dealer="P1", hands=hands, stock="4D 2D 2S"), "P2 draw stock", "P2 done")
    assert rnd.phase.value == "offer"
    rnd = play(position("skarney_gin", dealer="P1", hands=hands, stock="4D 2D 2S"), "P2 draw stock", "P2 done")
    assert rnd.result is not None


def test_last_discard_claim() -> None:
    """stock.last_discard_claim (GR-8): the final discard may be claimed only to knock at once."""
    claim = house("gin_claim", "gin_rummy", "stock: {last_discard_claim: true}\n")
    # P1 draws the third-to-last card and discards 7S; P2 can knock with it (7S 7D 7C).
    rnd = play(gin(claim, p2="KS KH KD 2C 3C 4C 7D 7C QC AD", stock="7S 3D 2H"),
               "P1 pass", "P2 pass", "P1 draw stock", "P1 discard 7S")
    assert rnd.phase.value == "claim" and "P2 draw discard" in rnd.legal_actions()
    play(rnd, "P2 draw discard")
    assert {str(a).split()[1] for a in rnd.legal_actions()} == {"knock"}
    play(rnd, "P2 knock QC", "P1 done")
    assert rnd.result is not None and rnd.result.ending == "knock" and rnd.result.ender == 1


# ------------------------------------------------------------------ scoring and the game


def test_deadwood_excludes_concealed_melds_false() -> None:
    """deadwood.excludes_concealed_melds false (SK-10.1): every card in hand counts at the end."""
    counted = house("sk_all_count", "skarney_gin", "deadwood: {excludes_concealed_melds: false}\n")
    hands = {"P1": "KS 8D 3C", "P2": "7C 4S 4H"}
    rnd = play(position(counted, dealer="P1", hands=hands, stock="4D 2D 2S"), "P2 draw stock", "P2 done")
    assert rnd.result is not None and rnd.result.deadwoods == (21, 19) and rnd.result.points == (0, 2)


def test_options_and_scoring_cases() -> None:
    """options, scoring.let/round/multiplier (GR-9, GR-12.3): Oklahoma's spade doubles through the multiplier."""
    plain = play(gin(), "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]", "P2 done")
    assert plain.result is not None and plain.result.points == (23, 0)
    bonus = house("gin_bonus_20_okla", "oklahoma_gin", "options: {gin_bonus: {value: 20}}\n")
    rnd = play(gin(bonus, p1="5H 6H 7H 8H 9C 9D 9S 2S 3S 4S", upcard="7S"), "P1 pass", "P2 pass",
               "P1 draw stock", "P1 knock KC")
    assert rnd.result is not None and rnd.result.points == ((20 + 30) * 2, 0)


def test_game_target_bonus_boxes_and_shutout() -> None:
    """game.target, game_bonus, box_bonus, shutout (GR-10): a one-round game to 20, P2 shut out."""
    short = house("gin_to_20", "gin_rummy", "game: {target: 20}\n")
    game = Game.resume(load_variant(short), gin(short, p1="5H 6H 7H 8H 9C 9D 9S 2S 3S 4S"))
    play(game.round, "P1 pass", "P2 pass", "P1 draw stock", "P1 knock KC")
    game.next_round()
    assert game.over and game.result is not None and game.result.winner == 0
    assert game.result.figures == ((55 + 100 + 25) * 2, 0)


def test_hollywood_games_and_match() -> None:
    """game.hollywood (GR-13) and game.match (GR-11): whole sheets and matches play to their end."""
    for variant_id in ("hollywood_gin", "tournament_gin"):
        variant = load_variant(variant_id)
        rng = random.Random(11)
        game = Game(variant, rng)
        result = play_game(game, make_agents("greedy", 2, rng))
        if variant_id == "hollywood_gin":
            assert len(game.sheets) == 3 and all(sheet.closed for sheet in game.sheets)
        else:
            assert max(result.games_won) == 3


def test_play_round_with_random_agents_ends() -> None:
    """Every shipped variant: a random round ends with a result."""
    from rummydsl.variant import shipped_variant_ids

    for variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
        rng = random.Random(1)
        rnd = Round.deal(variant, rng, dealer=0)
        assert play_round(rnd, make_agents("random", variant.players, rng)).ending
