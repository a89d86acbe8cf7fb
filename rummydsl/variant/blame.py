"""Problems a house rule causes in its parent, reported at the house rule's line.

A file that ``extends:`` another changes a few keys; the problem such a change
causes often shows in a part it inherits (``gin_bonus: true`` breaks the parent's
``gin_bonus + ...``; ``players: 6`` makes the parent's ``hand_size: 10`` too
many). Reported where it shows, the problem points into the parent (often the
installed package), at a line the user did not write and cannot change.

:func:`place_in_child` moves each such problem to the line of the child that made
the difference, and adds a note with the parent's place and text it breaks. A
problem is the child's when the parent, checked alone, does not have it. The line
to blame is found in this order:

1. a name the parent's text uses that the child defines or changes (an option, a
   ``let``, a meld kind): the child's value of that name;
2. a key of the child that the problem's rule depends on (:data:`RELATED`): for
   ``deal-size``, the child's ``players``, ``deal``, ``deck`` or ``stock``;
3. a key of the child at, above or below the parent's place;
4. the child's ``extends`` line.

Several problems of one severity blamed on one line of the child are one
problem: the first is kept, with the number and lines of the others (follow-on
problems of one cause).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Iterable, Sequence

from ..errors import Diagnostic, Location
from .load_read import KeyPath

__all__ = ["place_in_child", "RELATED"]

RELATED: dict[str, tuple[KeyPath, ...]] = {
    "deal-size": (("players",), ("deal",), ("deck",), ("stock",)),
    "players": (("players",), ("deck",), ("deal",), ("stock",)),
    "round-end": (("knock",), ("turn",)),
    "game-end": (("knock",), ("turn",), ("stock",), ("game",), ("scoring",)),
    "layoff-unused": (("knock",),),
    "score-unused": (("knock",), ("turn",)),
    "score-stock-end": (("stock",), ("scoring",)),
    "knock-discard": (("turn",), ("knock",)),
    "contract-unused": (("turn",), ("contract",)),
    "turn-pile": (("turn",), ("deal",)),
    "deep-draw": (("turn",), ("stock",)),
    "upcard": (("deal",), ("upcard_offer",)),
    "knock-unreachable": (("options",), ("card_value",), ("deck",)),
    "knock-always": (("options",), ("card_value",), ("deck",)),
    "meld-unusable": (("deal",),),
    "contract-impossible": (("melds",), ("deal",), ("deck",)),
    "meld-impossible": (("deck",), ("meld_options",)),
    "stock-skip": (("turn",),),
    "offer-min-hand": (("deal",),),
    "stock-turn-over": (("stock",), ("turn",), ("deal",)),
    "stock-turn-over-final": (("stock",),),
    "going-out-discard": (("going_out",), ("turn",)),
    "play-stalled": (("turn",), ("knock",), ("stock",)),
    "play-no-legal-action": (("turn",), ("deal",), ("stock",)),
    "play-never-won": (("knock",), ("melds",), ("turn",), ("deal",), ("deck",)),
    "play-game-endless": (("game",), ("scoring",)),
}
"""For a rule whose problem shows in one key but comes from others, the keys
(top-level sections, or deeper paths) a child's change of which is to blame."""

_NAMED: tuple[KeyPath, ...] = (("options",), ("scoring", "let"), ("melds",))
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def place_in_child(diagnostics: Sequence[Diagnostic], *, child: Any, data: Any, positions: Any,
                   parent_problems: Callable[[], Iterable[Diagnostic]]) -> list[Diagnostic]:
    """``diagnostics`` with each problem the child causes in a parent moved to the child.

    :param child: the child's :class:`~rummydsl.variant.load_positions.Document`.
    :param data: the merged tree; ``positions`` its
        :class:`~rummydsl.variant.extends.MergedPositions`.
    :param parent_problems: called (at most once, and only when some problem is in
        a parent's file) for the parent's own problems, which stay where they are.

    The note names the parent's place and what is written there, e.g.
    ``(it breaks gin_rummy.yaml:69, scoring.round[1].ender: "gin_bonus + ...")``.
    """
    elsewhere = [d for d in diagnostics if d.location.path != child.path]
    if not elsewhere:
        return list(diagnostics)
    own = {(d.location, d.message) for d in parent_problems()}
    written = [p for p in child.positions if p and not (len(p) == 1 and p[0] in ("id", "name", "rummydsl"))]
    moved: dict[tuple[KeyPath, str], tuple[Diagnostic, list[Diagnostic]]] = {}
    result: list[Diagnostic | tuple[KeyPath, str]] = []
    for diagnostic in diagnostics:
        if diagnostic.location.path == child.path or (diagnostic.location, diagnostic.message) in own:
            result.append(diagnostic)
            continue
        place = _path_at(diagnostic.location, data, positions)
        blamed = (_blame(diagnostic.rule, place, data, child, written), diagnostic.severity)
        if blamed in moved:
            moved[blamed][1].append(diagnostic)
        else:
            moved[blamed] = (diagnostic, [])
            result.append(blamed)
    out: list[Diagnostic] = []
    for item in result:
        if isinstance(item, Diagnostic):
            out.append(item)
        else:
            out.append(_moved(item[0], *moved[item], child=child, data=data, positions=positions))
    return out


def _path_at(location: Location, data: Any, positions: Any) -> KeyPath:
    """The deepest key path of the merged tree whose node starts at or before
    ``location`` in the same file and holds it (the last such in file order)."""
    best: KeyPath = ()
    best_at = (0, 0)
    for path in positions:
        if not path or positions.source(path) != location.path:
            continue
        start = positions.key(path)  # a mapping entry starts at its key
        at = (start.line, start.column)
        if at <= (location.line, location.column) and (at > best_at or (at == best_at and len(path) > len(best))):
            best, best_at = path, at
    return best


def _node(tree: Any, path: KeyPath) -> Any:
    for part in path:
        if isinstance(tree, dict) and part in tree:
            tree = tree[part]
        elif isinstance(tree, list) and isinstance(part, int) and 0 <= part < len(tree):
            tree = tree[part]
        else:
            return None
    return tree


def _blame(rule: str, place: KeyPath, data: Any, child: Any, written: list[KeyPath]) -> KeyPath:
    text = _node(data, place)
    if isinstance(text, str):
        words = _WORD.findall(text)
        for word in words:
            for section in _NAMED:
                if section + (word,) in written and section + (word,) != place:
                    return section + (word,)
    for related in RELATED.get(rule, ()):
        for path in written:
            if path[: len(related)] == related:
                return path if len(path) <= len(related) + 1 else path[: len(related) + 1]
    for path in sorted(written, key=len, reverse=True):
        if place[: len(path)] == path or path[: len(place)] == place:
            return path
    return ("extends",)


def _moved(blamed: KeyPath, first: Diagnostic, others: list[Diagnostic], *, child: Any, data: Any,
           positions: Any) -> Diagnostic:
    value = _node(child.data, blamed)
    if isinstance(value, (dict, list)) or value is None:
        where = child.positions.key(blamed)
    else:
        where = child.positions.value(blamed)
    shown = os.path.basename(first.location.path)
    place = _path_at(first.location, data, positions)
    written = _node(data, place)
    message = f"{first.message} (it breaks {shown}:{first.location.line}"
    if place:
        message += f", {_dotted(place)}"
        if isinstance(written, str):
            message += f": {_quoted(written)}"
        elif isinstance(written, bool):
            message += f": {'true' if written else 'false'}"
        elif isinstance(written, int):
            message += f": {written}"
    message += ")"
    if others:
        lines = ", ".join(str(d.location.line) for d in others)
        message += (f"; the same change causes {len(others)} more problem{'s' if len(others) > 1 else ''} "
                    f"there (line{'s' if len(others) > 1 else ''} {lines})")
    return Diagnostic(where, message, first.rule, first.severity, snippet=child.line(where.line))


def _dotted(path: KeyPath) -> str:
    """A key path as written in messages.

    >>> _dotted(("scoring", "round", 1, "ender"))
    'scoring.round[1].ender'
    """
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _quoted(text: str, limit: int = 80) -> str:
    """``text`` in double quotes on one line, shortened to ``limit`` characters."""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f'"{text}"'
