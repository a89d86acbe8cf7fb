"""Variant texts posted to the playground: checked, explained and built as a file is.

A text posted to the server is checked with every limit of a variant file
(:data:`~rummydsl.limits.MAX_FILE_BYTES`, the YAML depth, aliases and nodes: the
loader applies them to a text as to a file) and never names a file on the server: its
``extends:`` may name only a shipped variant id, or the id of a text the same session
posted before (``parents``: :mod:`rummydsl.web.sessions`; docs/playground.md, "What the
server reads"). The name a text is shown under is a bare file name (``house.yaml``), never a
path, and no file of that name is read.

>>> [d["message"] for d in check_text("id: h\\nname: H\\nextends: ../../etc/x.yaml\\n")["diagnostics"]]
["the playground's variants may extend only a shipped variant id or the id of a text this session posted, not '../../etc/x.yaml'"]
"""

from __future__ import annotations

import re
import threading
from contextlib import nullcontext
from typing import Any, ContextManager, Mapping

from ..errors import Diagnostic, Location, VariantError
from ..variant import Variant, is_variant_id, load_variant_text, shipped_variant_ids

__all__ = [
    "DEFAULT_NAME",
    "quoted",
    "TextProblem",
    "valid_name",
    "check_text",
    "build_text",
    "text_id",
    "diagnostics_json",
    "shipped_variant",
    "complete_text",
    "hover_text",
]

DEFAULT_NAME = "playground.yaml"
"""The name a posted text is shown under when the request gives none."""

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,63}\.ya?ml")


def quoted(value: Any, limit: int = 80) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters (a request may send any length).

    >>> quoted("house.yaml"), quoted("x" * 100, 10)
    ("'house.yaml'", "'xxxxxx...")
    """
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class TextProblem(Exception):
    """A request whose text or name cannot be used; ``str()`` is the message for the page."""


def valid_name(name: Any) -> str:
    """The name a text is shown under: a bare ``*.yaml`` file name, or the default.

    >>> valid_name(None), valid_name("house.yaml")
    ('playground.yaml', 'house.yaml')
    >>> valid_name("../etc/passwd.yaml")
    Traceback (most recent call last):
    ...
    rummydsl.web.texts.TextProblem: 'name' must be a file name like house.yaml (letters, digits, '_', '.', '-'), not '../etc/passwd.yaml'
    """
    if name is None or name == "":
        return DEFAULT_NAME
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise TextProblem(f"'name' must be a file name like house.yaml (letters, digits, '_', '.', '-'), "
                          f"not {quoted(name)}")
    return name


def _extends_refusal(name: str, text: str) -> Diagnostic | None:
    """The problem of an ``extends:`` that names anything but a variant id (a
    path above all: the server's files are never a posted text's parent), else None.
    A text that cannot be read as YAML is left to the checker, which says why."""
    from ..variant.load import load_document

    try:
        document = load_document(name, text)
    except VariantError:
        return None
    data = document.data
    if not isinstance(data, dict) or "extends" not in data:
        return None
    target = data["extends"]
    if not isinstance(target, str) or is_variant_id(target):
        return None  # not a string: the checker's extends-type; an id: only a shipped one is found
    where = document.positions.value(("extends",))
    return Diagnostic(where, f"the playground's variants may extend only a shipped variant id or the id of a text this session posted, not {quoted(target, 120)}",
                      "extends-reach", snippet=document.line(where.line))


def _placed(diagnostic: Diagnostic, name: str, text: str) -> Diagnostic:
    """A problem ``check`` found in a parent (a shipped file) shown on this text's
    ``extends:`` line, its place in the parent named by the parent's id (not the
    server's path to it)."""
    if diagnostic.location.path == name:
        hint = diagnostic.message.find("; for the file beside this one")
        if hint >= 0:  # a hint that tells whether a file exists in the server's folder: left out
            return Diagnostic(diagnostic.location, diagnostic.message[:hint], diagnostic.rule,
                              diagnostic.severity, snippet=diagnostic.snippet)
        return diagnostic
    line = next((number for number, written in enumerate(text.splitlines(), 1)
                 if re.match(r"\s*extends\s*:", written)), 1)
    parent = diagnostic.location.path.rsplit("/", 1)[-1]
    where = f"{parent}:{diagnostic.location.line}" if diagnostic.location.line else parent
    return Diagnostic(Location(name, line, 1), f"in {where}: {diagnostic.message}", diagnostic.rule,
                      diagnostic.severity)


def diagnostics_json(diagnostics: list[Diagnostic]) -> list[dict[str, Any]]:
    """Each problem as the API gives it: ``{line, column, message, rule, severity}``,
    line and column 1-based as ``check`` prints them (0: the whole file)."""
    return [{"line": d.location.line, "column": d.location.column, "message": d.message,
             "rule": d.rule, "severity": d.severity} for d in diagnostics]


def _as_text(text: Any) -> str:
    if not isinstance(text, str):
        raise TextProblem(f"'text' must be the variant's YAML as a string, got {type(text).__name__}")
    return text


def reaching(parents: Mapping[str, str] | None) -> ContextManager[None]:
    """The block in which ``extends:`` reaches ``parents`` (a session's texts by id) too."""
    from ..variant.extends import posted_parents

    return nullcontext() if not parents else posted_parents(parents)


def check_text(text: Any, name: Any = None, parents: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``check``'s problems of a posted text, as ``{"diagnostics": [...]}``; its
    ``extends:`` may also name an id of ``parents`` (a session's texts).

    :raises TextProblem: for a text that is not a string or a name that is not a bare file name.
    """
    text, name = _as_text(text), valid_name(name)
    refused = _extends_refusal(name, text)
    if refused is not None:
        return {"diagnostics": diagnostics_json([refused])}
    from ..variant import check_file

    with reaching(parents):
        found = [_placed(d, name, text) for d in check_file(name, text)]
    return {"diagnostics": diagnostics_json(found)}


def text_id(text: str, name: str = DEFAULT_NAME) -> str | None:
    """The ``id`` a text gives itself, or None (not YAML, not a mapping, no string id).

    >>> text_id("id: house\\nname: H\\n"), text_id("- a list")
    ('house', None)
    """
    from ..variant.load import load_document

    try:
        data = load_document(name, text).data
    except VariantError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def build_text(text: Any, name: Any = None, parents: Mapping[str, str] | None = None) -> Variant:
    """The variant a posted text makes (its ``extends:`` reaching ``parents`` too, as in
    :func:`check_text`).

    :raises VariantError: with ``check``'s problems (its ``extends:`` refused as in
        :func:`check_text`).
    :raises TextProblem: as :func:`check_text`.
    """
    text, name = _as_text(text), valid_name(name)
    refused = _extends_refusal(name, text)
    if refused is not None:
        raise VariantError([refused])
    try:
        with reaching(parents):
            return load_variant_text(name, text)
    except VariantError as problem:
        raise VariantError([_placed(d, name, text) for d in problem.diagnostics]) from None


_COMPLETING = threading.Lock()


def _position(text: Any, line: Any, column: Any) -> tuple[str, str, int, int]:
    """A posted text and position for the language server's features: the text (its
    ``extends:`` line blanked if refused, so no server file is ever looked at), its name."""
    text = _as_text(text)
    for value, what in ((line, "line"), (column, "column")):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TextProblem(f"'{what}' must be a whole number (0-based)")
    name = DEFAULT_NAME
    if _extends_refusal(name, text) is not None:
        text = "\n".join("" if re.match(r"\s*extends\s*:", written) else written for written in text.split("\n"))
    return text, name, line, column


def hover_text(text: Any, line: Any, column: Any, parents: Mapping[str, str] | None = None) -> dict[str, Any]:
    """What the editor shows on hover at ``line``, ``column`` (0-based) of a posted text:
    ``{"markdown": ...}``, the language server's words for a key, a value or a name (None
    where it has none).

    >>> hover_text("id: h\\nname: H\\nknock: {limit: 5}", 2, 1)["markdown"].startswith("**knock**")
    True
    """
    from ..lsp.features import forget, hover

    text, name, line, column = _position(text, line, column)
    with _COMPLETING, reaching(parents):
        try:
            found = hover(name, text, line, column)
        finally:
            forget(name)
    return {"markdown": found}


def complete_text(text: Any, line: Any, column: Any, parents: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The editor's completions at ``line``, ``column`` (0-based, as the language server
    takes them) of a posted text: ``{"items": [{"label", "kind", "detail"}]}``. A text
    whose ``extends:`` is refused gets only the keys and values of the schema; one that
    extends a text of ``parents`` (its session's) gets that text's names too.

    >>> [i["label"] for i in complete_text("id: h\\nname: H\\nextends: gin_r", 2, 14)["items"]]
    ['gin_rummy']
    """
    from ..lsp.features import completions, forget

    text, name, line, column = _position(text, line, column)
    with _COMPLETING, reaching(parents):
        try:
            found = completions(name, text, line, column)
        finally:
            forget(name)
    return {"items": [{"label": c.label, "kind": c.kind, "detail": c.detail, "info": c.documentation} for c in found[:200]]}


def shipped_variant(variant_id: Any) -> Variant:
    """A shipped variant by id (a request's ``"variant"``): never a path.

    :raises TextProblem: for anything but a shipped variant's id.
    """
    from ..variant import load_variant

    if not isinstance(variant_id, str) or variant_id not in shipped_variant_ids():
        raise TextProblem(f"'variant' must be the id of a shipped variant (as GET /api/variants lists), "
                          f"not {quoted(variant_id)}")
    return load_variant(variant_id)
