"""Reading variant files: data, positions, limits and every kind of bad input."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import assume, HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.errors import Location, VariantError
from rummydsl.variant import load
from rummydsl.variant.load import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    Document,
    load_document,
    source_line,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "load"


def fixture(name: str) -> str:
    return str(FIXTURES / name)


def only_error(error: pytest.ExceptionInfo[VariantError]):
    diagnostics = error.value.diagnostics
    assert len(diagnostics) == 1, diagnostics
    return diagnostics[0]


def expect_error(source, rule: str, line: int, column: int, fragment: str, *,
                 path: str = "v.yaml") -> None:
    if isinstance(source, Path):
        with pytest.raises(VariantError) as error:
            load_document(source)
        path = str(source)
    else:
        with pytest.raises(VariantError) as error:
            load_document(path, source)
    diagnostic = only_error(error)
    assert (diagnostic.rule, diagnostic.location.line, diagnostic.location.column) == (
        rule, line, column), str(diagnostic)
    assert diagnostic.location.path == path
    assert fragment in diagnostic.message, diagnostic.message


# ----------------------------------------------------------------------------- positions

POSITIONS = load_document(fixture("positions.yaml"))


def test_positions_data() -> None:
    assert POSITIONS.data == {
        "rummydsl": 1,
        "id": "positions",
        "name": "Positions test",
        "deck": {"preset": "standard52", "ace": "both", "wrap": False},
        "melds": {"run": "size >= 3 and same(suit)", "set": "size in 3..4 and same(rank)"},
        "turn": [{"draw": {"from": ["stock", "discard"]}}, {"discard": {"any": True}}],
        "knock": {"limit": 10},
    }
    assert POSITIONS.path == fixture("positions.yaml")


@pytest.mark.parametrize(
    ("path", "key", "value"),
    [
        ((), (2, 1), (2, 1)),  # the root has no key: key() is its value
        (("rummydsl",), (2, 1), (2, 11)),
        (("name",), (4, 1), (4, 7)),  # the opening quote
        (("deck",), (5, 1), (5, 7)),  # a flow mapping: its '{'
        (("deck", "preset"), (5, 8), (5, 16)),
        (("deck", "wrap"), (5, 39), (5, 45)),
        (("melds",), (6, 1), (7, 3)),  # a block mapping starts at its first key
        (("melds", "run"), (7, 3), (7, 8)),
        (("melds", "set"), (8, 3), (8, 10)),  # a quoted key
        (("turn",), (9, 1), (10, 3)),
        (("turn", 0), (10, 5), (10, 5)),  # a sequence item: key() is its value
        (("turn", 0, "draw"), (10, 5), (10, 11)),
        (("turn", 0, "draw", "from"), (10, 12), (10, 18)),
        (("turn", 0, "draw", "from", 1), (10, 26), (10, 26)),
        (("turn", 1, "discard", "any"), (12, 7), (12, 12)),
        (("knock", "limit"), (14, 3), (14, 10)),
    ],
)
def test_positions_of_keys_and_values(path, key, value) -> None:
    positions = POSITIONS.positions
    assert positions.key(path) == Location(fixture("positions.yaml"), *key)
    assert positions.value(path) == Location(fixture("positions.yaml"), *value)
    assert path in positions


@pytest.mark.parametrize(
    ("path", "nearest"),
    [
        (("melds", "poker"), ("melds",)),
        (("melds", "run", "deeper", 3), ("melds", "run")),
        (("turn", 7, "draw"), ("turn",)),
        (("turn", "0"), ("turn",)),  # a string is not an index
        (("nowhere",), ()),
    ],
)
def test_missing_paths_fall_back_to_nearest_ancestor(path, nearest) -> None:
    positions = POSITIONS.positions
    assert path not in positions
    assert positions.value(path) == positions.value(nearest)
    assert positions.key(path) == positions.key(nearest)
    assert positions.inside_scalar(path, 5, 5) is not None


def test_every_path_of_the_data_has_a_position() -> None:
    def paths(node, prefix=()):
        yield prefix
        if isinstance(node, dict):
            for k, v in node.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from paths(v, prefix + (i,))

    assert set(paths(POSITIONS.data)) == set(POSITIONS.positions)


def test_document_lines_and_source_line() -> None:
    assert POSITIONS.line(7) == "  run: size >= 3 and same(suit)"
    assert POSITIONS.line(0) is None
    assert POSITIONS.line(999) is None
    assert source_line(fixture("positions.yaml"), 4) == 'name: "Positions test"'
    assert source_line(fixture("positions.yaml"), 99) is None
    assert source_line(fixture("no_such_file.yaml"), 1) is None


def test_crlf_line_breaks_count_like_lf() -> None:
    doc = load_document("v.yaml", "a: 1\r\nb:\r\n  c: 'x y'\r\n")
    assert doc.data == {"a": 1, "b": {"c": "x y"}}
    assert doc.positions.value(("b", "c")) == Location("v.yaml", 3, 6)
    assert doc.positions.inside_scalar(("b", "c"), 1, 3) == Location("v.yaml", 3, 9)
    assert doc.line(3) == "  c: 'x y'"


def test_byte_order_mark_is_skipped() -> None:
    doc = load_document("v.yaml", "\ufeffa: 1\n".encode("utf-8"))
    assert doc.data == {"a": 1}
    assert doc.positions.key(("a",)) == Location("v.yaml", 1, 1)


# ------------------------------------------------------------------------------ scalars

SCALARS = load_document(fixture("scalars.yaml"))


@pytest.mark.parametrize(
    ("path", "style", "start"),
    [
        (("plain",), "", (4, 8)),
        (("single",), "'", (5, 9)),
        (("double",), '"', (6, 9)),
        (("literal",), "|", (7, 10)),
        (("folded",), ">", (11, 9)),
        (("flow", 1), '"', (25, 11)),
        (("nested", "list", 0), "|", (28, 7)),
    ],
)
def test_scalar_style_and_start(path, style, start) -> None:
    assert SCALARS.positions.scalar_style(path) == style
    assert SCALARS.positions.scalar_start(path) == (
        Location(fixture("scalars.yaml"), *start), style)


def test_collections_have_no_scalar_style() -> None:
    assert SCALARS.positions.scalar_style(("flow",)) is None
    location, style = SCALARS.positions.scalar_start(("flow",))
    assert style is None and location == SCALARS.positions.value(("flow",))


@pytest.mark.parametrize(
    ("path", "line", "column", "expected"),
    [
        # plain: the value starts at the scalar's first character
        (("plain",), 1, 1, (4, 8)),
        (("plain",), 1, 13, (4, 20)),
        (("plain",), 1, 22, (4, 29)),  # one past the end
        # single-quoted: after the quote; '' is one character
        (("single",), 1, 1, (5, 10)),
        (("single",), 1, 3, (5, 12)),  # the first quote of ''
        (("single",), 1, 4, (5, 14)),
        (("single",), 1, 6, (5, 16)),  # '(' after the ''
        # double-quoted: escapes map to their backslash
        (("double",), 1, 1, (6, 10)),
        (("double",), 1, 2, (6, 11)),  # \t
        (("double",), 1, 3, (6, 13)),
        (("double",), 1, 9, (6, 21)),  # \u00e9
        (("double",), 1, 11, (6, 28)),  # 'e' of end
        # literal block: value line N is file line start+N, at the block's indent
        (("literal",), 1, 1, (8, 3)),
        (("literal",), 2, 1, (9, 3)),
        (("literal",), 2, 3, (9, 5)),  # more-indented text keeps its spaces
        (("literal",), 3, 5, (10, 7)),
        # folded block: lines join with a space that stands for the line break
        (("folded",), 1, 1, (12, 3)),
        (("folded",), 1, 10, (12, 12)),  # the folded space: end of line 12
        (("folded",), 1, 11, (13, 3)),
        (("folded",), 2, 1, (15, 3)),  # after a blank line: a real line break
        # multi-line flow scalars
        (("multi_plain",), 1, 12, (17, 3)),
        (("multi_double",), 1, 7, (19, 3)),
        # inside flow collections
        (("flow", 1), 1, 3, (25, 14)),
        (("flow", 2), 1, 2, (25, 20)),  # '' maps to its first quote
        # nested blocks: indentation indicators count from the parent's indent
        (("indent_indicator",), 1, 3, (24, 5)),
        (("nested", "list", 0), 1, 1, (29, 7)),
        (("nested", "list", 1, "key"), 1, 11, (32, 9)),
        (("nested", "list", 2, "k2"), 1, 3, (34, 12)),
        # out of range: clamped into the scalar
        (("plain",), 5, 1, (4, 8)),
        (("plain",), 1, 500, (4, 29)),
        (("single",), 0, 0, (5, 10)),
    ],
)
def test_inside_scalar(path, line, column, expected) -> None:
    location = SCALARS.positions.inside_scalar(path, line, column)
    assert location == Location(fixture("scalars.yaml"), *expected)


def _string_paths(document: Document):
    for path in document.positions:
        node = document.data
        for step in path:
            node = node[step]
        if isinstance(node, str):
            yield path, node


@pytest.mark.parametrize("name", ["scalars.yaml", "positions.yaml"])
def test_inside_scalar_finds_each_written_character(name) -> None:
    """Every character of every string value that is written as itself in the file
    (not an escape, not a folded line break) maps to that same character."""
    document = load_document(fixture(name))
    checked = 0
    for path, value in _string_paths(document):
        style = document.positions.scalar_style(path)
        for number, text in enumerate(value.split("\n"), 1):
            for column, char in enumerate(text, 1):
                location = document.positions.inside_scalar(path, number, column)
                found = document.line(location.line)[location.column - 1:location.column]
                if style == '"' and found == "\\":
                    continue
                if char == " " and found != " ":
                    assert document.line(location.line)[location.column - 1:] == ""
                    continue
                assert found == char, (path, number, column)
                checked += 1
    assert checked > 90


def test_inside_scalar_of_an_alias_maps_into_the_anchor() -> None:
    doc = load_document("v.yaml", "a: &x 'hello'\nb: *x\n")
    assert doc.data == {"a": "hello", "b": "hello"}
    assert doc.positions.value(("b",)) == Location("v.yaml", 2, 4)
    assert doc.positions.inside_scalar(("b",), 1, 2) == Location("v.yaml", 1, 9)


def test_tag_before_a_scalar_does_not_shift_inside_scalar() -> None:
    doc = load_document("v.yaml", "a: !!str &y 'abc'\n")
    assert doc.positions.value(("a",)) == Location("v.yaml", 1, 4)
    assert doc.positions.scalar_start(("a",)) == (Location("v.yaml", 1, 13), "'")
    assert doc.positions.inside_scalar(("a",), 1, 1) == Location("v.yaml", 1, 14)


# ------------------------------------------------------------------------- scalar types


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("wrap", "no"),  # YAML 1.2 core: no "Norway problem"
        ("on", "yes"),
        ("n", None),
        ("num", 31),
        ("oct", 15),
        ("lead", 17),
        ("time", "1:30"),  # no sexagesimal numbers
        ("inf", -math.inf),
        ("f", 1000.0),
        ("t", True),
        ("q", "true"),
        ("s", "5"),
        ("i", 7),
        ("date", "2001-12-14"),  # no timestamps
    ],
)
def test_scalar_types_follow_the_yaml_1_2_core_schema(key, expected) -> None:
    data = load_document(fixture("scalar_types.yaml")).data
    assert data[key] == expected
    assert type(data[key]) is type(expected)


def test_nan_and_empty_values() -> None:
    data = load_document("v.yaml", "a: .nan\nb:\nc: ''\n").data
    assert math.isnan(data["a"]) and data["b"] is None and data["c"] == ""


# ---------------------------------------------------------------------------- bad files


@pytest.mark.parametrize(
    ("name", "rule", "line", "column", "fragment"),
    [
        ("malformed.yaml", "yaml", 4, 8, "malformed YAML: expected ',' or ']'"),
        ("bad_indent.yaml", "yaml", 2, 5, "mapping values are not allowed here"),
        ("undefined_alias.yaml", "yaml", 2, 7, "found undefined alias 'nowhere'"),
        ("empty.yaml", "empty", 1, 1,
         "the file is empty: a variant needs at least 'rummydsl', 'id' and 'name'"),
        ("comments_only.yaml", "empty", 1, 1, "the file is empty"),
        ("top_list.yaml", "top-level", 1, 1,
         "the top level must be a mapping of keys, got a list"),
        ("top_scalar.yaml", "top-level", 1, 1,
         "the top level must be a mapping of keys, got a string"),
        ("python_apply.yaml", "yaml-tag", 3, 7,
         "YAML tag '!!python/object/apply:os.system' is not allowed"),
        ("python_object.yaml", "yaml-tag", 3, 7,
         "YAML tag '!!python/object:collections.OrderedDict' is not allowed"),
        ("python_name.yaml", "yaml-tag", 3, 7,
         "YAML tag '!!python/name:os.system' is not allowed"),
        ("custom_tag.yaml", "yaml-tag", 3, 7, "YAML tag '!foo' is not allowed"),
        ("timestamp_tag.yaml", "yaml-tag", 3, 8, "YAML tag '!!timestamp' is not allowed"),
        ("bad_int_tag.yaml", "yaml-tag", 2, 6, "'abc' is not a valid !!int"),
        ("billion_laughs.yaml", "limit-aliases", 7, 8,
         "the aliases expand to more than 100,000 values"),
        ("recursive_alias.yaml", "yaml-alias", 2, 17, "the alias *loop is inside the node"),
        ("duplicate_key.yaml", "yaml-duplicate-key", 6, 3,
         "duplicate key 'run': it is already set on line 4"),
        ("int_key.yaml", "yaml-key", 5, 3, "a mapping key must be a string, got an integer 2"),
        ("list_key.yaml", "yaml-key", 2, 3, "a mapping key must be a string, got a list"),
        ("multi_doc.yaml", "yaml-multi-doc", 3, 1, "a second one starts here"),
        ("merge_key.yaml", "yaml-merge", 3, 3, "merge keys '<<' are not supported"),
    ],
)
def test_bad_fixture_files(name, rule, line, column, fragment) -> None:
    expect_error(FIXTURES / name, rule, line, column, fragment)


def test_python_tags_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    expect_error(text, "yaml-tag", 1, 4, "is not allowed")
    assert not marker.exists()


@pytest.mark.parametrize(
    ("text", "rule", "line", "column", "fragment"),
    [
        ("a: b: c\n", "yaml", 1, 5, "mapping values are not allowed here"),
        ("a: 'unclosed\n", "yaml", 1, 4, "this quote is never closed"),  # at the quote, not the end
        ("a:\n\t- b\n", "yaml", 2, 1, "YAML indents with spaces"),
        ("a: {b: 1\n", "yaml", 2, 1, "malformed YAML"),
        ("a: &x 1\nb: &x 2\n", "yaml", 2, 4, "the anchor &x is defined twice (first on line 1)"),
        ("---\n", "empty", 1, 1, "the file is empty"),
        ("  \n\n", "empty", 1, 1, "the file is empty"),
        ("42\n", "top-level", 1, 1, "got an integer"),
        ("~\n", "top-level", 1, 1, "got null"),
        ("true\n", "top-level", 1, 1, "got a boolean"),
        ("a: !!binary aGVsbG8=\n", "yaml-tag", 1, 4, "YAML tag '!!binary' is not allowed"),
        ("a: !!set {x, y}\n", "yaml-tag", 1, 4, "YAML tag '!!set' is not allowed"),
        ("a: &k !custom [1]\n", "yaml-tag", 1, 7, "YAML tag '!custom' is not allowed"),
        ("a: !<tag:example.com,2000:x> 1\n", "yaml-tag", 1, 4,
         "YAML tag '!<tag:example.com,2000:x>' is not allowed"),
        ("!!python/name:os.system : 1\n", "yaml-tag", 1, 1, "'!!python/name:os.system'"),
        ("a: !!str [1]\n", "yaml-tag", 1, 4, "YAML tag '!!str' does not fit a list"),
        ("a: !!int 12abc\n", "yaml-tag", 1, 4, "'12abc' is not a valid !!int"),
        ("a: 1\nb:\n  c: 1\n  c: 2\n", "yaml-duplicate-key", 4, 3, "duplicate key 'c'"),
        ("{a: 1, a: 2}\n", "yaml-duplicate-key", 1, 8, "duplicate key 'a'"),
        ("a: 1\n'a': 2\n", "yaml-duplicate-key", 2, 1, "duplicate key 'a'"),
        ("null: 1\n", "yaml-key", 1, 1, "got null"),
        ("true: 1\n", "yaml-key", 1, 1, "got a boolean true"),
        ("1.5: 1\n", "yaml-key", 1, 1, "got a number 1.5"),
        ("? {a: 1}\n: 2\n", "yaml-key", 1, 3, "got a mapping"),
        ("a: 1\n...\n---\nb: 2\n", "yaml-multi-doc", 3, 1, "one YAML document"),
        ("a: " + "9" * 5000 + "\n", "yaml", 1, 4, "has too many digits"),
    ],
)
def test_bad_text(text, rule, line, column, fragment) -> None:
    expect_error(text, rule, line, column, fragment)


def test_several_problems_are_reported_together() -> None:
    text = "a: 1\na: 2\nb: !foo x\n3: c\n"
    with pytest.raises(VariantError) as error:
        load_document("v.yaml", text)
    found = [(d.rule, d.location.line) for d in error.value.diagnostics]
    assert found == [("yaml-duplicate-key", 2), ("yaml-tag", 3), ("yaml-key", 4)]


def test_diagnostics_carry_the_source_line() -> None:
    with pytest.raises(VariantError) as error:
        load_document(fixture("duplicate_key.yaml"))
    assert only_error(error).snippet == "  run: c"
    assert str(only_error(error)).startswith(fixture("duplicate_key.yaml") + ":6:3: ")


# ------------------------------------------------------------------------------- limits


def _nested_flow(depth: int) -> str:
    return "a: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"


def _nested_block(depth: int) -> str:
    return "".join(" " * i + f"k{i}:\n" for i in range(depth - 1)) + " " * depth + "x: 1\n"


@pytest.mark.parametrize("make", [_nested_flow, _nested_block], ids=["flow", "block"])
def test_depth_limit_is_exact(make) -> None:
    load_document("v.yaml", make(MAX_DEPTH))  # the top-level mapping is level 1
    with pytest.raises(VariantError) as error:
        load_document("v.yaml", make(MAX_DEPTH + 1))
    assert only_error(error).rule == "limit-depth"


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: " + "[" * 10_000 + "]" * 10_000 + "\n", 1, 35),
        ("a: " + "{b: " * 10_000 + "1" + "}" * 10_000 + "\n", 1, 4 + 4 * 31),
        ("a:\n" + "- " * 10_000 + "x\n", 2, 63),
        ("- " * 10_000 + "x\n", 1, 65),
    ],
    ids=["flow-lists", "flow-maps", "block-lists", "block-lists-top"],
)
def test_ten_thousand_deep_nesting_is_refused(text, line, column) -> None:
    expect_error(text, "limit-depth", line, column, f"at most {MAX_DEPTH} levels")


def test_deep_nesting_through_aliases_is_refused() -> None:
    inner = "[" * 20 + "]" * 20
    text = f"a: &a {inner}\nb: [[[[[[[[[[[[[[[[*a]]]]]]]]]]]]]]]]\n"
    expect_error(text, "limit-depth", 2, 20, "counting what aliases repeat")


def test_alias_count_limit() -> None:
    uses = ", ".join(["*a"] * MAX_ALIASES)
    load_document("v.yaml", f"x: &a 1\ny: [{uses}]\n")
    uses = ", ".join(["*a"] * (MAX_ALIASES + 1))
    expect_error(f"x: &a 1\ny: [{uses}]\n", "limit-aliases", 2,
                 5 + 4 * MAX_ALIASES, f"at most {MAX_ALIASES}")


def test_aliases_under_the_limits_are_copied() -> None:
    doc = load_document("v.yaml", "a: &a {x: [1, 2]}\nb: *a\n")
    assert doc.data == {"a": {"x": [1, 2]}, "b": {"x": [1, 2]}}
    assert doc.data["a"] is not doc.data["b"]
    assert doc.positions.value(("b", "x", 1)) == Location("v.yaml", 1, 15)


def test_too_many_values_without_aliases() -> None:
    text = "a: [" + ",".join(["1"] * (load.MAX_NODES + 5)) + "]\n"
    assert len(text) < MAX_FILE_BYTES
    # counted: the top mapping, its key, the list, then the items
    expect_error(text, "limit-size", 1, 5 + 2 * (load.MAX_NODES - 3), "more than 100,000 values")


@pytest.mark.parametrize("as_bytes", [False, True], ids=["text", "bytes"])
def test_size_limit_is_exact(as_bytes) -> None:
    body = "a: '" + "x" * (MAX_FILE_BYTES - 6) + "'\n"
    assert len(body) == MAX_FILE_BYTES
    load_document("v.yaml", body.encode() if as_bytes else body)
    bigger = body + "#"
    expect_error(bigger.encode() if as_bytes else bigger, "limit-size", 0, 0,
                 f"{MAX_FILE_BYTES + 1:,} bytes, and a variant file may be at most 262,144")


def test_size_counts_utf8_bytes() -> None:
    text = "a: '" + "é" * (MAX_FILE_BYTES // 2) + "'\n"
    expect_error(text, "limit-size", 0, 0, "too large")


def test_size_limit_of_a_file(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"# " + b"x" * (3 * MAX_FILE_BYTES) + b"\n")
    expect_error(big, "limit-size", 0, 0, f"{3 * MAX_FILE_BYTES + 3:,} bytes")


# ------------------------------------------------------------------- encoding and io


@pytest.mark.parametrize(
    ("content", "line", "column", "fragment"),
    [
        (b"a: 1\nb: \x00\x01\x02", 2, 4, "not a text file: a NUL byte at byte offset 8"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", 3, 1, "not a text file: a NUL byte at byte offset 8"),
        (b"a: 1\nb: caf\xe9\n", 2, 7, "not a text file: byte 0xe9 at byte offset 11 is not "
                                      "valid UTF-8"),
        (b"\xff\xfea\x00:\x00", 1, 4, "not a text file: a NUL byte"),  # UTF-16
        (b"a: 1\nb: \x07bell\n", 2, 4, "the control character U+0007 at offset 8"),
        ("a: \ud800\n", 1, 4, "an unpaired surrogate U+D800 at offset 3"),
        ("a: 1\n\x00", 2, 1, "a NUL character at offset 5"),
    ],
)
def test_encoding_problems(content, line, column, fragment) -> None:
    expect_error(content, "encoding", line, column, fragment)


def test_binary_file(tmp_path: Path) -> None:
    binary = tmp_path / "variant.yaml"
    binary.write_bytes(bytes(range(256)))
    expect_error(binary, "encoding", 1, 1, "NUL byte at byte offset 0")


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda tmp: tmp / "missing.yaml", "cannot read the file: it does not exist"),
        (lambda tmp: tmp, "cannot read the file: it is a directory"),
        (lambda tmp: tmp / "missing" / "deeper.yaml", "it does not exist"),
    ],
    ids=["missing", "directory", "missing-folder"],
)
def test_io_problems(tmp_path: Path, make, fragment) -> None:
    expect_error(make(tmp_path), "io", 0, 0, fragment)


def test_path_with_a_nul_is_an_io_problem() -> None:
    expect_error(Path("bad\x00name.yaml"), "io", 0, 0, "cannot read the file")


def test_given_text_is_not_read_from_disk() -> None:
    doc = load_document("/nowhere/at/all.yaml", "a: 1\n")
    assert doc.path == "/nowhere/at/all.yaml"
    assert doc.positions.value(("a",)) == Location("/nowhere/at/all.yaml", 1, 4)


# ---------------------------------------------------------------------------- fuzzing


def _check_any_document(document: Document) -> None:
    """The data is a mapping, every node has a position, and every place inside a
    string value maps to a place at or after the scalar's start, inside the file."""
    assert isinstance(document.data, dict)
    positions = document.positions
    for path, value in _string_paths(document):
        start, _ = positions.scalar_start(path)
        for number, text in enumerate(value.split("\n"), 1):
            for column in range(1, len(text) + 2):
                location = positions.inside_scalar(path, number, column)
                assert (location.line, location.column) >= (start.line, start.column)
                assert document.line(location.line) is not None
                assert 1 <= location.column <= len(document.line(location.line)) + 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_any_text_gives_a_document_or_a_variant_error(text: str) -> None:
    try:
        document = load_document("fuzz.yaml", text)
    except VariantError as error:
        assert error.diagnostics
        assert all(d.location.path == "fuzz.yaml" for d in error.diagnostics)
    else:
        _check_any_document(document)


_YAMLISH = st.lists(
    st.sampled_from(["a", "b", ":", " ", "\n", "- ", "[", "]", "{", "}", ",", "'", '"',
                     "&x ", "*x", "!!str ", "!t ", "|", ">", "#", "\\", "  ", "1", "~",
                     "? ", "---\n", "\t", "é", "\r\n", "<<: "]),
    max_size=60,
).map("".join)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_YAMLISH)
def test_yaml_like_text_gives_a_document_or_a_variant_error(text: str) -> None:
    try:
        document = load_document("fuzz.yaml", text)
    except VariantError as error:
        assert error.diagnostics
    else:
        _check_any_document(document)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_any_bytes_give_a_document_or_a_variant_error(data: bytes) -> None:
    try:
        document = load_document("fuzz.yaml", data)
    except VariantError as error:
        assert error.diagnostics
    else:
        _check_any_document(document)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(alphabet="ab  \n\t'\"\\é#:-", min_size=1, max_size=40),
    st.sampled_from([None, "'", '"', "|", ">"]),
    st.sampled_from([8, 80]),
)
def test_inside_scalar_round_trips_every_style(value: str, style, width: int) -> None:
    """Whatever way PyYAML writes a string (plain, quoted, block; folded at a narrow
    width; nested in lists and maps), each of its characters maps to itself, or to
    the backslash of its escape, or (a folded space) to the end of its line."""
    import yaml

    text = yaml.dump({"k": value, "n": [{"x": value}]}, default_style=style, width=width,
                     allow_unicode=True)
    document = load_document("v.yaml", text)
    # PyYAML sometimes misreads its own folded output (' :::: :' at width 8 comes
    # back with a line break): no position can round-trip then.
    assume(document.data == {"k": value, "n": [{"x": value}]})
    for path in [("k",), ("n", 0, "x")]:
        for number, line_text in enumerate(value.split("\n"), 1):
            for column, char in enumerate(line_text, 1):
                location = document.positions.inside_scalar(path, number, column)
                found = document.line(location.line)[location.column - 1:location.column]
                assert (found == char
                        or found == "\\" and document.positions.scalar_style(path) == '"'
                        or char == " " and found == ""), (text, path, number, column)


@given(st.text(alphabet="ab \r\n\x85\u2028\u2029", max_size=30))
def test_lines_and_line_starts_are_one_rule(text: str) -> None:
    """The loader places nodes by line_starts and the display shows split_lines: each
    line starts where line_starts says, so a location and the line shown agree."""
    from rummydsl.variant.load_read import line_starts, split_lines

    lines, starts = split_lines(text), line_starts(text)
    assert len(lines) == len(starts)
    for line, start in zip(lines, starts):
        assert text[start:start + len(line)] == line
        assert not any(ch in line for ch in "\r\n\x85\u2028\u2029")


@pytest.mark.parametrize("line_break", ["\u2028", "\u2029", "\x85"], ids=["U+2028", "U+2029", "U+0085"])
def test_positions_and_source_lines_count_yaml_line_breaks(tmp_path: Path, line_break: str) -> None:
    """Each of YAML's Unicode line breaks starts a new line for the loader's positions
    and for the source line shown beside a problem (the same line as PyYAML's)."""
    import yaml

    text = f"a: 1{line_break}b: 2\n# note{line_break}c: [x, y]\n"
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    document = load_document(path)
    for key, line in (("a", 1), ("b", 2), ("c", 4)):
        assert document.positions.key((key,)) == Location(str(path), line, 1)
        assert source_line(path, line) == document.line(line)
        assert (source_line(path, line) or "").startswith(f"{key}: ")
    y = document.positions.value(("c", 1))
    assert (y.line, y.column) == (4, 8)
    mark = yaml.compose(text).value[2][0].start_mark  # PyYAML counts the same lines
    assert mark.line + 1 == 4
