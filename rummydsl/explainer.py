"""``rummydsl explain``: the rules of a variant in words a person can read at the table.

(The module is ``explainer``, not ``explain``, so that importing it never hides the
function ``rummydsl.explain`` behind a module of the same name.)
"""

from __future__ import annotations

import operator
import re
import textwrap
from typing import Any, Iterator, Mapping

from .cards import Deck
from .expr import ast
from .safetext import safe_text
from .variant.model import DiscardStep, DrawStep, MeldStep, OfferStep, Variant

__all__ = ["explain"]

_WIDTH = 78


def explain(variant: Variant, *, markdown: bool = False) -> str:
    """The variant's rules as plain text, section by section (or as Markdown).

    Formulas are shown with the values of the options filled in, and in words
    where they are simple (``the knocker scores 25 plus the opponents'
    deadwood``); other formulas are shown as written, with option values. Text
    from the file (names, descriptions) is shown with its control characters
    escaped (:func:`rummydsl.safetext.safe_text`).
    """
    lines: list[str] = []
    parent = _parent_id(variant)
    title = safe_text(variant.name + (f"  (extends {parent})" if parent else ""), lines=False)
    if markdown:
        lines += [f"# {safe_text(variant.name, lines=False)}", ""]
        lines += [f"Variant id `{variant.id}`" + (f", extends `{parent}`." if parent else ".")
                  + (f" Rules: {', '.join(variant.rules)}." if variant.rules else ""), ""]
    else:
        lines += [title, "=" * len(title)]
    lines += _wrap(variant.description or _summary(variant)) + [""]
    for heading, body in _sections(variant):
        body = [line for line in body if line is not None]
        if body:
            if markdown:
                lines += [f"## {heading}", "", *body, ""]
            else:
                lines += [heading, "-" * len(heading), *body, ""]
    # Names, descriptions and formulas come from the file: no control character reaches
    # a terminal (rummydsl.safetext; the command line escapes its output again, harmlessly).
    return safe_text("\n".join(lines).rstrip("\n") + "\n")


def _parent_id(variant: Variant) -> str | None:
    """The id of the variant this one extends (its ``id``, not its file's name)."""
    parent = variant.parent_data
    if isinstance(parent, Mapping) and isinstance(parent.get("id"), str):
        return str(parent["id"])
    return variant.parent


def _summary(variant: Variant) -> str:
    """One paragraph for a variant without a description: who plays, how a round
    ends and what wins.

    >>> from rummydsl.variant import load_variant
    >>> _summary(load_variant("gin_rummy"))
    '2 players, 10 cards each. A round ends by knocking with at most 10 deadwood, or by gin. First to 100 points wins.'
    """
    players = (f"{variant.players} players" if variant.players_range[0] == variant.players_range[1]
               else f"{variant.players} players (the rules allow {variant.players_range[0]} to "
                    f"{variant.players_range[1]})")
    ends = []
    if variant.knock is not None and variant.knock.limit is None:
        ends.append("by knocking with any deadwood")
    elif variant.knock is not None:
        limit = _filled(variant.knock.limit, variant)
        ends.append("only by gin" if limit == "0" else
                    f"by knocking with at most {limit} deadwood, or by gin")
    if variant.step("meld") is not None:
        ends.append("by melding every card (going out)" if variant.step("discard") is None
                    else "by getting rid of every card (going out)")
    ending = (" A round ends " + " or ".join(ends) + ".") if ends else ""
    return f"{players}, {_cards_each(variant)}.{ending} {_game_end(variant)}"


def _game_end(variant: Variant) -> str:
    """How a game ends and who wins, in one sentence (GR-10.1, CR-2, CR-6)."""
    game = variant.game
    best = "lowest" if game.winner == "lowest" else "highest"
    if game.deals is not None and game.target is None:
        return f"A game is {game.deals} deals; the {best} total wins."
    if game.deals is not None:
        return (f"A game ends after {game.deals} deals, or when a total reaches {game.target}; "
                f"the {best} total wins.")
    if game.winner == "lowest":
        return f"A game ends when a total reaches {game.target}; the lowest total wins."
    return f"First to {game.target} points wins."


def _cards_each(variant: Variant) -> str:
    """"N cards each": the number, or for a ``deal.hand_size`` expression its values by
    player count (and deal, if it reads ``round``).

    >>> from rummydsl.variant import load_variant
    >>> _cards_each(load_variant("gin_rummy"))
    '10 cards each'
    """
    rule = variant.deal.hand_size_rule
    if rule is None:
        return f"{variant.deal.hand_size} cards each"
    from .variant.exprs import deal_probes

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
    from .variant.exprs import deal_probes

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


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _WIDTH, initial_indent=indent,
                         subsequent_indent=" " * len(indent)) or [indent]


def _bullet(text: str) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), _WIDTH, initial_indent="- ", subsequent_indent="  ")


def _text(compiled: Any) -> str:
    return " ".join(str(getattr(compiled, "text", compiled)).split())


def _filled(compiled: Any, variant: Variant, constants: Mapping[str, Any] | None = None) -> str:
    """A formula with each option's value in place of its name, and the choices
    those values decide made (``true ? a : b`` is ``a``).

    >>> from rummydsl.variant import load_variant
    >>> okla = load_variant("oklahoma_gin")
    >>> _filled(okla.knock.limit, okla)
    'upcard.rank == A ? 0 : value(upcard)'
    >>> _filled(okla.scoring.multiplier, okla)
    'upcard.suit == S ? 2 : 1'
    """
    node = getattr(compiled, "ast", None)
    if node is None:
        return _text(compiled)
    return _unparse(_folded(compiled, variant, constants))


def _folded(compiled: Any, variant: Variant, constants: Mapping[str, Any] | None = None) -> Any:
    """The tree of ``compiled`` folded by :func:`_fold` (option values and ``constants``)."""
    values: dict[str, Any] = {name: option.value for name, option in variant.options.items()}
    values.update(constants or {})
    words = {value for option in variant.options.values() for value in option.one_of or ()}
    return _fold(compiled.ast, values, words)


_INT_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                ">": operator.gt, ">=": operator.ge}


def _fold(node: Any, options: Mapping[str, Any], words: set[str]) -> Any:
    """``node`` with options replaced by their values and constant choices made."""
    def fold(child: Any) -> Any:
        return _fold(child, options, words)

    if isinstance(node, ast.Name) and node.id in options:
        value = options[node.id]
        if isinstance(value, bool):
            return ast.BoolLit(value)
        if isinstance(value, int):
            return ast.IntLit(value)
        return ast.Name(str(value))
    if isinstance(node, ast.Conditional):
        test = fold(node.test)
        if isinstance(test, ast.BoolLit):
            return fold(node.then if test.value else node.otherwise)
        return ast.Conditional(test, fold(node.then), fold(node.otherwise))
    if isinstance(node, ast.Compare):
        left, right = fold(node.left), fold(node.right)
        if (node.op in ("==", "!=") and isinstance(left, ast.Name) and isinstance(right, ast.Name)
                and left.id in words and right.id in words):
            return ast.BoolLit((left.id == right.id) == (node.op == "=="))
        if isinstance(left, ast.IntLit) and isinstance(right, ast.IntLit):  # 'round == 1' with round filled in
            return ast.BoolLit(_INT_COMPARE[node.op](left.value, right.value))
        return ast.Compare(node.op, left, right)
    if isinstance(node, ast.BoolOp):
        left, right = fold(node.left), fold(node.right)
        if isinstance(left, ast.BoolLit):
            if left.value == (node.op == "and"):
                return right
            return left
        return ast.BoolOp(node.op, left, right)
    if isinstance(node, ast.Not):
        operand = fold(node.operand)
        return ast.BoolLit(not operand.value) if isinstance(operand, ast.BoolLit) else ast.Not(operand)
    if isinstance(node, ast.BinOp):
        return ast.BinOp(node.op, fold(node.left), fold(node.right))
    if isinstance(node, ast.Neg):
        return ast.Neg(fold(node.operand))
    if isinstance(node, ast.InOp):
        return ast.InOp(node.op, fold(node.left), fold(node.right))
    if isinstance(node, ast.Range):
        return ast.Range(fold(node.low), fold(node.high))
    if isinstance(node, ast.Call):
        return ast.Call(node.func, tuple(fold(a) for a in node.args))
    if isinstance(node, ast.Aggregate):
        return ast.Aggregate(node.func, fold(node.element), node.var, fold(node.iterable))
    if isinstance(node, ast.ListExpr):
        return ast.ListExpr(tuple(fold(item) for item in node.items))
    if isinstance(node, ast.Attribute):
        return ast.Attribute(fold(node.obj), node.name)
    return node


_PRECEDENCE = {"?": 1, "or": 2, "and": 3, "not": 4, "cmp": 5, "+": 6, "-": 6, "*": 7, "//": 7, "%": 7,
               "neg": 8}


def _unparse(node: Any, outer: int = 0) -> str:
    """An expression tree as text, with only the parentheses it needs."""
    def wrap(text: str, own: int) -> str:
        return f"({text})" if own < outer else text

    if isinstance(node, ast.IntLit):
        return str(node.value)
    if isinstance(node, ast.BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_unparse(node.obj, 9)}.{node.name}"
    if isinstance(node, ast.Call):
        return f"{node.func}({', '.join(_unparse(a) for a in node.args)})"
    if isinstance(node, ast.Aggregate):
        return f"{node.func}({_unparse(node.element)} for {node.var} in {_unparse(node.iterable)})"
    if isinstance(node, ast.ListExpr):
        return f"[{', '.join(_unparse(item) for item in node.items)}]"
    if isinstance(node, ast.Range):
        return f"{_unparse(node.low, 9)}..{_unparse(node.high, 9)}"
    if isinstance(node, ast.Neg):
        return wrap(f"-{_unparse(node.operand, 8)}", 8)
    if isinstance(node, ast.Not):
        return wrap(f"not {_unparse(node.operand, 4)}", 4)
    if isinstance(node, ast.BinOp):
        own = _PRECEDENCE[node.op]
        return wrap(f"{_unparse(node.left, own)} {node.op} {_unparse(node.right, own + 1)}", own)
    if isinstance(node, ast.BoolOp):
        own = _PRECEDENCE[node.op]
        return wrap(f"{_unparse(node.left, own)} {node.op} {_unparse(node.right, own + 1)}", own)
    if isinstance(node, (ast.Compare, ast.InOp)):
        return wrap(f"{_unparse(node.left, 6)} {node.op} {_unparse(node.right, 6)}", 5)
    if isinstance(node, ast.Conditional):
        return wrap(f"{_unparse(node.test, 2)} ? {_unparse(node.then, 2)} : {_unparse(node.otherwise, 1)}", 1)
    return str(node)


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
        yield f"Changed from {_parent_id(variant)}", _differences(variant)


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
        values = ", ".join(f"{k} = {_show(v)}" for k, v in variant.card_value.items())
        out += _bullet(f"Card values: {values}.")
    else:
        out += _bullet(f"Card values: {_value_summary(variant)} ({_filled(variant.card_value, variant)}).")
    if variant.melded_value is not None:
        out += _bullet("A card on the table is worth, to the player who laid it there (melded(p)): "
                       f"{_filled(variant.melded_value, variant)}.")
    elif _scores_melded(variant):
        out += _bullet("A card on the table is worth its card value to the player who laid it there "
                       "(melded(p)), a card laid off onto another player's meld included.")
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


_SIT_OUT_WORDS = {
    "round == 1": "in the first round",
    "dealer": "the dealer",
    "last_void": "after a round nobody won (void)",
    "last_sat_out": "the same seat as last round",
    "next(last_sat_out)": "the seat left of the last one to sit out",
    "last_loser": "the last round's loser",
    "last_winner": "the last round's winner",
}


def _sit_out_words(text: str) -> str:
    """``deal.sit_out`` read aloud where it is a chain of ``c ? a : b`` over the usual names
    (G3-2's own formula), else quoted as written."""
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
            return f"the seat '{text}' names"
        words.append(f"{said_test}, {said}")
    last = _SIT_OUT_WORDS.get(rest)
    if last is None:
        return f"the seat '{text}' names"
    words.append(f"otherwise {last}" if words else last)
    return "; ".join(words)


def _option_test_words(test: str) -> str | None:
    """``name == value`` (an option's choice) as words."""
    parts = [p.strip() for p in test.split("==")]
    if len(parts) != 2 or not all(p.isidentifier() for p in parts):
        return None
    return f"with {parts[0]} = {parts[1]}"


def _deal(variant: Variant) -> list[str]:
    deal = variant.deal
    each = "each player dealt in" if deal.sit_out is not None else "each player"
    given = (f"{deal.hand_size} cards to {each}" if deal.hand_size_rule is None
             else f"{each} " + _cards_each(variant).replace(" cards each", " cards", 1))
    out = _bullet(f"The first dealer is chosen at random. The dealer gives {given}, one at a time, "
                  "starting with the next seat.")
    if deal.upcard:
        out += _bullet("The next card is turned face up as the upcard, starting the discard pile; "
                       "the rest form the face-down stock.")
    else:
        out += _bullet("The rest form the face-down stock; there is no upcard.")
    if deal.sit_out is not None:  # G3-1, G3-2
        out += _bullet("Before each deal one seat sits out the round: it is dealt no cards, takes no turn "
                       "and scores nothing; the others play and every turn passes over it. Who sits out: "
                       f"{_sit_out_words(deal.sit_out.text)}.")
    rotation = {"next": "The deal passes to the next seat each round.",
                "winner_deals": "The winner of a round deals the next one.",
                "loser_deals": "The loser of a round deals the next one.",
                "sitter": "The player sitting out deals each round."}[deal.rotation]
    void = {"same_dealer": "After a round with no winner the same dealer deals again.",
            "rotate": "After a round with no winner the deal passes on as usual."}[deal.void_redeal]
    out += _bullet(rotation if deal.rotation == "sitter" else f"{rotation} {void}")
    out += _bullet("The player after the dealer plays first"
                   + (" (the non-dealer, with two players)." if variant.players == 2 else "."))
    if variant.upcard_offer is not None:
        either = ("may then draw from either pile" if variant.upcard_offer.after_all_pass == "either"
                  else "must then draw from the stock")
        order = ("starting after the dealer, each player dealt in may" if deal.sit_out is not None
                 else "starting after the dealer and ending with the dealer, each player may")
        out += _bullet(f"First turn: {order} "
                       "take the upcard (it counts as their draw: they then discard another card, or knock) "
                       f"or pass. If everyone passes, the player after the dealer {either}.")
    return out


def _melds(variant: Variant) -> list[str]:
    out: list[str] = []
    for kind in variant.meld_kinds:
        description = f" ({kind.description})" if kind.description else ""
        out += _bullet(f"{kind.name}: {_filled(kind.pattern, variant)}{description}")
    if variant.deadwood_arrangement == "as_shown" and variant.knock is not None:
        out += _bullet("A card belongs to at most one meld. At a knock each player's deadwood is the value "
                       "of the cards they do not show in melds or lay off, whatever else those cards could "
                       "have made.")
    else:
        out += _bullet("A card belongs to at most one meld. Deadwood is the value of the cards left over "
                       "by the arrangement that leaves the least.")
    if not variant.deadwood_excludes_concealed_melds:
        out += _bullet("At the end of a round every card still in the hand counts as deadwood, melded or not.")
    elif variant.step("meld") is not None:
        out += _bullet("At the end of a round only the cards in the hand count as deadwood, and melds still "
                       "in the hand do not count; cards on the table never count.")
    if variant.wild_unique_card and variant.deck.wilds:
        out += _bullet("A wild card in a meld stands for a card that no other card in the hand or in the "
                       "melds it joins is, and no other wild stands for.")
    if variant.kind_locked:
        out += _bullet("A meld on the table keeps the kind it was laid as when cards are added.")
    if variant.contract is not None:
        contract = variant.contract
        out += _bullet(f"Contract: a player's first lay-down must satisfy: {_contract_text(variant)}. "
                       + ("Until then nothing goes on the table. " if contract.concealed_until_met else "")
                       + ("More melds may follow in the same phase." if contract.then_meld_same_turn
                          else "Further melding waits for a later turn.")
                       + ("" if contract.new_melds_after else
                          " After meeting it a player never puts down a new meld: only lay-offs."))
    if variant.buying is not None:
        buying = variant.buying
        cards = f"{buying.penalty_cards} penalty card{'s' if buying.penalty_cards != 1 else ''}"
        out += _bullet("Buying: when the player to move draws from the stock rather than taking the top "
                       "discard, each other player in turn from their left may buy that discard, taking it "
                       f"and {cards} from the top of the stock, before the mover's own stock card; at most "
                       f"{_filled(buying.per_deal, variant)} buys per player per deal. Nobody may buy when "
                       "the stock could not give the penalty cards and the mover's card above its floor.")
    return out


def _contract_text(variant: Variant) -> str:
    """The contract's formula; for a contract by deal in a game of ``deals`` (CR-2), the
    formula of each deal (``round`` filled in)."""
    contract = variant.contract
    assert contract is not None
    deals = variant.game.deals
    if deals is None or "round" not in contract.melds.names or deals > 12:
        return _filled(contract.melds, variant)
    return "; ".join(f"in deal {number}, {_filled(contract.melds, variant, {'round': number})}"
                     for number in range(1, deals + 1))


def _turn(variant: Variant) -> list[str]:
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
                text += (" A player who accepted an offered card matching "
                         f"{_filled(step.skip_after_accepting, variant)} skips this draw.")
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
        out += _wrap(text, f"{number}. ")
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


def _ending(variant: Variant) -> list[str]:
    out: list[str] = []
    knock = variant.knock
    if knock is not None and knock.limit is None:
        out += _bullet("Knock: after drawing, discard one card face down and end the round, with any "
                       "deadwood (there is no knock limit). A knock with no deadwood is gin.")
    elif knock is not None:
        out += _bullet(f"Knock: after drawing, discard one card face down and end the round, if the "
                       f"deadwood of the cards kept is at most {_filled(knock.limit, variant)}. A knock with no "
                       "deadwood is gin.")
        if knock.big_gin:
            out += _bullet("Big gin: with every card melded before discarding, end without discarding.")
        shown = variant.deadwood_arrangement == "as_shown"
        if shown:
            out += _bullet(f"The knocker may show any melds that leave at most {_filled(knock.limit, variant)} "
                           "deadwood, not only those that leave the least; what they do not show counts.")
        if variant.layoff.onto == "ender_melds":
            after = "" if variant.layoff.after_gin else " No lay-offs after gin or big gin."
            if shown and not variant.layoff.after_gin:
                after = " After gin or big gin they show melds but lay nothing off."
            out += _bullet("After a knock each other player, in turn from the knocker's left, shows their "
                           "melds and may lay off cards onto the knocker's melds." + after)
        elif shown:
            out += _bullet("After a knock each other player, in turn from the knocker's left, shows their "
                           "melds (there are no lay-offs).")
        if shown:
            out += _bullet("A player scores on the melds they show: one who shows fewer keeps more "
                           "deadwood. A defender who ends without showing any is shown the arrangement "
                           "that leaves the least; one who shows none on purpose ('meld []') keeps every "
                           "card as deadwood.")
    if variant.step("meld") is not None and variant.step("discard") is None:
        out += _bullet("Going out: a player who melds every card in hand ends the round.")
    elif variant.step("meld") is not None:
        last = {"optional": "by melding, laying off or discarding the last card",
                "required": "the last card always by discarding it",
                "forbidden": "the last card always by melding or laying it off"}[variant.going_out.final_discard]
        out += _bullet(f"Going out: a player who gets rid of every card in hand, {last}, ends the round.")
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
    out += _bullet(text)
    void = variant.void
    if void.at_discard_draw is not None:
        nth = _ordinal(void.at_discard_draw)
        out += _bullet(f"The round is void (nobody scores) when a player is to draw from the discard pile "
                       f"for the {nth} time in the round (taking the first upcard and claiming the last "
                       "discard do not count): that draw is not made.")
    if void.after_throwbacks is not None:
        times = ("a turn takes the top discard and discards that same card"
                 if void.after_throwbacks == 1 else
                 f"{void.after_throwbacks} turns in a row each take the top discard and throw that same card "
                 "straight back")
        out += _bullet(f"The round is void (nobody scores) when {times}.")
    return out


def _ordinal(n: int) -> str:
    """``n`` as an ordinal in figures: 1st, 2nd, 3rd, 4th, 11th, 50th, 101st.

    >>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 50, 101, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '50th', '101st', '112th']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _scoring(variant: Variant) -> list[str]:
    scoring = variant.scoring
    words = _Words(variant)
    out: list[str] = []
    for name, compiled in scoring.lets:
        if name in words.constants:
            continue  # folded into the formulas that use it
        phrase = words.lets.get(name)
        text = words.formula(compiled)
        out += _bullet(f"{name}: {phrase} ({text})" if phrase else f"let {name} = {text}")
    for case in scoring.cases:
        parts = []
        if case.points is not None:
            parts.append(f"each player p scores {words.formula(case.points)}")
        if case.ender is not None:
            parts.append(f"{words.ender} scores {words.points(case.ender)}")
        if case.others is not None:
            parts.append(words.others(case.others))
        rule = f" [{case.rule}]" if case.rule else ""
        out += _bullet(f"{words.when(case.when)}: {'; '.join(parts) or 'nobody scores'}.{rule}")
    if scoring.multiplier is not None and _text(scoring.multiplier) != "1":
        out += _bullet(f"Every score of the round is multiplied by {words.formula(scoring.multiplier)}.")
    out += _bullet("The first case that holds scores the round; if none holds, nobody scores.")
    return out


class _Words:
    """Scoring formulas in words, where they are one of the usual shapes.

    Each method gives words for a shape it knows and the formula (with option
    values filled in) for any other.

    >>> from rummydsl.variant import load_variant
    >>> gin = _Words(load_variant("gin_rummy"))
    >>> gin.points(gin.variant.scoring.cases[1].ender)
    "25 plus the defender's deadwood"
    >>> gin.points(gin.variant.scoring.cases[3].ender)
    'the difference in deadwood'
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        two = variant.players == 2
        ends_by_knock = variant.knock is not None and variant.step("meld") is None
        self.ender = "the knocker" if ends_by_knock else "the player who ended the round"
        self.opponents = "the defender's" if two else "the opponents'"
        self.constants: dict[str, Any] = {}
        self.lets: dict[str, str] = {}
        self.mine: str | None = None  # the let that is the ender's deadwood
        self.low: str | None = None  # the let that is the lowest opponent deadwood
        for name, compiled in variant.scoring.lets:
            tree = _folded(compiled, variant, self.constants)
            if isinstance(tree, (ast.BoolLit, ast.IntLit)):
                self.constants[name] = tree.value
                continue
            text = _unparse(tree)
            if text == "deadwood(ender)":
                self.mine = name
                self.lets[name] = f"{self.ender}'s deadwood"
            elif text == "min(deadwood(o) for o in opponents)":
                self.low = name
                self.lets[name] = ("the defender's deadwood" if two
                                   else "the lowest deadwood among the opponents")
            elif self.mine and self.low and text in (f"knock and {self.low} <= {self.mine}",
                                                     f"knock and {self.low} < {self.mine}"):
                than = "no more than" if "<=" in text else "less than"
                self.lets[name] = (f"a knock where {'the' if two else 'a'} defender's deadwood is {than} "
                                   f"{self.ender}'s (an undercut)")

    def formula(self, compiled: Any) -> str:
        return _filled(compiled, self.variant, self.constants)

    def when(self, compiled: Any) -> str:
        text = self.formula(compiled)
        endings = {"big_gin": "Big gin", "gin": "Gin", "knock": "A knock", "out": "Going out",
                   "stock_end": "The stock runs down to its floor", "true": "Always"}
        if text in endings:
            return endings[text]
        if text in self.lets:
            phrase = self.lets[text]
            return phrase[0].upper() + phrase[1:]
        return f"When {text}"

    def points(self, compiled: Any) -> str:
        text = self.formula(compiled)
        theirs = "sum(deadwood(o) for o in opponents)"
        if text == theirs:
            return f"{self.opponents} deadwood"
        match = re.fullmatch(r"(-?\d+) \+ " + re.escape(theirs), text)
        if match:
            return f"{match.group(1)} plus {self.opponents} deadwood"
        if self.mine and self.low:
            difference = ("the difference in deadwood" if self.variant.players == 2 else
                          f"by how much each opponent's deadwood is above {self.ender}'s, added up")
            if text == f"sum(max(deadwood(o) - {self.mine}, 0) for o in opponents)":
                return difference
            if text == f"{self.low} - {self.mine}" and self.variant.players == 2:
                return difference
        return text

    def others(self, compiled: Any) -> str:
        text = self.formula(compiled)
        if self.mine and self.low:
            head = f"deadwood(p) == {self.low} ? {self.mine} - {self.low}"
            if text == f"{head} : 0":
                return "the defender with the lowest deadwood scores the difference in deadwood"
            match = re.fullmatch(re.escape(head) + r" \+ (\d+) : 0", text)
            if match:
                return (f"the defender with the lowest deadwood scores the difference in deadwood "
                        f"plus {match.group(1)}")
        return f"each other player p scores {text}"


def _game(variant: Variant) -> list[str]:
    game = variant.game
    best = "lowest" if game.winner == "lowest" else "highest"
    if game.deals is None:
        out = _bullet(f"A game ends after the round in which a player's total reaches {game.target}; the "
                      f"{best} total wins, and an exact tie for {best} plays another round.")
    else:
        reached = "" if game.target is None else f", or earlier after the round in which a total reaches {game.target}"
        out = _bullet(f"A game is exactly {game.deals} deals{reached}; the {best} total wins (after the last "
                      f"deal a tie for {best} goes to the tied player first in seat order, P1 first; before "
                      "it a tie plays another round). Each deal's number is the expressions' 'round'.")
    if game.game_bonus:
        out += _bullet(f"The winner gets a game bonus of {game.game_bonus}.")
    if game.box_bonus:
        out += _bullet(f"At the end each player gets {game.box_bonus} for every hand they won "
                       "(not counted toward the target).")
    shutout = {"double_total": "the winner's whole final figure is doubled",
               "double_hand_points": "the winner's hand points are doubled before bonuses",
               "flat_100": "the winner gets 100 more", "none": None}[game.shutout]
    if shutout and game.shutout_per == "each_loser":  # G3-3
        out += _bullet(f"Shutout, for each loser who scored nothing in the game: {shutout} "
                       "(once more for each such loser).")
    elif shutout:
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
    """A YAML value as it would be written in a file (flow style), never a
    Python repr.

    >>> _show({"limit": 10, "big_gin": True, "turn": ("draw", {"discard": None})})
    '{limit: 10, big_gin: true, turn: [draw, {discard: null}]}'
    >>> _show(None)
    '(none)'
    """
    if value is None:
        return "(none)"
    if isinstance(value, Mapping) and set(value) >= {"value"}:
        return _show(value["value"])
    return _flow(value)


def _flow(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    text = str(value)
    if isinstance(value, str) and (not text or any(c in text for c in ",:{}[]#") or text != text.strip()):
        return '"' + text.replace('"', '\\"') + '"'
    return text
