"""From PyYAML's node graph to plain Python values, recording every node's place.

:class:`NodeBuilder` walks the graph the composer made (:mod:`.load_compose`) and
builds ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``
itself, so no YAML constructor ever runs. On the way it refuses what a variant
file may not hold: tags other than the core ones (``yaml-tag``), keys that are
not strings (``yaml-key``) or appear twice (``yaml-duplicate-key``), merge keys
(``yaml-merge``), an alias inside the node it names (``yaml-alias``), and more
than :data:`~.load_read.MAX_NODES` values or :data:`~.load_read.MAX_DEPTH` levels
once aliases are expanded.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, cast

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rummydsl.errors import Diagnostic, Location

from .load_positions import Entry, ScalarToken, index_location
from .load_read import MAX_DEPTH, MAX_NODES, KeyPath, Refused
from .load_scalars import (
    ALLOWED_TAGS,
    BOOL,
    BOOL_RE,
    FLOAT,
    FLOAT_RE,
    INT,
    INT_RE,
    MAP,
    NULL,
    NULL_RE,
    SEQ,
    STR,
    SURROGATE,
    kind_name,
    mark_location,
    tag_text,
)

if TYPE_CHECKING:
    from .load_compose import LimitedLoader

__all__ = ["AliasNode", "NodeBuilder", "too_many_values"]


def too_many_values(location: Location, max_nodes: int, aliased: bool) -> Diagnostic:
    """The refusal of a file past ``max_nodes`` values, at the value that passed it (the
    outermost alias being expanded, if any): ``limit-aliases`` when the file uses aliases
    at all, else ``limit-size``. (The libyaml fast path gives it too, :mod:`.load_fast`.)"""
    if aliased:
        return Diagnostic(location, f"the aliases expand to more than {max_nodes:,} values (an alias "
                                    "bomb?); a variant file may not grow that large", "limit-aliases")
    return Diagnostic(location, f"the file holds more than {max_nodes:,} values; a variant file may not "
                                "be that large", "limit-size")


class AliasNode:
    """An alias use in the node graph (PyYAML would return the anchored node itself)."""

    def __init__(self, target: Node, start_mark: yaml.Mark, name: str) -> None:
        self.target = target
        self.start_mark = start_mark
        self.name = name


class NodeBuilder:
    """Builds plain Python values from the node graph, recording positions."""

    def __init__(self, loader: LimitedLoader, path: str, line_starts: list[int],
                 max_nodes: int = MAX_NODES) -> None:
        self.loader = loader
        self.max_nodes = max_nodes
        self.path = path
        self.line_starts = line_starts
        self.entries: dict[KeyPath, Entry] = {}
        self.diagnostics: list[Diagnostic] = []
        self.count = 0
        self.active: set[int] = set()
        self.reported: set[int] = set()
        self.expanding: list[Any] = []  # marks of the aliases being expanded

    def location(self, mark: Any) -> Location:
        """The 1-based location of a PyYAML mark in this file."""
        return mark_location(self.path, mark)

    def tick(self, mark: Any) -> None:
        """Count one more value; refuse the file past ``max_nodes`` (an alias bomb, or too big)."""
        self.count += 1
        if self.count <= self.max_nodes:
            return
        aliased = bool(self.loader.alias_count)
        raise Refused(too_many_values(self.location(self.expanding[0] if aliased and self.expanding else mark),
                                      self.max_nodes, aliased))

    def report(self, node: Any, diagnostic: Diagnostic) -> None:
        """Record a problem of ``node``, once however often aliases repeat it."""
        if id(node) not in self.reported:
            self.reported.add(id(node))
            self.diagnostics.append(diagnostic)

    def tag_location(self, node: Node) -> Location:
        """Where the tag of ``node`` is written (else where the node starts)."""
        start = node.start_mark.index
        k = bisect.bisect_left(self.loader.tag_starts, start)
        if k < len(self.loader.tag_starts):
            return index_location(self.path, self.line_starts, self.loader.tag_starts[k])
        return self.location(node.start_mark)

    def unalias(self, node: Any) -> tuple[Node, Any]:
        """The real node and the mark its value location is (the alias, if any)."""
        if isinstance(node, AliasNode):
            if id(node.target) in self.active:
                raise Refused(Diagnostic(
                    self.location(node.start_mark),
                    f"the alias *{node.name} is inside the node it names, "
                    "which would make an endless structure",
                    "yaml-alias",
                ))
            return node.target, node.start_mark
        return node, node.start_mark

    def build(self, node: Any, path: KeyPath, depth: int, key: Location | None) -> Any:
        """The value of ``node`` at ``path`` (``depth`` levels down; ``key``: where its key is)."""
        if isinstance(node, AliasNode):
            self.expanding.append(node.start_mark)
            try:
                return self.build_node(node, path, depth, key)
            finally:
                self.expanding.pop()
        return self.build_node(node, path, depth, key)

    def build_node(self, node: Any, path: KeyPath, depth: int, key: Location | None) -> Any:
        """:meth:`build` without the alias bookkeeping: checks the tag and the depth."""
        node, mark = self.unalias(node)
        self.tick(mark)
        where = self.location(mark)
        if node.tag not in ALLOWED_TAGS:
            self.report(node, Diagnostic(
                self.tag_location(node),
                f"YAML tag {tag_text(node.tag)!r} is not allowed",
                "yaml-tag",
            ))
            self.entries[path] = Entry(where, key, None)
            return None
        if isinstance(node, ScalarNode):
            self.entries[path] = Entry(where, key, self.scalar_info(node))
            return self.scalar(node)
        if depth + 1 > MAX_DEPTH:
            raise Refused(Diagnostic(
                self.location(self.expanding[-1]) if self.expanding else where,
                f"nested too deeply: a variant file may nest at most {MAX_DEPTH} "
                "levels of mappings and lists (counting what aliases repeat)",
                "limit-depth",
            ))
        self.entries[path] = Entry(where, key, None)
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                if node.tag != SEQ:
                    return self.wrong_tag(node)
                return [self.build(item, path + (i,), depth + 1, None)
                        for i, item in enumerate(node.value)]
            if node.tag != MAP:
                return self.wrong_tag(node)
            return self.mapping(node, path, depth + 1)
        finally:
            self.active.discard(id(node))

    def wrong_tag(self, node: Node) -> None:
        """Report a collection whose tag is a scalar's (``!!str [1]``)."""
        self.report(node, Diagnostic(
            self.tag_location(node),
            f"YAML tag {tag_text(node.tag)!r} does not fit a "
            f"{'list' if isinstance(node, SequenceNode) else 'mapping'}",
            "yaml-tag",
        ))
        return None

    def mapping(self, node: MappingNode, path: KeyPath, depth: int) -> dict[str, Any]:
        """A mapping's value: string keys, each once, no merge keys."""
        result: dict[str, Any] = {}
        first_seen: dict[str, Location] = {}
        for key_node, value_node in node.value:
            real_key, key_mark = self.unalias(key_node)
            self.tick(key_mark)
            key_location = self.location(key_mark)
            key = self.key(real_key, key_location)
            if key is None:
                continue
            if key in first_seen:
                first = first_seen[key]
                self.diagnostics.append(Diagnostic(
                    key_location,
                    f"duplicate key {key!r}: it is already set on line {first.line}",
                    "yaml-duplicate-key",
                ))
                continue
            first_seen[key] = key_location
            result[key] = self.build(value_node, path + (key,), depth, key_location)
        return result

    def key(self, node: Node, where: Location) -> str | None:
        """The key as a string, or None after reporting why it cannot be one."""
        if node.tag not in ALLOWED_TAGS:
            self.report(node, Diagnostic(
                self.tag_location(node),
                f"YAML tag {tag_text(node.tag)!r} is not allowed",
                "yaml-tag",
            ))
            return None
        if isinstance(node, ScalarNode) and node.tag == STR:
            if node.value == "<<" and not node.style:
                self.diagnostics.append(Diagnostic(
                    where,
                    "merge keys '<<' are not supported; use 'extends:' to build on "
                    "another variant, or write the keys out",
                    "yaml-merge",
                ))
                return None
            if self.surrogate(node):
                return None
            return cast(str, node.value)  # a scalar node's value is its text
        if isinstance(node, ScalarNode):
            value = self.scalar(node)
            shown = node.value if node.value else "(empty)"
            self.diagnostics.append(Diagnostic(
                where,
                f"a mapping key must be a string, got {kind_name(value)} {shown}; "
                f"quote it if you mean the text: '{node.value}'",
                "yaml-key",
            ))
        else:
            kind = "a list" if isinstance(node, SequenceNode) else "a mapping"
            self.diagnostics.append(Diagnostic(
                where, f"a mapping key must be a string, got {kind}", "yaml-key"
            ))
        return None

    def surrogate(self, node: ScalarNode) -> bool:
        """Whether the string holds a lone surrogate (a ``"\\ud800"`` escape), after reporting it:
        such text is not Unicode, so no file, terminal or other engine could write it."""
        found = SURROGATE.search(node.value)
        if found is None:
            return False
        self.report(node, Diagnostic(
            self.location(node.start_mark),
            f"not Unicode text: the escape '\\u{ord(found.group()):04x}' is half of a surrogate pair "
            "(a lone surrogate); write the character itself, or its \\U escape",
            "yaml-unicode",
        ))
        return True

    def scalar_info(self, node: ScalarNode) -> ScalarToken:
        """Where the scalar's token lies, from the scanner's records."""
        token = self.loader.scalar_tokens.get(node.end_mark.index)
        if token is not None and token[0] >= node.start_mark.index:
            start, style, indent = token
        else:  # an empty value: no token of its own (start_mark may be a tag)
            start, style, indent = node.end_mark.index, node.style or "", -1
        return ScalarToken(start, node.end_mark.index, style, indent, node.value)

    def scalar(self, node: ScalarNode) -> Any:
        """A scalar's value by its (core) tag; None after reporting a bad one."""
        tag, text = node.tag, node.value
        if tag == STR:
            return None if self.surrogate(node) else text
        try:
            if tag == NULL and NULL_RE.match(text):
                return None
            if tag == BOOL and BOOL_RE.match(text):
                return text.lower() == "true"
            if tag == INT and INT_RE.match(text):
                if text.startswith(("0o", "0x")):
                    return int(text[2:], 8 if text[1] == "o" else 16)
                return int(text)
            if tag == FLOAT and (FLOAT_RE.match(text) or INT_RE.match(text)):
                lowered = text.lower()
                if lowered.endswith(".inf"):
                    return float("-inf") if lowered.startswith("-") else float("inf")
                if lowered == ".nan":
                    return float("nan")
                if INT_RE.match(text) and text.startswith(("0o", "0x")):
                    return float(int(text[2:], 8 if text[1] == "o" else 16))
                return float(text)
        except ValueError:  # Python refuses to convert integers of thousands of digits
            self.report(node, Diagnostic(
                self.location(node.start_mark),
                f"the number {text[:20]}... has too many digits",
                "yaml",
            ))
            return None
        self.report(node, Diagnostic(
            self.location(node.start_mark),
            f"{text!r} is not a valid {tag_text(tag)}",
            "yaml-tag",
        ))
        return None


