"""Which rule ids and option values of a rules document no conformance case cites.

A rules document is RULES.md (or RULES-FAMILY.md): numbered rules such as
``**GR-9.2**`` or ``- GR-2.1 ...`` under sections ``## GR — ...``, and options
written ``[OPT name = default | alt | ...]``. A case cites rules with ``rule:``
and option values with ``option: name=value``; an option cited by a case counts
for the sections of the case's rule ids. A free value (``n``, ``any integer``)
is covered by a case citing any value that is not one of the named ones.

>>> text = '''## GR — Gin
... - GR-2.1 Deal. [OPT void_redeal = same_dealer | rotate]
... **GR-3 Melds.**'''
>>> rules, options = read_rules(text)
>>> rules, options
(['GR-2.1', 'GR-3'], {('GR', 'void_redeal'): ('same_dealer', 'rotate')})
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .suite import Case

__all__ = ["read_rules", "Coverage", "coverage"]

_SECTION = re.compile(r"^## ([A-Z][A-Z0-9]{1,2}) —(.*?)(?=^## |\Z)", re.M | re.S)
_DEFINED = re.compile(r"^(?:\s*-\s+|\*\*)([A-Z][A-Z0-9]{1,2}-\d+(?:\.\d+)?)\b", re.M)
_OPTION = re.compile(r"\[OPT (\w+) = ([^\]]+)\]")
_FREE = ("n",)


def read_rules(text: str) -> tuple[list[str], dict[tuple[str, str], tuple[str, ...]]]:
    """The rule ids a document defines (leaves: a rule with sub-rules is covered by them)
    and its options: ``(section, name) -> listed values``."""
    defined: list[str] = []
    options: dict[tuple[str, str], tuple[str, ...]] = {}
    for section, body in _SECTION.findall(text):
        for rule in _DEFINED.findall(body):
            if rule.startswith(section + "-") and rule not in defined:
                defined.append(rule)
        for name, values in _OPTION.findall(body):
            listed = tuple(v.strip() for v in values.split("|") if v.strip() and v.strip() != "…")
            key = (section, name)
            options[key] = tuple(dict.fromkeys(options.get(key, ()) + listed))
    leaves = [rule for rule in defined if not any(other.startswith(rule + ".") for other in defined)]
    return leaves, options


def _free(value: str) -> bool:
    return value in _FREE or value.startswith("any integer")


@dataclass(frozen=True)
class Coverage:
    """What the cases cite of a rules document, and what they miss."""

    rules: tuple[str, ...]
    """Every rule id the document defines (leaves)."""
    missing_rules: tuple[str, ...]
    """Rule ids no case cites."""
    missing_options: tuple[str, ...]
    """``SECTION name=value`` of option values no case cites."""
    unknown_rules: tuple[str, ...]
    """Rule ids cases cite that the document does not define (of its sections)."""

    @property
    def complete(self) -> bool:
        return not self.missing_rules and not self.missing_options

    def report(self) -> str:
        lines = [f"{len(self.rules) - len(self.missing_rules)} of {len(self.rules)} rule ids cited"]
        if self.missing_rules:
            lines.append("rule ids no case cites: " + ", ".join(self.missing_rules))
        if self.missing_options:
            lines.append("option values no case cites: " + ", ".join(self.missing_options))
        if self.unknown_rules:
            lines.append("cited but not in the rules: " + ", ".join(self.unknown_rules))
        return "\n".join(lines)


def coverage(text: str, cases: Iterable[Case]) -> Coverage:
    """The coverage of a rules document's ids and options by ``cases``."""
    rules, options = read_rules(text)
    sections = {rule.split("-")[0] for rule in rules}
    cited: set[str] = set()
    cited_options: set[tuple[str, str, str]] = set()
    for case in cases:
        case_rules = case.rules
        cited.update(case_rules)
        prefixes = {rule.split("-")[0] for rule in case_rules} or {section for section, _ in options}
        for option in case.options:
            name, _, value = option.partition("=")
            for prefix in prefixes:
                cited_options.add((prefix, name, value))
    covered = set()
    for rule in rules:
        if rule in cited or any(c.startswith(rule + ".") for c in cited):
            covered.add(rule)
    # a cited parent id (GR-2) does not cover its leaves; a cited leaf covers itself
    missing_rules = tuple(rule for rule in rules if rule not in covered)
    missing_options: list[str] = []
    for (section, name), listed in options.items():
        named = [v for v in listed if not _free(v)]
        for value in listed:
            if _free(value):
                hit = any(p == section and n == name and v not in named for p, n, v in cited_options)
            else:
                hit = (section, name, value) in cited_options
            if not hit:
                missing_options.append(f"{section} {name}={value}")
    unknown = sorted(rule for rule in cited if rule.split("-")[0] in sections and rule not in rules
                     and not any(r.startswith(rule + ".") for r in rules))
    return Coverage(tuple(rules), missing_rules, tuple(missing_options), tuple(unknown))
