"""``rummydsl explain``: the rules of a variant in words a person can read at the table.

(The module is ``explainer``, not ``explain``, so that importing it never hides the
function ``rummydsl.explain`` behind a module of the same name.)
"""

from __future__ import annotations

import textwrap
from typing import Any, Iterator, Mapping

from .cards import Deck
from .variant.model import DiscardStep, DrawStep, MeldStep, OfferStep, Variant

__all__ = ["explain"]

_WIDTH = 78


def explain(variant: Variant) -> str:
    """The variant's rules as plain text, section by section."""
    lines: list[str] = []
    title = variant.name + (f"  (extends {variant.parent})" if variant.parent else "")
    lines += [title, "=" * len(title)]
    if variant.description:
        lines += _wrap(variant.description) + [""]
    for heading, body in _sections(variant):
        body = [line for line in body if line is not None]
        if body:
            lines += [heading, "-" * len(heading), *body, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _WIDTH, initial_indent=indent,
                         subsequent_indent=" " * len(indent)) or [indent]


def _bullet(text: str) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _WIDTH, initial_indent="- ", subsequent_indent="  ")


def _text(compiled: Any) -> str:
    return str(getattr(compiled, "text", compiled))


def _sections(variant: Variant) -> Iterator[tuple[str, list[str]]]:
    yield "Players and cards", _cards(variant)
    yield "Deal", _deal(variant)
    yield "Melds", _melds(variant)
    yield "A turn", _turn(variant)
    yield "Ending a round", _ending(variant)
    yield "Scoring", _scoring(variant)
    yield "The game", _game(variant)
    yield "Options", _options(variant)
    if variant.parent_data is not None:
        yield f"Changed from {variant.parent}", _differences(variant)


def _cards(variant: Variant) -> list[str]:
    deck = variant.deck
    suits = ", ".join(f"{s.name} ({s.symbol})" for s in deck.suits)
    ranks = " ".join(r.symbol for r in deck.ranks)
    low, high = variant.players_range
    allowed = f" (the rules allow {low} to {high})" if (low, high) != (variant.players, variant.players) else ""
    out = _bullet(f"{variant.players} players{allowed}.")
    packs = f"{deck.packs} packs of " if deck.packs > 1 else ""
    out += _bullet(f"{deck.size} cards: {packs}ranks {ranks} in the suits {suits}"
                   + (f", and {deck.wilds} wild cards (*)." if deck.wilds else "."))
    out += _bullet(_ace(deck) + (" Sequences may turn the corner." if deck.wrap else
                                 " Sequences never turn the corner."))
    if isinstance(variant.card_value, Mapping):
        values = ", ".join(f"{k} = {v}" for k, v in variant.card_value.items())
        out += _bullet(f"Card values: {values}.")
    else:
        out += _bullet(f"Card values: {_text(variant.card_value)}  ({_value_summary(variant)}).")
    return out


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


def _deal(variant: Variant) -> list[str]:
    deal = variant.deal
    out = _bullet(f"The first dealer is chosen at random. The dealer gives {deal.hand_size} cards to each "
                  "player, one at a time, starting with the next seat.")
    if deal.upcard:
        out += _bullet("The next card is turned face up as the upcard, starting the discard pile; "
                       "the rest form the face-down stock.")
    else:
        out += _bullet("The rest form the face-down stock; there is no upcard.")
    rotation = {"next": "The deal passes to the next seat each round.",
                "winner_deals": "The winner of a round deals the next one.",
                "loser_deals": "The loser of a round deals the next one."}[deal.rotation]
    void = {"same_dealer": "After a round with no winner the same dealer deals again.",
            "rotate": "After a round with no winner the deal passes on as usual."}[deal.void_redeal]
    out += _bullet(f"{rotation} {void}")
    if variant.upcard_offer is not None:
        either = ("may then draw from either pile" if variant.upcard_offer.after_all_pass == "either"
                  else "must then draw from the stock")
        out += _bullet("First turn: starting after the dealer and ending with the dealer, each player may "
                       "take the upcard (it counts as their draw: they then discard another card, or knock) "
                       f"or pass. If everyone passes, the player after the dealer {either}.")
    return out


def _melds(variant: Variant) -> list[str]:
    out: list[str] = []
    for kind in variant.meld_kinds:
        description = f" ({kind.description})" if kind.description else ""
        out += _bullet(f"{kind.name}: {_text(kind.pattern)}{description}")
    out += _bullet("A card belongs to at most one meld. Deadwood is the value of the cards left over "
                   "by the arrangement that leaves the least.")
    if not variant.deadwood_excludes_concealed_melds:
        out += _bullet("At the end of a round every card still in the hand counts as deadwood, melded or not.")
    if variant.wild_unique_card and variant.deck.wilds:
        out += _bullet("A wild card in a meld stands for a card that no other card in the hand or in the "
                       "melds it joins is, and no other wild stands for.")
    if variant.kind_locked:
        out += _bullet("A meld on the table keeps the kind it was laid as when cards are added.")
    if variant.contract is not None:
        contract = variant.contract
        out += _bullet(f"Contract: a player's first lay-down must satisfy: {_text(contract.melds)}. "
                       + ("Until then nothing goes on the table. " if contract.concealed_until_met else "")
                       + ("More melds may follow in the same phase." if contract.then_meld_same_turn
                          else "Further melding waits for a later turn."))
    return out


def _turn(variant: Variant) -> list[str]:
    out: list[str] = []
    for number, step in enumerate(variant.turn, start=1):
        if isinstance(step, DrawStep):
            piles = " or ".join({"stock": "the top of the stock", "discard": "the top discard"}[s]
                                for s in step.sources)
            text = f"Draw {piles}."
            if step.skip_after_accepting is not None:
                text += (" A player who accepted an offered card matching "
                         f"{_text(step.skip_after_accepting)} skips this draw.")
        elif isinstance(step, MeldStep):
            text = ("Meld: put melds on the table" + (" (optional)" if step.optional else "")
                    + (", add cards to your own table melds" if step.add_to_own else "")
                    + (", add cards to opponents' melds" if step.add_to_opponents else "")
                    + ". Emptying your hand this way goes out and ends the round.")
        elif isinstance(step, DiscardStep):
            text = "Discard one card face up, ending the turn."
            if step.taken_card == "forbidden":
                text += " A card taken from the discard pile this turn may not be discarded."
        else:
            assert isinstance(step, OfferStep)
            text = (("Offer" if step.mandatory else "You may offer") + " one card to the next player, who "
                    "takes it or declines it; either way the turn ends. "
                    f"A player holding fewer than {step.min_hand} cards makes no offer.")
            if step.no_reoffer_accepted:
                text += " A card just accepted may not be offered back."
        out += _wrap(text, f"{number}. ")
    return out


def _ending(variant: Variant) -> list[str]:
    out: list[str] = []
    knock = variant.knock
    if knock is not None:
        out += _bullet(f"Knock: after drawing, discard one card face down and end the round, if the "
                       f"deadwood of the cards kept is at most {_text(knock.limit)}. A knock with no "
                       "deadwood is gin.")
        if knock.big_gin:
            out += _bullet("Big gin: with every card melded before discarding, end without discarding.")
        if variant.layoff.onto == "ender_melds":
            after = "" if variant.layoff.after_gin else " No lay-offs after gin."
            out += _bullet("After a knock each other player, in turn from the knocker's left, shows their "
                           "melds and may lay off cards onto the knocker's melds." + after)
    if variant.step("meld") is not None:
        out += _bullet("Going out: a player who melds every card in hand ends the round.")
    stock = variant.stock
    ending = ("the round is void: nobody scores" if stock.at_floor == "void"
              else "the round ends and is scored on the deadwood left")
    text = (f"The stock is never drawn below {stock.floor} cards. When the turn that draws it down to "
            f"{stock.floor} ends without ending the round, {ending}.")
    if stock.final_turn_skip:
        text += f" That last turn has no {' or '.join(stock.final_turn_skip)}."
    if stock.last_discard_claim:
        text += " The next player may take that last discard only to knock or go gin at once."
    out += _bullet(text)
    return out


def _scoring(variant: Variant) -> list[str]:
    scoring = variant.scoring
    out: list[str] = []
    for name, compiled in scoring.lets:
        out += _bullet(f"let {name} = {_text(compiled)}")
    for case in scoring.cases:
        parts = []
        if case.points is not None:
            parts.append(f"each player p scores {_text(case.points)}")
        if case.ender is not None:
            parts.append(f"the player who ended scores {_text(case.ender)}")
        if case.others is not None:
            parts.append(f"each other player p scores {_text(case.others)}")
        rule = f" [{case.rule}]" if case.rule else ""
        out += _bullet(f"When {_text(case.when)}: {'; '.join(parts) or 'nobody scores'}.{rule}")
    if scoring.multiplier is not None and _text(scoring.multiplier) != "1":
        out += _bullet(f"Every score of the round is multiplied by {_text(scoring.multiplier)}.")
    out += _bullet("The first case that holds scores the round; if none holds, nobody scores.")
    return out


def _game(variant: Variant) -> list[str]:
    game = variant.game
    out = _bullet(f"A game ends after the round in which a player's total reaches {game.target}; the "
                  "highest total wins, and an exact tie for highest plays another round.")
    if game.game_bonus:
        out += _bullet(f"The winner gets a game bonus of {game.game_bonus}.")
    if game.box_bonus:
        out += _bullet(f"At the end each player gets {game.box_bonus} for every hand they won "
                       "(not counted toward the target).")
    shutout = {"double_total": "the winner's whole final figure is doubled",
               "double_hand_points": "the winner's hand points are doubled before bonuses",
               "flat_100": "the winner gets 100 more", "none": None}[game.shutout]
    if shutout:
        out += _bullet(f"Shutout: if the loser scored nothing, {shutout}.")
    if game.hollywood_games:
        out += _bullet(f"Hollywood: {game.hollywood_games} games run on one score sheet; a round's points go "
                       "into every open game where the player has an entry, and into the first open game "
                       "where they have none.")
    if game.match_games_to_win:
        out += _bullet(f"A match goes to the first player to win {game.match_games_to_win} games.")
    return out


def _options(variant: Variant) -> list[str]:
    out: list[str] = []
    for option in variant.options.values():
        value = str(option.value).lower() if isinstance(option.value, bool) else str(option.value)
        choices = f" (one of {', '.join(option.one_of)})" if option.one_of else ""
        rule = f" [{option.rule}]" if option.rule else ""
        about = f": {option.description}" if option.description else ""
        out += _bullet(f"{option.name} = {value}{choices}{rule}{about}")
    return out


def _differences(variant: Variant) -> list[str]:
    parent = variant.parent_data or {}
    out: list[str] = []
    for path, old, new in _diff(parent, variant.data, ()):
        if path and path[0] in ("id", "name", "description", "extends", "rules"):
            continue
        where = ".".join(str(p) for p in path)
        out += _bullet(f"{where}: {_show(old)} -> {_show(new)}")
    return out


def _diff(old: Any, new: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any, Any]]:
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in list(old) + [k for k in new if k not in old]:
            if old.get(key) != new.get(key):
                yield from _diff(old.get(key), new.get(key), path + (key,))
    elif old != new:
        yield path, old, new


def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping) and set(value) >= {"value"}:
        return _show(value["value"])
    return str(_plain(value))


def _plain(value: Any) -> Any:
    """A read-only YAML tree (mappingproxies, tuples) as plain dicts and lists, so it
    shows as it did when written: ``['draw', 'discard']``, not a tuple's repr."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value
