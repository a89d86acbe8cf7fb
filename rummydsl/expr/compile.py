"""Compile checked expressions into Python closures (no ``eval``, no ``exec``).

Each AST node becomes a function of one *frame* argument; what the frame is
depends on the context, and :func:`compile_checked` wraps the tree in the call
form of its context:

========== ============================================ ===========================
context    call                                         frame the nodes see
========== ============================================ ===========================
card       ``fn(card) -> int | bool``                   the card
meld       ``fn(cards) -> bool``                        ``(size, natural ids, wilds)``
contract   ``fn([(kind, cards), ...], view=None)``      a ``ContractFrame``
round      ``fn(view, p=None, lets=None)``              a ``ScoreFrame``
score      ``fn(view, p=None, lets=None)``              a ``ScoreFrame``
deal       ``fn(view, p=None, lets=None)``              a ``ScoreFrame``
next_deal  ``fn(view)``                                 a ``ScoreFrame``
melded     ``fn(card, value, kind, position, size)``    that tuple
========== ============================================ ===========================

Runtime values: an int, a bool, a player or card as the caller gives them, a
string for a string option's value or a meld kind. A *rank* is its order (an
int, 0 for a wild card), a *suit* its index (-1 for a wild card), a *colour* its
name (``None`` for a wild card); so ``rank == A`` and ``rank <= 10`` are integer
comparisons. Options are constants, folded at compile time.

Meld predicates read per-deck tables (rank order, suit, colour and sequence
positions by card id) built once per deck (:mod:`rummydsl.expr.decktables`). Each
predicate makes its own choice of wild cards (docs/language.md, "melds"):

- ``same(a)``: the natural cards share ``a``;
- ``distinct(a)``: the natural cards differ pairwise in ``a``, and the wild cards
  can take values of ``a`` not used (values in the deck − values used ≥ wilds);
- ``count_distinct(a)``: an int, the most distinct values of ``a`` the group can
  show: the natural cards' distinct values, plus one per wild card standing for a
  value they lack, up to the number of values of ``a`` in the deck;
- ``consecutive(rank)``: the natural cards' ranks differ, and some window of
  ``size`` consecutive sequence positions holds a position of each (the lowest
  rank takes one of its positions, per ``deck.ace``; with ``deck.wrap`` the
  positions go round). No window is longer than the number of ranks, so a meld
  never uses the ace twice.

Integer ``//`` and ``%`` round down (Python's rules); by zero they raise
:class:`~rummydsl.errors.ExpressionError` with rule ``expr-runtime``. No integer an
expression computes may be larger than :data:`~rummydsl.limits.MAX_EXPR_INT` either
way: a ``+``, ``-``, ``*``, unary ``-`` or ``sum`` that would pass it raises
``expr-limit``, quoting the expression; a product is refused from its operands'
sizes, before it is computed. With constant operands (literals, options) that is
found when the expression is compiled, so ``rummydsl check`` reports it in place. ``min`` and
``max`` over an empty list give 0, ``sum`` and ``count`` 0, ``any`` false, ``all`` true.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, NamedTuple, Sequence, cast

from rummydsl.endings import SCORED_ENDING_NAMES
from rummydsl.errors import ExpressionError
from rummydsl.expr import ast
from rummydsl.expr.arith import ARITH, bounded_arith, runtime_error
from rummydsl.expr.check import Checked
from rummydsl.expr.compiled import (
    CardExpression, Compiled, CompiledExpression, ContractExpression, MeldedExpression, MeldPattern,
    RoundExpression,
)
from rummydsl.expr.contexts import CONTRACT_ROUND_NAMES, Context
from rummydsl.expr.decktables import DeckTables, deck_tables, meld_predicate
from rummydsl.expr.facts import ContractFacts, PatternFacts, contract_facts, pattern_facts
from rummydsl.expr.runtime import ContractFrame, ScoreFrame

# What a compiled expression is (expr/compiled.py) and the deck tables (expr/decktables.py)
# lived here first: still importable from here.
__all__ = [
    "Compiled",
    "compile_checked",
    "DeckTables",
    "deck_tables",
    "CompiledExpression",
    "CardExpression",
    "MeldPattern",
    "ContractExpression",
    "RoundExpression",
    "MeldedExpression",
]

Fn = Callable[[Any], Any]


# -- compilation ------------------------------------------------------------------


def _distance(a: Fn, b: Fn, node: ast.Node) -> Fn:
    """``distance(a, b)``: how many seats ``b`` sits to the left of ``a`` (play passes
    to the left, seat by seat), 0 when ``b`` is ``a``; ``players`` is in seat order.
    A player not seated (``ender`` of a round nobody ended) is an ``expr-runtime``
    error at the call."""
    def distance(x: Any) -> int:
        players = list(x.view.players)
        first, second = a(x), b(x)
        for player in (first, second):
            if player not in players:
                raise runtime_error(node, f"distance({first!r}, {second!r}): {player!r} is not a player of "
                                           "this round (a round ended at the stock floor has no ender)")
        return (players.index(second) - players.index(first)) % len(players)
    return distance


class _Code(NamedTuple):
    fn: Fn
    const: bool = False
    value: Any = None


def _const(value: Any) -> _Code:
    return _Code(lambda x: value, True, value)


def compile_checked(checked: Checked, text: str = "") -> Compiled:
    """Compile a :class:`~rummydsl.expr.check.Checked` expression into its context's call form.

    :raises ExpressionError: rule ``expr-limit`` when constant parts compute an
        integer past :data:`~rummydsl.limits.MAX_EXPR_INT`.
    """
    compiler = _Compiler(checked, text)
    code = compiler.compile(checked.ast)
    body = code.fn
    context = checked.env.context
    options = frozenset(n for n in checked.names if n in checked.env.options)
    fn: Callable[..., Any]
    if context is Context.CARD:
        fn = body
    elif context is Context.MELDED:
        def fn(card: Any, value: int, kind: str, position: int, size: int) -> Any:
            return body((card, value, kind, position, size))
    elif context is Context.MELD:
        def fn(cards: Sequence[Any]) -> Any:
            nat = [c.id for c in cards if not c.wild]
            size = len(cards)
            return body((size, nat, size - len(nat)))
    elif context is Context.CONTRACT:
        reads_round = bool(checked.names & CONTRACT_ROUND_NAMES)
        where_contract = checked.ast

        def fn(melds: Sequence[tuple[str, Sequence[Any]]], view: Any = None) -> Any:
            if view is None and reads_round:
                raise runtime_error(where_contract, "this contract reads the round ('round', 'dealer'...) "
                                                     "but no round was given")
            return body(ContractFrame(melds, view))
    else:
        uses_p = compiler.uses_p
        uses_lets = compiler.uses_lets
        empty: dict[str, Any] = {}
        where = checked.ast

        def fn(view: Any, p: Any = None, lets: Any = None) -> Any:
            if uses_p and p is None:
                raise runtime_error(where, "this expression uses 'p' but no player was given")
            if lets is None:
                if uses_lets:
                    raise runtime_error(where, "this expression uses 'let' names but no values were given")
                lets = empty
            return body(ScoreFrame(view, p, lets))
    facts: PatternFacts | ContractFacts | None = None
    if context is Context.MELD:
        facts = pattern_facts(checked.ast, checked.bindings)
    elif context is Context.CONTRACT:
        facts = contract_facts(checked.ast, checked.bindings)
    return Compiled(text, checked.type, context, checked.names, options, checked.ast, fn, code.const, facts)


_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
_MELDED_AT = {"value": 1, "kind": 2, "position": 3, "size": 4}
"""Where the melded-card frame ``(card, value, kind, position, size)`` holds each name."""


def _compare_constant(op: str, lf: Fn, rv: Any) -> Fn:
    """``left op constant`` without an operator call (the common case: ``size >= 3``)."""
    if op == "==":
        return lambda x: lf(x) == rv
    if op == "!=":
        return lambda x: lf(x) != rv
    if op == "<":
        return lambda x: lf(x) < rv
    if op == "<=":
        return lambda x: lf(x) <= rv
    if op == ">":
        return lambda x: lf(x) > rv
    return lambda x: lf(x) >= rv


_VIEW_METHODS: dict[str, tuple[str, Callable[[Any], Any] | None]] = {
    "value": ("value", None),
    "score": ("score", None),
    "deadwood": ("deadwood", None),
    "met_contract": ("met_contract", bool),
    "next": ("next", None),
    "hand_value": ("hand_value", None),
    "melded_turns": ("melded_turns", int),
    "melded": ("melded_points", None),
    "others": ("others", None),
    "points": ("points", None),
    "total": ("total", None),
}
"""Functions of the round and score contexts that call a method of the view (:mod:`.runtime`),
with what the result is cast to."""


class _Compiler:
    def __init__(self, checked: Checked, text: str = "") -> None:
        self.checked = checked
        self.text = text
        self.env = checked.env
        self.context = checked.env.context
        self.tables = deck_tables(checked.env.deck)
        self.uses_p = False
        self.uses_lets = False

    def compile(self, node: ast.Expr) -> _Code:
        method: Callable[[Any], _Code] = getattr(self, "c_" + type(node).__name__)
        code = method(node)
        return code

    def fold(self, node: ast.Node, fn: Fn, parts: Sequence[_Code]) -> _Code:
        """``fn`` as a constant when all its parts are (and it evaluates without error)."""
        if all(part.const for part in parts):
            try:
                return _const(fn(None))
            except ExpressionError as problem:
                if problem.rule == "expr-limit":  # the same at every call: say so now
                    raise
        return _Code(fn)

    # -- leaves -------------------------------------------------------------------

    def c_IntLit(self, node: ast.IntLit) -> _Code:
        return _const(node.value)

    def c_BoolLit(self, node: ast.BoolLit) -> _Code:
        return _const(node.value)

    def c_Name(self, node: ast.Name) -> _Code:
        kind, what = self.checked.bindings[id(node)]
        if kind in ("symbol", "option"):
            return _const(what)
        if kind == "let":
            self.uses_lets = True
            return _Code(lambda x: x.lets[what])
        if kind == "loop":
            return _Code(lambda x: x.vars[what])
        return self.context_name(node, what)

    def context_name(self, node: ast.Node, name: str) -> _Code:
        context = self.context
        if context is Context.CARD:
            table = self.card_table(name)
            return _Code(lambda card: table[card.id])
        if context is Context.MELDED:
            at = _MELDED_AT.get(name)
            if at is not None:
                return _Code(operator.itemgetter(at))
            table = self.card_table(name)
            return _Code(lambda x: table[x[0].id])
        if context is Context.MELD:
            if name == "size":
                return _Code(lambda x: x[0])
            if name == "naturals":
                return _Code(lambda x: len(x[1]))
            return _Code(lambda x: x[2])
        if context is Context.CONTRACT and name in ("count", "cards", "size", "kind"):
            getter = {"count": lambda x: len(x.melds), "cards": lambda x: x.total,
                      "size": lambda x: x.size, "kind": lambda x: x.kind}[name]
            return _Code(getter)
        if name == "p":
            self.uses_p = True
            return _Code(lambda x: x.p)
        if name == "player_count":
            return _Code(lambda x: len(x.view.players))
        if name in SCORED_ENDING_NAMES:
            return _Code(lambda x: x.view.ending == name)
        get = operator.attrgetter(name)
        return _Code(lambda x: get(x.view))

    def card_table(self, name: str) -> Sequence[Any]:
        tables = self.tables
        return {
            "rank": tables.order,
            "order": tables.order,
            "suit": tables.suit,
            "colour": tables.colour,
            "pips": tables.pips,
            "wild": tables.wild,
        }[name]

    def c_Attribute(self, node: ast.Attribute) -> _Code:
        obj = self.compile(node.obj).fn
        table = self.card_table(node.name)
        attr = node.name

        def attribute(x: Any) -> Any:
            card = obj(x)
            if card is None:
                raise runtime_error(node, f"there is no card to take {attr!r} of")
            return table[card.id]

        return _Code(attribute)

    # -- operators ----------------------------------------------------------------

    def c_Neg(self, node: ast.Neg) -> _Code:
        inner = self.compile(node.operand)
        f = inner.fn
        negate = bounded_arith("-", node, self.text)
        return self.fold(node, lambda x: negate(0, f(x)), [inner])

    def c_Not(self, node: ast.Not) -> _Code:
        inner = self.compile(node.operand)
        f = inner.fn
        return self.fold(node, lambda x: not f(x), [inner])

    def c_BinOp(self, node: ast.BinOp) -> _Code:
        left, right = self.compile(node.left), self.compile(node.right)
        lf, rf = left.fn, right.fn
        fn: Fn
        if node.op in ARITH:
            op = bounded_arith(node.op, node, self.text)
            if right.const:
                rv = right.value
                fn = lambda x: op(lf(x), rv)  # noqa: E731
            else:
                fn = lambda x: op(lf(x), rf(x))  # noqa: E731
        else:
            op = operator.floordiv if node.op == "//" else operator.mod

            def fn(x: Any) -> Any:
                divisor = rf(x)
                if divisor == 0:
                    raise runtime_error(node, "division by zero")
                return op(lf(x), divisor)

        return self.fold(node, fn, [left, right])

    def c_BoolOp(self, node: ast.BoolOp) -> _Code:
        left, right = self.compile(node.left), self.compile(node.right)
        lf, rf = left.fn, right.fn
        if node.op == "and":
            if left.const:
                return right if left.value else _const(False)
            return self.fold(node, lambda x: lf(x) and rf(x), [left, right])
        if left.const:
            return _const(True) if left.value else right
        return self.fold(node, lambda x: lf(x) or rf(x), [left, right])

    def c_Conditional(self, node: ast.Conditional) -> _Code:
        test = self.compile(node.test)
        then, otherwise = self.compile(node.then), self.compile(node.otherwise)
        if test.const:
            return then if test.value else otherwise
        tf, af, bf = test.fn, then.fn, otherwise.fn
        return _Code(lambda x: af(x) if tf(x) else bf(x))

    def c_Compare(self, node: ast.Compare) -> _Code:
        left, right = self.compile(node.left), self.compile(node.right)
        op = _COMPARE[node.op]
        lf, rf = left.fn, right.fn
        fn: Fn
        if right.const:
            fn = _compare_constant(node.op, lf, right.value)
        elif left.const:
            lv = left.value
            fn = lambda x: op(lv, rf(x))  # noqa: E731
        else:
            fn = lambda x: op(lf(x), rf(x))  # noqa: E731
        return self.fold(node, fn, [left, right])

    def c_InOp(self, node: ast.InOp) -> _Code:
        element = self.compile(node.left)
        ef = element.fn
        container = node.right
        negated = node.op == "not in"
        fn: Fn
        parts = [element]
        if isinstance(container, ast.Range):
            low, high = self.compile(container.low), self.compile(container.high)
            parts += [low, high]
            if low.const and high.const:
                lo, hi = low.value, high.value
                fn = lambda x: lo <= ef(x) <= hi  # noqa: E731
            else:
                lf, hf = low.fn, high.fn
                fn = lambda x: lf(x) <= ef(x) <= hf(x)  # noqa: E731
        else:
            items = self.compile(container)
            parts.append(items)
            if items.const:
                values = items.value
                try:
                    values = frozenset(values)
                except TypeError:  # pragma: no cover - constants are ints, bools and strings
                    pass
                fn = lambda x: ef(x) in values  # noqa: E731
            else:
                cf = items.fn
                fn = lambda x: ef(x) in cf(x)  # noqa: E731
        if negated:
            inner = fn
            fn = lambda x: not inner(x)  # noqa: E731
        return self.fold(node, fn, parts)

    def c_ListExpr(self, node: ast.ListExpr) -> _Code:
        items = [self.compile(item) for item in node.items]
        if all(item.const for item in items):
            return _const(tuple(item.value for item in items))
        fns = [item.fn for item in items]
        return _Code(lambda x: [f(x) for f in fns])

    def c_Range(self, node: ast.Range) -> _Code:  # pragma: no cover - handled by c_InOp
        raise runtime_error(node, "a range 'a..b' can only follow 'in'")

    # -- calls --------------------------------------------------------------------

    def c_Call(self, node: ast.Call) -> _Code:
        name = node.func
        if name in ("same", "distinct", "consecutive", "count_distinct"):
            selector = cast(ast.Name, node.args[0]).id  # the checker allows only a bare name here
            return _Code(meld_predicate(self.tables, name, selector))
        if name in ("all", "any", "count_where"):
            return _Code(self.per_meld(name, self.compile(node.args[0]).fn))
        args = [self.compile(arg) for arg in node.args]
        fns = [a.fn for a in args]
        fn: Fn
        if name in ("min", "max"):
            pick = min if name == "min" else max
            if len(fns) == 1:
                fn = fns[0]
            elif len(fns) == 2:
                a, b = fns
                fn = lambda x: pick(a(x), b(x))  # noqa: E731
            else:
                fn = lambda x: pick([f(x) for f in fns])  # noqa: E731
            return self.fold(node, fn, args)
        if name == "abs":
            f = fns[0]
            return self.fold(node, lambda x: abs(f(x)), args)
        if name == "distance":
            return _Code(_distance(fns[0], fns[1], node))
        method, convert = _VIEW_METHODS[name]  # the rest ask the round's view
        f = fns[0]
        if convert is None:
            return _Code(lambda x: getattr(x.view, method)(f(x)))
        return _Code(lambda x: convert(getattr(x.view, method)(f(x))))

    def per_meld(self, name: str, test: Fn) -> Fn:
        if name == "all":
            def run_all(x: ContractFrame) -> bool:
                for kind, cards in x.melds:
                    x.kind, x.size = kind, len(cards)
                    if not test(x):
                        return False
                return True
            return run_all
        if name == "any":
            def run_any(x: ContractFrame) -> bool:
                for kind, cards in x.melds:
                    x.kind, x.size = kind, len(cards)
                    if test(x):
                        return True
                return False
            return run_any

        def count_where(x: ContractFrame) -> int:
            total = 0
            for kind, cards in x.melds:
                x.kind, x.size = kind, len(cards)
                if test(x):
                    total += 1
            return total
        return count_where

    def c_Aggregate(self, node: ast.Aggregate) -> _Code:
        name, var = node.func, node.var
        it = self.compile(node.iterable).fn
        el = self.compile(node.element).fn

        if name == "sum" or name == "count":
            add = bounded_arith("+", node, self.text)

            def run(x: ScoreFrame) -> Any:
                variables = x.vars
                total = 0
                for item in it(x):
                    variables[var] = item
                    value = el(x)
                    total = total + (1 if value else 0) if name == "count" else add(total, value)
                variables.pop(var, None)
                return total
        elif name in ("min", "max"):
            pick = min if name == "min" else max

            def run(x: ScoreFrame) -> Any:
                variables = x.vars
                values = []
                for item in it(x):
                    variables[var] = item
                    values.append(el(x))
                variables.pop(var, None)
                return pick(values) if values else 0
        else:
            want = name == "any"

            def run(x: ScoreFrame) -> Any:
                variables = x.vars
                try:
                    for item in it(x):
                        variables[var] = item
                        if bool(el(x)) is want:
                            return want
                    return not want
                finally:
                    variables.pop(var, None)
        return _Code(run)
