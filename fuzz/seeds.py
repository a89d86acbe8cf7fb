"""Seed inputs of each fuzz target, made from the files the repository ships.

``load`` starts from every variant file (shipped, examples good and bad, the
conformance variants), ``suite`` from every conformance suite, ``expr`` from every
expression written in a shipped variant, ``action`` from the actions of the
suites (each with a few deals and depths), ``record`` from a short record that
``simulate --log`` writes, ``cli`` from a few command lines over a shipped file.

``python fuzz/seeds.py TARGET FOLDER`` writes one file a seed into FOLDER (the
harnesses do this themselves for their default corpus folder).
"""

from __future__ import annotations

import hashlib
import io
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import yaml

from targets import REPO, action_input, cli_input

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml where built: the same data, faster

__all__ = ["seeds", "write_seeds", "expressions", "actions"]


def _files(*patterns: str) -> list[Path]:
    found: set[Path] = set()
    for pattern in patterns:
        found.update(p for p in REPO.glob(pattern) if ".venv" not in p.parts)
    return sorted(found)


VARIANT_FILES = ("variants/*.yaml", "tests/examples/**/*.yaml", "tests/conformance/variants/*.yaml")
SUITE_FILES = ("tests/conformance/**/*.suite.yaml",)


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def expressions() -> list[str]:
    """Every string of the shipped variants that parses as an expression."""
    from rummydsl.errors import ExpressionError
    from rummydsl.expr import parse

    found: dict[str, None] = {}
    for path in _files("variants/*.yaml"):
        for text in _strings(yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)):
            try:
                parse(text)
            except ExpressionError:
                continue
            found[text] = None
    return list(found)


def actions() -> list[tuple[str, str]]:
    """(variant id, action text) of every action in the conformance suites whose
    variant is a shipped id."""
    from rummydsl.variant import shipped_variant_ids

    ids = set(shipped_variant_ids())
    found: dict[tuple[str, str], None] = {}
    for path in _files(*SUITE_FILES):
        suite = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        for case in suite.get("cases", []):
            variant = case.get("variant", suite.get("variant"))
            if variant not in ids:
                continue
            listed = case.get("actions", [])
            expect = case.get("expect", {})
            listed = ([listed] if isinstance(listed, str) else list(listed)) + [
                expect.get("illegal", [])] + list(expect.get("legal_includes", []))
            for action in listed:
                for text in [action] if isinstance(action, str) else action:
                    found[(variant, text)] = None
    return list(found)


def _record(*options: str) -> bytes:
    """The record ``simulate gin_rummy --seed 7 OPTIONS --log FILE`` writes."""
    from rummydsl.cli import main

    with tempfile.TemporaryDirectory(prefix="rummydsl-seed-") as folder:
        log = Path(folder) / "game.jsonl"
        main(["simulate", "gin_rummy", "--seed", "7", *options, "--log", str(log)],
             stdout=io.StringIO(), stderr=io.StringIO())
        return log.read_bytes()


def seeds(target: str) -> list[bytes]:
    """The seed inputs of ``target``."""
    if target == "load":
        return [p.read_bytes() for p in _files(*VARIANT_FILES)]
    if target == "suite":
        return [p.read_bytes() for p in _files(*SUITE_FILES)]
    if target == "expr":
        return [text.encode("utf-8") for text in expressions()]
    if target == "action":
        return [action_input(variant, seed, steps, text)
                for index, (variant, text) in enumerate(actions())
                for seed, steps in [(index, 0), (index, 1 + index % 7), (index, 10 + index % 40)]]
    if target == "record":
        return [_record("--hands", "2", "--agents", "random"), _record("--games", "1", "--agents", "greedy")]
    if target == "cli":
        gin = (REPO / "variants" / "gin_rummy.yaml").read_bytes()
        child = b"rummydsl: 1\nid: mine\nextends: gin_rummy\nname: Mine\nknock: {limit: 5}\n"
        return [cli_input(argv, file) for argv, file in [
            (["check", "v.yaml"], gin), (["check", "--json", "v.yaml"], child), (["explain", "v.yaml"], child),
            (["melds", "v.yaml", "5H", "6H", "7H", "9C"], gin), (["melds", "--json", "v.yaml", "AS"], child),
            (["simulate", "v.yaml", "--hands", "1", "--seed", "3"], child), (["schema"], b""),
            (["test", "v.yaml"], b"variant: gin_rummy\ncases:\n- id: a\n  meld: [AS, 2S, 3S]\n"
                                 b"  expect: {valid: true}\n"),
            (["replay", "v.yaml"], _record("--hands", "1")), (["variants"], b""), (["--version"], b"")]]
    raise KeyError(target)


def write_seeds(target: str, folder: Path) -> int:
    """Write ``target``'s seeds into ``folder``, one file each named by its hash; the count."""
    folder.mkdir(parents=True, exist_ok=True)
    made = seeds(target)
    for data in made:
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    return len(made)


if __name__ == "__main__":
    print(write_seeds(sys.argv[1], Path(sys.argv[2])), "seeds")
