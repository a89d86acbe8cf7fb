"""The sections "Melds", "A turn" and "Ending a round" of ``explain``: what is played and how a round ends.

>>> from rummydsl.variant import load_variant
>>> turn_section(load_variant("gin_rummy"))[0]
'1. Draw the top of the stock or the top discard.'
"""

from __future__ import annotations

from typing import Mapping

from ..variant.model import DiscardStep, DrawStep, MeldStep, OfferStep, Variant
from .say import said
from .shapes import contract_words, meld_words
from .words import bullet, folded, ordinal, wrap

__all__ = ["melds_section", "turn_section", "ending_section"]


def melds_section(variant: Variant) -> list[str]:
    out: list[str] = []
    for kind in variant.meld_kinds:
        description = f" ({kind.description})" if kind.description else ""
        out += bullet(f"{kind.name}{description}: {meld_words(variant, folded(kind.pattern, variant))}.")
    if variant.deadwood_arrangement == "as_shown" and variant.knock is not None:
        out += bullet("A card belongs to at most one meld. At a knock each player's deadwood is the value "
                       "of the cards they do not show in melds or lay off, whatever else those cards could "
                       "have made.")
    else:
        out += bullet("A card belongs to at most one meld. Deadwood is the value of the cards left over "
                       "by the arrangement that leaves the least.")
    if not variant.deadwood_excludes_concealed_melds:
        out += bullet("At the end of a round every card still in the hand counts as deadwood, melded or not.")
    elif variant.step("meld") is not None:
        out += bullet("At the end of a round only the cards in the hand count as deadwood, and melds still "
                       "in the hand do not count; cards on the table never count.")
    if variant.wild_unique_card and variant.deck.wilds:
        out += bullet("A wild card in a meld stands for a card that no other card in the hand or in the "
                       "melds it joins is, and no other wild stands for.")
    if variant.kind_locked:
        out += bullet("A meld on the table keeps the kind it was laid as when cards are added.")
    if variant.contract is not None:
        contract = variant.contract
        out += bullet(f"Contract: a player's first lay-down must satisfy: {_contract_text(variant)}. "
                       + ("Until then nothing goes on the table. " if contract.concealed_until_met else "")
                       + ("More melds may follow in the same phase." if contract.then_meld_same_turn
                          else "Further melding waits for a later turn.")
                       + ("" if contract.new_melds_after else
                          " After meeting it a player never puts down a new meld: only lay-offs."))
    if variant.buying is not None:
        buying = variant.buying
        cards = f"{buying.penalty_cards} penalty card{'s' if buying.penalty_cards != 1 else ''}"
        out += bullet("Buying: when the player to move draws from the stock rather than taking the top "
                       "discard, each other player in turn from their left may buy that discard, taking it "
                       f"and {cards} from the top of the stock, before the mover's own stock card; at most "
                       f"{said(buying.per_deal, variant, 'round')} buys per player per deal. Nobody may buy when "
                       "the stock could not give the penalty cards and the mover's card above its floor.")
    return out


def _contract_text(variant: Variant) -> str:
    """The contract in words; for a contract by deal in a game of ``deals`` (CR-2), the
    contract of each deal (``round`` filled in)."""
    contract = variant.contract
    assert contract is not None
    deals = variant.game.deals
    if deals is None or "round" not in contract.melds.names or deals > 12:
        return contract_words(variant, folded(contract.melds, variant))
    return "; ".join(f"in deal {number}, {contract_words(variant, folded(contract.melds, variant, {'round': number}))}"
                     for number in range(1, deals + 1))


def turn_section(variant: Variant) -> list[str]:
    out: list[str] = []
    for number, step in enumerate(variant.turn, start=1):
        if isinstance(step, DrawStep):
            piles = " or ".join({"stock": "the top of the stock", "discard": "the top discard"}[s]
                                for s in step.sources)
            text = f"Draw {piles}."
            if step.discard_depth == "any" and "discard" in step.sources:
                text += (" Or name any card of the discard pile (every card in it is shown) and take it "
                         "with every card above it")
                text += (": the deepest card taken, unless it was the top one, must be melded or laid "
                         "off this turn (such a draw is allowed only when it can be)."
                         if step.deep_draw_must_meld else ".")
            if step.skip_after_accepting is not None:
                text += (" A player who, since their last turn, accepted an offered card such that "
                         f"{said(step.skip_after_accepting, variant, 'card', clause=True)} skips this draw.")
        elif isinstance(step, MeldStep):
            text = ("Meld: put melds on the table" + (" (optional)" if step.optional else "")
                    + (", add cards to your own table melds" if step.add_to_own else "")
                    + (", add cards to opponents' melds" if step.add_to_opponents else "")
                    + (". Emptying your hand this way goes out and ends the round."
                       if variant.going_out.final_discard == "optional"
                       else ". Keep at least one card: the last card must be discarded."))
        elif isinstance(step, DiscardStep):
            text = "Discard one card face up, ending the turn."
            if variant.going_out.final_discard == "forbidden":
                text += " The last card may not be discarded: it must be melded or laid off."
            if step.taken_card == "forbidden":
                text += " A card taken from the discard pile this turn may not be discarded"
                text += "." if _written(variant, number - 1, "taken_card") else (
                    " (the default: the file does not say; 'taken_card: allowed' allows it).")
        else:
            assert isinstance(step, OfferStep)
            text = (("Offer" if step.mandatory else "You may offer") + " one card to the next player, who "
                    "takes it or declines it; either way the turn ends. "
                    f"A player holding fewer than {step.min_hand} cards makes no offer.")
            if step.no_reoffer_accepted:
                text += " A card just accepted may not be offered back."
        out += wrap(text, f"{number}. ")
    return out


def _written(variant: Variant, index: int, key: str) -> bool:
    """Whether the file writes ``key`` in the settings of turn step ``index``."""
    turn = variant.data.get("turn")
    if not isinstance(turn, (list, tuple)) or index >= len(turn):
        return False
    step = turn[index]
    if not isinstance(step, Mapping):
        return False
    settings = next(iter(step.values()), None)
    return isinstance(settings, Mapping) and settings.get(key) is not None


def ending_section(variant: Variant) -> list[str]:
    out: list[str] = []
    knock = variant.knock
    if knock is not None and knock.limit is None:
        out += bullet("Knock: after drawing, discard one card face down and end the round, with any "
                       "deadwood (there is no knock limit). A knock with no deadwood is gin.")
    elif knock is not None:
        out += bullet(f"Knock: after drawing, discard one card face down and end the round, if the "
                       f"deadwood of the cards kept is at most {said(knock.limit, variant, 'round')}. A knock with no "
                       "deadwood is gin.")
        if knock.big_gin:
            out += bullet("Big gin: with every card melded before discarding, end without discarding.")
        shown = variant.deadwood_arrangement == "as_shown"
        if shown:
            out += bullet(f"The knocker may show any melds that leave at most {said(knock.limit, variant, 'round')} "
                           "deadwood, not only those that leave the least; what they do not show counts.")
        if variant.layoff.onto == "ender_melds":
            after = "" if variant.layoff.after_gin else " No lay-offs after gin or big gin."
            if shown and not variant.layoff.after_gin:
                after = " After gin or big gin they show melds but lay nothing off."
            out += bullet("After a knock each other player, in turn from the knocker's left, shows their "
                           "melds and may lay off cards onto the knocker's melds." + after)
        elif shown:
            out += bullet("After a knock each other player, in turn from the knocker's left, shows their "
                           "melds (there are no lay-offs).")
        if shown:
            out += bullet("A player scores on the melds they show: one who shows fewer keeps more "
                           "deadwood. A defender who ends without showing any is shown the arrangement "
                           "that leaves the least; one who shows none on purpose ('meld []') keeps every "
                           "card as deadwood.")
    if variant.step("meld") is not None and variant.step("discard") is None:
        out += bullet("Going out: a player who melds every card in hand ends the round.")
    elif variant.step("meld") is not None:
        last = {"optional": "by melding, laying off or discarding the last card",
                "required": "the last card always by discarding it",
                "forbidden": "the last card always by melding or laying it off"}[variant.going_out.final_discard]
        out += bullet(f"Going out: a player who gets rid of every card in hand, {last}, ends the round.")
    stock = variant.stock
    ending = ("the round is void: nobody scores" if stock.at_floor == "void"
              else "the round ends and is scored on the deadwood left")
    text = (f"The stock is never drawn below {stock.floor} cards. When the turn that draws it down to "
            f"{stock.floor} ends without ending the round, {ending}.")
    if stock.at_floor == "turn_over":
        text = (f"When a player is to draw and the stock is down to {stock.floor} cards, the discard pile "
                "except its top card is turned face down beneath it, without shuffling (its oldest card "
                "is drawn first), and play goes on; if the pile has fewer than two cards, the round is "
                "void: nobody scores.")
        if stock.max_turn_overs is not None:
            text += (f" The pile is turned over at most {stock.max_turn_overs} times a round; the next "
                     "time the stock runs out, the round is void.")
    if stock.at_floor == "discard_only":
        text = (f"The stock is never drawn below {stock.floor} cards. Once it is down to {stock.floor}, "
                "play goes on with draws from the discard pile only; when the player to draw passes "
                "('pass') or the pile is empty, the round ends and is scored as a stock end.")
    if stock.final_turn_skip:
        text += f" That last turn has no {' or '.join(stock.final_turn_skip)}."
    if stock.last_discard_claim:
        text += " The next player may take that last discard only to knock or go gin at once."
    out += bullet(text)
    void = variant.void
    if void.at_discard_draw is not None:
        nth = ordinal(void.at_discard_draw)
        out += bullet(f"The round is void (nobody scores) when a player is to draw from the discard pile "
                       f"for the {nth} time in the round (taking the first upcard and claiming the last "
                       "discard do not count): that draw is not made.")
    if void.after_throwbacks is not None:
        times = ("a turn takes the top discard and discards that same card"
                 if void.after_throwbacks == 1 else
                 f"{void.after_throwbacks} turns in a row each take the top discard and throw that same card "
                 "straight back")
        out += bullet(f"The round is void (nobody scores) when {times}.")
    return out
