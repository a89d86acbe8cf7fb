"""Tests of rummydsl.cards: decks, card ids, notation, deck definitions."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummydsl.cards
from rummydsl.cards import Card, Deck, DeckError, Rank, Suit
from rummydsl.errors import CardError, RummyDslError

STANDARD = Deck.preset("standard52")
RUMSKI = Deck.preset("rumski70")


def test_doctests() -> None:
    attempted = 0
    for info in pkgutil.iter_modules(rummydsl.cards.__path__, "rummydsl.cards."):
        result = doctest.testmod(importlib.import_module(info.name), optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, info.name
        attempted += result.attempted
    result = doctest.testmod(rummydsl.cards, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert attempted + result.attempted > 30


def test_deck_error_is_a_card_error() -> None:
    err = DeckError("bad", ("suits", 0))
    assert isinstance(err, CardError)
    assert isinstance(err, RummyDslError)
    assert isinstance(err, ValueError)
    assert err.path == ("suits", 0)
    assert DeckError("bad").path == ()
    assert str(DeckError("bad")) == "bad"


# --------------------------------------------------------------------------- presets


@pytest.mark.parametrize(
    "name, size, suits, ranks, wilds",
    [
        ("standard52", 52, "SHDC", "A 2 3 4 5 6 7 8 9 T J Q K", 0),
        ("rumski70", 70, "RBGPY", "1 2 3 4 5 6 7 8 9 10 11 12 13", 5),
    ],
)
def test_preset_shape(name: str, size: int, suits: str, ranks: str, wilds: int) -> None:
    deck = Deck.preset(name)
    assert deck.size == len(deck.cards) == size
    assert "".join(s.symbol for s in deck.suits) == suits
    assert " ".join(r.symbol for r in deck.ranks) == ranks
    assert (deck.packs, deck.wilds, deck.ace, deck.wrap) == (1, wilds, "low", False)
    assert [s.index for s in deck.suits] == list(range(len(suits)))
    assert [r.order for r in deck.ranks] == list(range(1, 14))
    assert deck.natural_faces == len(suits) * 13
    assert sum(card.wild for card in deck.cards) == wilds


def test_preset_is_cached_and_equal_to_its_spec() -> None:
    assert Deck.preset("standard52") is STANDARD
    assert Deck.from_spec({"preset": "standard52"}) is STANDARD
    assert Deck.from_spec("rumski70") is RUMSKI
    assert Deck.from_spec(STANDARD.to_spec()) == STANDARD
    assert Deck.from_spec(RUMSKI.to_spec()) == RUMSKI
    assert hash(Deck.from_spec(RUMSKI.to_spec())) == hash(RUMSKI)


@pytest.mark.parametrize(
    "symbol, name, colour",
    [("S", "spades", "black"), ("H", "hearts", "red"), ("D", "diamonds", "red"), ("C", "clubs", "black")],
)
def test_standard_suits(symbol: str, name: str, colour: str) -> None:
    suit = STANDARD.suit_by_symbol(symbol)
    assert suit is not None and (suit.name, suit.colour) == (name, colour)


@pytest.mark.parametrize(
    "symbol, name",
    [("R", "red"), ("B", "blue"), ("G", "green"), ("P", "purple"), ("Y", "yellow")],
)
def test_rumski_suits(symbol: str, name: str) -> None:
    suit = RUMSKI.suit_by_symbol(symbol)
    assert suit is not None and suit.name == suit.colour == name


@pytest.mark.parametrize(
    "symbol, order, name",
    [("A", 1, "ace"), ("2", 2, "two"), ("9", 9, "nine"), ("T", 10, "ten"), ("10", 10, "ten"),
     ("j", 11, "jack"), ("Q", 12, "queen"), ("k", 13, "king")],
)
def test_standard_ranks(symbol: str, order: int, name: str) -> None:
    rank = STANDARD.rank_by_symbol(symbol)
    assert rank is not None and (rank.order, rank.name) == (order, name)


def test_rank_and_suit_lookup_misses() -> None:
    assert STANDARD.rank_by_symbol("1") is None
    assert STANDARD.rank_by_symbol("") is None
    assert STANDARD.rank_by_symbol("\u017f") is None  # long s: upper() is "S"
    assert STANDARD.suit_by_symbol("R") is None
    assert RUMSKI.rank_by_symbol("A") is None
    assert RUMSKI.rank_by_symbol("13").name == "thirteen"  # type: ignore[union-attr]


# --------------------------------------------------------------------------- layout


@pytest.mark.parametrize("deck", [STANDARD, RUMSKI, Deck.from_spec({"preset": "rumski70", "packs": 3})],
                         ids=["standard52", "rumski70", "rumski70x3"])
def test_card_layout(deck: Deck) -> None:
    n_ranks, faces = len(deck.ranks), deck.natural_faces
    for i, card in enumerate(deck.cards):
        assert card.id == i
        if card.wild:
            assert i >= deck.packs * faces
            assert (card.rank, card.suit, card.copy) == (None, None, i - deck.packs * faces)
            assert deck.face_key(card) == faces
        else:
            assert card.rank is not None and card.suit is not None
            assert i == card.copy * faces + card.suit.index * n_ranks + card.rank.order - 1
            assert deck.face_key(card) == i % faces
            assert card.copy == i // faces
    assert len(deck.cards) == deck.packs * faces + deck.wilds
    # Copy 0 of every face comes before copy 1; wilds come last.
    copies = [c.copy for c in deck.cards if not c.wild]
    assert copies == sorted(copies)
    assert all(c.wild for c in deck.cards[deck.packs * faces:])


@pytest.mark.parametrize(
    "deck, text, card_id",
    [(STANDARD, "AS", 0), (STANDARD, "KS", 12), (STANDARD, "AH", 13), (STANDARD, "KC", 51),
     (RUMSKI, "1R", 0), (RUMSKI, "13Y", 64), (RUMSKI, "1G", 26), (RUMSKI, "*", 65)],
)
def test_known_ids(deck: Deck, text: str, card_id: int) -> None:
    assert deck.parse_card(text).id == card_id


def test_card_value_semantics() -> None:
    a, b = STANDARD.cards[0], STANDARD.cards[1]
    assert a < b and sorted([b, a]) == [a, b]
    assert len({a, STANDARD.parse_card("as"), b}) == 2
    assert repr(a) == "Card(id=0, face='AS', copy=0)"
    with pytest.raises(AttributeError):
        a.id = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        STANDARD.packs = 2  # type: ignore[misc]


def test_mask_round_trip() -> None:
    deck = Deck.from_spec({"preset": "standard52", "packs": 2, "wilds": 2})
    hand = deck.parse_cards("AS AS * KC *")
    mask = deck.mask(hand)
    assert mask.bit_count() == 5
    assert deck.cards_in(mask) == tuple(sorted(hand))
    assert deck.cards_in(0) == ()


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize("deck", [STANDARD, RUMSKI], ids=["standard52", "rumski70"])
def test_every_card_round_trips(deck: Deck) -> None:
    for card in deck.cards:
        text = str(card)
        back = deck.parse_card(text)
        assert deck.face_key(back) == deck.face_key(card)
        assert back.copy == 0
        assert deck.parse_card(text.lower()) == back
        assert deck.parse_card(f"  {text}\t") == back
    assert deck.format_cards(deck.parse_cards(deck.format_cards(deck.cards))) == deck.format_cards(deck.cards)


@pytest.mark.parametrize(
    "deck, texts, expected",
    [
        (STANDARD, ["AS", "as", "aS", "As"], "AS"),
        (STANDARD, ["TD", "10D", "10d", "td", "tD"], "TD"),
        (STANDARD, ["KC", "kc"], "KC"),
        (STANDARD, ["7H", "7h"], "7H"),
        (RUMSKI, ["13Y", "13y"], "13Y"),
        (RUMSKI, ["1G", "1g"], "1G"),
        (RUMSKI, ["4R", "4r"], "4R"),
        (RUMSKI, ["*", " * "], "*"),
    ],
)
def test_spellings(deck: Deck, texts: list[str], expected: str) -> None:
    for text in texts:
        assert str(deck.parse_card(text)) == expected


@pytest.mark.parametrize(
    "deck, text, fragments",
    [
        (STANDARD, "1X", ["unknown card '1X'", "no suit 'X' in this deck (suits: S H D C)"]),
        (STANDARD, "AX", ["unknown card 'AX'", "no suit 'X'", "(suits: S H D C)"]),
        (STANDARD, "7R", ["unknown card '7R'", "no suit 'R'", "'R' is red in the rumski70 deck"]),
        (STANDARD, "1S", ["unknown card '1S'", "no rank '1'", "(ranks: A 2 3 4 5 6 7 8 9 T J Q K)",
                          "rank 1 is written 'A': 'AS'"]),
        (STANDARD, "11H", ["no rank '11'", "rank 11 is written 'J': 'JH'"]),
        (STANDARD, "SA", ["unknown card 'SA'", "write rank then suit: 'AS'"]),
        (STANDARD, "H10", ["unknown card 'H10'", "write rank then suit: 'TH'"]),
        (STANDARD, "10\u2665", ["no suit '\u2665'", "write the suit as a letter: 'TH'"]),
        (STANDARD, "Q\u2660", ["write the suit as a letter: 'QS'"]),
        (STANDARD, "*", ["unknown card '*'", "this deck has no wild cards"]),
        (STANDARD, "joker", ["unknown card 'joker'", "this deck has no wild cards"]),
        (STANDARD, "A", ["unknown card 'A'", "rank without a suit", "(suits: S H D C)"]),
        (STANDARD, "h", ["unknown card 'h'", "suit without a rank", "(ranks: A 2"]),
        (STANDARD, "?", ["unknown card '?'", "expected rank then suit, such as 'AS'"]),
        (STANDARD, "A S", ["unknown card 'A S'", "a card has no spaces", "write 'AS'"]),
        (STANDARD, "AS KS", ["unknown card 'AS KS'", "a card has no spaces"]),
        (STANDARD, "", ["empty card text", "such as 'AS'"]),
        (STANDARD, "   ", ["empty card text"]),
        (STANDARD, "XYZ", ["unknown card 'XYZ'", "no suit 'Z'"]),
        (STANDARD, "A\u017f", ["unknown card 'A\u017f'", "no suit '\u017f'"]),
        (STANDARD, "\u017fA", ["unknown card '\u017fA'"]),
        (RUMSKI, "R7", ["unknown card 'R7'", "no suit '7'", "(suits: R B G P Y)",
                        "write number then colour: '7R'"]),
        (RUMSKI, "Y13", ["write number then colour: '13Y'"]),
        (RUMSKI, "14R", ["unknown card '14R'", "no rank '14'", "(ranks: 1 2 3"]),
        (RUMSKI, "0G", ["no rank '0'"]),
        (RUMSKI, "AS", ["unknown card 'AS'", "no suit 'S'", "'S' is spades in the standard52 deck"]),
        (RUMSKI, "W", ["unknown card 'W'", "write a wild card as '*'"]),
        (RUMSKI, "joker", ["write a wild card as '*'"]),
        (RUMSKI, "**", ["unknown card '**'"]),
        (RUMSKI, "7", ["unknown card '7'", "number without a colour", "(suits: R B G P Y)"]),
        (RUMSKI, "", ["empty card text", "such as '1R'"]),
    ],
)
def test_bad_notation(deck: Deck, text: str, fragments: list[str]) -> None:
    with pytest.raises(CardError) as info:
        deck.parse_card(text)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message
    assert not isinstance(info.value, DeckError)


@pytest.mark.parametrize("value", [None, 7, 1.5, b"AS", ["AS"]])
def test_non_text_is_a_card_error(value: Any) -> None:
    with pytest.raises(CardError, match="expected a card as text"):
        STANDARD.parse_card(value)


# --------------------------------------------------------------------------- hands


def test_parse_cards_keeps_order_and_accepts_a_string() -> None:
    hand = STANDARD.parse_cards(["KC", "as", "10d"])
    assert STANDARD.format_cards(hand) == "KC AS TD"
    assert STANDARD.parse_cards("KC as 10d") == hand
    assert STANDARD.parse_cards([]) == ()
    assert STANDARD.parse_cards("") == ()
    assert STANDARD.format_cards([]) == ""


@pytest.mark.parametrize(
    "spec, texts, message",
    [
        ("standard52", ["AS", "KD", "AS"], "duplicate card 'AS' (this deck has one pack)"),
        ("standard52", ["TD", "10d"], "duplicate card '10d' (this deck has one pack)"),
        ({"preset": "standard52", "packs": 2}, ["AS", "as", "As"],
         "duplicate card 'As' (this deck has 2 packs)"),
        ("rumski70", ["1R", "1r"], "duplicate card '1r' (this deck has one pack)"),
        ("rumski70", ["*"] * 6, "more wild cards than the deck's 5"),
        ({"preset": "standard52", "wilds": 2}, ["*", "2S", "*", "*"], "more wild cards than the deck's 2"),
        ("standard52", ["AS", ""], "empty card text"),
        ("standard52", ["AS", "*"], "this deck has no wild cards"),
    ],
)
def test_bad_hands(spec: Any, texts: list[str], message: str) -> None:
    deck = Deck.from_spec(spec)
    with pytest.raises(CardError) as info:
        deck.parse_cards(texts)
    assert message in str(info.value)


def test_repeats_take_the_next_copy() -> None:
    deck = Deck.from_spec({"preset": "standard52", "packs": 2, "wilds": 2})
    assert deck.size == 106
    hand = deck.parse_cards(["AS", "*", "as", "10H", "*", "TH"])
    assert [c.id for c in hand] == [0, 104, 52, 22, 105, 74]
    assert [c.copy for c in hand] == [0, 0, 1, 0, 1, 1]
    assert deck.face_key(hand[0]) == deck.face_key(hand[2]) == 0
    assert deck.face_key(hand[1]) == deck.face_key(hand[4]) == 52
    assert deck.format_cards(hand) == "AS * AS TH * TH"
    with pytest.raises(CardError, match="more wild cards than the deck's 2"):
        deck.parse_cards(["*", "*", "*"])


# --------------------------------------------------------------------------- custom decks


def test_custom_deck_four_suits_eight_ranks() -> None:
    deck = Deck.from_spec({
        "suits": [{"symbol": "S", "name": "spades", "colour": "black"},
                  {"symbol": "H", "name": "hearts", "colour": "red"},
                  {"symbol": "D", "name": "diamonds", "colour": "red"},
                  {"symbol": "C", "name": "clubs", "colour": "black"}],
        "ranks": [7, 8, 9, {"symbol": "T", "name": "ten", "aliases": [10]}, "J", "Q", "K", "A"],
        "ace": "high",
    })
    assert deck.size == 32
    assert deck.format_cards(deck.cards[:8]) == "7S 8S 9S TS JS QS KS AS"
    assert deck.parse_card("10c") == deck.parse_card("TC")
    assert deck.rank_by_symbol("A").order == 8  # type: ignore[union-attr]
    assert deck.rank_by_symbol("7").name == "7"  # type: ignore[union-attr]
    assert deck.sequence_positions(deck.ranks[0]) == (9,)  # the 7 is the lowest rank
    with pytest.raises(CardError, match="no rank '2'"):
        deck.parse_card("2S")


def test_custom_deck_defaults_and_overrides() -> None:
    deck = Deck.from_spec({"suits": ["x", {"symbol": "Y"}], "ranks": ["1", "2", "3"]})
    assert (deck.packs, deck.wilds, deck.ace, deck.wrap) == (1, 0, "low", False)
    assert deck.suits[0] == Suit("x", "x", "x", 0)
    assert deck.suits[1] == Suit("Y", "Y", "Y", 1)
    assert deck.format_cards(deck.cards) == "1x 2x 3x 1Y 2Y 3Y"
    assert deck.parse_card("2X").id == 1

    rumski = Deck.from_spec({"preset": "rumski70", "wilds": 0, "packs": 2})
    assert rumski.size == 130 and rumski.suits == RUMSKI.suits
    standard = Deck.from_spec({"preset": "standard52", "suits": ["S", "H"], "wrap": True, "ace": "both"})
    assert standard.size == 26 and standard.ranks == STANDARD.ranks and standard.wrap


def test_rank_spelled_like_a_suit_is_unambiguous() -> None:
    deck = Deck.from_spec({"suits": ["S", "A"], "ranks": ["A", "S", "AS", "10"]})
    assert [str(c) for c in deck.cards] == ["AS", "SS", "ASS", "10S", "AA", "SA", "ASA", "10A"]
    for card in deck.cards:
        assert deck.parse_card(str(card)) == card


def test_deck_constructor_checks_too() -> None:
    suits = (Suit("S", "spades", "black", 0),)
    ranks = (Rank("A", "ace", 1), Rank("2", "two", 2))
    assert Deck(suits, ranks, packs=2).size == 4
    with pytest.raises(DeckError) as info:
        Deck(suits, (Rank("A", "ace", 1), Rank("a", "ace", 2)))
    assert info.value.path == ("ranks", 1, "symbol")
    with pytest.raises(DeckError) as info:
        Deck(suits, (Rank("A", "ace", 2),))
    assert info.value.path == ("ranks", 0)
    with pytest.raises(DeckError) as info:
        Deck(suits + (Suit("H", "hearts", "red", 5),), ranks)
    assert info.value.path == ("suits", 1)
    with pytest.raises(DeckError) as info:
        Deck(("S",), ranks)  # type: ignore[arg-type]
    assert info.value.path == ("suits", 0)


# --------------------------------------------------------------------------- deck errors

_SUITS = [{"symbol": "S"}, {"symbol": "H"}]
_RANKS = ["A", "2", "3"]


@pytest.mark.parametrize(
    "spec, path, fragment",
    [
        ({"preset": "standard"}, ("preset",), "unknown deck preset 'standard' (did you mean 'standard52'?"),
        ({"preset": "rumski"}, ("preset",), "did you mean 'rumski70'?"),
        ({"preset": "zzz"}, ("preset",), "presets: standard52, rumski70"),
        ({"preset": 52}, ("preset",), "unknown deck preset 52"),
        ({}, (), "a deck needs a preset, or both suits and ranks (missing suits and ranks)"),
        ({"suits": _SUITS}, (), "(missing ranks)"),
        ({"pack": 2, "preset": "standard52"}, ("pack",), "unknown deck key 'pack' (did you mean 'packs'?"),
        ({"suits": [], "ranks": _RANKS}, ("suits",), "at least one suit"),
        ({"suits": _SUITS, "ranks": []}, ("ranks",), "at least one rank"),
        ({"suits": "SHDC", "ranks": _RANKS}, ("suits",), "suits must be a list"),
        ({"suits": _SUITS, "ranks": "A23"}, ("ranks",), "ranks must be a list"),
        ({"suits": _SUITS, "ranks": [str(i) for i in range(65)]}, ("ranks",), "at most 64 ranks"),
        ({"suits": [{"symbol": "S"}, {"symbol": "H"}, {"symbol": "s"}], "ranks": _RANKS},
         ("suits", 2, "symbol"), "duplicate suit symbol 's'"),
        ({"suits": ["S", "s"], "ranks": _RANKS}, ("suits", 1), "duplicate suit symbol 's'"),
        ({"suits": [{"symbol": "SS"}], "ranks": _RANKS}, ("suits", 0, "symbol"), "must be one ASCII letter"),
        ({"suits": [{"symbol": "7"}], "ranks": _RANKS}, ("suits", 0, "symbol"), "must be one ASCII letter"),
        ({"suits": [{"symbol": "*"}], "ranks": _RANKS}, ("suits", 0, "symbol"), "'*' is the wild card"),
        ({"suits": [{"symbol": " "}], "ranks": _RANKS}, ("suits", 0, "symbol"), "one ASCII letter"),
        ({"suits": [{"symbol": "\u2665"}], "ranks": _RANKS}, ("suits", 0, "symbol"), "write hearts as H"),
        ({"suits": [{"symbol": 5}], "ranks": _RANKS}, ("suits", 0, "symbol"), "suit symbol must be text"),
        ({"suits": [{"name": "x"}], "ranks": _RANKS}, ("suits", 0), "a suit needs a symbol"),
        ({"suits": [{"symbol": "S", "color": "red"}], "ranks": _RANKS}, ("suits", 0, "color"),
         "unknown suit key 'color'"),
        ({"suits": [{"symbol": "S", "name": ""}], "ranks": _RANKS}, ("suits", 0, "name"), "name must be non-empty text"),
        ({"suits": [{"symbol": "S", "colour": 3}], "ranks": _RANKS}, ("suits", 0, "colour"), "colour must be"),
        ({"suits": [None], "ranks": _RANKS}, ("suits", 0), "a suit must be a mapping"),
        ({"suits": _SUITS, "ranks": ["A", "2", "a"]}, ("ranks", 2), "duplicate rank spelling 'a'"),
        ({"suits": _SUITS, "ranks": [{"symbol": "A"}, {"symbol": "a"}]}, ("ranks", 1, "symbol"),
         "duplicate rank spelling 'a'"),
        ({"suits": _SUITS, "ranks": [{"symbol": "T", "aliases": ["10"]}, "10"]}, ("ranks", 1),
         "rank 'T' (rank 1) is already spelled that way"),
        ({"suits": _SUITS, "ranks": ["1", {"symbol": "T", "aliases": [1]}]}, ("ranks", 1, "aliases", 0),
         "duplicate rank spelling '1'"),
        ({"suits": _SUITS, "ranks": [{"symbol": "T", "aliases": ["t"]}]}, ("ranks", 0, "aliases", 0),
         "duplicate rank spelling 't'"),
        ({"suits": _SUITS, "ranks": ["A", "1 0"]}, ("ranks", 1), "(spaces separate cards)"),
        ({"suits": _SUITS, "ranks": ["A", "*"]}, ("ranks", 1), "'*' is the wild card"),
        ({"suits": _SUITS, "ranks": ["A", ""]}, ("ranks", 1), "must not be empty"),
        ({"suits": _SUITS, "ranks": ["A", "-1"]}, ("ranks", 1), "ASCII letters or digits"),
        ({"suits": _SUITS, "ranks": [-1]}, ("ranks", 0), "ASCII letters or digits"),
        ({"suits": _SUITS, "ranks": ["ABCDEFGHI"]}, ("ranks", 0), "1 to 8"),
        ({"suits": _SUITS, "ranks": ["\u00c9"]}, ("ranks", 0), "ASCII letters or digits"),
        ({"suits": _SUITS, "ranks": [True]}, ("ranks", 0), "a rank must be a symbol or a mapping"),
        ({"suits": _SUITS, "ranks": [1.5]}, ("ranks", 0), "a rank must be a symbol or a mapping"),
        ({"suits": _SUITS, "ranks": [{"name": "ace"}]}, ("ranks", 0), "a rank needs a symbol"),
        ({"suits": _SUITS, "ranks": [{"symbol": None}]}, ("ranks", 0, "symbol"), "rank symbol must be text"),
        ({"suits": _SUITS, "ranks": [{"symbol": "A", "alias": ["1"]}]}, ("ranks", 0, "alias"),
         "unknown rank key 'alias'"),
        ({"suits": _SUITS, "ranks": [{"symbol": "A", "aliases": "1"}]}, ("ranks", 0, "aliases"),
         "aliases must be a list"),
        ({"suits": _SUITS, "ranks": [{"symbol": "A", "aliases": ["1", "*"]}]}, ("ranks", 0, "aliases", 1),
         "alias of rank 'A' '*'"),
        ({"preset": "standard52", "packs": 0}, ("packs",), "packs must be an integer from 1 to 8, not 0"),
        ({"preset": "standard52", "packs": 9}, ("packs",), "not 9"),
        ({"preset": "standard52", "packs": True}, ("packs",), "not True"),
        ({"preset": "standard52", "packs": "2"}, ("packs",), "not '2'"),
        ({"preset": "standard52", "packs": None}, ("packs",), "not None"),
        ({"preset": "standard52", "wilds": -1}, ("wilds",), "wilds must be an integer from 0 to 64, not -1"),
        ({"preset": "standard52", "wilds": 65}, ("wilds",), "not 65"),
        ({"preset": "standard52", "wilds": 2.5}, ("wilds",), "not 2.5"),
        ({"preset": "standard52", "ace": "middle"}, ("ace",), "ace must be one of low, high, both, not 'middle'"),
        ({"preset": "standard52", "ace": "LOW"}, ("ace",), "not 'LOW'"),
        ({"preset": "standard52", "ace": 1}, ("ace",), "not 1"),
        ({"preset": "standard52", "wrap": "yes"}, ("wrap",), "wrap must be true or false, not 'yes'"),
        ({"preset": "standard52", "wrap": 1}, ("wrap",), "not 1"),
    ],
)
def test_deck_errors(spec: dict[str, Any], path: tuple[Any, ...], fragment: str) -> None:
    with pytest.raises(DeckError) as info:
        Deck.from_spec(spec)
    assert info.value.path == path
    assert fragment in info.value.message
    assert str(info.value).endswith(info.value.message)


@pytest.mark.parametrize("spec", [None, 3, ["standard52"], "poker"])
def test_deck_spec_of_the_wrong_type(spec: Any) -> None:
    with pytest.raises(DeckError):
        Deck.from_spec(spec)


def test_deck_repr() -> None:
    assert repr(STANDARD) == (
        "<Deck suits='S H D C' ranks='A 2 3 4 5 6 7 8 9 T J Q K' packs=1 wilds=0 ace='low' wrap=False>"
    )


def test_preset_error() -> None:
    with pytest.raises(DeckError, match="did you mean 'standard52'") as info:
        Deck.preset("Standard52")
    assert info.value.path == ()


# --------------------------------------------------------------------------- sequences


@pytest.mark.parametrize(
    "ace, wrap, lowest, second, highest, top",
    [
        ("low", False, (1,), (2,), (13,), 13),
        ("high", False, (14,), (2,), (13,), 14),
        ("both", False, (1, 14), (2,), (13,), 14),
        ("both", True, (1, 14), (2,), (13,), 14),
    ],
)
def test_sequence_positions(
    ace: str, wrap: bool, lowest: tuple[int, ...], second: tuple[int, ...],
    highest: tuple[int, ...], top: int,
) -> None:
    deck = Deck.from_spec({"preset": "standard52", "ace": ace, "wrap": wrap})
    assert deck.sequence_positions(deck.ranks[0]) == lowest
    assert deck.sequence_positions(deck.ranks[1]) == second
    assert deck.sequence_positions(deck.ranks[12]) == highest
    assert deck.max_sequence_position == top
    for rank in deck.ranks[1:]:
        assert deck.sequence_positions(rank) == (rank.order,)


def test_sequence_positions_single_rank() -> None:
    deck = Deck.from_spec({"suits": ["S"], "ranks": ["X"], "ace": "both"})
    assert deck.sequence_positions(deck.ranks[0]) == (1, 2)
    assert deck.max_sequence_position == 2


# --------------------------------------------------------------------------- properties

_ALNUM = string.ascii_letters + string.digits


@st.composite
def deck_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A random valid deck mapping, in every form from_spec reads."""
    letters = draw(st.lists(st.sampled_from(string.ascii_uppercase), min_size=1, max_size=6, unique=True))
    suits: list[Any] = []
    for letter in letters:
        symbol = letter if draw(st.booleans()) else letter.lower()
        form = draw(st.integers(0, 2))
        suits.append(symbol if form == 0 else {"symbol": symbol} if form == 1
                     else {"symbol": symbol, "name": f"suit {symbol}", "colour": draw(st.sampled_from(["red", "black"]))})
    spellings = draw(st.lists(st.text(_ALNUM, min_size=1, max_size=4), min_size=1, max_size=30,
                              unique_by=str.upper))
    n_ranks = draw(st.integers(1, len(spellings)))
    ranks: list[Any] = []
    extra = spellings[n_ranks:]
    for symbol in spellings[:n_ranks]:
        aliases = [extra.pop() for _ in range(draw(st.integers(0, min(2, len(extra)))))]
        if aliases or draw(st.booleans()):
            ranks.append({"symbol": symbol, "name": f"rank {symbol}", "aliases": aliases})
        elif symbol.isdigit() and not symbol.startswith("0") and draw(st.booleans()):
            ranks.append(int(symbol))
        else:
            ranks.append(symbol)
    spec: dict[str, Any] = {"suits": suits, "ranks": ranks}
    if draw(st.booleans()):
        spec["packs"] = draw(st.integers(1, 3))
    if draw(st.booleans()):
        spec["wilds"] = draw(st.integers(0, 4))
    if draw(st.booleans()):
        spec["ace"] = draw(st.sampled_from(["low", "high", "both"]))
    if draw(st.booleans()):
        spec["wrap"] = draw(st.booleans())
    return spec


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(deck_specs())
def test_random_decks_round_trip(spec: dict[str, Any]) -> None:
    deck = Deck.from_spec(spec)
    assert deck.size == deck.packs * len(deck.suits) * len(deck.ranks) + deck.wilds
    assert Deck.from_spec(deck.to_spec()) == deck
    for card in deck.cards:
        back = deck.parse_card(str(card))
        assert deck.face_key(back) == deck.face_key(card)
        assert str(back) == str(card)
        assert deck.parse_card(str(card).swapcase()) == back
    for rank in deck.ranks:
        for spelling in (rank.symbol, *rank.aliases):
            assert deck.rank_by_symbol(spelling.lower()) == rank
    # A whole deck parses as a hand, copy by copy, and formats back to itself.
    text = deck.format_cards(deck.cards)
    assert deck.parse_cards(text.split()) == tuple(sorted(deck.cards, key=lambda c: (c.copy if not c.wild else 99, c.id)))
    assert deck.format_cards(deck.parse_cards(text)) == text
    assert sorted(deck.parse_cards(text)) == list(deck.cards)


_CARDISH = st.text(alphabet=st.sampled_from(list(_ALNUM + "*  \t\u2665\u017f\u0131\u00df#[]10")), max_size=5)


@settings(max_examples=300)
@given(st.sampled_from([STANDARD, RUMSKI]), st.one_of(st.text(max_size=8), _CARDISH))
def test_parse_card_raises_only_card_errors(deck: Deck, text: str) -> None:
    try:
        card = deck.parse_card(text)
    except CardError as err:
        assert repr(text) in str(err) or "empty card text" in str(err)
        return
    assert isinstance(card, Card)
    assert str(card).upper() == "".join(text.split()).upper().replace("10", "T", 1) or str(card) == "*"


@settings(max_examples=100)
@given(st.sampled_from([STANDARD, RUMSKI]), st.lists(st.one_of(st.text(max_size=4), _CARDISH), max_size=8))
def test_parse_cards_raises_only_card_errors(deck: Deck, texts: list[str]) -> None:
    try:
        deck.parse_cards(texts)
    except CardError:
        pass


_JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["preset", "suits", "ranks", "packs", "wilds", "ace", "wrap",
                                       "symbol", "name", "colour", "aliases", "x"]), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300)
@given(st.one_of(_JSONISH, deck_specs().map(lambda s: {**s, "packs": s.get("packs", 1) * 3})))
def test_from_spec_raises_only_deck_errors(spec: Any) -> None:
    try:
        deck = Deck.from_spec(spec)
    except DeckError:
        return
    assert isinstance(deck, Deck)


def test_integral_floats_are_integers_as_in_the_schema() -> None:
    """The schema's ``integer`` accepts 2.0 (JSON Schema cannot tell 2.0 from 2), so
    the deck reads it as 2 rather than refusing what the schema let through."""
    deck = Deck.from_spec({"suits": ["S"], "ranks": [7.0, 8], "packs": 2.0, "wilds": 1.0})
    assert (deck.packs, deck.wilds, [r.symbol for r in deck.ranks]) == (2, 1, ["7", "8"])
    assert type(deck.packs) is int and type(deck.wilds) is int
