"""The :class:`Deck`: every physical card of a variant, its notation and its bitmasks.

A deck is built from a variant's ``deck`` mapping (:meth:`Deck.from_spec`) or a
shipped preset (:meth:`Deck.preset`); :mod:`rummydsl.cards` describes the notation
and the card ids.

>>> deck = Deck.preset("standard52")
>>> deck.format_cards(deck.cards_in(deck.mask(deck.parse_cards("KC 2S"))))
'2S KC'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..errors import CardError, DeckError
from ..suggest import closest
from .badcard import explain_bad_card
from .faces import WILD_TEXT, AceOption, Card, Rank, Suit
from .parts import (
    DECK_KEYS, KeyPath, default_rank_path, default_suit_path, integral, norm, ranks_from_spec, suits_from_spec,
    validate,
)
from .presets import check_preset_name, preset_parts

__all__ = ["Deck"]


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
        validate(self.suits, self.ranks, self.packs, self.wilds, self.ace, self.wrap)
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
            f"<Deck suits={' '.join(s.symbol for s in self.suits)!r} "
            f"ranks={' '.join(r.symbol for r in self.ranks)!r} packs={self.packs} "
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
            if key not in DECK_KEYS:
                near = closest(str(key), DECK_KEYS)
                hint = f"did you mean {near!r}? " if near else ""
                raise DeckError(
                    f"unknown deck key {key!r} ({hint}keys: {', '.join(DECK_KEYS)})", (key,)
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
            suits_from_spec(spec["suits"], bare_suits)
            if "suits" in spec or base is None  # without a preset both keys are present
            else base.suits
        )
        ranks = (
            ranks_from_spec(spec["ranks"], bare_ranks)
            if "ranks" in spec or base is None
            else base.ranks
        )
        packs = integral(spec.get("packs", base.packs if base else 1))
        wilds = integral(spec.get("wilds", base.wilds if base else 0))
        ace = spec.get("ace", base.ace if base else "low")
        wrap = spec.get("wrap", base.wrap if base else False)

        # Items written as a bare symbol have no "symbol" key to point at.
        def suit_path(i: int, key: str | None = None) -> KeyPath:
            return ("suits", i) if i in bare_suits else default_suit_path(i, key)

        def rank_path(i: int, key: str | None = None, j: int | None = None) -> KeyPath:
            return ("ranks", i) if i in bare_ranks else default_rank_path(i, key, j)

        # Check with the paths of the mapping as written, then build (which checks again).
        validate(suits, ranks, packs, wilds, ace, wrap, suit_path, rank_path)
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
        key = norm(symbol) if isinstance(symbol, str) else None
        return None if key is None else self._rank_keys.get(key)

    def suit_by_symbol(self, symbol: str) -> Suit | None:
        """The suit written ``symbol`` (any case), or ``None``.

        >>> Deck.preset("standard52").suit_by_symbol("h").name
        'hearts'
        """
        key = norm(symbol) if isinstance(symbol, str) else None
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
        raise CardError(explain_bad_card(self, text))

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


_PRESET_CACHE: dict[str, Deck] = {}


def _preset(name: object, path: KeyPath) -> Deck:
    """The deck of the preset ``name``, built once (``path`` names the key in messages)."""
    known = check_preset_name(name, path)
    deck = _PRESET_CACHE.get(known)
    if deck is None:
        suits, ranks, wilds = preset_parts(known)
        deck = _PRESET_CACHE[known] = Deck(suits, ranks, wilds=wilds)
    return deck
