"""The expression language of variants: parse, check, compile (docs/language.md, "Expressions").

>>> from rummydsl.cards import Deck
>>> deck = Deck.preset("standard52")
>>> value = compile_expression("rank == A ? 15 : min(order, 10)", Env(Context.CARD, deck), INT)
>>> [value(deck.parse_card(c)) for c in ("AS", "7H", "KD")]
[15, 7, 10]
>>> run = compile_expression("size >= 3 and same(suit) and consecutive(rank)", Env(Context.MELD, deck), BOOL)
>>> run(deck.parse_cards("AH 2H 3H")), run(deck.parse_cards("QH KH AH"))
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rummydsl.errors import ExpressionError
from rummydsl.expr.ast import Expr
from rummydsl.expr.check import (
    ANY,
    BOOL,
    CARD,
    COLOUR,
    FIELDS,
    INT,
    PLAYER,
    RANK,
    RESERVED_NAMES,
    SUIT,
    Checked,
    Choice,
    Context,
    Env,
    Field,
    Type,
    check,
    context_functions,
    context_names,
    enum_of,
    list_of,
    range_of,
    type_named,
)
from rummydsl.expr.compile import (
    CardExpression,
    Compiled,
    CompiledExpression,
    ContractExpression,
    MeldedExpression,
    MeldPattern,
    RoundExpression,
    compile_checked,
)
from rummydsl.expr.facts import ContractFacts, PatternFacts, contract_facts, pattern_facts
from rummydsl.expr.parser import MAX_DEPTH, MAX_LENGTH, parse
from rummydsl.expr.runtime import ENDINGS, NextDealView, RoundFacts, RoundView, SimpleRoundView

__all__ = [
    "parse",
    "check",
    "compile_expression",
    "compile_checked",
    "check_expression",
    "compile_lets",
    "LetScope",
    "Compiled",
    "CompiledExpression",
    "CardExpression",
    "MeldPattern",
    "ContractExpression",
    "RoundExpression",
    "MeldedExpression",
    "PatternFacts",
    "ContractFacts",
    "pattern_facts",
    "contract_facts",
    "Checked",
    "Env",
    "Choice",
    "Context",
    "Field",
    "FIELDS",
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
    "type_named",
    "context_names",
    "context_functions",
    "reserved_names",
    "RESERVED_NAMES",
    "RoundView",
    "SimpleRoundView",
    "RoundFacts",
    "NextDealView",
    "ENDINGS",
    "MAX_LENGTH",
    "MAX_DEPTH",
    "Expr",
]


def check_expression(text: str, env: Env, expect: Type | str | None = None) -> Checked:
    """Parse and check ``text`` in ``env``; ``expect`` is the result type (``None``: any).

    :raises ExpressionError: rules ``expr-syntax``, ``expr-limit``, ``expr-depth``,
        ``expr-name``, ``expr-type``.
    """
    return check(parse(text), env, expect)


def compile_expression(text: str, env: Env, expect: Type | str | None = None) -> Compiled:
    """Parse, check and compile ``text`` in ``env`` into a :class:`Compiled` closure.

    :param text: the expression.
    :param env: the context, deck, options, lets and meld kinds it may use.
    :param expect: the field's result type (a :class:`Type` or its name such as
        ``"int"``; ``None`` or ``"any"`` for a ``let``).
    :raises ExpressionError: rules ``expr-syntax``, ``expr-limit``, ``expr-depth``,
        ``expr-name``, ``expr-type``.

    >>> from rummydsl.cards import Deck
    >>> env = Env(Context.SCORE, Deck.preset("standard52"), options={"gin_bonus": 25})
    >>> points = compile_expression("gin_bonus + sum(deadwood(o) for o in opponents)", env, "int")
    >>> points(SimpleRoundView(ender="P1", ending="gin", deadwoods={"P1": 0, "P2": 30}))
    55
    >>> sorted(points.options)
    ['gin_bonus']
    """
    return compile_checked(check_expression(text, env, expect), text)


def reserved_names() -> frozenset[str]:
    """Every built-in name, function and keyword (options and lets may not use them)."""
    return RESERVED_NAMES


@dataclass(frozen=True)
class LetScope:
    """The ``scoring.let`` formulas: compiled in order, evaluated once per round.

    Each let may use the earlier ones; :attr:`env` is the score environment with
    every let so far, for compiling the formulas that follow. :meth:`evaluate`
    computes all values for one round; pass them as ``lets=`` to score formulas.

    >>> from rummydsl.cards import Deck
    >>> scope = LetScope(Env(Context.SCORE, Deck.preset("standard52")))
    >>> scope = scope.add("k", "deadwood(ender)").add("low", "min(deadwood(o) for o in opponents)")
    >>> view = SimpleRoundView(ender="P1", ending="knock", deadwoods={"P1": 7, "P2": 17})
    >>> values = scope.evaluate(view)
    >>> values
    {'k': 7, 'low': 17}
    >>> compile_expression("low - k", scope.env, "int")(view, lets=values)
    10
    """

    env: Env
    """The score environment, with every let compiled so far."""
    lets: tuple[tuple[str, Compiled], ...] = ()
    """``(name, compiled formula)`` in order."""

    def add(self, name: str, text: str) -> "LetScope":
        """A new scope with one more let.

        :raises ExpressionError: ``expr-name`` if ``name`` is a built-in name, an option
            or an earlier let; otherwise as :func:`compile_expression`.
        """
        if name in RESERVED_NAMES:
            raise ExpressionError(f"'let' name {name!r} is a built-in name; choose another", 0, 0, "expr-name")
        if name in self.env.options:
            raise ExpressionError(f"'let' name {name!r} is also an option; choose another", 0, 0, "expr-name")
        if any(name == other for other, _ in self.lets):
            raise ExpressionError(f"'let' name {name!r} is defined twice", 0, 0, "expr-name")
        compiled = compile_expression(text, self.env.with_player(False), ANY)
        return LetScope(self.env.with_let(name, compiled.type), self.lets + ((name, compiled),))

    def evaluate(self, view: Any) -> dict[str, Any]:
        """Every let's value for the round ``view`` describes, in order."""
        values: dict[str, Any] = {}
        for name, compiled in self.lets:
            values[name] = compiled.fn(view, None, values)
        return values

    def env_for(self, per_player: bool = False) -> Env:
        """The environment for a score formula after the lets (``p`` bound or not)."""
        return self.env.with_player(per_player)


def compile_lets(lets: Mapping[str, str], env: Env) -> LetScope:
    """Compile ``scoring.let`` (name → formula, in order) into a :class:`LetScope`.

    :raises ExpressionError: for the first bad let (use :meth:`LetScope.add` to go on
        after an error).
    """
    scope = LetScope(env)
    for name, text in lets.items():
        scope = scope.add(name, text)
    return scope
