"""The deck, the options and the names of a variant: what is declared, and what is probably misspelt.

Options are checked before any expression (every expression may read them); the
checks of names (an unused option or ``let``, a new name very like an inherited
one, a house rule that forgot its ``extends:``) run over the whole file.

>>> number_too_large(10**40), large(10**40)
(True, '10000000000000000000...')
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..cards import Deck
from ..errors import DeckError, Diagnostic, VariantError
from ..expr import RESERVED_NAMES
from ..limits import MAX_INT_LITERAL
from ..suggest import closest
from .builder import Builder, KeyPath
from .model import Option

__all__ = [
    "build_deck",
    "build_options",
    "check_names",
    "forgotten_extends",
    "number_too_large",
    "large",
    "FORGOTTEN_EXTENDS_MISSING",
    "NEAR_NAME_CUTOFF",
]


def build_deck(builder: Builder) -> Deck | None:
    try:
        return Deck.from_spec(builder.get("deck", default={}))
    except DeckError as problem:
        path: KeyPath = ("deck", *problem.path)
        builder.error(path, str(problem.message if hasattr(problem, "message") else problem), "deck")
        return None


def number_too_large(value: Any) -> bool:
    """Whether ``value`` is an integer an expression may not use (past :data:`MAX_INT_LITERAL`)."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT_LITERAL


def large(value: int) -> str:
    """A large number for a message: its first 20 digits."""
    text = str(value)
    return text if len(text) <= 20 else text[:20] + "..."


def _yaml_hint(text: str) -> str:
    """A hint for a YAML 1.1 boolean or a quoted number written where a value is meant."""
    word = {"yes": "true", "on": "true", "no": "false", "off": "false"}.get(text.lower())
    if word:
        return f"; YAML 1.2 reads {text!r} as text: write {word}"
    if text.strip().lstrip("-").isdigit():
        return f"; remove the quotes: {text.strip()}"
    return ""


def build_options(builder: Builder) -> dict[str, Option]:
    options: dict[str, Option] = {}
    reserved = RESERVED_NAMES
    inherited = _section(builder.parent_data, ("options",))
    for name, raw in builder.get("options", default={}).items():
        path: KeyPath = ("options", name)
        parent_value = inherited[name].get("value") if isinstance(inherited.get(name), Mapping) else None
        if isinstance(raw, str) and parent_value is not None and not isinstance(parent_value, str):
            kind = "a boolean" if isinstance(parent_value, bool) else "an integer"
            builder.error(path, f"option {name!r} is {kind} (the parent's value is "
                          f"{str(parent_value).lower() if isinstance(parent_value, bool) else parent_value}), "
                          f"not a string like {raw!r}" + _yaml_hint(raw), "option-value")
            continue
        if not isinstance(raw, Mapping) and isinstance(inherited.get(name), Mapping):
            # 'gin_bonus: 30' changes the value only: the inherited rule id,
            # description and choices stay, as with '{value: 30}'.
            raw = {**inherited[name], "value": raw}
        if name in reserved:
            builder.error(path, f"option {name!r} shadows the built-in name {name!r}; choose another name",
                          "option-name", at_key=True)
            continue
        if isinstance(raw, Mapping):
            value = raw["value"]
            one_of = tuple(raw["one_of"]) if "one_of" in raw else None
            if isinstance(value, str):
                if one_of is None:
                    builder.error(path + ("value",), f"string option {name!r} needs 'one_of', the list of "
                                  "values it may take", "option-one-of")
                    continue
                if value not in one_of:
                    close = closest(value, one_of)
                    hint = f"; did you mean {close!r}?" if close else ""
                    builder.error(path + ("value",), f"option {name!r} is {value!r}, not one of "
                                  f"{', '.join(one_of)}{hint}", "option-value")
                    continue
            elif one_of is not None:
                builder.error(path + ("one_of",), f"'one_of' is for string options; {name!r} is "
                              f"{'a boolean' if isinstance(value, bool) else 'an integer'}", "option-one-of")
                continue
            if number_too_large(value):
                builder.error(path + ("value",), f"option {name!r} is {large(value)}, larger than "
                              f"{MAX_INT_LITERAL:,} (the largest number an expression may use)", "option-value")
                continue
            options[name] = Option(name, value, one_of, raw.get("rule"), raw.get("description"))
        elif isinstance(raw, str):
            # A bare string is a value of a string option the parent declares (handled
            # above); a new one needs its choices.
            builder.error(path, f"option {name!r} is a string, but no parent declares a string option "
                          f"{name!r} with its choices; write {name}: {{value: {raw}, one_of: [{raw}, ...]}} "
                          "to declare one", "option-one-of")
        elif number_too_large(raw):
            builder.error(path, f"option {name!r} is {large(raw)}, larger than {MAX_INT_LITERAL:,} "
                          "(the largest number an expression may use)", "option-value")
        else:
            options[name] = Option(name, raw)
    # A value of one string option must not be read as another option's name.
    for option in options.values():
        for value in option.one_of or ():
            if value in options:
                builder.error(("options", option.name, "one_of"), f"{value!r} is both a value of option "
                              f"{option.name!r} and an option's name; rename one", "option-name")
    return options


#: How alike a new name and an inherited one must be (see :func:`rummydsl.suggest.closest`)
#: to be reported as a probable misspelling: ``rn``/``run`` (0.8) are, ``k2``/``k`` (0.67) not.
NEAR_NAME_CUTOFF = 0.75


_NAMED_SECTIONS: tuple[tuple[KeyPath, str], ...] = (
    (("options",), "option"),
    (("scoring", "let"), "'let' name"),
    (("melds",), "meld kind"),
)


def _section(tree: Any, path: KeyPath) -> Mapping[str, Any]:
    """The mapping at ``path`` of ``tree``, or an empty one."""
    node = tree
    for part in path:
        node = node.get(part) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def check_names(builder: Builder, parent_data: Mapping[str, Any] | None) -> None:
    """Warn about names that are probably misspelt: an option or a ``let`` that no
    expression uses, and a name a house rule adds (an option, a ``let``, a meld kind)
    that is very like one it inherits, which the house rule most likely meant to
    change. Each name gets at most one warning, and only names this file writes
    are warned of. Run only when every expression compiled, so that "no
    expression uses it" is true."""
    near: set[KeyPath] = set()
    if parent_data is not None:
        for section, noun in _NAMED_SECTIONS:
            inherited = _section(parent_data, section)
            for name in _section(builder.data, section):
                if name in inherited:
                    continue
                close = closest(name, inherited, cutoff=NEAR_NAME_CUTOFF)
                if close is None:
                    continue
                near.add(section + (name,))
                builder.warn(section + (name,), f"{noun} {name!r} is new: the parent has no such name, "
                             f"and a new name does not change an inherited one; did you mean "
                             f"{close!r}?", "name-near", at_key=True)
    this_file = builder.positions.source(())
    for section, noun in _NAMED_SECTIONS[:2]:
        names = _section(builder.data, section)
        for name in names:
            if name in builder.used_names or section + (name,) in near:
                continue
            if builder.positions.source(section + (name,)) != this_file:
                continue  # inherited, and left unused by this file's formulas: its choice
            builder.warn(section + (name,), f"{noun} {name!r} is not used by any expression: "
                         "it changes nothing (remove it, or use it in a formula)",
                         "option-unused" if section == ("options",) else "let-unused", at_key=True)


#: A file without ``extends`` that misses at least this many required top-level
#: keys is taken for a house rule that forgot its ``extends:``.
FORGOTTEN_EXTENDS_MISSING = 3


def forgotten_extends(data: Mapping[str, Any], found: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The schema's problems, with the "missing required key" errors of the top level
    made one error that suggests ``extends:`` when the file looks like a house rule:
    it extends nothing and misses several required keys."""
    top = [d for d in found if d.rule == "schema-required" and d.message.endswith(" in the top level")]
    if "extends" in data or len(top) < FORGOTTEN_EXTENDS_MISSING:
        return list(found)
    missing = ", ".join(d.message.split("'")[1] for d in top)
    parent = _nearest_shipped(data)
    message = (f"missing required keys {missing}: a variant that extends nothing must give them all; "
               f"if this is a house rule, build on a variant with 'extends: {parent}'")
    merged = Diagnostic(top[0].location, message, "schema-required")
    return [merged if d is top[0] else d for d in found if d is top[0] or d not in top]


def _nearest_shipped(data: Mapping[str, Any]) -> str:
    """The shipped variant a house rule most likely means to extend: the one sharing
    the most option, ``let`` and meld names with ``data``; then one whose id its id or
    name names (``my_oklahoma``: ``oklahoma_gin``); then the one with the fewest names
    the file does not use (``gin_rummy``, not ``gin_three_handed`` and its ``sit_out``),
    a variant that extends nothing before its house rules, and the id most like the
    file's (``gin_rummy`` if nothing tells them apart)."""
    from ..suggest import likeness
    from . import load_variant, shipped_variant_ids

    def names(tree: Any) -> set[str]:
        return {f"{'.'.join(map(str, section))}.{name}" for section, _ in _NAMED_SECTIONS
                for name in _section(tree, section)}

    mine = names(data)
    words = " ".join(str(data.get(key, "")) for key in ("id", "name")).lower().replace(" ", "_")
    def paths(tree: Any, path: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
        found = {path} if path else set()
        if isinstance(tree, Mapping) and len(path) < 3:
            for key, value in tree.items():
                if value is not None and key not in ("id", "name", "description", "rules", "rummydsl"):
                    found |= paths(value, path + (str(key),))
        return found

    mine_paths = paths(data)
    best, best_score = "gin_rummy", (0, 0, False, 0, False, 0.0, True)
    for variant_id in shipped_variant_ids():
        try:
            variant = load_variant(variant_id)
        except VariantError:
            continue
        theirs = names(variant.data)  # merged: with what it inherits
        shared = len(mine & theirs)
        parts = [word for word in words.split("_") if len(word) > 2]
        alike = max((likeness(word, variant_id) for word in [words, *parts] if word), default=0.0)
        named = any(part in variant_id.split("_") and part not in ("gin", "rummy") for part in parts)
        score = (shared, len(mine_paths & paths(variant.data)), named, -len(theirs - mine) if shared else 0,
                 variant.parent is None, alike if alike >= 0.6 else 0.0, variant_id == "gin_rummy")
        if score > best_score:
            best, best_score = variant_id, score
    return best
