"""Checking and reading a deck's parts: the suits, the ranks, the counts and the rules.

:meth:`~rummydsl.cards.Deck.from_spec` reads a variant's ``deck`` mapping with these,
and the :class:`~rummydsl.cards.Deck` constructor checks its arguments with
:func:`validate`; each problem is a :class:`~rummydsl.errors.DeckError` with the key
path of the place (``("ranks", 2, "aliases", 0)``).

>>> suits_from_spec(["X", {"symbol": "Y", "colour": "red"}], set())[1]
Suit(symbol='Y', name='Y', colour='red', index=1)
>>> check_suit_symbol("10", ("suits", 0))
Traceback (most recent call last):
...
rummydsl.errors.DeckError: suits[0]: suit symbol '10' must be one ASCII letter
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from ..errors import DeckError
from ..limits import MAX_DECK_CARDS, MAX_PACKS, MAX_RANKS, MAX_SYMBOL, MAX_WILDS
from .faces import ACE_OPTIONS, WILD_TEXT, Rank, Suit

__all__ = [
    "KeyPath",
    "Where",
    "DECK_KEYS",
    "default_suit_path",
    "default_rank_path",
    "norm",
    "check_rank_symbol",
    "check_suit_symbol",
    "validate",
    "suits_from_spec",
    "ranks_from_spec",
    "integral",
]

KeyPath = tuple[Any, ...]
"""Where in a ``deck`` mapping a problem is: keys and list indices."""

DECK_KEYS = ("preset", "suits", "ranks", "packs", "wilds", "ace", "wrap")
"""The keys of a ``deck`` mapping."""
_SUIT_KEYS = ("symbol", "name", "colour")
_RANK_KEYS = ("symbol", "name", "aliases")


Where = Callable[..., KeyPath]


def default_suit_path(i: int, key: str | None = None) -> KeyPath:
    return ("suits", i) if key is None else ("suits", i, key)


def default_rank_path(i: int, key: str | None = None, j: int | None = None) -> KeyPath:
    path: KeyPath = ("ranks", i)
    if key is not None:
        path += (key,)
    if j is not None:
        path += (j,)
    return path


def norm(text: str) -> str | None:
    """The case-insensitive key of a spelling; ``None`` for text no symbol can match."""
    return text.upper() if text.isascii() else None


def check_rank_symbol(symbol: object, what: str, path: KeyPath) -> str:
    if not isinstance(symbol, str):
        raise DeckError(f"{what} must be text, not {symbol!r}", path)
    if not symbol:
        raise DeckError(f"{what} must not be empty", path)
    if len(symbol) > MAX_SYMBOL or not (symbol.isascii() and symbol.isalnum()):
        hint = ""
        if WILD_TEXT in symbol:
            hint = " ('*' is the wild card)"
        elif any(ch.isspace() for ch in symbol):
            hint = " (spaces separate cards)"
        raise DeckError(
            f"{what} {symbol!r} must be 1 to {MAX_SYMBOL} ASCII letters or digits{hint}", path
        )
    return symbol


def check_suit_symbol(symbol: object, path: KeyPath) -> str:
    if not isinstance(symbol, str):
        raise DeckError(f"suit symbol must be text, not {symbol!r}", path)
    if len(symbol) != 1 or not (symbol.isascii() and symbol.isalpha()):
        hint = ""
        if WILD_TEXT in symbol:
            hint = " ('*' is the wild card)"
        elif symbol and not symbol.isascii():
            hint = " (write hearts as H, not \u2665)"
        raise DeckError(f"suit symbol {symbol!r} must be one ASCII letter{hint}", path)
    return symbol


def validate(
    suits: tuple[Suit, ...],
    ranks: tuple[Rank, ...],
    packs: object,
    wilds: object,
    ace: object,
    wrap: object,
    suit_path: Where = default_suit_path,
    rank_path: Where = default_rank_path,
) -> None:
    """Raise :class:`DeckError` for the first problem of a deck's parts."""
    if not suits:
        raise DeckError("a deck needs at least one suit", ("suits",))
    if not ranks:
        raise DeckError("a deck needs at least one rank", ("ranks",))
    if len(ranks) > MAX_RANKS:
        raise DeckError(f"a deck has at most {MAX_RANKS} ranks, not {len(ranks)}", ("ranks",))
    seen_suits: dict[str, Suit] = {}
    for i, suit in enumerate(suits):
        if not isinstance(suit, Suit):
            raise DeckError(f"expected a Suit, not {suit!r}", suit_path(i))
        check_suit_symbol(suit.symbol, suit_path(i, "symbol"))
        if suit.index != i:
            raise DeckError(f"suit {suit.symbol!r} has index {suit.index}, expected {i}", suit_path(i))
        key = suit.symbol.upper()
        if key in seen_suits:
            raise DeckError(
                f"duplicate suit symbol {suit.symbol!r} (suit {seen_suits[key].index + 1} "
                f"is {seen_suits[key].symbol!r}; case does not matter)",
                suit_path(i, "symbol"),
            )
        seen_suits[key] = suit
    seen_ranks: dict[str, Rank] = {}
    for i, rank in enumerate(ranks):
        if not isinstance(rank, Rank):
            raise DeckError(f"expected a Rank, not {rank!r}", rank_path(i))
        if rank.order != i + 1:
            raise DeckError(
                f"rank {rank.symbol!r} has order {rank.order}, expected {i + 1}", rank_path(i)
            )
        spellings = [(rank.symbol, "rank symbol", rank_path(i, "symbol"))]
        spellings += [
            (alias, f"alias of rank {rank.symbol!r}", rank_path(i, "aliases", j))
            for j, alias in enumerate(rank.aliases)
        ]
        for text, what, path in spellings:
            check_rank_symbol(text, what, path)
            key = text.upper()
            if key in seen_ranks:
                other = seen_ranks[key]
                raise DeckError(
                    f"duplicate rank spelling {text!r}: rank {other.symbol!r} "
                    f"(rank {other.order}) is already spelled that way; case does not matter",
                    path,
                )
            seen_ranks[key] = rank
    if type(packs) is not int or not 1 <= packs <= MAX_PACKS:
        raise DeckError(f"packs must be an integer from 1 to {MAX_PACKS}, not {packs!r}", ("packs",))
    if type(wilds) is not int or not 0 <= wilds <= MAX_WILDS:
        raise DeckError(f"wilds must be an integer from 0 to {MAX_WILDS}, not {wilds!r}", ("wilds",))
    if not isinstance(ace, str) or ace not in ACE_OPTIONS:
        raise DeckError(f"ace must be one of low, high, both, not {ace!r}", ("ace",))
    if type(wrap) is not bool:
        raise DeckError(f"wrap must be true or false, not {wrap!r}", ("wrap",))
    size = len(suits) * len(ranks) * packs + wilds
    if size > MAX_DECK_CARDS:
        raise DeckError(
            f"the deck has {size:,} cards ({len(suits)} suits x {len(ranks)} ranks x {packs} "
            f"packs + {wilds} wilds); a deck may have at most {MAX_DECK_CARDS:,}",
            (),
        )


def suits_from_spec(items: object, bare: set[int]) -> tuple[Suit, ...]:
    if not isinstance(items, (list, tuple)):
        raise DeckError(f"suits must be a list, not {items!r}", ("suits",))
    suits = []
    for i, item in enumerate(items):
        path: KeyPath = ("suits", i)
        if isinstance(item, str):
            bare.add(i)
            symbol = check_suit_symbol(item, path)
            suits.append(Suit(symbol, symbol, symbol, i))
            continue
        if not isinstance(item, Mapping):
            raise DeckError(f"a suit must be a mapping {{symbol, name, colour}}, not {item!r}", path)
        _check_keys(item, _SUIT_KEYS, path, "suit")
        if "symbol" not in item:
            raise DeckError("a suit needs a symbol", path)
        symbol = check_suit_symbol(item["symbol"], path + ("symbol",))
        name = _text(item.get("name", symbol), path + ("name",))
        colour = _text(item.get("colour", name), path + ("colour",))
        suits.append(Suit(symbol, name, colour, i))
    return tuple(suits)


def ranks_from_spec(items: object, bare: set[int]) -> tuple[Rank, ...]:
    if not isinstance(items, (list, tuple)):
        raise DeckError(f"ranks must be a list, not {items!r}", ("ranks",))
    ranks = []
    for i, item in enumerate(items):
        path: KeyPath = ("ranks", i)
        item = integral(item)
        if isinstance(item, (str, int)) and not isinstance(item, bool):
            bare.add(i)
            symbol = check_rank_symbol(str(item), "rank symbol", path)
            ranks.append(Rank(symbol, symbol, i + 1))
            continue
        if not isinstance(item, Mapping):
            raise DeckError(
                f"a rank must be a symbol or a mapping {{symbol, name, aliases}}, not {item!r}", path
            )
        _check_keys(item, _RANK_KEYS, path, "rank")
        if "symbol" not in item:
            raise DeckError("a rank needs a symbol", path)
        symbol = _symbol_text(item["symbol"], "rank symbol", path + ("symbol",))
        name = _text(item.get("name", symbol), path + ("name",))
        aliases_spec = item.get("aliases", [])
        if not isinstance(aliases_spec, (list, tuple)):
            raise DeckError(f"aliases must be a list, not {aliases_spec!r}", path + ("aliases",))
        aliases = tuple(
            _symbol_text(alias, f"alias of rank {symbol!r}", path + ("aliases", j))
            for j, alias in enumerate(aliases_spec)
        )
        ranks.append(Rank(symbol, name, i + 1, aliases))
    return tuple(ranks)


def integral(value: Any) -> Any:
    """An integral float (``2.0``) as the integer it is: the schema's ``integer``
    accepts it, so the deck does too; anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _symbol_text(value: object, what: str, path: KeyPath) -> str:
    value = integral(value)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return check_rank_symbol(value, what, path)


def _text(value: object, path: KeyPath) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DeckError(f"{path[-1]} must be non-empty text, not {value!r}", path)
    return value


def _check_keys(item: Mapping[Any, Any], allowed: tuple[str, ...], path: KeyPath, what: str) -> None:
    for key in item:
        if key not in allowed:
            raise DeckError(
                f"unknown {what} key {key!r} (keys: {', '.join(allowed)})", path + (key,)
            )
