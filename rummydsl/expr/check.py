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

import enum
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from rummydsl.endings import SCORED_ENDING_NAMES
from rummydsl.errors import ExpressionError
from rummydsl.expr import ast
from rummydsl.expr.parser import parse
from rummydsl.suggest import closest

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


class Context(str, enum.Enum):
    """Where an expression is written, which decides the names it may use."""

    CARD = "card"
    """``card_value``, ``draw.skip_after_accepting``: one card."""
    MELD = "meld"
    """A meld pattern: a group of cards."""
    CONTRACT = "contract"
    """``contract.melds``: the melds of a first lay-down (and the round names, CR-2)."""
    ROUND = "round"
    """``knock.limit``: the round being played."""
    DEAL = "deal"
    """``deal.hand_size``: a deal about to be made (the players, the deal's number, the totals)."""
    SCORE = "score"
    """``scoring.*``: the round that just ended."""
    NEXT_DEAL = "next_deal"
    """``deal.sit_out``: the next deal of a game, after the last round (if any)."""
    MELDED = "melded"
    """``melded_value``: one card as it lies in a table meld (R5-1)."""


@dataclass(frozen=True)
class Type:
    """The type of a value in an expression.

    ``name`` is one of ``int bool rank suit colour card player list range enum``,
    ``any`` (a ``let`` may be anything; only as an expectation) or ``symbol`` (a
    bare name not yet resolved: a deck symbol or an enum value).

    >>> str(list_of(PLAYER)), str(enum_of("knock_points", ("a", "b")))
    ('list[player]', 'knock_points (a or b)')
    """

    name: str
    item: "Type | None" = None
    """The item type of a list or range."""
    values: tuple[str, ...] = ()
    """The values of an enum."""
    label: str = field(default="", compare=False)
    """What an enum is (an option's name, ``meld kind``), for messages."""

    def __str__(self) -> str:
        if self.name in ("list", "range"):
            return f"{self.name}[{self.item}]"
        if self.name == "enum":
            return f"{self.label} ({' or '.join(self.values)})"
        if self.name == "symbol":
            return "a bare name"
        return self.name


INT = Type("int")
BOOL = Type("bool")
RANK = Type("rank")
SUIT = Type("suit")
COLOUR = Type("colour")
CARD = Type("card")
PLAYER = Type("player")
ANY = Type("any")
SYMBOL = Type("symbol")
EMPTY = Type("empty")  # the item type of []


def list_of(item: Type) -> Type:
    """The type ``list[item]``."""
    return Type("list", item)


def range_of(item: Type) -> Type:
    """The type ``range[item]`` (``item`` is int or rank)."""
    return Type("range", item)


def _item(container: Type) -> Type:
    """The item type of a list or range type (which always has one)."""
    assert container.item is not None
    return container.item


def enum_of(label: str, values: Iterable[str]) -> Type:
    """An enum: the values of a string option (``label`` is its name) or the meld kinds."""
    return Type("enum", values=tuple(values), label=label)


_TYPE_NAMES = {t.name: t for t in (INT, BOOL, RANK, SUIT, COLOUR, CARD, PLAYER, ANY)}


def type_named(name: "str | Type | None") -> Type:
    """A :class:`Type` from its name (``"int"``, ``"bool"``, ``"any"``...); ``None`` is ``any``.

    :raises ExpressionError: rule ``expr-type``, for a name that is not a type's.

    >>> type_named("bool") is BOOL, type_named(None) is ANY
    (True, True)
    >>> type_named("integer")
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: unknown type name 'integer'; expected one of int, bool, rank, suit, colour, card, player, any
    """
    if name is None:
        return ANY
    if isinstance(name, Type):
        return name
    found = _TYPE_NAMES.get(name) if isinstance(name, str) else None
    if found is None:
        raise ExpressionError(f"unknown type name {name!r}; expected one of {', '.join(_TYPE_NAMES)}",
                              0, 0, "expr-type")
    return found


_WORDS = {"int": "integers", "bool": "booleans", "rank": "ranks", "suit": "suits", "colour": "colours"}


@dataclass(frozen=True)
class Choice:
    """The value of a string option and the values it may take (``one_of``).

    :raises ExpressionError: rule ``option-value``, if ``value`` is not one of ``one_of``.

    >>> Choice("sum_of_differences", ("sum_of_differences", "lowest_difference")).value
    'sum_of_differences'
    >>> Choice("lowest_diference", ("sum_of_differences", "lowest_difference"))
    Traceback (most recent call last):
    ...
    rummydsl.errors.ExpressionError: 'lowest_diference' is not one of sum_of_differences, lowest_difference; did you mean 'lowest_difference'?
    """

    value: str
    one_of: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "one_of", tuple(self.one_of))
        if self.value not in self.one_of:
            close = closest(self.value, self.one_of) if isinstance(self.value, str) else None
            hint = f"; did you mean {close!r}?" if close else ""
            raise ExpressionError(f"{self.value!r} is not one of {', '.join(map(str, self.one_of))}{hint}",
                                  0, 0, "option-value")


OptionValue = "int | bool | Choice"


@dataclass(frozen=True)
class Env:
    """Everything an expression may refer to: the checker's whole input.

    >>> from rummydsl.cards import Deck
    >>> env = Env(Context.SCORE, Deck.preset("standard52"), options={"gin_bonus": 25}, per_player=True)
    >>> env.option_type("gin_bonus")
    Type(name='int', item=None, values=(), label='')
    """

    context: Context
    """Which names exist (docs/language.md "Contexts")."""
    deck: Any
    """The variant's :class:`~rummydsl.cards.Deck` (symbols, ranks, sequence rules)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Option name → value: an int, a bool, a :class:`Choice` (or any object with
    ``value`` and ``one_of``, such as the variant model's ``Option``)."""
    lets: tuple[tuple[str, Type], ...] = ()
    """The ``scoring.let`` names visible here, with their types, in order."""
    meld_kinds: tuple[str, ...] = ()
    """The declared meld kind names (what ``kind`` is compared with)."""
    per_player: bool = False
    """Whether ``p`` (the player being scored) is bound: ``points`` and ``others``."""
    has_upcard: bool = True
    """Whether the variant deals an upcard (otherwise ``upcard`` is an error)."""

    def __post_init__(self) -> None:
        if not isinstance(self.context, Context):
            try:
                object.__setattr__(self, "context", Context(self.context))
            except ValueError:
                contexts = ", ".join(c.value for c in Context)
                raise ExpressionError(f"unknown context {self.context!r}; expected one of {contexts}",
                                      0, 0, "expr-name") from None
        for name, value in self.options.items():
            _value_type(name, value)

    def option_type(self, name: str) -> Type:
        """The type of option ``name``.

        :raises ExpressionError: rule ``expr-name``, if there is no option ``name``.
        """
        return _value_type(name, self._option(name))

    def option_value(self, name: str) -> Any:
        """The value of option ``name`` (a string for a string option).

        :raises ExpressionError: rule ``expr-name``, if there is no option ``name``.
        """
        value = self._option(name)
        if isinstance(value, (bool, int)):
            return value
        return getattr(value, "value")

    def _option(self, name: str) -> Any:
        try:
            return self.options[name]
        except KeyError:
            close = closest(name, self.options)
            hint = f"did you mean {close!r}? " if close else ""
            listing = ", ".join(self.options) or "none"
            raise ExpressionError(f"no option {name!r} ({hint}options: {listing})", 0, 0, "expr-name") from None

    def with_let(self, name: str, type_: Type) -> "Env":
        """This environment plus one more ``let`` name."""
        return Env(self.context, self.deck, self.options, self.lets + ((name, type_),),
                   self.meld_kinds, self.per_player, self.has_upcard)

    def with_player(self, per_player: bool = True) -> "Env":
        """This environment with ``p`` bound (or not)."""
        return Env(self.context, self.deck, self.options, self.lets, self.meld_kinds,
                   per_player, self.has_upcard)


def _value_type(name: str, value: Any) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    inner = getattr(value, "value", None)
    one_of = getattr(value, "one_of", None)
    if isinstance(inner, bool):
        return BOOL
    if isinstance(inner, int):
        return INT
    if isinstance(inner, str) and one_of:
        return enum_of(name, tuple(one_of))
    raise ExpressionError(f"option {name!r}: a value must be an integer, a boolean or a Choice, got {value!r}",
                          0, 0, "option-value")


# -- the names of each context ----------------------------------------------------

_CARD_NAMES = {"rank": RANK, "suit": SUIT, "colour": COLOUR, "order": INT, "pips": INT, "wild": BOOL}
_CARD_ATTRIBUTES = dict(_CARD_NAMES)
_MELD_NAMES = {"size": INT, "naturals": INT, "wilds": INT}
_DEAL_NAMES = {
    "player_count": INT,
    "players": list_of(PLAYER),
    "round": INT,
    "dealer": PLAYER,
}
_CONTRACT_NAMES = {"count": INT, "cards": INT}
_CONTRACT_INNER = ("size", "kind")
_MELDED_NAMES = {**_CARD_NAMES, "value": INT, "kind": SYMBOL, "position": INT, "size": INT}
"""The melded-card context: the card names, its card_value, and its table meld's kind
(an enum of the meld kinds: ``SYMBOL`` here stands for it), its place from the low end
and its size."""
_ROUND_NAMES = {
    "upcard": CARD,
    "dealer": PLAYER,
    "round": INT,
    "hand_size": INT,
    "players": list_of(PLAYER),
    "player_count": INT,
}
_SCORE_NAMES = {
    **_ROUND_NAMES,
    "ender": PLAYER,
    "opponents": list_of(PLAYER),
    **{ending: BOOL for ending in SCORED_ENDING_NAMES},
}

_NEXT_DEAL_NAMES = {
    "round": INT,
    "dealer": PLAYER,
    "players": list_of(PLAYER),
    "last_sat_out": PLAYER,
    "last_winner": PLAYER,
    "last_loser": PLAYER,
    "last_void": BOOL,
}
LAST_ROUND_NAMES = ("last_sat_out", "last_winner", "last_loser", "last_void")
"""The next-deal names that describe the last round: none of them has a value in round 1."""
_CONTRACT_NAMES.update(_ROUND_NAMES)  # CR-2: a contract may differ by deal ('round == 1 ? ...')

#: The names a contract reads from the round (not from the melds): a contract that
#: uses one of these is judged against a round view.
CONTRACT_ROUND_NAMES: frozenset[str] = frozenset(_ROUND_NAMES) | {"value", "score"}

_NAMES: dict[Context, dict[str, Type]] = {
    Context.CARD: _CARD_NAMES,
    Context.MELD: _MELD_NAMES,
    Context.CONTRACT: _CONTRACT_NAMES,
    Context.ROUND: _ROUND_NAMES,
    Context.SCORE: _SCORE_NAMES,
    Context.MELDED: _MELDED_NAMES,
    Context.DEAL: _DEAL_NAMES,
    Context.NEXT_DEAL: _NEXT_DEAL_NAMES,
}

_COMMON_FUNCTIONS = ("min", "max", "abs")
_AGGREGATES = ("sum", "min", "max", "count", "any", "all")
_FUNCTIONS: dict[Context, tuple[str, ...]] = {
    Context.CARD: _COMMON_FUNCTIONS,
    Context.MELD: _COMMON_FUNCTIONS + ("same", "distinct", "consecutive", "count_distinct"),
    Context.CONTRACT: _COMMON_FUNCTIONS + ("all", "any", "count_where", "value", "score"),
    Context.ROUND: _COMMON_FUNCTIONS + ("value", "score", "distance"),
    Context.SCORE: _COMMON_FUNCTIONS + ("value", "score", "distance", "others", "deadwood", "met_contract",
                                       "hand_value", "melded_turns", "melded"),
    Context.DEAL: _COMMON_FUNCTIONS + ("score", "distance"),
    Context.NEXT_DEAL: _COMMON_FUNCTIONS + ("score", "next"),
    Context.MELDED: _COMMON_FUNCTIONS,
}
_HAS_LISTS = (Context.ROUND, Context.SCORE, Context.DEAL, Context.NEXT_DEAL)
_SELECTORS = ("rank", "suit", "colour")
_KEYWORDS = ("and", "or", "not", "in", "for", "true", "false")


def context_names(context: Context, per_player: bool = False) -> tuple[str, ...]:
    """The built-in names of a context (without options and lets).

    >>> context_names(Context.CARD)
    ('rank', 'suit', 'colour', 'order', 'pips', 'wild')
    """
    names = tuple(_NAMES[context])
    if context is Context.CONTRACT:
        names += _CONTRACT_INNER
    if context is Context.SCORE and per_player:
        names += ("p",)
    return names


def context_functions(context: Context) -> tuple[str, ...]:
    """The functions (and aggregates) a context may call.

    >>> context_functions(Context.MELD)
    ('min', 'max', 'abs', 'same', 'distinct', 'consecutive', 'count_distinct')
    """
    functions = _FUNCTIONS[context]
    if context in _HAS_LISTS:
        functions += tuple(a for a in _AGGREGATES if a not in functions)
    return functions


RESERVED_NAMES: frozenset[str] = frozenset(
    [name for context in Context for name in context_names(context, True)]
    + [name for context in Context for name in context_functions(context)]
    + list(_KEYWORDS)
)
"""Every built-in name, function and keyword: options and lets may not use these."""


@dataclass(frozen=True)
class Field:
    """What a variant field's expression is: its context, its result type, whether ``p`` is bound."""

    context: Context
    type: Type
    per_player: bool = False


FIELDS: Mapping[str, Field] = {
    "card_value": Field(Context.CARD, INT),
    "turn.draw.skip_after_accepting": Field(Context.CARD, BOOL),
    "melds": Field(Context.MELD, BOOL),
    "contract.melds": Field(Context.CONTRACT, BOOL),
    "melded_value": Field(Context.MELDED, INT),
    "knock.limit": Field(Context.ROUND, INT),
    "deal.hand_size": Field(Context.DEAL, INT),
    "scoring.let": Field(Context.SCORE, ANY),
    "scoring.multiplier": Field(Context.SCORE, INT),
    "scoring.round.when": Field(Context.SCORE, BOOL),
    "scoring.round.points": Field(Context.SCORE, INT, per_player=True),
    "scoring.round.ender": Field(Context.SCORE, INT),
    "scoring.round.others": Field(Context.SCORE, INT, per_player=True),
    "deal.sit_out": Field(Context.NEXT_DEAL, PLAYER),
}
"""The context and result type of every expression field of a variant."""


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
        if context is Context.CONTRACT and name in _CONTRACT_INNER:
            if not self.in_meld:
                return None
            return INT if name == "size" else self.kind_type
        names = _NAMES[context]
        if name not in names:
            if name == "p" and context is Context.SCORE and self.env.per_player:
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
            names = [n for n in names if n not in _CONTRACT_INNER]
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
        if name == "upcard" and context in (Context.ROUND, Context.SCORE):
            return _error(node, "this variant deals no upcard", "expr-name")
        if name == "p" and context is Context.SCORE:
            return _error(node, "'p' (the player being scored) exists only in 'points' and 'others'",
                          "expr-name")
        if context is Context.CONTRACT and name in _CONTRACT_INNER:
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
        found_item = _item(found)
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
        if node.name not in _CARD_ATTRIBUTES:
            close = _suggest(node.name, _CARD_ATTRIBUTES)
            hint = f"; did you mean {close!r}?" if close else f"; a card has {', '.join(_CARD_ATTRIBUTES)}"
            raise _error(node, f"a card has no attribute {node.name!r}{hint}", "expr-name")
        return _CARD_ATTRIBUTES[node.name]

    def function_known(self, node: ast.Node, name: str, aggregate: bool) -> None:
        functions = context_functions(self.context)
        if name in functions and (aggregate or name in _FUNCTIONS[self.context] or self.context in _HAS_LISTS):
            if aggregate and name not in _AGGREGATES:
                raise _error(node, f"{name!r} is not an aggregate: only {', '.join(_AGGREGATES)} "
                             f"take 'e for x in xs'")
            self.names.add(name)
            return
        if aggregate and name in _AGGREGATES and self.context not in _HAS_LISTS:
            raise _error(node, f"there are no lists in the {self.context.value} context to "
                         f"aggregate over", "expr-name")
        for other in Context:
            if name in _FUNCTIONS[other] and other is not self.context:
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
            allowed = ("rank",) if name == "consecutive" else _SELECTORS
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
                    "melded_turns", "melded"):
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
        item = _item(iterable)
        self.loops.append((var, item if item != EMPTY else PLAYER))
        try:
            if name in ("sum", "min", "max"):
                self.expect(node.element, INT, f"{name!r}")
            else:
                self.expect(node.element, BOOL, f"{name!r}")
        finally:
            self.loops.pop()
        return BOOL if name in ("any", "all") else INT

