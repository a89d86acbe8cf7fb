"""The typed, immutable in-memory form of a variant.

A :class:`Variant` is built from a checked YAML tree by :mod:`rummydsl.variant.build`;
every expression in it is already compiled. Nothing here can be changed after
building: house rules are new files, not mutations. Every dataclass is frozen, and
the YAML trees a variant keeps (``data``, ``parent_data``, a ``card_value`` table)
are :func:`read_only` copies, so a variant shared by the load cache is the same
for every caller.

The compiled fields are typed by their call form (the protocols of
:mod:`rummydsl.expr.compile`): a :class:`~rummydsl.expr.compile.MeldPattern` is
``pattern(cards) -> bool``, a :class:`~rummydsl.expr.compile.RoundExpression` is
``fn(view, p=None, lets=None)``, and so on. In a variant that
:func:`~rummydsl.variant.load_variant` returns none of them is None unless its
type says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Mapping, Union, overload

from ..cards import Card, Deck
from ..errors import Diagnostic, Location, VariantError
from ..suggest import closest

__all__ = [
    "Option",
    "MeldKind",
    "Deal",
    "UpcardOfferRules",
    "Contract",
    "DrawStep",
    "MeldStep",
    "DiscardStep",
    "OfferStep",
    "Step",
    "KnockRules",
    "LayoffRules",
    "Stock",
    "GoingOut",
    "Void",
    "ScoreCase",
    "Scoring",
    "Buying",
    "GameRules",
    "Variant",
    "read_only",
]

if TYPE_CHECKING:
    from ..expr.compile import CardExpression, ContractExpression, MeldedExpression, MeldPattern, RoundExpression

OptionValue = Union[int, bool, str]


def read_only(tree: Any, memo: dict[int, Any] | None = None) -> Any:
    """A read-only copy of a loaded YAML tree: every mapping a ``MappingProxyType``
    over a new dict, every list a tuple; scalars are kept (they are immutable).

    ``memo`` (by ``id``) lets two trees that share parts, such as a variant's merged
    tree and its parent's, share the copies too.

    >>> tree = read_only({"melds": {"run": "size >= 3"}, "rules": ["GR-1"]})
    >>> tree["rules"], tree["melds"]["run"]
    (('GR-1',), 'size >= 3')
    >>> tree["melds"]["set"] = "same(rank)"
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
    """
    if memo is None:
        memo = {}
    if isinstance(tree, Mapping):
        copied = memo.get(id(tree))
        if copied is None:
            copied = memo[id(tree)] = MappingProxyType(
                {key: read_only(value, memo) for key, value in tree.items()})
        return copied
    if isinstance(tree, (list, tuple)):
        copied = memo.get(id(tree))
        if copied is None:
            copied = memo[id(tree)] = tuple(read_only(item, memo) for item in tree)
        return copied
    return tree


@dataclass(frozen=True)
class Option:
    """A named constant the expressions use (``options:`` in YAML)."""

    name: str
    value: OptionValue
    one_of: tuple[str, ...] | None = None
    """The allowed values of a string option."""
    rule: str | None = None
    """The RULES.md id the option implements."""
    description: str | None = None


@dataclass(frozen=True)
class MeldKind:
    """A declared meld kind: its name and compiled pattern (meld context)."""

    name: str
    pattern: MeldPattern
    """The compiled pattern: ``pattern(cards) -> bool``; ``pattern.text`` is the source,
    ``pattern.facts`` what every group it accepts has."""
    description: str | None = None
    where: str = ""
    """Where the pattern is written, ``path:line:col`` (empty when not known): the meld
    solver's work-bound error names it."""


@dataclass(frozen=True)
class Deal:
    """How cards are dealt and who deals (GR-2, SK-2, GS-2).

    ``hand_size`` is written as a number or as an expression in the deal context
    (KR-1: by the number of players; CR-2: by the deal). With an expression,
    ``hand_size`` is its value at ``players.count`` in the first deal (what
    ``explain`` and a position without a deal show), ``hand_size_rule`` the compiled
    expression the engine evaluates for every deal, and ``hand_size_max`` the largest
    value ``check`` found over every allowed player count and deal.
    """

    hand_size: int
    upcard: bool = False
    first_dealer: Literal["random"] = "random"
    rotation: Literal["next", "winner_deals", "loser_deals", "sitter"] = "next"
    void_redeal: Literal["same_dealer", "rotate"] = "same_dealer"
    sit_out: RoundExpression[Any] | None = None
    """G3-1, G3-2: the deal-context expression naming who sits out each round, or None
    (everyone is dealt in). ``rotation: sitter`` makes that player the dealer."""
    hand_size_rule: RoundExpression[int] | None = None
    """The deal-context expression of ``deal.hand_size``, or None for a fixed number."""
    hand_size_max: int = 0
    """The most cards a deal gives each player (0: ``hand_size``)."""

    @property
    def largest_hand(self) -> int:
        """The most cards ever dealt to a player, over every player count and deal allowed."""
        return max(self.hand_size, self.hand_size_max)


@dataclass(frozen=True)
class UpcardOfferRules:
    """The first-turn upcard round (GR-4, GS-4)."""

    after_all_pass: Literal["stock_only", "either"] = "stock_only"


@dataclass(frozen=True)
class Contract:
    """What a player's first lay-down must be (SK-5, CR-2, CR-3)."""

    melds: ContractExpression
    """Compiled contract-context predicate over ``[(kind, cards), ...]``; it may read the
    round names (``round``, ``dealer``, ``score(p)``...) through a round view."""
    then_meld_same_turn: bool = True
    concealed_until_met: bool = True
    new_melds_after: bool = True
    """After meeting the contract a player may put down new melds (false: only lay off, CR-3)."""


@dataclass(frozen=True)
class DrawStep:
    """Take one card from one of ``sources``."""

    sources: tuple[Literal["stock", "discard"], ...] = ("stock",)
    skip_after_accepting: CardExpression[bool] | None = None
    """Compiled card predicate, or None (SK-7.3 accepted_ace_skips_draw)."""
    name: Literal["draw"] = "draw"
    discard_depth: Literal["top", "any"] = "top"
    """From the discard pile: the top card only, or any card and every card above it (R5-3)."""
    deep_draw_must_meld: bool = True
    """With ``discard_depth: any``: the deepest card taken, unless it was the top card,
    must be melded or laid off in the same turn (R5-3)."""


@dataclass(frozen=True)
class MeldStep:
    """Put melds on the table and add cards to table melds."""

    optional: bool = True
    add_to_own: bool = True
    add_to_opponents: bool = False
    name: Literal["meld"] = "meld"


@dataclass(frozen=True)
class DiscardStep:
    """Discard one card face up, ending the turn."""

    taken_card: Literal["forbidden", "allowed"] = "forbidden"
    name: Literal["discard"] = "discard"


@dataclass(frozen=True)
class OfferStep:
    """Offer one card to the next player, who takes or declines it (SK-7)."""

    mandatory: bool = True
    min_hand: int = 2
    no_reoffer_accepted: bool = False
    name: Literal["offer"] = "offer"


Step = Union[DrawStep, MeldStep, DiscardStep, OfferStep]


@dataclass(frozen=True)
class KnockRules:
    """Ending the round by knocking (GR-6)."""

    limit: RoundExpression[int] | None = None
    """Compiled round-context integer expression: ``limit(view)``; None: no limit, a
    player may knock with any deadwood (KR-3)."""
    big_gin: bool = True


@dataclass(frozen=True)
class LayoffRules:
    """Lay-offs by defenders after a knock (GR-7, GS-6.4)."""

    onto: Literal["ender_melds", "none"] = "ender_melds"
    after_gin: bool = False


@dataclass(frozen=True)
class Stock:
    """The stock running low (GR-8, SK-9, GS-6.5)."""

    floor: int = 2
    at_floor: Literal["void", "stock_end", "turn_over", "discard_only"] = "void"
    """What happens at the floor: ``void``, ``stock_end`` (both after the final turn),
    ``turn_over``: when a player is to draw from a stock at its floor, the discard pile but
    its top card is turned over beneath it, and play goes on (BR-4); or ``discard_only``:
    play goes on drawing from the discard pile only (R5-5)."""
    final_turn_skip: tuple[str, ...] = ()
    last_discard_claim: bool = False
    max_turn_overs: int | None = None
    """With ``turn_over``: the most times the pile is turned over in a round (None: no
    limit); when the stock runs out once more, the round is void."""


@dataclass(frozen=True)
class Void:
    """Play that makes the round void, beside the stock floor (``void:``): limits that
    keep a round finite (as OpenSpiel's gin_rummy has them)."""

    at_discard_draw: int | None = None
    """The round is void at the draw step's draw from the discard pile that would be
    the ``at_discard_draw``-th of the round (that draw is not made); None: no limit."""
    after_throwbacks: int | None = None
    """The round is void when this many turns in a row each discard the card they took
    from the discard pile; None: never."""


@dataclass(frozen=True)
class GoingOut:
    """Ending the round by emptying one's hand (SK-8, BR-3, CR-5).

    A player whose hand becomes empty in their turn, by melding, laying off or
    discarding, goes out. With ``final_discard: required`` the last card must be
    discarded: a meld or lay-off that would empty the hand is refused; with
    ``forbidden`` it must not be: discarding the last card is refused, so a player
    goes out only by melding or laying off.
    """

    final_discard: Literal["optional", "required", "forbidden"] = "optional"


@dataclass(frozen=True)
class ScoreCase:
    """One scoring case: when ``when`` holds, who scores what."""

    when: RoundExpression[bool]
    """Whether this case applies to the round (score context)."""
    points: RoundExpression[int] | None = None
    """Per-player points (``p`` bound), or None."""
    ender: RoundExpression[int] | None = None
    """The ender's points, or None."""
    others: RoundExpression[int] | None = None
    """Each other player's points (``p`` bound), or None."""
    rule: str | None = None


@dataclass(frozen=True)
class Scoring:
    """Points for a round (GR-9, SK-10, GS-7)."""

    cases: tuple[ScoreCase, ...]
    lets: tuple[tuple[str, RoundExpression[Any]], ...] = ()
    """The ``scoring.let`` formulas, ``(name, formula)`` in order; each may use the earlier ones."""
    multiplier: RoundExpression[int] | None = None
    """What every score of the round is multiplied by, or None (1)."""


@dataclass(frozen=True)
class Buying:
    """Buying the top discard out of turn when the player to move draws from the stock (CR-4)."""

    per_deal: RoundExpression[int]
    """How many buys each player may make in one deal (round context): ``per_deal(view)``."""
    penalty_cards: int = 1
    """Cards the buyer takes from the stock top with the bought card."""


@dataclass(frozen=True)
class GameRules:
    """Rounds to a target or a fixed number of deals, and bonuses at the end of a game (GR-10, CR-6)."""

    target: int | None
    """A game ends after the round in which a total reaches this; None: only ``deals`` ends it."""
    game_bonus: int = 0
    box_bonus: int = 0
    shutout: Literal["double_total", "double_hand_points", "flat_100", "none"] = "none"
    shutout_per: Literal["all_losers", "each_loser"] = "all_losers"
    """G3-3: a shutout when every loser scored nothing (applied once), or once for each
    loser who scored nothing."""
    hollywood_games: int | None = None
    """GR-13: the number of games on one score sheet, or None."""
    match_games_to_win: int | None = None
    """GR-11: the game wins that take a match, or None."""
    deals: int | None = None
    """CR-2: a game is exactly this many deals (it ends after the last), or None."""
    winner: Literal["highest", "lowest"] = "highest"
    """CR-6: whether the highest or the lowest total wins."""

    @property
    def shared_sheet(self) -> int | None:
        """How many games share one score sheet (``game.hollywood``), or None for one game.

        The engine's name for the setting: the mechanism (entries, games closing at
        their target) is generic; GR-13 is one game that uses it.
        """
        return self.hollywood_games


@dataclass(frozen=True)
class Variant:
    """A checked variant, every expression compiled."""

    id: str
    name: str
    path: str
    players: int
    deck: Deck
    card_value: CardExpression[int] | Mapping[str, int | str]
    """The compiled card-value expression (card context), or the table as given
    (rank symbol, ``wild`` or ``default`` → value; ``default`` may be ``"pips"``)."""
    card_values: tuple[int, ...]
    """The deadwood value of every card, by card id."""
    deal: Deal
    meld_kinds: tuple[MeldKind, ...]
    turn: tuple[Step, ...]
    scoring: Scoring
    game: GameRules
    description: str = ""
    rules: tuple[str, ...] = ()
    parent: str | None = None
    """The id of the variant this one extends, if any."""
    chain: tuple[str, ...] = ()
    """The files read, from this file to its oldest ancestor."""
    players_range: tuple[int, int] = (2, 2)
    """The fewest and most players the rules are written for (GS-2.1)."""
    kind_locked: bool = False
    wild_unique_card: bool = False
    contract: Contract | None = None
    upcard_offer: UpcardOfferRules | None = None
    buying: Buying | None = None
    """Buying the top discard out of turn (CR-4), or None."""
    knock: KnockRules | None = None
    layoff: LayoffRules = field(default_factory=LayoffRules)
    stock: Stock = field(default_factory=Stock)
    going_out: GoingOut = field(default_factory=GoingOut)
    deadwood_excludes_concealed_melds: bool = True
    deadwood_arrangement: Literal["least", "as_shown"] = "least"
    """At a knock, whose arrangement counts (``deadwood.arrangement``): the least
    deadwood (C-6), or the melds each player shows (``as_shown``)."""
    void: Void = field(default_factory=Void)
    """Play that makes the round void (``void:``)."""
    melded_value: MeldedExpression | None = None
    """What a table card is worth to the player credited with it (``melded(p)``): the
    compiled melded-card expression, or None for the card's ``card_value`` (R5-1)."""
    options: Mapping[str, Option] = field(default_factory=lambda: MappingProxyType({}))
    """The options by name (read-only)."""
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), repr=False,
                                    compare=False)
    """The merged YAML tree the variant was built from (:func:`read_only`)."""
    parent_data: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    """The merged YAML tree of the parent, for `explain`'s differences (:func:`read_only`)."""

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player (with a ``deal.hand_size`` expression: at
        ``players.count`` in the first deal; see :attr:`max_hand_size`)."""
        return self.deal.hand_size

    @property
    def max_hand_size(self) -> int:
        """The most cards a deal ever gives a player (every allowed player count and deal)."""
        return self.deal.largest_hand

    @overload
    def step(self, name: Literal["draw"]) -> DrawStep | None: ...

    @overload
    def step(self, name: Literal["meld"]) -> MeldStep | None: ...

    @overload
    def step(self, name: Literal["discard"]) -> DiscardStep | None: ...

    @overload
    def step(self, name: Literal["offer"]) -> OfferStep | None: ...

    @overload
    def step(self, name: str) -> Step | None: ...

    def step(self, name: str) -> Step | None:
        """The turn step called ``name``, or None."""
        for step in self.turn:
            if step.name == name:
                return step
        return None

    def option(self, name: str) -> OptionValue:
        """The value of option ``name``.

        :raises VariantError: rule ``option-unknown``, placed at the variant's file,
            if it has no option ``name`` (the message lists those it has).

        >>> from rummydsl.variant import load_variant
        >>> load_variant("gin_rummy").option("gin_bonus")
        25
        >>> load_variant("gin_rummy").option("gin_bonsu")
        Traceback (most recent call last):
        ...
        rummydsl.errors.VariantError: ...gin_rummy.yaml: variant 'gin_rummy' has no option 'gin_bonsu'; did you mean 'gin_bonus'? ...
        """
        option = self.options.get(name)
        if option is None:
            close = closest(name, self.options)
            hint = f"; did you mean {close!r}?" if close else ""
            message = (f"variant {self.id!r} has no option {name!r}{hint} "
                       f"(options: {', '.join(self.options) or 'none'})")
            raise VariantError([Diagnostic(Location(self.path), message, "option-unknown")])
        return option.value

    @property
    def has_discard_pile(self) -> bool:
        """Whether a discard pile exists (an upcard, or a discard step)."""
        return self.deal.upcard or self.step("discard") is not None
