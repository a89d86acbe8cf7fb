"""``load_variant``: its cache follows every file of the extends chain, and what it
returns cannot be changed by one caller for the next."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterator

import pytest

from rummydsl.variant import load_variant, shipped_variant_ids
from rummydsl.variant.model import Variant

GIN = Path(__file__).resolve().parents[2] / "variants" / "gin_rummy.yaml"


def _touch(path: Path, text: str, mtime_ns: int) -> None:
    """Write ``text`` and set a modification time, so a change is seen whatever the
    file system's clock resolution."""
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(mtime_ns, mtime_ns))


def test_a_changed_parent_is_seen_through_an_unchanged_child(tmp_path: Path) -> None:
    parent_text = GIN.read_text(encoding="utf-8")
    assert "  limit: 10 " in parent_text
    parent, child = tmp_path / "parent.yaml", tmp_path / "child.yaml"
    _touch(parent, parent_text, 1_000_000_000_000_000_000)
    _touch(child, "rummydsl: 1\nid: child\nname: Child\nextends: ./parent.yaml\n",
           1_000_000_000_000_000_000)
    assert load_variant(str(child)).data["knock"]["limit"] == 10
    _touch(parent, parent_text.replace("  limit: 10 ", "  limit: 0  "), 1_000_000_001_000_000_000)
    assert load_variant(str(child)).data["knock"]["limit"] == 0


def test_a_grandparent_changed_with_the_same_time_but_another_size_is_seen(tmp_path: Path) -> None:
    text = GIN.read_text(encoding="utf-8")
    root, middle, child = tmp_path / "root.yaml", tmp_path / "middle.yaml", tmp_path / "child.yaml"
    when = 1_000_000_000_000_000_000
    _touch(root, text, when)
    _touch(middle, "rummydsl: 1\nid: middle\nname: Middle\nextends: ./root.yaml\n", when)
    _touch(child, "rummydsl: 1\nid: child\nname: Child\nextends: ./middle.yaml\n", when)
    assert load_variant(str(child)).game.target == 100
    _touch(root, text.replace("target: 100", "target: 1000"), when)  # one byte longer
    assert load_variant(str(child)).game.target == 1000


def test_an_unchanged_chain_is_served_from_the_cache(tmp_path: Path) -> None:
    parent, child = tmp_path / "parent.yaml", tmp_path / "child.yaml"
    parent.write_text(GIN.read_text(encoding="utf-8"), encoding="utf-8")
    child.write_text("rummydsl: 1\nid: child\nname: Child\nextends: ./parent.yaml\n", encoding="utf-8")
    assert load_variant(str(child)) is load_variant(str(child))


# -- nothing reachable from a Variant can be changed --------------------------------

_IMMUTABLE_LEAVES = (str, int, float, bool, type(None), bytes, range, type)


def _reachable(root: Any) -> Iterator[tuple[str, Any]]:
    """Every object reachable from ``root`` through dataclass fields, mappings, tuples,
    frozensets (and lists and sets, to report them), with a path: compiled
    expressions' fields and syntax trees included; a closure is code, not walked."""
    seen: set[int] = set()
    stack: list[tuple[str, Any]] = [("variant", root)]
    while stack:
        where, value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        yield where, value
        if isinstance(value, _IMMUTABLE_LEAVES):
            continue
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            stack.extend((f"{where}.{f.name}", getattr(value, f.name))
                         for f in dataclasses.fields(value) if hasattr(value, f.name))
        elif isinstance(value, Mapping):
            stack.extend((f"{where}[{key!r}]", item) for key, item in value.items())
            stack.extend((f"{where} key {key!r}", key) for key in value)
        elif isinstance(value, (tuple, frozenset, list, set)):
            stack.extend((f"{where}[{index}]", item) for index, item in enumerate(value))


def _mutable(value: Any) -> str | None:
    """Why ``value`` can be changed, or None."""
    if isinstance(value, (dict, list, set, bytearray)):
        return f"a {type(value).__name__}"
    if isinstance(value, Mapping) and not isinstance(value, MappingProxyType):
        return f"a mutable mapping ({type(value).__name__})"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__")
        if not params.frozen:
            return f"a dataclass that is not frozen ({type(value).__name__})"
    return None


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_nothing_reachable_from_a_shipped_variant_is_mutable(variant_id: str) -> None:
    variant = load_variant(variant_id)
    problems = [f"{where}: {why}" for where, value in _reachable(variant)
                if (why := _mutable(value)) is not None]
    assert not problems, "\n".join(problems[:20])


def test_the_walk_finds_what_is_mutable() -> None:
    """The walk above can fail: it sees a dict deep inside a frozen value."""
    variant = load_variant("gin_rummy")
    broken = dataclasses.replace(variant, data=MappingProxyType({"a": ({"b": [1]},)}))
    found = {where for where, value in _reachable(broken) if _mutable(value)}
    assert "variant.data['a'][0]" in found and "variant.data['a'][0]['b']" in found


def test_one_caller_cannot_change_the_variant_another_gets() -> None:
    variant = load_variant("gin_rummy")
    with pytest.raises(TypeError):
        variant.data["name"] = "X"  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        variant.data["knock"]["limit"] = 0  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        variant.data["rules"].append("GR-99")  # type: ignore[attr-defined]
    assert load_variant("gin_rummy").data["name"] == "Gin Rummy"
    assert isinstance(variant, Variant)



def test_load_variant_text_builds_a_posted_text_with_the_limits_of_a_file() -> None:
    from rummydsl.errors import VariantError
    from rummydsl.variant import load_variant_text

    built = load_variant_text("house.yaml", "id: house\nname: House\nextends: gin_rummy\nknock: {limit: 5}\n")
    assert built.id == "house" and built.parent == "gin_rummy"
    with pytest.raises(VariantError) as too_big:
        load_variant_text("house.yaml", "x" * 300_000)
    assert "too large" in str(too_big.value)
    with pytest.raises(VariantError) as broken:
        load_variant_text("house.yaml", "id: [\n")
    assert str(broken.value).startswith("house.yaml:")
