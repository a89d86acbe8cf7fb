"""Fuzzing the conformance suite loader (fuzz/targets.py ``suite``): a suite file loads
or raises SuiteError, and every case of one that loads runs to passed, failed or
skipped, never a traceback.

The inputs are the repository's suites edited at random as text, and as trees
(a value replaced, deleted or added: tests/unit/tree_edits.py) then written back.
"""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from mutations import fuzz_settings, mutated, repo_files
from targets import suite_target
from tree_edits import edited

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's writer: the same YAML, cheaper

SUITES = repo_files("tests/conformance/**/*.suite.yaml")
TREES = [yaml.load(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) for data in SUITES[:12]]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 120),
                    st.sampled_from(["P1", "P2", "P3", "P9", "7H", "KC", "AS", "*", "4R", "P1 draw stock",
                                     "P2 knock 7H", "P1 discard 7H", "gin_rummy", "ginski", "skarney_gin",
                                     "nope", "../variants/gin_rummy.yaml", "GR-1", "run", "set", "poker", "a" * 300,
                                     "a\x00b"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["P1", "P2", "P3", "valid", "kinds", "deadwood", "contract", "illegal",
                                     "legal_includes", "to_move", "hands", "stock", "upcard", "dealer",
                                     "scores", "round_over", "round_score", "winner", "game_over"]),
                    inner, max_size=3)), max_leaves=8)


@fuzz_settings(40)
@given(mutated(SUITES))
def test_edited_suite_files_load_or_raise_suite_errors(data: bytes) -> None:
    suite_target(data)


@fuzz_settings(40)
@given(st.sampled_from(range(len(TREES))), st.data())
def test_edited_suite_trees_load_or_raise_suite_errors(index: int, data: st.DataObject) -> None:
    tree: Any = edited(TREES[index], data, values, ["variant", "options", "expect", "actions", "setup", "skip",
                                                    "meld", "hand", "rule", "tags"])
    suite_target(yaml.dump(tree, Dumper=DUMPER, sort_keys=False, allow_unicode=True).encode("utf-8"))
