"""Decks, cards and card notation.

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Literal

from .errors import CardError, DeckError, format_path
from .limits import MAX_DECK_CARDS, MAX_PACKS, MAX_RANKS, MAX_SYMBOL, MAX_WILDS
from .suggest import closest

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

AceOption = Literal["low", "high", "both"]
KeyPath = tuple[Any, ...]

#: The values of the deck's ``ace`` key.
ACE_OPTIONS: tuple[str, ...] = ("low", "high", "both")

#: The names :meth:`Deck.preset` knows.
PRESETS: tuple[str, ...] = ("standard52", "rumski70")

#: How a wild card is written.
WILD_TEXT = "*"

_DECK_KEYS = ("preset", "suits", "ranks", "packs", "wilds", "ace", "wrap")
_SUIT_KEYS = ("symbol", "name", "colour")
_RANK_KEYS = ("symbol", "name", "aliases")


@dataclass(frozen=True, slots=True)
class Suit:
    """One suit of a deck.

    >>> Suit("H", "hearts", "red", 1)
    Suit(symbol='H', name='hearts', colour='red', index=1)
    """

    symbol: str
    """One ASCII letter, as written in card notation (``H``)."""
    name: str
    """A word for messages and ``explain`` (``hearts``)."""
    colour: str
    """The colour, for patterns that compare colours (``red``)."""
    index: int
    """The position in the deck's suit order, from 0."""


@dataclass(frozen=True, slots=True)
class Rank:
    """One rank of a deck.

    >>> Rank("T", "ten", 10, ("10",))
    Rank(symbol='T', name='ten', order=10, aliases=('10',))
    """

    symbol: str
    """The primary spelling, used when formatting (``T``)."""
    name: str
    """A word for messages and ``explain`` (``ten``)."""
    order: int
    """The position from 1 (the lowest rank) up."""
    aliases: tuple[str, ...] = ()
    """Other spellings accepted when parsing (``10``)."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card: a natural card (rank and suit) or a wild card.

    ``str(card)`` is its notation. Cards of one deck are ordered (and hashed) by
    ``id``; compare faces across packs with :meth:`Deck.face_key`.

    >>> deck = Deck.preset("standard52")
    >>> card = deck.parse_card("10h")
    >>> str(card), card.id, card.rank.name, card.suit.name, card.wild, card.copy
    ('TH', 22, 'ten', 'hearts', False, 0)
    >>> str(Deck.preset("rumski70").parse_card("*"))
    '*'
    """

    id: int
    """The index of the card in :attr:`Deck.cards`."""
    rank: Rank | None
    """The rank; ``None`` for a wild card."""
    suit: Suit | None
    """The suit; ``None`` for a wild card."""
    wild: bool
    """Whether this is a wild card."""
    copy: int
    """Which pack the card comes from (from 0); for wild cards, which wild."""

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return WILD_TEXT
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card(id={self.id}, face={str(self)!r}, copy={self.copy})"

    def __hash__(self) -> int:
        return hash(self.id)


# --------------------------------------------------------------------------- decks

_Where = Callable[..., KeyPath]


def _default_suit_path(i: int, key: str | None = None) -> KeyPath:
    return ("suits", i) if key is None else ("suits", i, key)


def _default_rank_path(i: int, key: str | None = None, j: int | None = None) -> KeyPath:
    path: KeyPath = ("ranks", i)
    if key is not None:
        path += (key,)
    if j is not None:
        path += (j,)
    return path


def _norm(text: str) -> str | None:
    """The case-insensitive key of a spelling; ``None`` for text no symbol can match."""
    return text.upper() if text.isascii() else None


def _check_rank_symbol(symbol: object, what: str, path: KeyPath) -> str:
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


def _check_suit_symbol(symbol: object, path: KeyPath) -> str:
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


def _validate(
    suits: tuple[Suit, ...],
    ranks: tuple[Rank, ...],
    packs: object,
    wilds: object,
    ace: object,
    wrap: object,
    suit_path: _Where = _default_suit_path,
    rank_path: _Where = _default_rank_path,
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
        _check_suit_symbol(suit.symbol, suit_path(i, "symbol"))
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
            _check_rank_symbol(text, what, path)
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


_UNICODE_SUITS = {
    "\u2660": "S", "\u2664": "S", "\u2665": "H", "\u2661": "H",
    "\u2666": "D", "\u2662": "D", "\u2663": "C", "\u2667": "C",
}  # fmt: skip
_WILD_SPELLINGS = ("W", "JOKER", "JK", "JKR", "WILD")


@dataclass(frozen=True, slots=True, repr=False)
class Deck:
    """A deck: its suits and ranks, how many packs and wild cards, and sequence rules.

    Immutable; build it with :meth:`from_spec` or :meth:`preset` (the constructor
    checks its arguments the same way and raises :class:`DeckError`).

    >>> deck = Deck.preset("standard52")
    >>> deck.size, len(deck.suits), len(deck.ranks), deck.packs, deck.wilds, deck.ace
    (52, 4, 13, 1, 0, 'low')
    >>> Deck.from_spec({"preset": "standard52", "packs": 2, "wilds": 4}).size
    108
    """

    suits: tuple[Suit, ...]
    """The suits, in deck order (``suits[i].index == i``)."""
    ranks: tuple[Rank, ...]
    """The ranks, low to high (``ranks[i].order == i + 1``)."""
    packs: int = 1
    """How many copies of every natural card (1 to 8)."""
    wilds: int = 0
    """How many wild cards (0 to 64)."""
    ace: AceOption = "low"
    """Where the lowest rank stands in sequences: ``low``, ``high`` or ``both``."""
    wrap: bool = False
    """Whether sequences may turn the corner (``K-A-2``)."""

    cards: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    """Every physical card; ``cards[i].id == i`` (see the module docstring for the layout)."""
    natural_faces: int = field(init=False, repr=False, compare=False)
    """How many different natural cards one pack holds: ``len(suits) * len(ranks)``."""
    # Read-only lookups (MappingProxyType): nothing reachable from a deck can change.
    _spellings: Mapping[str, int] = field(init=False, repr=False, compare=False)
    _rank_keys: Mapping[str, Rank] = field(init=False, repr=False, compare=False)
    _suit_keys: Mapping[str, Suit] = field(init=False, repr=False, compare=False)
    _positions: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "suits", tuple(self.suits))
        setattr_(self, "ranks", tuple(self.ranks))
        _validate(self.suits, self.ranks, self.packs, self.wilds, self.ace, self.wrap)
        n_ranks = len(self.ranks)
        faces = len(self.suits) * n_ranks
        cards = [
            Card(copy * faces + suit.index * n_ranks + rank.order - 1, rank, suit, False, copy)
            for copy in range(self.packs)
            for suit in self.suits
            for rank in self.ranks
        ]
        cards += [Card(len(cards) + k, None, None, True, k) for k in range(self.wilds)]
        rank_keys = {
            spelling.upper(): rank
            for rank in self.ranks
            for spelling in (rank.symbol, *rank.aliases)
        }
        suit_keys = {suit.symbol.upper(): suit for suit in self.suits}
        spellings = {
            r_key + s_key: suit.index * n_ranks + rank.order - 1
            for r_key, rank in rank_keys.items()
            for s_key, suit in suit_keys.items()
        }
        if self.wilds:
            spellings[WILD_TEXT] = faces
        positions: list[tuple[int, ...]] = [(rank.order,) for rank in self.ranks]
        positions[0] = {"low": (1,), "high": (n_ranks + 1,), "both": (1, n_ranks + 1)}[self.ace]
        setattr_(self, "cards", tuple(cards))
        setattr_(self, "natural_faces", faces)
        setattr_(self, "_spellings", MappingProxyType(spellings))
        setattr_(self, "_rank_keys", MappingProxyType(rank_keys))
        setattr_(self, "_suit_keys", MappingProxyType(suit_keys))
        setattr_(self, "_positions", tuple(positions))

    def __repr__(self) -> str:
        return (
            f"<Deck suits={self._suits_list()!r} ranks={self._ranks_list()!r} packs={self.packs} "
            f"wilds={self.wilds} ace={self.ace!r} wrap={self.wrap}>"
        )

    # ------------------------------------------------------------------ building

    @classmethod
    def preset(cls, name: str) -> Deck:
        """A shipped deck: ``standard52`` or ``rumski70``.

        :raises DeckError: for an unknown name, suggesting the nearest one.

        >>> Deck.preset("rumski70").size
        70
        >>> Deck.preset("standard")
        Traceback (most recent call last):
        ...
        rummydsl.errors.DeckError: unknown deck preset 'standard' (did you mean 'standard52'? presets: standard52, rumski70)
        """
        return _preset(name, ())

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | str) -> Deck:
        """Build a deck from a variant's ``deck`` mapping (or a bare preset name).

        Keys: ``preset``, ``suits``, ``ranks``, ``packs``, ``wilds``, ``ace``, ``wrap``
        (docs/language.md, section "deck"). Keys given beside ``preset`` replace
        the preset's; without a preset both ``suits`` and ``ranks`` are needed.
        ``suits`` items are ``{symbol, name, colour}`` (name defaults to the
        symbol, colour to the name) or a bare symbol; ``ranks`` items are a symbol
        (an integer is read as its digits) or ``{symbol, name, aliases}``. A
        mapping passes the variant schema's ``deck`` exactly when this builds a
        deck from it, but for the one rule the schema cannot say: no two
        spellings equal ignoring case (tests/unit/test_deck_spec.py). A bare
        string is a Python shorthand for ``{"preset": name}``.
        ``wrap: true`` is allowed with any ``ace``: a sequence that may turn the
        corner has no ends, so where the lowest rank stands no longer matters.

        :raises DeckError: with the key path of the first problem.

        >>> deck = Deck.from_spec({"suits": ["X", {"symbol": "Y", "colour": "red"}],
        ...                        "ranks": [1, 2, {"symbol": "Z", "aliases": ["3"]}]})
        >>> deck.format_cards(deck.cards)
        '1X 2X ZX 1Y 2Y ZY'
        >>> Deck.from_spec({"preset": "standard52", "packs": 9})
        Traceback (most recent call last):
        ...
        rummydsl.errors.DeckError: packs: packs must be an integer from 1 to 8, not 9
        """
        if isinstance(spec, str):
            spec = {"preset": spec}
        if not isinstance(spec, Mapping):
            raise DeckError(f"a deck must be a mapping or a preset name, not {spec!r}")
        for key in spec:
            if key not in _DECK_KEYS:
                near = closest(str(key), _DECK_KEYS)
                hint = f"did you mean {near!r}? " if near else ""
                raise DeckError(
                    f"unknown deck key {key!r} ({hint}keys: {', '.join(_DECK_KEYS)})", (key,)
                )
        base: Deck | None = None
        if "preset" in spec:
            base = _preset(spec["preset"], ("preset",))
            if len(spec) == 1:
                return base
        elif "suits" not in spec or "ranks" not in spec:
            missing = " and ".join(k for k in ("suits", "ranks") if k not in spec)
            raise DeckError(f"a deck needs a preset, or both suits and ranks (missing {missing})")
        bare_suits: set[int] = set()
        bare_ranks: set[int] = set()
        suits = (
            _suits_from_spec(spec["suits"], bare_suits)
            if "suits" in spec or base is None  # without a preset both keys are present
            else base.suits
        )
        ranks = (
            _ranks_from_spec(spec["ranks"], bare_ranks)
            if "ranks" in spec or base is None
            else base.ranks
        )
        packs = _integral(spec.get("packs", base.packs if base else 1))
        wilds = _integral(spec.get("wilds", base.wilds if base else 0))
        ace = spec.get("ace", base.ace if base else "low")
        wrap = spec.get("wrap", base.wrap if base else False)

        # Items written as a bare symbol have no "symbol" key to point at.
        def suit_path(i: int, key: str | None = None) -> KeyPath:
            return ("suits", i) if i in bare_suits else _default_suit_path(i, key)

        def rank_path(i: int, key: str | None = None, j: int | None = None) -> KeyPath:
            return ("ranks", i) if i in bare_ranks else _default_rank_path(i, key, j)

        # Check with the paths of the mapping as written, then build (which checks again).
        _validate(suits, ranks, packs, wilds, ace, wrap, suit_path, rank_path)
        return cls(suits, ranks, packs, wilds, ace, wrap)

    def to_spec(self) -> dict[str, Any]:
        """The deck written out in full, as :meth:`from_spec` reads it.

        >>> spec = Deck.preset("rumski70").to_spec()
        >>> spec["wilds"], spec["suits"][0], spec["ranks"][0]
        (5, {'symbol': 'R', 'name': 'red', 'colour': 'red'}, {'symbol': '1', 'name': 'one'})
        >>> Deck.from_spec(spec) == Deck.preset("rumski70")
        True
        """
        ranks: list[Any] = []
        for rank in self.ranks:
            if rank.name == rank.symbol and not rank.aliases:
                ranks.append(rank.symbol)
            else:
                item: dict[str, Any] = {"symbol": rank.symbol, "name": rank.name}
                if rank.aliases:
                    item["aliases"] = list(rank.aliases)
                ranks.append(item)
        return {
            "suits": [{"symbol": s.symbol, "name": s.name, "colour": s.colour} for s in self.suits],
            "ranks": ranks,
            "packs": self.packs,
            "wilds": self.wilds,
            "ace": self.ace,
            "wrap": self.wrap,
        }

    # ------------------------------------------------------------------ queries

    @property
    def size(self) -> int:
        """How many physical cards the deck holds.

        >>> Deck.from_spec({"preset": "rumski70", "packs": 2}).size
        135
        """
        return len(self.cards)

    @property
    def max_sequence_position(self) -> int:
        """The highest position in a sequence: the number of ranks, one more when the ace may be high.

        >>> Deck.preset("standard52").max_sequence_position
        13
        >>> Deck.from_spec({"preset": "standard52", "ace": "both"}).max_sequence_position
        14
        """
        return len(self.ranks) + (self.ace != "low")

    def sequence_positions(self, rank: Rank) -> tuple[int, ...]:
        """The positions a rank may take in a sequence, low to high.

        A rank stands at its order, except the lowest rank: at 1 when ``ace`` is
        ``low``, above the highest rank (``n + 1`` for ``n`` ranks) when ``high``,
        and at either when ``both`` (one card takes one of them, never both at once).
        With ``wrap``, positions are taken modulo ``n`` (``n + 1`` is ``1``).

        >>> deck = Deck.from_spec({"preset": "standard52", "ace": "both"})
        >>> deck.sequence_positions(deck.ranks[0]), deck.sequence_positions(deck.ranks[6])
        ((1, 14), (7,))
        """
        return self._positions[rank.order - 1]

    def rank_by_symbol(self, symbol: str) -> Rank | None:
        """The rank spelled ``symbol`` (its symbol or an alias, any case), or ``None``.

        >>> deck = Deck.preset("standard52")
        >>> deck.rank_by_symbol("10") is deck.rank_by_symbol("t") is deck.ranks[9]
        True
        >>> deck.rank_by_symbol("1") is None
        True
        """
        key = _norm(symbol) if isinstance(symbol, str) else None
        return None if key is None else self._rank_keys.get(key)

    def suit_by_symbol(self, symbol: str) -> Suit | None:
        """The suit written ``symbol`` (any case), or ``None``.

        >>> Deck.preset("standard52").suit_by_symbol("h").name
        'hearts'
        """
        key = _norm(symbol) if isinstance(symbol, str) else None
        return None if key is None else self._suit_keys.get(key)

    def face_key(self, card: Card) -> int:
        """A number that is the same for every copy of a face (and for all wild cards).

        Natural faces get ``0`` up to ``natural_faces - 1`` (``suit.index *
        len(ranks) + rank.order - 1``); every wild card gets ``natural_faces``.

        >>> deck = Deck.from_spec({"preset": "standard52", "packs": 2})
        >>> a, b = deck.parse_cards(["AS", "AS"])
        >>> a.id, b.id, deck.face_key(a) == deck.face_key(b)
        (0, 52, True)
        """
        if card.wild:
            return self.natural_faces
        return card.id % self.natural_faces

    # ------------------------------------------------------------------ notation

    def parse_card(self, text: str) -> Card:
        """The card written ``text`` (copy 0 of its face; for ``*``, the first wild card).

        Case does not matter and surrounding spaces are ignored.

        :raises CardError: for text that is not a card of this deck; the message
            quotes the text, says what is wrong and, where the text looks like
            another notation, how to write it.

        >>> deck = Deck.preset("rumski70")
        >>> deck.parse_card("13y").id
        64
        >>> deck.parse_card("R7")
        Traceback (most recent call last):
        ...
        rummydsl.errors.CardError: unknown card 'R7': no suit '7' in this deck (suits: R B G P Y); write number then colour: '7R'
        """
        if isinstance(text, str) and text.isascii():
            face = self._spellings.get(text.strip().upper())
            if face is not None:
                if face == self.natural_faces:  # the wild card: the first one
                    return self.cards[self.packs * face]
                return self.cards[face]
        raise CardError(self._explain_bad_card(text))

    def parse_cards(self, texts: Iterable[str] | str) -> tuple[Card, ...]:
        """The cards of a hand, in the order given; a repeated face takes the next copy.

        ``texts`` is an iterable of card texts, or one string of cards separated
        by spaces.

        :raises CardError: for a bad card, a face repeated more often than the
            deck has packs, or more ``*`` than the deck has wild cards.

        >>> deck = Deck.preset("standard52")
        >>> deck.format_cards(deck.parse_cards("7h 8h 9H"))
        '7H 8H 9H'
        >>> deck.parse_cards(["AS", "KD", "as"])
        Traceback (most recent call last):
        ...
        rummydsl.errors.CardError: duplicate card 'as' (this deck has one pack)
        """
        if isinstance(texts, str):
            texts = texts.split()
        used: dict[int, int] = {}
        out: list[Card] = []
        faces = self.natural_faces
        for text in texts:
            card = self.parse_card(text)
            face = self.face_key(card)
            copy = used.get(face, 0)
            if card.wild:
                if copy >= self.wilds:
                    raise CardError(f"more wild cards than the deck's {self.wilds}")
                out.append(self.cards[self.packs * faces + copy])
            else:
                if copy >= self.packs:
                    packs = "one pack" if self.packs == 1 else f"{self.packs} packs"
                    raise CardError(f"duplicate card {text!r} (this deck has {packs})")
                out.append(self.cards[copy * faces + face])
            used[face] = copy + 1
        return tuple(out)

    def format_cards(self, cards: Iterable[Card]) -> str:
        """The notation of some cards, separated by spaces.

        >>> deck = Deck.preset("standard52")
        >>> deck.format_cards(deck.cards[8:11])
        '9S TS JS'
        """
        return " ".join(str(card) for card in cards)

    # ------------------------------------------------------------------ masks

    def mask(self, cards: Iterable[Card]) -> int:
        """The bitmask of some cards: bit ``card.id`` set for each.

        >>> deck = Deck.preset("standard52")
        >>> bin(deck.mask(deck.parse_cards("AS 3S")))
        '0b101'
        """
        bits = 0
        for card in cards:
            bits |= 1 << card.id
        return bits

    def cards_in(self, mask: int) -> tuple[Card, ...]:
        """The cards of a bitmask, by id.

        >>> deck = Deck.preset("standard52")
        >>> deck.format_cards(deck.cards_in(0b101))
        'AS 3S'
        """
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    # ------------------------------------------------------------------ messages

    def _example(self) -> str:
        return str(self.cards[0])

    def _nouns(self) -> tuple[str, str]:
        """How to call ranks and suits in hints: ``number``/``colour`` for a Rumski-like deck."""
        rank_word = "number" if all(r.symbol.isdigit() for r in self.ranks) else "rank"
        suit_word = "colour" if all(s.name == s.colour for s in self.suits) else "suit"
        return rank_word, suit_word

    def _suits_list(self) -> str:
        return " ".join(s.symbol for s in self.suits)

    def _ranks_list(self) -> str:
        return " ".join(r.symbol for r in self.ranks)

    def _try(self, text: str) -> Card | None:
        try:
            return self.parse_card(text)
        except CardError:
            return None

    def _explain_bad_card(self, text: object) -> str:
        """Why ``text`` is not a card of this deck, with a hint where one helps."""
        if not isinstance(text, str):
            return f"expected a card as text, such as {self._example()!r}, not {text!r}"
        t = text.strip()
        if not t:
            return f"empty card text: expected a card such as {self._example()!r}"
        head = f"unknown card {text!r}"
        rank_word, suit_word = self._nouns()
        if t == WILD_TEXT:
            return f"{head}: this deck has no wild cards"
        if any(ch.isspace() for ch in t):
            joined = self._try("".join(t.split()))
            hint = f"; write {str(joined)!r}" if joined is not None else ""
            return f"{head}: a card has no spaces (one card at a time){hint}"
        if t.upper() in _WILD_SPELLINGS and not (self.rank_by_symbol(t) or self.suit_by_symbol(t)):
            if self.wilds:
                return f"{head}: write a wild card as '*'"
            return f"{head}: this deck has no wild cards"
        if len(t) == 1:
            if self.rank_by_symbol(t) is not None:
                return f"{head}: {rank_word} without a {suit_word} (suits: {self._suits_list()})"
            if self.suit_by_symbol(t) is not None:
                return f"{head}: {suit_word} without a {rank_word} (ranks: {self._ranks_list()})"
            return f"{head}: expected {rank_word} then {suit_word}, such as {self._example()!r}"
        rank_text, suit_text = t[:-1], t[-1]
        rank = self.rank_by_symbol(rank_text)
        suit = self.suit_by_symbol(suit_text)
        if suit is None:
            message = f"{head}: no suit {suit_text!r} in this deck (suits: {self._suits_list()})"
            hint = self._suit_hint(t, rank_text, suit_text, rank_word, suit_word)
            return f"{message}; {hint}" if hint else message
        if rank is None:
            message = f"{head}: no rank {rank_text!r} in this deck (ranks: {self._ranks_list()})"
            hint = self._rank_hint(rank_text, suit)
            return f"{message}; {hint}" if hint else message
        return f"{head}: not a card of this deck"  # not reached: parse_card accepts it

    def _suit_hint(
        self, t: str, rank_text: str, suit_text: str, rank_word: str, suit_word: str
    ) -> str:
        # Suit first ("R7", "SA"): the other order.
        if self.suit_by_symbol(t[0]) is not None and self.rank_by_symbol(t[1:]) is not None:
            card = self.parse_card(t[1:] + t[0])
            return f"write {rank_word} then {suit_word}: {str(card)!r}"
        # A suit drawn as a symbol ("10\u2665").
        letter = _UNICODE_SUITS.get(suit_text)
        if letter is not None and self.rank_by_symbol(rank_text) is not None:
            lettered = self._try(rank_text + letter)
            if lettered is not None:
                return f"write the suit as a letter: {str(lettered)!r}"
        # A suit of another shipped deck ("7R" in a standard deck).
        for name in PRESETS:
            other = _preset(name, ())
            if other.suits != self.suits and other.suit_by_symbol(suit_text) is not None:
                other_suit = other.suit_by_symbol(suit_text)
                assert other_suit is not None
                return f"{other_suit.symbol!r} is {other_suit.name} in the {name} deck, not this one"
        return ""

    def _rank_hint(self, rank_text: str, suit: Suit) -> str:
        # A rank written as its number ("1S" for the ace, "11H" for the jack).
        if rank_text.isdigit() and rank_text.isascii():
            number = int(rank_text)
            if 1 <= number <= len(self.ranks):
                rank = self.ranks[number - 1]
                return f"rank {number} is written {rank.symbol!r}: {rank.symbol + suit.symbol!r}"
        return ""


# --------------------------------------------------------------------------- spec parts


def _suits_from_spec(items: object, bare: set[int]) -> tuple[Suit, ...]:
    if not isinstance(items, (list, tuple)):
        raise DeckError(f"suits must be a list, not {items!r}", ("suits",))
    suits = []
    for i, item in enumerate(items):
        path: KeyPath = ("suits", i)
        if isinstance(item, str):
            bare.add(i)
            symbol = _check_suit_symbol(item, path)
            suits.append(Suit(symbol, symbol, symbol, i))
            continue
        if not isinstance(item, Mapping):
            raise DeckError(f"a suit must be a mapping {{symbol, name, colour}}, not {item!r}", path)
        _check_keys(item, _SUIT_KEYS, path, "suit")
        if "symbol" not in item:
            raise DeckError("a suit needs a symbol", path)
        symbol = _check_suit_symbol(item["symbol"], path + ("symbol",))
        name = _text(item.get("name", symbol), path + ("name",))
        colour = _text(item.get("colour", name), path + ("colour",))
        suits.append(Suit(symbol, name, colour, i))
    return tuple(suits)


def _ranks_from_spec(items: object, bare: set[int]) -> tuple[Rank, ...]:
    if not isinstance(items, (list, tuple)):
        raise DeckError(f"ranks must be a list, not {items!r}", ("ranks",))
    ranks = []
    for i, item in enumerate(items):
        path: KeyPath = ("ranks", i)
        item = _integral(item)
        if isinstance(item, (str, int)) and not isinstance(item, bool):
            bare.add(i)
            symbol = _check_rank_symbol(str(item), "rank symbol", path)
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


def _integral(value: Any) -> Any:
    """An integral float (``2.0``) as the integer it is: the schema's ``integer``
    accepts it, so the deck does too; anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _symbol_text(value: object, what: str, path: KeyPath) -> str:
    value = _integral(value)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    return _check_rank_symbol(value, what, path)


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


# --------------------------------------------------------------------------- presets

_NUMBER_NAMES = (
    "one two three four five six seven eight nine ten eleven twelve thirteen".split()
)


def _build_preset(name: str) -> Deck:
    suits: tuple[Suit, ...]
    if name == "standard52":
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
        return Deck(suits, ranks)
    assert name == "rumski70"
    colours = ("R", "red"), ("B", "blue"), ("G", "green"), ("P", "purple"), ("Y", "yellow")
    suits = tuple(Suit(sym, nm, nm, i) for i, (sym, nm) in enumerate(colours))
    ranks = tuple(Rank(str(i + 1), nm, i + 1) for i, nm in enumerate(_NUMBER_NAMES))
    return Deck(suits, ranks, wilds=5)


_PRESET_CACHE: dict[str, Deck] = {}


def _preset(name: object, path: KeyPath) -> Deck:
    if not isinstance(name, str) or name not in PRESETS:
        near = closest(str(name), PRESETS, cutoff=0.5)
        hint = f"did you mean {near!r}? " if near else ""
        raise DeckError(
            f"unknown deck preset {name!r} ({hint}presets: {', '.join(PRESETS)})", path
        )
    deck = _PRESET_CACHE.get(name)
    if deck is None:
        deck = _PRESET_CACHE[name] = _build_preset(name)
    return deck

