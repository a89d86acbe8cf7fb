"""JSON Schema validation of a variant, with errors placed at YAML line and column.

jsonschema knows where an error is as a path of keys (``error.absolute_path``), not
as a line; the loader keeps a map from key paths to YAML marks, and this module
translates. Errors are rewritten into plain words: an unknown key gets the nearest
allowed key as a suggestion, an ``enum`` lists the allowed values, and for
``oneOf``/``anyOf`` noise the most relevant sub-error leads (``best_match``).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Callable, Iterator, Protocol, Sequence

from ..errors import Diagnostic, Location
from ..resources import read_spec_text
from ..suggest import closest

__all__ = ["variant_schema", "validator", "schema_diagnostics", "located_errors", "invalid_roots",
           "fast_validity", "PositionLookup"]

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
    if _fast_valid(data):  # the usual case: no problem, so no need to look for one
        return []
    return located_errors(validator(), data, positions)


def located_errors(checker: Any, data: Any, positions: PositionLookup) -> list[Diagnostic]:
    """Every problem a jsonschema validator finds in ``data``, placed and worded for a person.

    Used for variant files and for other YAML files with a schema (conformance suites).
    """
    from jsonschema.exceptions import best_match

    found: list[Diagnostic] = []
    for error in sorted(checker.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        if error.context:
            error = best_match([error, *error.context], key=_relevance)
        found.extend(_explain(error, positions))
    # Several branches of one oneOf can report the same place and words: keep one.
    unique: dict[tuple[Location, str], Diagnostic] = {}
    for diagnostic in found:
        unique.setdefault((diagnostic.location, diagnostic.message), diagnostic)
    return sorted(unique.values(), key=lambda d: (d.location.line, d.location.column, d.message))


def invalid_roots(data: Any) -> frozenset[str]:
    """The top-level keys whose values break the schema (a missing required key
    counts as broken), so checking can go on with the others."""
    if _fast_valid(data):
        return frozenset()
    roots: set[str] = set()
    for error in validator().iter_errors(data):
        path = list(error.absolute_path)
        if path:
            roots.add(str(path[0]))
        elif error.validator == "required" and isinstance(data, dict):
            roots.update(str(key) for key in error.validator_value if key not in data)
        elif error.validator == "additionalProperties" and isinstance(data, dict):
            allowed = variant_schema().get("properties", {})
            roots.update(str(key) for key in data if key not in allowed)
        else:
            roots.add("")  # the whole tree: nothing can be trusted
    return frozenset(roots)


def _relevance(error: Any) -> tuple[int, int]:
    # Prefer errors deep in the instance (the user's actual mistake) and errors
    # about keys and values over "is not of type" from a losing branch.
    weak = error.validator in ("type", "oneOf", "anyOf", "not")
    return (-len(error.absolute_path), 1 if weak else 0)


def _where(path: Sequence[str | int]) -> str:
    if not path:
        return "the top level"
    parts: list[str] = []
    for part in path:
        parts.append(f"[{part}]" if isinstance(part, int) else (("." if parts else "") + str(part)))
    return "'" + "".join(parts) + "'"


def _explain(error: Any, positions: PositionLookup) -> Iterator[Diagnostic]:
    path: KeyPath = tuple(error.absolute_path)
    where = _where(path)
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    instance = error.instance

    if "propertyNames" in error.schema_path and keyword == "maxLength":
        yield Diagnostic(positions.key(path + (instance,)), f"{instance!r} in {where} is too long a name: "
                         f"at most {error.validator_value} characters", "schema-name")
        return
    if "propertyNames" in error.schema_path and keyword != "propertyNames":
        # A bad key name: jsonschema reports the key itself as the instance.
        hint = _PATTERN_HINTS.get(error.validator_value) if keyword == "pattern" else None
        yield Diagnostic(
            positions.key(path + (instance,)),
            f"{instance!r} in {where} is not a valid name: "
            + (f"it must {hint}" if hint and not hint.startswith("be lowercase")
               else "use lowercase letters, digits and underscores, starting with a letter"),
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
            close = closest(str(key), allowed)
            if close:
                message += f"; did you mean {close!r}?"
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
            close = closest(instance, [str(v) for v in error.validator_value])
            if close:
                message += f" (did you mean {close!r}?)"
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
            f"{where} must be {_article(expected_text)}, got {_type_name(instance)} {_show(instance)}"
            + _type_hint(instance, expected if isinstance(expected, list) else [expected]),
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
        # A value of a type no branch takes: say which types would do.
        types: list[str] = []
        for sub in error.context or ():
            if sub.validator == "type" and tuple(sub.absolute_path) == path:
                for name in sub.validator_value if isinstance(sub.validator_value, list) else [sub.validator_value]:
                    if name not in types:
                        types.append(name)
        if types and len(types) == sum(1 for sub in error.context if tuple(sub.absolute_path) == path
                                       and sub.validator == "type"):
            yield Diagnostic(
                positions.value(path),
                f"{where} must be {_article(' or '.join(types))}, got {_type_name(instance)} {_show(instance)}"
                + _type_hint(instance, types),
                "schema-type",
            )
            return
        described = schema.get("description")
        message = f"{where} has the wrong form"
        if described:
            message += f": {described[0].lower()}{described[1:]}"
        yield Diagnostic(positions.value(path), message, "schema-form")
        return
    yield Diagnostic(positions.value(path), f"{where}: {error.message}", "schema")


_PATTERN_HINTS = {
    "^P[1-9][0-9]?$": "be a seat: P1, P2, ... (a table seats 2 to 8)",
    "^[a-z][a-z0-9_]*$": "be lowercase letters, digits and underscores, starting with a letter",
    "^[a-z_][a-z0-9_]*$": "be lowercase letters, digits and underscores",
    "^(C|GR|SK|GS|KR|BR|R5|G3|CR)-[0-9]+(\\.[0-9]+)?$": "be a RULES.md or RULES-FAMILY.md id such as GR-9.2 or KR-4.1",
    "^[A-Za-z](?!\\n)$": "be one letter",
    "^[A-Za-z0-9]{1,8}(?!\\n)$": "be 1 to 8 ASCII letters or digits",
    "\\S": "not be blank",
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


_YAML_11_BOOLEANS = {"yes": True, "no": False, "on": True, "off": False, "y": True, "n": False}


def _type_hint(instance: Any, expected: list[str]) -> str:
    """What to write instead, for the usual slips: a YAML 1.1 boolean word where a
    boolean belongs, a number in quotes where a number belongs.

    >>> _type_hint("no", ["boolean"])
    "; YAML 1.2 reads 'no' as text: write false"
    >>> _type_hint("150", ["integer"])
    '; remove the quotes: 150'
    >>> _type_hint("two", ["integer"])
    ''
    """
    if not isinstance(instance, str):
        return ""
    word = instance.strip().lower()
    if "boolean" in expected and word in _YAML_11_BOOLEANS:
        return (f"; YAML 1.2 reads {instance!r} as text: write "
                f"{'true' if _YAML_11_BOOLEANS[word] else 'false'}")
    if "boolean" in expected and word in ("true", "false"):
        return f"; remove the quotes: {word}"
    if ("integer" in expected or "number" in expected) and re.fullmatch(r"[+-]?\d+", instance.strip()):
        return f"; remove the quotes: {int(instance)}"
    return ""


def _article(expected: str) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
             "boolean": "a boolean", "null": "null", "number": "a number"}
    return " or ".join(names.get(part.strip(), part) for part in expected.split(" or "))


# -- a fast yes/no check ------------------------------------------------------------
#
# jsonschema walks the schema anew for every instance (about 2 ms a variant). The
# schema is compiled here once into closures that only answer "valid?", for the
# keywords spec/variant.schema.json uses, with jsonschema's Draft 2020-12 meaning
# (booleans are not numbers, 1.0 is an integer, enum/const/uniqueItems compare as
# JSON does). A schema keyword this compiler does not know disables it; an instance
# it does not model (a value of another Python type, containers inside enum or
# uniqueItems) raises _Unknown. Either way jsonschema decides, as it does whenever
# the answer is "not valid", so the messages always come from jsonschema.


class _Unknown(Exception):
    """Internal: this instance is outside what the fast check models."""


_Check = Callable[[Any], bool]
_IGNORED = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description",
                      "default", "examples"})
_PLAIN_TYPES = (str, int, float, bool, type(None))


def _fast_valid(data: Any) -> bool:
    return _fast_check()(data)


@lru_cache(maxsize=1)
def _fast_check() -> _Check:
    return fast_validity(variant_schema())


def fast_validity(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """A compiled yes/no check of ``schema``: True only when an instance surely is
    valid. False means "ask jsonschema" (invalid, or outside what the check models,
    or a schema keyword it does not know, which makes it always answer False).

    >>> check = fast_validity({"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}})
    >>> check({"a": 1}), check({"a": "one"}), check({})
    (True, False, False)
    """
    try:
        compiled = _Compiler(schema).compile(schema)
    except _Unknown:
        return lambda data: False

    def valid(data: Any) -> bool:
        try:
            return compiled(data)
        except (_Unknown, RecursionError):
            return False

    return valid


def _json_equal(one: Any, two: Any) -> bool:
    """jsonschema's ``equal`` for plain values (booleans equal only booleans)."""
    if one is two:
        return True
    one_plain, two_plain = isinstance(one, _PLAIN_TYPES), isinstance(two, _PLAIN_TYPES)
    if not one_plain or not two_plain:
        if one_plain and isinstance(two, (dict, list)) or two_plain and isinstance(one, (dict, list)):
            return False  # a container never equals a plain value
        raise _Unknown
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return bool(one == two)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _type_check(name: str) -> _Check:
    if name == "object":
        return lambda v: isinstance(v, dict)
    if name == "array":
        return lambda v: isinstance(v, list)
    if name == "string":
        return lambda v: isinstance(v, str)
    if name == "boolean":
        return lambda v: isinstance(v, bool)
    if name == "null":
        return lambda v: v is None
    if name == "number":
        return _is_number
    if name == "integer":
        return lambda v: (isinstance(v, int) and not isinstance(v, bool)
                          or isinstance(v, float) and v.is_integer())
    raise _Unknown


class _Compiler:
    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, list[_Check]] = {}

    def ref(self, target: str) -> _Check:
        if not target.startswith("#/$defs/") or "/" in target[len("#/$defs/"):]:
            raise _Unknown
        if target not in self.refs:
            cell: list[_Check] = []
            self.refs[target] = cell
            defs = self.root.get("$defs", {})
            name = target[len("#/$defs/"):]
            if name not in defs:
                raise _Unknown
            cell.append(self.compile(defs[name]))
        cell = self.refs[target]
        return lambda v: cell[0](v)

    def compile(self, schema: Any) -> _Check:
        if schema is True:
            return lambda v: True
        if schema is False:
            return lambda v: False
        if not isinstance(schema, dict):
            raise _Unknown
        checks: list[_Check] = []
        for keyword, value in schema.items():
            if keyword in _IGNORED or keyword in ("properties", "additionalProperties"):
                continue
            checks.append(self.keyword(keyword, value, schema))
        if "properties" in schema or "additionalProperties" in schema:
            checks.append(self.properties(schema.get("properties", {}),
                                          schema.get("additionalProperties", True)))
        if not checks:
            return lambda v: True
        if len(checks) == 1:
            return checks[0]
        checks_tuple = tuple(checks)
        return lambda v: all(check(v) for check in checks_tuple)

    def properties(self, properties: dict[str, Any], additional: Any) -> _Check:
        compiled = {name: self.compile(sub) for name, sub in properties.items()}
        extra = None if additional is True else self.compile(additional)

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            for key, item in v.items():
                if not isinstance(key, str):
                    raise _Unknown
                sub = compiled.get(key)
                if sub is not None:
                    if not sub(item):
                        return False
                elif extra is not None and not extra(item):
                    return False
            return True

        return check

    def keyword(self, keyword: str, value: Any, schema: dict[str, Any]) -> _Check:
        if keyword == "type":
            names = value if isinstance(value, list) else [value]
            type_checks = tuple(_type_check(name) for name in names)
            return lambda v: any(check(v) for check in type_checks)
        if keyword == "$ref":
            return self.ref(value)
        if keyword == "required":
            required = tuple(value)
            return lambda v: not isinstance(v, dict) or all(k in v for k in required)
        if keyword == "enum":
            choices = tuple(value)
            for choice in choices:
                if not isinstance(choice, _PLAIN_TYPES):
                    raise _Unknown
            return lambda v: any(_json_equal(choice, v) for choice in choices)
        if keyword == "const":
            if not isinstance(value, _PLAIN_TYPES):
                raise _Unknown
            return lambda v: _json_equal(v, value)
        if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if not _is_number(value):
                raise _Unknown
            bound = value
            if keyword == "minimum":
                return lambda v: not _is_number(v) or not v < bound
            if keyword == "maximum":
                return lambda v: not _is_number(v) or not v > bound
            if keyword == "exclusiveMinimum":
                return lambda v: not _is_number(v) or not v <= bound
            return lambda v: not _is_number(v) or not v >= bound
        if keyword in ("minLength", "maxLength", "minItems", "maxItems",
                       "minProperties", "maxProperties"):
            if not isinstance(value, int) or isinstance(value, bool):
                raise _Unknown
            limit = value
            kind = {"Length": str, "Items": list, "Properties": dict}[keyword[3:]]
            if keyword.startswith("min"):
                return lambda v: not isinstance(v, kind) or len(v) >= limit
            return lambda v: not isinstance(v, kind) or len(v) <= limit
        if keyword == "pattern":
            pattern = re.compile(value)
            return lambda v: not isinstance(v, str) or pattern.search(v) is not None
        if keyword == "uniqueItems":
            if value is False:
                return lambda v: True
            if value is not True:
                raise _Unknown
            return _unique
        if keyword == "items":
            item_check = self.compile(value)
            return lambda v: not isinstance(v, list) or all(item_check(item) for item in v)
        if keyword == "propertyNames":
            name_check = self.compile(value)
            return lambda v: not isinstance(v, dict) or all(name_check(k) for k in v)
        if keyword == "oneOf":
            branches = tuple(self.compile(sub) for sub in value)
            return lambda v: sum(1 for branch in branches if branch(v)) == 1
        if keyword == "anyOf":
            branches = tuple(self.compile(sub) for sub in value)
            return lambda v: any(branch(v) for branch in branches)
        if keyword == "allOf":
            branches = tuple(self.compile(sub) for sub in value)
            return lambda v: all(branch(v) for branch in branches)
        if keyword == "not":
            inner = self.compile(value)
            return lambda v: not inner(v)
        if keyword == "unevaluatedProperties" and value is False and "patternProperties" not in schema:
            # Sure only of a key this schema's own "properties" names (evaluated
            # whatever its subschemas do); any other key: ask jsonschema. With
            # "additionalProperties" every key is evaluated, so nothing is left.
            if "additionalProperties" in schema:
                return lambda v: True
            known = frozenset(schema.get("properties", {}))
            return lambda v: not isinstance(v, dict) or all(key in known for key in v)
        raise _Unknown


def _unique(v: Any) -> bool:
    if not isinstance(v, list):
        return True
    for i, one in enumerate(v):
        if isinstance(one, float) and one != one:
            raise _Unknown  # NaN: jsonschema's sort-based check is not pairwise here
        for two in v[i + 1:]:
            if _json_equal(one, two):
                return False
    return True

