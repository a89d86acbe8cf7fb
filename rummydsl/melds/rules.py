"""The front of the meld solver: :class:`MeldRules`, which picks a strategy per hand."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..cards import Card, Deck
from ..errors import MeldError
from ..expr.check import CONTRACT_ROUND_NAMES
from .contract import BoundContract, contract_search, first_deal_facts
from .core import MAX_HAND, Arrangement, ContractPredicate, LayoffTarget, MeldCore, MeldPredicate
from .core import WorkBoundError, bits_of
from .decktable import DeckTable
from .meanings import UniqueSearch, meanings
from .partwalk import walked as walk_parts
from .rankwindows import RankWindows
from .report import melds_report
from .search import Found, HandSearch
from .shortsearch import RANK_ORDER_FROM, ShortSearch
from .shapes import KindShape
from .suittables import SuitTables
from .wildwindows import windows_of

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["MeldRules", "melds_report"]

_new_tuple = tuple.__new__

SHORT_SEARCH_FROM = 20
"""Wild-free hands of more cards take the short-candidate search (:mod:`.shortsearch`);
up to this many, the general search gives the canonical arrangement as before."""

SHORT_COST_FROM = 12
"""The same for the questions with no arrangement (``min_deadwood``, ``holds_contract``):
the cost is exact whatever the search, so it is taken wherever it is faster."""

TableInput = Sequence[LayoffTarget | Sequence[Card | str]]
"""Table melds as given: :class:`LayoffTarget`\\ s or plain sequences of cards."""


class MeldRules(MeldCore):
    """A variant's meld rules, and the exact least-deadwood solver for them.

    :param deck: the deck; ``deck.cards[i].id == i``.
    :param kinds: meld kind name -> predicate ``fn(cards) -> bool`` (a compiled
        meld pattern, or any function with the same wild-card semantics).
    :param card_value: the deadwood value of each card: a function of a card, or
        a sequence indexed by card id.
    :param contract: the contract predicate ``fn([(kind, cards), ...]) -> bool``
        (a compiled CONTRACT-context expression), or ``None`` for no contract.
    :param excludes_concealed_melds: SK-10.1: when false, melds kept in the hand
        still count as deadwood; only cards played to the table are free.
    :param kind_locked: SK-3.4: a table meld keeps the kind it was laid as.
    :param shapes: kind name -> :class:`KindShape`; kinds not listed get
        :func:`shape_of_pattern` of their predicate.
    :param contract_max_melds: an upper bound on the number of melds the
        contract can need (read from the contract's AST when not given; without
        one the contract search tries every collection of disjoint melds).
    :param wild_unique_card: GS-3.3: each wild card stands for a card not
        otherwise in play (below).
    :raises MeldError: for ``card_value`` of the wrong length, wild cards of
        different values, or shapes of unknown kinds.

    **wild_unique_card.** With it, every wild card in a meld of an arrangement
    (a meld of the hand, or a table meld the hand's cards join, the wild cards
    already on it included) must be given a *meaning*, a natural face of the
    deck, such that

    1. the meld with its wild cards replaced by their meanings satisfies the
       kind's predicate, judged on concrete natural cards of the deck (and the
       meld as it is, wild cards and all, satisfies it too, so that ``naturals``
       and ``wilds`` in a pattern keep counting the real cards: an all-wild meld
       stays illegal under ``naturals >= 1``);
    2. no meaning is the face of a natural card held in the hand (in a meld or
       not) or lying in a table meld the hand's cards join;
    3. no two wild cards of the arrangement have the same meaning.

    With more than one pack, 2 and 3 read: a face is used by those natural cards
    and the meanings together at most ``deck.packs`` times. Wild cards left
    unmelded (or discarded) have no meaning. The solver's answer is the least
    deadwood over the arrangements legal under 1-3 (C-6), still exact: a search
    that carries the meanings already used, bounded by the search without
    rule 3 (which is usually already legal). :attr:`Arrangement.meanings` gives
    the meanings of the answer, and :attr:`Arrangement.kinds` the kinds each meld
    forms with them. :meth:`kinds_of` judges a group alone under 1-3 (its own
    wild cards distinct, no meaning the face of one of its natural cards or of a
    card of ``hand=``). Without wild cards in the hand or on the joined table
    melds nothing changes, and the per-suit tables still apply.
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
        super().__init__(deck, kinds, card_value, contract, excludes_concealed_melds, kind_locked=kind_locked,
                         shapes=shapes, contract_max_melds=contract_max_melds, wild_unique_card=wild_unique_card)
        self._deck_table_state: DeckTable | Literal[False] | None = None  # False: too many melds
        self._suit_state: SuitTables | Literal[False] | None = None  # False: the tables do not apply
        self._windows_state: RankWindows | Literal[False] | None = None  # False: a kind of unknown shape
        self._last_search: HandSearch | None = None  # the last hand with wild cards (_kept_search)

    @classmethod
    def from_variant(cls, variant: Variant) -> MeldRules:
        """The meld rules of a loaded variant.

        Reads ``variant.deck``; ``variant.meld_kinds`` (a sequence of objects with
        ``name`` and ``pattern``, or a mapping name -> compiled pattern);
        ``variant.card_values`` (a tuple by card id); ``variant.contract`` (a
        :class:`~rummydsl.variant.model.Contract` whose ``melds`` is the compiled
        predicate, the predicate itself, or ``None``);
        ``variant.deadwood_excludes_concealed_melds`` (default true);
        ``variant.kind_locked`` (default false); and ``variant.wild_unique_card``
        (default false). Search shapes and the contract's meld count come from the
        compiled ASTs. A contract that reads the round (CR-2) is judged in the first
        deal; the engine's ``meld_rules(variant, facts)`` judges it in any deal.

        :raises MeldError: as the constructor.
        """
        kinds_in: Any = variant.meld_kinds
        where: dict[str, str] = {}
        if isinstance(kinds_in, Mapping):
            kinds = dict(kinds_in)
        else:
            kinds = {kind.name: kind.pattern for kind in kinds_in}
            where = {kind.name: str(getattr(kind, "where", "") or "") for kind in kinds_in}
        contract: Any = getattr(variant, "contract", None)
        if contract is not None and not callable(contract):
            contract = getattr(contract, "melds", None)
        if contract is not None:
            if frozenset(getattr(contract, "names", ())) & CONTRACT_ROUND_NAMES:
                contract = BoundContract(contract, first_deal_facts(variant))  # a contract by deal: deal 1
        locked = getattr(variant, "kind_locked", None)
        if locked is None:
            locked = getattr(variant, "meld_kind_locked", False)
        rules = cls(variant.deck, kinds, variant.card_values, contract,
                    bool(getattr(variant, "deadwood_excludes_concealed_melds", True)),
                    kind_locked=bool(locked), wild_unique_card=bool(getattr(variant, "wild_unique_card", False)))
        rules.kind_locations = {name: place for name, place in where.items() if place}
        return rules

    def with_contract(self, contract: ContractPredicate) -> MeldRules:
        """A solver like this one but judging ``contract``, sharing this one's tables and
        memos (none of them depends on the contract): a contract by deal (CR-2) gets one
        solver per deal without building the deck's tables again."""
        self._deck_table()
        self._suit_tables()
        other = copy.copy(self)
        other.contract = contract
        return other

    # ------------------------------------------------------------------ inputs

    def check_hand(self, cards: Iterable[Card | str] | str, limit: int = MAX_HAND) -> tuple[Card, ...]:
        """Check a hand (cards, or notation strings, or one string) and return its cards.

        :raises CardError: for unknown or repeated cards, more than ``limit``
            cards (:data:`MAX_HAND` by default), or none.

        >>> from rummydsl.cards import Deck
        >>> rules = MeldRules(Deck.preset("standard52"), {}, [0] * 52)
        >>> rules.check_hand("AS AS")
        Traceback (most recent call last):
        ...
        rummydsl.errors.CardError: duplicate card 'AS' (this deck has one pack)
        """
        return self._check(cards, limit)[0]

    # ------------------------------------------------------------------ recognition

    def kinds_of(self, cards: Iterable[Card | str] | str, *,
                 hand: Iterable[Card | str] | str | None = None) -> frozenset[str]:
        """Every kind the group of cards forms (an empty set: not a meld).

        With ``wild_unique_card`` and wild cards in the group, a kind counts only
        if the group's wild cards can take distinct meanings that form it (rules
        1-3 of the class docs, for this group alone): no meaning the face of a
        natural card of the group or of ``hand`` (other cards held, or the hand
        the group comes from; optional). Without the option ``hand`` is ignored.

        :raises CardError: for bad cards.
        """
        group, mask = self._check(cards, limit=self._size)
        natural_mask = mask & self._natural_mask
        wilds = len(group) - natural_mask.bit_count()
        kinds = self._judged.get(natural_mask | (wilds << self._size))
        if kinds is None:
            kinds = self._judge(natural_mask, wilds, group)
        if kinds and wilds and self.wild_unique_card:
            held_ids = natural_mask
            if hand is not None:
                for card in self.check_hand(hand, limit=self._size):
                    if not card.wild:
                        held_ids |= 1 << card.id
            held = Counter(cid % self._faces for cid in bits_of(held_ids))
            unique = 0
            for _faces, got in meanings(self, natural_mask, wilds, kinds, held):
                unique |= got
            kinds = unique
        return self._names(kinds)

    # ------------------------------------------------------------------ the strategies

    def _suit_tables(self) -> SuitTables | Literal[False]:
        """The per-suit tables, or ``False`` when they do not apply."""
        if self._suit_state is None:
            self._suit_state = SuitTables.build(self, self._deck_table() or None) or False
        return self._suit_state

    def _deck_table(self) -> DeckTable | Literal[False]:
        """The per-deck meld table, or ``False`` when the deck has too many melds."""
        if self._deck_table_state is None:
            self._deck_table_state = DeckTable.build(self) or False
        return self._deck_table_state

    def _windows(self) -> RankWindows | Literal[False]:
        """The rank windows (:mod:`.rankwindows`), or ``False`` when they do not apply."""
        if self._windows_state is None:
            self._windows_state = RankWindows.build(self) or False
        return self._windows_state

    def _part_search(self, part: tuple[Card, ...], canonical: bool) -> HandSearch:
        return self._search(part, (), False, canonical=canonical)  # a rank window's search

    def _contract_search(self, cards: tuple[Card, ...]) -> bool:  # the general contract search
        return bool(contract_search(self._search(cards, (), False, True, canonical=False), existence=True))

    def _kept_search(self, hand: tuple[Card, ...], mask: int, discard: bool) -> tuple[HandSearch, Found] | None:
        """A hand with wild cards (no table, at most SHORT_SEARCH_FROM cards): its unconstrained best, no contract read,
        from the last such hand's search holding it (a turn asks its deadwood, knock question, each discard's); else None."""
        if self.wild_unique_card or len(hand) > SHORT_SEARCH_FROM:
            return None
        last = self._last_search
        try:
            if last is None or (found := last.inner(hand, discard)) is None:
                search = HandSearch(self, hand, (), True)
                if last is None or mask & ~last.hand_ids:
                    self._last_search = search
                last, found = search, search.inner(hand, discard)
        except WorkBoundError:  # the question searched alone, with its own bound
            return None
        return None if found is None else (last, found)

    def _suit_arrangement(self, tables: SuitTables, mask: int, discard: bool) -> Arrangement:
        """The canonical arrangement from the per-suit tables."""
        discard_card = None
        if discard:
            key = tables.knock_key(mask)
            discard_id = tables.cards_by_penalty[key % tables.natural_count]
            discard_card = self._cards[discard_id]
            mask ^= 1 << discard_id
            if not mask:
                return Arrangement(0, (), (), (), self.contract is None, (), discard_card)
        deadwood, melds, kinds, unmatched = tables.arrange(mask)
        # tuple.__new__ skips the named tuple's Python-level __new__ (about 0.4 µs a solve)
        return _new_tuple(Arrangement, (deadwood, melds, kinds, unmatched, self.contract is None, (), discard_card,
                                        (), ()))

    def _search(self, hand: tuple[Card, ...], table: Sequence[LayoffTarget], discard: bool,
                contract_search: bool = False, canonical: bool = True) -> HandSearch:
        """The general search for the hand (with meanings when they matter); a wild-free
        hand without table melds takes the short-candidate search in rank order
        (:mod:`.shortsearch`), with every candidate when a contract search needs melds
        longer than the short list holds, or for the arrangement of 15 to 20 cards."""
        if self.wild_unique_card and (any(c.wild for c in hand)
                                      or any(c.wild for group in table for c in group.cards)):
            return UniqueSearch(self, hand, table, discard)
        if table or any(c.wild for c in hand):
            return HandSearch(self, hand, table, discard)
        if len(hand) > (SHORT_SEARCH_FROM if canonical else SHORT_COST_FROM):
            return ShortSearch(self, hand, discard, short=not contract_search or self._contract_fits_short())
        if canonical and len(hand) > RANK_ORDER_FROM:
            return ShortSearch(self, hand, discard, short=False)
        return HandSearch(self, hand, table, discard)

    # ------------------------------------------------------------------ solving

    def solve(
        self,
        cards: Iterable[Card | str] | str,
        *,
        contract: bool = False,
        table: TableInput = (),
        check_contract: bool = True,
    ) -> Arrangement:
        """The canonical arrangement of ``cards``: the least deadwood (C-6), ties
        broken as the package docs say.

        :param contract: only arrangements whose melds include a collection that
            meets the contract (SK-5); a longer holding may be cut (SK-5.3). The
            contract melds count as played (never deadwood). If the hand cannot
            meet it, the result has ``contract=False`` and the unconstrained best.
        :param table: melds on the table the hand may add cards to (lay-offs,
            chains included); each extended meld must still form a kind (the
            same kind with ``kind_locked``). Only the final group is judged.
        :param check_contract: compute :attr:`Arrangement.contract` (a second
            search); when false it is reported as ``False`` for variants with a
            contract.
        :raises CardError: for bad cards (in the hand or the table melds).
        :raises MeldError: for table melds that share cards, or of an unknown
            kind under ``kind_locked``.
        """
        hand, mask = self._check(cards)
        if not table and (self.contract is None or not (contract or check_contract)):
            tables = self._suit_state or self._suit_tables()
            if tables and not mask >> tables.natural_count:
                # inlined _suit_arrangement(tables, mask, False): this is the hot path
                return _new_tuple(Arrangement, (*tables.arrange(mask), self.contract is None, (), None, (), ()))
        elif (not (table or contract) and self.contract is not None and (windows := self._windows_state)
              and len(hand) <= SHORT_SEARCH_FROM and not mask & ~self._natural_mask):
            try:  # inlined _solve's rank windows with the contract checked: the hot path of a variant with one
                return windows.arrangement(mask, self._part_search, windows.contract_holds(mask, self._contract_search))
            except WorkBoundError as problem:
                raise self._work_error(problem, len(hand)) from None
        return self._solve(hand, mask, contract=contract, table=table, discard=False, check_contract=check_contract)

    def best_discard(
        self,
        cards: Iterable[Card | str] | str,
        *,
        contract: bool = False,
        table: TableInput = (),
    ) -> tuple[Card, int]:
        """The knock question: which card to discard to leave the least deadwood.

        One search over arrangements with one discard (not one solve per card).
        Ties go to the highest-valued card, then the highest card id.

        :returns: ``(card, deadwood after discarding it)``.
        :raises CardError: for bad cards.
        """
        hand, mask = self._check(cards)
        if not table and not (contract and self.contract is not None):
            tables = self._suit_state or self._suit_tables()
            if tables and not mask >> tables.natural_count:
                key = tables.knock_key(mask)
                return self._cards[tables.cards_by_penalty[key % tables.natural_count]], key // tables.natural_count
            deck_table = self._deck_table_state or self._deck_table()
            if deck_table and len(hand) <= SHORT_SEARCH_FROM and not any(card.wild for card in hand):
                deadwood, discard = deck_table.knock([card.id for card in hand])
                return self._cards[discard], deadwood
        arrangement = self._solve(hand, mask, contract=contract, table=table, discard=True, check_contract=False)
        assert arrangement.discard is not None
        return arrangement.discard, arrangement.deadwood

    def solve_discard(
        self,
        cards: Iterable[Card | str] | str,
        *,
        contract: bool = False,
        table: TableInput = (),
        check_contract: bool = False,
    ) -> Arrangement:
        """Like :meth:`best_discard`, returning the whole canonical arrangement of the kept cards.

        :raises CardError: for bad cards.
        :raises MeldError: as :meth:`solve`.
        """
        hand, mask = self._check(cards)
        return self._solve(hand, mask, contract=contract, table=table, discard=True,
                           check_contract=check_contract)

    def holds_contract(self, cards: Iterable[Card | str] | str) -> bool:
        """Whether the hand can meet the contract (true for a variant with none).

        :raises CardError: for bad cards.
        """
        hand, mask = self._check(cards)
        if self.contract is None:
            return True
        try:
            if not mask & ~self._natural_mask:
                if windows := self._windows_state or self._windows():
                    return windows.contract_holds(mask, self._contract_search)
            return bool(contract_search(self._search(hand, (), False, True, canonical=False), existence=True))
        except WorkBoundError as problem:
            raise self._work_error(problem, len(hand)) from None

    def min_deadwood(self, cards: Iterable[Card | str] | str, *, discard: bool = False) -> int:
        """Just the least deadwood of a hand (after the best discard with ``discard``).

        The same search as :meth:`solve` without building the arrangement.

        :raises CardError: for bad cards.
        """
        hand, mask = self._check(cards)
        if (least := self.table_deadwood(mask, discard=discard)) is not None:
            return least
        deck_table = self._deck_table_state or self._deck_table()
        if deck_table and len(hand) <= SHORT_SEARCH_FROM and not any(card.wild for card in hand):
            ids = sorted(card.id for card in hand)
            return deck_table.knock(ids)[0] if discard else deck_table.least_deadwood(ids)
        try:
            if not mask & ~self._natural_mask and (windows := self._windows_state or self._windows()):
                if not discard:
                    return windows.deadwood(mask, self._part_search)
                if windows.direct and len(hand) <= SHORT_SEARCH_FROM:
                    return windows.knock(mask)[0]
            if mask & ~self._natural_mask:
                if (wild := windows_of(self)) and (least := wild.least(mask, discard)) is not None:
                    return least
                if kept := self._kept_search(hand, mask, discard):
                    return int(kept[1].cost // kept[0].deadwood_unit)
            search = self._search(hand, (), discard, canonical=False)
            return int(search.plain().cost // search.deadwood_unit)
        except WorkBoundError as problem:
            raise self._work_error(problem, len(hand)) from None

    def table_deadwood(self, mask: int, *, discard: bool = False, floor: bool = False) -> int | None:
        """:meth:`min_deadwood` of ``mask``'s cards by the suit tables, unchecked, else None (or a ``floor`` of it)."""
        if (tables := self._suit_state or self._suit_tables()) and not mask >> tables.natural_count:
            return tables.knock_key(mask) // tables.natural_count if discard else tables.deadwood(mask, floor)
        return None

    def _solve(self, hand: tuple[Card, ...], mask: int, *, contract: bool, table: TableInput,
               discard: bool, check_contract: bool) -> Arrangement:
        """Every question with an arrangement, past the per-suit tables of :meth:`solve`."""
        if not table and not (contract and self.contract is not None) and (
                self.contract is None or not check_contract):
            tables = self._suit_state or self._suit_tables()
            if tables and not mask >> tables.natural_count:
                return self._suit_arrangement(tables, mask, discard)
            deck_table = self._deck_table_state or self._deck_table()
            if deck_table and len(hand) <= SHORT_SEARCH_FROM and not any(card.wild for card in hand):
                ids = sorted(card.id for card in hand)
                return deck_table.discard_arrangement(ids) if discard else deck_table.arrangement(ids)
        if (not table and not (contract and self.contract is not None)
                and len(hand) <= SHORT_SEARCH_FROM and not mask & ~self._natural_mask):
            windows = self._windows_state or self._windows()
            if windows and (not discard or windows.direct):
                try:
                    holds = self.contract is None or (check_contract and windows.contract_holds(
                        mask, self._contract_search))
                    return windows.arrangement(mask, self._part_search, holds, discard)
                except WorkBoundError as problem:
                    raise self._work_error(problem, len(hand)) from None
        try:
            return self._solve_search(hand, mask, contract=contract, table=table, discard=discard,
                                      check_contract=check_contract)
        except WorkBoundError as problem:
            raise self._work_error(problem, len(hand)) from None

    def _solve_search(self, hand: tuple[Card, ...], mask: int, *, contract: bool, table: TableInput,
                      discard: bool, check_contract: bool) -> Arrangement:
        """:meth:`_solve` by the general or short search."""
        asked = self.contract is not None and (contract or check_contract)  # a contract not asked: unheld, as below
        if not (table or asked) and mask & ~self._natural_mask and (kept := walk_parts(self, mask, discard)
                                                                     or self._kept_search(hand, mask, discard)):
            return kept if isinstance(kept, Arrangement) else kept[0].solve_found(kept[1], self.contract is None)
        table_melds = self._check_table(table, mask) if table else []
        search = self._search(hand, table_melds, discard, asked)
        if contract and self.contract is not None:
            tied = contract_search(search, existence=False)
            if tied:
                return self._canonical_contract(search, tied)
            return search.solve_found(search.plain(), False)
        holds = True
        if self.contract is not None:
            holds = bool(check_contract) and bool(contract_search(search, existence=True))
        return search.solve_found(search.plain(), holds)

    def _canonical_contract(self, search: HandSearch, tied: list[Found]) -> Arrangement:
        """The canonical arrangement among contract collections of equal cost: the
        least key of the whole arrangement, then of the contract melds."""
        best_key = None
        best = None
        for found in tied:
            contract_groups = search.contract_groups(found)
            groups, discard = search.walk(found)
            key = (search.canonical_key(contract_groups + groups), search.canonical_key(contract_groups))
            if best_key is None or key < best_key:
                best_key, best = key, (contract_groups + groups, discard, found.cost)
        assert best is not None
        return search.arrangement(best[0], best[1], True, best[2], False)

    # ------------------------------------------------------------------ display

    def display_order(self, meld: Sequence[Card | str]) -> tuple[Card, ...]:
        """The cards of a meld in reading order: by rank (an ace above a king when it
        stands high), then suit; wild cards last.

        :raises CardError: for bad cards.

        >>> from rummydsl.cards import Deck
        >>> deck = Deck.from_spec({"preset": "standard52", "ace": "both"})
        >>> rules = MeldRules(deck, {}, [0] * 52)
        >>> deck.format_cards(rules.display_order(deck.parse_cards("AH KH QH")))
        'QH KH AH'
        """
        if not meld:
            return ()
        cards, _mask = self._check(meld, limit=self._size)
        n = self._rank_count
        ace = self.deck.ace
        high = ace == "high" or (ace == "both" and any(self._rank_order[c.id] == n for c in cards))

        def key(card: Card) -> tuple[int, int, int]:
            if card.wild:
                return (1, 0, card.id)
            order = self._rank_order[card.id]
            if order == 1 and high:
                order = n + 1
            return (0, order, self._suit_index[card.id])

        return tuple(sorted(cards, key=key))

