"""A whole game of a variant: rounds to the target, the dealer's rotation, the final figures.

:class:`Game` deals rounds with one ``random.Random`` (the same seed gives the
same game everywhere), adds each round's points, rotates the deal by
``deal.rotation`` and ``deal.void_redeal``, and ends as ``game`` says: the
first total to reach the target (a tie for highest plays on, GS-7.5), with the
game bonus, boxes and shutout of GR-10 settled by
:func:`rummydsl.scoring.final_figures`. Two settings change what "a game" is:

- a shared score sheet (``Game.shared_sheet`` of the model, GR-13): several
  games run on one sheet; each round's points go into every open game where the
  player already has an entry, plus the lowest-numbered open game where they
  have none; each game closes at its target and is settled on its own entries;
  play stops when all are closed.
- ``game.match`` (GR-11): games are played until a player has won
  ``games_to_win`` of them; the match is the unit played.

``game.deals`` (CR-2) ends a game after that many deals (with a target too, at
whichever comes first), and ``game.winner: lowest`` (CR-6) makes the lowest
total win. A round's number is the deal number within its game: a match's next
game starts again at 1.

A game in progress is saved and resumed by :func:`rummydsl.save.save_game` and
:func:`rummydsl.save.load_game` (the save module sits above the engine: it saves the
agents too).

docs/engine.md has a worked example (tested with the docs).
"""

from __future__ import annotations

import copy
import random
from dataclasses import InitVar, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Sequence

from ..errors import ExpressionError, StalledGameError
from ..limits import MAX_ACTIONS, MAX_ROUNDS
from ..scoring import SHEET_SETTING, final_figures, held_total
from .actions import Action, player_name
from .round import Round, RoundResult
from .seating import dealer_for, deal_view, who_sits_out
from .state import PastRound

if TYPE_CHECKING:
    from ..cards import Card
    from ..variant.model import Variant

__all__ = ["Sheet", "Game", "GameResult"]


@dataclass
class Sheet:
    """One game's column of a score sheet: totals, won hands, closed or not."""

    points: list[int]
    wins: list[int]
    entries: list[bool]
    """Whether each player has an entry in this game (a shared sheet, GR-13)."""
    closed: bool = False
    winner: int | None = None
    figures: tuple[int, ...] = ()
    """The final figures once closed (GR-10.5)."""

    @classmethod
    def empty(cls, players: int) -> Sheet:
        return cls([0] * players, [0] * players, [False] * players)

    def as_json(self) -> dict[str, Any]:
        return {
            "points": {player_name(p): v for p, v in enumerate(self.points)},
            "wins": {player_name(p): v for p, v in enumerate(self.wins)},
            "closed": self.closed,
            "winner": None if self.winner is None else player_name(self.winner),
            "figures": {player_name(p): v for p, v in enumerate(self.figures)},
        }


@dataclass(frozen=True)
class GameResult:
    """How a finished game (or match, or shared sheet) came out."""

    winner: int
    """The winner: of the game, the match, or the most games of a shared sheet."""
    figures: tuple[int, ...]
    """Each player's final figure (summed over a shared sheet's games; a match: its last game)."""
    points: tuple[int, ...]
    """Each player's hand points (summed likewise)."""
    rounds: int
    games_won: tuple[int, ...] = ()
    """Games won by each player (a match or a shared sheet; one game: 1 for the winner)."""
    shutout: bool = False
    lowest: bool = False
    """Whether the lowest figure won (``game.winner: lowest``, CR-6)."""

    @property
    def margin(self) -> int:
        """The winner's figure less the best other figure (GR-10.5); when the lowest
        figure wins (CR-6), the best other figure less the winner's."""
        others = [f for p, f in enumerate(self.figures) if p != self.winner]
        if self.lowest:
            return (min(others) if others else 0) - self.figures[self.winner]
        return self.figures[self.winner] - (max(others) if others else 0)

    def as_json(self) -> dict[str, Any]:
        return {
            "winner": player_name(self.winner),
            "figures": {player_name(p): v for p, v in enumerate(self.figures)},
            "points": {player_name(p): v for p, v in enumerate(self.points)},
            "rounds": self.rounds,
            "games_won": {player_name(p): v for p, v in enumerate(self.games_won)},
            "margin": self.margin,
            "shutout": self.shutout,
        }


@dataclass
class Game:
    """A game in play. :attr:`round` is the round being played; call
    :meth:`next_round` once it is over (or let :func:`~rummydsl.engine.play.play_game` drive)."""

    variant: Variant
    rng: random.Random
    players: int = 0
    dealer: int = -1
    max_rounds: int = MAX_ROUNDS
    """The most rounds of one game (of a match: of each game); :meth:`next_round`
    raises :class:`~rummydsl.errors.StalledGameError` rather than deal one more."""
    round: Round = field(init=False)
    sheets: list[Sheet] = field(init=False)
    results: list[RoundResult] = field(init=False, default_factory=list)
    games_won: list[int] = field(init=False)
    finished_games: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = field(init=False, default_factory=list)
    """For a match: (winner, figures, points) of each game played."""
    result: GameResult | None = field(init=False, default=None)
    sat_out: int | None = field(init=False, default=None)
    """The seat sitting out the current round (``deal.sit_out``, G3-1), or None."""
    stalled: str | None = field(init=False, default=None)
    """Why the game stopped short of its end (:data:`max_rounds` reached), else None."""
    past: tuple[PastRound, ...] = field(init=False, default=(), repr=False)
    """The rounds of the current game played so far (of a match: of the game in play), first
    first; each round dealt is given them (:attr:`Round.earlier <rummydsl.engine.round.Round.earlier>`)."""
    _game_start: int = field(init=False, default=0, repr=False)
    """How many rounds were played before the current game of a match began."""
    deal_first: InitVar[bool] = True
    """Deal the first round now from :attr:`rng` (false: the caller deals it with
    :meth:`deal`, as :class:`~rummydsl.engine.match.Match` does when cards are chance outcomes)."""

    def __post_init__(self, deal_first: bool) -> None:
        if not self.players:
            self.players = self.variant.players
        if self.dealer < 0:
            self.dealer = self.rng.randrange(self.players)  # GR-2.1: first dealer at random
        self.games_won = [0] * self.players
        self._new_sheets()
        self.sat_out, self.dealer = self._seating(None, self.dealer)
        if deal_first:
            self.round = self._deal()

    def copy(self) -> Game:
        """An independent copy of the game's own state: its sheets, results and generator.
        The current round is shared (a :class:`~rummydsl.engine.match.Match` never changes
        a round in place once another state holds it)."""
        other = copy.copy(self)
        other.rng = copy.copy(self.rng)
        other.sheets = [Sheet(list(s.points), list(s.wins), list(s.entries), s.closed, s.winner, s.figures)
                        for s in self.sheets]
        other.results = list(self.results)
        other.games_won = list(self.games_won)
        other.finished_games = list(self.finished_games)
        return other

    @classmethod
    def resume(cls, variant: Variant, rnd: Round, *, scores: Sequence[int] | None = None,
               wins: Sequence[int] | None = None, rng: random.Random | None = None) -> Game:
        """A game whose current round is ``rnd`` (a fixed position, a replayed deal),
        with these game totals and won hands before it; later rounds are dealt from ``rng``."""
        game = cls(variant, rng or random.Random(0), players=rnd.players, dealer=rnd.dealer)
        game.round = rnd
        game.dealer = rnd.dealer
        game.sat_out = rnd.sat_out
        sheet = game.sheets[0]
        if scores is not None:
            sheet.points = list(scores)
            sheet.entries = [v != 0 for v in scores]
        if wins is not None:
            sheet.wins = list(wins)
        game.results = []
        game._game_start = 1 - rnd.number  # ``rnd`` is deal number rnd.number of its game (CR-2)
        return game

    # ------------------------------------------------------------------ reading

    @property
    def over(self) -> bool:
        """Whether the whole game (match, shared sheet) has ended."""
        return self.result is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """The totals of the first open game (the game total for a plain game)."""
        for sheet in self.sheets:
            if not sheet.closed:
                return tuple(sheet.points)
        return tuple(self.sheets[-1].points)

    # ------------------------------------------------------------------ flow

    def _new_sheets(self) -> None:
        count = self.variant.game.shared_sheet or 1
        self.sheets = [Sheet.empty(self.players) for _ in range(count)]
        self._game_start = len(self.results)
        self.past = ()

    def _deal(self) -> Round:
        rnd = Round.deal(self.variant, self.rng, dealer=self.dealer, players=self.players,
                         scores=self.scores, number=len(self.results) - self._game_start + 1, sat_out=self.sat_out)
        rnd.earlier = self.past
        return rnd

    def deal(self, cards: Sequence[Card]) -> None:
        """Deal the round due next (the first, or the one after :meth:`next_round` with
        ``deal=False``) in the order ``cards`` instead of shuffling (:meth:`Round.deal_cards`)."""
        self.round = Round.deal_cards(self.variant, cards, dealer=self.dealer, players=self.players,
                                      scores=self.scores, number=len(self.results) - self._game_start + 1,
                                      sat_out=self.sat_out)
        self.round.earlier = self.past

    def _seating(self, last: Round | None, dealer: int) -> tuple[int | None, int]:
        """G3-1, G3-2: who sits out the next deal (``deal.sit_out``; None without it) and
        its dealer (the seat sitting out with ``rotation: sitter``, else ``dealer``);
        ``last`` is the round just played (None before the first). Changes nothing.

        :raises ExpressionError: when ``deal.sit_out`` fails (quoting it).
        """
        if self.variant.deal.sit_out is None:
            return None, dealer
        if last is None:
            view = deal_view(self.players, 1, dealer, self.scores)
        else:
            assert last.result is not None
            view = deal_view(self.players, last.number + 1, last.dealer, self.scores,
                             last.result, last.seated, last.sat_out)
        sat_out = who_sits_out(self.variant, view)
        return sat_out, dealer_for(self.variant, dealer, sat_out)

    def next_round(self, deal: bool = True) -> None:
        """Record the finished round, settle what it closes, and deal the next (if any;
        with ``deal=False`` the next is only made due: the caller deals it with :meth:`deal`).

        :raises RuntimeError: if the round is not over or the game is.
        :raises StalledGameError: when the current game has had :attr:`max_rounds`
            rounds and goes on: the round is recorded, no other is dealt, and
            every later call raises the same.
        :raises ExpressionError: when ``deal.sit_out`` fails for the next deal: the
            round is recorded, no other is dealt, later calls raise StalledGameError.
        """
        if self.stalled is not None:
            raise StalledGameError(self.stalled)
        result = self.round.result
        if result is None or self.over:
            raise RuntimeError("next_round() needs a finished round of a game still in play")
        self._enter(result)  # may refuse a total past its limit: then nothing is recorded
        self.results.append(result)
        rnd = self.round
        self.past = (*self.past, PastRound(rnd.number, tuple(rnd.actions), rnd.face_down is not None, result))
        self._settle()
        if self.over:
            return
        played = len(self.results) - self._game_start
        if played >= self.max_rounds:
            totals = ", ".join(f"{player_name(p)} {v}" for p, v in enumerate(self.scores))
            target = self.variant.game.target
            reason = f"no total reached the target {target}" if target is not None else "it did not end"
            self.stalled = (f"{self.variant.id}: the game ran past {self.max_rounds:,} rounds without "
                            f"ending: {reason} "
                            f"(totals after round {self.round.number}: {totals})")
            raise StalledGameError(self.stalled)
        try:
            self.sat_out, self.dealer = self._seating(self.round, self._next_dealer(result))
        except ExpressionError as problem:  # the round is recorded; no other is dealt, as for a stall
            self.stalled = str(problem)
            raise
        if deal:
            self.round = self._deal()

    def _enter(self, result: RoundResult) -> None:
        """Add the round's points: to the one game, or to the games of a shared sheet (GR-13).

        :raises FormulaError: rule ``expr-limit`` when a total would pass
            :data:`~rummydsl.limits.MAX_EXPR_INT`; every sheet is left as it was.
        """
        trial = [Sheet(list(s.points), list(s.wins), list(s.entries), s.closed) for s in self.sheets]
        self._add(trial, result)
        for sheet in trial:
            for player, total in enumerate(sheet.points):
                held_total(total, player, "game total", ("scoring", "round"),
                           f": {result.points[player]:,} points in round {self.round.number} on top of "
                           f"{total - result.points[player]:,}")
        self._add(self.sheets, result)

    def _add(self, sheets: list[Sheet], result: RoundResult) -> None:
        shared = self.variant.game.shared_sheet is not None
        for player, points in enumerate(result.points):
            if not points:
                continue
            won = 1 if points > 0 else 0
            if not shared:
                sheet = sheets[0]
                sheet.points[player] += points
                sheet.wins[player] += won
                sheet.entries[player] = sheet.entries[player] or points > 0
                continue
            opened = False
            for sheet in sheets:
                if sheet.closed:
                    continue
                if sheet.entries[player] or (points > 0 and not opened):
                    opened = opened or not sheet.entries[player]
                    sheet.entries[player] = True
                    sheet.points[player] += points
                    sheet.wins[player] += won

    def _settle(self) -> None:
        game = self.variant.game
        last_deal = game.deals is not None and len(self.results) - self._game_start >= game.deals
        for sheet in self.sheets:
            if sheet.closed:
                continue
            reached = game.target is not None and max(sheet.points) >= game.target
            if not (reached or last_deal):
                continue
            best = (min if game.winner == "lowest" else max)(sheet.points)
            leaders = [p for p, v in enumerate(sheet.points) if v == best]
            if len(leaders) > 1 and not last_deal:
                continue  # a tie for the win plays on (GS-7.5); after the last deal (CR-2) the first seat of it wins
            points: dict[Hashable, int] = {p: v for p, v in enumerate(sheet.points)}
            wins: dict[Hashable, int] = {p: v for p, v in enumerate(sheet.wins)}
            figures = final_figures(self.variant, points, wins)  # may refuse a figure past its limit
            sheet.closed = True
            sheet.winner = leaders[0]
            sheet.figures = tuple(int(figures[p]) for p in range(self.players))
        if not all(sheet.closed for sheet in self.sheets):
            return
        if game.match_games_to_win is None:
            self._finish_sheet_game()
            return
        sheet = self.sheets[0]
        assert sheet.winner is not None
        self.games_won[sheet.winner] += 1
        self.finished_games.append((sheet.winner, sheet.figures, tuple(sheet.points)))
        if self.games_won[sheet.winner] >= game.match_games_to_win:
            self.result = GameResult(sheet.winner, sheet.figures, tuple(sheet.points), len(self.results),
                                     tuple(self.games_won), self._shutout(sheet), game.winner == "lowest")
            return
        self._new_sheets()  # the next game of the match

    def _finish_sheet_game(self) -> None:
        n = self.players
        games_won = [0] * n
        for sheet in self.sheets:
            assert sheet.winner is not None
            games_won[sheet.winner] += 1
        figures = tuple(held_total(sum(sheet.figures[p] for sheet in self.sheets), p, "figure over the sheet's "
                                   "games", SHEET_SETTING) for p in range(n))
        points = tuple(held_total(sum(sheet.points[p] for sheet in self.sheets), p, "points over the sheet's "
                                  "games", SHEET_SETTING) for p in range(n))
        top = max(games_won)
        contenders = [p for p in range(n) if games_won[p] == top]
        winner = max(contenders, key=lambda p: (figures[p], -p))
        self.games_won = games_won
        self.result = GameResult(winner, figures, points, len(self.results), tuple(games_won),
                                 any(self._shutout(sheet) for sheet in self.sheets),
                                 self.variant.game.winner == "lowest")

    def _shutout(self, sheet: Sheet) -> bool:
        losers = [sheet.points[p] == 0 for p in range(self.players) if p != sheet.winner]
        return any(losers) if self.variant.game.shutout_per == "each_loser" else all(losers)

    def _next_dealer(self, result: RoundResult) -> int:
        """GR-2.2, GR-2.3, SK-2.2, GS-2.2: who deals the next round.

        ``next``: the next seat, except after a void round with ``same_dealer``.
        ``winner_deals`` / ``loser_deals``: the round's winner (who scored most) or
        loser (who scored least, nearest the winner's left); a round nobody won
        (void, or a tie that scores nothing) follows ``void_redeal``.
        """
        deal = self.variant.deal
        n = self.players
        nobody = result.void if deal.rotation == "next" else result.winner is None
        if nobody:
            return self.dealer if deal.void_redeal == "same_dealer" else (self.dealer + 1) % n
        if deal.rotation == "next":
            return (self.dealer + 1) % n
        winner = result.winner
        assert winner is not None
        if deal.rotation == "winner_deals":
            return winner
        order = [q for q in ((winner + k) % n for k in range(1, n)) if q != self.round.sat_out]
        least = min(result.points[p] for p in order)
        return next(p for p in order if result.points[p] == least)


def __getattr__(name: str) -> Any:
    """``rummydsl.engine.game.play_round`` and ``play_game``, kept where they were: they
    are the play loop's now (:mod:`rummydsl.engine.play`, which sits above this module)."""
    if name in ("play_round", "play_game"):
        from . import play

        return getattr(play, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
