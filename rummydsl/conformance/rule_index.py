"""The rule ids of the rules documents with their one-line meaning, shipped as
``spec/rules.json`` so that an installed rummydsl can say what ``GR-9.2`` is
(``rummydsl rules``).

The rules documents (RULES.md and RULES-FAMILY.md, beside the repository) define each
rule as a bold heading (``**GR-9 Round score.** ...``) or a bullet under one
(``- GR-9.2 Undercut: if ...``). A rule's meaning is its heading's title, and for a
sub-rule that title, a colon and the sub-rule's first sentence:

>>> text = '''## GR — Gin Rummy
... **GR-9 Round score.** Let `k` = the knocker deadwood,
... `d` the defender's.
... - GR-9.2 Undercut: if `d <= k` the defender scores
...   `k - d` `[OPT undercut_bonus = 25 | 20]`. More text.
... '''
>>> for rule, meaning in rule_meanings(text).items():
...     print(rule, "|", meaning)
GR-9 | Round score: Let k = the knocker deadwood, d the defender's.
GR-9.2 | Round score: Undercut: if d <= k the defender scores k - d.

Regenerate the index after the documents change (``tests/unit/test_rule_index.py``
says when):
``python -m rummydsl.conformance.rule_index ../shared/RULES.md ../shared/RULES-FAMILY.md > spec/rules.json``
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from typing import Any

__all__ = ["rule_meanings", "rule_texts", "rule_index", "rule_text_index", "RULE_ID", "MAX_MEANING"]

RULE_ID = re.compile(r"[A-Z][A-Z0-9]{0,2}-\d+(?:\.\d+)?")
"""What a rule id looks like (``GR-9.2``, ``R5-3``, ``C-6``)."""

MAX_MEANING = 160
"""The most characters of a meaning; a longer first sentence is cut at a word, with '...'."""

_HEADING = re.compile(r"^(?:-\s+)?\*\*(" + RULE_ID.pattern + r")\s+(.*?)\*\*\s*(.*)$")
_BULLET = re.compile(r"^-\s+(" + RULE_ID.pattern + r")\s+(.*)$")
_OPTION = re.compile(r"\s*`?\[OPT [^\]]*\]`?")


def _plain(text: str) -> str:
    """Markdown made plain: no option marks, backquotes or bold; spaces made single."""
    text = _OPTION.sub("", text)
    text = text.replace("`", "").replace("**", "")
    return " ".join(text.split())


def _plain_whole(text: str) -> str:
    """Markdown made plain, keeping the option marks (``[option: knock_limit = 10 | ...]``):
    a whole rule's text reads wrong without them."""
    text = re.sub(r"`?\[OPT ([^\]]*)\]`?", r"[option: \1]", text)
    return _plain(text)


def _first_sentence(text: str) -> str:
    text = _plain(text)
    match = re.search(r"(?<!e\.g)(?<!i\.e)(?<!\bvs)\.(\s|$)", text)
    sentence = text[: match.start() + 1] if match else text
    if len(sentence) > MAX_MEANING:
        sentence = sentence[: MAX_MEANING - 3].rsplit(" ", 1)[0] + "..."
    return sentence


def rule_meanings(text: str) -> dict[str, str]:
    """Each rule id a rules document defines, with its one-line meaning, in order."""
    return {rule: meaning for rule, meaning, _ in _rules(text)}


def rule_texts(text: str) -> dict[str, str]:
    """Each rule id a rules document defines, with its whole text made plain (its title and
    every sentence of its paragraph or bullet; sub-rules are rules of their own):

    >>> rule_texts("**GR-5 Normal turn.** Draw a card,\\nthen discard. Not the one taken.")["GR-5"]
    'Normal turn: Draw a card, then discard. Not the one taken.'
    """
    return {rule: whole for rule, _, whole in _rules(text)}


def _rules(text: str) -> list[tuple[str, str, str]]:
    """(rule id, one-line meaning, whole text) for each rule, first definition kept."""
    # Join each line that starts no rule, heading or list item onto the one before.
    logical: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        starts = stripped.startswith(("- ", "* ", "**", "#", "|", "```")) or not stripped
        if logical and logical[-1] and not starts:
            logical[-1] += " " + stripped
        else:
            logical.append(stripped)
    found: dict[str, tuple[str, str, str]] = {}
    titles: dict[str, str] = {}  # rule id -> the title its sub-rules take
    title: str | None
    for line in logical:
        heading = _HEADING.match(line)
        bullet = None if heading else _BULLET.match(line)
        if heading:
            rule, title, rest = heading.group(1), _plain(heading.group(2)).rstrip("."), heading.group(3)
            titles[rule] = title
            first, whole = (_first_sentence(rest), _plain_whole(rest)) if rest.strip() else ("", "")
            found.setdefault(rule, (rule, f"{title}: {first}" if first else f"{title}.",
                                    f"{title}: {whole}" if whole else f"{title}."))
        elif bullet:
            rule, first, whole = bullet.group(1), _first_sentence(bullet.group(2)), _plain_whole(bullet.group(2))
            if len(first.split()) <= 3 and first.endswith("."):
                titles[rule] = first.rstrip(".")  # 'KR-4 Scoring.': a title for KR-4.1 ...
            title = titles.get(rule.rsplit(".", 1)[0]) if "." in rule else None
            found.setdefault(rule, (rule, f"{title}: {first}" if title else first,
                                    f"{title}: {whole}" if title else whole))
    return list(found.values())


@lru_cache(maxsize=1)
def _shipped() -> dict[str, Any]:
    """``spec/rules.json``, read once."""
    from ..resources import read_spec_text

    data: dict[str, Any] = json.loads(read_spec_text("rules.json"))
    return data


@lru_cache(maxsize=1)
def rule_index() -> dict[str, str]:
    """The shipped index: rule id -> its one-line meaning (``spec/rules.json``)."""
    return {str(rule): str(meaning) for rule, meaning in _shipped()["rules"].items()}


@lru_cache(maxsize=1)
def rule_text_index() -> dict[str, str]:
    """The shipped whole texts: rule id -> every sentence of the rule (``spec/rules.json``)."""
    return {str(rule): str(text) for rule, text in _shipped().get("texts", {}).items()}


def _main(paths: list[str]) -> int:
    meanings: dict[str, str] = {}
    texts: dict[str, str] = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for rule, meaning, whole in _rules(handle.read()):
                if rule not in meanings:
                    meanings[rule], texts[rule] = meaning, whole
    json.dump({"about": "The rule ids of RULES.md and RULES-FAMILY.md with their one-line meaning "
                        "and their whole text (rummydsl rules); made by python -m "
                        "rummydsl.conformance.rule_index.",
               "rules": meanings, "texts": texts}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
