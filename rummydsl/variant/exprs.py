"""The bridge from variant fields to the expression language: one environment per
context, built once per variant from its deck, options and meld kinds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..cards import Deck
from ..errors import ExpressionError
from ..expr import Compiled, Context, Env, LetScope, SimpleRoundView, compile_expression
from ..expr.compile import RoundExpression
from ..limits import MAX_HAND_SIZE

__all__ = ["Envs", "compile_field", "probe_round_values", "deal_probes", "DEFAULT_DEALS_PROBED",
           "HAND_SIZE_RANGE"]

#: How many deals a ``deal.hand_size`` that uses ``round`` is checked for when the
#: variant does not say how many deals a game has (``game.deals``).
DEFAULT_DEALS_PROBED = 20

#: The hand sizes a deal may give (the schema's bounds of a fixed ``hand_size``).
HAND_SIZE_RANGE = (1, MAX_HAND_SIZE)


_COMPILED: dict[tuple[Any, ...], Compiled] = {}


def compile_field(text: str, env: Env, expect: str) -> Compiled:
    """Compile one field's expression; ``expect`` is its result type name.

    A house rule repeats most of its parent's expressions: each (text, environment)
    is compiled once per process. Compiled expressions are immutable, so sharing
    them is safe.
    """
    # Each option's type is part of the key: True == 1 and hash(True) == hash(1), so
    # without it `gin_bonus: true` reused the compiled form checked for `gin_bonus: 1`.
    options = tuple(sorted((name, type(getattr(option, "value", option)).__name__, option)
                           for name, option in env.options.items()))
    key = (text, env.context, env.deck, options, env.lets,
           env.meld_kinds, env.per_player, env.has_upcard, expect)
    compiled = _COMPILED.get(key)
    if compiled is None:
        compiled = compile_expression(text, env, None if expect == "any" else expect)
        if len(_COMPILED) < 4096:
            _COMPILED[key] = compiled
    return compiled


@dataclass(frozen=True)
class Envs:
    """The environments of one variant's expression fields."""

    deck: Deck
    options: Mapping[str, Any]
    meld_kinds: tuple[str, ...]
    has_upcard: bool
    _cache: dict[Context, Env] = field(default_factory=dict, compare=False, repr=False)

    def _env(self, context: Context) -> Env:
        if context not in self._cache:
            self._cache[context] = Env(context, self.deck, options=self.options,
                                       meld_kinds=self.meld_kinds, has_upcard=self.has_upcard)
        return self._cache[context]

    @property
    def card(self) -> Env:
        return self._env(Context.CARD)

    @property
    def meld(self) -> Env:
        return self._env(Context.MELD)

    @property
    def contract(self) -> Env:
        return self._env(Context.CONTRACT)

    @property
    def round(self) -> Env:
        return self._env(Context.ROUND)

    @property
    def deal(self) -> Env:
        return self._env(Context.DEAL)

    def score_scope(self) -> LetScope:
        """An empty ``scoring.let`` scope in the score context."""
        return LetScope(self._env(Context.SCORE))

    def option_names(self) -> frozenset[str]:
        return frozenset(self.options)


def probe_round_values(variant: Any, compiled: RoundExpression[int]) -> list[int]:
    """The values a round-context integer takes over every possible upcard (or none)."""
    players = tuple(f"P{i}" for i in range(1, variant.players + 1))
    upcards = [None]
    if variant.deal.upcard and "upcard" in compiled.names:
        upcards = list({variant.deck.face_key(c): c for c in variant.deck.cards}.values())
    values = []
    for upcard in upcards:
        view = SimpleRoundView(players=players, upcard=upcard, dealer=players[-1],
                               hand_size=variant.deal.hand_size,
                               card_value=lambda card: variant.card_values[card.id])
        try:
            values.append(int(compiled(view)))
        except (ExpressionError, TypeError, AttributeError):
            continue
    return values


def deal_probes(rule: RoundExpression[int], players_range: tuple[int, int],
                deals: int | None) -> list[tuple[int, int, int | ExpressionError]]:
    """``(player count, deal number, value)`` of a ``deal.hand_size`` expression for every
    allowed player count and, if it reads ``round``, every deal (1..``deals``, or
    :data:`DEFAULT_DEALS_PROBED` when the game does not fix its deals); the value is
    the :class:`ExpressionError` when evaluating fails. Totals are 0, seat 0 deals.

    >>> from rummydsl.cards import Deck
    >>> from rummydsl.expr import Context, Env
    >>> rule = compile_field("player_count == 2 ? 10 : 7", Env(Context.DEAL, Deck.preset("standard52")), "int")
    >>> deal_probes(rule, (2, 4), None)
    [(2, 1, 10), (3, 1, 7), (4, 1, 7)]
    """
    from ..engine.view import RoundFacts

    low, high = players_range
    numbers = range(1, (deals or DEFAULT_DEALS_PROBED) + 1) if "round" in rule.names else range(1, 2)
    found: list[tuple[int, int, int | ExpressionError]] = []
    for count in range(low, high + 1):
        for number in numbers:
            facts = RoundFacts(players=tuple(range(count)), dealer=0, round=number, scores=(0,) * count)
            try:
                found.append((count, number, int(rule(facts))))
            except ExpressionError as problem:
                found.append((count, number, problem))
    return found
