"""The shipped decks, ``standard52`` and ``rumski70``, as the parts a deck is made of.

:meth:`~rummydsl.cards.Deck.preset` builds (once) the deck of these parts; a
variant's ``deck: {preset: ...}`` starts from them.

>>> suits, ranks, wilds = preset_parts("rumski70")
>>> " ".join(s.symbol for s in suits), len(ranks), wilds
('R B G P Y', 13, 5)
>>> check_preset_name("standard", ("preset",))
Traceback (most recent call last):
...
rummydsl.errors.DeckError: preset: unknown deck preset 'standard' (did you mean 'standard52'? presets: standard52, rumski70)
"""

from __future__ import annotations

from typing import Any

from ..errors import DeckError
from ..suggest import closest
from .faces import Rank, Suit

__all__ = ["PRESETS", "preset_parts", "check_preset_name"]

#: The names :meth:`Deck.preset <rummydsl.cards.Deck.preset>` knows.
PRESETS: tuple[str, ...] = ("standard52", "rumski70")

_NUMBER_NAMES = (
    "one two three four five six seven eight nine ten eleven twelve thirteen".split()
)


def _standard52() -> tuple[tuple[Suit, ...], tuple[Rank, ...], int]:
    suits = (
        Suit("S", "spades", "black", 0),
        Suit("H", "hearts", "red", 1),
        Suit("D", "diamonds", "red", 2),
        Suit("C", "clubs", "black", 3),
    )
    names = ["ace", *_NUMBER_NAMES[1:10], "jack", "queen", "king"]
    symbols = "A 2 3 4 5 6 7 8 9 T J Q K".split()
    ranks = tuple(
        Rank(sym, nm, i + 1, ("10",) if sym == "T" else ())
        for i, (sym, nm) in enumerate(zip(symbols, names))
    )
    return suits, ranks, 0


def _rumski70() -> tuple[tuple[Suit, ...], tuple[Rank, ...], int]:
    colours = ("R", "red"), ("B", "blue"), ("G", "green"), ("P", "purple"), ("Y", "yellow")
    suits = tuple(Suit(sym, nm, nm, i) for i, (sym, nm) in enumerate(colours))
    ranks = tuple(Rank(str(i + 1), nm, i + 1) for i, nm in enumerate(_NUMBER_NAMES))
    return suits, ranks, 5


_PARTS = {"standard52": _standard52(), "rumski70": _rumski70()}


def preset_parts(name: str) -> tuple[tuple[Suit, ...], tuple[Rank, ...], int]:
    """The suits, ranks and number of wild cards of the preset ``name`` (one pack, ace low, no wrap).

    :raises KeyError: for a name not in :data:`PRESETS` (check it first with :func:`check_preset_name`).
    """
    return _PARTS[name]


def check_preset_name(name: object, path: tuple[Any, ...]) -> str:
    """``name`` if it is a preset's name.

    :raises DeckError: at ``path``, suggesting the nearest name.
    """
    if not isinstance(name, str) or name not in PRESETS:
        near = closest(str(name), PRESETS, cutoff=0.5)
        hint = f"did you mean {near!r}? " if near else ""
        raise DeckError(
            f"unknown deck preset {name!r} ({hint}presets: {', '.join(PRESETS)})", path
        )
    return name
