"""The parts of PyYAML the loader uses beyond its documented API, in one place.

The loader records where every scalar token starts (for positions inside a
string) by overriding PyYAML's scanner methods, limits nesting by overriding the
composer's ``compose_node``, rebuilds quoted scalars with the scanner's escape
tables, and reads plain files with libyaml's ``CParser`` (``yaml._yaml``). None of
these is a public interface, so ``pyproject.toml`` pins PyYAML to the major
version they were tested with (6), and :func:`missing_internals` names any that
moved (a unit test runs it, so an upgrade that breaks the loader fails loudly).

>>> missing_internals()
[]
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, Mapping

import yaml

__all__ = ["ESCAPE_REPLACEMENTS", "ESCAPE_CODES", "CParser", "missing_internals", "pyyaml_version"]

if TYPE_CHECKING:
    from yaml._yaml import CParser as _CParserType

_Scanner: Any = yaml.scanner.Scanner

ESCAPE_REPLACEMENTS: Mapping[str, str] = getattr(_Scanner, "ESCAPE_REPLACEMENTS", {})
"""``\\n`` -> newline and the like: a double-quoted scalar's one-letter escapes."""
ESCAPE_CODES: Mapping[str, int] = getattr(_Scanner, "ESCAPE_CODES", {})
"""``x``, ``u``, ``U`` -> how many hex digits follow the escape."""

CParser: type[_CParserType] | None
try:  # libyaml's parser, when PyYAML was built with it (the pure-Python one otherwise)
    from yaml._yaml import CParser
except ImportError:  # pragma: no cover - depends on how PyYAML was installed
    CParser = None

# The scanner and composer methods the loader overrides, with the parameters it
# passes to them (after self).
_OVERRIDDEN: dict[str, tuple[Any, tuple[str, ...]]] = {
    "yaml.scanner.Scanner.scan_plain": (_Scanner, ()),
    "yaml.scanner.Scanner.scan_flow_scalar": (_Scanner, ("style",)),
    "yaml.scanner.Scanner.scan_block_scalar": (_Scanner, ("style",)),
    "yaml.scanner.Scanner.scan_tag": (_Scanner, ()),
    "yaml.composer.Composer.compose_node": (yaml.composer.Composer, ("parent", "index")),
    "yaml.composer.Composer.compose_document": (yaml.composer.Composer, ()),
    "yaml.resolver.BaseResolver.resolve": (yaml.resolver.BaseResolver, ("kind", "value", "implicit")),
}


def pyyaml_version() -> str:
    """The installed PyYAML's version."""
    return str(getattr(yaml, "__version__", "unknown"))


def missing_internals() -> list[str]:
    """Each PyYAML internal the loader relies on that is missing or changed shape,
    as ``"name: what is wrong"``; empty when all are as the loader expects."""
    missing: list[str] = []
    for name, (owner, parameters) in _OVERRIDDEN.items():
        method = getattr(owner, name.rsplit(".", 1)[1], None)
        if not callable(method):
            missing.append(f"{name}: no such method")
            continue
        found = tuple(inspect.signature(method).parameters)[1:]
        if found != parameters:
            missing.append(f"{name}: takes ({', '.join(found)}), expected ({', '.join(parameters)})")
    if ESCAPE_REPLACEMENTS.get("n") != "\n" or ESCAPE_REPLACEMENTS.get('"') != '"':
        missing.append("yaml.scanner.Scanner.ESCAPE_REPLACEMENTS: not the table of one-letter escapes")
    if dict(ESCAPE_CODES) != {"x": 2, "u": 4, "U": 8}:
        missing.append("yaml.scanner.Scanner.ESCAPE_CODES: not {'x': 2, 'u': 4, 'U': 8}")
    loader: Any = yaml.SafeLoader("a: 1")
    try:
        if not isinstance(getattr(loader, "indent", None), int):
            missing.append("yaml.scanner.Scanner.indent: not an integer attribute of the scanner")
        token = loader.get_token()
        if not isinstance(getattr(getattr(token, "end_mark", None), "index", None), int):
            missing.append("yaml.tokens.Token.end_mark.index: tokens no longer carry an index")
    finally:
        loader.dispose()
    if getattr(yaml, "__with_libyaml__", False):
        if CParser is None:
            missing.append("yaml._yaml.CParser: PyYAML says it has libyaml, but there is no CParser")
        else:
            parser = CParser("a: 1")
            try:
                if not callable(getattr(parser, "get_event", None)):
                    missing.append("yaml._yaml.CParser.get_event: no such method")
                else:
                    event = parser.get_event()
                    if not isinstance(getattr(getattr(event, "start_mark", None), "index", None), int):
                        missing.append("yaml._yaml.CParser events: no start_mark.index")
            finally:
                parser.dispose()
    return missing
