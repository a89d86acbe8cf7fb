"""``extends:``: finding parents, merging, and where merged nodes came from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummydsl import resources
from rummydsl.errors import Location, VariantError
from rummydsl.variant import shipped_variant_ids
from rummydsl.variant.extends import MAX_EXTENDS_DEPTH, merge, resolve

BASE = """\
rummydsl: 1
id: base
name: Base game
description: The base game.
players: 2
deck: {preset: standard52, ace: low}
melds:
  run: "size >= 3 and same(suit)"
  set: "size in 3..4 and same(rank)"
turn: [draw, discard]
knock:
  limit: 10
  undercut: 25
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def only_error(error: pytest.ExceptionInfo[VariantError]):
    assert len(error.value.diagnostics) == 1, error.value.diagnostics
    return error.value.diagnostics[0]


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for the folder of shipped variants, holding base.yaml and gin_rummy.yaml."""
    folder = tmp_path / "shipped"
    write(folder, "base.yaml", BASE)
    write(folder, "gin_rummy.yaml", BASE.replace("id: base", "id: gin_rummy"))
    write(folder, "notes.txt", "not a variant")
    monkeypatch.setattr(resources, "variants_dir", lambda: folder)
    return folder


# ------------------------------------------------------------------------ finding parents


def test_no_extends(tmp_path: Path) -> None:
    path = write(tmp_path, "base.yaml", BASE)
    resolved = resolve(path)
    assert resolved.chain == (str(path),)
    assert resolved.parent_data is None
    assert resolved.data["knock"] == {"limit": 10, "undercut": 25}
    assert resolved.positions.value(("knock", "limit")) == Location(str(path), 12, 10)


def test_extends_a_shipped_id(shipped: Path, tmp_path: Path) -> None:
    child = write(tmp_path / "house", "oklahoma.yaml",
                  "extends: gin_rummy\nid: oklahoma\nname: Oklahoma\n")
    resolved = resolve(child)
    assert resolved.chain == (str(child), str(shipped / "gin_rummy.yaml"))
    assert resolved.data["players"] == 2
    assert resolved.data["id"] == "oklahoma"
    assert resolved.data["extends"] == "gin_rummy"
    assert resolved.parent_data["id"] == "gin_rummy"
    assert shipped_variant_ids() == ["base", "gin_rummy"]


@pytest.mark.parametrize(
    ("child_name", "target"),
    [
        ("child.yaml", "base.yaml"),
        ("child.yaml", "./base.yaml"),
        ("child.yaml", "base.yml"),
        ("house/child.yaml", "../base.yaml"),
        ("house/deeper/child.yaml", "../../base.yaml"),
        ("child.yaml", "common/base.yaml"),
    ],
)
def test_extends_a_relative_path(tmp_path: Path, child_name: str, target: str) -> None:
    parent = (tmp_path / Path(child_name).parent / target).resolve()
    write(parent.parent, parent.name, BASE)
    child = write(tmp_path, child_name, f"extends: {target}\nid: child\nname: Child\n")
    resolved = resolve(child)
    assert Path(resolved.chain[1]).resolve() == parent
    assert resolved.data["melds"]["set"] == "size in 3..4 and same(rank)"


def test_an_absolute_path_is_refused_and_its_file_never_read(tmp_path: Path) -> None:
    """docs/security.md "Which files a file may name": a parent is named relative to
    the extending file; an absolute path is refused by name, before it is opened."""
    parent = write(tmp_path / "elsewhere", "base.yaml", BASE)
    child = write(tmp_path, "child.yaml", f"extends: '{parent}'\nid: c\nname: C\n")
    with pytest.raises(VariantError) as error:
        resolve(child)
    diagnostic = only_error(error)
    assert (diagnostic.rule, diagnostic.location) == ("extends-reach", Location(str(child), 1, 10))
    assert "an absolute path" in diagnostic.message


def test_child_given_as_text(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", BASE)
    child = str(tmp_path / "not_on_disk.yaml")
    resolved = resolve(child, text="extends: base.yaml\nid: t\nname: T\nplayers: 3\n")
    assert resolved.data["players"] == 3
    assert resolved.positions.value(("players",)) == Location(child, 4, 10)
    assert resolved.positions.value(("turn",)).path == str(tmp_path / "base.yaml")


def test_chain_of_three(tmp_path: Path) -> None:
    root = write(tmp_path, "root.yaml", BASE)
    middle = write(tmp_path, "middle.yaml", """\
extends: root.yaml
id: middle
name: Middle
knock:
  limit: 5
melds:
  poker: "size >= 3 and consecutive(rank)"
""")
    child = write(tmp_path, "child.yaml", """\
extends: middle.yaml
id: child
name: Child
knock:
  undercut: 20
""")
    resolved = resolve(child)
    assert resolved.chain == (str(child), str(middle), str(root))
    assert resolved.data == {
        "rummydsl": 1,
        "id": "child",
        "name": "Child",
        "extends": "middle.yaml",
        "players": 2,
        "deck": {"preset": "standard52", "ace": "low"},
        "melds": {
            "run": "size >= 3 and same(suit)",
            "set": "size in 3..4 and same(rank)",
            "poker": "size >= 3 and consecutive(rank)",
        },
        "turn": ["draw", "discard"],
        "knock": {"limit": 5, "undercut": 20},
    }
    assert resolved.parent_data["knock"] == {"limit": 5, "undercut": 25}
    assert resolved.parent_data["id"] == "middle"
    assert "description" not in resolved.parent_data
    positions = resolved.positions
    where = {path: positions.value(path) for path in [
        ("knock", "undercut"), ("knock", "limit"), ("melds", "poker"), ("melds", "run"),
        ("players",), ("knock",), ("melds",), ("turn", 1), ("id",),
    ]}
    assert where == {
        ("knock", "undercut"): Location(str(child), 5, 13),
        ("knock", "limit"): Location(str(middle), 5, 10),
        ("melds", "poker"): Location(str(middle), 7, 10),
        ("melds", "run"): Location(str(root), 8, 8),
        ("players",): Location(str(root), 5, 10),
        ("knock",): Location(str(child), 5, 3),  # a map in several files: the child's
        ("melds",): Location(str(middle), 7, 3),
        ("turn", 1): Location(str(root), 10, 14),
        ("id",): Location(str(child), 2, 5),
    }
    assert positions.source(("melds", "run")) == str(root)
    assert positions.key(("melds", "run")) == Location(str(root), 8, 3)
    # a scalar inherited from the root maps inside the root file
    assert positions.inside_scalar(("melds", "run"), 1, 6) == Location(str(root), 8, 14)
    assert positions.scalar_start(("melds", "run")) == (Location(str(root), 8, 8), '"')
    assert positions.scalar_style(("knock",)) is None
    # missing paths fall back to the nearest merged ancestor
    assert positions.value(("knock", "nothing", 3)) == where[("knock",)]
    assert positions.value(("melds", "run", 0)) == where[("melds", "run")]
    assert ("melds", "run") in positions and ("melds", "nope") not in positions
    assert set(positions) >= {("knock", "limit"), ("turn", 0), ()}
    assert resolved.source_line(where[("melds", "run")]) == '  run: "size >= 3 and same(suit)"'
    assert resolved.source_line(Location("other.yaml", 1, 1)) is None


# -------------------------------------------------------------------------------- merging


@pytest.mark.parametrize(
    ("child", "key", "expected"),
    [
        # maps merge key by key
        ("knock: {limit: 0}", "knock", {"limit": 0, "undercut": 25}),
        ("knock: {bonus: 5}", "knock", {"limit": 10, "undercut": 25, "bonus": 5}),
        ("deck: {ace: high}", "deck", {"preset": "standard52", "ace": "high"}),
        # lists replace
        ("turn: [draw]", "turn", ["draw"]),
        ("turn: []", "turn", []),
        ("turn: [draw, null]", "turn", ["draw", None]),  # nulls in lists are kept
        # scalars replace
        ("players: 4", "players", 4),
        # a value of another kind replaces whole
        ("knock: 3", "knock", 3),
        ("knock: [a, b]", "knock", ["a", "b"]),
        ("players: {min: 2, max: 4}", "players", {"min": 2, "max": 4}),
        ("players: {min: 2, max: null}", "players", {"min": 2}),
        # null deletes
        ("knock: {undercut: null}", "knock", {"limit": 10}),
        ("knock: {nothing_here: null}", "knock", {"limit": 10, "undercut": 25}),
        ("knock: {limit: null, undercut: null}", "knock", {}),
    ],
)
def test_merge_rules(tmp_path: Path, child: str, key: str, expected) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml", f"extends: base.yaml\nid: c\nname: C\n{child}\n")
    assert resolve(path).data[key] == expected


@pytest.mark.parametrize("key", ["knock", "nonexistent", "description"])
def test_null_deletes_a_key(tmp_path: Path, key: str) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml", f"extends: base.yaml\nid: c\nname: C\n{key}: null\n")
    assert key not in resolve(path).data


def test_id_name_description_are_not_inherited(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml", "extends: base.yaml\nplayers: 3\n")
    data = resolve(path).data
    assert "id" not in data and "name" not in data and "description" not in data
    assert data["extends"] == "base.yaml" and data["players"] == 3


def test_extends_is_not_inherited(tmp_path: Path) -> None:
    write(tmp_path, "root.yaml", BASE)
    write(tmp_path, "middle.yaml", "extends: root.yaml\nid: m\nname: M\n")
    path = write(tmp_path, "child.yaml", "extends: middle.yaml\nid: c\nname: C\n")
    assert resolve(path).data["extends"] == "middle.yaml"


def test_the_child_keeps_its_own_description(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml",
                 "extends: base.yaml\nid: c\nname: C\ndescription: Mine.\n")
    assert resolve(path).data["description"] == "Mine."


@pytest.mark.parametrize(("line", "expected"), [("", 1), ("rummydsl: 1\n", 1)])
def test_language_version_inherited_or_equal(tmp_path: Path, line: str, expected) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml", f"{line}extends: base.yaml\nid: c\nname: C\n")
    assert resolve(path).data["rummydsl"] == expected


@pytest.mark.parametrize("version", ["2", "'1'", "1.0"])
def test_language_version_must_match(tmp_path: Path, version: str) -> None:
    write(tmp_path, "base.yaml", BASE)
    path = write(tmp_path, "child.yaml", f"extends: base.yaml\nid: c\nrummydsl: {version}\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    diagnostic = only_error(error)
    assert diagnostic.rule == "extends-version"
    assert diagnostic.location == Location(str(path), 3, 11)
    assert "but its parent" in diagnostic.message


@pytest.mark.parametrize(
    ("parent", "child", "expected"),
    [
        ({"a": 1}, {"b": 2}, {"a": 1, "b": 2}),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": 3}}, {"a": {"x": 1, "y": 3}}),
        ({"a": {"x": {"deep": 1}}}, {"a": {"x": {"deeper": 2}}},
         {"a": {"x": {"deep": 1, "deeper": 2}}}),
        ({"a": [1, 2]}, {"a": [3]}, {"a": [3]}),
        ({"a": {"x": 1}}, {"a": None}, {}),
        ({"a": 1}, {"b": None}, {"a": 1}),
        ({"a": {"x": 1}}, {"a": "flat"}, {"a": "flat"}),
        ({"a": "flat"}, {"a": {"x": 1, "y": None}}, {"a": {"x": 1}}),
        ({"a": [{"x": 1}]}, {"a": [{"y": None}]}, {"a": [{"y": None}]}),
    ],
)
def test_merge_function(parent, child, expected) -> None:
    before = repr(parent), repr(child)
    assert merge(parent, child) == expected
    assert (repr(parent), repr(child)) == before  # nothing is changed in place


# ------------------------------------------------------------------------------ problems


@pytest.mark.parametrize(
    ("target", "fragment"),
    [
        ("gin_rumy", "cannot find parent 'gin_rumy': no shipped variant or file of that name; "
                     "did you mean 'gin_rummy'?"),
        ("basse", "did you mean 'base'?"),
        ("zzz", "cannot find parent 'zzz': no shipped variant or file of that name"),
        ("Gin Rummy", "a shipped variant id is written [a-z][a-z0-9_]*, and a file path ends "
                      "in .yaml; did you mean 'gin_rummy'?"),
    ],
)
def test_missing_shipped_parent(shipped: Path, tmp_path: Path, target: str, fragment: str) -> None:
    path = write(tmp_path, "child.yaml", f"id: c\nextends: {target}\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    diagnostic = only_error(error)
    assert (diagnostic.rule, diagnostic.location) == ("extends-missing",
                                                      Location(str(path), 2, 10))
    assert fragment in diagnostic.message
    assert diagnostic.snippet == f"extends: {target}"
    if target == "zzz":
        assert "did you mean" not in diagnostic.message


def test_a_bare_name_with_a_file_beside_gets_a_hint(shipped: Path, tmp_path: Path) -> None:
    write(tmp_path, "house_base.yaml", BASE)
    path = write(tmp_path, "child.yaml", "extends: house_base\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    assert "write 'extends: ./house_base.yaml'" in only_error(error).message


def test_a_missing_parent_is_never_said_to_be_the_file_itself(tmp_path: Path) -> None:
    """A newcomer's bad.yaml naming ./base.yaml was asked "did you mean './bad.yaml'?"."""
    path = write(tmp_path, "bad.yaml", "extends: ./base.yaml\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    assert "did you mean" not in only_error(error).message


@pytest.mark.parametrize(
    ("target", "fragment"),
    [
        ("bsae.yaml", "did you mean 'base.yaml'?"),
        ("../nowhere/base.yaml", "cannot find parent '../nowhere/base.yaml': there is no file"),
    ],
)
def test_missing_parent_file(tmp_path: Path, target: str, fragment: str) -> None:
    write(tmp_path, "base.yaml", BASE)
    (tmp_path / "sub").mkdir()
    path = write(tmp_path, "child.yaml", f"extends: {target}\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    diagnostic = only_error(error)
    assert (diagnostic.rule, diagnostic.location) == ("extends-missing",
                                                      Location(str(path), 1, 10))
    assert fragment in diagnostic.message


@pytest.mark.parametrize(
    ("value", "column", "fragment"),
    [
        ("3", 10, "got 3"),
        ("[base.yaml]", 10, "got ['base.yaml']"),
        ("{a: 1}", 10, "got {'a': 1}"),
        ("true", 10, "got True"),
        ("", 9, "got empty"),
        ("null", 10, "got empty"),
        ("''", 10, "got empty"),
    ],
)
def test_extends_must_be_a_string(tmp_path: Path, value: str, column: int, fragment: str) -> None:
    path = write(tmp_path, "child.yaml", f"id: c\nextends: {value}\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    diagnostic = only_error(error)
    assert (diagnostic.rule, diagnostic.location) == ("extends-type",
                                                      Location(str(path), 2, column))
    assert "'extends' must name a shipped variant id or a file path" in diagnostic.message
    assert fragment in diagnostic.message


def test_two_cycle(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "id: a\nextends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "id: b\nextends: a.yaml\n")
    with pytest.raises(VariantError) as error:
        resolve(a)
    diagnostic = only_error(error)
    assert diagnostic.rule == "extends-cycle"
    assert diagnostic.message == f"extends cycle: {a} -> {b} -> {a}"
    assert diagnostic.location == Location(str(b), 2, 10)  # where the cycle closes


def test_self_cycle(tmp_path: Path) -> None:
    a = write(tmp_path, "a.yaml", "id: a\nextends: ./a.yaml\n")
    with pytest.raises(VariantError) as error:
        resolve(a)
    diagnostic = only_error(error)
    assert diagnostic.rule == "extends-cycle"
    assert diagnostic.message == f"extends cycle: {a} -> {a}"
    assert diagnostic.location == Location(str(a), 2, 10)


def test_cycle_messages_use_the_paths_as_written(tmp_path: Path, monkeypatch) -> None:
    write(tmp_path, "a.yaml", "id: a\nextends: b.yaml\n")
    write(tmp_path, "b.yaml", "id: b\nextends: c.yaml\n")
    write(tmp_path, "c.yaml", "id: c\nextends: b.yaml\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(VariantError) as error:
        resolve("a.yaml")
    assert only_error(error).message == "extends cycle: b.yaml -> c.yaml -> b.yaml"
    assert only_error(error).location == Location("c.yaml", 2, 10)


def test_chain_depth_limit(tmp_path: Path) -> None:
    write(tmp_path, "v0.yaml", BASE)
    for k in range(1, MAX_EXTENDS_DEPTH + 2):
        write(tmp_path, f"v{k}.yaml", f"extends: v{k - 1}.yaml\nid: v{k}\nname: V\n")
    resolved = resolve(tmp_path / f"v{MAX_EXTENDS_DEPTH}.yaml")  # 16 ancestors: fine
    assert len(resolved.chain) == MAX_EXTENDS_DEPTH + 1
    with pytest.raises(VariantError) as error:
        resolve(tmp_path / f"v{MAX_EXTENDS_DEPTH + 1}.yaml")
    diagnostic = only_error(error)
    assert diagnostic.rule == "extends-depth"
    assert diagnostic.location == Location(str(tmp_path / "v1.yaml"), 1, 10)


@pytest.mark.parametrize(
    ("parent_text", "rule", "line", "column"),
    [
        ("id: p\nid: again\n", "yaml-duplicate-key", 2, 1),
        ("id: p\nname: [unclosed\n", "yaml", 3, 1),
        ("id: p\nname: !!python/name:os.system ''\n", "yaml-tag", 2, 7),
        ("- a list\n", "top-level", 1, 1),
        ("", "empty", 1, 1),
        ("id: p\nextends: 7\n", "extends-type", 2, 10),
        ("id: p\nextends: gone.yaml\n", "extends-missing", 2, 10),
    ],
)
def test_errors_in_a_parent_name_the_parent(tmp_path: Path, parent_text: str, rule: str,
                                            line: int, column: int) -> None:
    parent = write(tmp_path / "common", "parent.yaml", parent_text)
    child = write(tmp_path, "child.yaml", "extends: common/parent.yaml\nid: c\nname: C\n")
    with pytest.raises(VariantError) as error:
        resolve(child)
    diagnostic = only_error(error)
    assert (diagnostic.rule, diagnostic.location) == (rule, Location(str(parent), line, column))


def test_errors_in_a_shipped_parent_name_it(shipped: Path, tmp_path: Path) -> None:
    write(shipped, "broken.yaml", "id: broken\nplayers: 2\nplayers: 3\n")
    child = write(tmp_path, "child.yaml", "extends: broken\n")
    with pytest.raises(VariantError) as error:
        resolve(child)
    assert only_error(error).location == Location(str(shipped / "broken.yaml"), 3, 1)


def test_errors_in_the_child_are_reported_before_parents_are_read(tmp_path: Path) -> None:
    path = write(tmp_path, "child.yaml", "extends: missing.yaml\nextends: other.yaml\n")
    with pytest.raises(VariantError) as error:
        resolve(path)
    assert only_error(error).rule == "yaml-duplicate-key"


def test_missing_child_file(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as error:
        resolve(tmp_path / "nothing.yaml")
    assert only_error(error).rule == "io"


# -- problems a child causes in its parent are reported in the child ---------------------------

BROKEN_BASE = """\
rummydsl: 1
id: broken_base
extends: gin_rummy
name: A base with its own problem
knock:
  limit: "ordr"
"""


def test_a_problem_of_the_parent_itself_stays_in_the_parent(tmp_path: Path) -> None:
    from rummydsl.variant import check_file

    write(tmp_path, "base.yaml", BROKEN_BASE)
    child = write(tmp_path, "child.yaml", "rummydsl: 1\nid: child\nextends: ./base.yaml\nname: C\n"
                  "options: {gin_bonus: true}\n")
    found = [(Path(d.location.path).name, d.location.line, d.rule) for d in check_file(str(child))]
    assert ("base.yaml", 6, "expr-name") in found
    assert ("child.yaml", 5, "expr-type") in found
    assert all(name != "gin_rummy.yaml" for name, _, _ in found)


def test_an_option_of_another_type_is_checked_again_after_an_equal_value(tmp_path: Path) -> None:
    """True == 1 in Python: a formula compiled for `gin_bonus: 1` must not be reused for
    `gin_bonus: true` (the compiled-expression cache once did, so this check passed or
    failed by which test had run before it)."""
    from rummydsl.variant import check_file

    for folder, value in (("int", "1"), ("bool", "true")):
        (tmp_path / folder).mkdir()
        write(tmp_path / folder, "base.yaml", BROKEN_BASE)
        write(tmp_path / folder, "child.yaml", "rummydsl: 1\nid: child\nextends: ./base.yaml\nname: C\n"
              f"options: {{gin_bonus: {value}}}\n")
    assert ("child.yaml", 5, "expr-type") not in [
        (Path(d.location.path).name, d.location.line, d.rule) for d in check_file(str(tmp_path / "int" / "child.yaml"))]
    found = [(Path(d.location.path).name, d.location.line, d.rule) for d in check_file(str(tmp_path / "bool" / "child.yaml"))]
    assert ("child.yaml", 5, "expr-type") in found


def test_follow_on_problems_of_one_change_are_one_problem(tmp_path: Path) -> None:
    from rummydsl.variant import check_file

    child = write(tmp_path, "child.yaml", "rummydsl: 1\nid: child\nextends: gin_rummy\nname: C\nknock: null\n")
    found = check_file(str(child))
    # The game cannot end (every round is void at the stock floor): an error; the
    # warnings the same change causes are one problem.
    assert [(d.location.line, d.rule, d.severity) for d in found] == [
        (5, "game-end", "error"), (5, "layoff-unused", "warning")]
    assert "3 more problems" in found[1].message


# -- a turn step changed by name -------------------------------------------------------------

def _turn_of(tmp_path: Path, turn: str) -> tuple[Any, list[Any]]:
    from rummydsl.variant import check_file

    child = write(tmp_path, "child.yaml", f"rummydsl: 1\nid: child\nextends: gin_rummy\nname: C\nturn:\n{turn}")
    found = check_file(str(child))
    try:
        return resolve(child).data["turn"], found
    except VariantError:
        return None, found


def test_a_turn_map_changes_one_step_by_name_and_keeps_the_rest(tmp_path: Path) -> None:
    turn, found = _turn_of(tmp_path, "  discard: {taken_card: allowed}\n")
    assert turn == [{"draw": {"from": ["stock", "discard"]}}, {"discard": {"taken_card": "allowed"}}]
    assert found == []


def test_a_turn_map_merges_settings_and_null_removes_a_step(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "rummydsl: 1\nid: base\nextends: skarney_gin\nname: B\n")
    child = write(tmp_path, "child.yaml", "rummydsl: 1\nid: child\nextends: ./base.yaml\nname: C\n"
                  "turn:\n  offer: {min_hand: 3}\n  meld: null\n")
    parent_turn = resolve(tmp_path / "base.yaml").data["turn"]
    turn = resolve(child).data["turn"]
    assert [next(iter(s)) if isinstance(s, dict) else s for s in turn] == ["draw", "offer"]
    offer = next(s["offer"] for s in parent_turn if isinstance(s, dict) and "offer" in s)
    assert turn[1] == {"offer": {**offer, "min_hand": 3}}


def test_a_turn_map_naming_a_missing_step_is_an_error_in_the_child(tmp_path: Path) -> None:
    _, found = _turn_of(tmp_path, "  discrad: {taken_card: allowed}\n")
    assert [(Path(d.location.path).name, d.location.line, d.rule) for d in found] == [
        ("child.yaml", 6, "extends-turn")]
    assert "did you mean 'discard'?" in found[0].message


def test_a_bad_value_in_a_turn_map_is_placed_in_the_child(tmp_path: Path) -> None:
    _, found = _turn_of(tmp_path, "  discard: {taken_card: maybe}\n")
    assert [(Path(d.location.path).name, d.location.line, d.rule) for d in found] == [
        ("child.yaml", 6, "schema-enum")]


def test_a_turn_list_still_replaces_whole(tmp_path: Path) -> None:
    turn, _ = _turn_of(tmp_path, "  - draw\n  - discard\n")
    assert turn == ["draw", "discard"]


@pytest.mark.parametrize("body, parent", [
    ("id: my_gin\nname: My Gin\noptions: {gin_bonus: 30}\nknock: {limit: 5}\n", "gin_rummy"),
    ("id: house\nname: House\noptions: {undercut_bonus: 20}\n", "gin_rummy"),  # not gin_three_handed
    ("id: house\nname: House\ngame: {target: 150}\n", "gin_rummy"),  # nothing tells them apart
    ("id: house\nname: House\noptions: {sit_out: rotate}\n", "gin_three_handed"),
    ("id: house\nname: House\noptions: {set_max: 4}\n", "ginski"),
    ("id: house\nname: House\noptions: {knock_penalty: 20}\n", "knock_rummy"),
    ("id: house\nname: House\noptions: {stock_end_contract: required}\n", "skarney_gin"),
    ("id: my_oklahoma\nname: My Oklahoma Gin\noptions: {gin_bonus: 30}\nknock: {limit: 5}\n", "oklahoma_gin"),
])
def test_a_forgotten_extends_names_the_nearest_base(tmp_path: Path, body: str, parent: str) -> None:
    from rummydsl.variant import check_file

    path = write(tmp_path, "house.yaml", "rummydsl: 1\n" + body)
    messages = [d.message for d in check_file(str(path)) if d.rule == "schema-required"]
    assert len(messages) == 1 and messages[0].endswith(f"build on a variant with 'extends: {parent}'"), messages
