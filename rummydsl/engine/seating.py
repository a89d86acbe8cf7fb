"""Seats that sit out a round (G3-1, G3-2): who sits out each deal, and who deals it.

A variant with ``deal.sit_out`` names, before each deal, the seat that sits out
that round: an expression in the next-deal context (docs/language.md, "Next-deal context")
read over a :class:`~rummydsl.expr.runtime.NextDealView` of the game so far. The seat
keeps its number; the round skips it everywhere (:meth:`Round.next_seat
<rummydsl.engine.round.Round.next_seat>`). With ``deal.rotation: sitter`` the
seat sitting out deals. Nothing here names a game.

>>> from rummydsl.engine.state import RoundResult
>>> from rummydsl.endings import Ending
>>> result = RoundResult(Ending.KNOCK, 1, (0, 3, 20), (0, 17, 0))
>>> round_loser(result, (1, 2))
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..errors import ExpressionError
from ..expr.runtime import NextDealView
from .state import RoundResult

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["round_loser", "deal_view", "who_sits_out", "dealer_for", "first_seating"]


def round_loser(result: RoundResult, seated: Sequence[int]) -> int | None:
    """The loser of a round: a seat dealt in that is not the winner, the one that scored
    least, nearest the winner's left on a tie (two players: the other one); None when
    nobody won."""
    winner = result.winner
    if winner is None:
        return None
    at = list(seated).index(winner) if winner in seated else 0
    order = [q for q in (*seated[at + 1:], *seated[:at]) if q != winner]
    if not order:
        return None
    least = min(result.points[q] for q in order)
    return next(q for q in order if result.points[q] == least)


def deal_view(players: int, number: int, dealer: int, scores: Sequence[int],
              last: RoundResult | None = None, last_seated: Sequence[int] = (),
              last_sat_out: int | None = None) -> NextDealView:
    """The next-deal context of deal ``number`` (from 1): ``dealer`` is the first dealer in
    round 1, the last round's dealer afterwards; ``last`` is the last round's result."""
    seats = tuple(range(players))
    totals = dict(enumerate(scores))
    if last is None:
        return NextDealView(players=seats, round=number, dealer=dealer, scores=totals)
    return NextDealView(players=seats, round=number, dealer=dealer, last_sat_out=last_sat_out,
                    last_winner=last.winner, last_loser=round_loser(last, last_seated),
                    last_void=last.winner is None, scores=totals)


def who_sits_out(variant: Variant, view: NextDealView) -> int | None:
    """The seat ``deal.sit_out`` names for the deal ``view`` describes, or None without it.

    :raises ExpressionError: rule ``expr-runtime``, quoting the formula, when it fails
        (a ``last_*`` name read in round 1, or after a round nobody won).
    """
    formula = variant.deal.sit_out
    if formula is None:
        return None
    try:
        seat = formula(view)  # type: ignore[arg-type]
    except ExpressionError as problem:
        raise ExpressionError(f"{variant.id}: deal.sit_out {formula.text!r} failed before deal "
                              f"{view.round}: {problem.message}", 0, 0, problem.rule) from None
    return int(seat)


def dealer_for(variant: Variant, dealer: int, sat_out: int | None) -> int:
    """The dealer of a deal: the seat sitting out with ``rotation: sitter`` (G3-2), else ``dealer``."""
    if variant.deal.rotation == "sitter" and sat_out is not None:
        return sat_out
    return dealer


def first_seating(variant: Variant, dealer: int, players: int | None = None) -> tuple[int, int | None]:
    """The dealer and the seat sitting out of a first round whose first dealer is ``dealer``
    (a single hand, ``simulate --hands``, deals as a game's round 1 would)."""
    seats = variant.players if players is None else players
    sat_out = who_sits_out(variant, deal_view(seats, 1, dealer, (0,) * seats))
    return dealer_for(variant, dealer, sat_out), sat_out
