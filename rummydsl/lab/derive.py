"""``sweep --set KEY=V1,V2,...``: variants derived from a base, one for each value.

A derived variant is a real variant file: a small child that ``extends:`` the base
and sets the swept keys. It is kept as a :class:`DerivedVariant`, the pair (base,
text of the child), so it can be checked as it stands, written to a folder (for
worker processes, which load variants from files), or shipped to another machine.

``KEY`` is a dotted path into the variant file (``knock.limit``, ``game.target``)
or ``options.NAME`` (which sets that option's ``value``). The values are YAML
scalars separated by commas (``7`` is a number, ``true`` a boolean, ``"7"`` a
string); to give values that hold commas, write a YAML list:
``--set 'knock.limit=[7, "min(10, value(upcard))"]'``.

>>> setting = parse_set("knock.limit=0,7,10")
>>> setting.path, setting.values
(('knock', 'limit'), (0, 7, 10))
>>> print(child_text("gin_rummy", [(setting, 7)]), end="")
# derived by rummydsl sweep from gin_rummy: knock.limit=7
id: gin_rummy__knock_limit_7
name: gin_rummy (knock.limit=7)
extends: gin_rummy
knock:
  limit: 7
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from ..errors import Diagnostic, Location, RummyDslError, VariantError

__all__ = ["Setting", "DerivedVariant", "parse_set", "derive", "child_text", "SetSyntaxError"]


class SetSyntaxError(RummyDslError, ValueError):
    """A ``--set`` argument that cannot be read at all (a usage error: ``sweep`` exits with 2)."""


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


@dataclass(frozen=True)
class Setting:
    """One ``--set`` argument: the key path and the values to try, in order."""

    argument: str
    """The argument as given (``knock.limit=0,7``), for messages."""
    path: tuple[str, ...]
    values: tuple[Any, ...]

    @property
    def key(self) -> str:
        """The dotted key (``knock.limit``)."""
        return ".".join(self.path)


def parse_set(argument: str) -> Setting:
    """Read one ``--set KEY=V1,V2,...`` argument (values as YAML scalars, or a YAML list).

    :raises SetSyntaxError: when there is no ``=``, the key is not a dotted name,
        or a value is not a YAML scalar.

    >>> parse_set("options.gin_bonus=20,25").values
    (20, 25)
    >>> parse_set('knock.limit=[7, "min(10, value(upcard))"]').values
    (7, 'min(10, value(upcard))')
    >>> parse_set("knock.limit")
    Traceback (most recent call last):
    ...
    rummydsl.lab.derive.SetSyntaxError: --set 'knock.limit': write KEY=VALUE[,VALUE...], e.g. knock.limit=7,10
    """
    key, equals, text = argument.partition("=")
    key = key.strip()
    if not equals or not text.strip():
        raise SetSyntaxError(f"--set {argument!r}: write KEY=VALUE[,VALUE...], e.g. knock.limit=7,10")
    if not _KEY.fullmatch(key):
        raise SetSyntaxError(f"--set {argument!r}: the key {key!r} is not a dotted name such as "
                             "knock.limit or options.gin_bonus")
    text = text.strip()
    try:
        if text.startswith("["):
            loaded = yaml.safe_load(text)
            pieces = list(loaded) if isinstance(loaded, list) else [loaded]
        else:
            pieces = [yaml.safe_load(piece) for piece in text.split(",")]
    except yaml.YAMLError as problem:
        raise SetSyntaxError(f"--set {argument!r}: the values are not YAML: "
                             f"{str(problem).splitlines()[0]}") from None
    for value in pieces:
        if isinstance(value, (dict, list)) or (value is None and text != "null"):
            raise SetSyntaxError(f"--set {argument!r}: each value must be a YAML scalar, got {value!r}")
    if len(set(map(repr, pieces))) != len(pieces):
        raise SetSyntaxError(f"--set {argument!r}: a value is given twice")
    return Setting(argument, tuple(key.split(".")), tuple(pieces))


def _id_piece(value: Any) -> str:
    """A value as a piece of a variant id (lowercase letters, digits, ``_``)."""
    text = re.sub(r"[^a-z0-9]+", "_", str(value).lower()).strip("_")
    return text or "x"


def _label(choice: Sequence[tuple[Setting, Any]]) -> str:
    return ", ".join(f"{setting.key}={yaml.safe_dump(value, default_flow_style=True).strip().removesuffix('...').strip()}"
                     for setting, value in choice)


def child_text(base: str, choice: Sequence[tuple[Setting, Any]], base_id: str | None = None) -> str:
    """The text of the child variant that sets each (setting, value) of ``choice`` on ``base``."""
    tree: dict[str, Any] = {}
    for setting, value in choice:
        path = setting.path
        if path[0] == "options" and len(path) == 2:
            path = (*path, "value")
        node = tree
        for step in path[:-1]:
            child = node.setdefault(step, {})
            if not isinstance(child, dict):
                raise SetSyntaxError(f"--set {setting.argument!r}: {setting.key!r} overlaps another --set")
            node = child
        if path[-1] in node:
            raise SetSyntaxError(f"--set {setting.argument!r}: {setting.key!r} is set twice")
        node[path[-1]] = value
    name = base_id or Path(base).stem
    variant_id = "__".join([_id_piece(name)] + [f"{_id_piece(s.key)}_{_id_piece(v)}" for s, v in choice])
    if not variant_id[0].isalpha():
        variant_id = "v" + variant_id
    header = {"id": variant_id, "name": f"{name} ({_label(choice)})", "extends": base}
    return (f"# derived by rummydsl sweep from {name}: {_label(choice)}\n"
            + yaml.safe_dump(header, sort_keys=False, allow_unicode=True)
            + yaml.safe_dump(tree, sort_keys=False, allow_unicode=True))


@dataclass(frozen=True)
class DerivedVariant:
    """A variant derived from a base by ``--set``: the base (a shipped id or an absolute
    path) and the text of the child that extends it."""

    base: str
    text: str
    label: str
    """What was set (``knock.limit=7``), for tables."""
    name: str
    """A file name for the child (``<id>.yaml``)."""

    def write(self, folder: str) -> str:
        """Write the child into ``folder``; returns its path.

        A base file is copied into ``folder`` too (its ``extends`` chain laid out by
        the chain's relative paths, as :class:`rummydsl.backends.VariantSource` lays
        it out for the workers of a Ray cluster), and the child names the copy by a
        relative path: a parent is never named by an absolute path, nor from further
        than two folders up (docs/security.md), and a temporary folder may lie
        anywhere. :attr:`text` keeps the absolute path, for people.
        """
        text = self.text
        if os.path.isabs(self.base):
            from ..backends import VariantSource

            source = VariantSource.of(self.base)
            if source.shipped is None and source.files:
                copied = source.write_into(os.path.join(folder, "base"))
                text = self._extends(os.path.relpath(copied, folder))
            else:
                text = self.text_in(folder)
        path = os.path.join(folder, self.name)
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
        return path

    def _extends(self, target: str) -> str:
        """:attr:`text` with its base named ``target`` instead."""
        absolute = yaml.safe_dump({"extends": self.base}, allow_unicode=True)
        relative = yaml.safe_dump({"extends": target}, allow_unicode=True)
        return self.text.replace(absolute, relative, 1)

    def text_in(self, folder: str) -> str:
        """The child's text as written into ``folder``: a file base named relative to it.

        >>> child = DerivedVariant("/rules/base.yaml", "id: c\\nextends: /rules/base.yaml\\n", "x=1", "c.yaml")
        >>> print(child.text_in("/tmp/sweep"), end="")
        id: c
        extends: ../../rules/base.yaml
        >>> child = DerivedVariant("gin_rummy", "id: c\\nextends: gin_rummy\\n", "x=1", "c.yaml")
        >>> child.text_in("/tmp/sweep") == child.text
        True
        """
        if not os.path.isabs(self.base):
            return self.text
        return self._extends(os.path.relpath(self.base, folder))


def derive(base: str, settings: Sequence[Setting]) -> list[DerivedVariant]:
    """The variants of a sweep: one per combination of the settings' values (the first
    setting varies slowest), each checked as a variant file before anything is played.

    ``base`` is a shipped variant id or a file path.

    :raises SetSyntaxError: when two settings name the same key.
    :raises VariantError: for the base, or for a derived variant with an error; each
        problem of a derived variant is placed at the ``--set`` argument(s) that made it.

    >>> [d.label for d in derive("gin_rummy", [parse_set("options.gin_bonus=20,25")])]
    ['options.gin_bonus=20', 'options.gin_bonus=25']
    >>> derive("gin_rummy", [parse_set("knock.limt=7")])
    Traceback (most recent call last):
    ...
    rummydsl.errors.VariantError: --set knock.limt=7: ...
    """
    from ..variant import check_file, find_variant_path, is_variant_id, load_variant

    base_variant = load_variant(base)
    path = find_variant_path(base)
    shipped = is_variant_id(base) and not os.path.exists(base)
    reference = base if shipped else os.path.abspath(path)
    keys = [s.key for s in settings]
    for setting in settings:
        if keys.count(setting.key) > 1:
            raise SetSyntaxError(f"--set {setting.argument!r}: {setting.key!r} is set twice")
        if setting.path[0] == "options" and len(setting.path) == 2 and setting.path[1] not in base_variant.options:
            from ..suggest import closest

            names = ", ".join(base_variant.options) or "none"
            close = closest(setting.path[1], list(base_variant.options))
            hint = f"; did you mean {close!r}?" if close else ""
            raise VariantError([Diagnostic(Location(f"--set {setting.argument}"),
                                           f"{base_variant.id} has no option {setting.path[1]!r}{hint} "
                                           f"(its options: {names})", "option-unknown")])
    several = len(list(itertools.product(*[s.values for s in settings]))) > 1
    derived: list[DerivedVariant] = []
    problems: list[Diagnostic] = []
    for combination in itertools.product(*[s.values for s in settings]):
        choice = list(zip(settings, combination))
        text = child_text(reference, choice, base_variant.id)
        label = _label(choice)
        where = "--set " + " --set ".join(s.argument for s in settings)
        child_id = yaml.safe_load(text)["id"]
        checked = os.path.join(os.path.dirname(os.path.abspath(path)), f"{child_id}.yaml")
        # Checked as if beside the base, naming it relatively (a parent is never absolute).
        checked_text = DerivedVariant(reference, text, label, "").text_in(os.path.dirname(checked))
        for diagnostic in check_file(checked, checked_text):
            if diagnostic.severity != "error":
                continue
            message = diagnostic.message
            if diagnostic.location.path == checked:
                line = checked_text.splitlines()[diagnostic.location.line - 1] if diagnostic.location.line else ""
                message = (f"{label}: " if several else "") + message + (f" (in the derived line {line.strip()!r})" if line else "")
            problems.append(Diagnostic(Location(where), message, diagnostic.rule))
        derived.append(DerivedVariant(reference, text, label, f"{child_id}.yaml"))
    if problems:
        raise VariantError(list(dict.fromkeys(problems)))
    return derived
