"""Conformance suite files: read, checked against spec/conformance.schema.json, turned into cases.

A suite is YAML (docs/conformance.md): a ``variant`` and a list of ``cases``, each a
meld case, a hand case or a scripted round. :func:`load_suite` reads one file with
the variant loader's safe YAML reader (limits, positions), checks it against the
schema and a few rules the schema cannot say (unique ids, the setup's seats),
and returns a :class:`Suite` whose cases know their place in the file, down to
each action's line. Every problem is reported at ``path:line:col`` in a
:class:`~rummydsl.errors.SuiteError`; nothing else escapes.

>>> from rummydsl.resources import variants_dir
>>> SUITE_SUFFIXES
('.suite.yaml', '.suite.yml')
"""

from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..errors import Diagnostic, Location, SuiteError, VariantError
from ..limits import MAX_PLAYERS
from ..paths import exists, is_dir, is_file
from ..resources import read_spec_text
from ..untrusted import named_refusal, reach_refusal, reach_root, refusal

__all__ = ["Case", "Suite", "load_suite", "find_suites", "suite_schema", "SUITE_SUFFIXES"]

#: File names that folders are searched for (a file named on the command line runs whatever its name).
SUITE_SUFFIXES = (".suite.yaml", ".suite.yml")

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Case:
    """One case of a suite, as written, with where it is."""

    id: str
    kind: str
    """``meld``, ``hand`` or ``script``."""
    data: dict[str, Any] = field(repr=False)
    """The case's mapping as read (plain data)."""
    location: Location
    """Where the case's ``id`` is."""
    variant: str
    """The variant file the case runs under (resolved: a shipped id or an absolute path)."""
    suite: str
    """The suite file."""
    action_locations: tuple[Location, ...] = ()
    """Where each action of ``actions`` is."""
    expect_locations: dict[str, Location] = field(default_factory=dict, repr=False)
    """Where each expectation key is."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids the case cites."""
        rule = self.data.get("rule")
        if rule is None:
            return ()
        return (rule,) if isinstance(rule, str) else tuple(rule)

    @property
    def options(self) -> tuple[str, ...]:
        """The ``name=value`` options the case cites."""
        option = self.data.get("option")
        if option is None:
            return ()
        return (option,) if isinstance(option, str) else tuple(option)

    @property
    def own_variant(self) -> bool:
        """Whether the case names its own variant (a house rule) instead of the suite's."""
        return "variant" in self.data

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.data.get("tags", ()))

    @property
    def skip(self) -> str | None:
        """The reason to skip the case, if any."""
        reason = self.data.get("skip")
        return reason if isinstance(reason, str) else None

    @property
    def description(self) -> str:
        return str(self.data.get("description", ""))

    @property
    def name(self) -> str:
        """The case's id with its first rule id, as reports show it."""
        return f"{self.id} [{', '.join(self.rules)}]" if self.rules else self.id


@dataclass(frozen=True)
class Suite:
    """A checked suite file."""

    path: str
    variant: str
    description: str
    cases: tuple[Case, ...]


@lru_cache(maxsize=1)
def suite_schema() -> dict[str, Any]:
    """The suite JSON Schema (spec/conformance.schema.json)."""
    schema: dict[str, Any] = json.loads(read_spec_text("conformance.schema.json"))
    return schema


@lru_cache(maxsize=1)
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(suite_schema())


@lru_cache(maxsize=1)
def _fast_valid() -> Callable[[Any], bool]:
    """The suite schema's compiled yes/no check (as for variants): jsonschema runs only
    when it does not answer "valid", so every message still comes from jsonschema."""
    from ..variant.schema import fast_validity

    return fast_validity(suite_schema())


def find_suites(paths: Sequence[str]) -> list[str]:
    """The suite files named, and those found in the folders named (``*.suite.yaml``), sorted.

    :raises SuiteError: for a path that does not exist, or a folder that cannot be
        walked (a file vanishing under it while it is read, as in ``/proc``).
    """
    found: list[str] = []
    problems = []
    for name in paths:
        path = Path(name)
        if is_dir(path):
            try:
                walked = sorted(str(p) for p in path.rglob("*") if p.name.endswith(SUITE_SUFFIXES))
            except OSError as problem:
                problems.append(Diagnostic(Location(name), f"cannot read the folder {name!r}: "
                                                           f"{problem.strerror or problem}", "io"))
                continue
            for file in walked:
                reason = named_refusal(file, walked=name)  # a link out of the folder: not read
                if reason is None:
                    found.append(file)
                elif is_file(file) or exists(file):
                    problems.append(Diagnostic(Location(file), f"cannot read the suite: {reason}", "io"))
        elif named_refusal(path) is not None and (is_file(path) or exists(path)):
            # Only a regular *.yaml/*.yml file is read: never a FIFO, device or /proc entry.
            problems.append(Diagnostic(Location(name), f"cannot read the suite: {named_refusal(path)}", "io"))
        elif is_file(path):
            found.append(str(path))
        else:
            problems.append(Diagnostic(Location(name), f"no such file or folder: {name!r}", "io"))
    if problems:
        raise SuiteError(problems)
    return list(dict.fromkeys(found))


def load_suite(path: str) -> Suite:
    """Read and check one suite file.

    :raises SuiteError: with every problem found, each at ``path:line:col``.
    """
    from ..variant.load import SUITE_LIMITS, load_document
    from ..variant.schema import located_errors

    try:
        document = load_document(path, limits=SUITE_LIMITS)
    except VariantError as problem:
        # The YAML reader's limits are the same for both kinds of file; say which this is.
        raise SuiteError(Diagnostic(d.location, d.message.replace("a variant file", "a suite file"),
                                    d.rule, d.severity, d.snippet) for d in problem.diagnostics) from None
    data = document.data
    positions = document.positions
    problems = [] if _fast_valid()(data) else located_errors(_validator(), data, positions)
    if problems:
        raise SuiteError(_name_cases(problems, data, positions))
    base = Path(path).resolve().parent
    root = reach_root(path)
    suite_variant = _resolve_variant(str(data["variant"]), base, root, positions.value(("variant",)))
    cases: list[Case] = []
    seen: dict[str, Location] = {}
    for index, raw in enumerate(data["cases"]):
        where: KeyPath = ("cases", index)
        location = positions.value(where + ("id",))
        case_id = str(raw["id"])
        if case_id in seen:
            problems.append(Diagnostic(location, f"case id {case_id!r} is used twice (first at line "
                                                 f"{seen[case_id].line})", "suite-id"))
            continue
        seen[case_id] = location
        kind = "meld" if "meld" in raw else "hand" if "hand" in raw else "script"
        try:
            variant = (_resolve_variant(str(raw["variant"]), base, root, positions.value(where + ("variant",)))
                       if "variant" in raw else suite_variant)
        except SuiteError as refused:
            problems.extend(_name_cases(refused.diagnostics, data, positions))
            continue
        problems.extend(_check_case(raw, kind, where, positions))
        actions = raw.get("actions", ())
        if isinstance(actions, str):
            action_locations: tuple[Location, ...] = (positions.value(where + ("actions",)),)
        else:
            action_locations = tuple(positions.value(where + ("actions", i)) for i in range(len(actions)))
        expect_locations = {key: positions.value(where + ("expect", key)) for key in raw.get("expect", {})}
        cases.append(Case(case_id, kind, raw, location, variant, path, action_locations, expect_locations))
    if problems:
        raise SuiteError(problems)
    return Suite(path, suite_variant, str(data.get("description", "")), tuple(cases))


def _name_cases(problems: Sequence[Diagnostic], data: Any, positions: Any) -> list[Diagnostic]:
    """The problems, each inside a case led by that case's id (``case 'gin-1': ...``),
    so a suite's problem names the case as well as its line."""
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list) or not cases:
        return list(problems)
    starts = [(positions.value(("cases", i)).line, positions.value(("cases", i)).column)
              for i in range(len(cases))]
    named = []
    for problem in problems:
        index = bisect.bisect_right(starts, (problem.location.line, problem.location.column)) - 1
        case = cases[index] if index >= 0 else None
        case_id = case.get("id") if isinstance(case, dict) else None
        if isinstance(case_id, (str, int)) and not isinstance(case_id, bool):
            problem = Diagnostic(problem.location, f"case {str(case_id)!r}: {problem.message}",
                                 problem.rule, problem.severity, problem.snippet)
        named.append(problem)
    return named


_FOR_KIND = {
    "meld": ("valid", "kinds"),
    "hand": ("deadwood", "contract", "best_discard", "deadwood_after_discard"),
}


def _check_case(raw: dict[str, Any], kind: str, where: KeyPath, positions: Any) -> Iterator[Diagnostic]:
    """What the schema cannot say: expectations that fit the case's form, whole setups."""
    expect = raw.get("expect", {})
    allowed = _FOR_KIND.get(kind)
    for key in expect:
        fits = key in allowed if allowed is not None else all(key not in keys for keys in _FOR_KIND.values())
        if not fits:
            form = {"meld": "a meld case", "hand": "a hand case", "script": "a scripted case"}[kind]
            yield Diagnostic(positions.key(where + ("expect", key)),
                             f"{key!r} is not an expectation of {form}", "suite-expect")
    if kind == "meld" and "actions" in raw:
        yield Diagnostic(positions.key(where + ("actions",)), "a meld case has no actions", "suite-expect")
    if kind == "script":
        setup = raw["setup"]
        seats = sorted(setup["hands"], key=lambda name: int(name[1:]))
        wanted = [f"P{i}" for i in range(1, len(seats) + 1)]
        if not 2 <= len(seats) <= MAX_PLAYERS:
            yield Diagnostic(positions.key(where + ("setup", "hands")),
                             f"case {str(raw['id'])!r}: the setup seats {len(seats)} player{'' if len(seats) == 1 else 's'}; a table "
                             f"seats 2 to {MAX_PLAYERS} (one hand a seat, P1 to Pn)", "suite-setup")
        elif seats != wanted:
            yield Diagnostic(positions.key(where + ("setup", "hands")),
                             f"the hands must be given for seats {', '.join(wanted)} "
                             f"(got {', '.join(seats) or 'none'})", "suite-setup")
        elif int(setup["dealer"][1:]) > len(seats):
            yield Diagnostic(positions.value(where + ("setup", "dealer")),
                             f"the dealer {setup['dealer']} has no hand", "suite-setup")


def _resolve_variant(name: str, base: Path, root: str, where: Location) -> str:
    """A shipped id stays an id; anything else is a variant file named relative to the
    suite file, within the reach of docs/security.md ("Which files a file may name"):
    the rule ``extends:`` follows, checked here by name before anything is opened.

    :raises SuiteError: ``suite-variant``, at ``where``, naming the file and why.
    """
    from ..variant import shipped_variant_ids
    from ..variant.extends import shipped_folders

    if name in shipped_variant_ids() and not is_file(base / name):
        return name
    reason = reach_refusal(name, str(base), root, also=shipped_folders())
    if reason is None:
        reason = refusal(base / name, variant=True)
    if reason is not None:
        raise SuiteError([Diagnostic(where, f"cannot use the variant {name!r}: {reason}", "suite-variant")])
    return str((base / name).resolve())
