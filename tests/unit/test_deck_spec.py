"""One rule for a deck: a ``deck`` mapping passes the variant schema exactly when
:meth:`Deck.from_spec` builds it, but for the one rule JSON Schema cannot say (no
two suit symbols, and no two rank spellings, equal ignoring case), which
``from_spec`` reports as a duplicate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rummydsl.cards import Deck, DeckError
from rummydsl.variant import check_file
from rummydsl.variant.schema import variant_schema

DECK_SCHEMA = Draft202012Validator({"$defs": variant_schema()["$defs"], "$ref": "#/$defs/deck"})

odd_values = st.sampled_from([None, True, False, -1, 0, 2.5, "", " ", [], {}])
suit_texts = st.sampled_from(["S", "H", "s", "x", "SS", "1", "\u2665", "S\n", "*", " ", ""])
names = st.one_of(st.sampled_from(["spades", "red", "", " ", "\t", "a b"]), odd_values)
suit_items = st.one_of(
    suit_texts,
    st.dictionaries(st.sampled_from(["symbol", "name", "colour", "color"]),
                    st.one_of(suit_texts, names), max_size=4),
    odd_values)
rank_symbols = st.one_of(
    st.sampled_from(["A", "2", "10", "T", "t", "K", "ABCDEFGH", "ABCDEFGHI", "", "a b", "*", "7\n",
                     "\u00e9", "\uff17", "0"]),
    st.sampled_from([-1, 0, 7, 10, 12345678, 123456789, 7.0, 7.5, 1e8, True]))
rank_items = st.one_of(
    rank_symbols,
    st.dictionaries(st.sampled_from(["symbol", "name", "aliases", "alias"]),
                    st.one_of(rank_symbols, names, st.lists(rank_symbols, max_size=3)), max_size=4),
    odd_values)
many_ranks = st.integers(60, 66).map(lambda n: [f"R{i}" for i in range(n)])
many_suits = st.integers(25, 27).map(lambda n: [chr(ord("A") + i) if i < 26 else "a" for i in range(n)])
deck_specs = st.dictionaries(
    st.sampled_from(["preset", "suits", "ranks", "packs", "wilds", "ace", "wrap", "jokers"]),
    st.one_of(
        st.sampled_from(["standard52", "rumski70", "standard", "low", "both", "LOW"]),
        st.lists(suit_items, max_size=5), st.lists(rank_items, max_size=6), many_ranks, many_suits,
        st.integers(-1, 70), st.sampled_from([1.0, 2.0, 64.0, 8.5]), st.booleans(), odd_values),
    max_size=5)


def _agree(spec: Any) -> None:
    schema_ok = DECK_SCHEMA.is_valid(spec)
    try:
        Deck.from_spec(spec)
    except DeckError as problem:
        if schema_ok:
            assert "duplicate" in str(problem), (spec, str(problem))
        return
    assert schema_ok, (spec, [e.message for e in DECK_SCHEMA.iter_errors(spec)])


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck_specs)
@example({"suits": ["S", "H"], "ranks": ["A", "K"]})  # bare suit symbols
@example({"suits": [{"symbol": "S"}], "ranks": ["A"]})  # a suit without a name
@example({"suits": ["S"], "ranks": [f"R{i}" for i in range(64)]})  # 64 ranks
@example({"suits": ["S"], "ranks": [f"R{i}" for i in range(65)]})  # 65 ranks
@example({"suits": ["S\n"], "ranks": ["7\n"]})  # a trailing line break
@example({"suits": ["S"], "ranks": [7.0], "packs": 2.0})  # integral floats are integers
@example({"suits": [{"symbol": "S", "name": " "}], "ranks": ["A"]})  # a blank name
def test_a_deck_mapping_passes_the_schema_iff_from_spec_builds_it(spec: dict[str, Any]) -> None:
    _agree(spec)


@pytest.mark.parametrize("spec", [
    {"suits": ["S", "H"], "ranks": ["A", "K"]},
    {"suits": [{"symbol": "S"}], "ranks": ["A"]},
    {"suits": ["S"], "ranks": [f"R{i}" for i in range(64)]},
])
def test_what_the_code_always_built_the_schema_now_accepts(spec: dict[str, Any]) -> None:
    """Bare suit symbols, a suit without a name, and up to 64 ranks: from_spec built
    them, the schema refused them."""
    Deck.from_spec(spec)
    assert DECK_SCHEMA.is_valid(spec), [e.message for e in DECK_SCHEMA.iter_errors(spec)]


def test_duplicates_are_the_one_rule_only_from_spec_checks() -> None:
    spec = {"suits": ["S", "s"], "ranks": ["A"]}
    assert DECK_SCHEMA.is_valid(spec)
    with pytest.raises(DeckError, match="duplicate suit symbol"):
        Deck.from_spec(spec)


@pytest.mark.parametrize("deck, where, fragment", [
    ("suits: [SS]\n  ranks: [A]", "'deck.suits[0]' is 'SS'", "must be one letter"),
    ('suits: [S]\n  ranks: ["a b"]', "'deck.ranks[0]' is 'a b'", "must be 1 to 8 ASCII letters or digits"),
    ("suits: [S]\n  ranks: [A, {symbol: K, aliases: [x y]}]", "'deck.ranks[1].aliases[0]'",
     "must be 1 to 8 ASCII letters or digits"),
    ('suits: [{symbol: S, name: " "}]\n  ranks: [A]', "'deck.suits[0].name' is ' '", "must not be blank"),
])
def test_a_bad_deck_is_told_in_plain_words(tmp_path: Path, deck: str, where: str, fragment: str) -> None:
    """The schema now judges symbols and names: its messages say what a symbol is."""
    path = tmp_path / "deck.yaml"
    path.write_text(f"rummydsl: 1\nid: d\nname: D\nextends: gin_rummy\ndeck:\n  {deck}\n", encoding="utf-8")
    messages = [d.message for d in check_file(str(path)) if d.severity == "error"]
    assert len(messages) == 1 and where in messages[0] and fragment in messages[0], messages
