"""``rummydsl melds --json``: one hand's report (DESIGN.md), from a :class:`MeldRules`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from ..cards import Card
from .core import Arrangement

__all__ = ["melds_report"]


class MeldRules(Protocol):
    """What the report asks of :class:`~rummydsl.melds.MeldRules`."""

    _rank_order: tuple[int, ...]
    _suit_index: tuple[int, ...]

    def check_hand(self, cards: Iterable[Card | str] | str) -> tuple[Card, ...]: ...

    def solve(self, cards: Iterable[Card | str] | str) -> Arrangement: ...

    def best_discard(self, cards: Iterable[Card | str] | str) -> tuple[Card, int]: ...

    def display_order(self, meld: Sequence[Card | str]) -> tuple[Card, ...]: ...


def melds_report(rules: MeldRules, cards: Iterable[Card | str] | str,
                 hand_size: int | None = None) -> dict[str, object]:
    """The ``rummydsl melds --json`` object of DESIGN.md for one hand.

    ``{"deadwood": N, "melds": [[cards]...], "unmatched": [cards], "contract":
    bool}``, plus ``best_discard`` and ``deadwood_after_discard`` when the hand
    holds ``hand_size + 1`` cards. Cards are written in the deck's notation.

    :raises CardError: for bad cards (unknown, repeated, too many, none).
    """
    hand = rules.check_hand(cards)
    best = rules.solve(hand)

    def reading(card: Card) -> tuple[int, int, int]:
        if card.wild:
            return (1, 0, card.id)
        return (0, rules._rank_order[card.id], rules._suit_index[card.id])

    report: dict[str, object] = {
        "deadwood": best.deadwood,
        "melds": [[str(c) for c in rules.display_order(meld)] for meld in best.melds],
        "unmatched": [str(c) for c in sorted(best.unmatched, key=reading)],
        "contract": best.contract,
    }
    if hand_size is not None and len(hand) == hand_size + 1:
        card, after = rules.best_discard(hand)
        report["best_discard"] = str(card)
        report["deadwood_after_discard"] = after
    return report
