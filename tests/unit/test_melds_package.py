"""The rummydsl.melds package: its layout holds (no import circle, small modules), its
public names stay where callers import them, and only rummydsl's own errors escape."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.errors import CardError, MeldError, RummyDslError
from rummydsl.melds import KindShape, LayoffTarget, MeldRules

PACKAGE = Path(__file__).resolve().parents[2] / "rummydsl" / "melds"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py"))


def package_imports(module: str) -> set[str]:
    """The modules of rummydsl.melds that ``module`` imports (relative or absolute), at any level."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                if node.module:
                    out.add(node.module.split(".")[0])
                else:
                    out.update(alias.name for alias in node.names)
            elif node.level == 0 and node.module and node.module.startswith("rummydsl.melds."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("rummydsl.melds."):
                    out.add(alias.name.split(".")[2])
    return out & set(MODULES)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph, as a path that returns to its start, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    graph = {module: package_imports(module) - {module} for module in MODULES if module != "__init__"}
    assert find_cycle(graph) is None, find_cycle(graph)
    # bind.py sits above the front: it keeps each variant's MeldRules, bound to the round (CR-2)
    assert "rules" not in set().union(*(graph[m] for m in graph if m != "bind")), "only the front imports the front"


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def fresh_import(module: str) -> tuple[int, str, frozenset[str]]:
    """``import MODULE`` in a fresh interpreter: its exit code, its standard error, and the
    modules it had loaded at the end (when it got there)."""
    code = f"import sys, {module}; print(chr(10).join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return done.returncode, done.stderr, frozenset(done.stdout.split("\n") if done.returncode == 0 else ())


@lru_cache(maxsize=None)
def fresh_package_import() -> tuple[int, str, frozenset[str]]:
    """:func:`fresh_import` of the package itself, run once a process."""
    return fresh_import("rummydsl.melds")


@pytest.mark.parametrize("module", [m for m in MODULES if m != "__init__"])
def test_every_module_imports_alone(module: str) -> None:
    """In a fresh interpreter, each module imports first (a circle would fail here).

    ``import rummydsl.melds.X`` runs the package's ``__init__`` first, in the same order
    whatever X is, and then X only if that did not load it already. So for every module the
    package's own import loads (24 of 26), a fresh ``import rummydsl.melds.X`` does exactly
    what a fresh ``import rummydsl.melds`` does: that one run, made once, answers for them
    (each of those fresh interpreters cost about 0.3 s of CPU, the same imports each time);
    a module the package does not load gets a fresh interpreter of its own."""
    code, stderr, loaded = fresh_package_import()
    assert code == 0, stderr
    if f"rummydsl.melds.{module}" not in loaded:
        code, stderr, loaded = fresh_import(f"rummydsl.melds.{module}")
        assert code == 0, stderr
    assert f"rummydsl.melds.{module}" in loaded


@pytest.mark.parametrize("module", MODULES)
def test_no_module_is_big(module: str) -> None:
    lines = (PACKAGE / f"{module}.py").read_text(encoding="utf-8").count("\n")
    assert lines <= 520, f"{module}.py has {lines} lines"


def test_the_public_names_stay() -> None:
    import rummydsl.melds as melds

    assert set(melds.__all__) == {"MeldRules", "Arrangement", "LayoffTarget", "KindShape", "MAX_HAND",
                                  "melds_report", "shape_of_pattern"}
    for name in melds.__all__:
        assert getattr(melds, name) is not None


# --------------------------------------------------------------------------- errors

DECK = Deck.preset("standard52")
GIN = MeldRules(DECK, {"set": lambda cs: len(cs) >= 3 and len({c.rank for c in cs}) == 1},
                [min(c.rank.order, 10) for c in DECK.cards if c.rank is not None],
                shapes={"set": KindShape("same_rank", 3, 4)}, kind_locked=True)


def test_bad_rules_raise_meld_errors() -> None:
    with pytest.raises(MeldError, match="card_value has 3 entries for a deck of 52 cards"):
        MeldRules(DECK, {}, [1, 2, 3])
    with pytest.raises(MeldError, match="unknown meld shape family 'spiral'"):
        KindShape("spiral")  # type: ignore[arg-type]
    with pytest.raises(MeldError, match=r"shapes given for unknown meld kinds \['rnu'\]"):
        MeldRules(DECK, {"run": lambda cs: False}, [0] * 52, shapes={"rnu": KindShape("sequence")})
    rumski = Deck.preset("rumski70")
    values = [25 if c.wild else 1 for c in rumski.cards]
    values[-1] = 20
    with pytest.raises(MeldError, match=r"every wild card must have the same value, got \[20, 25\]"):
        MeldRules(rumski, {}, values)


def test_refused_table_melds_raise_meld_errors() -> None:
    hand = DECK.parse_cards("7S 7H 8D")
    with pytest.raises(MeldError, match="table meld 0 holds '7H', a card of the hand"):
        GIN.solve(hand, table=[LayoffTarget(DECK.parse_cards("7H 7D 7C"))])
    with pytest.raises(MeldError, match="table meld 1 holds '9H', a card of an earlier table meld"):
        GIN.solve(hand, table=[DECK.parse_cards("9S 9H 9D"), DECK.parse_cards("9D 9C 9H")])
    with pytest.raises(MeldError, match="table meld 0 has the unknown meld kind 'sett'"):
        GIN.solve(hand, table=[LayoffTarget(DECK.parse_cards("9S 9H 9D"), kind="sett")])
    with pytest.raises(MeldError, match="table meld 0 is empty"):
        GIN.solve(hand, table=[()])
    with pytest.raises(CardError):
        GIN.solve(hand, table=[("9S", "9H", "XX")])


def test_table_melds_accept_notation() -> None:
    """Table melds given as notation strings, like hands."""
    best = GIN.solve("7S KD", table=[("7H", "7D", "7C")])
    assert best.layoffs == ((0, (DECK.parse_card("7S"),)),) and best.deadwood == 10


junk = st.one_of(st.text(max_size=6), st.integers(-3, 120), st.none(), st.sampled_from(["AS", "KD", "*", "10H"]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.one_of(st.text(max_size=20), st.lists(junk, max_size=12)),
       table=st.lists(st.lists(junk, max_size=4), max_size=2))
def test_only_rummydsl_errors_escape(hand: object, table: list[list[object]]) -> None:
    """Whatever comes in, every public question answers or raises a rummydsl error."""
    for ask in (lambda: GIN.solve(hand, table=table), lambda: GIN.best_discard(hand),  # type: ignore[arg-type]
                lambda: GIN.solve_discard(hand), lambda: GIN.min_deadwood(hand),  # type: ignore[arg-type]
                lambda: GIN.kinds_of(hand), lambda: GIN.holds_contract(hand),  # type: ignore[arg-type]
                lambda: GIN.display_order(hand), lambda: GIN.check_hand(hand)):  # type: ignore[arg-type]
        try:
            ask()
        except RummyDslError:
            pass
