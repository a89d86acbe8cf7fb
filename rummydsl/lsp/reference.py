"""Hover text: the schema's descriptions for keys, docs/language.md for expressions.

The language reference is the one place names and functions are explained in
words, so hover reads its tables (the "Contexts" section of docs/language.md, which
tests/unit/test_docs.py holds true to the checker) instead of a second copy. The
installed package carries docs/ as ``rummydsl.docs``; a source checkout reads the
folder beside the package.

>>> entry = expression_help("card", "pips")
>>> entry.startswith("`pips`: int")
True
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path

__all__ = ["language_reference", "expression_help", "CONTEXT_HEADINGS"]

CONTEXT_HEADINGS = {"card": "Card context", "meld": "Meld context", "contract": "Contract context",
                    "round": "Round context", "score": "Score context", "deal": "Deal context",
                    "next_deal": "Next-deal context",
                    "melded": "Melded-card context", "reward": "Reward context"}
"""The docs/language.md heading of each expression context's table."""

_SOURCE_DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


@lru_cache(maxsize=1)
def language_reference() -> str:
    """The text of docs/language.md, or ``""`` if this install has none."""
    folders: list[Path] = []
    try:
        spec = importlib.util.find_spec("rummydsl.docs")
    except ModuleNotFoundError:
        spec = None
    if spec is not None:
        folders.extend(Path(location) for location in spec.submodule_search_locations or ())
    folders.append(_SOURCE_DOCS)
    for folder in folders:
        try:
            return (folder / "language.md").read_text(encoding="utf-8")
        except OSError:
            continue
    return ""


@lru_cache(maxsize=1)
def _tables() -> dict[tuple[str, str], str]:
    """(context, name) -> "`name`: type. meaning" from the context tables."""
    found: dict[tuple[str, str], str] = {}
    context = ""
    headings = {heading: name for name, heading in CONTEXT_HEADINGS.items()}
    for line in language_reference().splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            context = next((name for heading, name in headings.items() if title.startswith(heading)), "")
            continue
        if not context or not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        names_cell, type_cell, meaning = cells[0], cells[1], cells[2]
        for written in re.findall(r"`([^`]+)`", names_cell):
            name = re.match(r"[a-z_]+", written)
            if name and (context, name.group(0)) not in found:
                found[(context, name.group(0))] = f"`{written}`: {type_cell}. {meaning}"
    return found


def _context_chain(context: str) -> list[str]:
    # The score context has every round-context name, the melded-card context every
    # card-context name (docs/language.md says so).
    if context == "melded":
        return [context, "card"]
    if context == "reward":  # a learning environment's reward= (docs/environments.md)
        return [context, "score", "round"]
    return [context, "round"] if context == "score" else [context]


def expression_help(context: str, name: str) -> str | None:
    """The reference's words for ``name`` in the expression ``context``, if any.

    The functions every context has (``min``, ``max``, ``abs``) are explained by the
    sentence of the Contexts section that names them.

    >>> expression_help("meld", "abs")
    'Every context has the options, and the functions `min(a, b, ...)`, `max(a, b, ...)` and `abs(a)` on integers.'
    >>> expression_help("card", "nonsense") is None
    True
    """
    for where in _context_chain(context):
        entry = _tables().get((where, name))
        if entry is not None:
            return entry
    text = language_reference()
    for paragraph in re.split(r"\n\s*\n", text):
        if paragraph.startswith("Every context has") and f"`{name}(" in paragraph:
            return " ".join(paragraph.split())
    return None
