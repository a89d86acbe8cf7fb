"""The contexts of expressions: which names and functions each may use, and the options.

A field of a variant is checked in its context (docs/language.md, "Contexts"), described
by a frozen :class:`Env`: the context, the deck, the options, the ``let`` names in scope.
The tables here are what :func:`rummydsl.expr.check.check` looks names up in.

>>> context_names(Context.MELD)
('size', 'naturals', 'wilds')
>>> FIELDS["knock.limit"].context is Context.ROUND
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping

from rummydsl.endings import SCORED_ENDING_NAMES
from rummydsl.errors import ExpressionError
from rummydsl.expr.types import ANY, BOOL, CARD, COLOUR, INT, PLAYER, RANK, SUIT, SYMBOL, Type, enum_of, list_of
from rummydsl.suggest import closest

__all__ = [
    "Context",
    "Choice",
    "Env",
    "context_names",
    "context_functions",
    "RESERVED_NAMES",
    "LAST_ROUND_NAMES",
    "CONTRACT_ROUND_NAMES",
    "Field",
    "FIELDS",
    "NAMES",
    "CONTRACT_INNER",
    "CARD_ATTRIBUTES",
    "FUNCTIONS",
    "AGGREGATES",
    "HAS_LISTS",
    "SELECTORS",
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
    REWARD = "reward"
    """A learning environment's ``reward=`` (docs/environments.md): a round that was
    scored, for the seat ``p`` rewarded."""


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
CARD_ATTRIBUTES = dict(_CARD_NAMES)
"""The attributes of a card value (``upcard.rank``), with their types."""
_MELD_NAMES = {"size": INT, "naturals": INT, "wilds": INT}
_DEAL_NAMES = {
    "player_count": INT,
    "players": list_of(PLAYER),
    "round": INT,
    "dealer": PLAYER,
}
_CONTRACT_NAMES = {"count": INT, "cards": INT}
CONTRACT_INNER = ("size", "kind")
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
_REWARD_NAMES = {
    **_ROUND_NAMES,
    "ender": PLAYER,
    "opponents": list_of(PLAYER),
    "turns": INT,
    "undercut": BOOL,
    "void": BOOL,
    **{ending: BOOL for ending in SCORED_ENDING_NAMES},
}
"""The reward context: the score context's names that a round's result settles (the
round's own upcard, dealer, number and hand size; who ended it and how), with the turns
it took, whether a knock was undercut and whether it was void."""

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

NAMES: dict[Context, dict[str, Type]] = {
    Context.CARD: _CARD_NAMES,
    Context.MELD: _MELD_NAMES,
    Context.CONTRACT: _CONTRACT_NAMES,
    Context.ROUND: _ROUND_NAMES,
    Context.SCORE: _SCORE_NAMES,
    Context.MELDED: _MELDED_NAMES,
    Context.DEAL: _DEAL_NAMES,
    Context.NEXT_DEAL: _NEXT_DEAL_NAMES,
    Context.REWARD: _REWARD_NAMES,
}
"""Each context's built-in names, with their types."""

_COMMON_FUNCTIONS = ("min", "max", "abs")
AGGREGATES = ("sum", "min", "max", "count", "any", "all")
"""The functions that may take a ``for`` (``sum(value(c) for c in ...)``)."""
FUNCTIONS: dict[Context, tuple[str, ...]] = {
    Context.CARD: _COMMON_FUNCTIONS,
    Context.MELD: _COMMON_FUNCTIONS + ("same", "distinct", "consecutive", "count_distinct"),
    Context.CONTRACT: _COMMON_FUNCTIONS + ("all", "any", "count_where", "value", "score"),
    Context.ROUND: _COMMON_FUNCTIONS + ("value", "score", "distance"),
    Context.SCORE: _COMMON_FUNCTIONS + ("value", "score", "distance", "others", "deadwood", "met_contract",
                                       "hand_value", "melded_turns", "melded"),
    Context.DEAL: _COMMON_FUNCTIONS + ("score", "distance"),
    Context.NEXT_DEAL: _COMMON_FUNCTIONS + ("score", "next"),
    Context.MELDED: _COMMON_FUNCTIONS,
    Context.REWARD: _COMMON_FUNCTIONS + ("value", "score", "distance", "others", "deadwood", "points", "total"),
}
"""Each context's own functions (the aggregates are added where it has lists)."""
HAS_LISTS = (Context.ROUND, Context.SCORE, Context.DEAL, Context.NEXT_DEAL, Context.REWARD)
"""The contexts with list values, where every aggregate may be called."""
SELECTORS = ("rank", "suit", "colour")
"""What ``same``, ``distinct`` and ``count_distinct`` may compare."""
_KEYWORDS = ("and", "or", "not", "in", "for", "true", "false")


def context_names(context: Context, per_player: bool = False) -> tuple[str, ...]:
    """The built-in names of a context (without options and lets).

    >>> context_names(Context.CARD)
    ('rank', 'suit', 'colour', 'order', 'pips', 'wild')
    """
    names = tuple(NAMES[context])
    if context is Context.CONTRACT:
        names += CONTRACT_INNER
    if (context is Context.SCORE and per_player) or context is Context.REWARD:
        names += ("p",)
    return names


def context_functions(context: Context) -> tuple[str, ...]:
    """The functions (and aggregates) a context may call.

    >>> context_functions(Context.MELD)
    ('min', 'max', 'abs', 'same', 'distinct', 'consecutive', 'count_distinct')
    """
    functions = FUNCTIONS[context]
    if context in HAS_LISTS:
        functions += tuple(a for a in AGGREGATES if a not in functions)
    return functions


RESERVED_NAMES: frozenset[str] = frozenset(
    [name for context in Context if context is not Context.REWARD for name in context_names(context, True)]
    + [name for context in Context if context is not Context.REWARD for name in context_functions(context)]
    + list(_KEYWORDS)
)
"""Every built-in name, function and keyword of a variant's contexts: options and lets
may not use these. The reward context's own names (``points``, ``total``, ``turns``,
``undercut``, ``void``) are not among them: a variant wrote them first (gin_rummy's let
``undercut``), and a reward sees no lets; there a built-in name hides an option of the same name."""


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
