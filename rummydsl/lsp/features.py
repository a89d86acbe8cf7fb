"""What the language server answers, as plain data (no pygls here).

* :func:`diagnostics`: ``check``'s problems of an unsaved text, placed as ranges;
* :func:`hover`: the schema's description of a key, or the language reference's
  words for an expression name or function;
* :func:`completions`: keys at the cursor's place in the tree, enum values, shipped
  ids after ``extends:``, the parent's option names and meld kinds, and the names
  and functions valid in an expression field's context;
* :func:`definition`: the parent file of ``extends:``.

Lines and columns here count from 0, as the Language Server Protocol does;
rummydsl's diagnostics count from 1.

>>> [c.label for c in completions("/tmp/x.yaml", "deck: {preset: standard52, ace: b", 0, 34)]
['both']
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Sequence

from ..errors import VariantError
from ..resources import read_spec_text
from .place import KeyPath, Place, place_at, word_at
from .reference import expression_help

__all__ = ["Span", "Problem", "Completion", "diagnostics", "hover", "completions", "definition",
           "expression_context", "parent_file", "merged_tree", "schema_key_paths"]


@dataclass(frozen=True)
class Span:
    """A range of one line: ``line``, and columns ``start`` to ``end`` (from 0)."""

    line: int
    start: int
    end: int


@dataclass(frozen=True)
class Problem:
    """One diagnostic, placed in the file being edited."""

    span: Span
    message: str
    severity: Literal["error", "warning"]
    rule: str


@dataclass(frozen=True)
class Completion:
    """One completion item."""

    label: str
    kind: Literal["key", "value", "function", "name", "variant"]
    detail: str = ""
    documentation: str = ""


# -- diagnostics --------------------------------------------------------------------

def diagnostics(path: str, text: str) -> list[Problem]:
    """``check``'s problems of ``text`` checked as the content of ``path``.

    A problem in the file is placed where ``check`` places it, spanning the word
    or quoted string there. A problem ``check`` reports in a parent file is shown
    on this file's ``extends:`` value, prefixed with the parent's place.
    """
    from ..variant import check_file

    lines = text.splitlines()
    found = check_file(path, text)
    merged_tree(path, text)  # remember the names of a readable text for completion
    own = os.path.abspath(path)
    problems: list[Problem] = []
    for diagnostic in found:
        if _same_file(diagnostic.location.path, own):
            span = _span(lines, diagnostic.location.line, diagnostic.location.column)
            message = diagnostic.message
        else:
            span = _extends_span(lines)
            message = f"{diagnostic.location}: {diagnostic.message}"
        problems.append(Problem(span, message, diagnostic.severity, diagnostic.rule))
    return problems


def _same_file(reported: str, own: str) -> bool:
    try:
        return os.path.abspath(reported) == own
    except (ValueError, OSError):
        return False


def _span(lines: Sequence[str], line: int, column: int) -> Span:
    if line <= 0 or line > len(lines):
        return Span(0, 0, len(lines[0]) if lines else 0)
    text = lines[line - 1]
    if column <= 0:
        return Span(line - 1, len(text) - len(text.lstrip()), len(text))
    start = min(column - 1, len(text))
    if start < len(text) and text[start] in "\"'":
        close = text.find(text[start], start + 1)
        end = close + 1 if close > 0 else len(text)
    else:
        end = word_at(text, start)[1] if start < len(text) and word_at(text, start)[0] == start else start
    return Span(line - 1, start, max(end, start + 1) if start < len(text) else start)


def _extends_span(lines: Sequence[str]) -> Span:
    for number, text in enumerate(lines):
        match = re.match(r"extends\s*:\s*(\S.*?)\s*(#.*)?$", text)
        if match:
            return Span(number, match.start(1), match.end(1))
    return Span(0, 0, len(lines[0]) if lines else 0)


# -- the schema at a key path ---------------------------------------------------------

@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    import json

    loaded: dict[str, Any] = json.loads(read_spec_text("variant.schema.json"))
    return loaded


def _resolve(node: Any) -> list[dict[str, Any]]:
    """``node`` and every branch of it (``$ref``, ``oneOf``, ``anyOf``), flattened."""
    if not isinstance(node, dict):
        return []
    found = [node]
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found.extend(_resolve(_schema()["$defs"].get(ref[len("#/$defs/"):])))
    for keyword in ("oneOf", "anyOf", "allOf"):
        for branch in node.get(keyword, ()):
            found.extend(_resolve(branch))
    return found


def _schemas_at(path: KeyPath) -> list[dict[str, Any]]:
    """Every schema (branch) that may describe the value at ``path``."""
    current = _resolve(_schema())
    for step in path:
        following: list[dict[str, Any]] = []
        for node in current:
            if isinstance(step, int):
                following.extend(_resolve(node.get("items")))
            elif step in node.get("properties", {}):
                following.extend(_resolve(node["properties"][step]))
            elif isinstance(node.get("additionalProperties"), dict):
                following.extend(_resolve(node["additionalProperties"]))
        current = following
    return current


def _description(path: KeyPath) -> str | None:
    for node in _schemas_at(path):
        if "description" in node:
            return str(node["description"])
    return None


def _keys_at(path: KeyPath) -> dict[str, Any]:
    keys: dict[str, Any] = {}
    for node in _schemas_at(path):
        for key, sub in node.get("properties", {}).items():
            keys.setdefault(key, sub)
    return keys


def schema_key_paths(path: KeyPath = (), depth: int = 8) -> list[KeyPath]:
    """Every key path the schema names, below ``path`` (a list item is index 0).

    >>> ("game", "hollywood", "games") in schema_key_paths()
    True
    """
    found: list[KeyPath] = []
    if depth == 0:
        return found
    for key in _keys_at(path):
        below = path + (key,)
        found.append(below)
        found.extend(schema_key_paths(below, depth - 1))
        if any("items" in node for node in _schemas_at(below)):
            found.extend(schema_key_paths(below + (0,), depth - 1))
    return list(dict.fromkeys(found))


def _values_at(path: KeyPath) -> list[str]:
    values: list[str] = []
    for node in _schemas_at(path):
        for value in node.get("enum", ()):
            if isinstance(value, str) and value not in values:
                values.append(value)
        if "const" in node and str(node["const"]) not in values:
            values.append(str(node["const"]))
        types = node.get("type")
        if types == "boolean" or isinstance(types, list) and "boolean" in types:
            values.extend(v for v in ("true", "false") if v not in values)
    return values


def _summary(path: KeyPath) -> str:
    """A key's hover text: its description, default and allowed values."""
    parts = []
    description = _description(path)
    if description:
        parts.append(description)
    defaults = [node["default"] for node in _schemas_at(path) if "default" in node]
    if defaults:
        default = defaults[0]
        shown = "true" if default is True else "false" if default is False else default
        parts.append(f"Default: `{shown}`.")
    values = [v for v in _values_at(path) if v not in ("true", "false")]
    if values:
        parts.append("One of: " + ", ".join(f"`{v}`" for v in values) + ".")
    return "\n\n".join(parts)


# -- expression fields ---------------------------------------------------------------

def expression_context(path: KeyPath) -> str | None:
    """The expression context of the field at ``path``, or None if it holds no expression.

    >>> expression_context(("melds", "run")), expression_context(("scoring", "round", 0, "when"))
    ('meld', 'score')
    >>> expression_context(("game", "target")) is None
    True
    """
    keys = tuple(step for step in path if isinstance(step, str))
    if keys == ("card_value",) or keys[-2:] == ("draw", "skip_after_accepting") and keys[0] == "turn":
        return "card"
    if keys[:1] == ("melds",) and (len(keys) == 2 or len(keys) == 3 and keys[2] == "pattern"):
        return "meld"
    if keys == ("contract", "melds"):
        return "contract"
    if keys == ("melded_value",):
        return "melded"
    if keys == ("knock", "limit"):
        return "round"
    if keys == ("deal", "hand_size"):
        return "deal"
    if keys == ("deal", "sit_out"):
        return "next_deal"
    if keys[:1] == ("scoring",) and (keys[1:2] == ("multiplier",) or keys[1:2] == ("let",) and len(keys) == 3
                                     or keys[1:2] == ("round",) and keys[-1:] != ("rule",) and len(keys) == 3):
        return "score"
    return None


def _expression_names(context: str, merged: dict[str, Any]) -> list[Completion]:
    from ..expr import Context, context_functions, context_names

    ctx = Context(context)
    items = [Completion(name, "name", "built-in name", expression_help(context, name) or "")
             for name in context_names(ctx, True)]
    items += [Completion(name, "function", "function", expression_help(context, name) or "")
              for name in context_functions(ctx)]
    options = merged.get("options")
    if isinstance(options, dict):
        items += [Completion(str(name), "name", "option", _option_detail(value))
                  for name, value in options.items() if value is not None]
    scoring = merged.get("scoring")
    lets = scoring.get("let") if isinstance(scoring, dict) else None
    if context == "score" and isinstance(lets, dict):
        items += [Completion(str(name), "name", "let", str(value)) for name, value in lets.items()]
    if context == "contract":
        items += [Completion(str(kind), "name", "meld kind", "") for kind in _meld_kinds(merged)]
    return items


def _option_detail(value: Any) -> str:
    if isinstance(value, dict):
        shown = value.get("value")
        text = value.get("description", "")
        return f"= {shown}" + (f": {text}" if text else "")
    return f"= {value}"


def _meld_kinds(merged: dict[str, Any]) -> list[str]:
    melds = merged.get("melds")
    return [str(k) for k, v in melds.items() if v is not None] if isinstance(melds, dict) else []


# -- the merged tree, for names ---------------------------------------------------------

_LAST_GOOD: dict[str, dict[str, Any]] = {}
"""The merged tree of each file the last time its text could be read, so names
stay known while a line is half-typed."""


def merged_tree(path: str, text: str) -> dict[str, Any]:
    """The file's tree merged onto its parents, or the last one that could be read."""
    from ..variant.extends import resolve

    key = os.path.abspath(path)
    try:
        data = resolve(path, text=text).data
    except VariantError:
        return _LAST_GOOD.get(key, {})
    if isinstance(data, dict):
        _LAST_GOOD[key] = data
        return data
    return _LAST_GOOD.get(key, {})


def forget(path: str) -> None:
    """Forget the last readable tree remembered for ``path`` (:func:`merged_tree`): a
    server completing texts of many people must not offer one person's names to another."""
    _LAST_GOOD.pop(os.path.abspath(path), None)


def _parent_tree(path: str, merged: dict[str, Any]) -> dict[str, Any]:
    from ..variant.extends import resolve

    target = parent_file(path, merged.get("extends"))
    if target is None:
        return {}
    try:
        data = resolve(target).data
    except VariantError:
        return {}
    from ..variant import is_variant_id

    # Only a variant's names are offered (docs/security.md): a YAML file that is no
    # variant never has its keys shown, even one the reach rule lets a file name.
    own_id = data.get("id") if isinstance(data, dict) else None
    return data if isinstance(own_id, str) and is_variant_id(own_id) else {}


# -- hover -----------------------------------------------------------------------

def hover(path: str, text: str, line: int, column: int) -> str | None:
    """Markdown for what is at ``line``, ``column``: a key, an enum value, or a name
    or function in an expression."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    line, column = clamp(lines, line, column)
    current = lines[line]
    start, end = word_at(current, column)
    if start == end:
        return None
    word = current[start:end]
    place = place_at(lines, line, end)
    if place.role == "comment":
        return None
    if place.expression is not None:
        context = expression_context(place.path)
        if context is None:
            return None
        help_text = expression_help(context, word)
        if help_text is not None:
            return f"{help_text}\n\n*{context} context* (docs/language.md)"
        options = merged_tree(path, text).get("options")
        if isinstance(options, dict) and word in options:
            return f"`{word}`: option {_option_detail(options[word])}"
        return None
    rest = current[end:].lstrip()
    if place.role in ("key", "item") and rest.startswith(":"):
        if word not in _keys_at(place.path) and place.path:
            # A name the file chose (a meld kind, an option, a let): say what the map holds.
            where = ".".join(str(step) for step in place.path)
            described = _description(place.path)
            return f"**{word}**: an entry of `{where}`" + (f"\n\n{described}" if described else "")
        summary = _summary(place.path + (word,))
        return f"**{word}**\n\n{summary}" if summary else None
    if place.role in ("value", "item"):
        summary = _summary(place.path)
        return summary or None
    return None


# -- completion ----------------------------------------------------------------------

def clamp(lines: Sequence[str], line: int, column: int) -> tuple[int, int]:
    """A client's position held to the text: a line from 0 to just past the last
    (``len(lines)``, a new empty line), a column from 0 to the end of that line (as
    the LSP says a column past the end means). Positions come from the client and may
    be anything (a completion at line 10**9 once took minutes: the text was padded to it).

    >>> clamp(["game:", "  target: 100"], 10**9, 10**9)
    (2, 0)
    >>> clamp(["game:", "  target: 100"], 1, 99), clamp(["game:"], -5, -5)
    ((1, 13), (0, 0))
    """
    line = max(0, min(line, len(lines)))
    width = len(lines[line]) if line < len(lines) else 0
    return line, max(0, min(column, width))


def completions(path: str, text: str, line: int, column: int) -> list[Completion]:
    """The completions at ``line``, ``column``, filtered by the word being typed."""
    lines = text.splitlines() or [""]
    line, column = clamp(lines, line, column)
    if line == len(lines):  # just past the last line: a new empty line
        lines = [*lines, ""]
    place = place_at(lines, line, column)
    items = _candidates(path, text, place)
    seen: set[str] = set()
    unique = []
    for item in items:
        if item.label.startswith(place.word) and item.label not in seen:
            seen.add(item.label)
            unique.append(item)
    return unique


def _candidates(path: str, text: str, place: Place) -> list[Completion]:
    if place.role == "comment":
        return []
    if place.expression is not None:
        context = expression_context(place.path)
        return _expression_names(context, merged_tree(path, text)) if context else []
    if place.role == "value" and place.path == ("extends",):
        from ..variant import shipped_variant_ids

        return [Completion(i, "variant", "shipped variant") for i in shipped_variant_ids()]
    if place.role == "value" or place.role == "item":
        context = expression_context(place.path)
        if context is not None and place.role == "value":
            return _expression_names(context, merged_tree(path, text))
        values = [Completion(v, "value", _description(place.path) or "") for v in _values_at(place.path)]
        if place.role == "item":
            values += _key_items(place.path)
        return values
    written = _written_keys(path, text, place.path)
    items = [item for item in _key_items(place.path) if item.label not in written]
    if place.path in (("options",), ("melds",)):
        merged = merged_tree(path, text)
        parent = _parent_tree(path, merged)
        if place.path == ("options",) and isinstance(parent.get("options"), dict):
            items += [Completion(str(k), "key", "inherited option", _option_detail(v))
                      for k, v in parent["options"].items()]
        if place.path == ("melds",):
            items += [Completion(k, "key", "inherited meld kind", str(parent["melds"][k]))
                      for k in _meld_kinds(parent)]
    return items


def _written_keys(path: str, text: str, where: KeyPath) -> set[str]:
    """The keys the file already writes in the map at ``where`` (none if the text
    cannot be read), so completion does not offer them again."""
    from ..variant.load import load_document

    try:
        node: Any = load_document(path, text).data
    except VariantError:
        return set()
    for step in where:
        if isinstance(node, dict) and isinstance(step, str):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            return set()
    return {str(key) for key in node} if isinstance(node, dict) else set()


def _key_items(path: KeyPath) -> list[Completion]:
    return [Completion(key, "key", "", _summary(path + (key,))) for key in _keys_at(path)]


# -- definition -------------------------------------------------------------------------

def parent_file(path: str, extends: Any) -> str | None:
    """The file ``extends`` names from the variant file ``path`` (a shipped id or a
    path relative to its folder), if it exists.

    >>> parent_file("/nowhere/house.yaml", "gin_rummy").endswith("gin_rummy.yaml")
    True
    """
    from .. import resources
    from ..variant import is_variant_id

    if not isinstance(extends, str) or not extends:
        return None
    if "/" in extends or "\\" in extends or extends.endswith((".yaml", ".yml")):
        # The same reach as check's (docs/security.md): an editor never opens a file
        # a variant may not name.
        from ..untrusted import reach_refusal, reach_root, refusal
        from ..variant.extends import shipped_folders

        folder = Path(path).resolve().parent
        if reach_refusal(extends, str(folder), reach_root(path), also=shipped_folders()) is not None:
            return None
        target = folder / extends
        if refusal(target, variant=True) is not None:
            return None
    elif is_variant_id(extends):
        target = resources.variants_dir() / f"{extends}.yaml"
    else:
        return None
    return str(target.resolve()) if target.is_file() else None


def definition(path: str, text: str, line: int, column: int) -> str | None:
    """The parent file, when the cursor is on the value of ``extends:``."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    match = re.match(r"extends\s*:\s*(['\"]?)(?P<value>[^'\"#\s]+)\1", lines[line])
    if not match or not match.start("value") <= column <= match.end("value"):
        return None
    return parent_file(path, match.group("value"))


