"""The PyYAML internals the loader relies on are where it expects them.

The loader overrides PyYAML scanner and composer methods and reads its escape tables
and libyaml's CParser (rummydsl/variant/load_pyyaml.py). An upgrade of PyYAML that
moves one of them must fail here, naming what moved, not somewhere deep in a load.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from rummydsl.variant import load_pyyaml


def test_every_pyyaml_internal_the_loader_uses_is_present() -> None:
    missing = load_pyyaml.missing_internals()
    assert not missing, (
        f"PyYAML {load_pyyaml.pyyaml_version()} no longer has what rummydsl's loader relies on: "
        + "; ".join(missing)
    )


def test_pyyaml_is_the_major_version_the_pin_allows() -> None:
    major = int(load_pyyaml.pyyaml_version().split(".")[0])
    assert major == 6, f"pyproject.toml pins pyyaml>=6.0,<7, but PyYAML {yaml.__version__} is installed"


@pytest.mark.parametrize("owner, name", [
    ("scanner", "scan_plain"),
    ("scanner", "scan_flow_scalar"),
    ("composer", "compose_node"),
])
def test_a_moved_method_is_named_with_the_version(monkeypatch: pytest.MonkeyPatch, owner: str,
                                                  name: str) -> None:
    """The check can fail: take a method away and it is named."""
    cls: Any = {"scanner": yaml.scanner.Scanner, "composer": yaml.composer.Composer}[owner]
    monkeypatch.delattr(cls, name)
    missing = load_pyyaml.missing_internals()
    assert any(entry.startswith(f"yaml.{owner}.") and f".{name}:" in entry for entry in missing), missing


def test_a_changed_escape_table_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_pyyaml, "ESCAPE_CODES", {"x": 2})
    assert any("ESCAPE_CODES" in entry for entry in load_pyyaml.missing_internals())


def test_a_missing_libyaml_parser_is_named_when_pyyaml_claims_libyaml(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml, "__with_libyaml__", True)
    monkeypatch.setattr(load_pyyaml, "CParser", None)
    assert any("CParser" in entry for entry in load_pyyaml.missing_internals())
