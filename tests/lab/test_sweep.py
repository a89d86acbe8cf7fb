"""``rummydsl sweep --set``: each value a real derived variant, checked before play; bad
keys and values are clear errors naming the --set argument."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummydsl.errors import VariantError
from rummydsl.lab.derive import SetSyntaxError, derive, parse_set
from rummydsl.variant import load_variant

from .conftest import run


@pytest.mark.parametrize("argument,path,values", [
    ("knock.limit=0,3,7,10", ("knock", "limit"), (0, 3, 7, 10)),
    ("options.gin_bonus=20, 25 ,30", ("options", "gin_bonus"), (20, 25, 30)),
    ("options.undercut_on_tie=true,false", ("options", "undercut_on_tie"), (True, False)),
    ("game.shutout=none,flat_100", ("game", "shutout"), ("none", "flat_100")),
    ('knock.limit=[10, "upcard.rank == A ? 0 : min(10, value(upcard))"]', ("knock", "limit"),
     (10, "upcard.rank == A ? 0 : min(10, value(upcard))")),
])
def test_set_arguments_are_read_as_yaml_scalars(argument: str, path: tuple[str, ...], values: tuple[object, ...]) -> None:
    setting = parse_set(argument)
    assert (setting.path, setting.values) == (path, values)


@pytest.mark.parametrize("argument,message", [
    ("knock.limit", "write KEY=VALUE"),
    ("knock.limit=", "write KEY=VALUE"),
    ("knock..limit=3", "is not a dotted name"),
    ("knock.limit=3,3", "a value is given twice"),
    ("knock.limit={a: 1}", "must be a YAML scalar"),
    ("knock.limit=[1, [2]]", "must be a YAML scalar"),
])
def test_unreadable_set_arguments(argument: str, message: str) -> None:
    with pytest.raises(SetSyntaxError, match="--set") as raised:
        parse_set(argument)
    assert message in str(raised.value) and repr(argument) in str(raised.value)


def test_a_derived_variant_is_base_and_text_and_loads_as_a_file(tmp_path: Path) -> None:
    seven, ten = derive("gin_rummy", [parse_set("knock.limit=7,10")])
    assert seven.base == "gin_rummy" and "extends: gin_rummy" in seven.text and seven.label == "knock.limit=7"
    variant = load_variant(seven.write(str(tmp_path)))
    assert variant.parent == "gin_rummy"
    assert load_variant(ten.write(str(tmp_path))).id != variant.id


def test_a_file_base_is_extended_by_its_absolute_path(tmp_path: Path) -> None:
    base = tmp_path / "house.yaml"
    base.write_text("id: house\nname: House\nextends: gin_rummy\ngame: {target: 50}\n", encoding="utf-8")
    (derived,) = derive(str(base), [parse_set("options.gin_bonus=20")])
    assert derived.base == str(base.resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    variant = load_variant(derived.write(str(elsewhere)))
    assert variant.game.target == 50 and variant.options["gin_bonus"].value == 20


def test_combinations_vary_the_first_setting_slowest() -> None:
    labels = [d.label for d in derive("gin_rummy", [parse_set("knock.limit=7,10"), parse_set("options.gin_bonus=20,25")])]
    assert labels == ["knock.limit=7, options.gin_bonus=20", "knock.limit=7, options.gin_bonus=25",
                      "knock.limit=10, options.gin_bonus=20", "knock.limit=10, options.gin_bonus=25"]


@pytest.mark.parametrize("argument,message", [
    ("knock.limt=7", "--set knock.limt=7: unknown key 'limt' in 'knock'; did you mean 'limit'?"),
    ("knock.limit=seven", "--set knock.limit=seven: unknown name 'seven'"),
    ("game.target=0", "--set game.target=0: 'game.target' must be at least 1, got 0"),
    ("options.gin_bonuss=20", "--set options.gin_bonuss=20: gin_rummy has no option 'gin_bonuss'"),
])
def test_bad_keys_and_values_name_the_set_argument(argument: str, message: str) -> None:
    with pytest.raises(VariantError) as raised:
        derive("gin_rummy", [parse_set(argument)])
    assert message in str(raised.value)


@pytest.mark.parametrize("argv,code,message", [
    (["--set", "knock.limt=7"], 1, "--set knock.limt=7: unknown key 'limt'"),
    (["--set", "knock.limit=7,x"], 1, "knock.limit=x: unknown name 'x'"),
    (["--set", "knock.limit"], 2, "rummydsl sweep: --set 'knock.limit': write KEY=VALUE"),
    (["--set", "knock.limit=7", "--set", "knock.limit=10"], 2, "'knock.limit' is set twice"),
    (["--set", "knock=7", "--set", "knock.limit=10"], 2, "overlaps another --set"),
])
def test_bad_set_arguments_fail_before_any_game(argv: list[str], code: int, message: str, no_play: None) -> None:
    got, out, err = run("sweep", "gin_rummy", *argv, "--games", "2", "--seed", "1")
    assert got == code and out == ""
    assert message in err


def test_sweep_output_moves_with_the_value() -> None:
    code, out, err = run("sweep", "gin_rummy", "--set", "knock.limit=0,10", "--games", "12", "--seed", "3",
                         "--workers", "1", "--json")
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    assert data["command"] == "sweep"
    assert data["sweep"] == {"base": "gin_rummy", "keys": ["knock.limit"], "values": [[0], [10]]}
    assert [v["label"] for v in data["variants"]] == ["knock.limit=0", "knock.limit=10"]
    assert all("extends: gin_rummy" in v["text"] and "path" not in v for v in data["variants"])
    figures = {f["key"]: f for f in data["figures"]}
    # Straight gin (limit 0) rounds are longer than limit-10 rounds: a negative trend per unit of the limit.
    assert figures["turns_per_round"]["trend"] < 0
    assert figures["turns_per_round"]["comparisons"][0]["significant"]
    assert figures["ending.knock_not_undercut"]["values"][0]["value"] == 0.0


def test_sweep_text_has_a_slope_column_for_one_numeric_key() -> None:
    code, out, err = run("sweep", "gin_rummy", "--set", "options.gin_bonus=20,25", "--games", "3", "--seed", "3",
                         "--workers", "1")
    assert (code, err) == (0, "")
    assert out.startswith("sweep: options.gin_bonus=20, options.gin_bonus=25: 3 games each")
    assert "slope/unit" in out


def test_worker_processes_load_the_derived_files_and_agree_with_one() -> None:
    argv = ("sweep", "gin_rummy", "--set", "options.gin_bonus=20,25", "--games", "4", "--seed", "9", "--json")
    results = []
    for workers in ("1", "2"):
        code, out, err = run(*argv, "--workers", workers)
        assert (code, err) == (0, ""), err
        data = json.loads(out)
        data.pop("seconds")
        results.append(data)
    assert results[0] == results[1]
