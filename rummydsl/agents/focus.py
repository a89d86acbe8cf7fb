"""Where a search spends its iterations: the few moves of a decision worth comparing.

A seat's legal actions fall into **kinds**: a draw from each pile, a knock, a discard,
an offer, a meld, a lay-off, taking or declining an offered card, passing, buying,
``done``. Which kind to play is the decision a search can judge with few playouts (to
knock or play on, to take the card or the stock, to accept the offer, to lay down or
hold the melds back); which card of a kind (which of eleven discards) is a fine choice
that a cheap policy makes about as well, and that a few noisy playouts per card would
make worse. :func:`candidates` keeps one action of each kind: the policy's own move for
its kind and, for each other kind, the move a simple rule picks (greedy's: the knock
leaving the least deadwood, the discard or offer leaving the least, the meld or lay-off
greedy would put down; a kind with one action, itself). A decision with one kind (every
legal action a discard, an offer, a meld) is left to the policy.

The kinds are read from the actions' types, not from any game: every variant whose
steps offer these choices gets them.

>>> from rummydsl.engine.match import Match
>>> from rummydsl.agents.heuristic import HeuristicAgent
>>> m = Match.new("gin_rummy", seed=4)
>>> view = m.view(m.to_move)
>>> [str(a) for a in candidates(view, HeuristicAgent().act(view))]
['P2 pass', 'P2 draw discard']
"""

from __future__ import annotations

from typing import Callable, Sequence

from ..engine.actions import Action, Discard, Draw, Knock, Layoff, Meld, Offer
from ..engine.observe import Observation
from .basic import GreedyAgent

__all__ = ["kind", "candidates"]


def kind(action: Action) -> str:
    """The kind of an action: its type, and for a draw its pile."""
    name = type(action).__name__
    return f"{name}:{action.source}" if isinstance(action, Draw) else name


def _pick_shed(observation: Observation, options: Sequence[Action]) -> Action:
    sheds = [a for a in options if isinstance(a, (Discard, Offer))]
    return GreedyAgent._shed(observation, sheds, options)


def _pick_knock(observation: Observation, options: Sequence[Action]) -> Action:
    return GreedyAgent._best_knock(observation, [a for a in options if isinstance(a, Knock)])


def _pick_put(observation: Observation, options: Sequence[Action]) -> Action:
    return GreedyAgent._meld(observation, [a for a in options if isinstance(a, (Meld, Layoff))])


_PICK: dict[str, Callable[[Observation, Sequence[Action]], Action]] = {
    "Discard": _pick_shed, "Offer": _pick_shed, "Knock": _pick_knock, "Meld": _pick_put, "Layoff": _pick_put,
}
"""How one action of a kind with several is chosen when the policy's move is of another kind."""


def candidates(observation: Observation, policy_move: Action, legal: Sequence[Action] | None = None) -> list[Action]:
    """The policy's move first, then one action of each other kind of ``legal`` (the
    seat's legal actions by default), in the order the kinds first appear; a kind of
    several actions and no rule to pick one (deep draws) is left out."""
    legal = list(observation.legal_actions()) if legal is None else list(legal)
    groups: dict[str, list[Action]] = {}
    for action in legal:
        groups.setdefault(kind(action), []).append(action)
    mine = kind(policy_move)
    out = [policy_move]
    for name, group in groups.items():
        if name == mine:
            continue
        if len(group) == 1:
            out.append(group[0])
        elif name in _PICK:
            out.append(_PICK[name](observation, group))
    return out
