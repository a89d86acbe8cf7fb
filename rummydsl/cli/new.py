"""``rummydsl new NAME --from VARIANT``: a commented house-rule file to start from, and
``rummydsl rules [ID]``: rule ids with their one-line meaning."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any, Mapping, TextIO

from .parser import EXIT_INPUT, EXIT_OK

__all__ = ["cmd_new", "cmd_rules", "scaffold"]

_ID = re.compile(r"[a-z][a-z0-9_]*")
SCHEMA_FILE = "variant.schema.json"
"""The editor schema a new file's first line names, written beside it when missing."""


SHOWN_WIDTH = 70
"""A setting whose value is longer than this as flow YAML (a contract's deal list) is
left out of a new file: 'rummydsl explain PARENT' shows it."""


def _yaml(value: Any) -> str:
    """A value as flow YAML (as explain shows it)."""
    from ..explainer.words import show

    return "null" if value is None else show(value)


def scaffold(name: str, parent: str) -> str:
    """The text of a new house rule ``name`` extending the variant ``parent``: the
    required keys, then the parent's settings a house rule most often changes, each
    commented out with its current value (uncomment a line to change it).

    :raises VariantError: if ``parent`` cannot be loaded.
    """
    from ..variant import load_variant

    variant = load_variant(parent)
    data = variant.data
    title = " ".join(word.capitalize() for word in name.split("_"))
    lines = [
        f"# yaml-language-server: $schema={SCHEMA_FILE}",
        f"# {title}: a house rule of {variant.name} ({variant.id}). It changes nothing yet:",
        "# uncomment a line below and give it your value. 'rummydsl check' checks the file,",
        f"# 'rummydsl explain' reads it back, 'rummydsl explain {variant.id}' shows the rules it",
        "# starts from; docs/language.md is the whole language. Keys you write merge into the",
        "# parent's key by key; 'key: null' deletes one.",
        "rummydsl: 1",
        f"id: {name}",
        f"name: {title}",
        f"extends: {_parent_name(parent, variant.id)}",
    ]
    if variant.options:
        lines += ["", "# options:                  # the constants the formulas use"]
        for option in variant.options.values():
            value = str(option.value).lower() if isinstance(option.value, bool) else str(option.value)
            about = " ".join(x for x in (f"[{option.rule}]" if option.rule else "", option.description or "",
                                        f"one of: {', '.join(option.one_of)}" if option.one_of else "") if x)
            lines.append(f"#   {option.name}: {value}" + (f"    # {about}" if about else ""))
    players = data.get("players")
    if isinstance(players, int):
        lines += ["", f"# players: {players}"]
    elif isinstance(players, Mapping):
        lines += ["", "# players:", *(f"#   {key}: {_yaml(value)}" for key, value in players.items())]
    for section, keys in (("game", ("target", "deals", "game_bonus", "box_bonus", "shutout")),
                          ("deal", ("hand_size", "upcard", "rotation")),
                          ("upcard_offer", None),
                          ("knock", ("limit", "big_gin")),
                          ("contract", None),
                          ("buying", None),
                          ("going_out", None),
                          ("stock", ("floor", "at_floor")),
                          ("layoff", ("onto", "after_gin"))):
        settings = data.get(section)
        if not isinstance(settings, Mapping):
            continue
        chosen = keys if keys is not None else tuple(settings)
        shown = [f"#   {key}: {_yaml(settings[key])}" for key in chosen
                 if key in settings and len(_yaml(settings[key])) <= SHOWN_WIDTH]
        if shown:
            lines += ["", f"# {section}:", *shown]
    melds = data.get("melds")
    if isinstance(melds, Mapping):
        lines += ["", "# melds:                    # each kind's pattern; a new name adds a kind"]
        for kind, pattern in melds.items():
            text = pattern.get("pattern") if isinstance(pattern, Mapping) else pattern
            lines.append(f"#   {kind}: {json.dumps(str(text))}")
    turn = data.get("turn")
    if isinstance(turn, (list, tuple)):
        lines += ["", "# turn:                     # change a step's settings by name; the others stay"]
        for step in turn:
            step_name, settings = (step, {}) if isinstance(step, str) else next(iter(step.items()))
            lines.append(f"#   {step_name}: {_yaml(dict(settings or {}))}")
    card_value = data.get("card_value")
    if isinstance(card_value, str):
        lines += ["", f"# card_value: {json.dumps(card_value)}"]
    return "\n".join(lines) + "\n"


def _parent_name(parent: str, variant_id: str) -> str:
    """How the new file names its parent: the shipped id, or the path as given."""
    from ..variant import shipped_variant_ids

    return variant_id if parent in shipped_variant_ids() else parent


def cmd_new(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl new``: write NAME.yaml (and the editor schema beside it, if missing)."""
    name = args.name
    if not _ID.fullmatch(name):
        print(f"rummydsl new: {name!r} is not a variant id: use lowercase letters, digits and underscores, "
              "starting with a letter (my_rule)", file=err)
        return EXIT_INPUT
    folder = Path(args.dir)
    target = folder / f"{name}.yaml"
    if target.exists() and not args.force:
        print(f"rummydsl new: {target} already exists; choose another name, or --force to overwrite it",
              file=err)
        return EXIT_INPUT
    text = scaffold(name, args.parent)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        schema = folder / SCHEMA_FILE
        wrote_schema = not schema.exists()
        if wrote_schema:
            from ..lsp.editor_schema import editor_schema_text

            schema.write_text(editor_schema_text(schema.resolve().as_uri()), encoding="utf-8")
    except OSError as problem:
        print(f"rummydsl new: cannot write {target}: {problem.strerror or problem}", file=err)
        return EXIT_INPUT
    print(f"wrote {target}" + (f" and {schema} (the editor schema its first line names)" if wrote_schema else ""),
          file=out)
    print(f"next: edit it, then 'rummydsl check {target}' and 'rummydsl explain {target}'", file=out)
    return EXIT_OK


def cmd_rules(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl rules [ID]``: the rule ids with their one-line meaning (every one, or those
    of one variant), or one rule and its sub-rules with their whole text."""
    from ..conformance.rule_index import RULE_ID, rule_index, rule_text_index
    from ..suggest import closest

    index = rule_index()
    what = args.what
    full = bool(args.full)
    if what is None:
        chosen = list(index)
    elif RULE_ID.fullmatch(what.upper()):
        rule = what.upper()
        full = True
        chosen = [r for r in index if r == rule or r.startswith(rule + ".")]
        if not chosen:
            near = closest(rule, list(index))
            hint = f"; did you mean {near!r}?" if near else ""
            print(f"rummydsl rules: no rule {rule!r} in the rules documents{hint}", file=err)
            return EXIT_INPUT
    else:
        from ..variant import load_variant

        variant = load_variant(what)
        cited = list(variant.rules)
        for option in variant.options.values():
            if option.rule and option.rule not in cited:
                cited.append(option.rule)
        for case in variant.scoring.cases:
            if case.rule and case.rule not in cited:
                cited.append(case.rule)
        chosen = cited
    if args.json:
        shown = rule_text_index() if args.full else index
        out.write(json.dumps({rule: shown.get(rule) for rule in chosen}, indent=1, ensure_ascii=False) + "\n")
        return EXIT_OK
    texts = rule_text_index() if full else index
    width = max((len(rule) for rule in chosen), default=0)
    for rule in chosen:
        said = texts.get(rule) or index.get(rule) or "(not in the rules documents)"
        out.write(_hanging(f"{rule:{width}}  ", said, 88 if full else 0))
    return EXIT_OK


def _hanging(lead: str, text: str, width: int) -> str:
    """``lead`` then ``text`` as one line, or (width > 0) wrapped at ``width`` with every
    line after the first indented under the text."""
    if width <= 0:
        return f"{lead}{text}\n"
    import textwrap

    return textwrap.fill(text, width, initial_indent=lead, subsequent_indent=" " * len(lead),
                         break_on_hyphens=False) + "\n"
