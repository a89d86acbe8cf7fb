"""The running account of the game for the person at the terminal, and its score sheet.

:class:`TerminalWatcher` tells the person what the others did between their moves, the
card they drew themselves, and at each round's end every player's melds, lay-offs and
deadwood cards, then waits for Enter; it keeps the :class:`ScoreSheet` that ``score``
prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, TextIO

from ..engine.actions import Action, Buy, Draw, Knock, player_name
from ..errors import RummyDslError
from ..record import Quit, Watcher
from .human import ask
from .screen import cards_text, contract_text, melds_text, sort_cards

if TYPE_CHECKING:
    from ..cards import Card
    from ..engine import GameResult, Round, RoundResult

__all__ = ["TerminalWatcher", "ScoreSheet"]


def _totals(scores: Sequence[int]) -> str:
    return " . ".join(f"{player_name(p)} {s}" for p, s in enumerate(scores))


class ScoreSheet:
    """Each scored round's points and the totals after it, as the person played them
    (a round taken back is struck off).

    >>> sheet = ScoreSheet(2)
    >>> sheet.add(1, "knock by P1", (12, 0), (12, 0))
    >>> print(sheet.text())
    round  ending        P1   P2
        1  knock by P1   12    0
    total                12    0
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.rows: list[tuple[int, str, tuple[int, ...], tuple[int, ...]]] = []
        """(round number, how it ended, points, totals after it)."""

    def add(self, number: int, ending: str, points: Sequence[int], totals: Sequence[int]) -> None:
        self.struck(number)
        self.rows.append((number, ending, tuple(points), tuple(totals)))

    def struck(self, number: int) -> None:
        """Strike off round ``number`` and those after it (taken back)."""
        self.rows = [row for row in self.rows if row[0] < number]

    @property
    def totals(self) -> tuple[int, ...]:
        return self.rows[-1][3] if self.rows else (0,) * self.players

    def text(self) -> str:
        """The sheet: a line a round, then the totals."""
        if not self.rows:
            return "no round has been scored yet: " + _totals(self.totals)
        width = max([len("ending"), *(len(row[1]) for row in self.rows)])
        seats = "".join(f"{player_name(p):>5}" for p in range(self.players))
        lines = [f"round  {'ending':<{width}}{seats}"]
        for number, ending, points, _ in self.rows:
            lines.append(f"{number:>5}  {ending:<{width}}" + "".join(f"{x:>5}" for x in points))
        lines.append(f"{'total':<{width + 7}}" + "".join(f"{x:>5}" for x in self.totals))
        return "\n".join(lines)


class TerminalWatcher(Watcher):
    """Tells the person at seat ``seat`` what happens: others' moves, the card they drew,
    each round's end. With ``inp``, waits for Enter after each round's summary."""

    def __init__(self, seat: int, out: TextIO, inp: TextIO | None = None, sheet: ScoreSheet | None = None) -> None:
        self.seat = seat
        self.out = out
        self.inp = inp
        self.sheet = sheet
        self._top: Card | None = None
        """The top of the discard pile as everyone saw it, for saying what a draw from it took."""
        self._last: Action | None = None

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _seen(self, rnd: Round) -> None:
        self._top = rnd.discards[-1] if rnd.discards else None

    def deal(self, rnd: Round) -> None:
        upcard = f", upcard {rnd.upcard}" if rnd.upcard is not None else ""
        sitter = rnd.sat_out
        sits = "" if sitter is None else (
            f", {player_name(sitter)}{' (you)' if sitter == self.seat else ''} sits out")
        self.say(f"\n=== round {rnd.number}: {player_name(rnd.dealer)} deals{sits}{upcard} ===")
        words = contract_text(rnd.variant, rnd.rules, rnd.hand_size + 1)
        if words is not None:
            self.say(f"contract this round: {words}")
        self._seen(rnd)

    def action(self, rnd: Round, action: Action) -> None:
        top, self._top = self._top, (rnd.discards[-1] if rnd.discards else None)
        self._last = action
        if isinstance(action, Knock) and action.card is not None and action.player != self.seat:
            # GR-6.1, GS-6.1: the knock's discard goes face down; the melds are shown on the table
            self.say(f"  {player_name(action.player)} knocks, discarding a card face down")
            return
        took = f": takes {top}" if isinstance(action, (Draw, Buy)) and getattr(action, "source", "discard") \
            == "discard" and getattr(action, "card", None) is None and top is not None else ""
        self.say(f"  {action}{' (you)' if action.player == self.seat else ''}{took}")

    def drawn(self, rnd: Round, player: int, cards: Sequence[Card]) -> None:
        if player == self.seat and cards:
            penalty = " (the penalty card of your buy)" if isinstance(self._last, Buy) and \
                self._last.player == player else ""
            self.say(f"  you drew {cards_text(cards)}{penalty}")

    def taken_back(self, rnd: Round) -> None:
        self._seen(rnd)
        if self.sheet is not None:
            self.sheet.struck(rnd.number)
        self.say(f"\n(taken back: round {rnd.number}, as it stood before your last move)")

    def _player_lines(self, rnd: Round, result: RoundResult, p: int) -> list[str]:
        """Player ``p``'s melds on the table, cards laid off onto others', the melds shown
        and the deadwood cards left in hand, and the points."""
        you = " (you)" if p == self.seat else ""
        head = f"  {player_name(p)}{you}:"
        if p == rnd.sat_out:
            return [f"{head} sat out"]
        lines = [f"{head} points {result.points[p]}"]
        top = len(rnd.variant.deck.ranks)
        if rnd.table[p]:  # as they lie on the table, lay-offs included (each laid-off card's player says so)
            lines.append("      melds: " + melds_text([m.cards for m in rnd.table[p]], top))
        laid = [f"{c} on {player_name(owner)}#{i + 1}" for owner, melds in enumerate(rnd.table)
                for i, m in enumerate(melds) for c, who in zip(m.cards, m.by) if who == p and owner != p]
        if laid:
            lines.append("      laid off: " + ", ".join(laid))
        if result.void and p != self.seat:  # nothing is scored, so no hand is shown
            lines.append(f"      hand not shown ({len(rnd.hands[p])} cards)")
            return lines
        hand = sort_cards(rnd.hands[p])
        shown = rnd.declared[p]
        deadwood = result.deadwoods[p]
        on_table = [set(m.cards) for m in rnd.table[p]]
        if shown and not all(any(set(m) <= cards for cards in on_table) for m in shown):
            lines.append("      shows: " + melds_text(shown, top))
        if not hand:
            lines.append("      out: no cards left")
            return lines
        try:
            if shown is not None and rnd.variant.deadwood_arrangement == "as_shown":
                used = {c for m in shown for c in m}
                left = [c for c in hand if c not in used]
            else:
                arrangement = rnd.rules.solve(hand, check_contract=False)
                left = sort_cards(arrangement.unmatched)
                concealed = [m for m in arrangement.melds if not shown or tuple(m) not in set(map(tuple, shown))]
                if concealed and not shown:
                    lines.append("      melds in hand: " + melds_text(concealed, top))
        except RummyDslError:
            left = hand
        value = "not worked out (a hand past the solver)" if deadwood is None else str(deadwood)
        lines.append(f"      deadwood {value}: {cards_text(left)}")
        return lines

    def round_over(self, rnd: Round, result: RoundResult, scores: tuple[int, ...]) -> None:
        how = result.ending.replace("_", " ")
        who = f" by {player_name(result.ender)}" if result.ender is not None else ""
        undercut = " (undercut)" if result.undercut else ""
        self.say(f"\nround {rnd.number} over: {how}{who}{undercut}")
        for p in range(rnd.players):
            for line in self._player_lines(rnd, result, p):
                self.say(line)
        self.say("scores: " + _totals(scores))
        if self.sheet is not None:
            self.sheet.add(rnd.number, f"{how}{who}{undercut}", result.points, scores)
        self._wait()

    def _wait(self) -> None:
        """Wait for Enter before the next round (``quit`` leaves)."""
        if self.inp is None:
            return
        if ask("press Enter to go on ('quit' leaves): ", self.inp, self.out).lower() in ("quit", "exit", "q"):
            raise Quit("the player left", "you left the game")

    def game_over(self, result: GameResult) -> None:
        n = len(result.points)
        you = " (you)" if result.winner == self.seat else ""
        self.say(f"\ngame over after {result.rounds} rounds: {player_name(result.winner)}{you} wins")
        self.say("final figures: " + " . ".join(f"{player_name(p)} {result.figures[p]}" for p in range(n)))
