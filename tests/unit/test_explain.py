"""``explain`` on variants at the edges of what ``check`` accepts (the property test
over random variants is in test_check_fuzz.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.explainer import explain
from rummydsl.variant import check_file, load_variant

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's writer: the same YAML, cheaper

RUN2 = 'run: "size >= 2 and same(suit) and consecutive(rank)"'
NO_RUN = "run: null"  # one rank: no sequence can be formed


@pytest.mark.parametrize("ranks, ace, run, expected", [
    ("[A, K]", "both", RUN2, "The A is low or high in sequences (A-K or K-A), never both at once."),
    ("[A, K, Q]", "both", RUN2, "The A is low or high in sequences (A-K-Q or K-Q-A), never both at once."),
    ("[A]", "both", NO_RUN, "The A is low or high in sequences, never both at once."),
    ("[A]", "high", NO_RUN, "The A is high only in sequences."),
    ("[A, K]", "high", RUN2, "The A is high only in sequences (above K)."),
])
def test_explain_a_deck_of_few_ranks(tmp_path: Path, ranks: str, ace: str, run: str,
                                     expected: str) -> None:
    """A custom deck of 2 ranks with ``ace: both`` passed check and crashed explain
    (an IndexError: the ace's example sequences assumed 3 ranks or more)."""
    path = tmp_path / "few.yaml"
    path.write_text(
        "rummydsl: 1\nid: few\nname: Few ranks\nextends: gin_rummy\n"
        "deck:\n  suits: [{symbol: S, name: spades}, {symbol: H, name: hearts}, "
        "{symbol: D, name: diamonds}, {symbol: C, name: clubs}]\n"
        f"  ranks: {ranks}\n  ace: {ace}\n  packs: 8\n"
        f"melds:\n  set: \"size in 3..4 and same(rank)\"\n  {run}\n", encoding="utf-8")
    assert not [d for d in check_file(str(path)) if d.severity == "error"]
    text = explain(load_variant(str(path)))
    assert expected in " ".join(text.split())


SUITS = [{"symbol": s, "name": n} for s, n in zip("SHDCX", ["spades", "hearts", "diamonds", "clubs", "stars"])]
decks = st.fixed_dictionaries(
    {"suits": st.lists(st.sampled_from(SUITS), min_size=1, max_size=5, unique_by=lambda s: s["symbol"]),
     "ranks": st.lists(st.sampled_from(["A", "2", "3", "4", "J", "Q", "K"]), min_size=1, max_size=5,
                       unique=True)},
    optional={"ace": st.sampled_from(["low", "high", "both"]), "wrap": st.booleans(),
              "packs": st.integers(1, 8), "wilds": st.integers(0, 4)})
meld_sets = st.dictionaries(
    st.sampled_from(["set", "run", "pair"]),
    st.sampled_from(["size in 3..4 and same(rank)", "size >= 2 and same(suit) and consecutive(rank)",
                     "size >= 3 and same(suit) and consecutive(rank)", "size == 2 and same(rank)"]),
    min_size=1, max_size=3)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(deck=decks, melds=meld_sets, hand_size=st.integers(1, 10), card_value=st.sampled_from(
    ["min(order, 10)", "wild ? 25 : order", "1", "pips"]))
def test_every_small_deck_check_accepts_explains(tmp_path_factory: Any, deck: dict[str, Any],
                                                 melds: dict[str, str], hand_size: int,
                                                 card_value: str) -> None:
    """Custom decks of few ranks and suits, which the shipped variants never have."""
    tree = {"rummydsl": 1, "id": "small", "name": "Small", "extends": "gin_rummy", "deck": deck,
            "melds": {"set": None, "run": None, **melds}, "deal": {"hand_size": hand_size},
            "card_value": card_value if card_value != "pips" else {"default": "pips", "wild": 0}}
    path = tmp_path_factory.mktemp("small") / "small.yaml"
    path.write_text(yaml.dump(tree, Dumper=DUMPER, sort_keys=False), encoding="utf-8")
    if any(d.severity == "error" for d in check_file(str(path))):
        return
    text = explain(load_variant(str(path)))
    assert text.startswith("Small")


def test_changed_lists_and_maps_show_as_written(tmp_path: Path) -> None:
    """A variant's trees are read-only (tuples, mappingproxies); the differences from
    the parent still show lists and maps as they are written."""
    path = tmp_path / "house.yaml"
    path.write_text("rummydsl: 1\nid: house\nname: House\nextends: gin_rummy\n"
                    "turn: [draw, discard]\nstock: {final_turn_skip: [discard]}\n", encoding="utf-8")
    text = explain(load_variant(str(path)))
    assert "- stock.final_turn_skip: (none) -> [discard]" in text  # as YAML, not a Python repr
    assert "- turn.draw.from: [stock, discard] -> (the default)" in text
    assert "mappingproxy" not in text and "('" not in text
