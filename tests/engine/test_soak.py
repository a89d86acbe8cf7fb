"""The soak script (benchmarks/soak.py) runs for a tiny count, so it cannot rot, and it
catches what it is for: a refusal that changes the state, an illegal action applied."""

from __future__ import annotations

import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rummydsl.engine import Discard, Round
from rummydsl.errors import IllegalActionError

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"


def load_soak() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rummydsl_soak_script", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


soak = load_soak()


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = soak.main(list(argv), out=out)
    return code, out.getvalue()


def test_a_tiny_soak_checks_and_refuses_and_counts() -> None:
    code, out = run("--games", "2", "--variants", "gin_rummy,skarney_gin", "--rate", "0.2", "--json")
    assert code == 0, out
    figures = json.loads(out)
    assert sorted(figures) == ["gin_rummy", "skarney_gin"]
    for row in figures.values():
        assert row["games"] == 2 and row["rounds"] >= 2 and row["actions"] > 0
        assert row["refused"] > 0 and row["checks"] > row["actions"]
        assert {"random text", "wrong seat", "card not held", "step check"} <= set(row["by_kind"])


def test_the_table_names_every_variant_and_the_totals() -> None:
    code, out = run("--games", "1", "--variants", "ginski", "--rate", "0.5")
    assert code == 0, out
    assert "| ginski | 1 |" in out and "| all | 1 |" in out and "refused by kind:" in out


def test_the_same_seed_gives_the_same_figures() -> None:
    argv = ("--games", "1", "--variants", "straight_gin", "--rate", "0.3", "--json")
    one, two = json.loads(run(*argv)[1]), json.loads(run(*argv)[1])
    for figures in (one, two):
        figures["straight_gin"].pop("cpu")
    assert one == two


def test_a_refusal_that_changes_the_round_fails_with_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    apply = Round.apply

    def leaky(self: Round, action: Any) -> Any:
        try:
            return apply(self, action)
        except IllegalActionError:
            self.turns += 1  # half-changed state: what the soak is there to find
            raise

    monkeypatch.setattr(Round, "apply", leaky)
    code, out = run("--games", "3", "--variants", "gin_rummy", "--rate", "0.3", "--seed", "7")
    assert code == 1
    assert out.startswith("FAILED: gin_rummy game 0 (seed ")
    assert "changed the round" in out
    assert "reproduce: python benchmarks/soak.py --variants gin_rummy --only-game 0 --seed 7" in out


def test_an_illegal_action_applied_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    verify = Round.verify

    def lax(self: Round, action: Any) -> None:
        if isinstance(action, Discard):
            return  # any discard accepted: a card not held, out of turn
        verify(self, action)

    monkeypatch.setattr(Round, "verify", lax)
    code, out = run("--games", "1", "--variants", "gin_rummy", "--rate", "1", "--seed", "3")
    assert code == 1 and out.startswith("FAILED: gin_rummy game 0")
    assert "Traceback" in out and "reproduce:" in out


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        soak.parse_args(["--rate", "2"])
