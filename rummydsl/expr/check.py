"""Name and type checking of expressions against a context.

A field of a variant is checked in its context (docs/language.md, "Contexts"): the
names and functions it may use, described by an explicit, frozen :class:`Env`.
:func:`check` gives every node of the AST a :class:`Type`, resolves every bare
deck symbol or option value by what it is compared with, and returns a
:class:`Checked` that :mod:`rummydsl.expr.compile` turns into closures.

Rule codes of the errors raised (:class:`~rummydsl.errors.ExpressionError`):

``expr-name``
    an unknown name, function, attribute or symbol (with a suggestion where one is
    close), a name not available in this context, ``upcard`` in a variant that
    deals none.
``expr-type``
    a value of the wrong type, or a call with the wrong number of arguments.

>>> from rummydsl.cards import Deck
>>> env = Env(Context.CARD, Deck.preset("standard52"))
>>> str(check(parse("rank == A ? 15 : min(order, 10)"), env).type)
'int'
>>> check(parse("sute == S"), env)
Traceback (most recent call last):
...
rummydsl.errors.ExpressionError: 1:1: unknown name 'sute'; did you mean 'suit'?
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from rummydsl.errors import ExpressionError
from rummydsl.expr import ast
from rummydsl.expr.contexts import (
    AGGREGATES, CARD_ATTRIBUTES, CONTRACT_INNER, CONTRACT_ROUND_NAMES, FIELDS, FUNCTIONS, HAS_LISTS,
    LAST_ROUND_NAMES, NAMES, RESERVED_NAMES, SELECTORS, Choice, Context, Env, Field, context_functions,
    context_names,
)
from rummydsl.expr.parser import parse
from rummydsl.expr.types import (
    ANY, BOOL, CARD, COLOUR, EMPTY, INT, PLAYER, RANK, SUIT, SYMBOL, Type, enum_of, item_of, list_of,
    range_of, type_named,
)
from rummydsl.suggest import closest

# The types (expr/types.py) and the contexts (expr/contexts.py) lived here first: still importable from here.
__all__ = [
    "Context",
    "Type",
    "INT",
    "BOOL",
    "RANK",
    "SUIT",
    "COLOUR",
    "CARD",
    "PLAYER",
    "ANY",
    "list_of",
    "range_of",
    "enum_of",
    "Choice",
    "Env",
    "Checked",
    "check",
    "type_named",
    "context_names",
    "context_functions",
    "RESERVED_NAMES",
    "LAST_ROUND_NAMES",
    "FIELDS",
    "Field",
    "CONTRACT_ROUND_NAMES",
]

_WORDS = {"int": "integers", "bool": "booleans", "rank": "ranks", "suit": "suits", "colour": "colours"}

# -- the result -------------------------------------------------------------------


@dataclass
class Checked:
    """A checked expression: its AST, its type, and what each node turned out to be."""

    ast: ast.Expr
    type: Type
    env: Env
    types: dict[int, Type]
    """``id(node)`` → the node's type."""
    bindings: dict[int, tuple[str, Any]]
    """``id(Name node)`` → ``(kind, what)``: ``("context", name)``, ``("option", value)``,
    ``("let", name)``, ``("loop", name)``, ``("symbol", runtime value)``."""
    names: frozenset[str]
    """The context names, options, lets and functions used."""


def check(node: ast.Expr, env: Env, expect: "Type | str | None" = None) -> Checked:
    """Check names and types of ``node`` in ``env``; ``expect`` is the field's result type.

    :raises ExpressionError: rule ``expr-name`` or ``expr-type``.

    >>> from rummydsl.cards import Deck
    >>> env = Env(Context.MELD, Deck.preset("standard52"))
    >>> check(parse("size >= 3 and size"), env)
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: 1:15: 'and' needs booleans, got int
    """
    return _Checker(env).run(node, type_named(expect))


def _error(node: ast.Node, message: str, rule: str = "expr-type") -> ExpressionError:
    return ExpressionError(message, node.line, node.column, rule)


def _an(t: Type) -> str:
    """``t`` with an article, for messages: 'an int', 'a list[player]'."""
    if t.name == "enum":
        return f"a value of {t}"
    if t.name == "symbol":
        return str(t)
    text = str(t)
    return ("an " if text[0] in "aeiou" else "a ") + text


def _suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The name of ``candidates`` closest to ``word`` (names in expressions are short: strict)."""
    return closest(word, candidates, cutoff=0.7)


class _Checker:
    def __init__(self, env: Env) -> None:
        self.env = env
        self.context = env.context
        self.types: dict[int, Type] = {}
        self.bindings: dict[int, tuple[str, Any]] = {}
        self.names: set[str] = set()
        self.loops: list[tuple[str, Type]] = []
        self.in_meld: bool = False  # inside all/any/count_where of a contract
        self.lets = dict(env.lets)
        self.kind_type = enum_of("meld kind", env.meld_kinds)

    # -- entry --------------------------------------------------------------------

    def run(self, node: ast.Expr, expect: Type) -> Checked:
        found = self.visit(node)
        if expect.name != "any":
            if found == SYMBOL:
                self.resolve(node, expect)
                found = expect
            elif not self.same_type(found, expect):
                raise _error(node, f"this expression must give {_an(expect)}, got {_an(found)}")
        elif found == SYMBOL:
            raise self.unknown(node)
        return Checked(node, found, self.env, self.types, self.bindings, frozenset(self.names))

    def visit(self, node: ast.Expr) -> Type:
        method = getattr(self, "visit_" + type(node).__name__)
        result: Type = method(node)
        self.types[id(node)] = result
        return result

    def value(self, node: ast.Expr) -> Type:
        """Visit a node whose value is used as is: a bare symbol is an error."""
        found = self.visit(node)
        if found == SYMBOL:
            raise self.unknown(node)
        return found

    def expect(self, node: ast.Expr, want: Type, what: str) -> Type:
        found = self.visit(node)
        if found == SYMBOL and want.name in ("rank", "suit", "colour", "enum"):
            self.resolve(node, want)
            return want
        if found == SYMBOL:
            raise self.unknown(node)
        if not self.same_type(found, want):
            hint = " (a rank's number is 'order')" if found == RANK and want == INT else ""
            raise _error(node, f"{what} needs {_WORDS.get(want.name, str(want))}, got {found}{hint}")
        return found

    @staticmethod
    def same_type(found: Type, want: Type) -> bool:
        if found == want:
            return True
        if found.name == want.name == "list":
            return found.item == EMPTY or want.item == EMPTY
        return False

    # -- leaves -------------------------------------------------------------------

    def visit_IntLit(self, node: ast.IntLit) -> Type:
        return INT

    def visit_BoolLit(self, node: ast.BoolLit) -> Type:
        return BOOL

    def visit_Name(self, node: ast.Name) -> Type:
        name = node.id
        for loop_name, loop_type in reversed(self.loops):
            if loop_name == name:
                self.bindings[id(node)] = ("loop", name)
                return loop_type
        found = self.builtin(name)
        if found is not None:
            self.bindings[id(node)] = ("context", name)
            self.names.add(name)
            return found
        if name in self.lets:
            self.bindings[id(node)] = ("let", name)
            self.names.add(name)
            return self.lets[name]
        if name in self.env.options:
            self.bindings[id(node)] = ("option", self.env.option_value(name))
            self.names.add(name)
            return self.env.option_type(name)
        return SYMBOL

    def builtin(self, name: str) -> Type | None:
        context = self.context
        if context is Context.CONTRACT and name in CONTRACT_INNER:
            if not self.in_meld:
                return None
            return INT if name == "size" else self.kind_type
        names = NAMES[context]
        if name not in names:
            if name == "p" and ((context is Context.SCORE and self.env.per_player) or context is Context.REWARD):
                return PLAYER
            return None
        if name == "upcard" and not self.env.has_upcard:
            return None
        if context is Context.MELDED and name == "kind":
            return self.kind_type
        return names[name]

    # -- symbols and unknown names ---------------------------------------------------

    def visible_names(self) -> list[str]:
        names = [n for n in context_names(self.context, self.env.per_player)]
        if self.context is Context.CONTRACT and not self.in_meld:
            names = [n for n in names if n not in CONTRACT_INNER]
        if not self.env.has_upcard:
            names = [n for n in names if n != "upcard"]
        names += [n for n, _ in self.loops] + list(self.lets) + list(self.env.options)
        return names

    def unknown(self, node: ast.Expr, kind: str | None = None) -> ExpressionError:
        """The error for a bare name that is not a known name (nor a fitting symbol)."""
        name = getattr(node, "id", None)
        if name is None:
            return _error(node, "this expression has no type here", "expr-type")
        context = self.context
        if name == "upcard" and context in (Context.ROUND, Context.SCORE, Context.REWARD):
            return _error(node, "this variant deals no upcard", "expr-name")
        if name == "p" and context is Context.SCORE:
            return _error(node, "'p' (the player being scored) exists only in 'points' and 'others'",
                          "expr-name")
        if context is Context.CONTRACT and name in CONTRACT_INNER:
            return _error(node, f"{name!r} exists only inside all(...), any(...) or count_where(...)",
                          "expr-name")
        if name in context_functions(context):
            return _error(node, f"{name!r} is a function: write {name}(...)", "expr-name")
        visible = self.visible_names()
        close = _suggest(name, visible)
        if close is not None:
            return _error(node, f"unknown name {name!r}; did you mean {close!r}?", "expr-name")
        for other in Context:
            if other is not context and name in context_names(other, True):
                return _error(node, f"{name!r} is not available in the {context.value} context; "
                              f"names here: {', '.join(visible)}", "expr-name")
        deck = self.env.deck
        if kind is None:
            if deck.rank_by_symbol(name) is not None:
                return _error(node, f"{name!r} is a rank symbol: compare it with a rank (rank == {name})",
                              "expr-name")
            if deck.suit_by_symbol(name) is not None:
                return _error(node, f"{name!r} is a suit symbol: compare it with a suit (suit == {name})",
                              "expr-name")
        if kind == "rank":
            ranks = " ".join(r.symbol for r in deck.ranks)
            return _error(node, f"no rank {name!r} in this deck (ranks: {ranks})", "expr-name")
        if kind == "suit":
            suits = " ".join(s.symbol for s in deck.suits)
            return _error(node, f"no suit {name!r} in this deck (suits: {suits})", "expr-name")
        if kind == "colour":
            return _error(node, f"no colour {name!r} in this deck (colours: {', '.join(self.colours())})",
                          "expr-name")
        listing = ", ".join(visible) if visible else "none"
        return _error(node, f"unknown name {name!r}; names here: {listing}", "expr-name")

    def colours(self) -> list[str]:
        seen: list[str] = []
        for suit in self.env.deck.suits:
            if suit.colour not in seen:
                seen.append(suit.colour)
        return seen

    def resolve(self, node: ast.Expr, want: Type) -> None:
        """Resolve the bare name ``node`` as a value of type ``want``."""
        if not isinstance(node, ast.Name):  # pragma: no cover - only names are symbols
            raise _error(node, "this expression has no type here")
        name = node.id
        deck = self.env.deck
        if want == RANK:
            rank = deck.rank_by_symbol(name)
            if rank is None:
                raise self.unknown(node, "rank")
            value: Any = rank.order
        elif want == SUIT:
            suit = deck.suit_by_symbol(name)
            if suit is None:
                raise self.unknown(node, "suit")
            value = suit.index
        elif want == COLOUR:
            matches = [c for c in self.colours() if c.lower() == name.lower()]
            if not matches:
                raise self.unknown(node, "colour")
            value = matches[0]
        elif want.name == "enum":
            if name not in want.values:
                close = _suggest(name, want.values)
                hint = f"; did you mean {close!r}?" if close else f" ({', '.join(want.values) or 'none declared'})"
                what = "a meld kind" if want.label == "meld kind" else f"a value of {want.label}"
                raise _error(node, f"{name!r} is not {what}{hint}", "expr-name")
            value = name
        else:
            raise self.unknown(node)
        self.bindings[id(node)] = ("symbol", value)
        self.types[id(node)] = want

    # -- operators ----------------------------------------------------------------

    def visit_Not(self, node: ast.Not) -> Type:
        return self.expect(node.operand, BOOL, "'not'")

    def visit_Neg(self, node: ast.Neg) -> Type:
        return self.expect(node.operand, INT, "'-'")

    def visit_BinOp(self, node: ast.BinOp) -> Type:
        self.expect(node.left, INT, f"{node.op!r}")
        self.expect(node.right, INT, f"{node.op!r}")
        return INT

    def visit_BoolOp(self, node: ast.BoolOp) -> Type:
        self.expect(node.left, BOOL, f"{node.op!r}")
        self.expect(node.right, BOOL, f"{node.op!r}")
        return BOOL

    def visit_Conditional(self, node: ast.Conditional) -> Type:
        self.expect(node.test, BOOL, "the condition of '?:'")
        return self.unify(node.then, node.otherwise, "the two branches of '?:'")

    def unify(self, a: ast.Expr, b: ast.Expr, what: str) -> Type:
        ta, tb = self.visit(a), self.visit(b)
        if ta == SYMBOL and tb == SYMBOL:
            raise self.unknown(a)
        if ta == SYMBOL:
            self.resolve(a, tb)
            return tb
        if tb == SYMBOL:
            self.resolve(b, ta)
            return ta
        if self.same_type(ta, tb):
            return tb if ta.name == "list" and ta.item == EMPTY else ta
        raise _error(b, f"{what} have different types: {ta} and {tb}")

    def visit_Compare(self, node: ast.Compare) -> Type:
        left, right = self.visit(node.left), self.visit(node.right)
        ordered = node.op not in ("==", "!=")
        if left == SYMBOL and right == SYMBOL:
            raise self.unknown(node.left)
        if left == SYMBOL:
            left = self.resolve_against(node.left, right)
        elif right == SYMBOL:
            right = self.resolve_against(node.right, left)
        self.comparable(node, node.op, left, right, ordered)
        return BOOL

    def resolve_against(self, node: ast.Expr, other: Type) -> Type:
        if other.name in ("rank", "suit", "colour", "enum"):
            self.resolve(node, other)
            return other
        raise self.unknown(node)

    def comparable(self, node: ast.Node, op: str, left: Type, right: Type, ordered: bool) -> None:
        numeric = (INT, RANK)
        if ordered:
            for side in (left, right):
                if side not in numeric:
                    raise _error(node, f"{op!r} needs numbers or ranks, got {side}")
            return
        if left in numeric and right in numeric:
            return
        if left == right and left.name not in ("list", "range"):
            return
        raise _error(node, f"cannot compare {_an(left)} with {_an(right)} using {op!r}")

    def visit_InOp(self, node: ast.InOp) -> Type:
        container = node.right
        element = self.visit(node.left)
        if isinstance(container, ast.Range):
            ends = [self.visit(container.low), self.visit(container.high)]
            known = [t for t in ends if t != SYMBOL]
            if element == SYMBOL:
                if not known:
                    raise self.unknown(node.left)
                element = self.resolve_against(node.left, RANK if RANK in known else known[0])
            if element not in (INT, RANK):
                raise _error(node.left, f"a range 'a..b' holds numbers or ranks, got {element}")
            for end, end_type in zip((container.low, container.high), ends):
                if end_type == SYMBOL:
                    self.resolve(end, RANK if element == RANK else element)
                elif end_type not in (INT, RANK) or (end_type == RANK and element == INT):
                    raise _error(end, f"the ends of a range must be {'numbers or ranks' if element == RANK else 'integers'}, "
                                 f"got {end_type}")
            self.types[id(container)] = range_of(element)
            return BOOL
        if isinstance(container, ast.ListExpr):
            items = [self.visit(item) for item in container.items]
            known = [t for t in items if t != SYMBOL]
            if element == SYMBOL:
                if not known:
                    raise self.unknown(node.left)
                element = self.resolve_against(node.left, known[0])
            for item, item_type in zip(container.items, items):
                if item_type == SYMBOL:
                    self.resolve_against(item, element)
                else:
                    self.comparable(item, "in", element, item_type, False)
            self.types[id(container)] = list_of(element)
            return BOOL
        found = self.value(container)
        if found.name != "list":
            raise _error(container, f"{node.op!r} needs a list or a range on the right, got {found}")
        found_item = item_of(found)
        if element == SYMBOL:
            element = self.resolve_against(node.left, found_item)
        if found_item != EMPTY:
            self.comparable(node, node.op, element, found_item, False)
        return BOOL

    def visit_Range(self, node: ast.Range) -> Type:  # pragma: no cover - the grammar puts ranges after 'in'
        raise _error(node, "a range 'a..b' can only follow 'in'", "expr-syntax")

    def visit_ListExpr(self, node: ast.ListExpr) -> Type:
        items = [self.visit(item) for item in node.items]
        known = [t for t in items if t != SYMBOL]
        if not items:
            return list_of(EMPTY)
        if not known:
            raise self.unknown(node.items[0])
        item_type = RANK if RANK in known else known[0]
        for item, found in zip(node.items, items):
            if found == SYMBOL:
                self.resolve_against(item, item_type)
            elif not (found == item_type or (item_type == RANK and found == INT)):
                raise _error(item, f"list items must have one type: {item_type} and {found}")
        return list_of(item_type)

    # -- attributes and calls ----------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> Type:
        found = self.value(node.obj)
        if found != CARD:
            raise _error(node, f"only a card has attributes; this is {_an(found)}")
        if node.name not in CARD_ATTRIBUTES:
            close = _suggest(node.name, CARD_ATTRIBUTES)
            hint = f"; did you mean {close!r}?" if close else f"; a card has {', '.join(CARD_ATTRIBUTES)}"
            raise _error(node, f"a card has no attribute {node.name!r}{hint}", "expr-name")
        return CARD_ATTRIBUTES[node.name]

    def function_known(self, node: ast.Node, name: str, aggregate: bool) -> None:
        functions = context_functions(self.context)
        if name in functions and (aggregate or name in FUNCTIONS[self.context] or self.context in HAS_LISTS):
            if aggregate and name not in AGGREGATES:
                raise _error(node, f"{name!r} is not an aggregate: only {', '.join(AGGREGATES)} "
                             f"take 'e for x in xs'")
            self.names.add(name)
            return
        if aggregate and name in AGGREGATES and self.context not in HAS_LISTS:
            raise _error(node, f"there are no lists in the {self.context.value} context to "
                         f"aggregate over", "expr-name")
        for other in Context:
            if name in FUNCTIONS[other] and other is not self.context:
                raise _error(node, f"{name!r} is not available in the {self.context.value} context; "
                             f"functions here: {', '.join(functions)}", "expr-name")
        close = _suggest(name, functions)
        hint = f"; did you mean {close!r}?" if close else f"; functions here: {', '.join(functions)}"
        raise _error(node, f"unknown function {name!r}{hint}", "expr-name")

    def arity(self, node: ast.Call, count: int) -> None:
        if len(node.args) != count:
            plural = "argument" if count == 1 else "arguments"
            raise _error(node, f"{node.func!r} takes {count} {plural}, got {len(node.args)}")

    def visit_Call(self, node: ast.Call) -> Type:
        name = node.func
        self.function_known(node, name, aggregate=False)
        if name in ("min", "max"):
            if not node.args:
                raise _error(node, f"{name!r} needs at least one argument")
            for arg in node.args:
                self.expect(arg, INT, f"{name!r}")
            return INT
        if name == "abs":
            self.arity(node, 1)
            self.expect(node.args[0], INT, "'abs'")
            return INT
        if name in ("same", "distinct", "consecutive", "count_distinct"):
            self.arity(node, 1)
            arg = node.args[0]
            allowed = ("rank",) if name == "consecutive" else SELECTORS
            if not isinstance(arg, ast.Name) or arg.id not in allowed:
                written = f"{arg.id!r}" if isinstance(arg, ast.Name) else "an expression"
                choices = "rank" if len(allowed) == 1 else "rank, suit or colour"
                message = f"{name}(...) takes {choices}, got {written}"
                close = _suggest(arg.id, allowed) if isinstance(arg, ast.Name) else None
                if close:
                    message += f"; did you mean {close!r}?"
                raise _error(arg, message)
            self.types[id(arg)] = Type("selector")
            return INT if name == "count_distinct" else BOOL
        if name in ("all", "any", "count_where") and self.context is Context.CONTRACT:  # per-meld tests
            self.arity(node, 1)
            if self.in_meld:
                raise _error(node, f"{name}(...) cannot be nested inside another per-meld test")
            self.in_meld = True
            try:
                self.expect(node.args[0], BOOL, f"{name!r}")
            finally:
                self.in_meld = False
            return INT if name == "count_where" else BOOL
        if name == "distance":
            self.arity(node, 2)
            for arg in node.args:
                self.expect(arg, PLAYER, "'distance'")
            return INT
        if name in ("value", "score", "deadwood", "others", "met_contract", "hand_value",
                    "melded_turns", "melded", "points", "total"):
            self.arity(node, 1)
            self.expect(node.args[0], CARD if name == "value" else PLAYER, f"{name!r}")
            if name == "met_contract":
                return BOOL
            return list_of(PLAYER) if name == "others" else INT
        if name == "next":
            self.arity(node, 1)
            self.expect(node.args[0], PLAYER, "'next'")
            return PLAYER
        # sum/count used without 'for'
        raise _error(node, f"{name!r} works on a list: write {name}(e for x in xs)")

    def visit_Aggregate(self, node: ast.Aggregate) -> Type:
        name = node.func
        self.function_known(node, name, aggregate=True)
        iterable = self.value(node.iterable)
        if iterable.name != "list":
            raise _error(node.iterable, f"'{name}(... for {node.var} in ...)' needs a list after 'in', got {iterable}")
        var = node.var
        if self.builtin(var) is not None or var in self.lets or var in self.env.options \
                or any(var == n for n, _ in self.loops):
            raise ExpressionError(f"loop variable {var!r} hides the name {var!r}; choose another name",
                                  node.var_line, node.var_column, "expr-name")
        item = item_of(iterable)
        self.loops.append((var, item if item != EMPTY else PLAYER))
        try:
            if name in ("sum", "min", "max"):
                self.expect(node.element, INT, f"{name!r}")
            else:
                self.expect(node.element, BOOL, f"{name!r}")
        finally:
            self.loops.pop()
        return BOOL if name in ("any", "all") else INT
