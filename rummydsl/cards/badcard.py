"""Why a text is not a card of a deck: the message of its :class:`~rummydsl.errors.CardError`.

The message quotes the text, says what is wrong and, where the text looks like another
notation (suit first, a suit drawn as a symbol, a suit of another shipped deck, a rank
written as its number), how to write it.

>>> from rummydsl.cards import Deck
>>> explain_bad_card(Deck.preset("standard52"), "1S")
"unknown card '1S': no rank '1' in this deck (ranks: A 2 3 4 5 6 7 8 9 T J Q K); rank 1 is written 'A': 'AS'"
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import CardError
from .faces import WILD_TEXT, Card, Suit
from .parts import norm
from .presets import PRESETS, preset_parts

if TYPE_CHECKING:
    from .deck import Deck

__all__ = ["explain_bad_card"]

_UNICODE_SUITS = {
    "\u2660": "S", "\u2664": "S", "\u2665": "H", "\u2661": "H",
    "\u2666": "D", "\u2662": "D", "\u2663": "C", "\u2667": "C",
}  # fmt: skip
_WILD_SPELLINGS = ("W", "JOKER", "JK", "JKR", "WILD")


def explain_bad_card(deck: Deck, text: object) -> str:
    """Why ``text`` is not a card of ``deck``, with a hint where one helps."""
    if not isinstance(text, str):
        return f"expected a card as text, such as {_example(deck)!r}, not {text!r}"
    t = text.strip()
    if not t:
        return f"empty card text: expected a card such as {_example(deck)!r}"
    head = f"unknown card {text!r}"
    rank_word, suit_word = _nouns(deck)
    if t == WILD_TEXT:
        return f"{head}: this deck has no wild cards"
    if any(ch.isspace() for ch in t):
        joined = _try(deck, "".join(t.split()))
        hint = f"; write {str(joined)!r}" if joined is not None else ""
        return f"{head}: a card has no spaces (one card at a time){hint}"
    if t.upper() in _WILD_SPELLINGS and not (deck.rank_by_symbol(t) or deck.suit_by_symbol(t)):
        if deck.wilds:
            return f"{head}: write a wild card as '*'"
        return f"{head}: this deck has no wild cards"
    if len(t) == 1:
        if deck.rank_by_symbol(t) is not None:
            return f"{head}: {rank_word} without a {suit_word} (suits: {_suits_list(deck)})"
        if deck.suit_by_symbol(t) is not None:
            return f"{head}: {suit_word} without a {rank_word} (ranks: {_ranks_list(deck)})"
        return f"{head}: expected {rank_word} then {suit_word}, such as {_example(deck)!r}"
    rank_text, suit_text = t[:-1], t[-1]
    rank = deck.rank_by_symbol(rank_text)
    suit = deck.suit_by_symbol(suit_text)
    if suit is None:
        message = f"{head}: no suit {suit_text!r} in this deck (suits: {_suits_list(deck)})"
        hint = _suit_hint(deck, t, rank_text, suit_text, rank_word, suit_word)
        return f"{message}; {hint}" if hint else message
    if rank is None:
        message = f"{head}: no rank {rank_text!r} in this deck (ranks: {_ranks_list(deck)})"
        hint = _rank_hint(deck, rank_text, suit)
        return f"{message}; {hint}" if hint else message
    return f"{head}: not a card of this deck"  # not reached: parse_card accepts it


def _example(deck: Deck) -> str:
    return str(deck.cards[0])


def _nouns(deck: Deck) -> tuple[str, str]:
    """How to call ranks and suits in hints: ``number``/``colour`` for a Rumski-like deck."""
    rank_word = "number" if all(r.symbol.isdigit() for r in deck.ranks) else "rank"
    suit_word = "colour" if all(s.name == s.colour for s in deck.suits) else "suit"
    return rank_word, suit_word


def _suits_list(deck: Deck) -> str:
    return " ".join(s.symbol for s in deck.suits)


def _ranks_list(deck: Deck) -> str:
    return " ".join(r.symbol for r in deck.ranks)


def _try(deck: Deck, text: str) -> Card | None:
    try:
        return deck.parse_card(text)
    except CardError:
        return None


def _suit_hint(deck: Deck, t: str, rank_text: str, suit_text: str, rank_word: str, suit_word: str) -> str:
    # Suit first ("R7", "SA"): the other order.
    if deck.suit_by_symbol(t[0]) is not None and deck.rank_by_symbol(t[1:]) is not None:
        card = deck.parse_card(t[1:] + t[0])
        return f"write {rank_word} then {suit_word}: {str(card)!r}"
    # A suit drawn as a symbol ("10\u2665").
    letter = _UNICODE_SUITS.get(suit_text)
    if letter is not None and deck.rank_by_symbol(rank_text) is not None:
        lettered = _try(deck, rank_text + letter)
        if lettered is not None:
            return f"write the suit as a letter: {str(lettered)!r}"
    # A suit of another shipped deck ("7R" in a standard deck).
    key = norm(suit_text)
    for name in PRESETS:
        suits = preset_parts(name)[0]
        other_suit = next((s for s in suits if s.symbol.upper() == key), None)
        if other_suit is not None and suits != deck.suits:
            return f"{other_suit.symbol!r} is {other_suit.name} in the {name} deck, not this one"
    return ""


def _rank_hint(deck: Deck, rank_text: str, suit: Suit) -> str:
    # A rank written as its number ("1S" for the ace, "11H" for the jack).
    if rank_text.isdigit() and rank_text.isascii():
        number = int(rank_text)
        if 1 <= number <= len(deck.ranks):
            rank = deck.ranks[number - 1]
            return f"rank {number} is written {rank.symbol!r}: {rank.symbol + suit.symbol!r}"
    return ""
