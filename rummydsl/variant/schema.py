"""JSON Schema validation of a variant, with errors placed at YAML line and column.

jsonschema knows where an error is as a path of keys (``error.absolute_path``), not
as a line; the loader keeps a map from key paths to YAML marks, and this module
translates. Errors are rewritten into plain words: an unknown key gets the nearest
allowed key as a suggestion, an ``enum`` lists the allowed values, and for
``oneOf``/``anyOf`` noise the most relevant sub-error leads (``best_match``).
"""

from __future__ import annotations

import difflib
import json
import re
from functools import lru_cache
from typing import Any, Iterator, Protocol, Sequence

from ..errors import Diagnostic, Location
from ..resources import read_spec_text

__all__ = ["variant_schema", "validator", "schema_diagnostics", "PositionLookup"]

KeyPath = tuple[str | int, ...]


class PositionLookup(Protocol):
    """What schema checking needs from the loader's position map."""

    def value(self, path: KeyPath) -> Location: ...

    def key(self, path: KeyPath) -> Location: ...


@lru_cache(maxsize=1)
def variant_schema() -> dict[str, Any]:
    """The variant JSON Schema (spec/variant.schema.json), parsed once."""
    schema: dict[str, Any] = json.loads(read_spec_text("variant.schema.json"))
    return schema


@lru_cache(maxsize=1)
def validator() -> Any:
    """A Draft 2020-12 validator for the variant schema, built once."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(variant_schema())


def schema_diagnostics(data: Any, positions: PositionLookup) -> list[Diagnostic]:
    """Every schema problem of ``data``, each placed and worded for a person."""
    from jsonschema.exceptions import best_match

    found: list[Diagnostic] = []
    for error in sorted(validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        if error.context:
            error = best_match([error, *error.context], key=_relevance)
        found.extend(_explain(error, positions))
    # Several branches of one oneOf can report the same place and words: keep one.
    unique: dict[tuple[Location, str], Diagnostic] = {}
    for diagnostic in found:
        unique.setdefault((diagnostic.location, diagnostic.message), diagnostic)
    return sorted(unique.values(), key=lambda d: (d.location.line, d.location.column, d.message))


def _relevance(error: Any) -> tuple[int, int]:
    # Prefer errors deep in the instance (the user's actual mistake) and errors
    # about keys and values over "is not of type" from a losing branch.
    weak = error.validator in ("type", "oneOf", "anyOf", "not")
    return (-len(error.absolute_path), 1 if weak else 0)


def _where(path: Sequence[str | int]) -> str:
    if not path:
        return "the top level"
    parts = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else (("." if parts else "") + str(part)))
    return "'" + "".join(parts) + "'"


def _explain(error: Any, positions: PositionLookup) -> Iterator[Diagnostic]:
    path: KeyPath = tuple(error.absolute_path)
    where = _where(path)
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    instance = error.instance

    if "propertyNames" in error.schema_path and keyword != "propertyNames":
        # A bad key name: jsonschema reports the key itself as the instance.
        yield Diagnostic(
            positions.key(path + (instance,)),
            f"{instance!r} in {where} is not a valid name: "
            "use lowercase letters, digits and underscores, starting with a letter",
            "schema-name",
        )
        return
    if keyword == "additionalProperties" and isinstance(instance, dict):
        allowed = sorted(schema.get("properties", {}))
        pattern_allowed = "patternProperties" in schema
        for key in sorted(k for k in instance if k not in allowed):
            if pattern_allowed:
                continue
            message = f"unknown key {key!r} in {where}"
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            if close:
                message += f"; did you mean {close[0]!r}?"
            elif allowed:
                message += f" (allowed: {', '.join(allowed)})"
            yield Diagnostic(positions.key(path + (key,)), message, "schema-unknown-key")
        return
    if keyword == "required":
        missing = [k for k in error.validator_value if isinstance(instance, dict) and k not in instance]
        for key in missing:
            yield Diagnostic(
                positions.value(path),
                f"missing required key {key!r} in {where}",
                "schema-required",
            )
        return
    if keyword == "enum":
        choices = ", ".join(_show(v) for v in error.validator_value)
        message = f"{where} is {_show(instance)}; expected one of: {choices}"
        if isinstance(instance, str):
            close = difflib.get_close_matches(instance, [str(v) for v in error.validator_value], n=1)
            if close:
                message += f" (did you mean {close[0]!r}?)"
        elif isinstance(instance, bool):
            message += " (YAML reads on/off/yes/no as booleans: quote the word)"
        yield Diagnostic(positions.value(path), message, "schema-enum")
        return
    if keyword == "const":
        yield Diagnostic(
            positions.value(path),
            f"{where} must be {_show(error.validator_value)}, got {_show(instance)}",
            "schema-const",
        )
        return
    if keyword == "type":
        expected = error.validator_value
        expected_text = " or ".join(expected) if isinstance(expected, list) else str(expected)
        yield Diagnostic(
            positions.value(path),
            f"{where} must be {_article(expected_text)}, got {_type_name(instance)} {_show(instance)}",
            "schema-type",
        )
        return
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {"minimum": "at least", "maximum": "at most",
                 "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[keyword]
        yield Diagnostic(
            positions.value(path),
            f"{where} must be {bound} {error.validator_value}, got {_show(instance)}",
            "schema-range",
        )
        return
    if keyword in ("minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"):
        what = {"minItems": "at least {} items", "maxItems": "at most {} items",
                "minProperties": "at least {} keys", "maxProperties": "at most {} keys",
                "minLength": "at least {} characters", "maxLength": "at most {} characters"}[keyword]
        yield Diagnostic(
            positions.value(path),
            f"{where} must have {what.format(error.validator_value)}",
            "schema-size",
        )
        return
    if keyword == "pattern":
        hint = _PATTERN_HINTS.get(error.validator_value, f"match {error.validator_value}")
        yield Diagnostic(positions.value(path), f"{where} is {_show(instance)}; it must {hint}", "schema-pattern")
        return
    if keyword == "propertyNames":
        # The failing name is reported by the nested error; find which key.
        for key in instance if isinstance(instance, dict) else ():
            if not isinstance(key, str) or not _matches_identifier(key):
                yield Diagnostic(
                    positions.key(path + (key,)),
                    f"{key!r} in {where} is not a valid name: "
                    "use lowercase letters, digits and underscores, starting with a letter",
                    "schema-name",
                )
        return
    if keyword == "uniqueItems":
        yield Diagnostic(positions.value(path), f"{where} lists an item twice", "schema-unique")
        return
    if keyword == "not" and path and isinstance(instance, dict):
        yield Diagnostic(
            positions.value(path),
            f"{where} gives 'points' together with 'ender' or 'others'; use 'points' alone, "
            "or 'ender' and/or 'others'",
            "schema-exclusive",
        )
        return
    if keyword in ("oneOf", "anyOf"):
        described = schema.get("description")
        message = f"{where} has the wrong form"
        if described:
            message += f": {described[0].lower()}{described[1:]}"
        yield Diagnostic(positions.value(path), message, "schema-form")
        return
    yield Diagnostic(positions.value(path), f"{where}: {error.message}", "schema")


_PATTERN_HINTS = {
    "^[a-z][a-z0-9_]*$": "be lowercase letters, digits and underscores, starting with a letter",
    "^[a-z_][a-z0-9_]*$": "be lowercase letters, digits and underscores",
    "^(C|GR|SK|GS)-[0-9]+(\\.[0-9]+)?$": "be a RULES.md id such as GR-9.2 or SK-3.3",
    "^[A-Za-z]$": "be one letter",
}


def _matches_identifier(key: str) -> bool:
    return re.fullmatch(r"[a-z_][a-z0-9_]*", key) is not None


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (dict, list)):
        text = json.dumps(value, default=str)
        return text if len(text) <= 40 else text[:37] + "..."
    return repr(value)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)


def _article(expected: str) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
             "boolean": "a boolean", "null": "null", "number": "a number"}
    return " or ".join(names.get(part.strip(), part) for part in expected.split(" or "))
