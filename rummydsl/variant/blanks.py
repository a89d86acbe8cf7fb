"""The blank keys of a house rule that delete what they inherit (``game:`` with nothing
under it, a forgotten indent), and the errors they cause, told so (:func:`blame_blanks`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from rummydsl.errors import Diagnostic, Location
from rummydsl.variant.load import KeyPath

__all__ = ["Blank", "blame_blanks"]


@dataclass(frozen=True)
class Blank:
    """A blank key of a child (``game:`` with nothing under it) that deletes the one it
    inherits: its key path, where it is written, and the keys the inherited value had."""

    path: KeyPath
    location: Location
    removed_keys: tuple[str, ...]


_MISSING_TOP = re.compile(r"missing required key '([^']+)' in the top level")
_UNKNOWN_TOP = re.compile(r"unknown key '([^']+)' in the top level")


def blame_blanks(diagnostics: list[Diagnostic], blanks: Sequence[Blank]) -> list[Diagnostic]:
    """The errors a blank top-level key caused, saying so: a key left blank by a missing
    indent (``game:`` then ``target: 100`` at the margin) deletes the inherited section,
    so the section is missing and its keys are unknown at the top level. Sorted by place,
    those errors come before the warning at the blank key; each now names it.

    >>> blank = Blank(("game",), Location("house.yaml", 3, 1), ("target", "match"))
    >>> found = [Diagnostic(Location("house.yaml", 1, 1), "missing required key 'game' in the top level"),
    ...          Diagnostic(Location("house.yaml", 4, 1), "unknown key 'target' in the top level (allowed: ...)")]
    >>> for d in blame_blanks(found, [blank]):
    ...     print(d.message)
    missing required key 'game' in the top level: the blank 'game:' at line 3 deleted the inherited one
    unknown key 'target' in the top level (allowed: ...); indent it under 'game:' (line 3), where the inherited 'game' had it
    """
    top = {blank.path[0]: blank for blank in blanks if len(blank.path) == 1}
    if not top:
        return diagnostics
    child = next(iter(top.values())).location.path  # the blanks are all the child's
    told: list[Diagnostic] = []
    for diagnostic in diagnostics:
        message = diagnostic.message
        missing = _MISSING_TOP.match(message)
        unknown = None if missing else _UNKNOWN_TOP.match(message)
        if missing and missing.group(1) in top:
            blank = top[missing.group(1)]
            message = (f"{missing.group(0)}: the blank '{blank.path[0]}:' at line {blank.location.line} "
                       f"deleted the inherited one{message[missing.end():]}")
        elif unknown and diagnostic.location.path == child:
            under = [blank for blank in top.values()
                     if unknown.group(1) in blank.removed_keys and blank.location.line < diagnostic.location.line]
            if under:
                blank = max(under, key=lambda b: b.location.line)
                message += (f"; indent it under '{blank.path[0]}:' (line {blank.location.line}), "
                            f"where the inherited {blank.path[0]!r} had it")
        told.append(diagnostic if message == diagnostic.message else replace(diagnostic, message=message))
    return told
