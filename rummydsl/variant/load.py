"""Reading a variant file safely, keeping where every key and value came from.

:func:`load_document` turns a file (or its text) into a :class:`Document`: the
plain Python data (``dict``, ``list``, ``str``, ``int``, ``float``, ``bool``,
``None``) and a :class:`Positions` map from each key path to its place in the file.
Every failure raises :class:`~rummydsl.errors.VariantError`; nothing else escapes.

How the file is read
--------------------
* Only PyYAML's safe machinery is used, and only up to the node graph: a
  ``SafeLoader`` subclass composes nodes, and :mod:`.load_build` builds the values
  itself. No YAML constructor ever runs, so no Python object can be created from
  the file. Only the core tags ``!!str``, ``!!int``, ``!!float``, ``!!bool``,
  ``!!null``, ``!!seq`` and ``!!map`` may be written; any other tag
  (``!!python/...``, ``!!binary``, ``!!timestamp``, ``!!set``, ``!custom``) is the
  error ``yaml-tag``.
* Plain scalars are typed by the YAML 1.2 core schema, not PyYAML's YAML 1.1
  default: only ``true``/``false`` (any case style: ``true``, ``True``, ``TRUE``)
  are booleans, so ``yes``, ``no``, ``on``, ``off`` and ``y`` stay strings (the
  "Norway problem"); ``~``, ``null`` and an empty value are null; integers are
  decimal, ``0o17`` or ``0x1F`` (``017`` is the decimal 17, ``1:30`` is a
  string); floats are ``1.5``, ``1e3``, ``.inf``, ``-.inf``, ``.nan``; dates stay
  strings.
* Mapping keys must be strings (``yaml-key``: quote a number used as a key,
  ``'2': 2``), and a key may appear only once per mapping
  (``yaml-duplicate-key``, reported at the second one).
* Merge keys ``<<`` are refused (``yaml-merge``): ``extends:`` is the one way to
  reuse another file, and a merge key would hide where a value came from.
* Anchors and aliases are allowed, within limits. An alias's value location is
  the alias (``*name``); the positions of the keys inside it are those of the
  anchored node it repeats.

Limits (module constants; each refusal has its rule code)
--------------------------------------------------------
* :data:`MAX_FILE_BYTES` (256 KiB) of UTF-8: ``limit-size``. A file is never read
  past this many bytes.
* :data:`MAX_DEPTH` (32) nested mappings/sequences, the top-level mapping being
  level 1: ``limit-depth``. Checked while composing, before the composer could
  recurse deeper, so even ``[[[[...`` ten thousand deep fails quickly and cleanly;
  also checked again while expanding aliases.
* :data:`MAX_ALIASES` (100) alias uses: ``limit-aliases``; and the values the
  aliases expand to are counted, at most :data:`MAX_NODES` (100,000) in all, so a
  "billion laughs" file is refused after a bounded amount of work. An alias inside
  the node it names (``&a [*a]``) is ``yaml-alias``.
* A conformance suite reads with :data:`SUITE_LIMITS` (``limits=``): 8 MiB, 10,000
  aliases, 600,000 values (generated suites are large); the depth limit is the same.

Other problems: malformed YAML (``yaml``), several documents (``yaml-multi-doc``),
an empty or comment-only file (``empty``), a top level that is not a mapping
(``top-level``), bytes that are not UTF-8 text or that hold NUL or control
characters (``encoding``), a file that cannot be read (``io``).

Positions are 1-based lines and columns, lines counted as YAML counts them (also
at U+0085, U+2028 and U+2029: :func:`~.load_read.split_lines`); positions inside
a string value are exact (:meth:`Positions.inside_scalar`).

The modules
-----------
Each job has its own module, and this one puts them together:

* :mod:`.load_read`: the limits, reading the bytes, the encoding, the lines;
* :mod:`.load_compose`: PyYAML's safe composer with the limits (the node graph);
* :mod:`.load_scalars`: plain scalars by the YAML 1.2 core schema;
* :mod:`.load_build`: the node graph to plain values, with every node's place;
* :mod:`.load_fast`: the same for plain files (anchors and aliases included), from libyaml's events;
* :mod:`.load_positions`: :class:`Positions` and :class:`Document`, and positions
  inside scalars (:meth:`Positions.inside_scalar`);
* :mod:`.load_pyyaml`: the PyYAML internals all of this relies on, in one place.
"""

from __future__ import annotations

import os
from pathlib import Path

from rummydsl.errors import Diagnostic, Location, VariantError

from .load_compose import load_python_text
from .load_fast import load_fast
from .load_positions import Document, Positions
from .load_pyyaml import CParser
from .load_read import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    SUITE_LIMITS,
    VARIANT_LIMITS,
    KeyPath,
    Refused,
    YamlLimits,
    decode,
    read_file,
    source_line,
    split_lines,
    with_snippet,
)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_DEPTH",
    "MAX_ALIASES",
    "MAX_NODES",
    "YamlLimits",
    "VARIANT_LIMITS",
    "SUITE_LIMITS",
    "KeyPath",
    "Positions",
    "Document",
    "load_document",
    "source_line",
]


def load_document(path: str | Path, text: str | bytes | None = None, *,
                  limits: YamlLimits = VARIANT_LIMITS) -> Document:
    """Read the variant file ``path`` (or ``text``, reported under ``path``).

    ``limits`` are a variant file's unless given (a suite file reads with
    :data:`SUITE_LIMITS`: more bytes, aliases and values).

    Returns a :class:`Document` whose ``data`` is a ``dict`` (the top level of a
    variant must be a mapping). Raises :class:`VariantError` for every problem,
    and never any other exception.
    """
    shown = str(path)
    if text is None:
        # A parent is read once per process however many files extend it.
        try:
            stat = os.stat(shown)
            key: tuple[str, int, int, YamlLimits] | None = (shown, stat.st_mtime_ns, stat.st_size, limits)
        except (OSError, ValueError):  # ValueError: a NUL in the path; reported when read
            key = None
        if key is not None and key in _DOCUMENTS:
            return _DOCUMENTS[key]
        document = _load_document(shown, read_file(shown, limits.file_bytes), limits)
        if key is not None:
            if len(_DOCUMENTS) >= _DOCUMENT_CACHE_SIZE:
                _DOCUMENTS.pop(next(iter(_DOCUMENTS)))
            _DOCUMENTS[key] = document
        return document
    return _load_document(shown, text, limits)


_DOCUMENT_CACHE_SIZE = 64
_DOCUMENTS: dict[tuple[str, int, int, YamlLimits], Document] = {}


def _load_document(shown: str, raw: str | bytes, limits: YamlLimits = VARIANT_LIMITS) -> Document:
    source = decode(shown, raw, limits.file_bytes)
    lines = tuple(split_lines(source))
    try:
        if CParser is not None:
            document = load_fast(CParser, shown, source, lines, limits.nodes, limits.aliases)
            if document is not None:
                return document
        return load_python_text(shown, source, lines, limits)
    except Refused as refused:
        raise VariantError([with_snippet(refused.diagnostic, lines)]) from None
    except RecursionError:  # not expected: the depth limit keeps recursion shallow
        raise VariantError([Diagnostic(
            Location(shown, 1, 1),
            f"nested too deeply: a variant file may nest at most {MAX_DEPTH} levels",
            "limit-depth",
        )]) from None
