"""The prompt: the variant's rules, the seat's view, the moves so far, what to do and how to answer.

Everything in a prompt comes from the seat's observation (:mod:`rummydsl.engine.observe`:
its own hand, what is public, the cards of other hands everyone has seen) and from the
variant, so it holds no card the seat may not know: a redeal of the cards hidden from
the seat (``Match.resample``) leaves the prompt as it was (tests/llm/test_hidden.py).
"""

from __future__ import annotations

from typing import Sequence

from ..cards import Card
from ..endings import Ending
from ..engine.actions import player_name
from ..engine.match_view import MatchObservation
from ..engine.observe import Observation
from ..engine.state import RoundResult
from ..explainer import explain
from ..safetext import safe_text
from ..variant import load_variant
from ..variant.model import Variant
from .fold import FOLD_OVER, PLACEHOLDER, legal_lines
from .phases import instructions
from .view import public_moves, seat_view

__all__ = ["generate_prompt", "get_legal_moves", "MAX_MOVES_SHOWN", "MAX_ROUNDS_SHOWN"]

MAX_MOVES_SHOWN = 300
"""The most moves of the round a prompt lists (the latest; a long round of a variant that
turns its pile over says how many earlier ones it leaves out)."""
MAX_ROUNDS_SHOWN = 20
"""The most earlier rounds a prompt sums up, a line each (the latest; it says how many
it leaves out)."""


def get_legal_moves(observation: Observation | MatchObservation) -> list[str]:
    """The seat's legal moves now, in the card notation (docs/notation.md); empty while
    another seat is to move.

    >>> import rummydsl
    >>> m = rummydsl.Match.new("gin_rummy", seed=7)
    >>> get_legal_moves(m.view(m.to_move))
    ['P1 draw discard', 'P1 pass']
    >>> get_legal_moves(m.observation(1))
    []

    :raises TypeError: for something that is not a seat's observation.
    """
    return [str(action) for action in seat_view(observation).legal_actions()]


def generate_prompt(observation: Observation | MatchObservation, variant: Variant | str | None = None,
                    legal: bool = False) -> str:
    """A prompt for a language model playing the observation's seat.

    It gives, in order: the game and the seat; the rules of ``variant`` in words, with
    its values filled in (``rummydsl explain``); where the round stands as the seat sees
    it (its hand and its best arrangement, what it knows of the other hands, the stock,
    the discard pile, the table, a knock's shown melds, the scores); the earlier rounds
    of the game, a line each (how each ended, what each seat scored: the latest
    :data:`MAX_ROUNDS_SHOWN`); the moves so far this round (the latest
    :data:`MAX_MOVES_SHOWN`); an instruction for each kind of decision open to it now
    (:mod:`rummydsl.llm.phases`); with ``legal``, every legal move, a long list folded
    (:func:`~rummydsl.llm.fold.legal_lines`); and how to answer.

    ``variant`` is the observation's variant (a :class:`Variant`, its id or a path), or
    None for that variant: naming another is refused, so a prompt cannot describe a game
    other than the one being played.

    >>> import rummydsl
    >>> m = rummydsl.Match.new("gin_rummy", seed=7)
    >>> text = generate_prompt(m.view(m.to_move), "gin_rummy", legal=True)
    >>> print(text.splitlines()[0])
    You are playing Gin Rummy (variant gin_rummy) as P1, with 2 players.
    >>> "- P1 pass" in text
    True

    :raises ValueError: when ``variant`` is not the observation's variant.
    :raises TypeError: for something that is not a seat's observation.
    """
    view = seat_view(observation)
    actual = view.variant
    if variant is not None:
        named = variant if isinstance(variant, Variant) else load_variant(variant)
        if named.id != actual.id:
            raise ValueError(f"the observation is of variant {actual.id!r}, not {named.id!r}: "
                             "a prompt describes the game being played")
    me = player_name(view.player)
    lines = [f"You are playing {actual.name} (variant {actual.id}) as {me}, with {len(view.seated)} players.",
             "The rules follow, then the game as you see it, the moves so far, and what to do now.", ""]
    lines += ["# Rules", "", _rules(actual), ""]
    lines += ["# The game as you see it", ""]
    lines += _state(view)
    past = view.past_results()
    if past:
        lines += ["", "# Earlier rounds", ""]
        lines += _earlier(past)
    moves = public_moves(view)
    lines += ["", f"# Moves so far this round (round {view.number})", ""]
    if not moves:
        lines.append("None yet.")
    else:
        start = max(0, len(moves) - MAX_MOVES_SHOWN)
        if start:
            lines.append(f"({start} earlier moves not shown)")
        lines += [f"{k + 1}. {move}" for k, move in enumerate(moves) if k >= start]
    lines += ["", "# Your move", ""]
    moves_now = get_legal_moves(view)
    if view.to_move != view.player or not moves_now:
        who = "nobody" if view.to_move is None else player_name(view.to_move)
        lines.append(f"It is not your move (the round's phase is {view.phase}; {who} is to move). "
                     "Nothing to answer now.")
        return safe_text("\n".join(lines) + "\n")
    lines += [f"It is your move ({me}); the round's phase is {view.phase}."]
    for paragraph in instructions(view):
        lines += ["", paragraph]
    if legal:
        listing = legal_lines(list(view.legal_actions()))
        if len(moves_now) <= FOLD_OVER:
            lines += ["", f"Your legal moves ({len(moves_now)}):"] + listing
        else:
            lines += ["", f"Your legal moves ({len(moves_now)}, folded as the list is long: a line with "
                      f"{PLACEHOLDER} stands for one move per card it names, and a group of lay-downs "
                      "lists the melds they are made of; any move the rules allow is accepted, "
                      "listed or not):"] + listing
    example = moves_now[-1]
    lines += ["", "# How to answer", "",
              "Answer with exactly one move, written as in the rules above (cards as rank then suit, "
              f"a meld in square brackets), in a JSON object on a line of its own: {{\"move\": \"{example}\"}}",
              "You may think aloud first; the last JSON object you write is your answer. "
              "A move that is not legal is refused and you are asked again."]
    return safe_text("\n".join(lines) + "\n")


_ENDED = {Ending.GIN: "went gin", Ending.BIG_GIN: "went big gin", Ending.KNOCK: "knocked", Ending.OUT: "went out"}


def _earlier(past: Sequence[tuple[int, RoundResult]]) -> list[str]:
    """One line for each round before this one (the latest :data:`MAX_ROUNDS_SHOWN`): how it
    ended and what each seat scored."""
    out = []
    start = max(0, len(past) - MAX_ROUNDS_SHOWN)
    if start:
        out.append(f"({start} earlier rounds not shown; the game totals above count them)")
    for number, result in past[start:]:
        if result.ender is not None and result.ending in _ENDED:
            how = f"{player_name(result.ender)} {_ENDED[result.ending]}" + (" and was undercut" if result.undercut
                                                                             else "")
        elif result.void:
            how = "the stock ran down to its floor; nobody scored"
        else:
            how = "the stock ran down to its floor and the hands were scored"
        points = ", ".join(f"{player_name(p)} {v}" for p, v in enumerate(result.points))
        deadwood = ", ".join(f"{player_name(p)} {d}" for p, d in enumerate(result.deadwoods) if d is not None)
        out.append(f"- Round {number}: {how}; points {points}" + (f" (deadwood {deadwood})" if deadwood else "")
                   + ".")
    return out


_RULES: dict[int, tuple[Variant, str]] = {}
_KEPT = 32


def _rules(variant: Variant) -> str:
    """``explain(variant)``, kept for the last few variants (a game asks for it every move)."""
    got = _RULES.get(id(variant))
    if got is None or got[0] is not variant:
        got = (variant, explain(variant).rstrip("\n"))
        if len(_RULES) >= _KEPT:
            _RULES.pop(next(iter(_RULES)))
        _RULES[id(variant)] = got
    return got[1]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards) if cards else "none"


def _state(view: Observation) -> list[str]:
    """Where the round stands, as the seat sees it: one line a fact."""
    variant = view.variant
    me = view.player
    out = [f"Round {view.number}; the dealer is {player_name(view.dealer)}."
           + ("" if view.sat_out is None else f" {player_name(view.sat_out)} sits out this round.")]
    scores = ", ".join(f"{player_name(p)} {view.scores[p]}" for p in range(view.players))
    out.append(f"Game totals before this round: {scores}.")
    hand = sorted(view.hand, key=lambda c: c.id)
    out.append(f"Your hand ({_count(len(hand), 'card')}): {_cards(hand)}")
    if hand:
        try:
            best = view.rules.solve(hand)
        except Exception:  # noqa: BLE001 - a hint only: a hand the solver refuses gets none
            best = None
        if best is not None:
            melds = " ".join("[" + " ".join(str(c) for c in meld) + "]" for meld in best.melds) or "no melds"
            out.append(f"Its arrangement with least deadwood: {melds}; deadwood {best.deadwood}"
                       f" ({_cards(best.unmatched)}).")
    if view.taken is not None:
        out.append(f"You took {view.taken} from the discard pile this turn.")
    if view.knock_discard is not None:
        out.append(f"You knocked, discarding {view.knock_discard} face down.")
    for name, seat in ((player_name(p), p) for p in view.seated if p != me):
        known = view.known(seat)
        seen = f"; of them you have seen {_cards(known)} (taken from the pile or offered)" if known else ""
        out.append(f"{name} holds {_count(view.hand_sizes[seat], 'card')}{seen}.")
    out.append(f"Stock: {_count(view.stock_size, 'card')} (never drawn below {variant.stock.floor}).")
    pile = view.discards
    if pile:
        out.append(f"Discard pile ({_count(len(pile), 'card')}, bottom first): {_cards(pile)}; the top card is {pile[-1]}.")
    else:
        out.append("Discard pile: empty.")
    if view.face_down:
        out.append("A knock's discard lies face down on the pile.")
    if view.upcard is not None:
        out.append(f"The upcard dealt this round: {view.upcard}.")
    if view.offered is not None:
        out.append(f"The card being offered: {view.offered}.")
    limit = view.knock_limit
    if variant.knock is not None:
        out.append("Knock limit this round: " + ("none (any deadwood may knock)." if limit is None
                                                 else f"at most {limit} deadwood."))
    if variant.contract is not None:
        met = ", ".join(f"{player_name(p)} {'yes' if view.met_contract[p] else 'no'}" for p in view.seated)
        out.append(f"Contract met this deal: {met}.")
    if variant.buying is not None:
        bought = ", ".join(f"{player_name(p)} {view.bought[p]}" for p in view.seated)
        out.append(f"Buys this deal (at most {view.buy_limit} each): {bought}.")
    table = [(p, k, meld) for p in range(view.players) for k, meld in enumerate(view.table[p])]
    if table:
        out.append("Table melds:")
        out += [f"- {player_name(p)}#{k + 1}: [{_cards(meld.cards)}] ({meld.kind})" for p, k, meld in table]
    else:
        out.append("Table melds: none.")
    if view.ender is not None:
        deadwood = view.ender_deadwood
        out.append(f"After the knock: {player_name(view.ender)} ended the round"
                   + ("" if deadwood is None else f" with {deadwood} deadwood") + ".")
        for p in view.seated:
            shown = view.shown(p)
            if shown is not None:
                melds = " ".join("[" + _cards(meld) + "]" for meld in shown) or "no melds"
                out.append(f"- {player_name(p)} showed: {melds}")
    return out
