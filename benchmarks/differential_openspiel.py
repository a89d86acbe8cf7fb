"""A differential check: OpenSpiel's gin_rummy against rummydsl, move by move.

Plays seeded OpenSpiel games and replays each, in lockstep, in rummydsl under
the shipped house rule ``variants/openspiel_gin.yaml`` (OpenSpiel's rules: the
card just taken may be thrown, no big gin, the wall, no undercut on a tie, hands
scored on the melds shown, the 50th upcard draw and two throwbacks in a row void
the hand). At every decision both engines' legal moves are compared, written as
OpenSpiel action ids; at the end the round scores are compared. Prints the
mismatches (there should be none), the agreement figures and the first
disagreements, each with its class; OpenSpiel's own defect (a third card chained
on one end of a run is never offered as a lay-off) and approximation (an
overstated 11-card least deadwood refusing a legal knock) are counted apart.

    pip install open-spiel
    python benchmarks/differential_openspiel.py --games 1000 --seed 2026 --policy uniform
    python benchmarks/differential_openspiel.py --games 1000 --seed 2026 --policy greedy --melds least

How the two are lined up (docs/conformance.md says why each choice is made):

- Cards: OpenSpiel's card ``id`` is suit ``id // 13`` in the order s c d h and
  rank ``id % 13`` (A..K); rummydsl is written rank then suit (``AS``, ``TC``).
- Chance: each game shuffles one deck with its own seed and feeds OpenSpiel's
  chance nodes from it (first ten cards to player 0, ten to player 1, the
  upcard, then the stock in order), so rummydsl can be given the same position
  up front with ``Round.from_setup``. OpenSpiel's player 0 (who acts first) is
  rummydsl's P1; P2 deals.
- Actions: 52 ``draw discard``, 53 ``draw stock``, 54 ``pass`` (or ``done``),
  a card id ``discard CARD``; OpenSpiel's knock (55), its knock discard and the
  melds it lays one at a time become one ``knock CARD [..] [..]`` (``knock CARD
  []`` when it lays none); a defender's lay-offs are ``layoff CARD on Pn#i`` one
  by one, and the melds it lays one ``meld [..] [..]`` (``meld []`` for none)
  before ``done``, after gin too. At the wall (55 there) rummydsl's last-discard
  claim is ``draw discard``.
- Moves where OpenSpiel lays one meld at a time are compared as "which next
  meld could still be part of a declaration rummydsl accepts" (asked of
  rummydsl with ``in legal_actions()``, the rest of the arrangement completed
  by rummydsl's solver), and OpenSpiel's pass there as "rummydsl accepts the
  melds laid so far as the whole declaration".

The players are seeded: ``--policy uniform`` (the default) picks any legal
move, ``eager`` knocks whenever it may, ``greedy`` also draws and discards to
lower its least deadwood (so gin and undercuts come up), ``wall`` plays like
``greedy`` but knocks only on the wall's last discard. ``--melds least`` makes
them lay an arrangement of least deadwood after a knock; the default ``random``
lays any melds OpenSpiel allows (fewer than it could, or none).
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from rummydsl.engine import Action, Draw, Discard, Done, Knock, Layoff, Pass, Round
from rummydsl.errors import RummyDslError
from rummydsl.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
VARIANT_PATH = ROOT / "variants" / "openspiel_gin.yaml"

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK, MELD_BASE = 52, 53, 54, 55, 56
SUITS = "SCDH"          # OpenSpiel's suit order s c d h
RANKS = "A23456789TJQK"
HAND = 10

# the disagreement classes, each with who it is on. variants/openspiel_gin.yaml says
# every OpenSpiel rule (deadwood.arrangement: as_shown, void.at_discard_draw: 50,
# void.after_throwbacks: 2), so each class but OpenSpiel's own two is a mismatch.
C6_KNOCKER = "knocker's melds: the knocker's declarations or deadwood differ (deadwood.arrangement)"
C6_DEFENDER = "defender's melds: the defender's declarations or deadwood differ (deadwood.arrangement)"
REPEAT = "throwbacks: OpenSpiel ended the hand as a draw after two throwbacks, rummydsl did not (void.after_throwbacks)"
LIMIT = "discard draws: OpenSpiel ended the hand as a draw at the 50th upcard drawn, rummydsl did not (void.at_discard_draw)"
APPROX = "OpenSpiel approximation: its 11-card least deadwood is overstated, so it refuses a legal knock"
CHAIN = ("OpenSpiel lay-off chains: after two cards laid off at one end of a run, "
         "it offers no third (its AllLayoffs extends the run by one pass over the lay-offs)")
PHANTOM = ("OpenSpiel phantom lay-offs: a card laid off onto a set also counts as extending a run "
           "it is next to (its AllLayoffs extends each run by every earlier lay-off that fits it)")
AFTER = "after a refused declaration: rummydsl's table differs from OpenSpiel's from then on"
UNEXPLAINED = "unexplained"
OPENSPIEL_OWN = "OpenSpiel's own (not a mismatch)"
KIND = {
    C6_KNOCKER: "mismatch",
    C6_DEFENDER: "mismatch",
    REPEAT: "mismatch",
    LIMIT: "mismatch",
    APPROX: OPENSPIEL_OWN + ": an approximation",
    CHAIN: OPENSPIEL_OWN + ": a defect",
    PHANTOM: OPENSPIEL_OWN + ": a defect (and the replay stops where it lays such a card off)",
    AFTER: "mismatch (follows from the knocker's melds)",
    UNEXPLAINED: "mismatch, to investigate",
}
"""Each class and whose it is: a mismatch, or OpenSpiel's own (reported apart)."""


def is_mismatch(klass: str) -> bool:
    """Whether a disagreement of ``klass`` is a mismatch (not OpenSpiel's own defect or approximation).

    >>> is_mismatch(CHAIN), is_mismatch(APPROX), is_mismatch(REPEAT), is_mismatch(UNEXPLAINED)
    (False, False, True, True)
    """
    return not KIND[klass].startswith(OPENSPIEL_OWN)


def card_text(card_id: int) -> str:
    """rummydsl's notation of an OpenSpiel card id (suits s c d h, rank id % 13).

    >>> card_text(0), card_text(13), card_text(38), card_text(51)
    ('AS', 'AC', 'KD', 'KH')
    """
    return RANKS[card_id % 13] + SUITS[card_id // 13]


def card_id(text: str) -> int:
    """The OpenSpiel card id of a card in rummydsl's notation.

    >>> card_id("AC"), card_id("TH")
    (13, 48)
    """
    return SUITS.index(text[-1].upper()) * 13 + RANKS.index(text[0].upper())


def bracket(cards: Sequence[int]) -> str:
    """A meld in the notation: ``[5H 6H 7H]``."""
    return "[" + " ".join(card_text(c) for c in sorted(cards)) + "]"


@dataclass
class Disagreement:
    """One place where the two engines differ."""

    game: int
    step: int
    phase: str
    klass: str
    detail: str


@dataclass
class GameReport:
    """What one game came to."""

    decisions: int = 0
    agreeing: int = 0
    no_counterpart: int = 0
    score_agrees: bool = False
    openspiel_returns: tuple[float, ...] = ()
    rummydsl_points: tuple[int, ...] | None = None
    wall_knock: bool = False
    """The hand was ended by a knock on the claimed last discard (the wall)."""
    ending: str = "-"
    """How OpenSpiel's hand ended: knock, gin, undercut, wall (no knock) or a draw (its 50th
    upcard drawn, or two throwbacks in a row)."""
    disagreements: list[Disagreement] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    """The rummydsl actions played, in order."""

    @property
    def agrees(self) -> bool:
        """Every decision and the score agree, and nothing was refused."""
        return not self.disagreements and self.score_agrees

    @property
    def mismatches(self) -> list[Disagreement]:
        """The disagreements that are not OpenSpiel's own (its lay-off chains, its approximation)."""
        return [d for d in self.disagreements if is_mismatch(d.klass)]

    @property
    def agrees_but_openspiel(self) -> bool:
        """The score agrees and every decision too, but where OpenSpiel's own defect differs."""
        return not self.mismatches and self.score_agrees


class Replay:
    """One OpenSpiel game and its rummydsl twin, moved together action by action."""

    def __init__(self, game: Any, deck_order: Sequence[int], number: int = 0) -> None:
        import pyspiel  # type: ignore[import-not-found]

        self.utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, HAND)
        self.state = game.new_initial_state()
        self.deck = list(deck_order)
        self.next_card = 0
        self.number = number
        variant = load_variant(str(VARIANT_PATH))
        d = variant.deck
        def cards(ids: Sequence[int]) -> list[Any]:
            return [d.parse_card(card_text(i)) for i in ids]
        self.rnd = Round.from_setup(
            variant, dealer=1, hands=[cards(self.deck[:HAND]), cards(self.deck[HAND:2 * HAND])],
            upcard=cards([self.deck[2 * HAND]])[0], stock=cards(self.deck[2 * HAND + 1:]))
        self.report = GameReport()
        # the translation's own state
        self.knock_card: int | None = None
        self.laid: list[list[int]] = []
        self.defender_laid: list[list[int]] = []
        self.knocker: int | None = None
        self.step = 0
        self.upcard_draws = 0
        self.replaced = False
        """A declaration rummydsl refused was replayed with its least arrangement (a mismatch)."""
        self.phantom = False
        """OpenSpiel laid off a card onto a run through a card laid off onto a set (its defect)."""
        self.deal_chance()

    # ---------------------------------------------------------------- OpenSpiel side

    def deal_chance(self) -> None:
        """Play OpenSpiel's chance nodes from the deck order."""
        while not self.state.is_terminal() and self.state.is_chance_node():
            card = self.deck[self.next_card]
            self.next_card += 1
            self.state.apply_action(card)

    def phase(self) -> str:
        """OpenSpiel's phase, as a lower-case name."""
        return str(self.state.current_phase()).rsplit(".", 1)[-1].lower()

    def hand(self, player: int) -> list[int]:
        """OpenSpiel's hand of ``player``."""
        return list(self.state.hands()[player])

    # ---------------------------------------------------------------- rummydsl side, as OpenSpiel ids

    def legal(self, action: str | Action) -> bool:
        """Whether rummydsl accepts this action now."""
        try:
            return action in self.rnd.legal_actions()
        except RummyDslError:
            return False

    def knock(self, player: int, melds: list[list[int]]) -> Knock:
        """rummydsl's knock with the pending knock card, showing exactly ``melds``.

        Built as a value, not text: ``knock CARD`` with no melds written means "the
        engine shows the least arrangement", so "no melds at all" has no text.
        """
        deck = self.rnd.variant.deck
        assert self.knock_card is not None
        return Knock(player, deck.parse_card(card_text(self.knock_card)),
                     tuple(tuple(deck.parse_card(card_text(c)) for c in sorted(m)) for m in melds))

    def next_melds(self, hand: list[int], laid: list[list[int]],
                   make: Callable[[list[list[int]]], str | Action]) -> set[int]:
        """The melds of ``hand`` rummydsl would still accept next, as OpenSpiel meld actions."""
        out: set[int] = set()
        rules = self.rnd.rules
        deck = self.rnd.variant.deck
        for meld_id in self.utils.legal_melds(hand, 98):
            meld = list(self.utils.int_to_meld[meld_id])
            rest = [deck.parse_card(card_text(c)) for c in hand if c not in meld]
            completion = [[card_id(str(c)) for c in m] for m in rules.solve(rest, check_contract=False).melds] if rest else []
            if self.legal(make([*laid, meld, *completion])):
                out.add(MELD_BASE + meld_id)
        return out

    def rummydsl_moves(self, phase: str, player: int) -> set[int] | None:
        """rummydsl's legal moves now as OpenSpiel action ids (None: no counterpart)."""
        rnd = self.rnd
        me = f"P{player + 1}"
        if rnd.over:
            return None
        listed = list(rnd.legal_actions())
        if phase == "knock" and self.knock_card is None:
            return {card_id(str(a.card)) for a in listed if isinstance(a, Knock) and a.card is not None}
        if phase == "knock":
            hand = self.hand(player)
            def knock(melds: list[list[int]]) -> Knock:
                return self.knock(player, melds)
            moves = self.next_melds(hand, self.laid, knock)
            if self.legal(knock(self.laid)):
                moves.add(PASS)
            return moves
        if phase == "layoff" and self.state.finished_layoffs():
            hand = self.hand(player)
            def meld(melds: list[list[int]]) -> str:
                return f"{me} meld " + " ".join(bracket(m) for m in melds)
            moves = self.next_melds(hand, self.defender_laid, meld)
            if not self.defender_laid or self.legal(meld(self.defender_laid)):
                moves.add(PASS)
            return moves
        moves = set()
        for action in listed:
            if isinstance(action, Draw):
                moves.add(KNOCK if phase == "wall" else DRAW_UPCARD if action.source == "discard" else DRAW_STOCK)
            elif isinstance(action, (Pass, Done)):
                moves.add(PASS)
            elif isinstance(action, Discard) or isinstance(action, Layoff):
                moves.add(card_id(str(action.card)))
            elif isinstance(action, Knock):
                moves.add(KNOCK)
        return moves

    # ---------------------------------------------------------------- translation

    def translate(self, phase: str, player: int, action: int) -> list[str | Action]:
        """The rummydsl actions that OpenSpiel's ``action`` comes to now (maybe none yet)."""
        me = f"P{player + 1}"
        if phase in ("first_upcard", "draw"):
            return [f"{me} " + {DRAW_UPCARD: "draw discard", DRAW_STOCK: "draw stock", PASS: "pass"}[action]]
        if phase == "discard":
            if action == KNOCK:
                self.knocker = player
                return []
            return [f"{me} discard {card_text(action)}"]
        if phase == "wall":
            if action == KNOCK:
                self.knocker = player
                self.report.wall_knock = True
                return [f"{me} draw discard"]
            return [f"{me} pass"]
        if phase == "knock":
            if self.knock_card is None:
                self.knock_card = action
                return []
            if action != PASS:
                self.laid.append(list(self.utils.int_to_meld[action - MELD_BASE]))
                return []
            named = self.knock(player, self.laid)
            if self.legal(named):
                return [named]
            self.replaced = True
            return [f"{me} knock {card_text(self.knock_card)}"]  # refused: the least arrangement instead
        if phase == "layoff":
            if self.rnd.over:
                return []  # after gin: rummydsl has no showdown
            if not self.state.finished_layoffs():
                if action == PASS:
                    return []
                owner = self.knocker if self.knocker is not None else 1 - player
                # onto a run first: a set given its fourth card takes nothing more, a run may
                # (OpenSpiel's lay-offs name no meld, and count the card on each it fits)
                melds = self.rnd.table[owner]
                order = sorted(range(len(melds)), key=lambda i: melds[i].kind != "run")
                for index in order:
                    text = f"{me} layoff {card_text(action)} on P{owner + 1}#{index + 1}"
                    if self.legal(text):
                        return [text]
                self.phantom = self.phantom or action in self.phantoms()
                return [f"{me} layoff {card_text(action)} on P{owner + 1}#1"]
            if action != PASS:
                self.defender_laid.append(list(self.utils.int_to_meld[action - MELD_BASE]))
                return []
            out: list[str | Action] = []
            # what it laid, or 'meld []' (none: it is scored on every card, deadwood.arrangement: as_shown)
            shown = f"{me} meld " + (" ".join(bracket(m) for m in self.defender_laid) or "[]")
            if self.defender_laid or self.legal(shown):
                out.append(shown)
            return [*out, f"{me} done"]
        raise ValueError(f"no translation for OpenSpiel action {action} in phase {phase!r}")

    # ---------------------------------------------------------------- one step

    def classify(self, phase: str, player: int, os_moves: set[int], rd_moves: set[int]) -> str:
        """Why the two legal sets differ."""
        only_os, only_rd = os_moves - rd_moves, rd_moves - os_moves
        if self.replaced:
            return AFTER
        if phase == "knock" and self.knock_card is not None and not only_rd:
            return C6_KNOCKER
        if phase == "layoff" and self.state.finished_layoffs() and not only_rd:
            return C6_DEFENDER
        if phase == "layoff" and not self.state.finished_layoffs() and only_rd and not only_os and self.chained():
            return CHAIN
        if phase == "layoff" and not self.state.finished_layoffs() and only_os and not only_rd \
                and only_os <= self.phantoms():
            return PHANTOM
        if phase in ("discard", "wall") and only_rd == {KNOCK} and not only_os:
            return APPROX
        if phase == "knock" and self.knock_card is None and not only_os:
            return APPROX
        return UNEXPLAINED

    def phantoms(self) -> set[int]:
        """The lay-offs OpenSpiel offers onto a knocker's run only through a card laid off
        onto another meld: ``AllLayoffs`` extends each run by every earlier lay-off next
        to its ends, whichever meld that card went onto (5H laid onto 2H 3H 4H also
        opens 9H on 6H 7H 8H). rummydsl lays each card onto one meld."""
        knocker = self.knocker if self.knocker is not None else 0
        table = self.rnd.table[knocker]
        out: set[int] = set()
        for meld_id in self.state.layed_melds()[knocker]:
            meld = list(self.utils.int_to_meld[meld_id])
            if not self.utils.is_suit_meld(meld):
                continue
            mine = next((m for m in table if set(meld) <= {card_id(str(c)) for c in m.cards}), None)
            held = set() if mine is None else {card_id(str(c)) for c in mine.cards}
            ends = set(self.utils.suit_meld_layoffs(meld))
            elsewhere = [c for c in self.state.layoffs() if c in ends and c not in held]
            if elsewhere:
                out |= set(self.utils.suit_meld_layoffs([*meld, *elsewhere]))
        return out

    def chained(self) -> bool:
        """Whether a card laid off so far extended one of the knocker's runs (the start of a chain)."""
        laid = list(self.state.layoffs())
        for meld_id in self.state.layed_melds()[self.knocker if self.knocker is not None else 0]:
            meld = list(self.utils.int_to_meld[meld_id])
            if self.utils.is_suit_meld(meld) and set(laid) & set(self.utils.suit_meld_layoffs(meld)):
                return True
        return False

    def play(self, choose: Callable[["Replay", str, int, list[int]], int]) -> GameReport:
        """Play to the end, ``choose`` picking OpenSpiel's action at each decision."""
        report = self.report
        while not self.state.is_terminal():
            phase = self.phase()
            player = self.state.current_player()
            os_moves = list(self.state.legal_actions())
            rd_moves = self.rummydsl_moves(phase, player)
            self.step += 1
            if rd_moves is None:
                report.no_counterpart += 1
            else:
                report.decisions += 1
                if rd_moves == set(os_moves):
                    report.agreeing += 1
                else:
                    klass = self.classify(phase, player, set(os_moves), rd_moves)
                    detail = (f"P{player + 1} OpenSpiel only: {self.names(set(os_moves) - rd_moves)}; "
                              f"rummydsl only: {self.names(rd_moves - set(os_moves))}")
                    report.disagreements.append(Disagreement(self.number, self.step, phase, klass, detail))
            action = choose(self, phase, player, os_moves)
            self.upcard_draws += phase == "draw" and action == DRAW_UPCARD
            texts = self.translate(phase, player, action)
            self.state.apply_action(action)
            for text in texts:
                try:
                    report.actions.append(str(self.rnd.apply(text)))
                except RummyDslError as problem:
                    klass = PHANTOM if self.phantom else AFTER if self.replaced else UNEXPLAINED
                    report.disagreements.append(Disagreement(
                        self.number, self.step, phase, klass, f"rummydsl refused {text!r}: {problem}"))
                    return self.finish()
            self.deal_chance()
        return self.finish()

    def names(self, moves: set[int]) -> str:
        """OpenSpiel action ids as short names."""
        def name(a: int) -> str:
            if a < 52:
                return card_text(a)
            if a >= MELD_BASE:
                return bracket(self.utils.int_to_meld[a - MELD_BASE])
            return {DRAW_UPCARD: "draw-upcard", DRAW_STOCK: "draw-stock", PASS: "pass", KNOCK: "knock"}[a]
        return ", ".join(sorted(name(a) for a in moves)) or "-"

    def finish(self) -> GameReport:
        """Compare the scores (OpenSpiel's zero-sum returns against rummydsl's points)."""
        report = self.report
        returns = tuple(self.state.returns()) if self.state.is_terminal() else ()
        report.openspiel_returns = returns
        knocked = list(self.state.knocked()) if returns else []
        if any(knocked):
            winner_is_knocker = returns[knocked.index(True)] > 0
            report.ending = ("gin" if list(self.state.deadwood())[knocked.index(True)] == 0
                             else "knock" if winner_is_knocker else "undercut or tie")
        elif self.state.stock_size() == 2 and self.next_card >= 52 - 2:
            report.ending = "wall"
        else:  # OpenSpiel's two length rules (void.at_discard_draw, void.after_throwbacks)
            report.ending = "draw: 50th upcard drawn" if self.upcard_draws >= 50 else "draw: two throwbacks"
        result = self.rnd.result
        if result is None or not returns:
            report.score_agrees = False
            if returns and not any(self.state.knocked()):
                klass = LIMIT if self.upcard_draws >= 50 else REPEAT
            elif self.phantom:
                klass = PHANTOM  # the replay stopped where OpenSpiel laid off a phantom
            elif self.replaced:
                klass = AFTER  # the replay stopped at a refusal that followed a replaced declaration
            else:
                klass = UNEXPLAINED
            report.disagreements.append(Disagreement(
                self.number, self.step, "score", klass,
                f"OpenSpiel returns {returns}; rummydsl round {'over' if result else 'not over'}"))
            return report
        points = result.points
        report.rummydsl_points = points
        net = tuple(points[p] - points[1 - p] for p in range(2))
        report.score_agrees = all(int(returns[p]) == net[p] for p in range(2))
        if not report.score_agrees:
            deadwood = list(self.state.deadwood())
            least = [self.rnd.deadwood_of(p) for p in range(2)]
            knocker = result.ender
            if knocker is not None and deadwood[knocker] != least[knocker] and deadwood[knocker] != result.deadwoods[knocker]:
                klass = C6_KNOCKER
            elif knocker is not None and deadwood[1 - knocker] != result.deadwoods[1 - knocker]:
                klass = C6_DEFENDER
            elif knocker is not None and deadwood[knocker] != result.deadwoods[knocker]:
                klass = C6_KNOCKER
            else:
                klass = UNEXPLAINED
            report.disagreements.append(Disagreement(
                self.number, self.step, "score", klass,
                f"OpenSpiel returns {returns} (deadwood {deadwood}); rummydsl points {points} "
                f"(deadwood {list(result.deadwoods)}, {result.ending.value})"))
        return report


def random_chooser(rng: random.Random, melds: str, policy: str = "uniform") -> Callable[[Replay, str, int, list[int]], int]:
    """A seeded player: ``uniform`` picks any legal move; ``eager`` also knocks whenever
    it may; ``greedy`` also draws the upcard when it lowers its least deadwood and
    throws a card that leaves the least; ``wall`` plays like ``greedy`` but knocks
    only on the wall's last discard. With ``melds == "least"`` it lays an
    arrangement of least deadwood after a knock (else any melds OpenSpiel allows)."""
    utils: Any = None

    def least(hand: list[int]) -> int:
        return int(utils.min_deadwood(hand))

    def choose(replay: Replay, phase: str, player: int, moves: list[int]) -> int:
        nonlocal utils
        utils = replay.utils
        if policy != "uniform" and KNOCK in moves and (policy != "wall" or phase == "wall"):
            return KNOCK
        hand = replay.hand(player)
        if policy in ("greedy", "wall") and phase in ("draw", "first_upcard") and DRAW_UPCARD in moves:
            upcard = replay.state.upcard()
            with_it = min(least([c for c in hand + [upcard] if c != out]) for out in hand)
            return DRAW_UPCARD if with_it < least(hand) else (DRAW_STOCK if DRAW_STOCK in moves else PASS)
        if policy in ("greedy", "wall") and phase == "discard":
            scored = [(least([c for c in hand if c != a]), a) for a in moves if a < 52]
            best = min(score for score, _ in scored)
            return rng.choice([a for score, a in scored if score == best])
        laying = (phase == "knock" and replay.knock_card is not None) or (
            phase == "layoff" and replay.state.finished_layoffs())
        if melds == "least" and laying:
            target = least(hand)
            keep = [a for a in moves if a >= MELD_BASE and least(
                [c for c in hand if c not in utils.int_to_meld[a - MELD_BASE]]) == target]
            if PASS in moves and utils.total_card_value(hand) == target:
                keep.append(PASS)
            moves = keep or moves
        return rng.choice(moves)
    return choose


def run(games: int, seed: int, melds: str, policy: str = "uniform") -> list[GameReport]:
    """Play ``games`` seeded games; game ``i`` uses seed ``seed + i``."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    reports = []
    for i in range(games):
        rng = random.Random(seed + i)
        deck = list(range(52))
        rng.shuffle(deck)
        reports.append(Replay(game, deck, number=i).play(random_chooser(rng, melds, policy)))
    return reports


def summary(reports: list[GameReport], show: int) -> str:
    """The figures as Markdown, and the first disagreements."""
    n = len(reports)
    decisions = sum(r.decisions for r in reports)
    agreeing = sum(r.agreeing for r in reports)
    played = [r for r in reports if not r.ending.startswith("draw")]
    every = [d for r in reports for d in r.disagreements]
    own = sum(1 for d in every if not is_mismatch(d.klass) and d.phase != "score")
    mismatches = sum(1 for d in every if is_mismatch(d.klass))
    clean = sum(r.agrees_but_openspiel for r in reports)
    lines = [
        f"Mismatches (every class but OpenSpiel's own): {mismatches}",
        f"Decisions where only OpenSpiel's own defect or approximation differs: {own}",
        "",
        "| figure | agreeing | of | share |",
        "| --- | --- | --- | --- |",
        f"| games fully agreeing | {sum(r.agrees for r in reports)} | {n} | {_pct(sum(r.agrees for r in reports), n)} |",
        f"| games agreeing but where OpenSpiel's own defect differs | {clean} | {n} | {_pct(clean, n)} |",
        f"| decision points agreeing | {agreeing} | {decisions} | {_pct(agreeing, decisions)} |",
        f"| decision points agreeing or differing only by OpenSpiel's own defect | {agreeing + own} | {decisions} "
        f"| {_pct(agreeing + own, decisions)} |",
        f"| round scores agreeing | {sum(r.score_agrees for r in reports)} | {n} | {_pct(sum(r.score_agrees for r in reports), n)} |",
        f"| round scores agreeing, hands OpenSpiel did not end as a draw by its own length rules "
        f"| {sum(r.score_agrees for r in played)} | {len(played)} | "
        f"{_pct(sum(r.score_agrees for r in played), len(played))} |",
        "",
        f"Decisions with no rummydsl counterpart (a defender laying melds after gin): "
        f"{sum(r.no_counterpart for r in reports)}",
        "",
        "How OpenSpiel's hands ended: " + ", ".join(
            f"{e} {sum(r.ending == e for r in reports)}"
            for e in ("knock", "gin", "undercut or tie", "wall", "draw: 50th upcard drawn", "draw: two throwbacks"))
        + f" (knocks on the wall's last discard: {sum(r.wall_knock for r in reports)})",
        "",
        "| disagreement class | whose | decisions | scores |",
        "| --- | --- | --- | --- |",
    ]
    for klass in KIND:
        moves = sum(1 for d in every if d.klass == klass and d.phase != "score")
        scores = sum(1 for d in every if d.klass == klass and d.phase == "score")
        if moves or scores:
            lines.append(f"| {klass} | {KIND[klass]} | {moves} | {scores} |")
    lines += ["", f"First {show} disagreements:"]
    for d in every[:show]:
        lines.append(f"- game {d.game} step {d.step} ({d.phase}): {d.klass}: {d.detail}")
    firsts: dict[str, Disagreement] = {}
    for d in every:
        firsts.setdefault(d.klass, d)
    lines += ["", "First of each class:"]
    lines += [f"- game {d.game} step {d.step} ({d.phase}): {d.klass}: {d.detail}" for d in firsts.values()]
    return "\n".join(lines)


def _pct(a: int, b: int) -> str:
    """``a`` of ``b`` as a percentage; never rounded up to 100% while one is missing.

    >>> _pct(22154, 22155), _pct(3, 3), _pct(0, 0)
    ('99.99%', '100.00%', '-')
    """
    if not b:
        return "-"
    share = f"{100 * a / b:.2f}%"
    return "99.99%" if a < b and share == "100.00%" else share


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--melds", choices=("random", "least"), default="random",
                        help="how players lay melds after a knock (default: uniformly at random)")
    parser.add_argument("--policy", choices=("uniform", "eager", "greedy", "wall"), default="uniform",
                        help="uniform: any legal move; eager: knock whenever allowed; "
                             "greedy: eager, and draw and discard to lower the least deadwood; "
                             "wall: greedy, but knock only at the wall")
    parser.add_argument("--show", type=int, default=5, help="disagreements to list")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open-spiel is not installed: pip install open-spiel", file=sys.stderr)
        return 2
    reports = run(args.games, args.seed, args.melds, args.policy)
    print(f"OpenSpiel gin_rummy against rummydsl ({VARIANT_PATH.name}), "
          f"{args.games} games, seed {args.seed}, policy {args.policy}, melds {args.melds}\n")
    print(summary(reports, args.show))
    return 0


if __name__ == "__main__":
    sys.exit(main())
