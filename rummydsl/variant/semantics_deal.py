"""The semantic checks of the deal: the deck holds it, for every allowed player count.

Errors where the deck cannot deal the hands, the upcard and a stock above its floor
(``deal-size``), where the player counts contradict each other (``players``), and where
a seat sitting out leaves too few to play (``sit-out``, G3-1, G3-2).
"""

from __future__ import annotations

from ..errors import ExpressionError
from ..expr.runtime import NextDealView
from .exprs import HAND_SIZE_RANGE, deal_probes
from .model import Variant
from .semantics_report import KeyPath, Report

__all__ = ["check_deal", "check_sit_out"]


def check_deal(variant: Variant, report: Report) -> None:
    """The deck holds the deal (hands, upcard, a stock above its floor) and the player
    counts agree (``deal-size``, ``players``, ``upcard``)."""
    deck, deal, players = variant.deck, variant.deal, variant.players
    dealt_in = players - (1 if deal.sit_out is not None else 0)  # G3-1: one seat is dealt nothing
    dealt = dealt_in * deal.hand_size + (1 if deal.upcard else 0)
    needed = dealt + variant.stock.floor + 1
    if deal.hand_size_rule is not None:
        _check_hand_size_rule(variant, report)  # every allowed player count and deal
    elif needed > deck.size:
        upcard = " and an upcard" if deal.upcard else ""
        report.error(("deal", "hand_size"),
                     f"the deck has {deck.size} cards, too few to deal {dealt_in} × {deal.hand_size}"
                     f"{upcard} and keep a stock above its floor of {variant.stock.floor} "
                     f"(needs at least {needed})", "deal-size")
    low, high = variant.players_range
    if low > high:
        report.error(("players", "min"), f"players.min ({low}) is more than players.max ({high})", "players")
    elif not low <= players <= high:
        report.error(("players", "count"), f"{players} players, but the rules allow {low} to {high}",
                     "players")
    elif high > players and deal.hand_size_rule is None:
        most = high * deal.hand_size + (1 if deal.upcard else 0) + variant.stock.floor + 1
        if most > deck.size:
            report.warn(("players", "max"), f"the rules allow {high} players, but the deck of {deck.size} "
                        f"cards cannot deal {high} × {deal.hand_size} and keep a stock (needs {most})",
                        "players")
    if variant.upcard_offer is not None and not deal.upcard:
        report.error(("upcard_offer",), "an upcard round needs 'deal.upcard: true'", "upcard")


def check_sit_out(variant: Variant, report: Report) -> None:
    """G3-1, G3-2: ``deal.sit_out`` leaves at least two players dealt in; ``rotation:
    sitter`` needs it; and round 1 must not read the last round (which does not exist)."""
    deal = variant.deal
    if deal.rotation == "sitter" and deal.sit_out is None:
        report.error(("deal", "rotation"), "'rotation: sitter' deals by the player sitting out, "
                     "but 'deal.sit_out' names nobody", "sit-out")
    if deal.sit_out is None:
        return
    low = variant.players_range[0]
    if low < 3:
        report.error(("deal", "sit_out"), f"with {low} players a seat sitting out leaves fewer than two "
                     "to play: 'sit_out' needs at least 3 players", "sit-out")
        return
    seats = tuple(range(variant.players))
    for dealer in seats:  # round 1 with each first dealer: every name of the deal context has a value
        try:
            deal.sit_out(NextDealView(players=seats, round=1, dealer=dealer))  # type: ignore[arg-type]
        except ExpressionError as problem:
            report.warn(("deal", "sit_out"), f"round 1 cannot be dealt: {problem.message}", "sit-out-round-1")
            return


def _check_hand_size_rule(variant: Variant, report: Report) -> None:
    """A ``deal.hand_size`` expression gives 1..19 cards, and a deal the deck can hold
    (hands, upcard, and a stock above its floor), for every allowed player count and,
    if it reads ``round``, every deal; the first problem is reported, at the expression."""
    deal, deck = variant.deal, variant.deck
    rule = deal.hand_size_rule
    assert rule is not None
    low, high = variant.players_range
    low, high = min(low, variant.players), max(high, variant.players)
    path: KeyPath = ("deal", "hand_size")
    smallest, largest = HAND_SIZE_RANGE
    reads_round = "round" in rule.names
    for count, number, value in deal_probes(rule, (low, high), getattr(variant.game, "deals", None)):
        where = f"{count} players" + (f", deal {number}" if reads_round else "")
        if isinstance(value, ExpressionError):
            report.error_inside(path, value, f" (dealing to {where})")
            return
        if not smallest <= value <= largest:
            report.error(path, f"deal.hand_size gives {value} cards with {where}; a hand is "
                         f"{smallest} to {largest} cards", "deal-size")
            return
        dealt_in = count - (1 if deal.sit_out is not None else 0)  # G3-1: one seat is dealt nothing
        needed = dealt_in * value + (1 if deal.upcard else 0) + variant.stock.floor + 1
        if needed > deck.size:
            upcard = " and an upcard" if deal.upcard else ""
            report.error(path, f"the deck has {deck.size} cards, too few to deal {dealt_in} × {value}{upcard} "
                         f"with {where} and keep a stock above its floor of {variant.stock.floor} "
                         f"(needs at least {needed})", "deal-size")
            return
