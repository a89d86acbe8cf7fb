"""The sections "Players and cards" and "Deal" of ``explain``: the deck, the card values, the deal.

>>> from rummydsl.variant import load_variant
>>> cards_each(load_variant("gin_rummy"))
'10 cards each'
"""

from __future__ import annotations

from typing import Any, Mapping

from ..cards import Deck
from ..variant.model import Variant
from .say import said
from .words import bullet, raw, show

__all__ = ["cards_section", "deal_section", "cards_each"]


def cards_section(variant: Variant) -> list[str]:
    deck = variant.deck
    suits = ", ".join(f"{s.name} ({s.symbol})" for s in deck.suits)
    ranks = " ".join(r.symbol for r in deck.ranks)
    low, high = variant.players_range
    allowed = f" (the rules allow {low} to {high})" if (low, high) != (variant.players, variant.players) else ""
    out = bullet(f"{variant.players} players{allowed}.")
    packs = f"{deck.packs} packs of " if deck.packs > 1 else ""
    out += bullet(f"{deck.size} cards: {packs}ranks {ranks} in the suits {suits}"
                   + (f", and {deck.wilds} wild cards (*)." if deck.wilds else "."))
    out += bullet(_ace(deck) + (" Sequences may turn the corner." if deck.wrap else
                                 " Sequences never turn the corner."))
    if isinstance(variant.card_value, Mapping):
        values = ", ".join(f"{k} = {show(v)}" for k, v in variant.card_value.items())
        out += bullet(f"Card values: {values}.")
    else:
        out += bullet(f"Card values: {_value_summary(variant)}.")
    if variant.melded_value is not None:
        out += bullet("A card on the table is worth, to the player who laid it there: "
                       f"{said(variant.melded_value, variant, 'melded')}.")
    elif _scores_melded(variant):
        out += bullet("A card on the table is worth its card value to the player who laid it there, "
                       "a card laid off onto another player's meld included.")
    return out


def _scores_melded(variant: Variant) -> bool:
    """Whether a scoring formula uses ``melded(p)``."""
    scoring = variant.scoring
    formulas = [f for _, f in scoring.lets] + [scoring.multiplier] + [
        part for case in scoring.cases for part in (case.when, case.points, case.ender, case.others)]
    return any(f is not None and "melded" in f.names for f in formulas)


def _ace(deck: Deck) -> str:
    """Where the lowest rank stands in sequences, with examples that fit the deck's
    ranks however few there are.

    >>> _ace(Deck.from_spec({"preset": "standard52", "ace": "both"}))
    'The A is low or high in sequences (A-2-3 or Q-K-A), never both at once.'
    >>> _ace(Deck.from_spec({"suits": ["S"], "ranks": ["A", "K"], "ace": "both"}))
    'The A is low or high in sequences (A-K or K-A), never both at once.'
    >>> _ace(Deck.from_spec({"suits": ["S"], "ranks": ["A"], "ace": "high"}))
    'The A is high only in sequences.'
    """
    symbols = [rank.symbol for rank in deck.ranks]
    lowest = symbols[0]
    if deck.ace == "low":
        return f"The {lowest} is low only in sequences."
    if deck.ace == "high":
        above = f" (above {symbols[-1]})" if len(symbols) > 1 else ""
        return f"The {lowest} is high only in sequences{above}."
    if len(symbols) == 1:
        return f"The {lowest} is low or high in sequences, never both at once."
    low_run = "-".join(symbols[:3])
    high_run = "-".join(symbols[1:][-2:] + [lowest])
    return f"The {lowest} is low or high in sequences ({low_run} or {high_run}), never both at once."


def _value_summary(variant: Variant) -> str:
    """Card values in short: runs of ranks worth their order, and ranks of one value.

    >>> from rummydsl.variant import load_variant
    >>> _value_summary(load_variant("gin_rummy"))
    'A-T: their number, J Q K = 10'
    >>> _value_summary(load_variant("skarney_gin"))
    'A = 15, 2-T: their number, J Q K = 10'
    """
    values: dict[str, int] = {}
    for card, value in zip(variant.deck.cards, variant.card_values):
        key = "wild" if card.wild else card.rank.symbol if card.rank else "?"
        values.setdefault(key, value)
    ranks = variant.deck.ranks
    parts: list[str] = []
    i = 0
    while i < len(ranks):
        j = i
        if values.get(ranks[i].symbol) == ranks[i].order:
            while j + 1 < len(ranks) and values.get(ranks[j + 1].symbol) == ranks[j + 1].order:
                j += 1
            if j - i >= 2:
                parts.append(f"{ranks[i].symbol}-{ranks[j].symbol}: their number")
                i = j + 1
                continue
        j = i
        while j + 1 < len(ranks) and values.get(ranks[j + 1].symbol) == values.get(ranks[i].symbol):
            j += 1
        parts.append(" ".join(r.symbol for r in ranks[i:j + 1]) + f" = {values.get(ranks[i].symbol)}")
        i = j + 1
    if "wild" in values:
        parts.append(f"wild = {values['wild']}")
    return ", ".join(parts)


def deal_section(variant: Variant) -> list[str]:
    deal = variant.deal
    each = "each player dealt in" if deal.sit_out is not None else "each player"
    given = (f"{deal.hand_size} cards to {each}" if deal.hand_size_rule is None
             else f"{each} " + cards_each(variant).replace(" cards each", " cards", 1))
    out = bullet(f"The first dealer is chosen at random. The dealer gives {given}, one at a time, "
                  "starting with the next seat.")
    if deal.upcard:
        out += bullet("The next card is turned face up as the upcard, starting the discard pile; "
                       "the rest form the face-down stock.")
    else:
        out += bullet("The rest form the face-down stock; there is no upcard.")
    if deal.sit_out is not None:  # G3-1, G3-2
        out += bullet("Before each deal one seat sits out the round: it is dealt no cards, takes no turn "
                       "and scores nothing; the others play and every turn passes over it. Who sits out: "
                       f"{_sit_out_words(deal.sit_out.text, variant)}.")
    rotation = {"next": "The deal passes to the next seat each round.",
                "winner_deals": "The winner of a round deals the next one.",
                "loser_deals": "The loser of a round deals the next one.",
                "sitter": "The player sitting out deals each round."}[deal.rotation]
    void = {"same_dealer": "After a round with no winner the same dealer deals again.",
            "rotate": "After a round with no winner the deal passes on as usual."}[deal.void_redeal]
    out += bullet(rotation if deal.rotation == "sitter" else f"{rotation} {void}")
    out += bullet("The player after the dealer plays first"
                   + (" (the non-dealer, with two players)." if variant.players == 2 else "."))
    if variant.upcard_offer is not None:
        either = ("may then draw from either pile" if variant.upcard_offer.after_all_pass == "either"
                  else "must then draw from the stock")
        order = ("starting after the dealer, each player dealt in may" if deal.sit_out is not None
                 else "starting after the dealer and ending with the dealer, each player may")
        out += bullet(f"First turn: {order} "
                       "take the upcard (it counts as their draw: they then discard another card, or knock) "
                       f"or pass. If everyone passes, the player after the dealer {either}.")
    return out


_SIT_OUT_WORDS = {
    "round == 1": "in the first round",
    "dealer": "the dealer",
    "last_void": "after a round nobody won (void)",
    "last_sat_out": "the same seat as last round",
    "next(last_sat_out)": "the seat left of the last one to sit out",
    "last_loser": "the last round's loser",
    "last_winner": "the last round's winner",
}


def _sit_out_words(text: str, variant: Variant) -> str:
    """``deal.sit_out`` read aloud where it is a chain of ``c ? a : b`` over the usual names
    (G3-2's own formula), else word by word."""
    import re

    words = []
    rest = text.strip()
    while True:
        while rest.startswith("(") and rest.endswith(")"):
            rest = rest[1:-1].strip()
        match = re.fullmatch(r"([^?():]+?)\s*\?\s*([^?:]+?)\s*:\s*(.+)", rest)
        if match is None:
            break
        test, then, rest = (part.strip() for part in match.groups())
        said_test = _SIT_OUT_WORDS.get(test) or _option_test_words(test)
        said = _SIT_OUT_WORDS.get(then)
        if said_test is None or said is None:
            return _sit_out_said(text, variant)
        words.append(f"{said_test}, {said}")
    last = _SIT_OUT_WORDS.get(rest)
    if last is None:
        return _sit_out_said(text, variant)
    words.append(f"otherwise {last}" if words else last)
    return "; ".join(words)


def _sit_out_said(text: str, variant: Variant) -> str:
    """A ``sit_out`` formula that is not one of the usual chains, said word by word."""
    from ..errors import RummyDslError
    from ..expr import parser
    from .say import Speaker

    try:
        tree = parser.parse(text)
    except RummyDslError:
        return raw(text)
    return Speaker(variant, "next_deal").say(tree)


def _option_test_words(test: str) -> str | None:
    """``name == value`` (an option's choice) as words."""
    parts = [p.strip() for p in test.split("==")]
    if len(parts) != 2 or not all(p.isidentifier() for p in parts):
        return None
    return f"with {parts[0]} = {parts[1]}"


def cards_each(variant: Variant) -> str:
    """"N cards each": the number, or for a ``deal.hand_size`` expression its values by
    player count (and deal, if it reads ``round``).

    >>> from rummydsl.variant import load_variant
    >>> cards_each(load_variant("gin_rummy"))
    '10 cards each'
    """
    rule = variant.deal.hand_size_rule
    if rule is None:
        return f"{variant.deal.hand_size} cards each"
    from ..variant.exprs import deal_probes

    by_deal = "round" in rule.names
    if by_deal and not {"player_count", "players"} & set(rule.names):  # by deal alone (CR-2)
        return _cards_by_deal(variant, rule)
    groups: list[tuple[int, int, int, int, int]] = []  # value, first count, first deal, last count, last deal
    for count, number, value in deal_probes(rule, variant.players_range, getattr(variant.game, "deals", None)):
        if not isinstance(value, int):
            continue
        if groups and groups[-1][0] == value and groups[-1][3] == count:
            groups[-1] = (value, groups[-1][1], groups[-1][2], count, number)
        elif groups and groups[-1][0] == value and not by_deal:
            groups[-1] = (value, groups[-1][1], groups[-1][2], count, number)
        else:
            groups.append((value, count, number, count, number))
    if len({g[0] for g in groups}) <= 1:
        return f"{variant.deal.hand_size} cards each"
    parts = []
    for value, count, number, last_count, last_number in groups:
        who = f"{count} players" if count == last_count else f"{count} to {last_count} players"
        when = "" if not by_deal else (f" in deal {number}" if number == last_number
                                       else f" in deals {number} to {last_number}")
        parts.append(f"{value} with {who}{when}")
    return f"{variant.deal.hand_size} cards each ({', '.join(parts)})"


def _cards_by_deal(variant: Variant, rule: Any) -> str:
    """"N cards each" for a hand size that depends on the deal alone: its runs of deals.

    >>> from rummydsl.variant import load_variant
    >>> _cards_by_deal(load_variant("contract_rummy"), load_variant("contract_rummy").deal.hand_size_rule)
    '10 cards each in deals 1 to 4, 12 in deals 5 to 7'
    """
    from ..variant.exprs import deal_probes

    count = variant.players
    runs: list[list[int]] = []  # value, first deal, last deal
    for probe_count, number, value in deal_probes(rule, (count, count), getattr(variant.game, "deals", None)):
        if probe_count != count or not isinstance(value, int):
            continue
        if runs and runs[-1][0] == value:
            runs[-1][2] = number
        else:
            runs.append([value, number, number])
    if len(runs) <= 1:
        return f"{variant.deal.hand_size} cards each"
    parts = [f"{value}{' cards each' if i == 0 else ''} in "
             + (f"deal {first}" if first == last else f"deals {first} to {last}")
             for i, (value, first, last) in enumerate(runs)]
    return ", ".join(parts)
