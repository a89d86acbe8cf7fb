"""Contract Rummy's constructs in play (CR-2 to CR-6): a game of a fixed number of deals
won by the lowest total, a contract by deal, only lay-offs after going down, buying the
top discard; and seeded games of contract_rummy played to the end by both agents."""

from __future__ import annotations

import random

import pytest

from rummydsl.agents import make_agents
from rummydsl.endings import Ending
from rummydsl.engine import Game, Round, RoundResult, play_game
from rummydsl.engine.observe import Observation
from rummydsl.errors import IllegalActionError
from rummydsl.variant import load_variant

from .conftest import house, play, position

#: Four hands of ten (P1 holds two sets and a run), a stock, an upcard: deal 1 of contract_rummy.
HANDS = {"P1": "7S 7H 7D KS KH KD 4C 5C 6C 8C", "P2": "2S 3S 9H TD JC QH 2D 5H 9S AC",
         "P3": "3H 4H 8S 8D TC JH QS 2C 5D 6D", "P4": "AS 4S 6S TS JS QD AH 6H 9D 3C"}
STOCK = "KC 2H 3D 4D 7C 9C TH JD QC AD 8H 5S"
UPCARD = "7C"


def deal(number: int = 1, variant: str = "contract_rummy", **kw: str) -> Round:
    hands = {seat: kw.get(seat.lower(), cards) for seat, cards in HANDS.items()}
    return position(variant, dealer="P4", hands=hands, stock=kw.get("stock", STOCK),
                    upcard=kw.get("upcard", UPCARD), number=number)


def finish(game: Game, points: tuple[int, ...]) -> None:
    """End the current round of ``game`` with ``points`` (a stand-in for playing it) and go on."""
    game.round.result = RoundResult(Ending.OUT, 0, (0,) * len(points), points)
    game.next_round()


# ------------------------------------------------------------------ game.deals, game.winner


def test_game_deals_ends_after_the_last_deal_and_lowest_wins() -> None:
    """game.deals and game.winner lowest (CR-2, CR-6): seven deals, then the lowest total wins."""
    game = Game(load_variant("contract_rummy"), random.Random(1))
    for number in range(1, 8):
        assert not game.over and game.round.number == number
        finish(game, (10, 0, 25, 5))
    assert game.over and game.result is not None
    assert game.result.winner == 1 and game.result.rounds == 7
    assert game.result.figures == (70, 0, 175, 35) and game.result.margin == 35


def test_game_deals_tie_goes_to_the_first_seat() -> None:
    """After the last deal a tie for the lowest total goes to the tied player first in seat order."""
    game = Game(load_variant("contract_rummy"), random.Random(1))
    for _ in range(7):
        finish(game, (0, 5, 5, 5) if _ == 0 else (5, 0, 0, 5))
    assert game.result is not None and game.result.winner == 1  # P2 and P3 tie on 5: P2 sits first


def test_game_winner_lowest_with_a_target() -> None:
    """game.winner lowest with a target: the game ends when a total reaches it; the lowest wins."""
    variant = load_variant(house("gin_lowest", "gin_rummy",
                                 "game: {winner: lowest, game_bonus: 0, box_bonus: 0, shutout: none}\n"))
    game = Game(variant, random.Random(1))
    finish(game, (0, 60))
    assert not game.over
    finish(game, (30, 45))
    assert game.result is not None and game.result.winner == 0 and game.result.figures == (30, 105)


def test_game_deals_with_a_target_ends_at_whichever_comes_first() -> None:
    """game.deals with a target: the target reached before the last deal ends the game."""
    variant = load_variant(house("gin_deals_3", "gin_rummy", "game: {deals: 3}\n"))
    game = Game(variant, random.Random(1))
    finish(game, (120, 0))
    assert game.result is not None and game.result.rounds == 1 and game.result.winner == 0
    game = Game(variant, random.Random(1))
    for _ in range(3):
        finish(game, (10, 20))
    assert game.result is not None and game.result.rounds == 3 and game.result.winner == 1


def test_round_is_the_deal_number_within_each_game_of_a_match() -> None:
    """``round`` is the deal number in its game: the next game of a match (GR-11) starts at 1."""
    variant = load_variant(house("gin_match_deals", "gin_rummy", "game: {deals: 2, match: {games_to_win: 2}}\n"))
    game = Game(variant, random.Random(1))
    numbers = []
    for _ in range(4):
        numbers.append(game.round.number)
        finish(game, (30, 0))
    assert numbers == [1, 2, 1, 2] and game.over


# ------------------------------------------------------------------ the contract by deal


def test_contract_by_deal_reads_round() -> None:
    """contract.melds reads round (CR-2): two sets meet deal 1's contract, not deal 3's (two runs)."""
    two_sets = "P1 meld [7S 7H 7D] [KS KH KD]"
    rnd = play(deal(1), "P1 draw discard")
    rnd.apply(two_sets)
    assert rnd.met_contract[0]
    rnd = play(deal(3), "P1 draw discard")
    with pytest.raises(IllegalActionError, match="must meet the contract"):
        rnd.apply(two_sets)
    assert not rnd.met_contract[0] and len(rnd.hands[0]) == 11


def test_contract_by_deal_is_exact() -> None:
    """CR-3: the first lay-down is the contract exactly; an extra meld is refused."""
    rnd = play(deal(1), "P1 draw discard")
    with pytest.raises(IllegalActionError, match="must meet the contract"):
        rnd.apply("P1 meld [7S 7H 7D] [KS KH KD] [4C 5C 6C 7C]")


def test_the_solver_judges_the_contract_of_its_deal() -> None:
    """The meld solver of a round judges that deal's contract (hand cases name the deal)."""
    hand = "7S 7H 7D KS KH KD 4C 5C 6C 8C"
    assert Round.from_setup  # a position names its deal through ``number``
    assert deal(1).rules.solve(deal(1).variant.deck.parse_cards(hand)).contract
    assert not deal(3).rules.solve(deal(3).variant.deck.parse_cards(hand)).contract


# ------------------------------------------------------------------ new_melds_after, then_meld_same_turn


def test_contract_new_melds_after_false_only_lays_off() -> None:
    """contract.new_melds_after false (CR-3): after going down no new meld, from the next turn on
    lay-offs (then_meld_same_turn false), and no lay-off in the turn of going down."""
    rnd = play(deal(1, stock="2H 3D 4D 7C 9C TH JD QC AD 8H 5S KC"),
               "P1 draw discard", "P1 meld [7S 7H 7D] [KS KH KD]")
    with pytest.raises(IllegalActionError, match="contract was met"):
        rnd.apply("P1 layoff 7C on P1#1")
    play(rnd, "P1 done", "P1 discard 8C")
    for seat, card in ((2, "2H"), (3, "3D"), (4, "4D")):
        play(rnd, f"P{seat} draw stock", *[f"P{(seat + k - 1) % 4 + 1} pass" for k in (1, 2, 3)],
             f"P{seat} done", f"P{seat} discard {card}")
    play(rnd, "P1 draw stock", "P2 pass", "P3 pass", "P4 pass")
    assert "P1 layoff 7C on P1#1" in rnd.legal_actions()
    with pytest.raises(IllegalActionError, match="only lays off"):
        rnd.apply("P1 meld [4C 5C 6C 7C]")
    rnd.apply("P1 layoff 7C on P1#1")
    assert [len(m.cards) for m in rnd.table[0]] == [4, 3]


def test_contract_new_melds_after_true_lets_more_melds_down() -> None:
    """contract.new_melds_after true (the default): a later turn may put down new melds."""
    variant = house("cr_new_melds", "contract_rummy", "contract: {new_melds_after: true}\n")
    rnd = play(deal(1, variant, stock="2H 3D 4D 9C TH JD QC AD 8H 5S KC 7C"),
               "P1 draw discard", "P1 meld [7S 7H 7D] [KS KH KD]", "P1 done", "P1 discard 8C")
    for seat, card in ((2, "2H"), (3, "3D"), (4, "4D")):
        play(rnd, f"P{seat} draw stock", *[f"P{(seat + k - 1) % 4 + 1} pass" for k in (1, 2, 3)],
             f"P{seat} done", f"P{seat} discard {card}")
    play(rnd, "P1 draw stock", "P2 pass", "P3 pass", "P4 pass")
    assert "P1 meld [4C 5C 6C 7C]" in rnd.legal_actions()


# ------------------------------------------------------------------ buying


def test_buying_first_on_the_left_buys_with_a_penalty_card() -> None:
    """buying (CR-4): as P1 draws from the stock, P2, P3, P4 in turn may buy the discard; the
    first to buy takes it and the stock's top card; then P1 draws the next stock card."""
    rnd = play(deal(1), "P1 draw stock")
    assert rnd.phase.value == "buy" and rnd.to_move == 1 and rnd.turn_player == 0
    assert {str(a) for a in rnd.legal_actions()} == {"P2 buy", "P2 pass"}
    play(rnd, "P2 pass", "P3 buy")
    assert len(rnd.hands[2]) == 12 and {"7C", "KC"} <= {str(c) for c in rnd.hands[2]}
    assert [str(c) for c in rnd.known[2]] == ["7C"]  # the bought card was face up
    assert rnd.phase.value == "meld" and rnd.to_move == 0 and str(rnd.hands[0][-1]) == "2H"
    assert rnd.bought == [0, 0, 1, 0] and rnd.discards == []


def test_buying_refuses_other_actions_and_nobody_after_a_buyer() -> None:
    """In the buy phase only 'buy' and 'pass' are legal; after a buy nobody else is asked."""
    rnd = play(deal(1), "P1 draw stock")
    with pytest.raises(IllegalActionError, match="may buy the discard"):
        rnd.apply("P2 discard 2S")
    with pytest.raises(IllegalActionError, match="P2's move"):
        rnd.apply("P3 buy")
    rnd.apply("P2 buy")
    assert rnd.to_move == 0 and rnd.phase.value == "meld"


def test_buying_per_deal_limits_each_player() -> None:
    """buying.per_deal (CR-4 buys_per_deal): a player who has bought that many is not asked."""
    variant = house("cr_buys_1", "contract_rummy", "options: {buys_per_deal: {value: 1}}\n")
    rnd = play(deal(1, variant), "P1 draw stock", "P2 buy", "P1 done", "P1 discard 8C", "P2 draw stock")
    assert rnd.buy_limit == 1 and rnd.bought == [0, 1, 0, 0] and rnd.buy_queue == [2, 3, 0]
    play(rnd, "P3 pass", "P4 pass", "P1 pass", "P2 done", "P2 discard 2S", "P3 draw stock")
    assert rnd.buy_queue == [3, 0]  # P2 has made their one buy: not asked


def test_buying_none_near_the_stock_floor() -> None:
    """No buy when the stock cannot give the penalty card and the mover's card above its floor."""
    rnd = play(deal(1, stock="KC 2H"), "P1 draw stock")
    assert rnd.phase.value == "meld" and str(rnd.hands[0][-1]) == "KC"


def test_buying_shows_in_the_observation() -> None:
    """The observation shows the buy limit, the buys made and whose turn it is (protocol)."""
    rnd = play(deal(1), "P1 draw stock")
    seen = Observation(rnd, 1).as_json()
    assert seen["phase"] == "buy" and seen["legal"] == ["P2 buy", "P2 pass"]
    assert seen["buying"] == {"limit": 3, "bought": {"P1": 0, "P2": 0, "P3": 0, "P4": 0}, "turn_player": "P1"}
    assert "buying" not in Observation(position("gin_rummy", dealer="P2", hands={"P1": "AS", "P2": "2S"},
                                                stock="3S 4S 5S"), 0).as_json()


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("agents", ["greedy", "random", "greedy,random"])
@pytest.mark.parametrize("seed", [1, 2])
def test_contract_rummy_seeded_games_play_to_the_end(agents: str, seed: int) -> None:
    """Seeded games of contract_rummy end after seven deals; the lowest total wins (CR-2, CR-6)."""
    variant = load_variant("contract_rummy")
    game = Game(variant, random.Random(seed))
    result = play_game(game, make_agents(agents, game.players, random.Random(seed)))
    assert result.rounds == 7 and len(game.results) == 7
    assert result.figures[result.winner] == min(result.figures)
    assert all(r.ending in (Ending.OUT, Ending.VOID) for r in game.results)


def test_greedy_beats_random_at_contract_rummy() -> None:
    """The greedy agent works towards each deal's contract: over a few seeded games against
    random agents it goes out more often and ends lower (CR-2 to CR-5)."""
    variant = load_variant("contract_rummy")
    greedy_total = random_total = 0
    outs = [0, 0, 0, 0]
    for seed in range(3):
        game = Game(variant, random.Random(seed))
        result = play_game(game, make_agents("greedy,random", game.players, random.Random(seed)))
        greedy_total += result.figures[0]
        random_total += sum(result.figures[1:]) // 3
        for r in game.results:
            if r.ender is not None:
                outs[r.ender] += 1
    assert greedy_total < random_total and outs[0] > max(outs[1:])


def test_contract_rummy_deals_ten_then_twelve_cards() -> None:
    """CR-2: ten cards each in deals 1 to 4, twelve in deals 5 to 7."""
    variant = load_variant("contract_rummy")
    sizes = [len(Round.deal(variant, random.Random(number), dealer=0, number=number).hands[1])
             for number in range(1, 8)]
    assert sizes == [10, 10, 10, 10, 12, 12, 12]
