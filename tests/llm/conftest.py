"""Helpers for the tests of rummydsl.llm: run ``rummydsl ARGV`` in-process; a fixed position."""

from __future__ import annotations

import io

from rummydsl.engine import Round
from rummydsl.variant import load_variant


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``rummydsl ARGV`` (``main(argv)`` with captured streams)."""
    out, err = io.StringIO(), io.StringIO()
    from rummydsl.cli import main

    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def position(variant_id: str, *, dealer: str, hands: dict[str, str], stock: str, upcard: str | None = None,
             number: int = 1) -> Round:
    """A round at a fixed position: seats P1.., cards as text, the stock top card first."""
    variant = load_variant(variant_id)
    seats = sorted(hands, key=lambda name: int(name[1:]))
    cards = variant.deck.parse_cards(" ".join([*(hands[s] for s in seats), stock, upcard or ""]))
    dealt, at = [], 0
    for seat in seats:
        size = len(hands[seat].split())
        dealt.append(cards[at:at + size])
        at += size
    rest = cards[at:]
    return Round.from_setup(variant, dealer=int(dealer[1:]) - 1, hands=dealt,
                            stock=rest[:len(stock.split())], upcard=rest[-1] if upcard else None, number=number)
