"""Every limit of rummydsl.limits: at the limit accepted, one past refused with a
family error that names the place, in bounded time and memory.

The inputs past a limit are sized so that a missing limit would show as a hang or
a MemoryError (gigabytes, towers of squares), never as a slow-but-passing test;
nothing here measures time. docs/limits.md is the table of the limits: it is
parsed here and checked against the module, the schemas and this file's tests.
"""

from __future__ import annotations

import copy
import inspect
import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from rummydsl import limits
from rummydsl.cards import Deck
from rummydsl.cli import main
from rummydsl.conformance.runner import run_case
from rummydsl.conformance.suite import load_suite
from rummydsl.engine import Game, Round, play_game, play_round
from rummydsl.errors import (
    DeckError,
    MeldError,
    ExpressionError,
    RecordError,
    StalledGameError,
    StalledRoundError,
    SuiteError,
    VariantError,
)
from rummydsl.expr import BOOL, Context, Env, SimpleRoundView, compile_expression, parse
from rummydsl.melds import MeldRules
from rummydsl.record import replay_record, run_game, run_hand
from rummydsl.resources import read_spec_text, variants_dir
from rummydsl.variant import check_file, load_variant
from rummydsl.variant.load import load_document

DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's writer: the same YAML, cheaper

REPO = Path(__file__).resolve().parents[2]
GIN = yaml.safe_load((variants_dir() / "gin_rummy.yaml").read_text(encoding="utf-8"))


def run(*argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV``."""
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


def refused_cleanly(code: int, out: str, err: str, *fragments: str) -> None:
    """Exit 1, no traceback, and every fragment in what was printed."""
    text = out + err
    assert code == 1, text
    assert "Traceback" not in text
    for fragment in fragments:
        assert fragment in text, (fragment, text)


def write_variant(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.dump(data, Dumper=DUMPER, sort_keys=False, width=10_000), encoding="utf-8")
    return path


def gin(**changes: Any) -> dict[str, Any]:
    """gin_rummy's data with top-level keys replaced (``None`` deletes one)."""
    data = copy.deepcopy(GIN)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def errors(diagnostics: list[Any]) -> list[Any]:
    return [d for d in diagnostics if d.severity == "error"]


# -- the table, the module and the schemas agree ------------------------------------

TABLE = (REPO / "docs" / "limits.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| `(MAX_[A-Z_]+)` \| ([0-9,]+) \|(.*)\| `([^`]+)` \|$", re.M)


def table_rows() -> list[tuple[str, int, str, str]]:
    """(constant, value, the middle cells, test) of every row of docs/limits.md."""
    return [(m.group(1), int(m.group(2).replace(",", "")), m.group(3), m.group(4)) for m in ROW.finditer(TABLE)]


def test_the_table_has_one_row_per_limit() -> None:
    names = [row[0] for row in table_rows()]
    assert len(names) == len(set(names)), "a limit has two rows"
    assert sorted(names) == sorted(limits.__all__)


@pytest.mark.parametrize("name,value,cells,test", table_rows(), ids=[row[0] for row in table_rows()])
def test_a_row_of_the_table(name: str, value: int, cells: str, test: str) -> None:
    assert getattr(limits, name) == value, f"docs/limits.md says {name} is {value:,}"
    assert cells.count("|") == 1, "a row has: limit, value, where, the error, the test"
    error = cells.split("|")[1]
    assert error.strip().startswith("`") and error.strip().endswith("`"), "the error is quoted"
    path, _, function = test.partition("::")
    source = (REPO / path).read_text(encoding="utf-8")
    assert re.search(rf"^def {re.escape(function.split('[')[0])}\(", source, re.M), f"no test {test}"


def test_every_limit_has_a_docstring_line() -> None:
    source = inspect.getsource(limits)
    for name in limits.__all__:
        assert re.search(rf"^{name} = .*\n\"\"\"\S", source, re.M), f"{name} has no docstring"


VARIANT_SCHEMA = json.loads(read_spec_text("variant.schema.json"))
SUITE_SCHEMA = json.loads(read_spec_text("conformance.schema.json"))

# Every maximum of the two schemas, by JSON pointer, and the limit it is.
SCHEMA_LIMITS = {
    ("variant", "properties/id/maxLength"): "MAX_ID_LENGTH",
    ("variant", "properties/name/maxLength"): "MAX_NAME_LENGTH",
    ("variant", "properties/description/maxLength"): "MAX_DESCRIPTION_LENGTH",
    ("variant", "properties/players/oneOf/0/maximum"): "MAX_PLAYERS",
    ("variant", "properties/players/oneOf/1/properties/count/maximum"): "MAX_PLAYERS",
    ("variant", "properties/players/oneOf/1/properties/min/maximum"): "MAX_PLAYERS",
    ("variant", "properties/players/oneOf/1/properties/max/maximum"): "MAX_PLAYERS",
    ("variant", "properties/melds/maxProperties"): "MAX_MELD_KINDS",
    ("variant", "properties/turn/maxItems"): "MAX_TURN_STEPS",
    ("variant", "properties/options/maxProperties"): "MAX_OPTIONS",
    ("variant", "properties/scoring/properties/let/maxProperties"): "MAX_LETS",
    ("variant", "properties/scoring/properties/round/maxItems"): "MAX_SCORE_CASES",
    ("variant", "properties/game/properties/hollywood/oneOf/1/properties/games/maximum"): "MAX_HOLLYWOOD_GAMES",
    ("variant", "properties/game/properties/match/oneOf/1/properties/games_to_win/maximum"): "MAX_MATCH_GAMES",
    ("variant", "$defs/identifier/maxLength"): "MAX_IDENTIFIER_LENGTH",
    ("variant", "$defs/expr/maxLength"): "MAX_EXPR_LENGTH",
    ("variant", "$defs/symbol/maximum"): "MAX_SYMBOL_NUMBER",
    ("variant", "$defs/deck/properties/suits/maxItems"): "MAX_SUITS",
    ("variant", "$defs/deck/properties/ranks/maxItems"): "MAX_RANKS",
    ("variant", "$defs/deck/properties/packs/maximum"): "MAX_PACKS",
    ("variant", "$defs/deck/properties/wilds/maximum"): "MAX_WILDS",
    ("variant", "$defs/deal/properties/hand_size/oneOf/0/maximum"): "MAX_HAND_SIZE",
    ("variant", "properties/game/properties/deals/maximum"): "MAX_ROUNDS",
    ("conformance", "properties/description/maxLength"): "MAX_DESCRIPTION_LENGTH",
    ("conformance", "properties/cases/maxItems"): "MAX_SUITE_CASES",
    ("conformance", "$defs/variant/maxLength"): "MAX_VARIANT_REF_LENGTH",
    ("conformance", "$defs/id/maxLength"): "MAX_CASE_ID_LENGTH",
    ("conformance", "$defs/cards/oneOf/0/maxItems"): "MAX_CASE_CARDS",
    ("conformance", "$defs/cards/oneOf/1/maxLength"): "MAX_CARDS_TEXT",
    ("conformance", "$defs/action/maxLength"): "MAX_ACTION_LENGTH",
    ("conformance", "$defs/actions/oneOf/1/maxItems"): "MAX_CASE_ACTIONS",
    ("conformance", "$defs/meta/properties/description/maxLength"): "MAX_DESCRIPTION_LENGTH",
    ("conformance", "$defs/meta/properties/tags/items/maxLength"): "MAX_TAG_LENGTH",
}
# Not limits: the shape of a step ({name: settings} has one key).
SCHEMA_SHAPES = {("variant", "$defs/step/oneOf/1/maxProperties")}


def schema_maxima(name: str, node: Any, path: str = "") -> dict[tuple[str, str], int]:
    """Every ``maximum``, ``maxItems``, ``maxLength`` and ``maxProperties`` in a schema."""
    found: dict[tuple[str, str], int] = {}
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{path}/{key}" if path else key
            if key in ("maximum", "maxItems", "maxLength", "maxProperties") and isinstance(value, int):
                found[(name, where)] = value
            found.update(schema_maxima(name, value, where))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.update(schema_maxima(name, value, f"{path}/{index}"))
    return found


def test_every_schema_maximum_is_a_limit() -> None:
    maxima = schema_maxima("variant", VARIANT_SCHEMA) | schema_maxima("conformance", SUITE_SCHEMA)
    assert set(maxima) - SCHEMA_SHAPES == set(SCHEMA_LIMITS), "a schema maximum without a limit (or gone)"
    for where, name in SCHEMA_LIMITS.items():
        assert maxima[where] == getattr(limits, name), f"{where} says {maxima[where]}, {name} is {getattr(limits, name)}"


def test_the_symbol_pattern_is_the_symbol_limit() -> None:
    assert "{1,%d}" % limits.MAX_SYMBOL in VARIANT_SCHEMA["$defs"]["symbol"]["pattern"]
    assert limits.MAX_SYMBOL_NUMBER == int("9" * limits.MAX_SYMBOL)


def test_the_limits_are_the_ones_the_code_uses() -> None:
    from rummydsl import cards, melds, protocol, record
    from rummydsl.expr import parser
    from rummydsl.variant import extends, load

    assert (cards.MAX_PACKS, cards.MAX_WILDS, cards.MAX_RANKS, cards.MAX_SYMBOL) == (
        limits.MAX_PACKS, limits.MAX_WILDS, limits.MAX_RANKS, limits.MAX_SYMBOL)
    assert (parser.MAX_LENGTH, parser.MAX_DEPTH, parser.MAX_INT) == (
        limits.MAX_EXPR_LENGTH, limits.MAX_EXPR_DEPTH, limits.MAX_INT_LITERAL)
    assert (load.MAX_FILE_BYTES, load.MAX_DEPTH, load.MAX_ALIASES, load.MAX_NODES) == (
        limits.MAX_FILE_BYTES, limits.MAX_YAML_DEPTH, limits.MAX_YAML_ALIASES, limits.MAX_YAML_NODES)
    assert extends.MAX_EXTENDS_DEPTH == limits.MAX_EXTENDS_DEPTH
    assert melds.MAX_HAND == limits.MAX_HAND
    assert protocol.MAX_LINE == limits.MAX_AGENT_LINE
    assert record.MAX_ACTIONS == limits.MAX_ACTIONS
    for function in (play_round, play_game, run_game, run_hand):
        assert inspect.signature(function).parameters["max_actions"].default == limits.MAX_ACTIONS
    assert Game.__dataclass_fields__["max_rounds"].default == limits.MAX_ROUNDS


# -- files ---------------------------------------------------------------------------


def test_file_size_of_a_variant(tmp_path: Path) -> None:
    text = (variants_dir() / "gin_rummy.yaml").read_text(encoding="utf-8")
    padding = limits.MAX_FILE_BYTES - len(text.encode("utf-8")) - 2
    exact = tmp_path / "exact.yaml"
    exact.write_text(text + "#" + "x" * padding + "\n", encoding="utf-8")
    assert exact.stat().st_size == limits.MAX_FILE_BYTES
    assert errors(check_file(str(exact))) == []
    over = tmp_path / "over.yaml"
    over.write_text(text + "#" + "x" * (padding + 1) + "\n", encoding="utf-8")
    refused_cleanly(*run("check", str(over)), f"{over}: the file is too large: 262,145 bytes")
    huge = tmp_path / "huge.yaml"  # 8 GiB, sparse: read whole it would exhaust memory
    with huge.open("wb") as handle:
        handle.truncate(8 << 30)
    refused_cleanly(*run("check", str(huge)), f"{huge}: the file is too large: 8,589,934,592 bytes")


def test_file_size_of_a_suite(tmp_path: Path) -> None:
    """Issue 17: generated suites are large, so a suite file has its own limit (8 MiB),
    a variant file keeps 256 KiB."""
    body = "variant: gin_rummy\ncases:\n- {id: one, meld: 7H 8H 9H, expect: {valid: true}}\n"
    exact = tmp_path / "exact.suite.yaml"
    exact.write_text(body + "#" * (limits.MAX_SUITE_FILE_BYTES - len(body) - 1) + "\n", encoding="utf-8")
    assert exact.stat().st_size == limits.MAX_SUITE_FILE_BYTES > limits.MAX_FILE_BYTES
    assert len(load_suite(str(exact)).cases) == 1
    one_more = tmp_path / "one_more.suite.yaml"
    one_more.write_text(body + "#" * (limits.MAX_SUITE_FILE_BYTES - len(body)) + "\n", encoding="utf-8")
    with pytest.raises(SuiteError) as error:
        load_suite(str(one_more))
    assert str(error.value) == (f"{one_more}: the file is too large: 8,388,609 bytes, and a suite file "
                                f"may be at most 8,388,608 bytes (8 MiB)")
    over = tmp_path / "over.suite.yaml"
    with over.open("wb") as handle:
        handle.write(body.encode())
        handle.truncate(8 << 30)
    with pytest.raises(SuiteError) as error:
        load_suite(str(over))
    assert str(error.value) == (f"{over}: the file is too large: 8,589,934,592 bytes, and a suite file "
                                f"may be at most 8,388,608 bytes (8 MiB)")
    refused_cleanly(*run("test", str(over)), "a suite file may be at most 8,388,608 bytes")


def _shared_setup_suite(cases: int) -> str:
    """A generated suite's shape: the first case's setup anchored, every other case repeating it."""
    deal = "{dealer: P2, hands: {P1: 2S 3S 4S, P2: 2H 3H 4H}, stock: 5S 6S 7S, upcard: 8S}"
    lines = ["variant: gin_rummy", "cases:", f"  - {{id: c0, setup: &deal {deal}, expect: {{to_move: P1}}}}"]
    lines += [f"  - {{id: c{i}, setup: *deal, expect: {{to_move: P1}}}}" for i in range(1, cases)]
    return "\n".join(lines) + "\n"


def test_suite_yaml_aliases() -> None:
    """A suite may use MAX_SUITE_YAML_ALIASES aliases (an anchor a shared setup); a variant
    file keeps MAX_YAML_ALIASES."""
    from rummydsl.variant.load import SUITE_LIMITS

    at = "a: &a 1\nb: [" + ", ".join(["*a"] * limits.MAX_SUITE_YAML_ALIASES) + "]\n"
    assert len(load_document("s.suite.yaml", at, limits=SUITE_LIMITS).data["b"]) == limits.MAX_SUITE_YAML_ALIASES
    over = "a: &a 1\nb: [" + ", ".join(["*a"] * (limits.MAX_SUITE_YAML_ALIASES + 1)) + "]\n"
    with pytest.raises(VariantError) as error:
        load_document("s.suite.yaml", over, limits=SUITE_LIMITS)
    assert "too many aliases: a variant file may use at most 10,000" in str(error.value)
    with pytest.raises(VariantError) as error:
        load_document("v.yaml", "a: &a 1\nb: [" + ", ".join(["*a"] * (limits.MAX_YAML_ALIASES + 1)) + "]\n")
    assert f"at most {limits.MAX_YAML_ALIASES}" in str(error.value)


def test_a_generated_suite_with_thousands_of_aliases_loads(tmp_path: Path) -> None:
    """Issue 17: 5,000 cases sharing one anchored setup (4,999 aliases, past a variant
    file's 100), as a suite converted from recorded OpenSpiel hands does."""
    path = tmp_path / "big.suite.yaml"
    path.write_text(_shared_setup_suite(limits.MAX_SUITE_CASES), encoding="utf-8")
    suite = load_suite(str(path))
    assert len(suite.cases) == limits.MAX_SUITE_CASES
    assert run_case(suite.cases[-1]).passed


def test_suite_yaml_values(tmp_path: Path) -> None:
    """A suite may expand to MAX_SUITE_YAML_NODES values (more than a variant's
    MAX_YAML_NODES); an alias bomb suite is refused at that bound, naming the file."""
    from rummydsl.variant.load import SUITE_LIMITS

    assert limits.MAX_SUITE_YAML_NODES > limits.MAX_YAML_NODES
    count = limits.MAX_YAML_NODES * 2  # past a variant's limit, within a suite's
    text = "a: [" + ",".join(["1"] * count) + "]\n"
    assert len(load_document("s.suite.yaml", text, limits=SUITE_LIMITS).data["a"]) == count
    # ten levels of ten aliases each: 10**10 values if expanded
    lines = ["variant: gin_rummy", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    bomb = tmp_path / "bomb.suite.yaml"
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SuiteError) as error:
        load_suite(str(bomb))
    assert str(error.value).startswith(f"{bomb}:")
    assert "the aliases expand to more than 600,000 values (an alias bomb?); a suite file" in str(error.value)


def test_yaml_values(tmp_path: Path) -> None:
    # counted: the top mapping, its key, the list, then the items
    exact = "a: [" + ",".join(["1"] * (limits.MAX_YAML_NODES - 3)) + "]\n"
    assert len(load_document("v.yaml", exact).data["a"]) == limits.MAX_YAML_NODES - 3
    with pytest.raises(VariantError) as error:
        load_document("v.yaml", "a: [" + ",".join(["1"] * (limits.MAX_YAML_NODES - 2)) + "]\n")
    assert str(error.value).startswith("v.yaml:1:")
    assert "more than 100,000 values" in str(error.value)
    # ten levels of ten aliases each: 10**10 values if expanded
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused_cleanly(*run("check", str(bomb)), f"{bomb}:", "100,000 values (an alias bomb?)")


def test_record_file_size(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))[0] == 0
    size = log.stat().st_size
    limits_now = limits.MAX_RECORD_BYTES
    try:  # the real limit is 1 GiB: the record at it is the small one, with the limit lowered
        limits.MAX_RECORD_BYTES = size
        assert replay_record(str(log)).games == 1
        limits.MAX_RECORD_BYTES = size - 1
        with pytest.raises(RecordError) as error:
            replay_record(str(log))
        assert str(error.value) == (f"{log}: the record is too large: {size:,} bytes, and a record "
                                    f"may be at most {size - 1:,} bytes")
    finally:
        limits.MAX_RECORD_BYTES = limits_now
    huge = tmp_path / "huge.jsonl"  # 8 GiB, sparse
    with huge.open("wb") as handle:
        handle.truncate(8 << 30)
    refused_cleanly(*run("replay", str(huge)), f"{huge}: the record is too large: 8,589,934,592 bytes")


def test_record_line_length(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))[0] == 0
    lines = log.read_bytes().split(b"\n")
    assert lines[0].endswith(b"}")
    header = lines[0][:-1]
    padded = header + b" " * (limits.MAX_RECORD_LINE_BYTES - len(header) - 1) + b"}"
    assert len(padded) == limits.MAX_RECORD_LINE_BYTES
    log.write_bytes(b"\n".join([padded, *lines[1:]]))
    assert replay_record(str(log)).games == 1
    log.write_bytes(b"\n".join([b" " + padded, *lines[1:]]))
    refused_cleanly(*run("replay", str(log)), f"{log}:1: the line is too long: more than 1,048,576 bytes")
    endless = tmp_path / "endless.jsonl"  # one line of 512 MiB of NULs, sparse
    with endless.open("wb") as handle:
        handle.truncate(512 << 20)
    refused_cleanly(*run("replay", str(endless)), f"{endless}:1: the line is too long")


def test_record_bytes_that_are_not_text(tmp_path: Path) -> None:
    """Regression: a record with bytes that are not UTF-8 raised UnicodeDecodeError."""
    log = tmp_path / "games.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))[0] == 0
    lines = log.read_bytes().split(b"\n")
    log.write_bytes(b"\n".join([lines[0], b'{"type": "game", "x": "\xff"}', *lines[2:]]))
    refused_cleanly(*run("replay", str(log)), f"{log}:2:24: not UTF-8 text: byte 0xff at column 24")


def simulated_run(tmp_path: Path) -> tuple[Path, list[bytes]]:
    """A finished run file of 2 games (``simulate --out``) and its lines."""
    out = tmp_path / "run.jsonl"
    assert run("simulate", "gin_rummy", "--games", "2", "--seed", "1", "--out", str(out))[0] == 0
    return out, out.read_bytes().split(b"\n")[:-1]


def resumed(out: Path) -> tuple[int, str, str]:
    return run("simulate", "gin_rummy", "--games", "2", "--seed", "1", "--resume", str(out))


def test_run_file_size(tmp_path: Path) -> None:
    """Regression (issue 17): ``--resume`` read the run file whole, whatever its size
    (``--resume /dev/zero`` grew to 8.8 GB); run files have the record limits."""
    from rummydsl.lab.runfile import read_lab_run
    from rummydsl.runlog import read_run

    out, _ = simulated_run(tmp_path)
    size = out.stat().st_size
    limits_now = limits.MAX_RECORD_BYTES
    try:  # the real limit is 1 GiB: the run at it is the small one, with the limit lowered
        limits.MAX_RECORD_BYTES = size
        assert len(read_run(str(out)).outcomes) == 2
        limits.MAX_RECORD_BYTES = size - 1
        with pytest.raises(RecordError) as error:
            read_run(str(out))
        assert str(error.value) == (f"{out}: the run is too large: {size:,} bytes, and a run file may be "
                                    f"at most {size - 1:,} bytes")
    finally:
        limits.MAX_RECORD_BYTES = limits_now
    huge = tmp_path / "huge.jsonl"  # 8 GiB, sparse: refused before a byte is read
    with huge.open("wb") as handle:
        handle.truncate(8 << 30)
    refused_cleanly(*resumed(huge), f"{huge}: the run is too large: 8,589,934,592 bytes")
    with pytest.raises(RecordError, match="the run is too large: 8,589,934,592 bytes"):
        read_lab_run(str(huge), None)  # type: ignore[arg-type]  # refused before the header is compared
    # a device says size 0 and never ends: it is read no further than one line's limit
    with pytest.raises(RecordError) as error:
        read_run("/dev/zero")
    assert str(error.value).startswith("/dev/zero")


def test_a_file_that_says_no_size_is_read_no_further_than_the_limit(tmp_path: Path, monkeypatch: Any) -> None:
    """A device or a /proc entry says size 0 and may yield without end: records and run
    files count what they read against MAX_RECORD_BYTES too (issue 17)."""
    import os
    import types

    from rummydsl.runlog import read_run

    out, _ = simulated_run(tmp_path)
    log = tmp_path / "games.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))[0] == 0
    real_fstat = os.fstat
    monkeypatch.setattr(os, "fstat", lambda fd: types.SimpleNamespace(st_size=0, st_mode=real_fstat(fd).st_mode,
                                                                       st_dev=real_fstat(fd).st_dev))
    monkeypatch.setattr(limits, "MAX_RECORD_BYTES", out.stat().st_size - 1)
    with pytest.raises(RecordError, match=r"run.jsonl:3: the run is too large: more than [0-9,]+ bytes"):
        read_run(str(out))
    monkeypatch.setattr(limits, "MAX_RECORD_BYTES", log.stat().st_size - 1)
    with pytest.raises(RecordError, match=r"games.jsonl:\d+: the record is too large: more than [0-9,]+ bytes"):
        replay_record(str(log))


def test_run_file_line_length(tmp_path: Path) -> None:
    """Regression (issue 17): a run file's lines are read one at a time, each at most
    MAX_RECORD_LINE_BYTES, as a record's are."""
    from rummydsl.runlog import read_run

    out, lines = simulated_run(tmp_path)
    header = lines[0][:-1]
    padded = header + b" " * (limits.MAX_RECORD_LINE_BYTES - len(header) - 1) + b"}"
    out.write_bytes(b"\n".join([padded, *lines[1:]]) + b"\n")
    assert len(read_run(str(out)).outcomes) == 2
    out.write_bytes(b"\n".join([padded, *lines[1:], b" " + padded]) + b"\n")
    refused_cleanly(*resumed(out), f"{out}:4: the line is too long: more than 1,048,576 bytes, and a line "
                    "of a run file may be at most 1,048,576")
    endless = tmp_path / "endless.jsonl"  # one line of 512 MiB of NULs, sparse
    with endless.open("wb") as handle:
        handle.truncate(512 << 20)
    refused_cleanly(*resumed(endless), f"{endless}:1: the line is too long")


def test_json_depth(tmp_path: Path) -> None:
    """Regression (issue 17): 100,000 nested ``[`` in a run file, a record, a save or an
    agent's answer was a RecursionError; JSON from outside nests at most MAX_JSON_DEPTH."""
    from rummydsl.jsonbound import JSONLimitError, loads

    depth = limits.MAX_JSON_DEPTH
    assert loads("[" * depth + "]" * depth) is not None
    assert loads('["' + "[" * 100_000 + '"]') is not None  # brackets in a string are not nesting
    with pytest.raises(JSONLimitError) as error:
        loads('{"a": ' + "[" * (depth + 1) + "]" * (depth + 1) + "}")
    assert (error.value.colno, error.value.msg) == (6 + depth, "nested too deeply: at most 64 levels of lists "
                                                    "and objects")
    deep = "[" * 100_000 + "]" * 100_000
    out, lines = simulated_run(tmp_path)
    out.write_bytes(lines[0] + b'\n{"type": "outcome", "game": ' + deep.encode() + b"}\n")
    refused_cleanly(*resumed(out), f"{out}:2:92: not a run line: nested too deeply: at most 64 levels")
    log = tmp_path / "games.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))[0] == 0
    first = log.read_bytes().split(b"\n")[0]
    log.write_bytes(first + b'\n{"type": "game", "game": ' + deep.encode() + b"}\n")
    refused_cleanly(*run("replay", str(log)), f"{log}:2:89: not a record line: nested too deeply")
    agents = f"greedy,cmd:{sys.executable} {tmp_path / 'bot.py'}"
    (tmp_path / "bot.py").write_text(ANSWER_BOT.format(answer="'{\"action\": ' + '[' * 30000"), encoding="utf-8")
    stopped_with(tmp_path, agents, "P2: answered '{\"action\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[['..., JSON past a "
                 "limit at column 75: nested too deeply: at most 64 levels of lists and objects")


ANSWER_BOT = """import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "quit":
        break
    if message["type"] == "act":
        sys.stdout.write({answer} + "\\n")
        sys.stdout.flush()
"""


def stopped_with(tmp_path: Path, agents: str, reason: str) -> None:
    """``simulate`` with the agents ``agents`` stops game 1 for ``reason``: printed, exit 0,
    and the game log's last line a ``stopped`` line saying it."""
    log = tmp_path / "agent.jsonl"
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents", agents,
                         "--log", str(log))
    assert "Traceback" not in out + err
    assert f"game 1: {reason}" in err, err
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["type"] == "stopped" and last["seat"] == "P2", last
    assert reason.startswith("P2: ") and last["reason"] == reason[4:]


def test_json_number(tmp_path: Path) -> None:
    """Regression (issue 17): an integer of more than 4,300 digits in a run file, a
    record, a save or an agent's answer was a ValueError traceback (and the agent's game
    log had no ``stopped`` line); a JSON number from outside has at most MAX_JSON_NUMBER
    characters."""
    from rummydsl.jsonbound import JSONLimitError, loads

    longest = "9" * limits.MAX_JSON_NUMBER
    assert loads(f"[{longest}, -{longest[1:]}, 1.{longest[2:]}]")[0] == int(longest)
    assert loads(f'["{longest}9", "\\"{longest}9"]')[0] == longest + "9"  # in a string: not a number
    for text, column in ((f"[{longest}9]", 2), (f'{{"a": "b", "c": -{longest}}}', 17), (f"[1.{longest}]", 2)):
        with pytest.raises(JSONLimitError) as error:
            loads(text)
        assert error.value.colno == column and "at most 100" in error.value.msg, (text[:20], error.value)
    huge = "7" * 5000
    out, lines = simulated_run(tmp_path)
    out.write_bytes(lines[0] + b'\n{"type": "outcome", "game": ' + huge.encode() + b"}\n")
    refused_cleanly(*resumed(out), f"{out}:2:29: not a run line: a number of 5,000 characters: at most 100")
    log = tmp_path / "games.jsonl"
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "3", "--log", str(log))[0] == 0
    first = log.read_bytes().split(b"\n")[0]
    log.write_bytes(first + b'\n{"type": "game", "game": ' + huge.encode() + b"}\n")
    refused_cleanly(*run("replay", str(log)), f"{log}:2:26: not a record line: a number of 5,000 characters")
    agents = f"greedy,cmd:{sys.executable} {tmp_path / 'bot.py'}"
    (tmp_path / "bot.py").write_text(ANSWER_BOT.format(answer="'{\"action\": ' + '9' * 5000 + '}'"),
                                     encoding="utf-8")
    stopped_with(tmp_path, agents, "P2: answered '{\"action\": 99999999999999999999999999999'..., JSON past a "
                 "limit at column 12: a number of 5,000 characters: at most 100")


def test_json_limits_in_a_save(tmp_path: Path) -> None:
    """A save is read within the record size and the JSON limits (issue 17)."""
    from rummydsl.save import read_save

    variant = load_variant("gin_rummy")
    save = tmp_path / "save.json"
    save.write_text('{"save": ' + "7" * 5000 + "}", encoding="utf-8")
    with pytest.raises(RecordError, match=r"save.json:1:10: not a save: a number of 5,000 characters"):
        read_save(variant, str(save))
    save.write_text('{"save":\n ' + "[" * 100_000, encoding="utf-8")
    with pytest.raises(RecordError, match=r"save.json:2:65: not a save: nested too deeply"):
        read_save(variant, str(save))
    limits_now = limits.MAX_RECORD_BYTES
    try:
        limits.MAX_RECORD_BYTES = 10
        with pytest.raises(RecordError, match="the save is too large: more than 10 bytes"):
            read_save(variant, str(save))
    finally:
        limits.MAX_RECORD_BYTES = limits_now


# -- expressions ---------------------------------------------------------------------

SCORE_ENV = Env(Context.SCORE, Deck.preset("standard52"), options={"big": limits.MAX_INT_LITERAL})
VIEW = SimpleRoundView(ender="P1", ending="gin", deadwoods={"P1": 0, "P2": 30})


def test_expression_length(tmp_path: Path) -> None:
    exact = "max(" + ", ".join(str(i) for i in range(400)) + ")"
    exact += " " * (limits.MAX_EXPR_LENGTH - len(exact))
    assert len(exact) == limits.MAX_EXPR_LENGTH
    assert compile_expression(exact, SCORE_ENV, "int")(VIEW) == 399
    with pytest.raises(ExpressionError) as error:
        parse(exact + " ")
    assert (error.value.rule, str(error.value)) == ("expr-limit", "1:1: expression is 2001 characters long; "
                                                                  "the limit is 2000")
    with pytest.raises(ExpressionError):
        parse("(" * 10_000_000)  # ten million characters: refused by its length alone
    path = write_variant(tmp_path / "long.yaml", gin(card_value="1" + " + 0" * 500))
    refused_cleanly(*run("check", str(path)), f"{path}:", "at most 2000 characters")


def nested(depth: int) -> str:
    """An expression ``depth`` levels deep: brackets around a name."""
    return "(" * (depth - 1) + "size" + ")" * (depth - 1)


def test_expression_depth(tmp_path: Path) -> None:
    compile_expression("-" * (limits.MAX_EXPR_DEPTH - 1) + "1", SCORE_ENV, "int")  # each '-' and the 1
    parse(nested(limits.MAX_EXPR_DEPTH))
    with pytest.raises(ExpressionError) as error:
        parse("-" * limits.MAX_EXPR_DEPTH + "1")
    assert (error.value.rule, error.value.message) == ("expr-depth", "expression nests deeper than 32 levels")
    # a thousand levels would exhaust a recursive parser's stack: refused before parsing
    data = gin()
    data["melds"] = {"set": "size >= " + "(" * 900 + "3" + ")" * 900}
    path = write_variant(tmp_path / "deep.yaml", data)
    refused_cleanly(*run("check", str(path)), f"{path}:", "expression nests deeper than 32 levels")


def test_integer_literal(tmp_path: Path) -> None:
    assert compile_expression(str(limits.MAX_INT_LITERAL), SCORE_ENV, "int")(VIEW) == limits.MAX_INT_LITERAL
    with pytest.raises(ExpressionError) as error:
        parse(str(limits.MAX_INT_LITERAL + 1))
    assert (error.value.rule, str(error.value)) == (
        "expr-limit", "1:1: number 1000000001 is too large (the limit is 1000000000)")
    with pytest.raises(ExpressionError):
        parse("9" * 1999)
    data = gin()
    data["options"] = {**data["options"], "huge": 10**40}
    data["scoring"]["let"]["k"] = "deadwood(ender) + huge"
    path = write_variant(tmp_path / "option.yaml", data)
    refused_cleanly(*run("check", str(path)), f"{path}:", "option 'huge' is 10000000000000000000..., larger than "
                    "1,000,000,000 (the largest number an expression may use)")


# 2**63 - 1 = 7**2 * 73 * 127 * 337 * 92737 * 649657, every factor a literal
EXACT_PRODUCT = "7 * 7 * 73 * 127 * 337 * 92737 * 649657"


def test_integer_computed() -> None:
    assert compile_expression(EXACT_PRODUCT, SCORE_ENV, "int")(VIEW) == limits.MAX_EXPR_INT
    assert compile_expression(f"-({EXACT_PRODUCT})", SCORE_ENV, "int")(VIEW) == -limits.MAX_EXPR_INT
    assert compile_expression(f"{EXACT_PRODUCT} - 1 + 1", SCORE_ENV, "int")(VIEW) == limits.MAX_EXPR_INT
    for past in (f"{EXACT_PRODUCT} + 1", f"-({EXACT_PRODUCT}) - 2", f"({EXACT_PRODUCT}) * 2",
                 "big * big * big * big * big * big * big * big * big * big * big * big"):
        with pytest.raises(ExpressionError) as error:
            compile_expression(past, SCORE_ENV, "int")  # constant: refused when compiled
        assert error.value.rule == "expr-limit"
        assert "integer too large" in error.value.message and "9,223,372,036,854,775,807" in error.value.message
    # not constant: refused when evaluated, from the factors' sizes
    product = compile_expression("big * big * deadwood(ender)", SCORE_ENV, "int")
    assert product(SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 9, "P2": 30})) == 9 * 10**18
    with pytest.raises(ExpressionError) as error:
        product(SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 10, "P2": 30}))
    assert str(error.value) == ("1:1: integer too large: the '*' in 'big * big * deadwood(ender)' would give "
                                "a number beyond 9,223,372,036,854,775,807 (the largest an expression may compute)")


def tower(tmp_path: Path, base: str) -> Path:
    """gin_rummy whose lets square ``n0`` 27 times: 2**27 times n0's bits if computed."""
    data = gin()
    lets = {"k": "deadwood(ender)", "low": "min(deadwood(o) for o in opponents)",
            "undercut": "knock and (undercut_on_tie ? low <= k : low < k)", "n0": base}
    lets.update({f"n{i}": f"n{i - 1} * n{i - 1}" for i in range(1, 28)})
    assert len(lets) <= limits.MAX_LETS
    data["scoring"]["let"] = lets
    data["scoring"]["round"][-1]["ender"] = "n27 - n27 + sum(max(deadwood(o) - k, 0) for o in opponents)"
    return write_variant(tmp_path / "tower.yaml", data)


def test_integer_computed_by_lets_when_checked(tmp_path: Path) -> None:
    path = tower(tmp_path, "low + 1000")  # a sample round scored by check overflows at n3
    found = errors(check_file(str(path)))
    assert [(d.rule, d.message) for d in found] == [("expr-limit", (
        "integer too large: the '*' in 'n2 * n2' would give a number beyond 9,223,372,036,854,775,807 "
        "(the largest an expression may compute) (scoring a sample gin round, every deadwood 100)"))]
    assert path.read_text(encoding="utf-8").splitlines()[found[0].location.line - 1].strip() == "n3: n2 * n2"
    refused_cleanly(*run("check", str(path)), f"{path}:{found[0].location.line}:{found[0].location.column}: ")
    # a constant part: refused in place when compiled
    path = tower(tmp_path, "low + 1000000000 * 1000000000 * 10")
    found = errors(check_file(str(path)))
    assert [(d.rule, d.message) for d in found] == [("expr-limit", (
        "integer too large: the '*' in 'low + 1000000000 * 1000000000 * 10' would give a number beyond "
        "9,223,372,036,854,775,807 (the largest an expression may compute)"))]
    line = path.read_text(encoding="utf-8").splitlines()[found[0].location.line - 1]
    assert line[found[0].location.column - 1:].startswith("1000000000 * 1000000000 * 10")


def test_integer_computed_by_lets_in_play(tmp_path: Path) -> None:
    path = tower(tmp_path, "score(ender) + 1")  # 1 in check's sample round (no scores yet): found in play
    assert errors(check_file(str(path))) == []
    for workers in ("1", "2"):  # from a worker process too, the message printed once
        code, out, err = run("simulate", str(path), "--games", "2", "--seed", "1", "--workers", workers)
        refused_cleanly(code, out, err, f"rummydsl simulate: game 1: {path}:", ": scoring.let.n",
                        "integer too large: the '*' in 'n", "9,223,372,036,854,775,807",
                        "(variant 'gin_rummy', round 3)")
        assert "refused" not in err, "the variant's formula, not the agent, is at fault"


# -- the deck, the deal ----------------------------------------------------------------


def test_deck_cards(tmp_path: Path) -> None:
    ranks = [f"R{i}" for i in range(limits.MAX_RANKS)]
    spec = {"suits": ["S", "H", "D", "C"], "ranks": ranks, "packs": limits.MAX_PACKS, "wilds": 0}
    assert Deck.from_spec(spec).size == limits.MAX_DECK_CARDS == 4 * 64 * 8
    with pytest.raises(DeckError) as error:
        Deck.from_spec({**spec, "wilds": 1})
    assert str(error.value) == ("the deck has 2,049 cards (4 suits x 64 ranks x 8 packs + 1 wilds); "
                                "a deck may have at most 2,048")
    data = gin(deck={"suits": list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "ranks": ranks, "packs": 8, "wilds": 64},
               card_value=1)
    path = write_variant(tmp_path / "big.yaml", data)
    refused_cleanly(*run("check", str(path)), f"{path}:", "the deck has 13,376 cards")


@pytest.mark.parametrize("key,exact,past,fragment", [
    ("packs", limits.MAX_PACKS, limits.MAX_PACKS + 1, "packs must be an integer from 1 to 8, not 9"),
    ("wilds", limits.MAX_WILDS, limits.MAX_WILDS + 1, "wilds must be an integer from 0 to 64, not 65"),
])
def test_deck_parts(key: str, exact: int, past: int, fragment: str) -> None:
    assert Deck.from_spec({"preset": "standard52", key: exact})
    with pytest.raises(DeckError) as error:
        Deck.from_spec({"preset": "standard52", key: past})
    assert fragment in str(error.value)


def test_deck_ranks_and_symbols() -> None:
    Deck.from_spec({"suits": ["S"], "ranks": [f"R{i}" for i in range(limits.MAX_RANKS)]})
    with pytest.raises(DeckError, match="at most 64 ranks, not 65"):
        Deck.from_spec({"suits": ["S"], "ranks": [f"R{i}" for i in range(limits.MAX_RANKS + 1)]})
    Deck.from_spec({"suits": ["S"], "ranks": ["A" * limits.MAX_SYMBOL]})
    with pytest.raises(DeckError, match="1 to 8 ASCII letters"):
        Deck.from_spec({"suits": ["S"], "ranks": ["A" * (limits.MAX_SYMBOL + 1)]})


def test_hand_size(tmp_path: Path) -> None:
    data = gin()
    data["deal"] = {**data["deal"], "hand_size": limits.MAX_HAND_SIZE}
    path = write_variant(tmp_path / "big_hands.yaml", data)
    assert errors(check_file(str(path))) == []
    variant = load_variant(str(path))
    rnd = Round.deal(variant, random.Random(5), dealer=0)
    from rummydsl.agents import make_agents

    play_round(rnd, make_agents("greedy", 2, random.Random(6)))  # the hand and the draw fit the solver
    data["deal"]["hand_size"] = limits.MAX_HAND_SIZE + 1
    path = write_variant(tmp_path / "bigger_hands.yaml", data)
    refused_cleanly(*run("check", str(path)), f"{path}:", "'deal.hand_size' must be at most 19, got 20")


def test_solver_hand() -> None:
    """MAX_HAND: any hand a shipped deck holds (a whole Skarney deck, SK-10.3) is solved;
    a hand of more cards than MAX_HAND (a house deck of three packs) is refused."""
    skarney = MeldRules.from_variant(load_variant("skarney_gin"))
    assert skarney.min_deadwood(list(skarney.deck.cards)) == 0  # every card melds
    deck = Deck.from_spec({"preset": "standard52", "packs": 3})
    rules = MeldRules(deck, {"set": compile_expression("size == 3 and same(rank)", Env(Context.MELD, deck), BOOL)},
                      [1] * len(deck.cards))
    cards = list(deck.cards)
    assert rules.min_deadwood(cards[: limits.MAX_HAND]) >= 0
    with pytest.raises(Exception) as error:
        rules.min_deadwood(cards[: limits.MAX_HAND + 1])
    assert str(error.value) == "too many cards: at most 128, got 129"


def test_meld_work_bound(tmp_path: Path) -> None:
    """MAX_MELD_WORK: issue 17's exploding kind ends, counted in work, with an error at
    the kind's pattern (line and column); `check` warns there first (meld-explodes)."""
    data = gin()
    data["deal"] = {**data["deal"], "hand_size": 19}
    data["melds"] = {**data["melds"], "odd": "size in 3..19 and size % 2 == 1 and not same(rank)"}
    path = write_variant(tmp_path / "odd.yaml", data)
    found = check_file(str(path))
    assert errors(found) == []
    warned = [d for d in found if d.rule == "meld-explodes"]
    assert len(warned) == 1 and "'odd'" in warned[0].message
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "size % 2" in text)
    assert warned[0].location.line == line
    rules = MeldRules.from_variant(load_variant(str(path)))
    hand = list(rules.deck.cards[:10]) + list(rules.deck.cards[13:23])
    with pytest.raises(MeldError) as error:
        rules.min_deadwood(hand)
    message = str(error.value)
    assert message.startswith(f"{path}:{line}:") and "meld kind 'odd'" in message
    assert f"work bound ({limits.MAX_MELD_WORK:,}" in message


def test_players(tmp_path: Path) -> None:
    data = gin(players=limits.MAX_PLAYERS)
    data["deal"] = {**data["deal"], "hand_size": 5}
    path = write_variant(tmp_path / "eight.yaml", data)
    assert errors(check_file(str(path))) == []
    path = write_variant(tmp_path / "nine.yaml", {**data, "players": limits.MAX_PLAYERS + 1})
    refused_cleanly(*run("check", str(path)), f"{path}:", "'players' must be at most 8, got 9")


# -- the variant schema's maxima -------------------------------------------------------


def _kinds(n: int) -> dict[str, str]:
    return {"set": "size in 3..4 and same(rank)", **{f"run{i}": f"size >= {3 + i} and same(suit) and "
                                                     "consecutive(rank)" for i in range(n - 1)}}


def _options(n: int) -> dict[str, Any]:
    return {**GIN["options"], **{f"extra{i}": i for i in range(n - len(GIN["options"]))}}


def _lets(n: int) -> dict[str, str]:
    return {**GIN["scoring"]["let"], **{f"extra{i}": "k + 1" for i in range(n - len(GIN["scoring"]["let"]))}}


def _cases(n: int) -> list[dict[str, str]]:
    return [*GIN["scoring"]["round"], *[{"when": "void", "points": "0"}] * (n - len(GIN["scoring"]["round"]))]


# (limit, where, a value of size n for that place); the place is set in gin_rummy's data
SCHEMA_CASES: list[tuple[str, tuple[str, ...], Callable[[int], Any]]] = [
    ("MAX_ID_LENGTH", ("id",), lambda n: "g" * n),
    ("MAX_NAME_LENGTH", ("name",), lambda n: "G" * n),
    ("MAX_DESCRIPTION_LENGTH", ("description",), lambda n: "d" * n),
    ("MAX_IDENTIFIER_LENGTH", ("options",), lambda n: {**GIN["options"], "o" * n: 1}),
    ("MAX_MELD_KINDS", ("melds",), _kinds),
    ("MAX_TURN_STEPS", ("turn",), lambda n: [*GIN["turn"], *["meld"] * (n - 2)]),
    ("MAX_OPTIONS", ("options",), _options),
    ("MAX_LETS", ("scoring", "let"), _lets),
    ("MAX_SCORE_CASES", ("scoring", "round"), _cases),
    ("MAX_HOLLYWOOD_GAMES", ("game", "hollywood"), lambda n: {"games": n}),
    ("MAX_MATCH_GAMES", ("game", "match"), lambda n: {"games_to_win": n}),
    ("MAX_SYMBOL_NUMBER", ("deck",), lambda n: {"suits": ["S"], "ranks": [n]}),
    ("MAX_SUITS", ("deck",), lambda n: {"suits": [chr(65 + i) if i < 26 else chr(71 + i) for i in range(n)],
                                        "ranks": ["A", "2", "3"]}),
]


@pytest.mark.parametrize("name,where,make", SCHEMA_CASES, ids=[case[0] for case in SCHEMA_CASES])
def test_variant_schema_maximum(tmp_path: Path, name: str, where: tuple[str, ...],
                                make: Callable[[int], Any]) -> None:
    limit = getattr(limits, name)
    for size, refused in ((limit, False), (limit + 1, True)):
        data = gin()
        node = data
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = make(size)
        path = write_variant(tmp_path / f"v{size}.yaml", data)
        found = [d for d in errors(check_file(str(path))) if d.rule.startswith("schema")]
        if not refused:
            assert found == [], found
            continue
        assert found, f"{name}: {size} accepted"
        assert any(str(limit) in d.message for d in found), found
        code, out, err = run("check", str(path))
        refused_cleanly(code, out, err, f"{path}:{found[0].location.line}:{found[0].location.column}: ")


# -- play ------------------------------------------------------------------------------


def never_ending(tmp_path: Path) -> Path:
    """A variant nobody scores in: every round is played and no total ever moves. (Its
    points are 0 by a formula that reads the round: ``check`` refuses the constant 0 as a
    game that cannot end, ``game-end``, so it is the rounds limit that stops this one.)
    Its stock's floor is 29 of the 31 cards left after the deal (GR-8), so a round is
    void after two draws unless someone knocks first: the same thousand rounds to the
    same limit, at a sixth of the CPU of full-length rounds (about 117,000 actions)."""
    data = gin(id="never_ends")
    data["scoring"] = {"round": [{"when": "true", "points": "deadwood(p) * 0"}]}
    data["stock"] = {**data["stock"], "floor": 29}
    return write_variant(tmp_path / "never_ends.yaml", data)


def test_actions_in_a_round() -> None:
    from rummydsl.agents import make_agents

    variant = load_variant("gin_rummy")
    rnd = Round.deal(variant, random.Random(1), dealer=0)
    play_round(rnd, make_agents("greedy", 2, random.Random(2)))
    needed = len(rnd.actions)
    again = Round.deal(variant, random.Random(1), dealer=0)
    play_round(again, make_agents("greedy", 2, random.Random(2)), max_actions=needed)
    short = Round.deal(variant, random.Random(1), dealer=0)
    with pytest.raises(StalledRoundError) as error:
        play_round(short, make_agents("greedy", 2, random.Random(2)), max_actions=needed - 1)
    assert re.fullmatch(rf"gin_rummy: round 1 ran past {needed - 1:,} actions without ending "
                        r"\(P[12] to move, in the \w+ phase\)", str(error.value))


def test_rounds_in_a_game(tmp_path: Path) -> None:
    from rummydsl.agents import make_agents

    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(3))
    play_game(game, make_agents("greedy", 2, random.Random(4)))
    needed = len(game.results)
    exact = Game(variant, random.Random(3), max_rounds=needed)
    assert play_game(exact, make_agents("greedy", 2, random.Random(4))).rounds == needed
    short = Game(variant, random.Random(3), max_rounds=needed - 1)
    with pytest.raises(StalledGameError) as error:
        play_game(short, make_agents("greedy", 2, random.Random(4)))
    assert f"gin_rummy: the game ran past {needed - 1:,} rounds without ending" in str(error.value)
    with pytest.raises(StalledGameError):  # the game stays stopped
        short.next_round()
    assert len(short.results) == needed - 1
    # a target nobody reaches: the real limit, through the command line (random agents: a
    # thousand rounds of greedy play only cost more, the limit is the same)
    path = never_ending(tmp_path)
    refused_cleanly(*run("simulate", str(path), "--games", "1", "--seed", "1", "--agents", "random"),
                    "never_ends: the game ran past 1,000 rounds without ending: no total reached the target 100")


PADDED_BOT = '''import json, sys
size = int(sys.argv[1])
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "quit":
        break
    if message["type"] == "act":
        action = message["legal"][0]
        sys.stdout.write(action + " " * (size - len(action)) + "\\n")
        sys.stdout.flush()
'''


def test_agent_answer_line(tmp_path: Path) -> None:
    script = tmp_path / "padded_bot.py"
    script.write_text(PADDED_BOT, encoding="utf-8")
    agents = f"greedy,cmd:{sys.executable} {script} {limits.MAX_AGENT_LINE}"
    code, out, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents", agents)
    assert (code, err) == (0, "")
    agents = f"greedy,cmd:{sys.executable} {script} {limits.MAX_AGENT_LINE + 1}"
    refused_cleanly(*run("simulate", "gin_rummy", "--games", "1", "--seed", "1", "--agents", agents),
                    "rummydsl simulate: game 1: P2: ", "answered more than 65536 bytes on one line")


# -- suites ------------------------------------------------------------------------------


def meld_suite(cases: int) -> str:
    return "variant: gin_rummy\ncases:\n" + "".join(
        f"- {{id: c{i}, meld: 7H, expect: {{valid: false}}}}\n" for i in range(cases))


def test_suite_cases(tmp_path: Path) -> None:
    exact = tmp_path / "exact.suite.yaml"
    exact.write_text(meld_suite(limits.MAX_SUITE_CASES), encoding="utf-8")
    assert len(load_suite(str(exact)).cases) == limits.MAX_SUITE_CASES
    over = tmp_path / "over.suite.yaml"
    over.write_text(meld_suite(limits.MAX_SUITE_CASES + 1), encoding="utf-8")
    refused_cleanly(*run("test", str(over)), f"{over}:3:", "'cases' must have at most 5000 items")


SCRIPT = {"id": "long", "setup": {"dealer": "P2", "hands": {"P1": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
                                                            "P2": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"},
                                  "stock": "JS QS KS", "upcard": "JH"},
          "expect": {"round_over": False}}

# (limit, the case's key path, a value of size n)
SUITE_CASES: list[tuple[str, tuple[str, ...], Callable[[int], Any]]] = [
    ("MAX_CASE_ID_LENGTH", ("id",), lambda n: "c" * n),
    ("MAX_CASE_ACTIONS", ("actions",), lambda n: ["P1 pass"] * n),
    ("MAX_ACTION_LENGTH", ("actions",), lambda n: "P1 pass" + " " * (n - 7)),
    ("MAX_CASE_CARDS", ("setup", "stock"), lambda n: ["JS"] * n),
    ("MAX_CARDS_TEXT", ("setup", "stock"), lambda n: "JS" + " " * (n - 2)),
    ("MAX_TAG_LENGTH", ("tags",), lambda n: ["t" * n]),
    # a variant file's name ends in .yaml (docs/security.md): ././xgins.yaml, n characters
    ("MAX_VARIANT_REF_LENGTH", ("variant",), lambda n: "./" * ((n - 9) // 2) + "x" * ((n - 9) % 2) + "gins.yaml"),
    ("MAX_DESCRIPTION_LENGTH", ("description",), lambda n: "d" * n),
]


@pytest.mark.parametrize("name,where,make", SUITE_CASES, ids=[case[0] for case in SUITE_CASES])
def test_suite_schema_maximum(tmp_path: Path, name: str, where: tuple[str, ...],
                              make: Callable[[int], Any]) -> None:
    limit = getattr(limits, name)
    for size, refused in ((limit, False), (limit + 1, True)):
        case = copy.deepcopy(SCRIPT)
        node = case
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = make(size)
        path = tmp_path / f"s{size}.suite.yaml"
        path.write_text(yaml.dump({"variant": "gin_rummy", "cases": [case]}, Dumper=DUMPER, width=100_000), encoding="utf-8")
        if not refused:
            load_suite(str(path))
            continue
        with pytest.raises(SuiteError) as error:
            load_suite(str(path))
        messages = [d.message for d in error.value.diagnostics]
        assert any(str(limit) in m for m in messages), messages
        case_id = case["id"]
        assert all(m.startswith(f"case {case_id!r}: ") for m in messages), messages
        refused_cleanly(*run("test", str(path)), f"{path}:", f"case {case_id!r}: ")
