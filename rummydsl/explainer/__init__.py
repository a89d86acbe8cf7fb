"""``rummydsl explain``: the rules of a variant in words a person can read at the table.

The package: :mod:`~rummydsl.explainer.words` (how formulas and values are written),
one module per group of sections (:mod:`~rummydsl.explainer.table`,
:mod:`~rummydsl.explainer.play`, :mod:`~rummydsl.explainer.scores`), and here the
summary, the options and what a house rule changes.

(The package is ``explainer``, not ``explain``, so that importing it never hides the
function ``rummydsl.explain`` behind a module of the same name.)
"""

from __future__ import annotations

from typing import Iterator, Mapping

from ..safetext import safe_text
from ..variant.model import Variant
from .changes import differences
from .play import ending_section, melds_section, turn_section
from .scores import game_end, game_section, scoring_section
from .table import cards_each, cards_section, deal_section
from .say import said
from .words import bullet, collecting_raw, wrap

__all__ = ["explain", "unworded"]


def explain(variant: Variant, *, markdown: bool = False) -> str:
    """The variant's rules as plain text, section by section (or as Markdown).

    Formulas are said in words, with the values of the options filled in (``the
    knocker scores 25 plus the opponents' deadwood``, ``when the upcard is a spade,
    every score of the round counts double``); only a formula the explainer has no
    words for yet is shown as written (:func:`unworded` lists them). Text
    from the file (names, descriptions) is shown with its control characters
    escaped (:func:`rummydsl.safetext.safe_text`).
    """
    lines: list[str] = []
    parent = _parent_id(variant)
    title = safe_text(variant.name + (f"  (extends {parent})" if parent else ""), lines=False)
    if markdown:
        lines += [f"# {safe_text(variant.name, lines=False)}", ""]
        lines += [f"Variant id `{variant.id}`" + (f", extends `{parent}`." if parent else ".")
                  + (f" Rules: {', '.join(variant.rules)}." if variant.rules else ""), ""]
    else:
        lines += [title, "=" * len(title)]
    lines += wrap(variant.description or _summary(variant)) + [""]
    for heading, body in _sections(variant):
        body = [line for line in body if line is not None]
        if body:
            if markdown:
                lines += [f"## {heading}", "", *body, ""]
            else:
                lines += [heading, "-" * len(heading), *body, ""]
    # Names, descriptions and formulas come from the file: no control character reaches
    # a terminal (rummydsl.safetext; the command line escapes its output again, harmlessly).
    return safe_text("\n".join(lines).rstrip("\n") + "\n")


def unworded(variant: Variant) -> list[str]:
    """The formulas ``explain`` shows as written because it has no words for them yet
    (none for a shipped variant: ``tests/unit/test_explain_words.py``).

    >>> from rummydsl.variant import load_variant
    >>> unworded(load_variant("knock_rummy"))
    []
    """
    with collecting_raw() as seen:
        explain(variant)
        explain(variant, markdown=True)
    return list(seen)


def _parent_id(variant: Variant) -> str | None:
    """The id of the variant this one extends (its ``id``, not its file's name)."""
    parent = variant.parent_data
    if isinstance(parent, Mapping) and isinstance(parent.get("id"), str):
        return str(parent["id"])
    return variant.parent


def _summary(variant: Variant) -> str:
    """One paragraph for a variant without a description: who plays, how a round
    ends and what wins.

    >>> from rummydsl.variant import load_variant
    >>> _summary(load_variant("gin_rummy"))
    '2 players, 10 cards each. A round ends by knocking with at most 10 deadwood, or by gin. First to 100 points wins.'
    """
    players = (f"{variant.players} players" if variant.players_range[0] == variant.players_range[1]
               else f"{variant.players} players (the rules allow {variant.players_range[0]} to "
                    f"{variant.players_range[1]})")
    ends = []
    if variant.knock is not None and variant.knock.limit is None:
        ends.append("by knocking with any deadwood")
    elif variant.knock is not None:
        limit = said(variant.knock.limit, variant, "round")
        ends.append("only by gin" if limit == "0" else
                    f"by knocking with at most {limit} deadwood, or by gin")
    if variant.step("meld") is not None:
        ends.append("by melding every card (going out)" if variant.step("discard") is None
                    else "by getting rid of every card (going out)")
    ending = (" A round ends " + " or ".join(ends) + ".") if ends else ""
    return f"{players}, {cards_each(variant)}.{ending} {game_end(variant)}"


def _sections(variant: Variant) -> Iterator[tuple[str, list[str]]]:
    if variant.parent_data is not None:  # a house rule is read as its parent and what it changes: that first
        changes = differences(variant)
        yield f"Changed from {_parent_id(variant)}", changes or [f"Nothing: these are the rules of {_parent_id(variant)}."]
    yield "Players and cards", cards_section(variant)
    yield "Deal", deal_section(variant)
    yield "Melds", melds_section(variant)
    yield "A turn", turn_section(variant)
    yield "Ending a round", ending_section(variant)
    yield "Scoring", scoring_section(variant)
    yield "The game", game_section(variant)
    yield "Options", _options(variant)


def _options(variant: Variant) -> list[str]:
    out: list[str] = []
    for option in variant.options.values():
        value = str(option.value).lower() if isinstance(option.value, bool) else str(option.value)
        choices = f" (one of {', '.join(option.one_of)})" if option.one_of else ""
        rule = f" [{option.rule}]" if option.rule else ""
        about = f": {option.description}" if option.description else ""
        out += bullet(f"{option.name} = {value}{choices}{rule}{about}")
    return out
