"""Invariants of seeded random and greedy play, checked after every action, for every shipped variant.

Every hand is dealt from ``random.Random(seed)`` and played by seeded agents, so a
failure names its seed and replays exactly. :data:`invariants.LIGHT_HANDS` hands per
variant are checked lightly and :data:`invariants.FULL_HANDS` per variant and agent
kind in full at every step (``RUMMYDSL_SOAK=1`` for a soak run of thousands); whole games check the totals, the dealer's rotation and the
end of the game.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rummydsl.engine import Game, Observation, Round, RoundResult
from rummydsl.scoring import final_figures
from rummydsl.variant import load_variant

from .invariants import (
    FULL_HANDS,
    GAMES,
    LIGHT_HANDS,
    MAX_ROUND_ACTIONS,
    SHIPPED,
    Tally,
    check_conservation,
    check_result,
    check_unlisted,
    play_checked,
    seeded_agents,
)

VARIANTS = Path(__file__).resolve().parents[2] / "variants"
KINDS = ("random", "greedy", "mixed")
MAX_GAME_ROUNDS = 2_000


def test_the_list_of_shipped_variants_is_complete() -> None:
    """The invariant tests cover every file in variants/."""
    assert sorted(SHIPPED) == sorted(p.stem for p in VARIANTS.glob("*.yaml"))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("variant_id", SHIPPED)
def test_every_step_of_seeded_hands(variant_id: str, kind: str) -> None:
    """Conservation, listed actions legal and applicable on a copy, refusals, observations."""
    variant = load_variant(variant_id)
    tally = Tally()
    for seed in range(FULL_HANDS):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        play_checked(rnd, seeded_agents(variant, kind, seed), random.Random(~seed), tally)
    assert tally.hands == FULL_HANDS and tally.refused > 0
    tally.record(f"full[{variant_id}-{kind}]")


def play_light(rnd: Round, agents: list[Any], tally: Tally | None = None) -> RoundResult:
    """Play a round checking the cheap invariants only: cards in place, a legal action to
    take, the agent's choice legal, an end within the bound, the result scored right."""
    views = [Observation(rnd, seat) for seat in range(rnd.players)]
    count = 0
    while rnd.result is None:
        check_conservation(rnd)
        player = rnd.to_move
        assert player is not None
        legal = rnd.legal_actions()
        assert len(legal) > 0
        action = agents[player].act(views[player])
        assert action in legal
        rnd.apply(action)
        count += 1
        assert count <= MAX_ROUND_ACTIONS, f"round {rnd.number} still going after {count} actions"
    check_result(rnd)
    if tally is not None:
        tally.hands += 1
        tally.actions += count
        tally.endings[rnd.result.ending] = tally.endings.get(rnd.result.ending, 0) + 1
    return rnd.result


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_many_seeded_hands_end_and_score_right(variant_id: str) -> None:
    """Many hands (random, greedy and mixed seats): each ends and scores by the variant."""
    variant = load_variant(variant_id)
    tally = Tally()
    for seed in range(LIGHT_HANDS):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        play_light(rnd, seeded_agents(variant, KINDS[seed % 3], seed), tally)
    assert tally.hands == LIGHT_HANDS
    tally.record(f"light[{variant_id}]")


def expected_dealer(game: Game, dealer: int, result: RoundResult) -> int:
    """The next dealer by the rules (GR-2.2, GR-2.3, SK-2.2, GS-2.2), worked out here."""
    deal = game.variant.deal
    n = game.players
    if deal.rotation == "next":
        if result.void and deal.void_redeal == "same_dealer":
            return dealer
        return (dealer + 1) % n
    if result.winner is None:
        return dealer if deal.void_redeal == "same_dealer" else (dealer + 1) % n
    assert n == 2, "winner_deals/loser_deals are checked here for two players"
    return result.winner if deal.rotation == "winner_deals" else 1 - result.winner


class Sheets:
    """An independent score sheet: one game, or Hollywood's several (GR-13)."""

    def __init__(self, count: int, players: int) -> None:
        self.points = [[0] * players for _ in range(count)]
        self.wins = [[0] * players for _ in range(count)]
        self.entries = [[False] * players for _ in range(count)]
        self.closed = [False] * count

    def enter(self, points: tuple[int, ...], hollywood: bool) -> None:
        for player, got in enumerate(points):
            if not got:
                continue
            if not hollywood:
                self.points[0][player] += got
                self.wins[0][player] += got > 0
                continue
            assert got > 0
            opened = False
            for game in range(len(self.points)):
                if self.closed[game]:
                    continue
                if self.entries[game][player] or not opened:
                    opened = opened or not self.entries[game][player]
                    self.entries[game][player] = True
                    self.points[game][player] += got
                    self.wins[game][player] += 1

    def close(self, target: int) -> list[int]:
        """Close the games that reached the target with one leader; the games closed."""
        done = []
        for game, points in enumerate(self.points):
            best = max(points)
            if not self.closed[game] and best >= target and points.count(best) == 1:
                self.closed[game] = True
                done.append(game)
        return done


def play_game_checked(variant_id: str, kind: str, seed: int, tally: Tally | None = None) -> Game:
    """A whole seeded game, with its totals, dealers, closing and figures checked."""
    variant = load_variant(variant_id)
    game = Game(variant, random.Random(seed))
    agents = seeded_agents(variant, kind, seed)
    hollywood = variant.game.hollywood_games is not None
    sheets = Sheets(variant.game.hollywood_games or 1, game.players)
    target = variant.game.target
    match_wins = [0] * game.players
    games_played = 0
    while not game.over:
        rnd = game.round
        assert rnd.number == len(game.results) + 1
        assert rnd.dealer == game.dealer
        open_game = next((g for g in range(len(sheets.points)) if not sheets.closed[g]), -1)
        assert rnd.scores == tuple(sheets.points[open_game]), "the round does not start from the totals"
        result = play_light(rnd, agents, tally)
        dealer = game.dealer
        sheets.enter(result.points, hollywood)
        game.next_round()
        assert len(game.results) <= MAX_GAME_ROUNDS, f"game of seed {seed} still going"
        closed = sheets.close(target)
        if variant.game.match_games_to_win and closed:
            points = sheets.points[0]
            winner = points.index(max(points))
            played = game.finished_games[games_played]
            assert played[0] == winner and played[2] == tuple(points)
            figures = final_figures(variant, dict(enumerate(points)), dict(enumerate(sheets.wins[0])))
            assert played[1] == tuple(figures[p] for p in range(game.players))
            games_played += 1
            match_wins[winner] += 1
            if max(match_wins) < variant.game.match_games_to_win:
                sheets = Sheets(1, game.players)
        if not game.over:
            assert game.round.dealer == expected_dealer(game, dealer, result)
            if not variant.game.match_games_to_win:
                for number, sheet in enumerate(game.sheets):
                    assert sheet.points == sheets.points[number]
                    assert sheet.closed == sheets.closed[number]
    outcome = game.result
    assert outcome is not None
    assert outcome.rounds == len(game.results)
    assert all(sheets.closed), "the game ended with a game still open"
    if variant.game.match_games_to_win:
        assert max(match_wins) == variant.game.match_games_to_win
        assert outcome.games_won == tuple(match_wins)
        assert outcome.winner == match_wins.index(max(match_wins))
        return game
    figures = [final_figures(variant, dict(enumerate(points)), dict(enumerate(wins)))
               for points, wins in zip(sheets.points, sheets.wins)]
    want = tuple(sum(f[p] for f in figures) for p in range(game.players))
    assert outcome.figures == want
    assert outcome.points == tuple(sum(points[p] for points in sheets.points) for p in range(game.players))
    if hollywood:
        won = [0] * game.players
        for points in sheets.points:
            won[points.index(max(points))] += 1
        assert outcome.games_won == tuple(won)
        assert won[outcome.winner] == max(won)
    else:
        assert outcome.winner == sheets.points[0].index(max(sheets.points[0]))
        assert max(sheets.points[0]) >= target
        assert outcome.shutout == all(v == 0 for p, v in enumerate(sheets.points[0]) if p != outcome.winner)
    return game


@pytest.mark.parametrize("kind", ("greedy", "mixed"))
@pytest.mark.parametrize("variant_id", SHIPPED)
def test_seeded_games_total_and_end(variant_id: str, kind: str) -> None:
    """GR-10, GR-11, GR-13, SK-10.4, GS-7.5: totals are sums of round points, dealers rotate by
    the rules, a game ends when (and only when) a sheet reaches its target, figures as GR-10.5."""
    tally = Tally()
    for seed in range(GAMES):
        game = play_game_checked(variant_id, kind, seed, tally)
        assert game.over
        tally.games += 1
    tally.record(f"games[{variant_id}-{kind}]")


SK_TURN = """\
turn:
  - draw: {from: [stock], skip_after_accepting: "rank == A"}
  - meld: {optional: true, add_to_own: true, add_to_opponents: false}
  - offer: {mandatory: false, min_hand: 2, no_reoffer_accepted: true}
"""

HOUSE_RULES = {
    "gin_claim": ("gin_rummy", "stock: {last_discard_claim: true}\n"),                # GR-8
    "ginski_claim": ("ginski", "stock: {last_discard_claim: true}\n"),                # GR-8, GS-6.5
    "gin_no_layoff": ("gin_rummy", "layoff: {onto: none}\n"),                         # GS-6.4
    "gin_no_big_gin": ("gin_rummy", "knock: {big_gin: false}\n"),                     # GR-6.3
    "gin_layoff_after_gin": ("gin_rummy", "layoff: {after_gin: true}\n"),             # GR-7.2 off
    "gin_taken_allowed": ("gin_rummy", "turn:\n  - draw: {from: [stock, discard]}\n"
                                       "  - discard: {taken_card: allowed}\n"),       # GS-5 option
    "gin_floor_5": ("gin_rummy", "stock: {floor: 5}\n"),                              # GR-8 stock_floor
    "ginski_either": ("ginski", "upcard_offer: {after_all_pass: either}\n"),          # GS-4.3
    "ginski_stock_end": ("ginski", "stock: {at_floor: stock_end}\n"),                 # GS-6.5
    "ginski_wild_unique": ("ginski", "meld_options: {wild_unique_card: true}\n"),     # GS-3.3
    "skarney_offer_options": ("skarney_gin", SK_TURN),                                # SK-7.1, SK-7.3
    "skarney_locked": ("skarney_gin", "meld_options: {kind_locked: true}\n"
                                      "contract: {then_meld_same_turn: false}\n"),     # SK-3.4, SK-5.4
    "skarney_final_offer": ("skarney_gin", "stock: {final_turn_skip: []}\n"),         # SK-9.3
    "skarney_concealed": ("skarney_gin", "deadwood: {excludes_concealed_melds: false}\n"),  # SK-10.1
}
"""House rules that select RULES.md's option alternatives, played like the shipped variants."""


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_step_of_house_rule_hands(name: str) -> None:
    """The step invariants hold for the options' alternatives too (mixed and random seats)."""
    from .conftest import house

    parent, body = HOUSE_RULES[name]
    variant = load_variant(house(name, parent, body))
    tally = Tally()
    for seed in range(FULL_HANDS):
        kind = ("mixed", "random")[seed % 2]
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        play_checked(rnd, seeded_agents(variant, kind, seed), random.Random(~seed), tally)
    assert tally.hands == FULL_HANDS
    tally.record(f"house[{name}]")


@pytest.mark.parametrize("variant_id", SHIPPED)
def test_unlisted_melds_and_named_knocks_agree_with_apply(variant_id: str) -> None:
    """At every step of seeded mixed hands, melds and knocks that name their melds (which
    the listing leaves out) are refused by ``apply`` exactly when ``why_illegal`` says so."""
    variant = load_variant(variant_id)
    for seed in range(max(2, FULL_HANDS // 2)):
        rnd = Round.deal(variant, random.Random(seed), dealer=seed % variant.players)
        agents = seeded_agents(variant, "mixed", seed)
        rng = random.Random(seed)
        count = 0
        while rnd.result is None:
            check_unlisted(rnd, rng)
            player = rnd.to_move
            assert player is not None
            rnd.apply(agents[player].act(Observation(rnd, player)))
            count += 1
            assert count <= MAX_ROUND_ACTIONS
