"""The section "Changed from PARENT" of ``explain``: only what changed, in words.

A turn step's setting is one line (``turn.discard.taken_card``), not both whole turn
lists; a contract by deal lists only the deals whose contract changed; a formula is
said in words on both sides of the arrow.

>>> from rummydsl.variant import load_variant
>>> differences(load_variant("openspiel_gin"))[0]
'- turn.discard.taken_card: forbidden -> allowed'
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from ..errors import RummyDslError
from ..expr import parser
from ..variant.model import Variant
from .say import Speaker
from .shapes import contract_words, meld_words
from .words import bullet, fold_tree, raw, show

__all__ = ["differences"]

_NOT_SHOWN = ("id", "name", "description", "extends", "rules", "rummydsl")


def differences(variant: Variant) -> list[str]:
    """One bullet for each setting ``variant`` changes from its parent."""
    parent = variant.parent_data or {}
    old_turn, new_turn = _steps(parent.get("turn")), _steps(variant.data.get("turn"))
    old_data, new_data = dict(parent), dict(variant.data)
    if old_turn is not None and new_turn is not None and list(old_turn) == list(new_turn):
        old_data["turn"], new_data["turn"] = old_turn, new_turn  # the same steps: compare each one's settings
    if isinstance(parent.get("options"), Mapping) and isinstance(variant.data.get("options"), Mapping):
        # an option is changed by its value (``gin_bonus: 25`` sets the value the parent's map declares)
        old_data["options"], new_data["options"] = _option_values(parent)[0], _option_values(variant.data)[0]
    out: list[str] = []
    for path, old, new in _diff(old_data, new_data, ()):
        if path and path[0] in _NOT_SHOWN:
            continue
        if path == ("contract", "melds") and isinstance(old, str) and isinstance(new, str):
            out += _contract_changes(variant, old, new)
            continue
        where = ".".join(str(p) for p in path)
        if path[:1] == ("turn",) and len(path) >= 3 and new is None:
            out += bullet(f"{where}: {show(old)} -> (the default)")
            continue
        if path[-1] == "description" and all(isinstance(v, (str, type(None))) for v in (old, new)):
            quoted = [f'"{v}"' if isinstance(v, str) else "(none)" for v in (old, new)]
            out += bullet(f"{where}: {quoted[0]} -> {quoted[1]}")
            continue
        word = _wording(variant, path)
        if word is not None and (isinstance(old, str) or isinstance(new, str)):
            said_old = _say(word, variant, old, parent)
            said_new = _say(word, variant, new, variant.data)
            if said_old != said_new:  # written otherwise, meaning the same: not a change
                out += bullet(f"{where}: {said_old} -> {said_new}")
            continue
        if show(old) != show(new):
            out += bullet(f"{where}: {show(old)} -> {show(new)}")
    return out


def _steps(turn: Any) -> dict[str, Any] | None:
    """A turn list as {step name: settings}, or None when it is not one (or repeats a step)."""
    if not isinstance(turn, (list, tuple)):
        return None
    steps: dict[str, Any] = {}
    for step in turn:
        settings: Any
        if isinstance(step, str):
            name, settings = step, {}
        elif isinstance(step, Mapping) and len(step) == 1:
            name, settings = next(iter(step.items()))
            settings = dict(settings) if isinstance(settings, Mapping) else {}
        else:
            return None
        if name in steps:
            return None
        steps[name] = settings
    return steps


def _diff(old: Any, new: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any, Any]]:
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in list(old) + [k for k in new if k not in old]:
            if old.get(key) != new.get(key):
                yield from _diff(old.get(key), new.get(key), path + (key,))
    elif (isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and len(old) == len(new)
          and path == ("scoring", "round")):
        for index, (was, now) in enumerate(zip(old, new)):
            if was != now:
                yield from _diff(was, now, path + (index + 1,))
    elif old != new:
        yield path, old, new


Wording = Callable[[Speaker, Any], str]


def _wording(variant: Variant, path: tuple[Any, ...]) -> tuple[str, Wording] | None:
    """The context a formula at ``path`` is read in, and how it is said."""
    def noun(speak: Speaker, tree: Any) -> str:
        return speak.say(tree)

    def clause(speak: Speaker, tree: Any) -> str:
        return speak.say(tree, clause=True)

    def meld(speak: Speaker, tree: Any) -> str:
        return meld_words(speak.variant, tree)

    if path in (("knock", "limit"), ("buying", "per_deal")):
        return "round", noun
    if path == ("scoring", "multiplier"):
        return "score", _multiplier
    if path[:2] == ("scoring", "let"):
        return "score", noun
    if path[:2] == ("scoring", "round") and len(path) == 4:
        return ("score", clause) if path[3] == "when" else ("score", noun)
    if path[:1] == ("melds",) and (len(path) == 2 or path[2:] == ("pattern",)):
        return "meld", meld
    if path == ("card_value",):
        return "card", noun
    if path == ("melded_value",):
        return "melded", noun
    if path == ("deal", "hand_size"):
        return "deal", noun
    if path == ("deal", "sit_out"):
        from .table import _sit_out_words

        return "next_deal", lambda speak, tree: _sit_out_words(str(tree), speak.variant)
    if path[:1] == ("turn",) and path[-1:] == ("skip_after_accepting",):
        return "card", clause
    return None


def _multiplier(speak: Speaker, tree: Any) -> str:
    """A round's multiplier: ``double when the upcard is a spade``."""
    from ..expr import ast

    if (isinstance(tree, ast.Conditional) and isinstance(tree.then, ast.IntLit)
            and isinstance(tree.otherwise, ast.IntLit) and tree.otherwise.value == 1):
        times = {2: "double", 3: "triple"}.get(tree.then.value, f"times {tree.then.value}")
        return f"{times} when {speak.say(tree.test, clause=True)}"
    return speak.say(tree)


def _say(word: tuple[str, Wording], variant: Variant, value: Any, data: Mapping[str, Any]) -> str:
    """``value`` (a formula, a number, or nothing) in words, with the options of ``data``."""
    context, how = word
    if value is None:
        return "(none)"
    if isinstance(value, Mapping) and "pattern" in value:
        value = value["pattern"]
    if not isinstance(value, str):
        return show(value)
    if context == "next_deal":
        return how(Speaker(variant, context), value)
    try:
        tree = parser.parse(value)
    except RummyDslError:
        return raw(show(value))
    values, words = _option_values(data)
    speak = Speaker(variant, context, ender="the player who ended the round", scored=True)
    return how(speak, fold_tree(tree, values, words))


def _option_values(data: Mapping[str, Any]) -> tuple[dict[str, Any], set[str]]:
    values: dict[str, Any] = {}
    words: set[str] = set()
    options = data.get("options")
    for name, option in (options.items() if isinstance(options, Mapping) else ()):
        if isinstance(option, Mapping):
            values[name] = option.get("value")
            words.update(option.get("one_of") or ())
        else:
            values[name] = option
    return values, words


def _contract_changes(variant: Variant, old: str, new: str) -> list[str]:
    """The contract's change: by deal, only the deals it changes (CR-2)."""
    parent = variant.parent_data or {}
    deals = variant.game.deals
    try:
        old_tree, new_tree = parser.parse(old), parser.parse(new)
    except RummyDslError:
        return bullet(f"contract.melds: {raw(show(old))} -> {raw(show(new))}")
    old_values, old_words = _option_values(parent)
    new_values, new_words = _option_values(variant.data)
    reads_round = any(getattr(n, "id", None) == "round" for t in (old_tree, new_tree) for n in _walk(t))
    if deals is None or deals > 12 or not reads_round:
        said_old = contract_words(variant, fold_tree(old_tree, old_values, old_words))
        said_new = contract_words(variant, fold_tree(new_tree, new_values, new_words))
        return bullet(f"contract: {said_old} -> {said_new}")
    out: list[str] = []
    for number in range(1, deals + 1):
        said_old = contract_words(variant, fold_tree(old_tree, {**old_values, "round": number}, old_words))
        said_new = contract_words(variant, fold_tree(new_tree, {**new_values, "round": number}, new_words))
        if said_old != said_new:
            out += bullet(f"contract in deal {number}: {said_old} -> {said_new}")
    return out


def _walk(tree: Any) -> Iterator[Any]:
    from ..expr import ast

    return ast.walk(tree)
