"""What the seat to move is asked to do: one instruction for every kind of decision a variant has.

The kinds are read from the variant, never from the shape of the legal moves (an
instruction picked from the legal list cannot tell the stock's floor from a lay-off
when both offer the same two moves, Kaggle kaggle-environments PR #1191):
:func:`decisions` lists them for a variant, :func:`situation` says which apply to the
seat now (by the phase, the seat's part in it and the round's public state), and
:func:`instructions` writes them with the values filled in.

>>> from rummydsl.variant import load_variant
>>> decisions(load_variant("gin_rummy"))
('upcard', 'draw', 'discard', 'knock', 'showdown', 'layoff_after_knock', 'floor')
>>> decisions(load_variant("contract_rummy"))
('draw', 'meld', 'contract', 'layoff', 'discard', 'buy', 'floor')
"""

from __future__ import annotations

from typing import Callable

from ..engine.actions import Knock, player_name
from ..engine.observe import Observation
from ..variant.model import DiscardStep, DrawStep, MeldStep, Variant

__all__ = ["DECISIONS", "decisions", "situation", "instructions"]

DECISIONS: tuple[str, ...] = ("upcard", "draw", "deep_draw", "meld", "contract", "layoff", "discard", "knock",
                              "offer", "answer", "buy", "claim", "showdown", "layoff_after_knock", "floor")
"""Every kind of decision an instruction exists for, in the order a prompt gives them."""


def decisions(variant: Variant) -> tuple[str, ...]:
    """The kinds of decision ``variant`` can ask of a seat (a subset of :data:`DECISIONS`).

    A phase of the engine is one (``upcard``, ``draw``, ``meld``, ``discard``, ``offer``,
    ``answer``, ``buy``, ``claim``, ``showdown``); within a phase, a rule adds one: a
    deep draw from the pile, the contract's first lay-down, lay-offs in the meld step,
    a knock, lay-offs after a knock, and the stock's floor.
    """
    steps = {step.name: step for step in variant.turn}
    found: set[str] = set()
    if variant.upcard_offer is not None and variant.deal.upcard:
        found.add("upcard")
    draw = steps.get("draw")
    if isinstance(draw, DrawStep):
        found.add("draw")
        if draw.discard_depth == "any":
            found.add("deep_draw")
    meld = steps.get("meld")
    if isinstance(meld, MeldStep):
        found.add("meld")
        if variant.contract is not None:
            found.add("contract")
        if meld.add_to_own or meld.add_to_opponents:
            found.add("layoff")
    if "discard" in steps:
        found.add("discard")
    if "offer" in steps:
        found.update(("offer", "answer"))
    if variant.buying is not None:
        found.add("buy")
    if variant.knock is not None:
        found.add("knock")
        if variant.layoff.onto != "none" or variant.deadwood_arrangement == "as_shown":
            found.add("showdown")  # defenders show melds (the engine's showdown, GR-7.1)
        if variant.layoff.onto == "ender_melds":
            found.add("layoff_after_knock")
        if variant.stock.last_discard_claim:
            found.add("claim")
    found.add("floor")
    return tuple(d for d in DECISIONS if d in found)


def situation(view: Observation) -> tuple[str, ...]:
    """The kinds of decision that apply to the seat of ``view`` now (empty when it is not
    to move), chosen by the phase and the round's public state."""
    if view.to_move != view.player:
        return ()
    variant = view.variant
    phase = view.phase
    kinds = set(decisions(variant))
    now: set[str] = set()
    if phase in DECISIONS:  # every phase in which a seat decides is a kind of its own
        now.add(phase)
    if phase == "draw" and "deep_draw" in kinds and len(view.discards) > 1:
        now.add("deep_draw")
    if phase == "meld":
        if "contract" in kinds and not view.met_contract[view.player]:
            now.add("contract")
        contract = variant.contract
        may_lay_off = contract is None or view.met_contract[view.player] or not contract.concealed_until_met
        if "layoff" in kinds and any(view.table) and may_lay_off:
            now.add("layoff")
    if phase == "showdown" and "layoff_after_knock" in kinds and (view.ender_deadwood or variant.layoff.after_gin):
        now.add("layoff_after_knock")  # none after gin (GR-7.2) unless layoff.after_gin
    if phase in ("draw", "meld", "discard", "offer") and any(isinstance(a, Knock) for a in view.legal_actions()):
        now.add("knock")
    floor = variant.stock.floor
    if phase != "showdown" and view.stock_size <= floor + len(view.seated):
        now.add("floor")
    return tuple(d for d in DECISIONS if d in now)


def instructions(view: Observation) -> list[str]:
    """The instructions for the seat of ``view`` now, one paragraph for each kind of
    decision in :func:`situation`, in that order."""
    return [_WRITERS[kind](view) for kind in situation(view)]


def _me(view: Observation) -> str:
    return player_name(view.player)


def _top(view: Observation) -> str:
    card = view.top_discard
    return "the top discard" if card is None else str(card)


def _upcard(view: Observation) -> str:
    me = _me(view)
    card = _top(view)
    return (f"First-turn upcard offer: the upcard is {card}. Take it with '{me} draw discard' (it counts as "
            f"your draw: then you discard, or knock) or refuse it with '{me} pass'.")


def _draw(view: Observation) -> str:
    me = _me(view)
    legal = {str(a) for a in view.legal_actions()}
    ways = []
    if f"{me} draw stock" in legal:
        ways.append(f"the top card of the stock, face down ('{me} draw stock')")
    if f"{me} draw discard" in legal:
        ways.append(f"the top card of the discard pile, {_top(view)} ('{me} draw discard')")
    text = "Draw step: take " + (" or ".join(ways) if ways else "a card") + "."
    if f"{me} pass" in legal:
        text += f" You may also pass ('{me} pass'), which ends the round as the rules say."
    return text


def _deep_draw(view: Observation) -> str:
    me = _me(view)
    step = view.variant.step("draw")
    must = step is not None and step.deep_draw_must_meld
    return (f"You may also draw deep: name a card of the discard pile to take it and every card above it "
            f"('{me} draw discard CARD')" + ("; the card named must then be melded this turn." if must else "."))


def _meld(view: Observation) -> str:
    me = _me(view)
    return (f"Meld step: put melds from your hand on the table, each meld's cards in brackets "
            f"('{me} meld [CARD CARD CARD]'; several at once: '{me} meld [CARD CARD CARD] [CARD CARD CARD]'), "
            f"or end the step with '{me} done'.")


def _contract(view: Observation) -> str:
    return ("You have not met this deal's contract yet: your first lay-down must hold the melds the contract "
            "asks for (see 'Melds' in the rules), all in one meld move.")


def _layoff(view: Observation) -> str:
    me = _me(view)
    return (f"You may lay a card off onto a meld on the table: '{me} layoff CARD on P2#1' adds CARD to P2's "
            "first meld (melds are numbered from 1 in the order laid, as listed under 'Table melds').")


def _discard(view: Observation) -> str:
    me = _me(view)
    text = f"Discard step: discard one card face up to end your turn ('{me} discard CARD')."
    step = view.variant.step("discard")
    if view.taken is not None and isinstance(step, DiscardStep) and step.taken_card == "forbidden":
        text += f" You may not discard {view.taken}, the card you took from the discard pile this turn."
    return text


def _knock(view: Observation) -> str:
    me = _me(view)
    limit = view.knock_limit
    most = "any deadwood" if limit is None else f"at most {limit} deadwood"
    text = (f"Or knock: '{me} knock CARD' discards CARD face down and ends the round, if the cards you keep "
            f"have {most}; with no deadwood it is gin. Your melds are shown in the arrangement that leaves "
            f"the least deadwood, or name them after the card: '{me} knock CARD [CARD CARD CARD] [CARD CARD CARD]'.")
    if any(str(a) == f"{me} knock" for a in view.legal_actions()):
        text += f" With every card melded, '{me} knock' alone (no discard) is big gin."
    return text


def _offer(view: Observation) -> str:
    me = _me(view)
    return (f"Offer step: offer one card of your hand to the next player ('{me} offer CARD'), who takes it "
            "or declines it, as the rules say; this ends your turn.")


def _answer(view: Observation) -> str:
    me = _me(view)
    offered = "a card" if view.offered is None else str(view.offered)
    return (f"You are offered {offered}: take it with '{me} take' or decline it with '{me} decline'.")


def _buy(view: Observation) -> str:
    me = _me(view)
    left = view.buy_limit - view.bought[view.player]
    return (f"{player_name(view.turn_player)} is drawing from the stock, passing over the top discard "
            f"{_top(view)}. You may buy it with '{me} buy' (you also take a penalty card from the stock, "
            f"as the rules say; you have {left} buy{'s' if left != 1 else ''} left this deal) "
            f"or let it go with '{me} pass'.")


def _claim(view: Observation) -> str:
    me = _me(view)
    return (f"The last discard, {_top(view)}, was made at the stock's floor. You may claim it only to "
            f"knock or go gin at once ('{me} draw discard', then knock), or pass ('{me} pass').")


def _showdown(view: Observation) -> str:
    me = _me(view)
    ender = view.ender
    who = "The round's ender" if ender is None else player_name(ender)
    deadwood = view.ender_deadwood
    text = (f"{who} has knocked" + ("" if deadwood is None else f" with {deadwood} deadwood")
            + " and shown the melds listed under 'After the knock'. You are a defender: show your own melds "
            f"('{me} meld [CARD CARD CARD] [CARD CARD CARD]'; '{me} meld []' shows none and counts every card "
            "as deadwood), "
            f"then say '{me} done'. If you say 'done' without showing, your arrangement with least deadwood "
            "is shown for you.")
    return text


def _layoff_after_knock(view: Observation) -> str:
    me = _me(view)
    ender = view.ender
    owner = "P1" if ender is None else player_name(ender)
    return (f"Before 'done' you may lay cards off onto the knocker's melds: '{me} layoff CARD on {owner}#1' adds "
            f"CARD to {owner}'s first meld (numbered from 1 in the order shown); a card laid off is not "
            "deadwood.")


def _floor(view: Observation) -> str:
    stock = view.variant.stock
    return (f"The stock is down to {view.stock_size} cards; it is never drawn below {stock.floor} "
            f"(see 'Ending a round' for what happens there).")


_WRITERS: dict[str, Callable[[Observation], str]] = {
    "upcard": _upcard, "draw": _draw, "deep_draw": _deep_draw, "meld": _meld, "contract": _contract,
    "layoff": _layoff, "discard": _discard, "knock": _knock, "offer": _offer, "answer": _answer, "buy": _buy,
    "claim": _claim, "showdown": _showdown, "layoff_after_knock": _layoff_after_knock, "floor": _floor,
}
"""The writer of each kind of decision's instruction (one for every name of :data:`DECISIONS`)."""
