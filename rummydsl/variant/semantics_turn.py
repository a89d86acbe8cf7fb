"""The semantic checks of the turn and of what ends a round.

The turn's steps (a draw from piles the variant has, one step that ends the turn,
in a sensible order), knocking (a discard to knock with, a limit some hand can reach),
the stock (``at_floor``, the final turn), going out, deep draws (R5-3, R5-5), hands
that may grow past the meld solver, ``void`` and ``deadwood.arrangement`` rules that
never apply, and buying (CR-4).
"""

from __future__ import annotations

from typing import Sequence

from ..limits import MAX_HAND
from .exprs import probe_round_values
from .model import Variant
from .semantics_report import KeyPath, Report

__all__ = ["check_turn", "check_knock", "check_buying"]


def check_turn(variant: Variant, report: Report) -> None:
    """The turn's steps: piles that exist, one step that ends the turn, a sensible order,
    and the settings that depend on them."""
    names = [step.name for step in variant.turn]
    draw = variant.step("draw")
    if draw is not None and "discard" in draw.sources and not variant.has_discard_pile:
        index = names.index("draw")
        report.error(("turn", index, "draw", "from"),
                     "draws from the discard pile, but this variant has none (no upcard and no "
                     "'discard' step)", "turn-pile")
    if "discard" in names and "offer" in names:
        report.error(("turn",), "a turn ends with 'discard' or with 'offer', not both", "turn-end")
    elif "discard" not in names and "offer" not in names:
        report.error(("turn",), "a turn needs a 'discard' or an 'offer' step to end it", "turn-end")
    for later, earlier in (("discard", "draw"), ("offer", "draw"), ("meld", "draw")):
        if later in names and earlier in names and names.index(later) < names.index(earlier):
            report.warn(("turn", names.index(later)), f"'{later}' comes before '{earlier}' in the turn",
                        "turn-order")
    for step in ("discard", "offer"):
        if step in names and names.index(step) != len(names) - 1:
            report.error(("turn", names.index(step)), f"'{step}' ends the turn, so it must be the last step",
                         "turn-end")
    if variant.knock is not None and "discard" not in names:
        report.error(("knock",), "knocking discards a card face down: the turn needs a 'discard' step",
                     "knock-discard")
    if variant.knock is None and "meld" not in names:
        at_floor = variant.stock.at_floor
        if at_floor in ("void", "turn_over") and variant.game.deals is None:
            # Every round is void: nobody ever scores, so no total reaches the target.
            report.error(("turn",), "no round can be won: with no 'knock' and no 'meld' step a round ends only "
                         f"when the stock runs out, and 'stock.at_floor: {at_floor}' makes that round void, so "
                         f"no game reaches its target of {variant.game.target} (add 'knock' or a 'meld' step, "
                         "score the stock end with 'at_floor: stock_end', or end the game after 'game.deals')",
                         "game-end")
        else:
            report.warn(("turn",), "no 'knock' and no 'meld' step: a round can only end at the stock floor "
                        "(run 'rummydsl check --play 20' to see how its games go)", "round-end")
    for skipped in variant.stock.final_turn_skip:
        if skipped not in names:
            report.warn(("stock", "final_turn_skip"), f"'{skipped}' is not a step of this variant's turn",
                        "stock-skip")
    offer = variant.step("offer")
    if offer is not None and offer.min_hand > variant.max_hand_size + 1:
        report.warn(("turn", names.index("offer"), "offer", "min_hand"),
                    f"min_hand {offer.min_hand} is more than a hand ever holds ({variant.max_hand_size + 1}): "
                    "no offer is ever made", "offer-min-hand")
    if variant.contract is not None and "meld" not in names:
        report.warn(("contract",), "a contract has no effect without a 'meld' step", "contract-unused")
    _check_deep_draw(variant, names, report)
    _check_hand_growth(variant, names, report)
    if variant.knock is None and "layoff" in variant.data:
        report.warn(("layoff",), "lay-off settings have no effect without 'knock'", "layoff-unused")
    _check_stock_and_going_out(variant, report, names)
    _check_void_and_arrangement(variant, report)


def _check_void_and_arrangement(variant: Variant, report: Report) -> None:
    """``void`` rules that can never apply, and ``deadwood.arrangement: as_shown`` without
    knocking (nobody shows melds to be scored on)."""
    draw, discard = variant.step("draw"), variant.step("discard")
    pile_draws = draw is not None and "discard" in draw.sources
    if variant.void.at_discard_draw is not None and not pile_draws:
        report.warn(("void", "at_discard_draw"), "no draw step draws from the discard pile: "
                    "'at_discard_draw' never applies", "void-unused")
    if variant.void.after_throwbacks is not None:
        why = ("the turn has no 'discard' step" if discard is None
               else "the card taken from the pile may not be discarded that turn (add 'taken_card: allowed' "
                    "to the discard step)" if discard.taken_card == "forbidden"
               else "no card is ever taken from the discard pile" if not (pile_draws or variant.upcard_offer)
               else None)
        if why is not None:
            report.warn(("void", "after_throwbacks"), f"{why}: 'after_throwbacks' never applies", "void-unused")
    if variant.deadwood_arrangement == "as_shown" and variant.knock is None:
        report.warn(("deadwood", "arrangement"), "'as_shown' scores the melds shown at a knock, but this "
                    "variant has no 'knock': it changes nothing", "arrangement-unused")


def _check_stock_and_going_out(variant: Variant, report: Report, names: Sequence[str]) -> None:
    """``stock.at_floor: turn_over`` needs a discard pile and has no final turn (BR-4);
    ``going_out.final_discard: required`` needs a discard step (BR-3)."""
    stock = variant.stock
    if stock.at_floor == "turn_over":
        if not variant.has_discard_pile:
            report.error(("stock", "at_floor"), "'turn_over' turns the discard pile over into a new "
                         "stock, but this variant has none (no upcard and no 'discard' step)",
                         "stock-turn-over")
        for key, given in (("final_turn_skip", bool(stock.final_turn_skip)),
                           ("last_discard_claim", stock.last_discard_claim)):
            if given:
                report.warn(("stock", key), f"'{key}' has no effect with 'at_floor: turn_over': "
                            "the stock is renewed, so there is no final turn", "stock-turn-over-final")
    if variant.going_out.final_discard == "required" and "discard" not in names:
        report.error(("going_out", "final_discard"), "'required' means the last card is discarded, "
                     "but the turn has no 'discard' step", "going-out-discard")


def _check_hand_growth(variant: Variant, names: Sequence[str], report: Report) -> None:
    """Warn where a hand can grow past the meld solver's MAX_HAND cards: only a deck of
    more cards can deal such a hand, and only a rule that lets a hand grow in play makes
    one (a declined offer, SK-7; buying, CR-4; deep draws, R5-3). Its deadwood is then
    not known, and a formula that asks stops the round (``hand-too-large``)."""
    cards = len(variant.deck.cards)
    if cards <= MAX_HAND:
        return
    places: list[tuple[KeyPath, str]] = []
    if "offer" in names:
        places.append((("turn", names.index("offer"), "offer"), "a declined offer stays in the offerer's hand"))
    draw = variant.step("draw")
    if draw is not None and draw.discard_depth == "any":
        places.append((("turn", names.index("draw"), "draw", "discard_depth"), "a deep draw takes many cards"))
    if variant.buying is not None:
        places.append((("buying",), "each buy adds cards to the buyer's hand"))
    for path, why in places:
        report.warn(path, f"a hand may grow past the meld solver's {MAX_HAND} cards here ({why}, and the deck "
                    f"has {cards:,}): its deadwood is then not known, and a scoring formula that asks for it "
                    "stops the round (hand-too-large)", "hand-past-solver")


def _check_deep_draw(variant: Variant, names: Sequence[str], report: Report) -> None:
    """``discard_depth: any`` needs the discard pile and, to meld the card it obliges, a
    meld step after the draw (R5-3); ``at_floor: discard_only`` needs draws from the pile
    (R5-5)."""
    draw = variant.step("draw")
    if draw is not None and draw.discard_depth == "any":
        index = names.index("draw")
        if "discard" not in draw.sources:
            report.error(("turn", index, "draw", "discard_depth"),
                         "discard_depth 'any' takes cards from the discard pile, but this draw step's "
                         "'from' has no 'discard'", "deep-draw")
        elif draw.deep_draw_must_meld and ("meld" not in names or names.index("meld") < index):
            report.error(("turn", index, "draw", "discard_depth"),
                         "a deep draw's card must be melded the same turn (deep_draw_must_meld), but no "
                         "'meld' step follows the draw (add one, or set deep_draw_must_meld: false)",
                         "deep-draw")
    if variant.stock.at_floor == "discard_only" and (draw is None or "discard" not in draw.sources):
        report.error(("stock", "at_floor"), "at_floor 'discard_only' goes on with draws from the discard "
                     "pile, but the draw step does not draw from it (turn: draw: from: [.., discard])",
                     "deep-draw")


def check_knock(variant: Variant, report: Report) -> None:
    """A knock limit that no hand can reach, or that every hand reaches at once."""
    knock = variant.knock
    if knock is None or knock.limit is None or not variant.card_values:
        return
    limits = probe_round_values(variant, knock.limit)
    if limits and max(limits) < 0:
        report.warn(("knock", "limit"), f"the knock limit is always below 0 ({max(limits)}): no hand can knock",
                    "knock-unreachable")
    worst = sum(sorted(variant.card_values, reverse=True)[: variant.max_hand_size])
    if limits and min(limits) >= worst:
        report.warn(("knock", "limit"), f"the knock limit ({min(limits)}) is at least the most deadwood a "
                    f"hand can hold ({worst}): every hand can knock at once", "knock-always")


def check_buying(variant: Variant, report: Report) -> None:
    """``buying`` (CR-4) needs a discard pile and a draw from the stock and the pile."""
    if variant.buying is None:
        return
    draw = variant.step("draw")
    if draw is None or "stock" not in draw.sources or "discard" not in draw.sources:
        report.error(("buying",), "buying takes the top discard when the player to move draws from the "
                     "stock: the turn needs 'draw: {from: [stock, discard]}'", "buying-draw")
