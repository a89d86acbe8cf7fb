"""The fast paths agree with the authoritative slow ones.

``check`` reads YAML with libyaml when it can (falling back to the pure-Python
loader, whose positions are exact) and answers "is this tree valid?" with a
schema compiled to closures (falling back to jsonschema for every message). A
fast path that disagreed would silently change positions, or let an invalid
variant through; these properties pin them to the slow paths.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.variant.load_compose import load_python
from rummydsl.variant.load_pyyaml import CParser
from rummydsl.conformance.suite import _fast_valid as suite_fast_valid, _validator as suite_validator
from rummydsl.variant.load import SUITE_LIMITS, load_document
from rummydsl.variant.schema import _fast_valid, validator
from tree_edits import edited

REPO = Path(__file__).resolve().parents[2]
YAML_FILES = sorted(p for p in REPO.rglob("*.yaml") if ".venv" not in p.parts and "bad" not in p.parts)

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text("ab_ -:#'\"\n", max_size=12),
                         st.sampled_from(["stock", "discard", "next", "void", "low", "both", "gin_rummy",
                                          "size >= 3", "standard52", "none", "GR-9.2"]))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["limit", "from", "value", "one_of", "pattern", "x", "games",
                                     "target", "draw", "offer", "rule"]), inner, max_size=4)),
    max_leaves=12)


def same_document(text: str) -> None:
    fast = load_document("v.yaml", text)
    slow = load_python("v.yaml", text)
    assert fast.data == slow.data or repr(fast.data) == repr(slow.data)  # .nan is not equal to itself
    for path in slow.positions:
        assert fast.positions.value(path) == slow.positions.value(path), path
        assert fast.positions.key(path) == slow.positions.key(path), path


@pytest.mark.skipif(CParser is None, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("path", YAML_FILES, ids=[p.name for p in YAML_FILES])
def test_repository_yaml_reads_the_same_both_ways(path: Path) -> None:
    try:
        same_document(path.read_text(encoding="utf-8"))
    except Exception as problem:  # a file the loader refuses must be refused both ways
        from rummydsl.errors import VariantError

        assert isinstance(problem, VariantError)


@pytest.mark.skipif(CParser is None, reason="PyYAML was built without libyaml")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["id", "name", "deck", "melds", "turn", "k"]), json_values,
                       min_size=1, max_size=5),
       st.sampled_from([None, "'", '"', "|", ">"]), st.booleans(), st.sampled_from([12, 80]))
def test_generated_yaml_reads_the_same_both_ways(data: dict[str, Any], style: Any, flow: bool,
                                                 width: int) -> None:
    text = yaml.dump(data, default_style=style, default_flow_style=flow, width=width, allow_unicode=True)
    try:
        same_document(text)
    except Exception as problem:
        from rummydsl.errors import VariantError

        assert isinstance(problem, VariantError)


SHIPPED = [json.loads(json.dumps(data)) for data in (load_document(str(p)).data
                                                     for p in sorted((REPO / "variants").glob("*.yaml")))
           if "extends" not in data]  # each file read once


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.data())
def test_fast_schema_check_agrees_with_jsonschema(variant: dict[str, Any], data: st.DataObject) -> None:
    tree = edited(variant, data, json_values, ["limit", "extra", "from", "value"])
    assert _fast_valid(tree) == validator().is_valid(tree)


@pytest.mark.parametrize("variant", SHIPPED, ids=[v["id"] for v in SHIPPED])
def test_fast_schema_check_accepts_the_shipped_variants(variant: dict[str, Any]) -> None:
    assert _fast_valid(variant) and validator().is_valid(variant)


SUITES = [json.loads(json.dumps(load_document(str(p), limits=SUITE_LIMITS).data))
          for p in sorted((REPO / "tests" / "conformance").rglob("*.suite.yaml"))]
suite_values = st.recursive(st.one_of(json_scalars, st.sampled_from(["P1", "P2", "5H 6H 7H", "GR-9.2", "draw"])),
                            lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(
                                st.sampled_from(["id", "meld", "hand", "setup", "expect", "valid", "rule", "x"]),
                                inner, max_size=3)), max_leaves=8)


SUITE_HEADS = [{**suite, "cases": suite["cases"][:3]} for suite in SUITES]  # small trees: edits land in cases


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SUITE_HEADS), st.data())
def test_fast_suite_schema_check_agrees_with_jsonschema(suite: dict[str, Any], data: st.DataObject) -> None:
    """Suites are checked as variants are: the compiled check first, jsonschema when it says no."""
    tree = edited(suite, data, suite_values, ["id", "meld", "hand", "setup", "actions", "skip", "extra"])
    assert suite_fast_valid()(tree) == suite_validator().is_valid(tree)


def test_fast_suite_schema_check_accepts_every_suite() -> None:
    assert all(suite_fast_valid()(suite) and suite_validator().is_valid(suite) for suite in SUITES)


@pytest.mark.skipif(CParser is None, reason="PyYAML was built without libyaml")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["id", "name", "deck", "melds", "turn", "k"]), json_values,
                       min_size=1, max_size=4),
       st.one_of(st.lists(json_values, min_size=1, max_size=3),
                 st.dictionaries(st.sampled_from(["limit", "from", "x"]), json_values, min_size=1, max_size=3)),
       st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=2, max_size=4, unique=True),
       st.sampled_from([None, "'", '"']), st.booleans())
def test_yaml_with_anchors_reads_the_same_both_ways(data: dict[str, Any], shared: Any, keys: list[str],
                                                     style: Any, flow: bool) -> None:
    """The fast path takes anchors and aliases (suites share setups so): the same values,
    each alias a copy of its own, and the same places as the exact reader's."""
    tree = {**data, "shared": {key: shared for key in keys}, "again": [shared, {"in": shared}]}
    text = yaml.dump(tree, default_style=style, default_flow_style=flow, allow_unicode=True)
    assert "&id001" in text
    same_document(text)
    document = load_document("v.yaml", text)
    first, second = document.data["shared"][keys[0]], document.data["shared"][keys[1]]
    assert first == second and (first is not second or not isinstance(first, (list, dict)))


@pytest.mark.skipif(CParser is None, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("text", [
    "a: &x [1, *x]\n",  # an alias inside the node it names
    "a: &x 1\nb: &x 2\nc: *x\n",  # an anchor given twice
    "a: &x [&x 1]\n",
    "a: *nowhere\n",  # an alias before (or without) its anchor
    "b: *x\na: &x 1\n",
    "a: &x k\n*x : 2\n",  # an alias as a key
    "&k a: 1\n",  # an anchored key
    "a: &x [1, 2]\n" + "".join(f"b{n}: *x\n" for n in range(101)),  # past the 100 aliases of a variant
    "a: &deep " + "[" * 30 + "]" * 30 + "\nb: " + "[" * 40 + "*deep" + "]" * 40 + "\n",  # too deep, expanded
])
def test_aliases_the_fast_path_leaves_to_the_exact_reader(text: str) -> None:
    """Every refusal (and the anchored keys it does not place) is the exact reader's."""
    from rummydsl.variant.load_fast import load_fast
    from rummydsl.variant.load_read import split_lines

    assert load_fast(CParser, "v.yaml", text, tuple(split_lines(text))) is None


@pytest.mark.skipif(CParser is None, reason="PyYAML was built without libyaml")
def test_the_anchored_suites_take_the_fast_path() -> None:
    """14 of the suites share setups by anchors; they are read with libyaml too."""
    from rummydsl.variant.load_fast import load_fast
    from rummydsl.variant.load_read import split_lines

    anchored = [p for p in sorted((REPO / "tests" / "conformance").rglob("*.suite.yaml"))
                if "*" in (text := p.read_text(encoding="utf-8")) and "&" in text]
    assert len(anchored) >= 10
    for path in anchored:
        text = path.read_text(encoding="utf-8")
        assert load_fast(CParser, str(path), text, tuple(split_lines(text)), SUITE_LIMITS.nodes,
                         SUITE_LIMITS.aliases) is not None, path


_PAST = "a: [" + ", ".join(["1"] * 60) + "]\n"
_BOMB = "a0: &a0 [x, x, x]\na1: &a1 [*a0, *a0, *a0]\na2: &a2 [*a1, *a1, *a1]\na3: [*a2, *a2, *a2]\n"


@pytest.mark.skipif(CParser is None, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("text, fast", [
    (_PAST, True), (_PAST + "b: &x 1\nc: *x\n", True), (_BOMB, True),
    ("k: {" + ", ".join(f"k{i}: {i}" for i in range(40)) + "}\n", True),
    (_BOMB + "z: *a0\n", True),
    ("a: &x [1, 2, 3, 4, 5, 6, 7, 8]\n" + "".join(f"b{n}: [*x, *x]\n" for n in range(5)), True),
    ("a: &x [1, 2]\n" + "".join(f"b{n}: [*x, *x]\n" for n in range(20)), False),  # past the 10 aliases
    (_PAST + "b: !!str 1\n", False), (_PAST + "b: [a?b]\n", False), (_PAST + "b: [1, 2\n", False),
    (_PAST + "b: *nowhere\n", False), (_PAST + "---\nb: 1\n", False), (_PAST + "b: &a 1\nc: &a 2\n", False),
    (_PAST + "b: " + "[" * 40 + "]" * 40 + "\n", False),
    (_PAST + "".join(f"b{n}: &x{n} 1\nc{n}: *x{n}\n" for n in range(11)), False),
])
def test_too_many_values_are_refused_alike_both_ways(text: str, fast: bool) -> None:
    """Past the size limit the fast path gives the exact reader's refusal itself (limit-size,
    or limit-aliases at the alias when the file uses any), once the rest of the file is seen
    to compose; anything else it leaves to that reader. Small limits keep it quick."""
    from rummydsl.errors import VariantError
    from rummydsl.variant.load import _load_document
    from rummydsl.variant.load_compose import load_python_text
    from rummydsl.variant.load_read import Refused, YamlLimits, split_lines

    small = YamlLimits(SUITE_LIMITS.file_bytes, 10, 50)
    with pytest.raises(VariantError) as by_the_fast_path:
        _load_document("v.yaml", text, small)
    with pytest.raises(Refused) as exactly:
        load_python_text("v.yaml", text, tuple(split_lines(text)), small)
    assert by_the_fast_path.value.diagnostics[0].location == exactly.value.diagnostic.location
    assert by_the_fast_path.value.diagnostics[0].message == exactly.value.diagnostic.message
    assert by_the_fast_path.value.diagnostics[0].rule == exactly.value.diagnostic.rule
    from rummydsl.variant.load_fast import load_fast

    try:
        left = load_fast(CParser, "v.yaml", text, tuple(split_lines(text)), small.nodes, small.aliases)
    except Refused:
        assert fast
    else:
        assert left is None and not fast
