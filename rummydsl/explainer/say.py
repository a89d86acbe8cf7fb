"""Expressions read aloud: any formula of a variant as the words a rule book would use.

A :class:`Speaker` knows the variant (its deck's names for ranks and suits, its meld
kinds) and the context a formula is read in (a card, a group of cards, the melds of a
lay-down, a round). :meth:`Speaker.noun` words a number, a card or a player
(``the upcard's value``), :meth:`Speaker.clause` a condition (``the upcard is a
spade``). A tree the speaker has no words for (a function it does not know) is shown
as its formula and recorded (:func:`~rummydsl.explainer.words.raw`): the test suite
checks that no shipped variant needs that.

>>> from rummydsl.expr.parser import parse
>>> from rummydsl.variant import load_variant
>>> speak = Speaker(load_variant("oklahoma_gin"), "score", ender="the knocker")
>>> speak.clause(parse("upcard.suit == S"))
'the upcard is a spade'
>>> speak.noun(parse("upcard.rank == A ? 0 : value(upcard)"))
"the upcard's value (0 if the upcard is an ace)"
"""

from __future__ import annotations

from typing import Any, Mapping

from ..expr import ast
from ..variant.model import Variant
from .words import folded, raw, unparse

__all__ = ["Speaker", "number", "Unworded", "said"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve")


def number(n: int) -> str:
    """A small count in words (``three``), a larger one in figures.

    >>> number(3), number(0), number(25)
    ('three', 'no', '25')
    """
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def said(compiled: Any, variant: Variant, context: str, *, constants: Mapping[str, Any] | None = None,
         clause: bool = False, **speaker: Any) -> str:
    """A compiled formula of ``variant`` in words, option values filled in (a noun, or
    with ``clause`` a condition); ``speaker`` goes to :class:`Speaker`.

    >>> from rummydsl.variant import load_variant
    >>> okla = load_variant("oklahoma_gin")
    >>> said(okla.knock.limit, okla, "round")
    "the upcard's value (0 if the upcard is an ace)"
    """
    if getattr(compiled, "ast", None) is None:
        return str(getattr(compiled, "text", compiled))
    return Speaker(variant, context, **speaker).say(folded(compiled, variant, constants), clause=clause)


class Unworded(Exception):
    """A tree the speaker has no words for (caught by :meth:`Speaker.say`)."""


_VERBS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
          ">=": "is at least"}
_THAN = {"<": "lower than", "<=": "no higher than", ">": "higher than", ">=": "no lower than"}

#: Names of the contexts, as nouns (a card attribute's subject is added where it applies).
_NAMES = {
    "round": "the deal's number", "dealer": "the dealer", "player_count": "the number of players",
    "hand_size": "the number of cards dealt to each player", "upcard": "the upcard",
    "players": "the players", "opponents": "the opponents", "count": "the number of melds",
    "cards": "the number of cards", "naturals": "the number of natural (not wild) cards",
    "wilds": "the number of wild cards", "size": "the number of cards",
    "last_sat_out": "the seat that sat out last round", "last_winner": "the last round's winner",
    "last_loser": "the last round's loser",
}
_ENDINGS = {"gin": "the round ended in gin", "big_gin": "the round ended in big gin",
            "knock": "the round ended by a knock", "out": "a player went out",
            "stock_end": "the stock ran down to its floor",
            "last_void": "nobody won the last round (it was void)"}
#: Per-player functions: the noun after a possessive (``the knocker's deadwood``).
_OWNED = {"deadwood": "deadwood", "hand_value": "hand value (every card still held)",
          "score": "game total before this round", "melded": "points on the table",
          "melded_turns": "turns that put cards on the table"}
_CARD_ATTRS = ("rank", "suit", "colour", "order", "pips", "wild")


class Speaker:
    """Words for the formulas of ``variant`` read in ``context`` (``card``, ``melded``,
    ``meld``, ``contract``, ``round``, ``deal``, ``next_deal`` or ``score``).

    ``ender`` names the player who ended the round, ``lets`` gives the words for
    ``scoring.let`` names (a name left out is said as itself: it is listed with its
    meaning), and ``scored`` says whether ``p`` is in scope (it is "they").
    """

    def __init__(self, variant: Variant, context: str, *, ender: str = "the player who ended the round",
                 lets: Mapping[str, str] | None = None, scored: bool = False) -> None:
        self.variant = variant
        self.context = context
        self.ender = ender
        self.lets = dict(lets or {})
        self.let_names = {name for name, _ in variant.scoring.lets}
        self.scored = scored
        self.loops: dict[str, str] = {}  # loop name -> "that opponent"
        self.kinds = {kind.name for kind in variant.meld_kinds}

    # -- the entry points ---------------------------------------------------------------

    def say(self, tree: Any, *, clause: bool = False) -> str:
        """``tree`` as words; its formula (recorded as raw) where there are none."""
        try:
            return self.clause(tree) if clause else self.noun(tree)
        except Unworded:
            return raw(unparse(tree))

    # -- nouns ------------------------------------------------------------------------

    def noun(self, node: Any) -> str:
        """A value in words: a number, a card, a player, a list of players."""
        if isinstance(node, ast.IntLit):
            return str(node.value)
        if isinstance(node, ast.BoolLit):
            return "always" if node.value else "never"
        if isinstance(node, ast.Name):
            return self._name(node.id)
        if isinstance(node, ast.Attribute):
            return f"{self.possessive(node.obj)} {self._attribute(node.name)}"
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Aggregate):
            return self._aggregate(node)
        if isinstance(node, ast.Neg):
            return f"minus {self._operand(node.operand)}"
        if isinstance(node, ast.BinOp):
            return self._arith(node)
        if isinstance(node, ast.Conditional):
            return self._choice(node)
        if isinstance(node, ast.ListExpr):
            return self._either([self.noun(item) for item in node.items], "and")
        if isinstance(node, (ast.Compare, ast.BoolOp, ast.Not, ast.InOp)):
            return f"whether {self.clause(node)}"
        raise Unworded(node)

    def possessive(self, node: Any) -> str:
        """``node`` owning something: ``the upcard's``, ``their`` (the player scored)."""
        if isinstance(node, ast.Name) and node.id == "p" and self.scored and "p" not in self.loops:
            return "their"
        if isinstance(node, ast.Name) and node.id in self.loops:
            return _owner(self.loops[node.id])
        return _owner(self.noun(node))

    def _name(self, name: str) -> str:
        if name in self.loops:
            return self.loops[name]
        if name == "p" and self.scored:
            return "they"
        if name == "ender":
            return self.ender
        if name in self.lets:
            return self.lets[name]
        if name in self.let_names:
            return name  # listed with its meaning under Scoring
        if self.context in ("card", "melded") and name in _CARD_ATTRS:
            return f"its {self._attribute(name)}"
        if self.context == "melded":
            melded = {"value": "its card value", "kind": "the kind of its meld",
                      "position": "its place in its meld from the low end", "size": "the size of its meld"}
            if name in melded:
                return melded[name]
        if name in _NAMES:
            return _NAMES[name]
        symbol = self.symbol(name)
        if symbol is not None:
            return symbol
        if name in self.kinds or name.isidentifier():
            return name  # a meld kind or an option's value
        raise Unworded(name)

    def symbol(self, name: str) -> str | None:
        """A deck symbol's name: ``ace`` for ``A``, ``spades`` for ``S``."""
        deck = self.variant.deck
        for rank in deck.ranks:
            if name.lower() in (s.lower() for s in (rank.symbol, *rank.aliases)):
                return rank.name
        for suit in deck.suits:
            if name.lower() == suit.symbol.lower():
                return suit.name
        for suit in deck.suits:
            if name.lower() == suit.colour.lower():
                return suit.colour
        return None

    @staticmethod
    def _attribute(name: str) -> str:
        return {"order": "order (1 for the lowest rank)", "pips": "number",
                "wild": "wildness"}.get(name, name)

    def _operand(self, node: Any) -> str:
        """A noun that is itself a sum or a choice, bracketed when it stands in a larger one."""
        text = self.noun(node)
        bracket = isinstance(node, (ast.BinOp, ast.Conditional)) or (
            isinstance(node, ast.Call) and node.func in ("min", "max", "abs") and len(node.args) > 1)
        return f"({text})" if bracket else text

    def _arith(self, node: ast.BinOp) -> str:
        if (node.op == "*" and isinstance(node.left, ast.Conditional)
                and isinstance(node.left.then, ast.IntLit) and _is_int(node.left.otherwise, 1)):
            times = {2: "doubled", 3: "tripled"}.get(node.left.then.value,
                                                     f"times {node.left.then.value}")
            return f"{self.noun(node.right)}, {times} if {self.clause(node.left.test)}"
        left, right = self._operand(node.left), self._operand(node.right)
        if node.op == "+":
            return f"{left} plus {right}"
        if node.op == "-":
            return f"{left} minus {right}"
        if node.op == "*":
            return f"{left} times {right}"
        if node.op == "//":
            return f"{left} divided by {right}, rounded down"
        return f"the remainder of {left} divided by {right}"

    def _choice(self, node: ast.Conditional) -> str:
        if not isinstance(node.otherwise, ast.Conditional) and not _is_int(node.otherwise, 0):
            return f"{self.noun(node.otherwise)} ({self.noun(node.then)} if {self.clause(node.test)})"
        parts = []
        while isinstance(node, ast.Conditional):
            parts.append(f"{self.noun(node.then)} if {self.clause(node.test)}")
            node = node.otherwise  # type: ignore[assignment]
        return ", ".join(parts) + f", otherwise {self.noun(node)}"

    def _call(self, node: ast.Call) -> str:
        func, args = node.func, node.args
        if func in _OWNED and len(args) == 1:
            return f"{self.possessive(args[0])} {_OWNED[func]}"
        if func in ("min", "max") and len(args) >= 2:
            which = "lower" if func == "min" else "higher"
            if len(args) == 2:
                return f"the {which} of {self.noun(args[0])} and {self.noun(args[1])}"
            return f"the {'lowest' if func == 'min' else 'highest'} of " + self._either(
                [self.noun(a) for a in args], "and")
        if func == "abs" and len(args) == 1:
            return f"the size of {self.noun(args[0])} (without its sign)"
        if func == "value" and len(args) == 1:
            return f"{self.possessive(args[0])} value"
        if func == "distance" and len(args) == 2:
            return f"{self.possessive(args[1])} distance to the left of {self.noun(args[0])}"
        if func == "others" and len(args) == 1:
            who = self.noun(args[0])
            return "the other players" if who in ("they", "them") else f"the players other than {who}"
        if func == "next" and len(args) == 1:
            return f"the seat to the left of {self.noun(args[0])}"
        if func == "count_distinct" and len(args) == 1:
            return f"the number of different {_plural(self._plain(args[0]))} the cards can show"
        if func == "count_where" and len(args) == 1:
            return f"the number of melds that are {self.meld_clause(args[0])}"
        raise Unworded(node)

    def _plain(self, node: Any) -> str:
        """``rank``, ``suit`` or ``colour``, the argument of ``same`` and its kin."""
        if isinstance(node, ast.Name) and node.id in ("rank", "suit", "colour"):
            return node.id
        raise Unworded(node)

    def _aggregate(self, node: ast.Aggregate) -> str:
        group = self.noun(node.iterable)
        one = _one_of(group)
        element = node.element
        saved = dict(self.loops)
        self.loops[node.var] = f"that {one}"
        try:
            if (node.func in ("sum", "min", "max") and isinstance(element, ast.Call)
                    and element.func in _OWNED and _of(element, node.var)):
                what = _OWNED[element.func]
                if node.func == "sum":
                    return f"{_owner(group)} {what}"
                best = "lowest" if node.func == "min" else "highest"
                return f"the {best} {what} among {group}"
            if (node.func == "sum" and isinstance(element, ast.BinOp) and element.op == "-"
                    and isinstance(element.left, ast.Call) and element.left.func in _OWNED
                    and _of(element.left, node.var)
                    and node.var not in {n.id for n in ast.walk(element.right) if isinstance(n, ast.Name)}):
                what = _OWNED[element.left.func]
                self.loops.pop(node.var)
                return (f"how much the {what} of each of {group} is above "
                        f"{self.noun(element.right)}, added up")
            if (node.func == "min" and isinstance(element, ast.Conditional)
                    and isinstance(element.then, ast.Call) and element.then.func == "distance"
                    and len(element.then.args) == 2 and isinstance(element.then.args[1], ast.Name)
                    and element.then.args[1].id == node.var):  # the nearest seat that has something
                self.loops[node.var] = "they"
                test = self.clause(element.test)
                self.loops.pop(node.var)
                return (f"the distance to the left of {self.noun(element.then.args[0])} of the nearest "
                        f"{one} for whom {test} ({self.noun(element.otherwise)} if there is none)")
            if node.func == "sum":
                return f"the sum over {group} of {self.noun(element)}"
            if node.func in ("min", "max"):
                best = "least" if node.func == "min" else "greatest"
                return f"the {best}, over {group}, of {self.noun(element)}"
            if node.func == "count":
                return f"the number of {group} for whom {self.clause(element)}"
            return f"whether {self._quantified(node, group)}"
        finally:
            self.loops = saved

    def _quantified(self, node: ast.Aggregate, group: str) -> str:
        quantifier = "for at least one of" if node.func == "any" else "for every one of"
        return f"{quantifier} {group}, {self.clause(node.element)}"

    # -- clauses ----------------------------------------------------------------------

    def clause(self, node: Any) -> str:
        """A condition in words: ``the upcard is a spade``."""
        if isinstance(node, ast.BoolLit):
            return "always" if node.value else "never"
        if isinstance(node, ast.Name):
            if node.id in _ENDINGS:
                return _ENDINGS[node.id]
            if node.id in self.lets:
                return self.lets[node.id]
            if node.id in self.let_names or node.id in self.loops:
                return f"{node.id} holds"
            if self.context in ("card", "melded") and node.id == "wild":
                return "it is wild"
            raise Unworded(node)
        if isinstance(node, ast.Attribute) and node.name == "wild":
            return f"{self.noun(node.obj)} is wild"
        if isinstance(node, ast.BoolOp):
            return f"{self._part(node.left, node.op)} {node.op} {self._part(node.right, node.op)}"
        if isinstance(node, ast.Not):
            return f"not ({self.clause(node.operand)})"
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.InOp):
            negated = " not" if node.negated else ""
            if isinstance(node.right, ast.Range):
                return (f"{self.noun(node.left)} is{negated} from {self.noun(node.right.low)} "
                        f"to {self.noun(node.right.high)}")
            if isinstance(node.right, ast.ListExpr):
                values = [self._value(node.left, item) for item in node.right.items]
                return f"{self.noun(node.left)} is{negated} " + self._either(values, "or")
            return f"{self.noun(node.left)} is{negated} one of {self.noun(node.right)}"
        if isinstance(node, ast.Aggregate) and node.func in ("any", "all"):
            saved = dict(self.loops)
            group = self.noun(node.iterable)
            self.loops[node.var] = f"that {_one_of(group)}"
            try:
                return self._quantified(node, group)
            finally:
                self.loops = saved
        if isinstance(node, ast.Call):
            return self._call_clause(node)
        if isinstance(node, ast.Conditional):
            return (f"{self.clause(node.then)} if {self.clause(node.test)}, "
                    f"otherwise {self.clause(node.otherwise)}")
        raise Unworded(node)

    def _part(self, node: Any, op: str) -> str:
        text = self.clause(node)
        return f"({text})" if isinstance(node, ast.BoolOp) and node.op != op else text

    def _call_clause(self, node: ast.Call) -> str:
        func, args = node.func, node.args
        if func == "met_contract" and len(args) == 1:
            return f"{self.noun(args[0])} met the contract"
        if func == "same" and len(args) == 1:
            return f"the natural cards are all of one {self._plain(args[0])}"
        if func == "distinct" and len(args) == 1:
            return f"the natural cards are each of a different {self._plain(args[0])}"
        if func == "consecutive" and len(args) == 1:
            return "the cards are in sequence"
        if func in ("all", "any") and len(args) == 1 and self.context == "contract":
            return (f"every meld is {self.meld_clause(args[0])}" if func == "all"
                    else f"at least one meld is {self.meld_clause(args[0])}")
        raise Unworded(node)

    def meld_clause(self, node: Any) -> str:
        """One meld of a lay-down (``kind == set``, ``size == 3``) in words."""
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name):
            if node.left.id == "kind" and isinstance(node.right, ast.Name):
                return f"{'not ' if node.op == '!=' else ''}a {node.right.id}"
            if node.left.id == "size" and isinstance(node.right, ast.IntLit):
                n = number(node.right.value)
                return {"==": f"of {n} cards", "!=": f"not of {n} cards", ">=": f"of {n} or more cards",
                        "<=": f"of {n} or fewer cards", ">": f"of more than {n} cards",
                        "<": f"of fewer than {n} cards"}[node.op]
        if isinstance(node, ast.BoolOp):
            return f"{self.meld_clause(node.left)} {node.op} {self.meld_clause(node.right)}"
        return f"such that {self.clause(node)}"

    def _compare(self, node: ast.Compare) -> str:
        left, right, op = node.left, node.right, node.op
        if isinstance(left, ast.IntLit) and not isinstance(right, ast.IntLit):  # 3 <= size
            flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
            left, right, op = right, left, flip[op]  # type: ignore[assignment]
        subject, attribute = self._card_attribute(left)
        if subject is not None and op in ("==", "!=") and attribute in ("rank", "suit", "colour"):
            word = self._value(left, right)
            negated = " not" if op == "!=" else ""
            if attribute == "suit" and word.endswith("s") and len(word) > 2:
                return f"{subject} is{negated} {_article(word[:-1])} {word[:-1]}"
            if attribute == "rank":
                return f"{subject} is{negated} {_article(word)} {word}"
            return f"{subject} is{negated} {word}"
        if isinstance(left, ast.Call) and left.func == "melded_turns" and len(left.args) == 1 \
                and isinstance(right, ast.IntLit):
            n = right.value
            amount = {"<=": "at most", ">=": "at least", "==": "exactly", "<": "fewer than",
                      ">": "more than", "!=": "other than"}[op]
            return (f"{self.noun(left.args[0])} put cards on the table in {amount} {number(n)} "
                    f"turn{'' if n == 1 else 's'} of the round")
        if (self.context == "melded" and isinstance(left, ast.Name) and left.id == "position"
                and _is_int(right, 1) and op in ("==", "!=")):
            return f"it is {'not ' if op == '!=' else ''}at the low end of its meld"
        if isinstance(left, ast.Name) and left.id == "kind" and isinstance(right, ast.Name):
            where = "it lies in" if self.context == "melded" else "it is"
            return f"{where} {'no ' if op == '!=' else ''}{_article(right.id)} {right.id}"
        if (op in _THAN and isinstance(right, ast.Aggregate) and right.func in ("min", "max")
                and isinstance(right.element, ast.Call) and right.element.func in _OWNED
                and _of(right.element, right.var)
                and isinstance(left, ast.Call) and left.func == right.element.func):
            group = self.noun(right.iterable)
            every = "every" if (right.func == "min") == (op in ("<", "<=")) else "some"
            return (f"{self.noun(left)} is {_THAN[op]} that of {every} one of {group}")
        return f"{self.noun(left)} {_VERBS[op]} {self._value(left, right)}"

    def _card_attribute(self, node: Any) -> tuple[str | None, str]:
        """(the card's words, the attribute) for ``upcard.suit`` or a bare ``suit`` of a card context."""
        if isinstance(node, ast.Attribute):
            return self.noun(node.obj), node.name
        if isinstance(node, ast.Name) and self.context in ("card", "melded") and node.id in _CARD_ATTRS:
            return "it", node.id
        return None, ""

    def _value(self, left: Any, right: Any) -> str:
        """``right`` said as a value of ``left``'s kind (a deck symbol by its name)."""
        if isinstance(right, ast.Name):
            symbol = self.symbol(right.id)
            if symbol is not None and right.id not in self.kinds and right.id not in self.loops:
                return symbol
        return self.noun(right)

    @staticmethod
    def _either(items: list[str], word: str) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} {items[-1]}"


def _is_int(node: Any, value: int) -> bool:
    return isinstance(node, ast.IntLit) and node.value == value


def _of(call: ast.Call, var: str) -> bool:
    """Whether ``call`` is ``f(var)``."""
    return len(call.args) == 1 and isinstance(call.args[0], ast.Name) and call.args[0].id == var


def _owner(noun: str) -> str:
    """The possessive of a noun phrase: ``the knocker's``, ``the opponents'``, ``their``."""
    if noun in ("they", "them"):
        return "their"
    return noun + ("'" if noun.endswith("s") and not noun.endswith("'s") else "'s")


def _one_of(group: str) -> str:
    """One member of a group of players: ``opponent`` of ``the opponents``."""
    words = group.removeprefix("the ").split()
    if words and words[-1].endswith("s"):
        words[-1] = words[-1][:-1]
    return " ".join(words) or "player"


def _plural(word: str) -> str:
    return {"colour": "colours"}.get(word, word + "s")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeio" or word in ("8", "11", "18") or word.startswith("8") else "a"
