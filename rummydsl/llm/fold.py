"""A long list of legal moves, folded so that a prompt stays short and every move stays sayable.

A lay-down of several melds is one move, so a seat holding many melds has hundreds
(Contract Rummy offers several hundred lay-downs of three melds; lay-offs, deep draws and
discards of a big hand add dozens). :func:`legal_lines` lists a short list whole, one
move a line; a long one is folded by the shape of its moves, in the listing's order:

- moves that differ only in one card (``P1 discard CARD``, ``P1 layoff CARD on P2#1``,
  ``P1 draw discard CARD``) are one line naming the cards: ``- P1 layoff CARD on P2#1,
  CARD one of: 7H 8H 9H``;
- lay-downs of the same number of melds are their first few, then the melds they are
  made of, each once, for the model to compose its own;
- a group of a few moves is listed whole.

Nothing is lost: :func:`~rummydsl.llm.parse_response` given the observation accepts any
move the rules allow, listed or not, so a lay-down composed of the melds shown is read
and judged by the rules (tests/llm/test_fold.py plays them).

>>> from rummydsl.cards import Deck
>>> from rummydsl.engine.actions import parse_action
>>> deck = Deck.preset("standard52")
>>> moves = [parse_action(f"P1 discard {c}", deck, 2) for c in "2S 3S 4S 5S 6S".split()]
>>> legal_lines(moves, fold_over=3)
['- P1 discard CARD, CARD one of: 2S 3S 4S 5S 6S']
>>> legal_lines(moves[:2], fold_over=3)
['- P1 discard 2S', '- P1 discard 3S']
"""

from __future__ import annotations

from typing import Sequence

from ..engine.actions import Action, Knock, Meld, player_name

__all__ = ["legal_lines", "FOLD_OVER", "LISTED_WHOLE", "EXAMPLES", "MAX_MELDS_SHOWN", "PLACEHOLDER"]

FOLD_OVER = 30
"""A list of more legal moves than this is folded."""
LISTED_WHOLE = 4
"""A group of at most this many moves of one shape is listed whole, even in a folded list."""
EXAMPLES = 3
"""The lay-downs of one size listed whole before the melds they are made of."""
MAX_MELDS_SHOWN = 200
"""The most melds a folded group of lay-downs names (the rest are said to exist)."""
PLACEHOLDER = "CARD"
"""The word that stands for the card of a folded line."""
_PER_LINE = 8
"""Melds a line of a folded lay-down group."""


def _shape(action: Action) -> tuple[str, ...]:
    """The group a move folds into: its text with its one card put aside, the number of
    melds of a lay-down, or the move itself."""
    text = str(action)
    if isinstance(action, Meld):
        return ("meld", str(len(action.melds)))
    card = getattr(action, "card", None)
    if card is not None and not (isinstance(action, Knock) and action.melds):
        words = text.split(" ")
        name = str(card)
        for k in range(2, len(words)):
            if words[k] == name:
                return ("card", " ".join([*words[:k], PLACEHOLDER, *words[k + 1:]]))
    return ("one", text)


def legal_lines(actions: Sequence[Action], *, fold_over: int = FOLD_OVER) -> list[str]:
    """The legal moves as prompt lines (``- MOVE``), folded when there are more than
    ``fold_over`` (see the module docstring); every line but a lay-down group's list of
    melds begins ``- ``."""
    texts = [str(a) for a in actions]
    if len(actions) <= fold_over:
        return [f"- {text}" for text in texts]
    groups: dict[tuple[str, ...], list[Action]] = {}
    for action in actions:
        groups.setdefault(_shape(action), []).append(action)
    out: list[str] = []
    for (kind, key), members in groups.items():
        if kind == "one" or len(members) <= LISTED_WHOLE:
            out += [f"- {a}" for a in members]
        elif kind == "card":
            cards = " ".join(str(getattr(a, "card")) for a in members)
            out.append(f"- {key}, {PLACEHOLDER} one of: {cards}")
        else:
            out += _laydowns(members)
    return out


def _laydowns(members: list[Action]) -> list[str]:
    """A group of lay-downs of as many melds each: a few whole, then every meld they use."""
    out = [f"- {a}" for a in members[:EXAMPLES]]
    melds: dict[str, None] = {}
    for action in members:
        assert isinstance(action, Meld)
        for meld in action.melds:
            melds.setdefault("[" + " ".join(str(c) for c in meld) + "]", None)
    names = list(melds)
    shown = names[:MAX_MELDS_SHOWN]
    size = len(getattr(members[0], "melds"))
    me = player_name(members[0].player)
    written = f"{me} meld {' '.join(['[CARD CARD CARD]'] * size)}"
    if size == 1:
        out.append(f"- ... and {len(members) - EXAMPLES} more lay-downs of one meld, written '{written}': "
                   f"any one of these {len(names)} melds:")
    else:
        out.append(f"- ... and {len(members) - EXAMPLES} more lay-downs of {size} melds, written '{written}': "
                   f"any {size} of these {len(names)} melds that share no card and together meet what the "
                   "rules ask:")
    for k in range(0, len(shown), _PER_LINE):
        out.append("  " + " ".join(shown[k:k + _PER_LINE]))
    if len(names) > len(shown):
        out.append(f"  (and {len(names) - len(shown)} more melds of your hand)")
    return out
