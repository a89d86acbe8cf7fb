"""Play at the terminal: a person's seat, and a running account of the game for them.

:class:`HumanAgent` is an agent like the others (``act(observation)``): when it is
the person's move it shows their hand sorted with its best melds and deadwood,
the table, the discard pile, the stock, the scores and the legal moves numbered,
then reads a line: a number, an action in the notation (``discard 7H`` may leave
out the player), ``help``, ``quit``. Bad input gets a polite message and a new
prompt. :class:`TerminalWatcher` tells the person what the other players did
between their moves and how each round ended. Plain text, no colour: it reads
the same on any terminal, in a pipe, and to a screen reader.

>>> import io, random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.engine import Round
>>> from rummydsl.engine.observe import Observation
>>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
>>> out = io.StringIO()
>>> agent = HumanAgent(0, io.StringIO("hello\\n2\\n"), out)
>>> str(agent.act(Observation(rnd, 0)))
'P1 pass'
>>> "I could not read 'P1 hello'" in out.getvalue()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence, TextIO

from .engine.actions import Action, Knock, player_name
from .engine.play import TakeBack
from .errors import RummyDslError
from .record import Quit, Watcher

if TYPE_CHECKING:
    from .cards import Card
    from .engine import GameResult, Round, RoundResult
    from .engine.observe import Observation

__all__ = ["HumanAgent", "TerminalWatcher", "render_observation", "ordered", "HELP"]

HELP = """\
Type the number of a move, or the move itself: 'discard 7H', 'knock 9C',
'meld [3S 4S 5S]', 'layoff 6S on P2#1' (your seat, e.g. P1, may be left out).
Other commands: 'undo' takes back your last move (and what was played since),
'show' prints the table again, 'help' this text, 'quit' (or Ctrl-D) leaves the game."""

_RULE = "-" * 64


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards) if cards else "-"


def _sorted(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: c.id)


def _hand_lines(observation: Observation) -> list[str]:
    """The person's hand sorted, with its best melds and deadwood (and the best discard)."""
    hand = _sorted(observation.hand)
    lines = [f"your hand ({len(hand)}): {_cards(hand)}"]
    rules = observation.rules
    variant = observation.variant
    try:
        best = rules.solve(hand)
        melds = " ".join("[" + _cards(_sorted(m)) + "]" for m in best.melds) or "none"
        lines.append(f"  best melds: {melds}   deadwood: {best.deadwood} ({_cards(_sorted(best.unmatched))})")
        if variant.contract is not None:
            met = "met (on the table)" if observation.met_contract[observation.player] else (
                "held" if best.contract else "not held")
            lines.append(f"  contract: {met}")
        if len(hand) == observation.hand_size + 1:
            after = rules.solve_discard(hand)
            if after.discard is not None:
                lines.append(f"  best discard: {after.discard} (deadwood after: {after.deadwood})")
    except RummyDslError:
        pass  # a hand the solver cannot judge (too many cards): the cards alone are shown
    return lines


def render_observation(observation: Observation, legal: Sequence[Action]) -> str:
    """What the person sees at their move: the whole public table and their own hand.

    >>> import random
    >>> from rummydsl.variant import load_variant
    >>> from rummydsl.engine import Round
    >>> from rummydsl.engine.observe import Observation
    >>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
    >>> text = render_observation(Observation(rnd, 0), list(rnd.legal_actions()))
    >>> "  1  P1 draw discard" in text and "stock: 31 cards" in text
    True
    """
    me = observation.player
    n = observation.players
    scores = " . ".join(f"{player_name(p)} {observation.scores[p]}" for p in range(n))
    to_move = observation.to_move
    lines = [_RULE,
             f"round {observation.number}: {player_name(me)} (you) to move, phase {observation.phase}",
             f"scores: {scores}    dealer: {player_name(observation.dealer)}"]
    if observation.sat_out is not None:  # G3-1
        sitter = observation.sat_out
        lines[-1] += f"    sits out: {player_name(sitter)}{' (you)' if sitter == me else ''}"
    limit = observation.knock_limit
    if observation.variant.knock is not None and limit is None:
        lines[-1] += "    knock: any deadwood"
    elif observation.variant.knock is not None and limit is not None and limit >= 0:
        lines[-1] += f"    knock limit: {limit}"
    top = observation.top_discard
    size = len(observation.discards)
    pile = f"discard pile: {top} on top ({size} card{'s' if size != 1 else ''})" if top is not None else (
        "discard pile: empty" if observation.variant.has_discard_pile else "")
    lines.append(f"stock: {observation.stock_size} cards    {pile}".rstrip())
    if observation.turn_overs:
        times = "once" if observation.turn_overs == 1 else f"{observation.turn_overs} times"
        lines[-1] += f"    (the pile was turned over {times})"
    draw = observation.variant.step("draw")
    if draw is not None and draw.discard_depth == "any" and size > 1:
        lines.append(f"  the pile, bottom first: {_cards(observation.discards)}")  # R5-2: spread out
    others = [p for p in range(n) if p != me and p != observation.sat_out]
    sizes = observation.hand_sizes
    lines.append("hands: " + ", ".join(f"{player_name(p)} {sizes[p]} card{'s' if sizes[p] != 1 else ''}"
                                       for p in others))
    for p in others:
        known = observation.known(p)
        if known:
            lines.append(f"  {player_name(p)} is known to hold: {_cards(_sorted(known))}")
    table = [(p, i, m) for p, melds in enumerate(observation.table) for i, m in enumerate(melds)]
    if table:
        lines.append("table:")
        for p, i, meld in table:
            laid = [f"{player_name(who)} {card}" for card, who in zip(meld.cards, meld.by) if who != p]
            credit = f"   (laid off: {', '.join(laid)})" if laid else ""
            lines.append(f"  {player_name(p)}#{i + 1} {meld.kind}: {_cards(meld.cards)}{credit}")
    ender = observation.ender
    if ender is not None:
        shown = observation.shown(ender) or ()
        melds = " ".join("[" + _cards(m) + "]" for m in shown) or "none"
        lines.append(f"{player_name(ender)} ended the round: melds {melds}, deadwood {observation.ender_deadwood}")
    void = observation.variant.void
    if void.at_discard_draw is not None:
        lines.append(f"draws from the discard pile this round: {observation.discard_draws} "
                     f"(the round is void at draw {void.at_discard_draw})")
    if (observation.phase == "showdown" and to_move == me and observation.shown(me) is None
            and observation.variant.deadwood_arrangement == "as_shown"):
        lines.append("you are scored on the melds you show: 'meld [..] [..]' ('meld []' shows none); "
                     "'done' alone shows your least arrangement")
    if observation.offered is not None and to_move == me:
        lines.append(f"you are offered: {observation.offered}")
    if observation.buy_limit:  # CR-4
        lines.append(f"buys this deal: you {observation.bought[me]} of {observation.buy_limit}")
        if observation.phase == "buy" and top is not None:
            lines.append(f"{player_name(observation.turn_player)} draws from the stock: you may buy {top} "
                         "with a penalty card from the stock")
    lines.extend(_hand_lines(observation))
    lines.append("moves:")
    width = len(str(len(legal)))
    for number, action in enumerate(legal, start=1):
        lines.append(f"  {number:>{width}}  {action}")
    return "\n".join(lines) + "\n"


def ordered(legal: Iterable[Action]) -> list[Action]:
    """The legal moves as the person sees them: verbs in the engine's order, cards sorted.

    >>> import random
    >>> from rummydsl.variant import load_variant
    >>> from rummydsl.engine import Round
    >>> rnd = Round.deal(load_variant("gin_rummy"), random.Random(7), dealer=1)
    >>> [str(a) for a in ordered(rnd.legal_actions())]
    ['P1 draw discard', 'P1 pass']
    """
    actions = list(legal)
    first: dict[type, int] = {}
    for index, action in enumerate(actions):
        first.setdefault(type(action), index)

    def key(action: Action) -> tuple[int, int]:
        card = getattr(action, "card", None)
        return first[type(action)], -1 if card is None else card.id

    return sorted(actions, key=key)


class HumanAgent:
    """A person at the terminal plays seat ``seat``, reading from ``inp`` and writing to ``out``."""

    def __init__(self, seat: int, inp: TextIO, out: TextIO) -> None:
        self.seat = seat
        self.inp = inp
        self.out = out

    def say(self, text: str) -> None:
        self.out.write(text if text.endswith("\n") else text + "\n")
        self.out.flush()

    def refused(self, reason: str) -> None:
        """The play loop could not take back (:class:`~rummydsl.engine.play.TakeBack`): say why."""
        self.say(f"Sorry, nothing can be taken back: {reason}.")

    def act(self, observation: Observation) -> Action | TakeBack:
        """Show the table and read the person's move until it is a legal one, or ``undo``
        (:class:`~rummydsl.engine.play.TakeBack`: back to the person's previous move).

        :raises Quit: on ``quit`` or at the end of input (Ctrl-D), or Ctrl-C.
        """
        legal = ordered(observation.legal_actions())
        if len(legal) == 1:
            self.say(f"(your only move) {legal[0]}")
            return legal[0]
        self.say(render_observation(observation, legal))
        while True:
            self.out.write("your move (number, action, 'undo', 'help' or 'quit'): ")
            self.out.flush()
            try:
                line = self.inp.readline()
            except KeyboardInterrupt:
                raise Quit("the player left (Ctrl-C)") from None
            if not line:
                self.say("")
                raise Quit("the player left (end of input)")
            text = line.strip()
            if not text:
                continue
            action = self._read(text, observation, legal)
            if action is not None:
                return action

    def _read(self, text: str, observation: Observation, legal: Sequence[Action]) -> Action | TakeBack | None:
        """The move ``text`` names, or ``None`` after saying what is wrong with it."""
        word = text.lower()
        if word in ("quit", "exit", "q"):
            raise Quit("the player left")
        if word in ("help", "?", "h"):
            self.say(HELP)
            return None
        if word in ("show", "s", "table"):
            self.say(render_observation(observation, legal))
            return None
        if word in ("undo", "u", "back"):
            return TakeBack()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"Sorry, there is no move {number}: choose 1 to {len(legal)}.")
            return None
        first = text.split()[0]
        if not (first[:1] in "Pp" and first[1:].isdigit()):
            text = f"{player_name(self.seat)} {text}"
        try:
            action = observation.parse(text)
        except RummyDslError as problem:
            reason = getattr(problem, "reason", str(problem))
            self.say(f"Sorry, I could not read {text!r}: {reason}. Type 'help' for examples.")
            return None
        reason = observation.why_illegal(action)
        if reason is not None:
            self.say(f"Sorry, {str(action)!r} is not allowed now: {reason}.")
            return None
        return action


class TerminalWatcher(Watcher):
    """Tells the person at seat ``seat`` what happens: others' moves, each round's end."""

    def __init__(self, seat: int, out: TextIO) -> None:
        self.seat = seat
        self.out = out

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def deal(self, rnd: Round) -> None:
        upcard = f", upcard {rnd.upcard}" if rnd.upcard is not None else ""
        sitter = rnd.sat_out
        sits = "" if sitter is None else (
            f", {player_name(sitter)}{' (you)' if sitter == self.seat else ''} sits out")
        self.say(f"\n=== round {rnd.number}: {player_name(rnd.dealer)} deals{sits}{upcard} ===")

    def action(self, rnd: Round, action: Action) -> None:
        if isinstance(action, Knock) and action.card is not None and action.player != self.seat:
            # GR-6.1, GS-6.1: the knock's discard goes face down; the melds are shown on the table
            self.say(f"  {player_name(action.player)} knocks, discarding a card face down")
            return
        self.say(f"  {action}{' (you)' if action.player == self.seat else ''}")

    def taken_back(self, rnd: Round) -> None:
        self.say(f"\n(taken back: round {rnd.number}, as it stood before your last move)")

    def round_over(self, rnd: Round, result: RoundResult, scores: tuple[int, ...]) -> None:
        n = rnd.players
        how = result.ending.replace("_", " ")
        who = f" by {player_name(result.ender)}" if result.ender is not None else ""
        undercut = " (undercut)" if result.undercut else ""
        self.say(f"\nround {rnd.number} over: {how}{who}{undercut}")
        for p in range(n):
            you = " (you)" if p == self.seat else ""
            if p == rnd.sat_out:
                self.say(f"  {player_name(p)}{you}: sat out")
                continue
            table = " ".join("[" + _cards(m.cards) + "]" for m in rnd.table[p])
            melds = f"melds {table}; " if table else ""
            if result.void and p != self.seat:  # nothing is scored, so no hand is shown
                self.say(f"  {player_name(p)}: {melds}hand not shown ({len(rnd.hands[p])} cards); points 0")
                continue
            deadwood = result.deadwoods[p]
            shown = "not worked out (a hand past the solver)" if deadwood is None else deadwood
            self.say(f"  {player_name(p)}{you}: {melds}hand {_cards(_sorted(rnd.hands[p]))}; deadwood "
                     f"{shown}; points {result.points[p]}")
        self.say("scores: " + " . ".join(f"{player_name(p)} {scores[p]}" for p in range(n)))

    def game_over(self, result: GameResult) -> None:
        n = len(result.points)
        you = " (you)" if result.winner == self.seat else ""
        self.say(f"\ngame over after {result.rounds} rounds: {player_name(result.winner)}{you} wins")
        self.say("final figures: " + " . ".join(f"{player_name(p)} {result.figures[p]}" for p in range(n)))
