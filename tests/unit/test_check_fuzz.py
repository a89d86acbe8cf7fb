"""Whatever a variant file says, `check` answers with located diagnostics, never an
exception: random edits of the shipped variants (values swapped for others of
plausible shapes, keys dropped or added), run through the whole pipeline. And
whatever `check` accepts, `explain` can put in words."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.explainer import explain
from rummydsl.variant import check_file, load_variant
from rummydsl.variant.load import load_document
from tree_edits import edited

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's writer: the same YAML, cheaper

REPO = Path(__file__).resolve().parents[2]
SHIPPED = {p.stem: load_document(str(p)).data for p in sorted((REPO / "variants").glob("*.yaml"))}

EXPRESSIONS = ["size >= 3", "same(rank)", "consecutive(rank) and size >= 2", "order", "rank == A ? 1 : 2",
               "min(order, 10)", "deadwood(ender)", "upcard.rank", "count == 2", "gin", "p == ender ? 1 : 0",
               "wild ? 25 : order", "size in 3..2", "1 // 0", "-5", "sum(deadwood(o) for o in opponents)",
               "size >= 3 and distinct(suit)", "true", "knock", "undercut_bonus", "x +", "((("]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 80), st.sampled_from(EXPRESSIONS),
                    st.sampled_from(["stock", "discard", "next", "void", "stock_end", "low", "high", "both",
                                     "standard52", "rumski70", "none", "ender_melds", "A", "gin_rummy"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(["limit", "from", "value", "one_of", "pattern", "count", "min", "max",
                                     "preset", "suits", "ranks", "wilds", "packs", "ace", "wrap", "symbol",
                                     "name", "draw", "offer", "meld", "discard", "when", "points"]),
                    inner, max_size=3)), max_leaves=8)


def check_never_raises(tmp_path_factory: Any, name: str, tree: Any) -> None:
    """Write the tree as a variant file and check it: only located diagnostics; and
    if check finds no error, the variant loads and explains."""
    path = tmp_path_factory.mktemp("fuzz") / f"{name}.yaml"
    path.write_text(yaml.dump(tree, Dumper=DUMPER, sort_keys=False), encoding="utf-8")
    diagnostics = check_file(str(path))
    for diagnostic in diagnostics:
        assert diagnostic.message
        assert diagnostic.location.path
    if not any(diagnostic.severity == "error" for diagnostic in diagnostics):
        variant = load_variant(str(path))
        text = explain(variant)
        assert text.startswith(variant.name)


# The example counts are what a landing runs (CI draws the same examples every time);
# fuzz/ (fuzz/README.md: the variant-file target checks as these do) runs the long searches. 200 and 250: half of
# what they were, for half of the suite's two slowest property tests.
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(SHIPPED)), st.data())
def test_check_never_raises(tmp_path_factory: Any, name: str, data: st.DataObject) -> None:
    tree = edited(SHIPPED[name], data, values, ["limit", "count", "min", "max", "wilds", "ace"])
    check_never_raises(tmp_path_factory, name, tree)


# Schema-valid edits, so the deck, expression and semantic stages run too.
EDITS: dict[tuple[str, ...], st.SearchStrategy[Any]] = {
    ("players",): st.one_of(st.integers(2, 8), st.fixed_dictionaries(
        {"count": st.integers(2, 8)}, optional={"min": st.integers(2, 8), "max": st.integers(2, 8)})),
    ("deck",): st.one_of(
        st.fixed_dictionaries({"preset": st.sampled_from(["standard52", "rumski70"])},
                              optional={"packs": st.integers(1, 8), "wilds": st.integers(0, 64),
                                        "ace": st.sampled_from(["low", "high", "both"]), "wrap": st.booleans()}),
        st.fixed_dictionaries({"suits": st.lists(st.fixed_dictionaries(
            {"symbol": st.sampled_from(list("SHDCXA")), "name": st.sampled_from(["a", "b"])}), min_size=1, max_size=4),
            "ranks": st.lists(st.sampled_from(["A", "2", "3", "K", "10", "T", "S"]), min_size=1, max_size=6)},
            optional={"ace": st.sampled_from(["low", "high", "both"]), "wrap": st.booleans(),
                      "wilds": st.integers(0, 3), "packs": st.integers(1, 8)})),
    ("card_value",): st.one_of(st.sampled_from(EXPRESSIONS), st.integers(-5, 30),
                               st.dictionaries(st.sampled_from(["A", "K", "2", "wild", "default", "Z"]),
                                               st.integers(0, 20), min_size=1, max_size=3)),
    ("deal", "hand_size"): st.integers(1, 30),
    ("deal", "upcard"): st.booleans(),
    ("stock", "floor"): st.integers(0, 100),
    ("knock",): st.one_of(st.none(), st.fixed_dictionaries({"limit": st.one_of(st.integers(0, 200),
                                                                               st.sampled_from(EXPRESSIONS))})),
    ("melds",): st.dictionaries(st.sampled_from(["set", "run", "odd"]), st.sampled_from(EXPRESSIONS),
                                min_size=1, max_size=3),
    ("contract",): st.one_of(st.none(), st.fixed_dictionaries({"melds": st.sampled_from(EXPRESSIONS)})),
    ("turn",): st.lists(st.sampled_from(["draw", "meld", "discard", "offer", {"draw": {"from": ["discard"]}},
                                         {"offer": {"min_hand": 40}}]), min_size=1, max_size=4),
    ("scoring",): st.fixed_dictionaries({"round": st.lists(st.fixed_dictionaries(
        {"when": st.sampled_from(EXPRESSIONS)}, optional={"points": st.sampled_from(EXPRESSIONS),
                                                           "ender": st.sampled_from(EXPRESSIONS)}), max_size=3)},
        optional={"let": st.dictionaries(st.sampled_from(["k", "size", "low"]), st.sampled_from(EXPRESSIONS),
                                         max_size=2), "multiplier": st.sampled_from(EXPRESSIONS)}),
    ("options",): st.dictionaries(st.sampled_from(["gin_bonus", "set_max", "knock_points", "size"]),
                                  st.one_of(st.integers(0, 9), st.booleans()), max_size=3),
}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(SHIPPED)), st.data())
def test_check_never_raises_on_schema_valid_edits(tmp_path_factory: Any, name: str, data: st.DataObject) -> None:
    tree = copy.deepcopy(SHIPPED[name])
    for key in data.draw(st.lists(st.sampled_from(sorted(EDITS)), min_size=1, max_size=3, unique=True)):
        node = tree
        for part in key[:-1]:
            node = node.setdefault(part, {})
        node[key[-1]] = data.draw(EDITS[key])
    check_never_raises(tmp_path_factory, name, tree)
