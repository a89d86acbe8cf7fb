"""How strong is a suite? Change one thing of its variant and see whether any case notices.

Like mutation testing: for the variant a suite runs under, each *mutant* is a copy
with one thing changed, and the suite is run against it. A mutant that every
case still passes is one change the suite cannot see. The changes:

- each option: an integer ±1, a boolean flipped, a choice set to each other value
  it allows (``one_of``);
- each setting of the language with a fixed set of values (``deal.rotation``,
  ``stock.at_floor``, ``layoff.onto``, a step's ``taken_card``...): each other
  value the schema allows; each boolean setting flipped;
- each integer setting (``knock.limit``, ``stock.floor``, ``game.target``, the
  bonuses, ``offer.min_hand``...): ±1;
- each scoring case removed.

The deck, the players, the hand size and the meld patterns are left alone (a
change there breaks every setup rather than testing a rule). A mutant that does
not check clean is reported as invalid, not counted.

>>> [m.label for m in mutations({"options": {"gin_bonus": {"value": 25}}, "knock": {"big_gin": True}})]
['options.gin_bonus=26', 'options.gin_bonus=24', 'knock.big_gin=False']
"""

from __future__ import annotations

import copy
import dataclasses
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

from ..errors import VariantError
from .runner import run_case
from .suite import Case

__all__ = ["Mutation", "MutantResult", "mutations", "run_mutants"]

_LEFT_ALONE = ("rummydsl", "id", "name", "description", "rules", "extends", "deck", "players",
               "card_value", "melds", "contract", "hand_size")


@dataclass(frozen=True)
class Mutation:
    """One change: a label for the report, and a function that makes it on a copy of the data."""

    label: str
    apply: Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class MutantResult:
    """What the suite made of one mutant."""

    mutation: Mutation
    status: str
    """``noticed`` (some case failed), ``survived`` (every case passed) or ``invalid``."""
    noticed_by: tuple[str, ...] = ()
    """The ids of the cases that failed."""
    reason: str = ""


@lru_cache(maxsize=1)
def _enums() -> dict[str, tuple[str, ...]]:
    """Every property of the variant schema with a fixed set of string values."""
    from ..variant.schema import variant_schema

    found: dict[str, tuple[str, ...]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if isinstance(sub, dict) and "enum" in sub:
                    values = tuple(v for v in sub["enum"] if isinstance(v, str))
                    if len(values) > 1:
                        found[name] = values
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(variant_schema())
    return found


def _setter(path: Sequence[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return apply


def _remover(path: Sequence[Any], index: int) -> Callable[[dict[str, Any]], None]:
    def apply(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path:
            node = node[key]
        del node[index]

    return apply


def _label(path: Sequence[Any]) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def mutations(data: Mapping[str, Any]) -> list[Mutation]:
    """Every one-thing change of a variant's merged data (see the module docstring)."""
    enums = _enums()
    out: list[Mutation] = []

    def leaf(path: tuple[Any, ...], value: Any) -> None:
        name = next((k for k in reversed(path) if isinstance(k, str)), "")
        if isinstance(value, bool):
            out.append(Mutation(f"{_label(path)}={not value}", _setter(path, not value)))
        elif isinstance(value, int):
            for other in (value + 1, value - 1):
                if other >= 0:
                    out.append(Mutation(f"{_label(path)}={other}", _setter(path, other)))
        elif isinstance(value, str) and name in enums and value in enums[name]:
            for choice in enums[name]:
                if choice != value:
                    out.append(Mutation(f"{_label(path)}={choice}", _setter(path, choice)))

    def walk(path: tuple[Any, ...], node: Any) -> None:
        if path and path[-1] in _LEFT_ALONE:
            return
        if path[:1] == ("options",) and len(path) == 2:
            option(path, node)
            return
        if isinstance(node, Mapping):
            for key, value in node.items():
                walk(path + (key,), value)
        elif isinstance(node, (list, tuple)):
            for index, value in enumerate(node):
                walk(path + (index,), value)
        else:
            leaf(path, node)

    def option(path: tuple[Any, ...], node: Any) -> None:
        value = node.get("value") if isinstance(node, Mapping) else node
        target = path + ("value",) if isinstance(node, Mapping) else path
        choices = node.get("one_of") if isinstance(node, Mapping) else None
        label = _label(path)
        if isinstance(value, bool):
            others: list[Any] = [not value]
        elif isinstance(value, int):
            others = [v for v in (value + 1, value - 1) if v >= 0]
        elif isinstance(value, str) and choices:
            others = [v for v in choices if v != value]
        else:
            others = []
        out.extend(Mutation(f"{label}={other}", _setter(target, other)) for other in others)

    for key, value in data.items():
        if key == "scoring" and isinstance(value, Mapping):
            for index in range(len(value.get("round", ()))):
                if len(value["round"]) > 1:
                    rule = value["round"][index].get("rule", "")
                    out.append(Mutation(f"scoring.round[{index}] removed{f' ({rule})' if rule else ''}",
                                        _remover(("scoring", "round"), index)))
            continue
        walk((key,), value)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def run_mutants(variant_name: str, cases: Sequence[Case],
                progress: Callable[[int, int], None] | None = None,
                only: Callable[[Mutation], bool] | None = None) -> list[MutantResult]:
    """Run ``cases`` against every mutant of the variant ``variant_name`` (those ``only``
    keeps, if given: e.g. the option changes).

    Only the cases that run under that variant are used (a case with its own
    house-rule variant tests that file, not this one).
    """
    import yaml

    from ..variant import load_variant

    base = load_variant(variant_name)
    data = _plain(base.data)
    data.pop("extends", None)
    mine = [case for case in cases if case.variant == variant_name]
    results: list[MutantResult] = []
    found = [m for m in mutations(data) if only is None or only(m)]
    with tempfile.TemporaryDirectory(prefix="rummydsl-mutants-") as folder:
        for number, mutation in enumerate(found):
            if progress is not None:
                progress(number, len(found))
            changed = copy.deepcopy(data)
            mutation.apply(changed)
            changed["id"] = f"{data['id']}_mutant_{number}"
            path = Path(folder) / f"mutant_{number}.yaml"
            path.write_text(yaml.safe_dump(changed, sort_keys=False, allow_unicode=True), encoding="utf-8")
            try:
                load_variant(str(path))
            except VariantError as problem:
                first = problem.errors[0] if problem.errors else problem.diagnostics[0]
                results.append(MutantResult(mutation, "invalid", reason=first.message))
                continue
            failed = tuple(case.id for case in mine
                           if not run_case(dataclasses.replace(case, variant=str(path))).passed)
            results.append(MutantResult(mutation, "noticed" if failed else "survived", failed))
    return results


def report(results: Sequence[MutantResult]) -> Iterator[str]:
    """Lines for the terminal: the survivors, then the score."""
    valid = [r for r in results if r.status != "invalid"]
    noticed = [r for r in valid if r.status == "noticed"]
    for result in valid:
        if result.status == "survived":
            yield f"not noticed: {result.mutation.label}"
    yield f"{len(noticed)} of {len(valid)} mutants noticed" + (
        f" ({len(results) - len(valid)} invalid, not counted)" if len(valid) != len(results) else "")
