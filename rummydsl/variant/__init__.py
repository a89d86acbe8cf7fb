"""Variant files: find, load, merge, check and build them.

>>> from rummydsl.variant import load_variant
>>> load_variant("gin_rummy").deal.hand_size
10
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Iterable

from ..errors import Diagnostic, Location, VariantError
from .. import resources
from ..suggest import closest
from ..untrusted import named_refusal
from .load_read import source_line
from .model import Variant

__all__ = [
    "Variant",
    "load_variant",
    "load_variant_text",
    "check_file",
    "find_variant_path",
    "find_variant",
    "shipped_variant_ids",
    "is_variant_id",
    "VARIANT_ID",
    "source_line",
    "with_players",
]

VARIANT_ID = re.compile(r"[a-z][a-z0-9_]*")
"""What a variant id looks like (the schema's ``id`` pattern); match it whole."""


def is_variant_id(text: str) -> bool:
    """Whether ``text`` is written like a variant id (lowercase letters, digits, ``_``).

    >>> is_variant_id("gin_rummy"), is_variant_id("Gin"), is_variant_id("gin.yaml")
    (True, False, False)
    """
    return VARIANT_ID.fullmatch(text) is not None


def shipped_variant_ids() -> list[str]:
    """The ids of the variants shipped with the package, sorted.

    They are the ``<id>.yaml`` files of the shipped variants folder whose ``<id>``
    is a variant id (anything else there is not a shipped variant); an unreadable
    folder ships none.

    >>> "gin_rummy" in shipped_variant_ids()
    True
    """
    suffix = ".yaml"
    try:
        names = [entry.name for entry in resources.variants_dir().iterdir()]
    except OSError:
        return []
    return sorted(name[: -len(suffix)] for name in names
                  if name.endswith(suffix) and is_variant_id(name[: -len(suffix)]))


def find_variant_path(name: str) -> str:
    """The path (a string) of the file of a variant given as a shipped id or a path:
    a path to a file comes back as given, an id as the shipped file's path.

    :raises VariantError: rule ``io``, placed at ``name``, if there is no such
        shipped variant or file (with the nearest shipped id, or the list of them).

    >>> find_variant_path("gin_rumy")
    Traceback (most recent call last):
    ...
    rummydsl.errors.VariantError: gin_rumy: no shipped variant or file 'gin_rumy'; did you mean 'gin_rummy'?
    """
    path = Path(name)
    if name and _exists(path) and not is_variant_id(name):  # an id has no .yaml: the shipped one
        # Only a variant file: a regular *.yaml/*.yml file, never a device, FIFO,
        # folder or /proc entry (docs/security.md); refused by name, nothing read.
        reason = named_refusal(path)
        if reason is not None:
            raise VariantError([Diagnostic(Location(name), f"cannot read the file: {reason}", "io")])
        if _is_file(path):
            return str(path)
    if is_variant_id(name):
        shipped = resources.variants_dir() / f"{name}.yaml"
        if _is_file(shipped):
            return str(shipped)
    ids = shipped_variant_ids()
    close = closest(name, ids)
    hint = f"; did you mean {close!r}?" if close else f" (shipped variants: {', '.join(ids)})"
    raise VariantError([Diagnostic(Location(name or "''"), f"no shipped variant or file {name!r}{hint}", "io")])


find_variant = find_variant_path
"""Deprecated: the old name of :func:`find_variant_path`, which says that it gives a
path (issue 18, one meaning per name); kept for callers written before the rename."""


def shown_path(path: str) -> str:
    """``path`` as a run file or record notes it for people: empty for a shipped variant's
    file (where the package lies differs between installs, and its id says it all),
    else the absolute path.

    >>> shown_path(find_variant_path("gin_rummy"))
    ''
    """
    resolved = Path(path).resolve()
    if resolved.parent == resources.variants_dir().resolve() and is_variant_id(resolved.stem):
        return ""
    return str(resolved)


def _exists(path: Path) -> bool:
    """``path.exists()``, false also where the name cannot be looked up."""
    try:
        return path.exists() or path.is_symlink()
    except (OSError, ValueError):
        return False


def _is_file(path: Path) -> bool:
    """``path.is_file()``, false also where the name cannot be looked up (too long, say)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _build(path: str, text: str | None = None) -> tuple[Variant | None, list[Diagnostic]]:
    from .build import build_variant
    from .extends import posted_text, resolve

    if text is None:
        text = posted_text(path)  # a parent held in memory (extends.posted_parents), never a file
    try:
        resolved = resolve(path, text=text)
    except VariantError as problem:
        return None, list(problem.diagnostics)
    variant, diagnostics = build_variant(resolved.data, resolved.positions, path=path,
                                         chain=resolved.chain, parent_data=resolved.parent_data)
    diagnostics = list(resolved.warnings) + diagnostics
    if resolved.blanks:
        from .blanks import blame_blanks

        diagnostics = blame_blanks(diagnostics, resolved.blanks)
    if len(resolved.documents) > 1:
        from .blame import place_in_child

        parent = resolved.documents[1].path
        diagnostics = place_in_child(diagnostics, child=resolved.documents[0], data=resolved.data,
                                     positions=resolved.positions,
                                     parent_problems=lambda: _build(parent)[1])
    return variant, _unsilenced(diagnostics, resolved.documents[0])


_SILENCE = re.compile(r"#\s*rummydsl:\s*(ignore|ignore-file)\[([a-z0-9\-,\s]+)\]")


def _unsilenced(diagnostics: list[Diagnostic], document: Any) -> list[Diagnostic]:
    """The diagnostics less the warnings the file silences with a comment.

    ``# rummydsl: ignore[rule, ...]`` at the end of a line, or alone on the line
    before, silences those warnings at that line; ``# rummydsl: ignore-file[rule,
    ...]`` anywhere silences them in the whole file. Errors are never silenced,
    nor warnings in another file (a parent's).

    >>> from rummydsl.variant.load import load_document
    >>> doc = load_document("v.yaml", "a: 1  # rummydsl: ignore[meld-small]\\nb: 2\\n")
    >>> found = [Diagnostic(Location("v.yaml", line), "odd", "meld-small", "warning") for line in (1, 2)]
    >>> [d.location.line for d in _unsilenced(found, doc)]
    [2]
    """
    lines = getattr(document, "lines", ())
    whole: set[str] = set()
    at: dict[int, set[str]] = {}
    for number, line in enumerate(lines, 1):
        for match in _SILENCE.finditer(line):
            rules = {rule.strip() for rule in match.group(2).split(",") if rule.strip()}
            if match.group(1) == "ignore-file":
                whole |= rules
            elif line.lstrip().startswith("#"):
                at.setdefault(number + 1, set()).update(rules)
            else:
                at.setdefault(number, set()).update(rules)
    if not whole and not at:
        return diagnostics
    return [d for d in diagnostics
            if not (d.severity == "warning" and d.location.path == document.path
                    and (d.rule in whole or d.rule in at.get(d.location.line, ())))]


def check_file(path: str, text: str | None = None) -> list[Diagnostic]:
    """Every problem (errors and warnings) of one variant file, in file order.

    With ``text``, that text is checked as the content of ``path`` (an editor's
    unsaved buffer): its ``extends`` is found relative to ``path``'s folder and its
    problems are reported under ``path``; the file itself is not read.
    """
    _, diagnostics = _build(path, text)
    files = list(dict.fromkeys(d.location.path for d in diagnostics))
    return sorted(diagnostics, key=lambda d: (files.index(d.location.path), d.location.line, d.location.column))


def load_variant_text(path: str, text: str) -> Variant:
    """A variant built from ``text`` checked as the content of ``path`` (an editor's
    buffer, a text posted to the web playground), with the limits of a file; the file
    ``path`` itself is not read, and nothing is cached.

    >>> load_variant_text("house.yaml", "id: house\\nname: House\\nextends: gin_rummy\\n").parent
    'gin_rummy'

    :raises VariantError: with every error found, as :func:`check_file` reports them.
    """
    built, diagnostics = _build(path, text)
    if built is None:
        raise VariantError(diagnostics)
    return built


Fingerprint = tuple[tuple[str, int, int], ...]
"""Each file of an extends chain as (absolute path, mtime_ns, size), child first."""

_CACHE_SIZE = 64
_LOADED: dict[str, tuple[Fingerprint, Variant]] = {}
"""load_variant's cache: by the child's absolute path, the variant and the
fingerprint of the chain it was built from."""


def _fingerprint(paths: Iterable[str]) -> Fingerprint | None:
    """The fingerprint of some files, or None if one of them cannot be looked at."""
    found = []
    for path in paths:
        try:
            absolute = os.path.abspath(path)
            stat = os.stat(absolute)
        except (OSError, ValueError):
            return None
        found.append((absolute, stat.st_mtime_ns, stat.st_size))
    return tuple(found)


def load_variant(name: str) -> Variant:
    """Load a variant by shipped id or path, checked and compiled.

    A variant is built once and then served from a cache for as long as no file of
    its ``extends`` chain changes (each file's path, modification time and size are
    compared on every call). The variant is immutable, so every caller can share it.

    :raises VariantError: with every error found, if the variant has any.
    """
    path = find_variant_path(name)
    key = os.path.abspath(path)
    cached = _LOADED.get(key)
    if cached is not None:
        fingerprint, variant = cached
        if _fingerprint(entry[0] for entry in fingerprint) == fingerprint:
            return variant
    built, diagnostics = _build(path)
    if built is None:
        raise VariantError(diagnostics)
    fingerprint_now = _fingerprint(built.chain)
    if fingerprint_now is not None:
        _LOADED.pop(key, None)
        if len(_LOADED) >= _CACHE_SIZE:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = (fingerprint_now, built)
    return built


def with_players(variant: Variant, count: int | None) -> Variant:
    """``variant`` played with ``count`` seats (``--players N``), one of the counts its
    ``players`` map allows; ``None`` (or its own count) gives ``variant`` itself. A
    ``deal.hand_size`` expression is worked out again for the new count.

    :raises VariantError: rule ``players``, placed at the variant's file, for a count
        outside ``players.min`` to ``players.max``.

    >>> three = with_players(load_variant("ginski"), 3)
    >>> three.players, three.players_range
    (3, (2, 4))
    >>> with_players(load_variant("gin_rummy"), 3)
    Traceback (most recent call last):
    ...
    rummydsl.errors.VariantError: ...gin_rummy.yaml: variant 'gin_rummy' is played by exactly 2 players (its 'players'), not 3
    """
    from dataclasses import replace

    if count is None or count == variant.players:
        return variant
    low, high = variant.players_range
    if not low <= count <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        message = f"variant {variant.id!r} is played by {allowed} players (its 'players'), not {count}"
        raise VariantError([Diagnostic(Location(variant.path), message, "players")])
    deal = variant.deal
    if deal.hand_size_rule is not None:
        from .exprs import deal_probes

        first = deal_probes(deal.hand_size_rule, (count, count), 1)[0][2]
        if isinstance(first, int):
            deal = replace(deal, hand_size=first)
    return replace(variant, players=count, deal=deal)
