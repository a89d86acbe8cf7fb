"""The shared core of the meld solver: results, table melds, and judging a group.

Every strategy module of :mod:`rummydsl.melds` imports this one and nothing
above it: :class:`MeldCore` holds what a variant says about melds as per-card
tables (values, rank orders, suits, sequence positions) and judges a group of
cards against the kinds' predicates, memoised on the group's card-id bitmask.
:class:`~rummydsl.melds.MeldRules` (the front) extends it with the public
questions and picks a strategy for each hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import Card, Deck
from ..errors import CardError, MeldError
from ..expr.facts import ContractFacts
from ..limits import MAX_HAND, MAX_MELD_WORK
from .shapes import KindShape, MergedShape, merge_shapes, shape_of_pattern, split_sizes, suit_blind

__all__ = [
    "MAX_HAND",
    "MeldPredicate",
    "ContractPredicate",
    "LayoffTarget",
    "Arrangement",
    "MeldCore",
    "bits_of",
    "GroupKey",
    "group_key",
    "contract_max_melds_of",
    "WorkBoundError",
]


MeldPredicate = Callable[[Sequence[Card]], bool]
"""A meld kind's predicate: ``fn(cards) -> bool`` (a compiled meld pattern)."""
ContractPredicate = Callable[[Sequence[tuple[str, Sequence[Card]]]], bool]
"""The contract: ``fn([(kind, cards), ...]) -> bool`` (a compiled contract expression)."""

#: How a group of an arrangement holds its cards, in the canonical order's preference
#: (a smaller number wins between groups with the same cards): own meld, lay-off, dead.
ROLE_MELD, ROLE_LAYOFF, ROLE_DEAD, ROLE_DISCARD = 0, 1, 2, 3

GroupKey = tuple[int, int, int, int, int, tuple[int, ...]]
"""One group of an arrangement in the canonical order (package docs, "One canonical
arrangement"): ``(lowest natural card id, -natural mask, -wild cards, role, table
index, meanings)``; a group of wild cards only has lowest id ``1 << 30``. An
arrangement's key is the tuple of its groups' keys, sorted; the least key wins."""

WILD_ONLY_LOW = 1 << 30


def group_key(natural_mask: int, wilds: int, role: int, table: int = 0,
              meanings: tuple[int, ...] = ()) -> GroupKey:
    """The :data:`GroupKey` of one group (``natural_mask`` over card ids).

    >>> group_key(0b1100, 0, ROLE_MELD)
    (2, -12, 0, 0, 0, ())
    """
    low = (natural_mask & -natural_mask).bit_length() - 1 if natural_mask else WILD_ONLY_LOW
    return (low, -natural_mask, -wilds, role, table, meanings)


@dataclass(frozen=True)
class LayoffTarget:
    """A meld already on the table, that hand cards may be added to (lay-offs).

    Pass only the melds this player may add to (the ender's melds for a defender
    after a knock, one's own melds in Skarney Gin). (The engine's meld on the table,
    which also says who laid each card, is :class:`rummydsl.engine.state.TableMeld`.)
    """

    cards: tuple[Card, ...]
    """The cards of the meld as it lies now (earlier lay-offs included)."""
    kind: str | None = None
    """The kind it was laid as; with ``kind_locked`` an extension must keep it."""
    owner: str | None = None
    """Who laid it (for the caller's bookkeeping; the solver does not read it)."""


class Arrangement(NamedTuple):
    """A best arrangement of a hand (C-6): the canonical one of the package docs.

    ``melds`` are the hand's own melds; ``layoffs`` are ``(table index, cards)``
    pairs, the cards added to ``table[index]``; ``unmatched`` is what is left
    (the deadwood cards, or with ``excludes_concealed_melds`` false the cards not
    in any meld). ``discard`` is set by :meth:`MeldRules.best_discard`.

    Immutable; a named tuple rather than a frozen dataclass because it is built on
    every solve, and a frozen dataclass's ``__init__`` costs about 1.2 µs more
    (a fifth of a 10-card Gin solve).
    """

    deadwood: int
    """The least deadwood (after the discard, when there is one)."""
    melds: tuple[tuple[Card, ...], ...]
    """The hand's melds, each sorted by card id, in the canonical order (by lowest card)."""
    kinds: tuple[frozenset[str], ...]
    """For each meld, every kind it forms."""
    unmatched: tuple[Card, ...]
    """Cards in no meld and not laid off (the discard excluded), by id."""
    contract: bool
    """Whether the hand holds the contract (true when the variant has none)."""
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """Cards added to table melds: ``(index into table, cards)``, by table index."""
    discard: Card | None = None
    """The card discarded, for the knock question; otherwise ``None``."""
    contract_melds: tuple[tuple[Card, ...], ...] = ()
    """With ``solve(..., contract=True)``: the melds that meet the contract."""
    meanings: tuple[tuple[Card, Card], ...] = ()
    """With ``wild_unique_card``: ``(wild card, meaning)`` for every wild card of the
    melds formed or extended (a table meld's wild cards included), the meaning being
    the deck's first-pack card of the face the wild stands for; otherwise empty."""


def bits_of(mask: int) -> Iterator[int]:
    """The bit positions set in ``mask``, lowest first.

    >>> list(bits_of(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class WorkBoundError(Exception):
    """A question ran past :data:`~rummydsl.limits.MAX_MELD_WORK` (internal: the front
    turns it into a located :class:`~rummydsl.errors.MeldError`)."""

    def __init__(self, kinds: Sequence[str]) -> None:
        super().__init__(kinds)
        self.kinds = tuple(kinds)
        """The kinds whose candidate groups were being generated (all of them: the search)."""


class MeldCore:
    """What the strategies share: the rules as per-card tables, and the group judge.

    Built by :class:`~rummydsl.melds.MeldRules` (see its docs for the parameters).

    :raises MeldError: for card values that do not fit the deck, or wild cards of
        different values.
    """

    def __init__(
        self,
        deck: Deck,
        kinds: Mapping[str, MeldPredicate],
        card_value: Callable[[Card], int] | Sequence[int],
        contract: ContractPredicate | None = None,
        excludes_concealed_melds: bool = True,
        *,
        kind_locked: bool = False,
        shapes: Mapping[str, KindShape] | None = None,
        contract_max_melds: int | None = None,
        wild_unique_card: bool = False,
    ) -> None:
        cards = tuple(deck.cards)
        if callable(card_value):
            values = tuple(int(card_value(c)) for c in cards)
        else:
            values = tuple(int(v) for v in card_value)
            if len(values) != len(cards):
                raise MeldError(f"card_value has {len(values)} entries for a deck of {len(cards)} cards")
        wild_cards = tuple(c for c in cards if c.wild)
        wild_values = {values[c.id] for c in wild_cards}
        if len(wild_values) > 1:
            raise MeldError(f"every wild card must have the same value, got {sorted(wild_values)!r}")
        given_shapes = dict(shapes or {})
        unknown = sorted(set(given_shapes) - set(kinds))
        if unknown:
            raise MeldError(f"shapes given for unknown meld kinds {unknown!r}")
        self.deck = deck
        self.kinds: dict[str, MeldPredicate] = dict(kinds)
        self.kind_names: tuple[str, ...] = tuple(self.kinds)
        self._predicates = tuple(self.kinds[name] for name in self.kind_names)
        self.contract = contract
        self.excludes_concealed_melds = bool(excludes_concealed_melds)
        self.kind_locked = bool(kind_locked)
        self.wild_unique_card = bool(wild_unique_card)
        self.shapes: dict[str, KindShape] = {
            name: given_shapes.get(name) or shape_of_pattern(pred) for name, pred in self.kinds.items()
        }
        if contract_max_melds is None and contract is not None:
            contract_max_melds = contract_max_melds_of(contract)
        self.contract_max_melds = contract_max_melds

        self._cards = cards
        self._size = len(cards)
        self._bits = tuple(1 << i for i in range(len(cards)))
        self.values: tuple[int, ...] = values
        self._wild_cards = wild_cards
        self._natural_mask = sum(1 << c.id for c in cards if not c.wild)
        self._wild_value = wild_values.pop() if wild_values else 0
        # Per-card tables: rank order, suit index and sequence positions (0, -1, () for wilds).
        self._rank_order = tuple(0 if c.rank is None else c.rank.order for c in cards)
        self._suit_index = tuple(-1 if c.suit is None else c.suit.index for c in cards)
        self._positions = tuple(() if c.rank is None else tuple(deck.sequence_positions(c.rank)) for c in cards)
        self._sequence_length = int(deck.max_sequence_position)
        self._rank_count = len(deck.ranks)
        self._wrap = bool(deck.wrap)
        self._families: list[MergedShape] = merge_shapes(self.shapes.values())
        # the kinds each family generates, and the size from which all of them split
        # (the cost search's short candidates: shapes.split_sizes)
        splits = split_sizes(self.kinds)
        self._family_kinds: list[tuple[str, ...]] = []
        self._family_caps: list[int | None] = []
        for shape in self._families:
            members = tuple(name for name in self.kind_names
                            if shape.family == "any" or self.shapes[name].family == shape.family)
            self._family_kinds.append(members)
            sizes = [splits[name] for name in members]
            self._family_caps.append(None if not sizes or any(s is None for s in sizes)
                                     else max(s for s in sizes if s is not None) - 1)
        self._suit_blind = suit_blind(self.kinds)
        self.kind_locations: dict[str, str] = {}
        """Where each kind's pattern is written (``path:line:col``), for the work bound's error."""
        self._judged: dict[int, int] = {}
        self._judged_patterns: dict[int, int] = {}
        """Suit-blind kinds: a wild-free group's kinds by :meth:`_rank_pattern`."""
        self._rank_incs: tuple[int, ...] | None = None
        self._memo_limit = 1 << 21
        self._name_sets: dict[int, frozenset[str]] = {}
        self._generated: dict[tuple[str, tuple[int, ...], int, int, int | None],
                              tuple[tuple[int, int, int], ...]] = {}
        """The groups a pool of cards gives (:mod:`.candidates`), by the pool's cards."""
        self._wild_state: Any = None
        """The wild windows (:func:`.wildwindows.windows_of`; False where they do not apply)."""
        # wild_unique_card: natural faces (a face is id % faces) and packs
        self._faces = int(deck.natural_faces) or sum(1 for c in cards if not c.wild and c.copy == 0)
        self._packs = int(deck.packs)
        self._domain_memo: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}
        self._meaning_memo: dict[tuple[object, ...], tuple[tuple[tuple[int, ...], int], ...]] = {}

    # ------------------------------------------------------------------ judging

    def _judge(self, natural_mask: int, wilds: int, cards: Sequence[Card] | None = None) -> int:
        """The kinds bitmask (bit ``i``: ``kind_names[i]``) of a group: natural cards
        ``natural_mask`` (card ids) and ``wilds`` wild cards, memoised (wild cards
        are interchangeable, so the first ``wilds`` of the deck stand for any)."""
        key = natural_mask | (wilds << self._size)
        kinds = self._judged.get(key)
        if kinds is not None:
            return kinds
        pattern = -1
        if not wilds and self._suit_blind and natural_mask:
            pattern = self._rank_pattern(natural_mask)
            if pattern >= 0:
                kinds = self._judged_patterns.get(pattern)
        if kinds is None:
            if cards is None:
                cards = self._cards_of(natural_mask) + self._wild_cards[:wilds]
            kinds = 0
            for i, predicate in enumerate(self._predicates):
                if predicate(cards):
                    kinds |= 1 << i
            if pattern >= 0:
                if len(self._judged_patterns) >= self._memo_limit:
                    self._judged_patterns.clear()
                self._judged_patterns[pattern] = kinds
        if len(self._judged) >= self._memo_limit:
            self._judged.clear()
        self._judged[key] = kinds
        return kinds

    def _rank_pattern(self, natural_mask: int) -> int:
        """A wild-free group's kinds key under :func:`~.shapes.suit_blind` kinds, whose
        patterns are conjuncts on the ranks and the size and at most ``same(suit)`` or
        ``not same(suit)``: how many cards of each rank it holds, and whether they share
        one suit (bit 0); -1 for a deck with a natural card of no rank or no suit."""
        rank_inc = self._rank_incs
        if rank_inc is None:
            naturals = [c for c in self._cards if not c.wild]
            if any(c.rank is None or c.suit is None for c in naturals):
                rank_inc = ()
            else:
                counts: dict[int, int] = {}
                for c in naturals:
                    counts[self._rank_order[c.id]] = counts.get(self._rank_order[c.id], 0) + 1
                width = max(counts.values()).bit_length()
                rank_inc = tuple(1 << (self._rank_order[c.id] * width) for c in self._cards)
            self._rank_incs = rank_inc
        if not rank_inc:
            return -1
        suit_of = self._suit_index
        suit = suit_of[(natural_mask & -natural_mask).bit_length() - 1]
        same = 1
        key = 0
        while natural_mask:
            low = natural_mask & -natural_mask
            cid = low.bit_length() - 1
            key += rank_inc[cid]
            if suit_of[cid] != suit:
                same = 0
            natural_mask ^= low
        return key << 1 | same

    def kinds_bits(self, cards: Sequence[Card]) -> int:
        """The kinds a group of this deck's distinct cards forms, as a bitmask (bit ``i``:
        ``kind_names[i]``): :meth:`kinds_of` unchecked, for callers that hold the deck's
        cards already (the engine's listings judge thousands of groups a hand).

        It reads no hand: for a group with wild cards under ``wild_unique_card``, ask
        :meth:`kinds_of` with the hand.

        >>> from rummydsl.melds import MeldRules
        >>> from rummydsl.variant import load_variant
        >>> rules = MeldRules.from_variant(load_variant("gin_rummy"))
        >>> bits = rules.kinds_bits(rules.check_hand("7H 7D 7C"))
        >>> [name for i, name in enumerate(rules.kind_names) if bits >> i & 1]
        ['set']
        """
        natural_mask = 0
        wilds = 0
        for card in cards:
            if card.wild:
                wilds += 1
            else:
                natural_mask |= 1 << card.id
        return self._judge(natural_mask, wilds, cards)

    def kinds_bits_of(self, natural_mask: int, wilds: int, cards: Sequence[Card]) -> int:
        """:meth:`kinds_bits` of ``cards``, given as its natural cards' ids (``natural_mask``,
        a bit a card id) and its count of wild cards: for a caller that keeps the mask of
        a group it grows a card at a time (a table meld's lay-offs).

        >>> from rummydsl.melds import MeldRules
        >>> from rummydsl.variant import load_variant
        >>> rules = MeldRules.from_variant(load_variant("gin_rummy"))
        >>> group = rules.check_hand("7H 7D 7C")
        >>> rules.kinds_bits_of(sum(1 << c.id for c in group), 0, group) == rules.kinds_bits(group)
        True
        """
        return self._judge(natural_mask, wilds, cards)

    def _names(self, kinds: int) -> frozenset[str]:
        """The kind names of a kinds bitmask (one frozenset per bitmask, kept)."""
        names = self._name_sets.get(kinds)
        if names is None:
            names = self._name_sets[kinds] = frozenset(
                name for i, name in enumerate(self.kind_names) if kinds >> i & 1)
        return names

    def _cards_of(self, mask: int) -> tuple[Card, ...]:
        """The deck's cards of a card-id bitmask, by id."""
        out = []
        cards = self._cards
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    def _work_error(self, problem: WorkBoundError, cards: int) -> MeldError:
        """The located error of a question past :data:`~rummydsl.limits.MAX_MELD_WORK`:
        the kinds without a shape that splits first (the likely cause), with where the
        first of them is written."""
        kinds = list(problem.kinds)
        splits = split_sizes(self.kinds)
        loose = [name for name in kinds if self.shapes[name].family == "any" and splits.get(name) is None]
        named = loose or [name for name in kinds if splits.get(name) is None] or kinds
        where = next((self.kind_locations[name] for name in named if name in self.kind_locations), "")
        prefix = f"{where}: " if where else ""
        which = ", ".join(repr(name) for name in named)
        return MeldError(f"{prefix}meld kind {which}: the meld solver stopped at its work bound "
                         f"({MAX_MELD_WORK:,} candidate groups and search states, MAX_MELD_WORK) on a hand of "
                         f"{cards} cards; a pattern without same(rank) or consecutive(rank) makes the solver "
                         "try every group of the hand's cards (docs/limits.md)")

    def _contract_fits_short(self) -> bool:
        """Whether every meld a contract collection takes is on the short list: the
        contract's melds are no longer than any family's short candidates."""
        facts = getattr(self.contract, "facts", None)
        top = getattr(facts, "max_size", None)
        caps = [cap for cap in self._family_caps if cap is not None]
        return isinstance(top, int) and all(top <= cap for cap in caps)

    # ------------------------------------------------------------------ inputs

    def _check(self, cards: Iterable[Card | str] | str, limit: int = MAX_HAND) -> tuple[tuple[Card, ...], int]:
        """The cards of a hand (cards, notation strings, or one string) and their
        card-id bitmask.

        :raises CardError: for unknown or repeated cards, more than ``limit``, or none.
        """
        if isinstance(cards, str):
            cards = cards.split()
        items = tuple(cards)
        if not items:
            raise CardError("a hand needs at least 1 card")
        if len(items) > limit:
            raise CardError(f"too many cards: at most {limit}, got {len(items)}")
        deck_cards = self._cards
        bits = self._bits
        seen = 0
        try:
            for card in items:
                cid = card.id  # type: ignore[union-attr]  # a str fails here: the careful loop decides
                if deck_cards[cid] is not card:
                    raise LookupError  # not this deck's own object: the careful loop decides
                seen |= bits[cid]
            if seen.bit_count() == len(items):
                return items, seen  # type: ignore[return-value]  # every item is this deck's card
        except (AttributeError, LookupError, TypeError):
            pass
        size = self._size
        seen = 0
        checked: list[Card] = []
        for card in items:
            if isinstance(card, str):
                return self._check_notation(items)
            cid = getattr(card, "id", None)
            if (type(cid) is not int or not 0 <= cid < size
                    or (deck_cards[cid] is not card and deck_cards[cid] != card)):
                raise CardError(f"card {card!r} is not a card of this deck")
            bit = 1 << cid
            if seen & bit:
                raise CardError(f"duplicate card {str(card)!r} in the hand")
            seen |= bit
            checked.append(card)
        return tuple(checked), seen

    def _check_table(self, table: Sequence[LayoffTarget | Sequence[Card | str]],
                     hand_mask: int) -> list[LayoffTarget]:
        """The table melds as :class:`LayoffTarget`\\ s of this deck's cards.

        :raises CardError: for a card that is not this deck's.
        :raises MeldError: for a natural card in two table melds or in the hand
            and a table meld, or an empty table meld. (Wild cards are
            interchangeable, and callers may name any wild card for one.)
        """
        out: list[LayoffTarget] = []
        naturals = self._natural_mask
        hand_mask &= naturals
        seen = hand_mask
        for t, group in enumerate(table):
            meld = group if isinstance(group, LayoffTarget) else LayoffTarget(tuple(group))  # type: ignore[arg-type]
            if not meld.cards:
                raise MeldError(f"table meld {t} is empty")
            cards, mask = self._check(meld.cards, limit=self._size)
            mask &= naturals
            if mask & seen:
                card = self._cards[(mask & seen & -(mask & seen)).bit_length() - 1]
                where = "the hand" if mask & hand_mask else "an earlier table meld"
                raise MeldError(f"table meld {t} holds {str(card)!r}, a card of {where}")
            seen |= mask
            out.append(meld if cards == meld.cards else LayoffTarget(cards, meld.kind, meld.owner))
        return out

    def _check_notation(self, items: tuple[Card | str, ...]) -> tuple[tuple[Card, ...], int]:
        """:meth:`_check` for a hand with card notation in it."""
        texts = [c for c in items if isinstance(c, str)]
        if len(texts) == len(items):
            out = tuple(self.deck.parse_cards(texts))
        else:
            out = tuple(self.deck.parse_card(c) if isinstance(c, str) else c for c in items)
        return self._check(out, limit=len(out))


def contract_max_melds_of(contract: object) -> int | None:
    """An upper bound on the melds a compiled contract takes (``count == 3``), if any."""
    facts = getattr(contract, "facts", None)
    return facts.max_melds if isinstance(facts, ContractFacts) else None
