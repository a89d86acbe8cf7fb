"""The fast path: plain variant files read with libyaml's event parser.

Most variant files are plain: one mapping, no tags. For them :func:`load_fast`
reads libyaml's events (``yaml._yaml.CParser``, several times faster than PyYAML's
pure-Python parser) and builds the values and positions directly. Anchors and
aliases are taken too (suites share setups by them): an alias is the anchored
value copied, placed at the alias, with the places inside it those of the anchored
text, as the exact reader places them. Anything else (every error included, an
alias inside the node it names or past the limits) returns None, and the
pure-Python reader (:func:`.load_compose.load_python_text`) reads the file again
and reports exactly as it always has. Positions from this path are made lazily:
a scalar's token details are only worked out (by the exact reader) when an
expression error inside it asks for them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

from .load_positions import Document, Positions
from .load_read import MAX_ALIASES, MAX_DEPTH, MAX_NODES, KeyPath
from .load_scalars import INVALID, STR, SURROGATE, plain_value, resolve_plain

if TYPE_CHECKING:
    from yaml._yaml import CParser

__all__ = ["load_fast"]

# A block scalar's indicators as PyYAML's scanner accepts them.
_BLOCK_HEADER_RE = re.compile("[|>](?:[+-][1-9]?|[1-9][+-]?)?(?:[ \r\n\x85\u2028\u2029]|\\Z)")


def load_fast(parser_class: type[CParser], path: str, text: str,
              lines: tuple[str, ...], max_nodes: int = MAX_NODES,
              max_aliases: int = MAX_ALIASES) -> Document | None:
    """The document read with libyaml's parser, or None to read it the slow way.

    The fast path takes only the plain case: one document whose top level is a
    mapping, no tags or directives, string keys each once (none an anchor or an
    alias), no merge keys, numbers Python can convert, each anchor once and each alias
    after its anchored value ends, at most ``max_aliases`` aliases, nesting and size
    (aliases expanded) within the limits; past the size, the refusal the exact reader
    would give is raised here (:func:`_past_the_limit`). Anything
    else (every error included) returns None, and the pure-Python loader reads the
    file again and reports exactly as it always has. libyaml's parser is not
    recursive: events arrive flat, and the depth is checked on each one.
    """
    if "\t" in text or "\ufeff" in text:  # where PyYAML and libyaml disagree
        return None
    parser = parser_class(text)
    try:
        return _compose_fast(parser.get_event, path, text, lines, max_nodes, max_aliases)
    except yaml.YAMLError:
        return None
    finally:
        parser.dispose()


def _readers_disagree(event: Any, text: str, in_flow: bool) -> bool:
    """Whether libyaml read this scalar where PyYAML would not, or not so."""
    if event.style == '"' and SURROGATE.search(event.value):
        return True  # a "\ud800" escape: not Unicode; the exact reader says where
    if event.implicit[0] and in_flow and "?" in event.value:
        return True  # libyaml reads [a?b] as one scalar; PyYAML stops at the '?'
    # a block scalar's header libyaml allows and PyYAML refuses ('|#')
    return event.style in ("|", ">") and not _BLOCK_HEADER_RE.match(text, event.start_mark.index)


def _past_the_limit(get: Any, text: str, path: str, event: Any, max_nodes: int, level: int, in_flow: bool,
                    aliases: int, max_aliases: int, named: set[str]) -> None:
    """Refuse a file whose values (aliases expanded) passed ``max_nodes`` at ``event``, as the
    exact reader refuses it, or return None to leave it to that reader.

    The exact reader composes the whole file before it counts, so the refusal is its own only
    if the rest of the file composes without an error there: the rest is read here (not built)
    and anything the fast path does not take (a tag, an anchor twice, an alias before its
    anchor or past the limit, too deep, the spots where libyaml and PyYAML disagree) returns
    None. Otherwise the refusal is at the value that passed the limit (an alias, for what it
    expands to), worded by whether the file uses aliases at all. An alias bomb, or a file of
    100,000 values, is so refused without the pure-Python reader's seconds of work.
    """
    from rummydsl.errors import Location

    from .load_build import too_many_values
    from .load_read import Refused

    mark = event.start_mark
    flows = [in_flow] * level  # per open collection: inside a flow collection
    while True:
        event = get()
        cls = type(event)
        if cls is ScalarEvent:
            if event.tag is not None or event.anchor in named:
                return None
            if event.anchor is not None:
                named.add(event.anchor)
            if _readers_disagree(event, text, flows[-1]):
                return None
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if event.tag is not None or event.anchor in named or len(flows) + 1 > MAX_DEPTH:
                return None
            if event.anchor is not None:
                named.add(event.anchor)
            flows.append(flows[-1] or bool(event.flow_style))
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            flows.pop()
            if not flows:
                break
        elif cls is AliasEvent:
            aliases += 1
            if event.anchor not in named or aliases > max_aliases:
                return None
        else:
            return None
    if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
        return None
    raise Refused(too_many_values(Location(path, mark.line + 1, mark.column + 1), max_nodes, aliases > 0))


def _copy(value: Any) -> Any:
    """A fresh copy of a value's lists and mappings (each alias is a value of its own)."""
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    return value


class _Anchored:
    """An anchored value, complete: what an alias to it repeats."""

    __slots__ = ("value", "path", "entries", "count", "height")

    def __init__(self, value: Any, path: KeyPath, entries: list[tuple[KeyPath, Any]], count: int,
                 height: int) -> None:
        self.value = value
        self.path = path  # where it is written
        self.entries = entries  # its own entry first, then those inside it
        self.count = count  # the values it holds, itself and mapping keys included
        self.height = height  # levels of mappings and lists (0 for a scalar)


def _compose_fast(get: Any, path: str, text: str, lines: tuple[str, ...], max_nodes: int = MAX_NODES,
                  max_aliases: int = MAX_ALIASES) -> Document | None:
    if type(get()) is not StreamStartEvent:
        return None
    event = get()
    if type(event) is not DocumentStartEvent or event.version is not None or event.tags:
        return None
    event = get()
    if type(event) is not MappingStartEvent or event.anchor is not None or event.tag is not None:
        return None
    mark = event.start_mark
    assert mark is not None  # libyaml's events always carry marks
    root: dict[str, Any] = {}
    # (path, entry) in document order, so that what an anchored value holds is a slice
    entries: list[tuple[KeyPath, Any]] = [((), (mark.line + 1, mark.column + 1, 0, 0, False))]
    stack: list[tuple[Any, KeyPath, bool, bool]] = []
    anchors: dict[str, _Anchored] = {}  # the finished ones
    named: set[str] = set()  # every anchor begun: a name given twice is the exact reader's error
    # per open collection: its anchor, where its entries start, the count before it, the
    # deepest stack seen outside it (None when not anchored)
    opened: list[tuple[str, int, int, int] | None] = []
    deepest = 0
    aliases = 0
    container: Any = root
    here: KeyPath = ()
    in_map = True
    in_flow = False
    key: str | None = None
    key_line = key_column = 0
    count = 1
    while True:
        event = get()
        cls = type(event)
        if cls is ScalarEvent:
            if event.tag is not None or (event.anchor is not None and (
                    (in_map and key is None) or event.anchor in named)):
                return None
            count += 1
            text_value = event.value
            if _readers_disagree(event, text, in_flow):
                return None
            plain = event.implicit[0]
            if in_map and key is None:  # a key: a string, once per mapping, not '<<'
                if plain and (resolve_plain(text_value) != STR or text_value == "<<"):
                    return None
                if text_value in container:
                    return None
                key = text_value
                mark = event.start_mark
                key_line, key_column = mark.line + 1, mark.column + 1
                continue
            if plain and not text_value:
                # An empty value is placed just after its ':' by both parsers; other
                # empty values (after '? key', '- ', in flow) may be placed apart.
                index = event.start_mark.index
                if index < 1 or text[index - 1] != ":":
                    return None
            if plain:
                tag = resolve_plain(text_value)
                if tag == STR:
                    value: Any = text_value
                else:
                    value = plain_value(tag, text_value)
                    if value is INVALID:
                        return None
            else:
                value = text_value
            mark = event.start_mark
            if in_map:
                assert key is not None  # a missing key was read as the key above
                child = here + (key,)
                entry: Any = (mark.line + 1, mark.column + 1, key_line, key_column, True)
                container[key] = value
                key = None
            else:
                child = here + (len(container),)
                entry = (mark.line + 1, mark.column + 1, 0, 0, True)
                container.append(value)
            entries.append((child, entry))
            if event.anchor is not None:
                named.add(event.anchor)
                anchors[event.anchor] = _Anchored(value, child, [(child, entry)], 1, 0)
        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            anchor = event.anchor
            if event.tag is not None or anchor in named:
                return None
            if in_map and key is None:  # a mapping or a list as a key
                return None
            count += 1
            if len(stack) + 2 > MAX_DEPTH:
                return None
            new: Any = {} if cls is MappingStartEvent else []
            mark = event.start_mark
            if in_map:
                assert key is not None  # a missing key returned above
                child = here + (key,)
                entries.append((child, (mark.line + 1, mark.column + 1, key_line, key_column, False)))
                container[key] = new
                key = None
            else:
                child = here + (len(container),)
                entries.append((child, (mark.line + 1, mark.column + 1, 0, 0, False)))
                container.append(new)
            stack.append((container, here, in_map, in_flow))
            if anchor is None:
                opened.append(None)
            else:
                named.add(anchor)
                opened.append((anchor, len(entries) - 1, count - 1, deepest))
                deepest = len(stack)
            deepest = max(deepest, len(stack))
            container, here, in_map = new, child, cls is MappingStartEvent
            in_flow = in_flow or bool(event.flow_style)
        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            if not stack:
                break
            done, done_path = container, here
            container, here, in_map, in_flow = stack.pop()
            anchored = opened.pop()
            if anchored is not None:
                anchor, first, before, outside = anchored
                anchors[anchor] = _Anchored(done, done_path, entries[first:], count - before,
                                            deepest - len(stack))
                deepest = max(deepest, outside)
        elif cls is AliasEvent:
            target = anchors.get(event.anchor)
            aliases += 1
            # an alias as a key, to no finished anchor (undefined, or the node it is in), or
            # past the limits: the exact reader refuses the file
            if (in_map and key is None) or target is None or aliases > max_aliases \
                    or len(stack) + 1 + target.height > MAX_DEPTH:
                return None
            count += target.count
            mark = event.start_mark
            is_scalar = target.entries[0][1][4]
            if in_map:
                assert key is not None
                child = here + (key,)
                entries.append((child, (mark.line + 1, mark.column + 1, key_line, key_column, is_scalar)))
                container[key] = _copy(target.value)
                key = None
            else:
                child = here + (len(container),)
                entries.append((child, (mark.line + 1, mark.column + 1, 0, 0, is_scalar)))
                container.append(_copy(target.value))
            cut = len(target.path)
            entries.extend((child + inner[cut:], entry) for inner, entry in target.entries[1:])
            deepest = max(deepest, len(stack) + target.height)
        else:  # anything unexpected
            return None
        if count > max_nodes:
            _past_the_limit(get, text, path, event, max_nodes, len(stack) + 1, in_flow, aliases, max_aliases,
                            named)
            return None
    if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
        return None
    return Document(path, root, Positions(path, text, dict(entries), exact=False), lines)
