"""``--ray [ADDRESS]`` of compare and sweep without a Ray instance: how it is read,
that it does not go with ``--workers``, and the message where Ray is not installed.
(The figures on Ray are tested in tests/backends/test_ray.py, on a local instance.)"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from rummydsl.cli import build_parser

from .conftest import run

COMMANDS = [
    ("compare", "gin_rummy", "straight_gin"),
    ("sweep", "gin_rummy", "--set", "knock.limit=5,10"),
]


@pytest.mark.parametrize("command", COMMANDS)
def test_ray_takes_an_optional_address(command: tuple[str, ...]) -> None:
    base = [*command, "--games", "1", "--seed", "1"]
    assert build_parser().parse_args(base).ray is None
    assert build_parser().parse_args([*base, "--ray"]).ray == ""
    assert build_parser().parse_args([*base, "--ray", "ray://head:10001"]).ray == "ray://head:10001"


@pytest.mark.parametrize("command", COMMANDS)
def test_ray_does_not_go_with_workers(command: tuple[str, ...], no_play: None) -> None:
    code, out, err = run(*command, "--games", "1", "--seed", "1", "--workers", "2", "--ray")
    assert (code, out) == (2, "")
    assert "argument --ray: not allowed with argument --workers" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_without_ray_the_ray_flag_is_a_usage_error_before_any_game(
        command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, no_play: None) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)   # `import ray` raises ImportError
    code, out, err = run(*command, "--games", "1", "--seed", "1", "--ray")
    assert (code, out) == (2, "")
    assert err == (f"rummydsl {command[0]}: --ray needs Ray, which is not installed; "
                   "install it with pip install 'rummydsl[ray]'\n")


def test_a_swept_file_travels_with_its_base_to_a_machine_without_them(tmp_path: Path) -> None:
    """Regression: the derived child named its base by the driver's absolute path, which a
    Ray worker on another machine does not have; it now names it relative to its own folder."""
    from rummydsl.backends import VariantSource
    from rummydsl.lab.derive import derive, parse_set
    from rummydsl.variant import load_variant

    driver = tmp_path / "driver"
    (driver / "sub").mkdir(parents=True)
    (driver / "base.yaml").write_text(
        "rummydsl: 1\nid: house_base\nextends: gin_rummy\nname: House base\nknock: {limit: '7'}\n")
    (driver / "sub" / "house.yaml").write_text(
        "rummydsl: 1\nid: house\nextends: ../base.yaml\nname: House\ngame: {target: 50}\n")
    (child,) = derive(str(driver / "sub" / "house.yaml"), [parse_set("options.gin_bonus=20")])
    (tmp_path / "sweep").mkdir()
    written = child.write(str(tmp_path / "sweep"))
    assert f"extends: {driver / 'sub' / 'house.yaml'}\n" in child.text   # what --json shows
    # The base's chain is copied beside the child (a parent is named relatively, from
    # at most two folders up: docs/security.md), and named by the copy.
    assert "extends: base/sub/house.yaml\n" in Path(written).read_text()
    source = VariantSource.of(written)
    shutil.rmtree(driver)
    shutil.rmtree(tmp_path / "sweep")   # as on a worker of another machine: none of the files
    variant = load_variant(source.materialise())
    assert (variant.id, variant.options["gin_bonus"].value, variant.game.target) == (
        "house__options_gin_bonus_20", 20, 50)
