"""A soak run of the engine: many seeded games per shipped variant, with illegal actions tried between the moves.

Not a timed test (nothing here has a wall-clock limit): a script to run for hours by
hand, whose figures go in docs/reliability.md. For every shipped variant it plays
``--games`` whole games through the Game layer (random, greedy and mixed seats in
turn, each game from its own seed drawn from ``--seed``), and

- before every action checks that every card is in exactly one place and that the
  ``known`` cards were seen by all; at the end of every round checks the deadwoods
  and the points against the variant's scoring, and at the end of every game the
  totals, the dealers and the final figures (tests/engine/invariants.py, shared with
  the engine tests);
- at random points (``--rate``) runs the full step check (every listed action is
  accepted by ``in`` and by ``apply`` on a copy, no observation shows a hidden card),
  then tries ``--attempts`` illegal actions of every kind: random action strings
  from the notation, actions of a seat not to move, cards not held, verbs of another
  phase, melds that are not melds, lay-offs that do not fit, knocks over the limit,
  and mutations of the listed legal actions. Each must raise
  :class:`~rummydsl.errors.IllegalActionError` or
  :class:`~rummydsl.errors.MalformedActionError` and leave
  ``json.dumps(rnd.to_json(), sort_keys=True)`` byte for byte as it was (compared
  after each attempt) and the Game's own state (totals, results; compared after each
  attack's attempts); an attempt that turns out legal (a mutation can land on a legal
  action) must be accepted, on a copy;
- after a round ends, tries the same attempts again: all must be refused.

On the first failure it prints the variant, the game's index and seed, the round,
the action and the traceback, with the command that replays that one game, and
exits 1. Otherwise it prints one table row per variant: games, rounds, actions
played, illegal attempts refused, invariant checks, CPU seconds.

Usage::

    python benchmarks/soak.py --games 2000 --seed 2026          # hours of CPU
    python benchmarks/soak.py --games 3 --variants gin_rummy    # a smoke run
    python benchmarks/soak.py --variants ginski --only-game 17 --seed 2026   # replay one game

The checks are ``assert`` statements: the script refuses to run under ``python -O``.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence, TextIO, Union

from rummydsl.cards import Card
from rummydsl.engine import (
    Action,
    Discard,
    Draw,
    Game,
    Knock,
    Layoff,
    Meld,
    Observation,
    Offer,
    Round,
    RoundResult,
)
from rummydsl.engine.actions import VERBS, player_name
from rummydsl.errors import IllegalActionError, MalformedActionError, RummyDslError
from rummydsl.variant import load_variant, shipped_variant_ids

INVARIANTS = Path(__file__).resolve().parents[1] / "tests" / "engine" / "invariants.py"
KINDS = ("greedy", "mixed")
"""Seats of whole games in turn, as the engine tests play them (all-random seats rarely
reach a target: a Straight Gin game of random seats runs to thousands of void rounds)."""


def load_invariants(path: Path = INVARIANTS) -> ModuleType:
    """The engine tests' invariant checks (tests/engine/invariants.py), imported by path.

    By path, not as ``tests.engine.invariants``: another installed package named
    ``tests`` cannot shadow it, and pytest's own copy is left alone.
    """
    spec = importlib.util.spec_from_file_location("rummydsl_soak_invariants", path)
    assert spec is not None and spec.loader is not None, f"cannot import {path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


inv = load_invariants()

Attempt = Union[Action, str]


@dataclass
class Figures:
    """What the soak of one variant did."""

    games: int = 0
    rounds: int = 0
    actions: int = 0
    refused: int = 0
    """Illegal attempts refused with the state unchanged (the step check's and the attacks')."""
    legal_by_chance: int = 0
    """Attempts that turned out legal (accepted on a copy, as they must be)."""
    checks: int = 0
    """Invariant checks run (one per check function called)."""
    cpu: float = 0.0
    by_kind: dict[str, int] = field(default_factory=dict)
    """Refused attempts by the generator that made them."""


class SoakFailure(Exception):
    """An invariant broke or an attempt was handled wrongly; the message says which."""


def game_state(game: Game) -> str:
    """The Game's own state as canonical JSON text (its round apart: :func:`round_state`)."""
    return json.dumps({
        "dealer": game.dealer,
        "sheets": [sheet.as_json() for sheet in game.sheets],
        "results": [result.as_json() for result in game.results],
        "games_won": game.games_won,
        "finished_games": game.finished_games,
        "result": None if game.result is None else game.result.as_json(),
        "round": id(game.round),
    }, sort_keys=True)


def round_state(rnd: Round) -> str:
    """The round's state as the brief compares it: ``json.dumps(rnd.to_json(), sort_keys=True)``."""
    return json.dumps(rnd.to_json(), sort_keys=True)


# ---------------------------------------------------------------------------- attempts

JUNK = ("7Z", "10H", "AAS", "1S", "KK", "", "#", "P1#0", "P9#1", "on", "[", "]", "[]", "\x00",
        "é", "\U0001F0A1", "stock", "discard", "-1", "9" * 30, "P0", "p1")


def random_text(rnd: Round, rng: random.Random) -> str:
    """An action string from the notation's parts, mostly wrong (a bad verb, player,
    card, count of arguments, bracket), sometimes long, sometimes right by chance."""
    n = rnd.players
    deck = rnd.variant.deck.cards
    player = rng.choice([f"P{rng.randint(1, n)}", f"p{rng.randint(1, n)}", "P0", f"P{n + 1}", "P99", "X", ""])
    verb = rng.choice([*VERBS, *VERBS, "drwa", "DRAW", "Knock", "", "knock!", "melds"])
    args: list[str] = []
    for _ in range(rng.choice((0, 1, 1, 2, 3, 5))):
        roll = rng.random()
        if roll < 0.55:
            face = str(deck[rng.randrange(len(deck))])
            args.append(face.lower() if rng.random() < 0.2 else face)
        elif roll < 0.7:
            args.append(f"P{rng.randint(1, n)}#{rng.randint(1, 3)}")
        else:
            args.append(rng.choice(JUNK))
    if rng.random() < 0.15 and args:  # brackets around some of the cards
        cut = rng.randrange(len(args))
        args = ["[", *args[:cut], "]", *args[cut:]]
    text = rng.choice((" ", "  ", "\t")).join(t for t in (player, verb, *args) if t or rng.random() < 0.5)
    if rng.random() < 0.02:
        text += " " + "x" * rng.choice((100, 2_500))
    return text


def mutate(text: str, rnd: Round, rng: random.Random) -> str:
    """A listed legal action's text with one thing changed (a card, the seat, a pile,
    a meld's number, the verb, a token dropped or repeated or added)."""
    deck = rnd.variant.deck.cards
    tokens = text.replace("[", " [ ").replace("]", " ] ").split()
    at = rng.randrange(len(tokens))
    how = rng.randrange(7)
    if how == 0:
        tokens[at] = str(deck[rng.randrange(len(deck))])
    elif how == 1:
        tokens[0] = player_name(rng.randrange(rnd.players))
    elif how == 2:
        tokens = [{"stock": "discard", "discard": "stock"}.get(t, t) for t in tokens]
    elif how == 3:
        tokens = [t.split("#")[0] + f"#{rng.randint(1, 4)}" if "#" in t else t for t in tokens]
    elif how == 4:
        tokens[1 if len(tokens) > 1 else 0] = rng.choice(VERBS)
    elif how == 5 and len(tokens) > 1:
        del tokens[at]
    else:
        tokens.insert(at, tokens[at] if rng.random() < 0.5 else str(deck[rng.randrange(len(deck))]))
    return " ".join(tokens).replace("[ ", "[").replace(" ]", "]")


def not_held(rnd: Round, player: int) -> list[Card]:
    """Cards of the deck that ``player`` does not hold (another's, the stock's, the pile's)."""
    held = {c.id for c in rnd.hands[player]}
    return [c for c in rnd.variant.deck.cards if c.id not in held]


def attempts(rnd: Round, rng: random.Random, count: int) -> list[tuple[str, Attempt]]:
    """``count`` attempts, each named by the kind of mistake it makes."""
    mover = rnd.to_move if rnd.to_move is not None else rng.randrange(rnd.players)
    hand = rnd.hands[mover]
    listed = [str(a) for a in rnd.legal_actions()]
    table = [(owner, index) for owner, melds in enumerate(rnd.table) for index in range(len(melds))]
    out: list[tuple[str, Attempt]] = []
    while len(out) < count:
        kind = rng.randrange(9)
        if kind == 0:
            out.append(("random text", random_text(rnd, rng)))
        elif kind == 1 and listed:
            out.append(("mutated legal", mutate(rng.choice(listed), rnd, rng)))
        elif kind == 2 and rnd.players > 1:
            legal = list(rnd.legal_actions())
            if legal:
                other = rng.choice([p for p in range(rnd.players) if p != mover])
                out.append(("wrong seat", dataclasses.replace(rng.choice(legal), player=other)))
        elif kind == 3:
            card = rng.choice(not_held(rnd, mover))
            make: Callable[[], Action] = rng.choice((
                lambda: Discard(mover, card), lambda: Offer(mover, card), lambda: Knock(mover, card)))
            out.append(("card not held", make()))
        elif kind == 4:
            out.append(("wrong phase", rng.choice((
                Draw(mover, rng.choice(("stock", "discard"))), *inv.candidates(rnd, rng, 1)))))
        elif kind == 5 and len(hand) >= 3:
            groups = tuple(tuple(rng.sample(list(hand), rng.randint(2, min(5, len(hand)))))
                           for _ in range(rng.randint(1, 3)))
            out.append(("not a meld", Meld(mover, groups)))
        elif kind == 6 and hand and table:
            owner, index = rng.choice(table)
            out.append(("lay-off that does not fit", Layoff(mover, rng.choice(hand), owner, index)))
        elif kind == 7 and hand:
            kept = list(hand)
            card = kept.pop(rng.randrange(len(kept)))
            melds = inv.random_melds(rnd, rng, kept) if rng.random() < 0.5 else None
            out.append(("knock", Knock(mover, card, melds or None)))
        elif kind == 8 and hand:
            out.append(("layoff on no meld", Layoff(mover, rng.choice(hand), rng.randrange(rnd.players), 7)))
    return out


def exhaustively_listed(action: Action) -> bool:
    """Whether the legal listing names every legal action of this shape (all but melds
    and knocks that name their melds, which ``why_illegal`` judges instead)."""
    if isinstance(action, Meld):
        return False
    return not (isinstance(action, Knock) and action.melds is not None)


def try_attempt(rnd: Round, attempt: Attempt) -> bool:
    """Try one attempt on ``rnd``: True if refused as it must be (the round's state byte for
    byte unchanged), False if it was legal (then accepted on a copy).

    :raises SoakFailure: for an illegal attempt accepted, a legal one refused, another
        exception, or a state changed by a refusal.
    """
    before = round_state(rnd)
    legal_texts = {str(a) for a in rnd.legal_actions()}
    action: Action | None
    if isinstance(attempt, str):
        try:
            action = rnd.parse(attempt)
        except MalformedActionError:
            action = None
    else:
        action = attempt
    if action is not None:
        listed = str(action) in legal_texts
        reason = rnd.why_illegal(action)
        if listed or (reason is None and not exhaustively_listed(action)):
            other = rnd.copy()
            try:
                other.apply(attempt)
            except RummyDslError as problem:
                raise SoakFailure(f"the legal action {str(action)!r} was refused: {problem}") from None
            inv.check_conservation(other)
            return False
        if reason is None and inv.later_step_accepted(rnd, action):
            return False  # a later step's action in an optional step: 'done' first, then it (issue 17)
        if reason is None:
            raise SoakFailure(f"{str(action)!r} is not listed, yet why_illegal says it is legal")
    try:
        rnd.apply(attempt)
    except (IllegalActionError, MalformedActionError):
        pass
    except Exception as problem:  # noqa: BLE001 - any other exception is what the soak looks for
        raise SoakFailure(f"{attempt!r} raised {type(problem).__name__}: {problem}") from problem
    else:
        raise SoakFailure(f"the illegal action {attempt!r} was applied")
    if round_state(rnd) != before:
        raise SoakFailure(f"refusing {attempt!r} changed the round")
    return True


# ---------------------------------------------------------------------------- games


class Soak:
    """Plays one variant's games with the checks and the attacks, counting what it did."""

    def __init__(self, variant_id: str, rng: random.Random, *, rate: float, attempts: int) -> None:
        self.variant_id = variant_id
        self.rng = rng
        self.rate = rate
        self.attempts = attempts
        self.figures = Figures()
        self.game: Game | None = None
        self.doing = "dealing"

    def attack(self, rnd: Round, tally: Any, witness: Any = None) -> None:
        """The full step check (a live round) and ``attempts`` illegal attempts; with the
        round's ``witness``, the observations' known cards are checked against it too."""
        game = self.game
        assert game is not None
        if rnd.result is None:
            self.doing = "the step check"
            refused = tally.refused
            inv.check_step(rnd, self.rng, tally)
            inv.check_unlisted(rnd, self.rng, count=1)
            for seat in range(rnd.players):
                inv.check_observation(rnd, seat, witness)
            self.figures.checks += 2 + rnd.players
            self.figures.refused += tally.refused - refused
            self.count("step check", tally.refused - refused)
        game_before = game_state(game)  # the Game's own state (totals, results) once an attack
        tried = attempts(rnd, self.rng, self.attempts)
        for kind, attempt in tried:
            self.doing = f"trying {attempt!r} ({kind})"
            if try_attempt(rnd, attempt):
                self.figures.refused += 1
                self.count(kind, 1)
            else:
                self.figures.legal_by_chance += 1
        if game_state(game) != game_before:
            raise SoakFailure(f"refusing one of {[a for _, a in tried]!r} changed the game")
        self.figures.checks += 1
        self.doing = "playing"

    def count(self, kind: str, number: int) -> None:
        """Add ``number`` refused attempts of ``kind`` to the figures."""
        self.figures.by_kind[kind] = self.figures.by_kind.get(kind, 0) + number

    def play_round(self, rnd: Round, agents: list[Any], tally: Any) -> RoundResult:
        """Play ``rnd`` to its end, checking every step and attacking at random points."""
        witness = inv.Witness(rnd.players)
        views = [Observation(rnd, seat) for seat in range(rnd.players)]
        count = 0
        while rnd.result is None:
            inv.check_conservation(rnd)
            inv.check_known(rnd, witness)
            self.figures.checks += 2
            if self.rng.random() < self.rate:
                self.attack(rnd, tally, witness)
            player = rnd.to_move
            assert player is not None
            action = agents[player].act(views[player])
            self.doing = f"playing the agent's {str(action)!r}"
            assert action in rnd.legal_actions(), f"the agent's {action} is not 'in' the legal actions"
            witness.before(rnd, action)
            rnd.apply(action)  # a legal action refused raises here: a failure
            witness.after(rnd)
            count += 1
            assert count <= inv.MAX_ROUND_ACTIONS, f"round still going after {count} actions"
        if self.rng.random() < max(self.rate, 0.5):
            self.attack(rnd, tally)
        self.doing = "checking the round's result"
        inv.check_result(rnd)
        self.figures.checks += 1
        self.figures.rounds += 1
        self.figures.actions += count
        tally.hands += 1
        tally.actions += count
        return rnd.result

    def play_game(self, index: int, seed: int) -> None:
        """One whole seeded game (kind by index), its totals and figures checked at the end."""
        variant = load_variant(self.variant_id)
        self.game = Game(variant, random.Random(seed))
        kind = KINDS[index % len(KINDS)]
        inv.play_game_checked(self.variant_id, kind, seed, inv.Tally(), play=self.play_round, game=self.game)
        self.figures.checks += 1
        self.figures.games += 1


def game_seed(master: int, variant_id: str, index: int) -> int:
    """The seed of game ``index`` of a variant: from the master seed, stable across runs."""
    return random.Random(f"{master}:{variant_id}:{index}").getrandbits(48)


def soak_variant(variant_id: str, args: argparse.Namespace, out: TextIO) -> Figures | None:
    """Soak one variant; its figures, or None after printing a failure."""
    indices: Sequence[int] = [args.only_game] if args.only_game is not None else range(args.games)
    soak: Soak | None = None
    start = time.process_time()
    figures = Figures()
    for index in indices:
        seed = game_seed(args.seed, variant_id, index)
        soak = Soak(variant_id, random.Random(seed ^ 0x5EED), rate=args.rate, attempts=args.attempts)
        soak.figures = figures
        if args.progress and index % args.progress == 0:
            sys.stderr.write(f"{variant_id}: game {index} of {args.games},"
                             f" {time.process_time() - start:.0f} CPU s\n")
        try:
            soak.play_game(index, seed)
        except Exception as problem:  # noqa: BLE001 - every failure is reported with its seed
            rnd = soak.game.round if soak.game is not None else None
            out.write(f"FAILED: {variant_id} game {index} (seed {seed}, {KINDS[index % len(KINDS)]} seats)"
                      f", round {rnd.number if rnd else '-'}, action {len(rnd.actions) if rnd else 0},"
                      f" while {soak.doing}:\n  {type(problem).__name__}: {problem}\n")
            out.write("".join("  " + line for line in traceback.format_exc().splitlines(True)))
            out.write(f"reproduce: python benchmarks/soak.py --variants {variant_id} --only-game {index}"
                      f" --seed {args.seed} --rate {args.rate:g} --attempts {args.attempts}\n")
            return None
    figures.cpu = time.process_time() - start
    return figures


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, checked (a bad value exits 2 with argparse's message)."""
    parser = argparse.ArgumentParser(prog="soak.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per variant (default 20)")
    parser.add_argument("--seed", type=int, default=2026, help="the master seed (default 2026)")
    parser.add_argument("--variants", default="", help="comma-separated variant ids (default: every shipped one)")
    parser.add_argument("--rate", type=float, default=0.1,
                        help="chance of an attack before each action (default 0.1)")
    parser.add_argument("--attempts", type=int, default=8, help="illegal attempts per attack (default 8)")
    parser.add_argument("--only-game", type=int, default=None, help="replay one game, by its index")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON, not a table")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="say on stderr which game is starting, every N games")
    args = parser.parse_args(argv)
    if args.games < 0 or args.attempts < 0 or not 0 <= args.rate <= 1:
        parser.error("--games and --attempts must be >= 0 and --rate between 0 and 1")
    return args


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    """Run the soak; 0 when every check held, 1 on the first failure (printed with its seed)."""
    if not __debug__:
        out.write("soak.py checks with assert statements: run it without -O\n")
        return 2
    args = parse_args(argv)
    variants = [v for v in args.variants.split(",") if v] or shipped_variant_ids()
    rows: dict[str, Figures] = {}
    for variant_id in variants:
        figures = soak_variant(variant_id, args, out)
        if figures is None:
            return 1
        rows[variant_id] = figures
    if args.json:
        out.write(json.dumps({v: dataclasses.asdict(f) for v, f in rows.items()}, indent=1) + "\n")
        return 0
    out.write(f"soak: master seed {args.seed}, rate {args.rate:g}, {args.attempts} attempts an attack\n\n")
    out.write("| variant | games | rounds | actions | illegal attempts refused | legal by chance"
              " | invariant checks | CPU s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    total = Figures()
    for variant_id, f in rows.items():
        out.write(f"| {variant_id} | {f.games:,} | {f.rounds:,} | {f.actions:,} | {f.refused:,}"
                  f" | {f.legal_by_chance:,} | {f.checks:,} | {f.cpu:.1f} |\n")
        for name in ("games", "rounds", "actions", "refused", "legal_by_chance", "checks", "cpu"):
            setattr(total, name, getattr(total, name) + getattr(f, name))
        for kind, number in f.by_kind.items():
            total.by_kind[kind] = total.by_kind.get(kind, 0) + number
    out.write(f"| all | {total.games:,} | {total.rounds:,} | {total.actions:,} | {total.refused:,}"
              f" | {total.legal_by_chance:,} | {total.checks:,} | {total.cpu:.1f} |\n\n")
    out.write("refused by kind: " + ", ".join(f"{k} {n:,}" for k, n in sorted(total.by_kind.items())) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
