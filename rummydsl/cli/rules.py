"""The commands that show what a variant says: ``explain``, ``schema``, ``variants`` and ``melds``."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any, TextIO

from ..errors import CardError
from .parser import EXIT_INPUT, EXIT_OK, EXIT_USAGE

__all__ = [
    "cmd_explain",
    "cmd_schema",
    "cmd_variants",
    "cmd_melds",
]


def cmd_explain(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl explain``: a variant's rules in words."""
    from ..explainer import explain
    from ..variant import load_variant

    variant = load_variant(args.variant)
    out.write(explain(variant, markdown=args.markdown))
    return EXIT_OK


def cmd_schema(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl schema``: the JSON Schema of variant files, for editors."""
    from ..lsp.editor_schema import SCHEMA_ID, editor_schema_text
    from ..resources import read_spec_text

    if args.output is None:
        out.write(read_spec_text("variant.schema.json") if args.strict else editor_schema_text(SCHEMA_ID))
        return EXIT_OK
    target = Path(args.output)
    try:
        uri = target.resolve().as_uri()
        text = read_spec_text("variant.schema.json") if args.strict else editor_schema_text(uri)
        target.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as problem:
        print(f"rummydsl schema: cannot write {args.output!r}: {getattr(problem, 'strerror', None) or problem}",
              file=err)
        return EXIT_INPUT
    print(f"wrote {args.output} ($id {uri})", file=out)
    return EXIT_OK


def cmd_variants(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl variants``: list the shipped variants."""
    from ..variant import load_variant, shipped_variant_ids

    for variant_id in shipped_variant_ids():
        variant = load_variant(variant_id)
        parent = f" (extends {variant.parent})" if variant.parent else ""
        print(f"{variant_id:24} {variant.name}{parent}", file=out)
    return EXIT_OK


def cmd_melds(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl melds``: the best arrangement of a hand (or, with ``--batch``, of one hand a line)."""
    from ..engine.round import meld_rules
    from ..melds import melds_report
    from ..variant import load_variant

    variant = load_variant(args.variant)
    rules = meld_rules(variant)  # a contract by deal (CR-2) is judged in the first deal
    if args.batch:
        if args.cards:
            print("rummydsl melds: give cards on stdin with --batch, not as arguments", file=err)
            return EXIT_USAGE
        status = EXIT_OK
        for number, line in enumerate(inp, start=1):
            cards = line.split()
            if not cards:
                continue
            try:
                report = melds_report(rules, cards, variant.deal.hand_size)
            except CardError as problem:
                report = {"error": f"line {number}: {problem}"}
                status = EXIT_INPUT
            out.write(json.dumps(report) + "\n")
        return status
    if not args.cards:
        print("rummydsl melds: give the cards of a hand, e.g. 'rummydsl melds gin_rummy AS 2S 3S'", file=err)
        return EXIT_USAGE
    try:
        report = melds_report(rules, args.cards, variant.deal.hand_size)
    except CardError as problem:
        print(f"rummydsl melds: {problem}{_expanded_star_hint(args.cards)}", file=err)
        return EXIT_INPUT
    if args.json:
        out.write(json.dumps(report) + "\n")
    else:
        _print_melds(report, out, variant, rules)
    return EXIT_OK


def _expanded_star_hint(cards: list[str]) -> str:
    """A hint when a card argument is the name of a file here: the shell expanded a
    wild card ``*`` written unquoted into the folder's file names."""
    files = [card for card in cards if os.path.exists(card)]
    if not files:
        return ""
    return (f" ('{files[0]}' is a file in this folder: the shell replaced an unquoted * with the "
            "folder's file names; quote the wild card: '*')")


def _print_melds(report: dict[str, object], out: TextIO, variant: Any, rules: Any) -> None:
    """The text form of ``melds``: each meld with its kind, the deadwood, the
    contract (for a variant that has one), and for a hand one card over the hand
    size the best discard and whether it allows a knock or gin."""
    melds = report.get("melds") or []
    assert isinstance(melds, list)
    for meld in melds:
        kinds = ", ".join(sorted(rules.kinds_of(meld)))
        print("meld:      " + " ".join(meld) + (f"  ({kinds})" if kinds else ""), file=out)
    unmatched = report.get("unmatched") or []
    assert isinstance(unmatched, list)
    print("unmatched: " + (" ".join(unmatched) if unmatched else "-"), file=out)
    print(f"deadwood:  {report['deadwood']}", file=out)
    if variant.contract is not None:
        print(f"contract:  {'met' if report.get('contract') else 'not met'}", file=out)
    if "best_discard" in report:
        after = report["deadwood_after_discard"]
        print(f"best discard: {report['best_discard']} (deadwood after: {after})", file=out)
        verdict = _knock_verdict(variant, int(str(after)), int(str(report["deadwood"])))
        if verdict:
            print(verdict, file=out)


def _knock_verdict(variant: Any, after: int, before: int) -> str | None:
    """Whether the hand, after its best discard, may knock or go gin under the
    variant's knock limit (which may depend on the upcard)."""
    knock = variant.knock
    if knock is None:
        return None
    if before == 0 and knock.big_gin:
        return "ends:      big gin (every card melded, no discard needed)"
    if after == 0:
        return "ends:      gin after the discard"
    from ..variant.exprs import probe_round_values

    if knock.limit is None:
        return f"ends:      knock allowed (no knock limit; deadwood {after})"
    limits = sorted(set(probe_round_values(variant, knock.limit)))
    if not limits:
        return None
    if limits[0] == limits[-1]:
        limit = limits[0]
        return (f"ends:      knock allowed (deadwood {after} <= limit {limit})" if after <= limit
                else f"ends:      no knock (deadwood {after} > limit {limit})")
    allowed = [value for value in limits if after <= value]
    if not allowed:
        return f"ends:      no knock (deadwood {after} > the highest limit, {limits[-1]})"
    return (f"ends:      knock allowed if this round's limit is at least {after} "
            f"(the limit is {limits[0]} to {limits[-1]}, by the upcard)")
