"""Decks, cards and card notation.

The package: :mod:`~rummydsl.cards.faces` (:class:`Suit`, :class:`Rank`, :class:`Card`),
:mod:`~rummydsl.cards.deck` (:class:`Deck`), :mod:`~rummydsl.cards.parts` (checking and
reading a deck's parts), :mod:`~rummydsl.cards.presets` (the shipped decks) and
:mod:`~rummydsl.cards.badcard` (why a text is not a card). Import the names from here.

A :class:`Deck` is built from a variant's ``deck`` mapping (:meth:`Deck.from_spec`)
or a shipped preset (:meth:`Deck.preset`). It holds every physical card as a
:class:`Card` whose ``id`` is its index in :attr:`Deck.cards`, so the hot code can
work with ints and bitmasks (bit ``card.id`` of a hand mask).

Card notation (the DESIGN.md contract): rank then suit, case-insensitive: ``AS``,
``TD`` or ``10D``, ``KC``, ``7H``; the Rumski deck writes number then colour
letter: ``4R``, ``13Y``, ``1G``; a wild card is ``*``. Formatting uses each rank's
primary symbol (``T``, not ``10``) then the suit symbol.

>>> deck = Deck.preset("standard52")
>>> deck.format_cards(deck.parse_cards("as 10d kc".split()))
'AS TD KC'
>>> rumski = Deck.preset("rumski70")
>>> [c.id for c in rumski.parse_cards(["1R", "13Y", "*", "*"])]
[0, 64, 65, 66]

Symbols
-------
A suit symbol is one ASCII letter. A rank symbol or alias is 1 to 8 ASCII letters
or digits. Every spelling is unique ignoring case: no two suits share a symbol, and
no two rank spellings (symbols and aliases together) are equal. Because a suit
symbol is always exactly one character, a card's text splits in one way only (the
last character is the suit, the rest the rank), so these two rules are all that
notation needs to stay unambiguous: a rank may even be spelled like a suit (a rank
``S`` gives the card ``SS``). Letters and digits only also keep cards apart from
the ``*`` of a wild card and from the ``[``, ``]``, ``#`` and spaces of action text.

Card ids
--------
With ``F = len(suits) * len(ranks)`` natural faces, the natural card of a suit, a
rank and a copy (0 up to ``packs - 1``) has the id
``copy * F + suit.index * len(ranks) + rank.order - 1``; the wild cards follow,
with ids ``packs * F`` up to ``packs * F + wilds - 1``. So ``id % F`` is the face of
a natural card (see :meth:`Deck.face_key`), ``id // F`` its copy, and copy 0 of
every face comes before copy 1.
"""

from __future__ import annotations

from ..errors import DeckError, format_path
from ..limits import MAX_PACKS, MAX_RANKS, MAX_SYMBOL, MAX_WILDS
from .deck import Deck
from .faces import ACE_OPTIONS, WILD_TEXT, AceOption, Card, Rank, Suit
from .parts import KeyPath  # AceOption and KeyPath: importable from here, as before the split
from .presets import PRESETS

__all__ = [
    "Suit",
    "Rank",
    "Card",
    "Deck",
    "DeckError",
    "PRESETS",
    "ACE_OPTIONS",
    "WILD_TEXT",
    "MAX_PACKS",
    "MAX_WILDS",
    "MAX_RANKS",
    "MAX_SYMBOL",
    "format_path",
]
