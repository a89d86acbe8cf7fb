"""What a compiled expression is: :class:`Compiled`, and a protocol per context's call form.

The variant model types its expression fields with these protocols, so a type checker
knows what ``variant.knock.limit(view)`` gives; :func:`rummydsl.expr.compile.compile_checked`
makes the :class:`Compiled` objects.

>>> from rummydsl.cards import Deck
>>> from rummydsl.expr import INT, Context, Env, compile_expression
>>> value = compile_expression("pips", Env(Context.CARD, Deck.preset("standard52")), INT)
>>> isinstance(value, Compiled), value
(True, <Compiled card int 'pips'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, TypeVar

from rummydsl.expr import ast
from rummydsl.expr.contexts import Context
from rummydsl.expr.facts import ContractFacts, PatternFacts
from rummydsl.expr.runtime import RoundView
from rummydsl.expr.types import Type

if TYPE_CHECKING:
    from rummydsl.cards import Card

__all__ = [
    "CompiledExpression",
    "CardExpression",
    "MeldPattern",
    "ContractExpression",
    "RoundExpression",
    "MeldedExpression",
    "Compiled",
]

T_co = TypeVar("T_co", covariant=True)


class CompiledExpression(Protocol):
    """What every compiled expression has, whatever its context.

    A :class:`Compiled` is one; the protocols below add the call form of each
    context, so a type checker knows what ``variant.knock.limit(view)`` gives.
    """

    @property
    def text(self) -> str:
        """The source text."""

    @property
    def type(self) -> Type:
        """The type of the result."""

    @property
    def context(self) -> Context:
        """The context it was compiled for."""

    @property
    def names(self) -> frozenset[str]:
        """The context names, options, lets and functions it uses."""

    @property
    def options(self) -> frozenset[str]:
        """The options it uses."""

    @property
    def constant(self) -> bool:
        """Whether the value does not depend on its input."""

    @property
    def facts(self) -> PatternFacts | ContractFacts | None:
        """A meld pattern's :class:`PatternFacts`, a contract's :class:`ContractFacts`, else None."""


class CardExpression(CompiledExpression, Protocol[T_co]):
    """A compiled card-context expression, ``fn(card)``: ``card_value`` (an int),
    ``draw.skip_after_accepting`` (a bool)."""

    @property
    def fn(self) -> Callable[[Card], T_co]:
        """The bare closure."""

    def __call__(self, card: Card) -> T_co:
        """The value for one card of the variant's deck."""


class MeldPattern(CompiledExpression, Protocol):
    """A compiled meld pattern, ``pattern(cards) -> bool``; ``facts`` is its :class:`PatternFacts`."""

    @property
    def fn(self) -> Callable[[Sequence[Card]], bool]:
        """The bare closure."""

    def __call__(self, cards: Sequence[Card]) -> bool:
        """Whether the group of cards (wild cards included) forms this kind."""


class ContractExpression(CompiledExpression, Protocol):
    """A compiled contract, ``melds([(kind, cards), ...], view=None) -> bool``; ``facts`` is
    its :class:`ContractFacts`. A contract that reads the round names (``round``,
    ``dealer``, ``score(p)``..., CR-2) needs ``view``, a :class:`RoundView`."""

    @property
    def fn(self) -> Callable[..., bool]:
        """The bare closure."""

    def __call__(self, melds: Sequence[tuple[str, Sequence[Card]]], view: Any = None) -> bool:
        """Whether a first lay-down of these melds (kind name and cards) meets the contract
        in the round ``view`` describes."""


class RoundExpression(CompiledExpression, Protocol[T_co]):
    """A compiled round- or score-context expression, ``fn(view, p=None, lets=None)``:
    ``knock.limit``, ``scoring.multiplier`` and the scoring cases (int or bool),
    the ``scoring.let`` formulas (any value).

    ``view`` is a :class:`~rummydsl.expr.RoundView`; ``p`` the player being scored
    (``points`` and ``others``); ``lets`` the values of the ``scoring.let`` names.
    """

    @property
    def fn(self) -> Callable[[RoundView, Any, Mapping[str, Any] | None], T_co]:
        """The bare closure (positional arguments: ``fn(view, p, lets)``)."""

    def __call__(self, view: RoundView, p: Any = None, lets: Mapping[str, Any] | None = None) -> T_co:
        """The value for the round ``view`` describes."""


class MeldedExpression(CompiledExpression, Protocol):
    """A compiled melded-card expression, ``fn(card, value, kind, position, size) -> int``:
    ``melded_value`` (R5-1). ``value`` is the card's card_value, ``kind`` the name of the
    table meld's kind, ``position`` its place in the meld from the low end (from 1),
    ``size`` the meld's number of cards."""

    @property
    def fn(self) -> Callable[[Card, int, str, int, int], int]:
        """The bare closure."""

    def __call__(self, card: Card, value: int, kind: str, position: int, size: int) -> int:
        """What the card is worth where it lies."""


@dataclass(frozen=True, eq=False)
class Compiled:
    """A compiled expression: callable in its context's call form (module docstring).

    ``fn`` is the bare closure (call it directly on hot paths).
    """

    text: str
    """The source text."""
    type: Type
    """The type of the result."""
    context: Context
    """The context it was compiled for."""
    names: frozenset[str]
    """The context names, options, lets and functions it uses."""
    options: frozenset[str]
    """The options it uses (for the "options used" report)."""
    ast: ast.Expr
    """The checked syntax tree."""
    fn: Callable[..., Any]
    """The closure: ``fn(card)``, ``fn(cards)``, ``fn(melds)`` or ``fn(view, p=None, lets=None)``."""
    constant: bool = False
    """Whether the value does not depend on its input (options only)."""
    facts: PatternFacts | ContractFacts | None = None
    """For a meld pattern, what every group it accepts has (size bounds, shape); for a
    contract, how many melds it can take."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Compiled {self.context.value} {self.type} {self.text!r}>"
