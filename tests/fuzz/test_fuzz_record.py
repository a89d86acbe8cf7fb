"""Fuzzing the replay of game records (fuzz/targets.py ``record``): a record made by
``simulate --log`` and then edited replays, or is refused with a family error.

Edits: a line's JSON tree changed (each kind of line as likely as any other) (tests/unit/tree_edits.py), lines deleted,
doubled or swapped, bytes changed (see mutations.py).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mutations import fuzz_settings, mutated
from seeds import seeds
from targets import record_target
from tree_edits import edited

RECORDS = seeds("record")
RECORD_LINES = [[json.loads(line) for line in record.splitlines()] for record in RECORDS]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.floats(allow_nan=True),
                    st.integers(2**62, 2**70),
                    st.sampled_from(["P1", "P2", "P3", "P0", "7H", "KC", "*", "x", "", "gin_rummy", "ginski",
                                     "hands", "games", "deal", "action", "result", "game", "header", "stopped",
                                     "game_result", "P1 draw stock", "P2 knock 7H", "knock", "gin", "void",
                                     "/", "variants/gin_rummy.yaml", "1", "a" * 300, "a\x00b"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["P1", "P2", "P3", "type", "round", "dealer", "hands", "stock", "upcard",
                                     "scores", "action", "points", "ending", "ender", "winner"]),
                    inner, max_size=3)), max_leaves=8)


@fuzz_settings(50)
@given(st.sampled_from(RECORD_LINES), st.data())
def test_records_with_edited_lines_replay_or_raise_family_errors(lines: list[Any], data: st.DataObject) -> None:
    lines = list(lines)
    kind = data.draw(st.sampled_from(sorted({line["type"] for line in lines})))  # each kind of line alike
    at = data.draw(st.sampled_from([i for i, line in enumerate(lines) if line["type"] == kind]))
    lines[at] = edited(lines[at], data, values, ["type", "round", "players", "mode", "variant", "variant_path",
                                                 "scores", "record"])
    record_target(b"".join(json.dumps(line).encode() + b"\n" for line in lines))


@fuzz_settings(40)
@given(mutated(RECORDS, [b"{", b"}", b'"', b",", b"\n", b"null", b"1e999", b"NaN", b"-1", b"[]", b"\xff",
                          b'"P3"', b'"type":"deal",', b"\\u0000"]))
def test_edited_record_bytes_replay_or_raise_family_errors(data: bytes) -> None:
    record_target(data)


@fuzz_settings(50)
@given(st.sampled_from(RECORD_LINES), st.data())
def test_records_with_a_field_changed_replay_or_raise_family_errors(lines: list[Any], data: st.DataObject) -> None:
    """One field of one line (or of a map inside it: hands, scores) given another value."""
    lines = [dict(line) for line in lines]
    kind = data.draw(st.sampled_from(sorted({line["type"] for line in lines})))
    line = data.draw(st.sampled_from([line for line in lines if line["type"] == kind]))
    key = data.draw(st.sampled_from(sorted(line)))
    if isinstance(line[key], dict) and line[key] and data.draw(st.booleans()):
        line[key] = dict(line[key])
        line[key][data.draw(st.sampled_from(sorted(line[key])))] = data.draw(values)
    else:
        line[key] = data.draw(values)
    record_target(b"".join(json.dumps(line).encode() + b"\n" for line in lines))

