"""PyYAML's safe composer with limits: the node graph of a variant file.

:class:`LimitedLoader` is a ``SafeLoader`` that only composes nodes (no YAML
constructor ever runs, so no Python object can be created from the file), types
plain scalars by the YAML 1.2 core schema (:mod:`.load_scalars`), refuses more than
:data:`~.load_read.MAX_ALIASES` alias uses and more than
:data:`~.load_read.MAX_DEPTH` levels of nesting *before* the composer could recurse
deeper (so even ``[[[[...`` ten thousand deep fails quickly and cleanly), and
records where every scalar token and tag starts (for :mod:`.load_positions`).

:func:`load_python` reads a whole document this way: the reference reader, exact
in every position and the one that reports every problem; :mod:`.load_fast` is a
shortcut for plain files that falls back to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import yaml
from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rummydsl.errors import Diagnostic, Location, VariantError

from .load_build import AliasNode, NodeBuilder
from .load_positions import Document, Positions
from .load_read import MAX_ALIASES, MAX_DEPTH, VARIANT_LIMITS, Refused, YamlLimits, line_starts, split_lines, with_snippet
from .load_scalars import MAP, NULL, SEQ, STR, kind_name, mark_location, resolve_plain

__all__ = ["LimitedLoader", "load_python", "load_python_text"]

# Plain words for PyYAML's commonest problems (a fragment of its text -> a hint).
_YAML_HINTS = (
    ("found character '\\t' that cannot start any token",
     "YAML indents with spaces; a tab cannot start a token"),
    ("mapping values are not allowed here",
     "a value that contains ': ' must be quoted, or the indentation is off"),
    ("could not find expected ':'",
     "a key needs a ':' after it; is a line's indentation off, or a quote unclosed?"),
    ("found unexpected end of stream",
     "the file ends inside a quoted string or a bracket; is one left open?"),
    ("did not find expected key",
     "the indentation is off, or a list item '- ' is mixed into a mapping"),
    ("found undefined alias",
     "an alias *name repeats a value marked &name earlier in the file"),
    ("did not find expected node content",
     "a value is missing where one was expected"),
)



class LimitedLoader(yaml.SafeLoader):
    """PyYAML's safe scanner/parser/composer, with limits and position records."""

    if TYPE_CHECKING:
        # Unannotated in types-PyYAML. The pure-Python parser's events always carry
        # marks (an alias event its anchor), which the stubs' Event cannot say.
        def peek_event(self) -> Any: ...
        def get_event(self) -> Any: ...

    def __init__(self, stream: str, path: str, max_aliases: int = MAX_ALIASES) -> None:
        super().__init__(stream)
        self.path = path
        self.max_aliases = max_aliases
        self.scalar_tokens: dict[int, tuple[int, str, int]] = {}
        """Scalar tokens by end index: (start index, style, block indentation)."""
        self.tag_starts: list[int] = []
        self.alias_count = 0
        self.depth = 0

    # The YAML 1.2 core schema instead of PyYAML's 1.1 resolvers.
    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        """The tag of an untagged node: the YAML 1.2 core schema, not PyYAML's 1.1."""
        if kind is ScalarNode:
            if implicit[0]:
                return resolve_plain(value)
            return STR
        return SEQ if kind is SequenceNode else MAP

    # Record where scalar tokens start (an event's mark may be its tag or anchor).
    def scan_plain(self) -> Any:
        """PyYAML's, recording where the token starts."""
        token = super().scan_plain()
        self.scalar_tokens[token.end_mark.index] = (token.start_mark.index, "", -1)
        return token

    def scan_flow_scalar(self, style: str) -> Any:
        """PyYAML's, recording where the token starts and its style."""
        token = super().scan_flow_scalar(style)
        self.scalar_tokens[token.end_mark.index] = (token.start_mark.index, style, -1)
        return token

    def scan_block_scalar(self, style: str) -> Any:
        """PyYAML's, recording the token's start, style and the indentation before it."""
        indent = self.indent
        token = super().scan_block_scalar(style)
        self.scalar_tokens[token.end_mark.index] = (token.start_mark.index, style, indent)
        return token

    def scan_tag(self) -> Any:
        """PyYAML's, recording where the tag starts."""
        token = super().scan_tag()
        self.tag_starts.append(token.start_mark.index)
        return token

    def compose_node(self, parent: Any, index: Any) -> Any:
        """PyYAML's, with the alias and depth limits checked before it recurses."""
        if self.check_event(AliasEvent):
            event = self.peek_event()
            self.alias_count += 1
            if self.alias_count > self.max_aliases:
                raise Refused(Diagnostic(
                    mark_location(self.path, event.start_mark),
                    f"too many aliases: a variant file may use at most {self.max_aliases:,}",
                    "limit-aliases",
                ))
            # an alias composes to the node its anchor names, never None
            target = cast(Node, super().compose_node(parent, index))
            return AliasNode(target, event.start_mark, event.anchor)
        if self.check_event(SequenceStartEvent, MappingStartEvent):
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise Refused(Diagnostic(
                        mark_location(self.path, self.peek_event().start_mark),
                        f"nested too deeply: a variant file may nest at most {MAX_DEPTH} "
                        "levels of mappings and lists",
                        "limit-depth",
                    ))
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1
        return super().compose_node(parent, index)


def load_python(path: str, text: str) -> Document:
    """The document read by the pure-Python loader alone (the exact positions)."""
    return load_python_text(path, text, tuple(split_lines(text)))


def load_python_text(path: str, text: str, lines: tuple[str, ...],
                     limits: YamlLimits = VARIANT_LIMITS) -> Document:
    """The document of ``text`` (split into ``lines``) read by the pure-Python loader."""
    loader = LimitedLoader(text, path, limits.aliases)
    try:
        try:
            loader.get_event()  # stream start
            if loader.check_event(StreamEndEvent):
                raise _empty(path)
            root = loader.compose_document()
            assert root is not None  # a document started, so it has a node
            if not loader.check_event(StreamEndEvent):
                event = loader.get_event()
                raise Refused(Diagnostic(
                    mark_location(path, event.start_mark),
                    "a variant file holds one YAML document, but a second one starts "
                    "here ('---')",
                    "yaml-multi-doc",
                ))
        except yaml.MarkedYAMLError as exc:
            raise Refused(_yaml_diagnostic(path, exc)) from None
        except yaml.YAMLError as exc:
            raise Refused(Diagnostic(Location(path, 1, 1), f"malformed YAML: {exc}",
                                      "yaml")) from None
        if isinstance(root, ScalarNode) and root.tag == NULL and not root.value:
            raise _empty(path)
        builder = NodeBuilder(loader, path, line_starts(text), limits.nodes)
        data = builder.build(root, (), 0, None)
        root_node = root.target if isinstance(root, AliasNode) else root
        if not isinstance(root_node, MappingNode) or not isinstance(data, dict):
            if builder.diagnostics:
                raise VariantError(with_snippet(d, lines) for d in builder.diagnostics)
            raise Refused(Diagnostic(
                mark_location(path, root_node.start_mark),
                f"the top level must be a mapping of keys, got {kind_name(data)}",
                "top-level",
            ))
        if builder.diagnostics:
            raise VariantError(with_snippet(d, lines) for d in builder.diagnostics)
        positions = Positions(path, text, builder.entries)
        return Document(path, data, positions, lines)
    finally:
        loader.dispose()


def _empty(path: str) -> Refused:
    return Refused(Diagnostic(
        Location(path, 1, 1),
        "the file is empty: a variant needs at least 'rummydsl', 'id' and 'name'",
        "empty",
    ))


def _plain_yaml_message(exc: yaml.MarkedYAMLError) -> tuple[Any, str] | None:
    """The parser's words for the usual slips, said plainly, with the place to fix:
    a line indented differently from the keys around it, and a quote left open
    (placed at the opening quote, not at the end of the file)."""
    problem = exc.problem or ""
    context = exc.context or ""
    if problem.startswith("expected <block end>, but found") and exc.problem_mark is not None:
        return exc.problem_mark, ("this line is indented differently from the keys above it; "
                                  "indent each key of a mapping by the same number of spaces")
    if "end of stream" in problem and "quoted scalar" in context and exc.context_mark is not None:
        return exc.context_mark, ("this quote is never closed: the string runs to the end of the file; "
                                  "add the closing quote")
    return None


def _yaml_diagnostic(path: str, exc: yaml.MarkedYAMLError) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "unreadable YAML"
    context = exc.context if exc.problem else None
    if context and context.startswith("found duplicate anchor"):
        anchor = context.split("'")[1] if "'" in context else "?"
        first = exc.context_mark
        message = (f"the anchor &{anchor} is defined twice"
                   + (f" (first on line {first.line + 1})" if first else ""))
        return Diagnostic(mark_location(path, mark), message, "yaml")
    plain = _plain_yaml_message(exc)
    if plain is not None:
        where, words = plain
        return Diagnostic(mark_location(path, where), f"malformed YAML: {words}", "yaml")
    message = f"malformed YAML: {problem}"
    for fragment, hint in _YAML_HINTS:
        if fragment in problem:
            message += f" ({hint})"
            break
    if context and exc.context_mark is not None and exc.context_mark is not mark:
        cm = exc.context_mark
        message += f", {context} that starts on line {cm.line + 1}, column {cm.column + 1}"
    return Diagnostic(mark_location(path, mark), message, "yaml")
