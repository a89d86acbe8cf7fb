"""``extends:``: building a variant on another one, and merging the two.

:func:`resolve` reads a variant file, follows its ``extends:`` chain to the root
ancestor, and merges the chain into one tree, remembering for every key path which
file the node came from (:class:`MergedPositions`), so that a problem in an
inherited key is reported in the parent file and an overridden one in the child.

Finding the parent
------------------
The value of ``extends`` must be a string (``extends-type``):

* a *path* if it contains ``/`` or ``\\`` or ends with ``.yaml`` or ``.yml``: the
  file at that path relative to the folder of the extending file. The path must
  keep to the rule of docs/security.md ("Which files a file may name",
  :func:`rummydsl.untrusted.reach_refusal`): relative, named ``*.yaml``/``*.yml``,
  within :data:`~rummydsl.limits.MAX_EXTENDS_UP` (2) folders above the file
  named first (``..`` and symbolic links followed), not into a hidden folder
  (``extends-reach``); a regular file whose top level has an ``id`` written as a
  variant id (``extends-not-variant``). A parent that is refused, or that cannot
  be read as YAML, is reported without quoting a word or a line of it;
* otherwise a *shipped variant id* (``[a-z][a-z0-9_]*``): the file ``<id>.yaml`` in
  :func:`rummydsl.resources.variants_dir`. To extend a file beside yours, write it
  as a path: ``extends: ./base.yaml``. Within :func:`posted_parents` (the web
  playground's session texts), an id that is not shipped may name one of the texts
  given there, shown as ``posted:<id>.yaml``; a shipped id always wins.

A parent that cannot be found is ``extends-missing``, with a suggestion among the
shipped ids (or, for a path within reach, the regular ``*.yaml``/``*.yml`` files of
its folder). A file that reaches
itself again is ``extends-cycle``. A chain may hold at most
:data:`MAX_EXTENDS_DEPTH` (16) parents (``extends-depth``). Problems inside a
parent file are reported with the parent's path.

Merge rules
-----------
The chain is merged from the root ancestor down; each file is merged onto the
result of its ancestors:

1. Mappings merge key by key, at every depth: a key the child does not mention
   keeps the parent's value; a key both have is merged by these same rules.
2. Lists and scalars replace: the child's value is used whole (a list is never
   merged item by item or appended to).
3. A mapping, list or scalar may replace a value of another kind (a mapping
   replaces a list or a scalar whole, and the other way round).
4. ``null`` deletes: a key whose value is ``null`` in the child is absent from the
   result, at any depth of mappings (not inside lists, whose items are kept as
   written). Deleting a key the parent does not have is allowed and does
   nothing; so in a file that extends another, ``key: null`` and leaving ``key``
   out of a new mapping mean the same. (A file that extends nothing is not
   merged: its nulls stay.) A key left *blank* (``knock:`` with nothing after
   it) is also null, but it is more often a slip (the keys meant to go under it
   were not indented): deleting an inherited key that way is warned of
   (``extends-delete``) at the child's line, naming what was removed. Writing
   ``null`` or ``~`` says it is meant, and is not warned of.
5. A ``turn`` written as a *mapping* from step names to settings changes steps of
   the inherited turn by name, and keeps the rest and their order:
   ``turn: {discard: {taken_card: allowed}}`` merges those settings onto the
   inherited ``discard`` step (maps merge, as in rule 1; a bare step such as
   ``- meld`` counts as ``meld: {}``), and ``offer: null`` removes that step. A
   name the inherited turn does not have is an error (``extends-turn``): to add
   a step or change the order, write the whole turn as a list, which replaces
   (rule 2). A turn written as a list keeps meaning what it always did.
6. ``id``, ``name``, ``description`` and ``extends`` are never inherited: the
   result has exactly the child's own (``id`` and ``name`` are required, so a
   child must write them; the schema says so at the child's top level).
7. ``rummydsl`` (the language version) is inherited when the child leaves it out;
   if the child writes it, it must equal the parent's (``extends-version``).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from rummydsl import resources
from rummydsl.errors import Diagnostic, Location, VariantError
from rummydsl.limits import MAX_EXTENDS_DEPTH
from rummydsl.suggest import closest
from rummydsl.untrusted import is_variant_file, reach_refusal, reach_root, refusal
from rummydsl.variant import is_variant_id, shipped_variant_ids
from rummydsl.variant.blanks import Blank
from rummydsl.variant.load import Document, KeyPath, Positions, load_document

__all__ = [
    "MAX_EXTENDS_DEPTH",
    "NOT_INHERITED",
    "MergedPositions",
    "Resolved",
    "POSTED_PREFIX",
    "merge",
    "posted_parents",
    "posted_text",
    "resolve",
    "shipped_folders",
]

NOT_INHERITED = ("id", "name", "description", "extends")
"""Top-level keys a child never takes from its parent."""


POSTED_PREFIX = "posted:"
"""How a parent given to :func:`posted_parents` is shown: ``posted:<id>.yaml`` (no file
has that name to the loader: it is never looked up on disk)."""

_POSTED: ContextVar[Mapping[str, str] | None] = ContextVar("rummydsl_posted_parents", default=None)


@contextmanager
def posted_parents(texts: Mapping[str, str]) -> Iterator[None]:
    """Within this block, ``extends: <id>`` of an id that is not shipped reaches
    ``texts[id]`` (variant texts held in memory, the web playground's session), shown
    as ``posted:<id>.yaml``. A shipped id is never shadowed; nothing is read from disk.

    >>> from rummydsl.variant import check_file
    >>> with posted_parents({"base": "id: base\\nname: B\\nextends: gin_rummy\\n"}):
    ...     check_file("h.yaml", "id: h\\nname: H\\nextends: base\\n")
    []
    """
    token = _POSTED.set(dict(texts))
    try:
        yield
    finally:
        _POSTED.reset(token)


def posted_text(path: str) -> str | None:
    """The text of ``posted:<id>.yaml`` given to the :func:`posted_parents` in force, else None."""
    texts = _POSTED.get()
    if texts is None or not path.startswith(POSTED_PREFIX) or not path.endswith(".yaml"):
        return None
    return texts.get(path[len(POSTED_PREFIX):-len(".yaml")])


class MergedPositions:
    """Positions of a merged tree: each key path's :class:`Location` is in the file
    its node came from (the child-most file of the chain that has that path).

    Same methods as :class:`~rummydsl.variant.load.Positions`; a path that is not
    in the merged tree falls back to its nearest ancestor that is.
    """

    def __init__(self, data: Any, positions: Sequence[Positions]) -> None:
        self._data = data
        self._positions = tuple(positions)  # child first

    def _owner(self, path: Sequence[Any]) -> tuple[KeyPath, Positions]:
        path = tuple(path)
        node, depth = self._data, 0
        for step in path:
            if isinstance(node, dict) and isinstance(step, str) and step in node:
                node = node[step]
            elif (isinstance(node, list) and isinstance(step, int)
                  and not isinstance(step, bool) and 0 <= step < len(node)):
                node = node[step]
            else:
                break
            depth += 1
        for k in range(depth, -1, -1):
            prefix = path[:k]
            for positions in self._positions:
                if prefix in positions:
                    return prefix, positions
        return (), self._positions[0]

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and self._owner(path)[0] == path

    def __iter__(self) -> Iterator[KeyPath]:
        return (path for path in self._all_paths())

    def _all_paths(self) -> Iterator[KeyPath]:
        stack: list[tuple[KeyPath, Any]] = [((), self._data)]
        while stack:
            path, node = stack.pop()
            yield path
            if isinstance(node, dict):
                stack.extend((path + (k,), v) for k, v in reversed(list(node.items())))
            elif isinstance(node, list):
                stack.extend((path + (i,), v) for i, v in reversed(list(enumerate(node))))

    def source(self, path: Sequence[Any]) -> str:
        """The file the node at ``path`` comes from."""
        return self._owner(path)[1].path

    def value(self, path: Sequence[Any]) -> Location:
        prefix, positions = self._owner(path)
        return positions.value(prefix)

    def key(self, path: Sequence[Any]) -> Location:
        prefix, positions = self._owner(path)
        return positions.key(prefix)

    def scalar_style(self, path: Sequence[Any]) -> str | None:
        prefix, positions = self._owner(path)
        return positions.scalar_style(prefix)

    def scalar_start(self, path: Sequence[Any]) -> tuple[Location, str | None]:
        prefix, positions = self._owner(path)
        return positions.scalar_start(prefix)

    def inside_scalar(self, path: Sequence[Any], line: int, column: int) -> Location:
        prefix, positions = self._owner(path)
        return positions.inside_scalar(prefix, line, column)


@dataclass(frozen=True)
class Resolved:
    """A variant with its ``extends`` chain merged in.

    ``data`` is the merged tree; ``positions`` places each of its nodes in the file
    it came from; ``chain`` is the files from the child to the root ancestor (as
    shown in messages); ``parent_data`` is the merged tree of the parent alone
    (``None`` without a parent); ``documents`` are the files read, child first.
    """

    data: Any
    positions: MergedPositions = field(repr=False, compare=False)
    chain: tuple[str, ...]
    parent_data: Any = None
    documents: tuple[Document, ...] = field(default=(), repr=False, compare=False)
    warnings: tuple[Diagnostic, ...] = ()
    """Warnings found while merging (a blank key that deletes an inherited one)."""
    blanks: tuple[Blank, ...] = ()
    """The blank keys of the child that delete inherited ones (the cause a later error
    may have: :func:`blame_blanks`)."""

    def source_line(self, location: Location) -> str | None:
        """The source line a location points at, from whichever file of the chain."""
        for document in self.documents:
            if document.path == location.path:
                return document.line(location.line)
        return None


def resolve(path: str | Path, *, text: str | bytes | None = None) -> Resolved:
    """Read the variant ``path`` (or ``text``, shown as ``path``) and merge its
    ``extends`` chain. Raises :class:`VariantError` for every problem.

    Every parent named by a path must lie within the reach of ``path``
    (:func:`rummydsl.untrusted.reach_refusal`) and be a variant file; one that is
    not is reported at the ``extends`` that names it, and nothing of it is quoted.
    """
    root = reach_root(path)
    document = load_document(path, text)
    documents = [document]
    seen = {_identity(document.path): document.path}
    while "extends" in documents[-1].data:
        child = documents[-1]
        if len(documents) > MAX_EXTENDS_DEPTH:
            raise _error(child, ("extends",),
                         f"the extends chain is too long: a variant may have at most "
                         f"{MAX_EXTENDS_DEPTH} ancestors", "extends-depth", value=True)
        parent = _load_parent(child, root)
        key = _identity(parent.path)
        if key in seen:
            names = [d.path for d in documents]
            start = names.index(seen[key])
            cycle = " -> ".join(names[start:] + [parent.path])
            raise _error(child, ("extends",), f"extends cycle: {cycle}", "extends-cycle",
                         value=True)
        seen[key] = parent.path
        documents.append(parent)
    return _merge_chain(documents)


def _identity(path: str) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def _error(document: Document, path: KeyPath, message: str, rule: str,
           value: bool = True) -> VariantError:
    positions = document.positions
    where = positions.value(path) if value else positions.key(path)
    return VariantError([Diagnostic(where, message, rule,
                                    snippet=document.line(where.line))])


def shipped_folders() -> tuple[str, ...]:
    """The shipped variants' folder, resolved (a parent may always lie there)."""
    folder = resources.variants_dir()
    if isinstance(folder, os.PathLike):
        try:
            return (os.path.realpath(os.fspath(folder)),)
        except (OSError, ValueError):
            return ()
    return ()


def _load_parent(child: Document, root: str) -> Document:
    target = child.data["extends"]
    if not isinstance(target, str) or not target.strip():
        shown = "empty" if target is None or target == "" else f"{target!r}"
        raise _error(child, ("extends",),
                     f"'extends' must name a shipped variant id or a file path, got "
                     f"{shown}", "extends-type")
    if "/" in target or "\\" in target or target.endswith((".yaml", ".yml")) or os.path.isabs(target):
        return _load_parent_file(child, target, root)
    ids = shipped_variant_ids()
    if is_variant_id(target):
        shipped = resources.variants_dir() / f"{target}.yaml"
        try:
            found = shipped.is_file()
        except OSError:
            found = False
        if found:
            if isinstance(shipped, Path) or isinstance(shipped, os.PathLike):
                return load_document(os.fspath(shipped))
            try:
                data = shipped.read_bytes()
            except OSError as exc:
                raise VariantError([Diagnostic(Location(str(shipped)),
                                               f"cannot read the file: {exc}", "io")]) from None
            return load_document(str(shipped), data)
        posted = _POSTED.get()
        if posted is not None and target in posted:
            return load_document(f"{POSTED_PREFIX}{target}.yaml", posted[target])
    message = f"cannot find parent {_shown(target)}: no shipped variant or file of that name"
    if not is_variant_id(target):
        message = (f"cannot find parent {_shown(target)}: a shipped variant id is written "
                   "[a-z][a-z0-9_]*, and a file path ends in .yaml")
    close = closest(target.lower(), ids)
    if close:
        message += f"; did you mean {close!r}?"
    elif is_variant_file(os.path.join(os.path.dirname(child.path), target + ".yaml")) and \
            reach_refusal(f"./{target}.yaml", os.path.dirname(child.path) or ".", root,
                          also=shipped_folders()) is None:
        message += f"; for the file beside this one, write 'extends: ./{target}.yaml'"
    raise _error(child, ("extends",), message, "extends-missing")


def _load_parent_file(child: Document, target: str, root: str) -> Document:
    """The parent file ``target`` names, if the reach rule lets this file name it and
    it is a variant file; else an error at the child's ``extends`` that names the
    parent and why, and quotes nothing of it (docs/security.md)."""
    folder = os.path.dirname(child.path) or "."
    refused = reach_refusal(target, folder, root, also=shipped_folders())
    if refused is not None:
        rule = "extends-not-variant" if refused.startswith("not a variant file") else "extends-reach"
        raise _error(child, ("extends",), f"cannot use parent {_shown(target)}: {refused}", rule)
    parent_path = os.path.normpath(os.path.join(folder, target))
    if not os.path.lexists(parent_path):
        raise _error(child, ("extends",), _missing_file(target, parent_path, child.path), "extends-missing")
    refused = refusal(parent_path, variant=True)
    if refused is not None:
        raise _error(child, ("extends",), f"cannot use parent {_shown(target)}: {refused}",
                     "extends-not-variant")
    if not os.path.isfile(parent_path):
        raise _error(child, ("extends",), _missing_file(target, parent_path, child.path), "extends-missing")
    try:
        parent = load_document(parent_path)
    except VariantError as problem:
        # Placed in the parent, but quoting nothing of it: it is not known to be a variant.
        raise VariantError([_unquoted(d, child.path) for d in problem.diagnostics]) from None
    own_id = parent.data.get("id")
    if not isinstance(own_id, str) or not is_variant_id(own_id):
        raise _error(child, ("extends",),
                     f"cannot use parent {_shown(target)}: not a variant file: its top level has no "
                     "'id' written as a variant id", "extends-not-variant")
    return parent


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to 200 characters (a path may be any length).

    >>> len(_shown("a" * 500)), _shown("base.yaml")
    (203, "'base.yaml'")
    """
    quoted = repr(text)
    return quoted if len(quoted) <= 200 else quoted[:200] + "..."


_WHAT = {
    "io": "it cannot be read",
    "encoding": "it is not UTF-8 text",
    "limit-size": "it is too large",
    "limit-depth": "it nests too deeply",
    "limit-aliases": "it has too many YAML aliases",
    "empty": "it is empty",
    "top-level": "its top level is not a mapping",
    "yaml": "malformed YAML",
    "yaml-tag": "a YAML tag that is not allowed",
    "yaml-key": "a mapping key that is not a string",
    "yaml-duplicate-key": "a key written twice",
    "yaml-multi-doc": "a second YAML document",
    "yaml-merge": "a YAML merge key",
    "yaml-alias": "an alias inside the node it names",
}


def _unquoted(diagnostic: Diagnostic, child: str) -> Diagnostic:
    """A parent's reading problem said without a word of the parent: the kind of
    problem, the place, and how to see more; no source line is shown.

    >>> from rummydsl.errors import Location
    >>> d = Diagnostic(Location("/etc/x.yaml", 2, 1), "duplicate key 'secret'", "yaml-duplicate-key")
    >>> d2 = _unquoted(d, "house.yaml")
    >>> str(d2), d2.snippet
    ("/etc/x.yaml:2:1: not a readable variant file (a key written twice), named by 'extends' in 'house.yaml'; run 'rummydsl check' on it alone to see the problem", '')
    """
    what = _WHAT.get(diagnostic.rule, diagnostic.rule)
    message = (f"not a readable variant file ({what}), named by 'extends' in {child!r}; "
               "run 'rummydsl check' on it alone to see the problem")
    return Diagnostic(diagnostic.location, message, diagnostic.rule, diagnostic.severity, snippet="")


def _missing_file(target: str, parent_path: str, child_path: str) -> str:
    """The message for a parent file that does not exist, with the closest variant
    file of its folder (only regular ``*.yaml``/``*.yml`` files are listed; never the
    file that names the parent: it cannot extend itself)."""
    message = f"cannot find parent {_shown(target)}: there is no file {_shown(parent_path)}"
    folder = os.path.dirname(parent_path) or "."
    itself = os.path.abspath(child_path)
    try:
        names = [n for n in os.listdir(folder)
                 if n.endswith((".yaml", ".yml")) and not n.startswith(".")
                 and os.path.abspath(os.path.join(folder, n)) != itself]
    except (OSError, ValueError):
        names = []
    close = closest(os.path.basename(parent_path), names)
    if close and is_variant_file(os.path.join(folder, close)):
        suggestion = os.path.join(os.path.dirname(target), close)
        message += f"; did you mean {suggestion!r}?"
    return message


def merge(parent: Any, child: Any) -> Any:
    """Merge ``child`` onto ``parent`` by rules 1-4 of the module docstring (without
    the top-level rules 5 to 7). Neither argument is changed."""
    if isinstance(child, dict):
        base = parent if isinstance(parent, dict) else {}
        result = dict(base)
        for key, value in child.items():
            if value is None:
                result.pop(key, None)
            else:
                result[key] = merge(base.get(key), value)
        return result
    return child


def _merge_chain(documents: list[Document]) -> Resolved:
    merged: Any = documents[-1].data
    parent_data: Any = None
    warnings: list[Diagnostic] = []
    blanks: list[Blank] = []
    for index in range(len(documents) - 2, -1, -1):
        child = documents[index]
        parent = documents[index + 1]
        _check_version(child, parent, merged)
        parent_data = merged
        found = _blank_deletions(child, merged, _shown_parent(child), blanks if index == 0 else None)
        warnings.extend(found)
        inherited = {k: v for k, v in merged.items() if k not in NOT_INHERITED}
        child_data = child.data
        if isinstance(child_data.get("turn"), dict) and isinstance(inherited.get("turn"), list):
            child_data = {**child_data, "turn": _turn_by_name(child, inherited["turn"])}
        merged = merge(inherited, child_data)
    positions = MergedPositions(merged, [d.positions for d in documents])
    return Resolved(
        data=merged,
        positions=positions,
        chain=tuple(d.path for d in documents),
        parent_data=parent_data,
        documents=tuple(documents),
        warnings=tuple(warnings),
        blanks=tuple(blanks),
    )


def _step_name(step: Any) -> str | None:
    """The name of a turn step as written (``draw`` or ``{draw: {...}}``)."""
    if isinstance(step, str):
        return step
    if isinstance(step, dict) and len(step) == 1:
        name = next(iter(step))
        return name if isinstance(name, str) else None
    return None


def _turn_by_name(child: Document, inherited: list[Any]) -> list[Any]:
    """The child's ``turn`` mapping (step name -> settings) applied to the inherited
    turn list: rule 5 of the module docstring. The child's positions learn the
    steps' new paths, so problems in them are still placed in the child."""
    changes: dict[str, Any] = child.data["turn"]
    names = [_step_name(step) for step in inherited]
    for name in changes:
        if name not in names:
            known = ", ".join(n for n in names if n)
            close = closest(str(name), [n for n in names if n])
            hint = f"; did you mean {close!r}?" if close else ""
            raise _error(child, ("turn", name),
                         f"the inherited turn has no step {name!r} to change (it has {known}){hint} "
                         "(to add a step or change the order, write the whole turn as a list)",
                         "extends-turn",
                         value=False)
    result: list[Any] = []
    for step, step_name in zip(inherited, names):
        if step_name is None or step_name not in changes:
            result.append(step)
            continue
        change = changes[step_name]
        if change is None:
            continue  # the step is removed
        settings = step.get(step_name) if isinstance(step, dict) else None
        merged = merge(settings if isinstance(settings, dict) else {}, change)
        child.positions.alias(("turn", step_name), ("turn", len(result), step_name))
        result.append({step_name: merged})
    return result


def _shown_parent(child: Document) -> str:
    """The parent as the child names it (``gin_rummy``, ``./base.yaml``)."""
    return str(child.data.get("extends"))


def _blank_deletions(child: Document, parent: Any, parent_name: str,
                     blanks: list[Blank] | None = None) -> list[Diagnostic]:
    """A warning for each key the child leaves blank that deletes one it inherits.

    Only a blank value is warned of: ``null`` or ``~`` written out says the
    deletion is meant (rule 4 of the module docstring).

    >>> from rummydsl.variant.load import load_document
    >>> child = load_document("house.yaml", "extends: base\\nknock:\\nlayoff: ~\\n")
    >>> [str(d) for d in _blank_deletions(child, {"knock": {"limit": 10}, "layoff": {}}, "base")]
    ["house.yaml:2:1: warning: the blank 'knock:' deletes the inherited 'knock' (limit) of base; write 'knock: null' if you mean to delete it, or indent the keys meant to go under it [extends-delete]"]
    """
    found: list[Diagnostic] = []
    stack: list[tuple[KeyPath, Any, Any]] = [((), child.data, parent)]
    while stack:
        path, mine, theirs = stack.pop()
        if not isinstance(mine, dict) or not isinstance(theirs, dict):
            continue
        for key, value in mine.items():
            if not isinstance(key, str) or key not in theirs or (not path and key in NOT_INHERITED):
                continue
            here = path + (key,)
            if value is not None:
                stack.append((here, value, theirs[key]))
                continue
            if theirs[key] is None or child.positions.scalar_text(here) != "":
                continue
            name = ".".join(str(part) for part in here)
            removed = theirs[key]
            what = (f" ({', '.join(str(k) for k in removed)})" if isinstance(removed, dict) and removed
                    else f" ({removed!r})" if not isinstance(removed, (dict, list))
                    else "")
            if isinstance(removed, bool):
                what = f" ({'true' if removed else 'false'})"
            where = child.positions.key(here)
            if blanks is not None:
                blanks.append(Blank(here, where, tuple(str(k) for k in removed)
                                    if isinstance(removed, dict) else ()))
            found.append(Diagnostic(
                where,
                f"the blank '{key}:' deletes the inherited {name!r}{what} of {parent_name}; write "
                f"'{key}: null' if you mean to delete it, or indent the keys meant to go under it",
                "extends-delete", "warning", snippet=child.line(where.line)))
    return sorted(found, key=lambda d: (d.location.line, d.location.column))


def _check_version(child: Document, parent: Document, parent_data: dict[str, Any]) -> None:
    if "rummydsl" not in child.data or child.data["rummydsl"] is None:
        return
    mine, theirs = child.data["rummydsl"], parent_data.get("rummydsl")
    if theirs is not None and (mine != theirs or type(mine) is not type(theirs)):
        raise _error(child, ("rummydsl",),
                     f"this file is written in rummydsl {mine!r} but its parent "
                     f"{parent.path!r} in rummydsl {theirs!r}; a variant can only extend "
                     "one of the same language version", "extends-version")

