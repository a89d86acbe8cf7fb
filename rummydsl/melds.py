"""Meld recognition and the exact least-deadwood solver (RULES.md C-5, C-6).

A :class:`MeldRules` holds what a variant says about melds: the deck, the meld
kinds (a predicate per kind, usually compiled from a meld pattern), the card
values, the contract and the deadwood rule. It answers:

- :meth:`MeldRules.kinds_of`: which kinds a group of cards forms;
- :meth:`MeldRules.solve`: the arrangement of a hand with the least deadwood,
  optionally one that meets the contract, optionally with lay-offs onto melds
  already on the table;
- :meth:`MeldRules.best_discard`: the knock question (which card to discard from
  a hand one card over the hand size), in one search;
- :meth:`MeldRules.holds_contract`: can the hand meet the contract.

How it works (docs/performance.md, "Meld solver", has the numbers):

1. *Candidates from structure.* A hand is re-indexed locally (bit ``i`` of a
   mask is the hand's ``i``-th natural card) and its possible melds are listed
   from each kind's :class:`KindShape`: groups of one rank (every subset of the
   cards of a rank, with 0 or more wilds), sequences (one card per sequence
   position over a window, wilds filling gaps and ends; the ace at each of its
   positions; wrap only where the deck declares it), or, for a pattern whose
   shape is unknown, every subset. A shape is only a *necessary* condition; each
   candidate is judged by the kinds' predicates, so the predicates alone decide
   what a meld is (wild cards, minimum naturals, size bounds, colours...).
2. *Predicate memo.* Results are memoised per solver on the group's global card
   bitmask plus its number of wild cards (wild cards are interchangeable, so
   ``{5R, *}`` is one entry whichever wild card it holds).
3. *Exact search.* A memoised recursion over the mask of the cards still to
   place: the lowest remaining card is either deadwood, the discard (for the
   knock question), or the lowest card of a candidate meld or lay-off inside
   the mask. The memo key is (remaining naturals, remaining wilds, table melds
   already extended, discard used). Every arrangement is reachable, so the
   result is the true minimum (C-6), never an approximation.

4. *Per-suit tables* (``rummydsl._meldtables``). When the deck's wild-free melds
   all lie in one suit or hold one rank across suits, a hand without wild cards
   (and without lay-offs, contract search or counted concealed melds) is solved
   from per-suit tables over rank masks plus a choice of sets; see that module.

Ties: the melds reported are the first minimum found (melding is tried before
leaving a card unmatched; on the per-suit tables, sets come first, then runs
suit by suit). :meth:`MeldRules.best_discard` breaks ties between
discards that leave the same deadwood by the *highest card value, then the
highest card id* (the most valuable card goes; among equals, the last in deck
order).

>>> from rummydsl.cards import Deck
>>> deck = Deck.preset("standard52")
>>> def gin_set(cards):
...     return 3 <= len(cards) <= 4 and len({c.rank for c in cards}) == 1
>>> def gin_run(cards):
...     orders = sorted(c.rank.order for c in cards)
...     return (len(cards) >= 3 and len({c.suit for c in cards}) == 1
...             and orders == list(range(orders[0], orders[0] + len(cards))))
>>> rules = MeldRules(deck, {"set": gin_set, "run": gin_run},
...                   [min(c.rank.order, 10) for c in deck.cards],
...                   shapes={"set": KindShape("same_rank", 3, 4),
...                           "run": KindShape("sequence", 3)})
>>> best = rules.solve(deck.parse_cards("7C 7S 7D 8D 9D KH"))
>>> best.deadwood, deck.format_cards(best.unmatched)
(24, '7S KH 7C')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, overload

from ._meldtables import SuitTables
from .errors import CardError
from .expr.facts import ContractFacts, PatternFacts

__all__ = [
    "MAX_HAND",
    "KindShape",
    "TableMeld",
    "Arrangement",
    "MeldRules",
    "melds_report",
    "shape_of_pattern",
]

#: The most cards :meth:`MeldRules.solve` accepts in one hand.
MAX_HAND = 20

Family = Literal["same_rank", "sequence", "any"]
MeldPredicate = Callable[[Sequence[Any]], bool]
ContractPredicate = Callable[[Sequence[tuple[str, Sequence[Any]]]], bool]

_INF = float("inf")

# A search result: (cost, naturals left, wilds left, table melds joined, discard used,
# contract melds as (candidate, meaning faces, kinds bits), meaning faces used).
_Found = tuple[float, int, int, int, int, tuple[tuple[int, tuple[int, ...], int], ...], tuple[int, ...]]


@dataclass(frozen=True)
class KindShape:
    """What every meld of one kind must look like: the solver's search hint.

    A shape is a *necessary* condition the solver uses to list candidate groups;
    the kind's predicate still decides. ``same_rank``: the natural cards share
    one rank. ``sequence``: the natural cards take distinct sequence positions
    inside one window no longer than the group (wild cards fill the rest).
    ``any``: no structure known; every subset is tried (slow for big hands).

    >>> KindShape("sequence", 3, same_suit=True)
    KindShape(family='sequence', min_size=3, max_size=None, same_suit=True)
    """

    family: Family = "any"
    """``same_rank``, ``sequence`` or ``any``."""
    min_size: int = 1
    """No meld of this kind has fewer cards."""
    max_size: int | None = None
    """No meld of this kind has more cards (``None``: no bound)."""
    same_suit: bool = False
    """The natural cards of every meld of this kind share one suit."""

    def __post_init__(self) -> None:
        if self.family not in ("same_rank", "sequence", "any"):
            raise ValueError(f"unknown meld shape family {self.family!r}")


@dataclass(frozen=True)
class TableMeld:
    """A meld already on the table, that hand cards may be added to (lay-offs).

    Pass only the melds this player may add to (the ender's melds for a defender
    after a knock, one's own melds in Skarney Gin).
    """

    cards: tuple[Any, ...]
    """The cards of the meld as it lies now (earlier lay-offs included)."""
    kind: str | None = None
    """The kind it was laid as; with ``kind_locked`` an extension must keep it."""
    owner: str | None = None
    """Who laid it (for the caller's bookkeeping; the solver does not read it)."""


class Arrangement(NamedTuple):
    """A best arrangement of a hand (C-6).

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
    melds: tuple[tuple[Any, ...], ...]
    """The hand's melds, each sorted by card id, in the order found."""
    kinds: tuple[frozenset[str], ...]
    """For each meld, every kind it forms."""
    unmatched: tuple[Any, ...]
    """Cards in no meld and not laid off (the discard excluded), by id."""
    contract: bool
    """Whether the hand holds the contract (true when the variant has none)."""
    layoffs: tuple[tuple[int, tuple[Any, ...]], ...] = ()
    """Cards added to table melds: ``(index into table, cards)``."""
    discard: Any = None
    """The card discarded, for the knock question; otherwise ``None``."""
    contract_melds: tuple[tuple[Any, ...], ...] = ()
    """With ``solve(..., contract=True)``: the melds that meet the contract."""
    meanings: tuple[tuple[Any, Any], ...] = ()
    """With ``wild_unique_card``: ``(wild card, meaning)`` for every wild card of the
    melds formed or extended (a table meld's wild cards included), the meaning being
    the deck's first-pack card of the face the wild stands for; otherwise empty."""


# --------------------------------------------------------------------------- shapes


def shape_of_pattern(predicate: Any) -> KindShape:
    """The :class:`KindShape` of a compiled meld pattern, from its
    :class:`~rummydsl.expr.PatternFacts` (the pattern's top-level ``and``s:
    ``same(rank)``, ``consecutive(rank)``, ``same(suit)``, bounds on ``size``).

    Anything else (a plain Python function) gives ``KindShape("any")``, which is
    always correct but slower.
    """
    facts = getattr(predicate, "facts", None)
    if not isinstance(facts, PatternFacts):
        return KindShape("any")
    family: Family = "sequence" if facts.consecutive else "same_rank" if facts.same_rank else "any"
    return KindShape(family, facts.min_size, facts.max_size, facts.same_suit)


def _merge_shapes(shapes: Iterable[KindShape]) -> list[tuple[Family, bool, int, int | None]]:
    """The generators to run: (family, per suit, min size, max size), loosest bounds.

    A family is enumerated per suit only when every kind of that family keeps
    one suit; a family ``any`` covers everything, so it is then the only one.
    """
    merged: dict[Family, tuple[bool, int, int | None]] = {}
    for shape in shapes:
        if shape.family in merged:
            suit, lo, hi = merged[shape.family]
            suit = suit and shape.same_suit
            lo = min(lo, shape.min_size)
            hi = None if hi is None or shape.max_size is None else max(hi, shape.max_size)
        else:
            suit, lo, hi = shape.same_suit, shape.min_size, shape.max_size
        merged[shape.family] = (suit, lo, hi)
    if "any" in merged:
        values = list(merged.values())
        lo = min(v[1] for v in values)
        his = [v[2] for v in values]
        hi = None if any(h is None for h in his) else max(h for h in his if h is not None)
        return [("any", all(v[0] for v in values), lo, hi)]
    return [(fam, suit, lo, hi) for fam, (suit, lo, hi) in merged.items()]


# --------------------------------------------------------------------------- rules


def _emit_subsets(pool: Sequence[int], nat_ids: Sequence[int], wilds: int, lo: int, hi: int | None,
                  emit: Callable[[int, int, int], None]) -> None:
    """Emit every subset of ``pool`` (hand positions) with each wild count that keeps
    its size within ``lo``..``hi``: ``emit(hand mask, card-id mask, wilds)``."""
    n = len(pool)
    top = n if hi is None else min(n, hi)
    for r in range(1, top + 1):
        kmin = max(0, lo - r)
        kmax = wilds if hi is None else min(wilds, hi - r)
        if kmin > kmax:
            continue
        for combo in itertools.combinations(pool, r):
            lmask = 0
            gmask = 0
            for i in combo:
                lmask |= 1 << i
                gmask |= 1 << nat_ids[i]
            for k in range(kmin, kmax + 1):
                emit(lmask, gmask, k)


class MeldRules:
    """A variant's meld rules, and the exact least-deadwood solver for them.

    :param deck: the deck (:class:`rummydsl.cards.Deck`); ``deck.cards[i].id == i``.
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
        deck: Any,
        kinds: Mapping[str, MeldPredicate],
        card_value: Callable[[Any], int] | Sequence[int],
        contract: ContractPredicate | None = None,
        excludes_concealed_melds: bool = True,
        *,
        kind_locked: bool = False,
        shapes: Mapping[str, KindShape] | None = None,
        contract_max_melds: int | None = None,
        wild_unique_card: bool = False,
    ) -> None:
        self.deck = deck
        self.kinds: dict[str, MeldPredicate] = dict(kinds)
        self.kind_names: tuple[str, ...] = tuple(self.kinds)
        self._predicates = tuple(self.kinds[name] for name in self.kind_names)
        self.contract = contract
        self.excludes_concealed_melds = bool(excludes_concealed_melds)
        self.kind_locked = bool(kind_locked)
        self.wild_unique_card = bool(wild_unique_card)
        shapes = dict(shapes or {})
        self.shapes: dict[str, KindShape] = {
            name: shapes.get(name) or shape_of_pattern(pred) for name, pred in self.kinds.items()
        }
        if contract_max_melds is None and contract is not None:
            contract_max_melds = _contract_max_melds(contract)
        self.contract_max_melds = contract_max_melds

        cards = tuple(deck.cards)
        self._cards = cards
        self._size = len(cards)
        self._bits = tuple(1 << i for i in range(len(cards)))
        if callable(card_value):
            values = tuple(int(card_value(c)) for c in cards)
        else:
            values = tuple(int(v) for v in card_value)
            if len(values) != len(cards):
                raise ValueError(f"card_value has {len(values)} entries for a deck of {len(cards)} cards")
        self.values: tuple[int, ...] = values
        self._wild_cards = tuple(c for c in cards if c.wild)
        wild_values = {values[c.id] for c in self._wild_cards}
        if len(wild_values) > 1:
            raise ValueError("every wild card must have the same value")
        self._wild_value = wild_values.pop() if wild_values else 0
        # Per-card tables: rank order and sequence positions (0 for wilds).
        self._order = tuple(0 if c.wild else c.rank.order for c in cards)
        self._suit = tuple(-1 if c.wild else c.suit.index for c in cards)
        self._positions = tuple(() if c.wild else tuple(deck.sequence_positions(c.rank)) for c in cards)
        self._n_positions = int(deck.max_sequence_position)
        self._n_ranks = len(deck.ranks)
        self._wrap = bool(getattr(deck, "wrap", False))
        self._families = _merge_shapes(self.shapes.values())
        self._memo: dict[int, int] = {}
        self._memo_limit = 1 << 21
        self._table_state: list[tuple[tuple[int, int, int], ...]] | None = None
        self._suit_state: SuitTables | Literal[False] | None = None  # False: the tables do not apply
        # wild_unique_card: natural faces (id % F), packs, and the meaning memos
        self._faces = int(getattr(deck, "natural_faces", 0)) or sum(1 for c in cards if not c.wild and c.copy == 0)
        self._packs = int(getattr(deck, "packs", 1))
        self._domain_memo: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}
        self._meaning_memo: dict[tuple[Any, ...], tuple[tuple[tuple[int, ...], int], ...]] = {}

    # ------------------------------------------------------------------ building

    @classmethod
    def from_variant(cls, variant: Any) -> MeldRules:
        """The meld rules of a loaded variant (duck-typed).

        Reads ``variant.deck``; ``variant.meld_kinds`` (a mapping name -> compiled
        pattern, or a sequence of objects with ``name`` and ``pattern``);
        ``variant.card_values`` (a tuple by card id); ``variant.contract`` (a
        compiled contract predicate, an object whose ``melds`` is one, or
        ``None``); ``variant.deadwood_excludes_concealed_melds`` (default true);
        ``variant.kind_locked`` or ``variant.meld_kind_locked`` (default false);
        and ``variant.wild_unique_card`` (default false). Search shapes and the
        contract's meld count come from the compiled ASTs.
        """
        kinds_in = variant.meld_kinds
        if isinstance(kinds_in, Mapping):
            kinds = dict(kinds_in)
        else:
            kinds = {kind.name: kind.pattern for kind in kinds_in}
        contract = getattr(variant, "contract", None)
        if contract is not None and not callable(contract):
            contract = getattr(contract, "melds", None)
        locked = getattr(variant, "kind_locked", None)
        if locked is None:
            locked = getattr(variant, "meld_kind_locked", False)
        return cls(
            variant.deck,
            kinds,
            variant.card_values,
            contract,
            bool(getattr(variant, "deadwood_excludes_concealed_melds", True)),
            kind_locked=bool(locked),
            wild_unique_card=bool(getattr(variant, "wild_unique_card", False)),
        )

    # ------------------------------------------------------------------ inputs

    def check_hand(self, cards: Iterable[Any] | str, limit: int = MAX_HAND) -> tuple[Any, ...]:
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

    def _check(self, cards: Iterable[Any] | str, limit: int = MAX_HAND) -> tuple[tuple[Any, ...], int]:
        """:meth:`check_hand`, also returning the hand's card-id bitmask."""
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
                cid = card.id
                if deck_cards[cid] is not card:
                    raise LookupError  # not this deck's own object: the careful loop decides
                seen |= bits[cid]
            if seen.bit_count() == len(items):
                return items, seen
        except (AttributeError, LookupError, TypeError):
            pass
        size = self._size
        seen = 0
        for card in items:
            if isinstance(card, str):
                return self._check_mixed(items)
            cid = getattr(card, "id", None)
            if (type(cid) is not int or not 0 <= cid < size
                    or (deck_cards[cid] is not card and deck_cards[cid] != card)):
                raise CardError(f"card {card!r} is not a card of this deck")
            bit = 1 << cid
            if seen & bit:
                raise CardError(f"duplicate card {str(card)!r} in the hand")
            seen |= bit
        return items, seen

    def _check_mixed(self, items: tuple[Any, ...]) -> tuple[tuple[Any, ...], int]:
        if all(isinstance(c, str) for c in items):
            out = tuple(self.deck.parse_cards(list(items)))
        else:
            out = tuple(self.deck.parse_card(c) if isinstance(c, str) else c for c in items)
        return self._check(out, limit=len(out))

    # ------------------------------------------------------------------ recognition

    def kinds_of(self, cards: Iterable[Any] | str, *, hand: Iterable[Any] | str | None = None) -> frozenset[str]:
        """Every kind the group of cards forms (an empty set: not a meld).

        With ``wild_unique_card`` and wild cards in the group, a kind counts only
        if the group's wild cards can take distinct meanings that form it (rules
        1-3 of the class docs, for this group alone): no meaning the face of a
        natural card of the group or of ``hand`` (other cards held, or the hand
        the group comes from; optional). Without the option ``hand`` is ignored.

        :raises CardError: for bad cards.
        """
        group = self.check_hand(cards, limit=self._size)
        nat = 0
        wilds = 0
        for card in group:
            if card.wild:
                wilds += 1
            else:
                nat |= 1 << card.id
        bits = self._judge(nat, wilds, group)
        if bits and wilds and self.wild_unique_card:
            held_ids = nat
            if hand is not None:
                for card in self.check_hand(hand, limit=self._size):
                    if not card.wild:
                        held_ids |= 1 << card.id
            held = Counter(cid % self._faces for cid in _ids(held_ids))
            unique = 0
            for _faces, got in self._meanings(nat, wilds, bits, held):
                unique |= got
            bits = unique
        return frozenset(name for i, name in enumerate(self.kind_names) if bits >> i & 1)

    # ------------------------------------------------------------------ wild meanings

    def _meaning_domains(self, gmask: int, k: int, bits: int) -> tuple[tuple[int, ...], ...]:
        """Faces the ``k`` wild cards of a group may stand for, from the shapes of the kinds
        in ``bits``: alternatives (all meanings of one group come from one of them).

        Only necessary conditions (one rank, one suit, within reach of the natural
        cards' sequence positions); the predicates decide.
        """
        key = (gmask, k, bits)
        got = self._domain_memo.get(key)
        if got is not None:
            return got
        n_r = self._n_ranks
        nat = list(_ids(gmask))
        size = len(nat) + k
        orders = {self._order[c] for c in nat}
        suits = {self._suit[c] for c in nat}
        all_orders = set(range(1, n_r + 1))
        all_suits = {self._suit[f] for f in range(self._faces)}
        nat_pos = [p for c in nat for p in self._positions[c]]
        period = n_r
        alts: set[tuple[int, ...]] = set()
        for i, name in enumerate(self.kind_names):
            if not bits >> i & 1:
                continue
            shape = self.shapes[name]
            rank_alts: list[set[int]]
            if shape.family == "same_rank":
                rank_alts = [orders] if len(orders) == 1 else [] if orders else [{r} for r in all_orders]
            elif shape.family == "sequence" and nat:
                reach = size - 1

                def near(q: int) -> bool:
                    for p in nat_pos:
                        d = abs(p - q)
                        if self._wrap:
                            d = min(d % period, period - d % period)
                        if d <= reach:
                            return True
                    return False

                rank_alts = [{r for r in all_orders if any(near(q) for q in self._positions[r - 1])}]
            else:
                rank_alts = [all_orders]
            if shape.same_suit:
                suit_alts = [suits] if len(suits) == 1 else [] if suits else [{x} for x in all_suits]
            else:
                suit_alts = [all_suits]
            for ro in rank_alts:
                for so in suit_alts:
                    alts.add(tuple(sorted(x * n_r + r - 1 for x in so for r in ro)))
        out = tuple(sorted(alts))
        self._domain_memo[key] = out
        return out

    def _meanings(self, gmask: int, k: int, bits: int,
                  held: Mapping[int, int]) -> tuple[tuple[tuple[int, ...], int], ...]:
        """Every way to give the ``k`` wild cards of a group (natural cards ``gmask``,
        kinds ``bits`` judged with the wild cards) meanings under rules 1-3 for the
        group alone: ``(faces, kinds bits)`` pairs, ``faces`` sorted (wild cards are
        interchangeable). ``held[face]``: natural cards of that face in play (the
        hand, a joined table meld; the group's own included).
        """
        alts = self._meaning_domains(gmask, k, bits)
        packs = self._packs
        faces = sorted({f for alt in alts for f in alt})
        sig = tuple((f, held[f]) for f in faces if held.get(f))
        key = (gmask, k, bits, sig)
        got = self._meaning_memo.get(key)
        if got is not None:
            return got
        F = self._faces
        seen: set[tuple[int, ...]] = set()
        out: list[tuple[tuple[int, ...], int]] = []
        for alt in alts:
            free = [f for f in alt if held.get(f, 0) < packs]
            combos: Iterable[tuple[int, ...]] = (
                itertools.combinations(free, k) if packs == 1 else itertools.combinations_with_replacement(free, k))
            for combo in combos:
                if combo in seen:
                    continue
                seen.add(combo)
                concrete = gmask
                fits = True
                for f in combo:
                    if packs > 1 and held.get(f, 0) + combo.count(f) > packs:
                        fits = False
                        break
                    cid = f
                    while concrete >> cid & 1:
                        cid += F
                    concrete |= 1 << cid
                if not fits:
                    continue
                got_bits = bits & self._judge(concrete, 0)
                if got_bits:
                    out.append((combo, got_bits))
        result = tuple(out)
        if len(self._meaning_memo) >= self._memo_limit:
            self._meaning_memo.clear()
        self._meaning_memo[key] = result
        return result

    def _judge(self, gmask: int, wilds: int, cards: Sequence[Any] | None = None) -> int:
        """The kinds bitmask of a group (natural cards ``gmask``, ``wilds`` wild cards), memoised."""
        key = gmask | (wilds << self._size)
        bits = self._memo.get(key)
        if bits is not None:
            return bits
        if cards is None:
            group: list[Any] = []
            m = gmask
            while m:
                low = m & -m
                group.append(self._cards[low.bit_length() - 1])
                m ^= low
            group.extend(self._wild_cards[:wilds])
            cards = group
        bits = 0
        for i, pred in enumerate(self._predicates):
            if pred(cards):
                bits |= 1 << i
        if len(self._memo) >= self._memo_limit:
            self._memo.clear()
        self._memo[key] = bits
        return bits

    def _names(self, bits: int) -> frozenset[str]:
        return frozenset(name for i, name in enumerate(self.kind_names) if bits >> i & 1)

    # ------------------------------------------------------------------ candidates

    def _candidates(
        self, nat_ids: Sequence[int], wilds: int, max_wilds: int | None = None
    ) -> list[tuple[int, int, int, int]]:
        """Every group of the given natural cards plus 0..wilds wild cards that is a meld.

        Returns ``(local mask, wild count, global mask, kinds bits)`` tuples; bit
        ``i`` of a local mask is ``nat_ids[i]``.
        """
        seen: set[int] = set()
        out: list[tuple[int, int, int, int]] = []
        shift = len(nat_ids) + 1
        judge = self._judge
        memo = self._memo
        size = self._size

        def emit(lmask: int, gmask: int, k: int) -> None:
            key = (k << shift) | lmask
            if key in seen:
                return
            seen.add(key)
            bits = memo.get(gmask | (k << size))
            if bits is None:
                bits = judge(gmask, k)
            if bits:
                out.append((lmask, k, gmask, bits))

        for family, per_suit, lo, hi in self._families:
            gen = (self._gen_same_rank if family == "same_rank"
                   else self._gen_sequence if family == "sequence" else self._gen_any)
            if per_suit:
                by_suit: dict[int, list[int]] = {}
                suit_of = self._suit
                for i, cid in enumerate(nat_ids):
                    by_suit.setdefault(suit_of[cid], []).append(i)
                for members in by_suit.values():
                    gen(nat_ids, members, wilds, lo, hi, emit)
                self._wild_only(wilds, lo, hi, emit)
            else:
                gen(nat_ids, range(len(nat_ids)), wilds, lo, hi, emit)
                self._wild_only(wilds, lo, hi, emit)
        return out

    def _wild_only(self, wilds: int, lo: int, hi: int | None, emit: Callable[[int, int, int], None]) -> None:
        top = wilds if hi is None else min(wilds, hi)
        for k in range(max(lo, 1), top + 1):
            emit(0, 0, k)

    def _gen_same_rank(self, nat_ids: Sequence[int], members_: Iterable[int], wilds: int, lo: int,
                       hi: int | None, emit: Callable[[int, int, int], None]) -> None:
        by_rank: dict[int, list[int]] = {}
        order = self._order
        for i in members_:
            by_rank.setdefault(order[nat_ids[i]], []).append(i)
        for members in by_rank.values():
            _emit_subsets(members, nat_ids, wilds, lo, hi, emit)

    def _gen_sequence(self, nat_ids: Sequence[int], members_: Iterable[int], wilds: int, lo: int,
                      hi: int | None, emit: Callable[[int, int, int], None]) -> None:
        npos = self._n_positions
        wrap = self._wrap
        period = self._n_ranks
        by_pos: dict[int, list[int]] = {}
        positions = self._positions
        for i in members_:
            for p in positions[nat_ids[i]]:
                by_pos.setdefault(p, []).append(i)
        longest = npos if hi is None else min(npos, hi)
        if wrap:
            longest = period if hi is None else min(period, hi)

        def at(p: int) -> Sequence[int]:
            if wrap:
                p = (p - 1) % period + 1
            return by_pos.get(p, ())

        def grow(start: int, last: int, lmask: int, gmask: int, count: int, gaps: int) -> None:
            # emit this natural set with every wild count that can fill it
            kmin = max(gaps, lo - count, 0)
            kmax = wilds if hi is None else min(wilds, hi - count)
            for k in range(kmin, kmax + 1):
                emit(lmask, gmask, k)
            # extend to a later position, leaving p - last - 1 gaps for wilds
            limit = start + longest - 1
            if not wrap:
                limit = min(limit, npos)
            p = last + 1
            while p <= limit:
                new_gaps = gaps + (p - last - 1)
                if new_gaps > wilds:
                    break
                if hi is not None and count + 1 + new_gaps > hi:
                    break
                for i in at(p):
                    bit = 1 << i
                    if not lmask & bit:
                        grow(start, p, lmask | bit, gmask | (1 << nat_ids[i]), count + 1, new_gaps)
                p += 1

        starts = sorted(by_pos) if not wrap else list(range(1, period + 1))
        for a in starts:
            for i in at(a):
                grow(a, a, 1 << i, 1 << nat_ids[i], 1, 0)

    def _gen_any(self, nat_ids: Sequence[int], members_: Iterable[int], wilds: int, lo: int,
                 hi: int | None, emit: Callable[[int, int, int], None]) -> None:
        _emit_subsets(list(members_), nat_ids, wilds, lo, hi, emit)

    # ------------------------------------------------------------------ solving

    def solve(
        self,
        cards: Iterable[Any] | str,
        *,
        contract: bool = False,
        table: Sequence[TableMeld | Sequence[Any]] = (),
        check_contract: bool = True,
    ) -> Arrangement:
        """The arrangement of ``cards`` with the least deadwood (C-6).

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
        :raises CardError: for bad cards.
        """
        hand, mask = self._check(cards)
        if not table and (self.contract is None or not (contract or check_contract)):
            tables = self._suit_state or self._suit_tables()
            if tables and not mask >> tables.F:
                return self._table_arrangement(tables, mask, False)
        return self._solve(hand, contract=contract, table=table, discard=False,
                           check_contract=check_contract, mask=mask)

    def best_discard(
        self,
        cards: Iterable[Any] | str,
        *,
        contract: bool = False,
        table: Sequence[TableMeld | Sequence[Any]] = (),
    ) -> tuple[Any, int]:
        """The knock question: which card to discard to leave the least deadwood.

        One search over arrangements with one discard (not one solve per card).
        Ties go to the highest-valued card, then the highest card id.

        :returns: ``(card, deadwood after discarding it)``.
        :raises CardError: for bad cards.
        """
        if not table and not (contract and self.contract is not None):
            hand, mask = self._check(cards)
            tables = self._suit_state or self._suit_tables()
            if tables and not mask >> tables.F:
                key = tables.knock_key(mask, self)[0]
                return self._cards[tables.by_penalty[key % tables.K]], key // tables.K
        arrangement = self.solve_discard(cards, contract=contract, table=table)
        return arrangement.discard, arrangement.deadwood

    def solve_discard(
        self,
        cards: Iterable[Any] | str,
        *,
        contract: bool = False,
        table: Sequence[TableMeld | Sequence[Any]] = (),
        check_contract: bool = False,
    ) -> Arrangement:
        """Like :meth:`best_discard`, returning the whole arrangement of the kept cards."""
        hand, mask = self._check(cards)
        return self._solve(hand, contract=contract, table=table, discard=True,
                           check_contract=check_contract, mask=mask)

    def holds_contract(self, cards: Iterable[Any] | str) -> bool:
        """Whether the hand can meet the contract (true for a variant with none)."""
        hand = self.check_hand(cards)
        if self.contract is None:
            return True
        ctx = _Context(self, hand, (), False)
        return ctx.contract_search(existence=True) is not None

    def min_deadwood(self, cards: Iterable[Any] | str, *, discard: bool = False) -> int:
        """Just the least deadwood of a hand (after the best discard with ``discard``).

        The same search as :meth:`solve` without building the arrangement.

        :raises CardError: for bad cards.
        """
        hand, mask = self._check(cards)
        tables = self._suit_state or self._suit_tables()
        if tables and not mask >> tables.F:
            if discard:
                return tables.knock_key(mask, self)[0] // tables.K
            return tables.deadwood(mask)
        fast = self._fast(hand, discard, build=False)
        if fast is not None:
            return fast
        ctx = _Context(self, hand, (), discard)
        return int(ctx.plain()[0] // ctx.A)

    def _solve(self, hand: tuple[Any, ...], *, contract: bool, table: Sequence[Any],
               discard: bool, check_contract: bool, mask: int) -> Arrangement:
        if not table and not (contract and self.contract is not None) and (
                self.contract is None or not check_contract):
            tables = self._suit_state or self._suit_tables()
            if tables and not mask >> tables.F:
                return self._table_arrangement(tables, mask, discard)
            fast = self._fast(hand, discard, build=True)
            if fast is not None:
                return fast
        ctx = _Context(self, hand, table, discard)
        if contract and self.contract is not None:
            found = ctx.contract_search(existence=False)
            if found is not None:
                return ctx.arrangement(found, True)
            return ctx.arrangement(ctx.plain(), False)
        holds = True
        if self.contract is not None:
            holds = bool(check_contract) and ctx.contract_search(existence=True) is not None
        return ctx.arrangement(ctx.plain(), holds)


    # ------------------------------------------------------------------ the fast paths

    def _suit_tables(self) -> SuitTables | Literal[False]:
        """The per-suit tables (rummydsl._meldtables), or ``False`` when they do not apply."""
        if self._suit_state is None:
            self._suit_state = SuitTables.build(self) or False
        return self._suit_state

    def _table_arrangement(self, tables: SuitTables, mask: int, discard: bool) -> Arrangement:
        deadwood, melds, kinds, unmatched, disc = tables.arrange(mask, discard, self)
        return Arrangement(deadwood, melds, kinds, unmatched, self.contract is None,
                           (), self._cards[disc] if disc >= 0 else None)

    _DECK_TABLE_LIMIT = 200_000

    def _deck_table(self) -> list[tuple[tuple[int, int, int], ...]] | None:
        """Every wild-free meld of the deck, by lowest card id: ``(mask, value sum, kinds)``.

        Built once per solver from the shapes (like OpenSpiel's meld tables); ``None``
        when the deck has too many (a mixed-suit sequence kind, many packs).
        """
        if self._table_state is not None:
            return self._table_state or None
        found: list[tuple[int, int]] = []
        budget = [self._DECK_TABLE_LIMIT]

        class _Full(Exception):
            pass

        seen: set[int] = set()

        def emit(lmask: int, gmask: int, k: int) -> None:
            if k or gmask in seen:
                return
            budget[0] -= 1
            if budget[0] < 0:
                raise _Full
            seen.add(gmask)
            found.append((gmask, 0))

        nat_ids = [c.id for c in self._cards if not c.wild]
        try:
            if any(fam == "any" for fam, *_ in self._families):
                raise _Full
            for family, per_suit, lo, hi in self._families:
                gen = self._gen_same_rank if family == "same_rank" else self._gen_sequence
                if per_suit:
                    by_suit: dict[int, list[int]] = {}
                    for i, cid in enumerate(nat_ids):
                        by_suit.setdefault(self._suit[cid], []).append(i)
                    for members in by_suit.values():
                        gen(nat_ids, members, 0, lo, hi, emit)
                else:
                    gen(nat_ids, range(len(nat_ids)), 0, lo, hi, emit)
        except _Full:
            self._table_state = []
            return None
        table: list[list[tuple[int, int, int]]] = [[] for _ in range(self._size)]
        values = self.values
        for gmask, _ in found:
            bits = self._judge(gmask, 0)
            if not bits:
                continue
            total = 0
            m = gmask
            while m:
                low = m & -m
                total += values[low.bit_length() - 1]
                m ^= low
            table[(gmask & -gmask).bit_length() - 1].append((gmask, total, bits))
        self._table_state = [tuple(x) for x in table]
        return self._table_state

    @overload
    def _fast(self, hand: tuple[Any, ...], discard: bool, build: Literal[True]) -> Arrangement | None: ...
    @overload
    def _fast(self, hand: tuple[Any, ...], discard: bool, build: Literal[False]) -> int | None: ...

    def _fast(self, hand: tuple[Any, ...], discard: bool, build: bool) -> Arrangement | int | None:
        """The search for a hand without wild cards, table melds or contract search, on deck tables."""
        for card in hand:
            if card.wild:
                return None
        table = self._deck_table()
        if table is None:
            return None
        values = self.values
        ids = sorted(card.id for card in hand)
        H = 0
        total = 0
        for cid in ids:
            H |= 1 << cid
            total += values[cid]
        if discard:
            return self._fast_discard(ids, H, total, table, build)
        by_low: dict[int, list[tuple[int, int]]] = {}
        meldable = 0
        n = len(ids)
        B = total + 1
        A = B * (n + 1)
        excl = self.excludes_concealed_melds
        for cid in ids:
            lst = [(m, 0 if excl else v * A) for m, v, _b in table[cid] if m & H == m]
            if lst:
                by_low[cid] = lst
                for m, _ in lst:
                    meldable |= m
        A1 = A + 1
        unm = H & ~meldable
        base = 0  # the cost of the unmeldable cards, all dead
        for cid in ids:
            if unm >> cid & 1:
                base += values[cid] * A1
        memo: dict[int, int] = {}

        def f(mask: int, disc: int) -> int:
            key = mask << 1 | disc
            got = memo.get(key)
            if got is not None:
                return got
            if not mask:
                memo[key] = 0
                return 0
            low = mask & -mask
            c = low.bit_length() - 1
            rest = mask ^ low
            # cards with no meld left inside the mask are dead: no branching
            acc = 0
            while True:
                lst = by_low.get(c)
                if lst:
                    for m, _cost in lst:
                        if m & mask == m:
                            break
                    else:
                        lst = None
                if lst:
                    break
                acc += values[c] * A1
                mask = rest
                if not mask:
                    memo[key] = acc
                    return acc
                low = mask & -mask
                c = low.bit_length() - 1
                rest = mask ^ low
            if acc:
                best = acc + f(mask, disc)
                memo[key] = best
                return best
            best = values[c] * A1 + f(rest, disc)
            lst = by_low.get(c)
            if lst:
                for m, cost in lst:
                    if m & mask == m:
                        v = cost + f(mask ^ m, disc)
                        if v < best:
                            best = v
            memo[key] = best
            return best

        cost = base + f(meldable, 0)
        if not build:
            return cost // A
        # walk a best path
        melds: list[tuple[Any, ...]] = []
        kinds: list[frozenset[str]] = []
        unmatched_mask = unm
        disc = 0
        mask = meldable
        while mask:
            target = f(mask, disc)
            low = mask & -mask
            c = low.bit_length() - 1
            done = False
            for m, mcost in by_low.get(c, ()):
                if m & mask == m and mcost + f(mask ^ m, disc) == target:
                    melds.append(self._cards_of(m))
                    kinds.append(self._names(self._judge(m, 0)))
                    mask ^= m
                    done = True
                    break
            if done:
                continue
            unmatched_mask |= low
            mask ^= low
        return Arrangement(
            deadwood=cost // A,
            melds=tuple(melds),
            kinds=tuple(kinds),
            unmatched=self._cards_of(unmatched_mask),
            contract=self.contract is None,
        )

    def _fast_discard(self, ids: list[int], H: int, total: int,
                      table: list[tuple[tuple[int, int, int], ...]], build: bool) -> Arrangement | int:
        """The knock question on deck tables, cards taken from the most valuable down.

        Local bit ``i`` is the hand's ``i``-th card by (value, id) from the top.
        Some best arrangement discards its most valuable unmatched card (swapping
        the discard with a more valuable unmatched card never costs more, and the
        tie-break prefers it), so a card reached while no card is discarded yet is
        either melded or discarded, never left unmatched: far fewer states.
        """
        values = self.values
        order = sorted(ids, key=lambda c: (values[c], c), reverse=True)
        n = len(order)
        if not any(m & H == m for cid in ids for m, _v, _b in table[cid]):
            # no meld at all: the most valuable card goes, the rest is deadwood
            top = order[0]
            if not build:
                return total - values[top]
            return Arrangement(deadwood=total - values[top], melds=(), kinds=(),
                               unmatched=self._cards_of(H ^ (1 << top)),
                               contract=self.contract is None, discard=self._cards[top])
        pos = {cid: i for i, cid in enumerate(order)}
        B = total + 1
        A = B * (n + 1)
        A1 = A + 1
        excl = self.excludes_concealed_melds
        by_low: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        for cid in ids:
            for m, v, _b in table[cid]:
                if m & H == m:
                    lm = 0
                    mm = m
                    while mm:
                        lb = mm & -mm
                        lm |= 1 << pos[lb.bit_length() - 1]
                        mm ^= lb
                    by_low[(lm & -lm).bit_length() - 1].append((lm, 0 if excl else v * A, m))
        dead = [values[cid] * A1 for cid in order]
        memo: dict[int, int] = {}
        INF = 1 << 200

        def f(mask: int, disc: int) -> int:
            key = mask << 1 | disc
            got = memo.get(key)
            if got is not None:
                return got
            if not mask:
                best = 0 if disc else INF
                memo[key] = best
                return best
            low = mask & -mask
            c = low.bit_length() - 1
            if disc:
                acc = 0
                while True:
                    for m, _cost, _g in by_low[c]:
                        if m & mask == m:
                            break
                    else:
                        acc += dead[c]
                        mask ^= low
                        if not mask:
                            memo[key] = acc
                            return acc
                        low = mask & -mask
                        c = low.bit_length() - 1
                        continue
                    break
                if acc:
                    best = acc + f(mask, 1)
                    memo[key] = best
                    return best
                best = dead[c] + f(mask ^ low, 1)
            else:
                best = c * B + f(mask ^ low, 1)
            for m, cost, _g in by_low[c]:
                if m & mask == m:
                    v = cost + f(mask ^ m, disc)
                    if v < best:
                        best = v
            memo[key] = best
            return best

        full = (1 << n) - 1
        cost = f(full, 0)
        if not build:
            return cost // A
        melds: list[tuple[Any, ...]] = []
        kinds: list[frozenset[str]] = []
        unmatched = 0
        discard_card: Any = None
        mask, disc = full, 0
        while mask:
            target = f(mask, disc)
            low = mask & -mask
            c = low.bit_length() - 1
            for m, mcost, g in by_low[c]:
                if m & mask == m and mcost + f(mask ^ m, disc) == target:
                    melds.append(self._cards_of(g))
                    kinds.append(self._names(self._judge(g, 0)))
                    mask ^= m
                    break
            else:
                if disc:
                    unmatched |= 1 << order[c]
                else:
                    discard_card = self._cards[order[c]]
                    disc = 1
                mask ^= low
        return Arrangement(
            deadwood=cost // A,
            melds=tuple(melds),
            kinds=tuple(kinds),
            unmatched=self._cards_of(unmatched),
            contract=self.contract is None,
            discard=discard_card,
        )

    def display_order(self, meld: Sequence[Any]) -> tuple[Any, ...]:
        """The cards of a meld in reading order: by rank (an ace above a king when it
        stands high), then suit; wild cards last.

        >>> from rummydsl.cards import Deck
        >>> deck = Deck.from_spec({"preset": "standard52", "ace": "both"})
        >>> rules = MeldRules(deck, {}, [0] * 52)
        >>> deck.format_cards(rules.display_order(deck.parse_cards("AH KH QH")))
        'QH KH AH'
        """
        n = self._n_ranks
        high = self.deck.ace == "high" or (
            self.deck.ace == "both" and any(not c.wild and c.rank.order == n for c in meld))

        def key(card: Any) -> tuple[int, int, int]:
            if card.wild:
                return (1, 0, card.id)
            order = card.rank.order
            if order == 1 and high:
                order = n + 1
            return (0, order, card.suit.index)

        return tuple(sorted(meld, key=key))

    def _cards_of(self, mask: int) -> tuple[Any, ...]:
        out = []
        cards = self._cards
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


# --------------------------------------------------------------------------- search


class _Context:
    """One hand's search: local card indices, candidates, the memoised recursion."""

    def __init__(self, rules: MeldRules, hand: tuple[Any, ...], table: Sequence[Any], discard: bool) -> None:
        self.rules = rules
        self.hand = hand
        self.discard = discard
        values = rules.values
        naturals = sorted((c for c in hand if not c.wild), key=lambda c: c.id)
        wild_cards = sorted((c for c in hand if c.wild), key=lambda c: c.id)
        self.naturals = naturals
        self.wild_cards = wild_cards
        n = len(naturals)
        self.n = n
        self.w = len(wild_cards)
        nat_ids = [c.id for c in naturals]
        self.nat_ids = nat_ids
        total = sum(values[c.id] for c in hand)
        # cost = primary * A + discard_penalty * B + secondary; see the module docs.
        excl = rules.excludes_concealed_melds
        self.B = B = total + 1
        self.A = A = B * (len(hand) + 1)
        dead = [values[cid] * (A + 1) for cid in nat_ids]
        in_meld = [0 if excl else values[cid] * A for cid in nat_ids]
        self.dead_cost = dead
        self.wild_dead = rules._wild_value * (A + 1)
        self.wild_meld = 0 if excl else rules._wild_value * A
        # discard tie-break: rank every hand card by (value, id); the best gets penalty 0
        ranked = sorted(hand, key=lambda c: (values[c.id], c.id))
        rank_of = {c.id: r for r, c in enumerate(ranked)}
        top = len(hand) - 1
        self.disc_cost = [(top - rank_of[cid]) * B for cid in nat_ids]
        self.wild_disc = (top - rank_of[wild_cards[-1].id]) * B if wild_cards else 0

        # hand melds
        cands = rules._candidates(nat_ids, self.w)
        self.cands = cands
        by_low: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        wild_only: list[tuple[int, int, int]] = []
        meld_cost: list[int] = []
        for idx, (lmask, k, _g, _bits) in enumerate(cands):
            cost = k * self.wild_meld
            m = lmask
            while m:
                low = m & -m
                cost += in_meld[low.bit_length() - 1]
                m ^= low
            meld_cost.append(cost)
            if lmask:
                by_low[(lmask & -lmask).bit_length() - 1].append((lmask, k, cost, idx))
            else:
                wild_only.append((k, cost, idx))
        self.meld_cost = meld_cost
        self.by_low = by_low
        self.wild_only = wild_only

        # lay-offs onto table melds
        self.table = [t if isinstance(t, TableMeld) else TableMeld(tuple(t)) for t in table]
        ext_by_low: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        ext_wild: list[tuple[int, int, int]] = []
        self.exts: list[tuple[int, int, int]] = []  # (table index, local mask, wilds)
        self.ext_groups: list[tuple[int, int, int]] = []  # (global natural mask, all wilds, kinds bits)
        for t, group in enumerate(self.table):
            for lmask, k, gmask, total_k, bits in self._extensions(group):
                e = len(self.exts)
                self.exts.append((t, lmask, k))
                self.ext_groups.append((gmask, total_k, bits))
                if lmask:
                    ext_by_low[(lmask & -lmask).bit_length() - 1].append((lmask, k, t, e))
                else:
                    ext_wild.append((k, t, e))
        self.ext_by_low = ext_by_low
        self.ext_wild = ext_wild
        self.memo: dict[int, float] = {}
        self.nbits = n + 6  # room for the wild count (at most 20)
        self.unique = rules.wild_unique_card and (
            self.w > 0 or any(c.wild for group in self.table for c in group.cards))
        if self.unique:
            self._setup_unique()

    def _extensions(self, group: TableMeld) -> list[tuple[int, int, int, int, int]]:
        """Every (hand natural mask, hand wild count) that can be added to ``group``,
        with the extended group's global natural mask, wild count and kinds bits."""
        rules = self.rules
        t_cards = tuple(group.cards)
        t_nat = sorted(c.id for c in t_cards if not c.wild)
        t_w = sum(1 for c in t_cards if c.wild)
        hand_ids = set(self.nat_ids)
        if any(cid in hand_ids for cid in t_nat):
            raise CardError("a card is both in the hand and in a table meld")
        n = self.n
        ids = list(self.nat_ids) + t_nat
        t_lmask = ((1 << len(t_nat)) - 1) << n
        need = None
        if rules.kind_locked and group.kind is not None:
            if group.kind not in rules.kinds:
                raise CardError(f"unknown meld kind {group.kind!r} of a table meld")
            need = 1 << rules.kind_names.index(group.kind)
        out = []
        for lmask, k, _gmask, bits in rules._candidates(ids, self.w + t_w):
            if lmask & t_lmask != t_lmask or k < t_w:
                continue
            hmask = lmask & ((1 << n) - 1)
            hk = k - t_w
            if not hmask and not hk:
                continue
            if need is not None and not bits & need:
                continue
            out.append((hmask, hk, _gmask, k, bits if need is None else bits & need))
        return out

    # wild_unique_card ----------------------------------------------------------

    def _setup_unique(self) -> None:
        """The meanings each candidate can take (rules 1-2 within the hand, and the
        table meld for a lay-off); candidates with none are dropped, so :meth:`f`
        becomes the search without rule 3 and the cross-meld part of rule 2: a
        lower bound that :meth:`fu` uses to prune."""
        rules = self.rules
        F = rules._faces
        self.packs = rules._packs
        self.held: Counter[int] = Counter(cid % F for cid in self.nat_ids)
        no_meanings: tuple[tuple[tuple[int, ...], int], ...] = ()
        self.opts: list[tuple[tuple[tuple[int, ...], int], ...]] = []
        for _lmask, k, gmask, bits in self.cands:
            self.opts.append(rules._meanings(gmask, k, bits, self.held) if k else (((), bits),))
        self.by_low = [[m for m in lst if self.opts[m[3]]] for lst in self.by_low]
        self.wild_only = [m for m in self.wild_only if self.opts[m[2]]]
        self.tface: list[Counter[int]] = [Counter(c.id % F for c in group.cards if not c.wild)
                                          for group in self.table]
        self.twilds: list[list[Any]] = [[c for c in group.cards if c.wild] for group in self.table]
        self.ext_opts: list[tuple[tuple[tuple[int, ...], int], ...]] = []
        for (t, _lmask, _k), (gmask, total_k, bits) in zip(self.exts, self.ext_groups):
            if total_k:
                self.ext_opts.append(rules._meanings(gmask, total_k, bits, self.held + self.tface[t]))
            else:
                self.ext_opts.append((((), bits),) if bits else no_meanings)
        self.ext_by_low = [[x for x in lst if self.ext_opts[x[3]]] for lst in self.ext_by_low]
        self.ext_wild = [x for x in self.ext_wild if self.ext_opts[x[2]]]
        self.umemo: dict[tuple[int, int, int, int, tuple[int, ...]], tuple[float, bool]] = {}

    def _in_play(self, face: int, tbl: int) -> int:
        """Natural cards of ``face`` in the hand and in the table melds ``tbl`` joins."""
        count = self.held[face]
        t = 0
        while tbl >> t:
            if tbl >> t & 1:
                count += self.tface[t][face]
            t += 1
        return count

    def _fits(self, faces: tuple[int, ...], used: tuple[int, ...], tbl: int) -> bool:
        """Meanings ``faces`` may be added to ``used`` with the table melds ``tbl`` joined."""
        packs = self.packs
        for face in set(faces):
            if self._in_play(face, tbl) + used.count(face) + faces.count(face) > packs:
                return False
        return True

    def _join_ok(self, used: tuple[int, ...], t: int, tbl: int) -> bool:
        """Joining table meld ``t`` (``tbl`` already including it) breaks no meaning in ``used``."""
        tface = self.tface[t]
        for face in set(used):
            if tface[face] and self._in_play(face, tbl) + used.count(face) > self.packs:
                return False
        return True

    def moves(self, mask: int, w: int, tbl: int, disc: int,
              used: tuple[int, ...]) -> list[tuple[float, float, tuple[int, int, int, int, tuple[int, ...]], Any]]:
        """The steps from a state of :meth:`fu`: ``(step cost, bound of the rest, next
        state, what was done)``, the rest bounded by :meth:`f`."""
        out: list[tuple[float, float, tuple[int, int, int, int, tuple[int, ...]], Any]] = []
        f = self.f
        fits = self._fits

        def merge(faces: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sorted(used + faces)) if faces else used

        if mask:
            low = mask & -mask
            c = low.bit_length() - 1
            for lmask, k, cost, idx in self.by_low[c]:
                if lmask & mask == lmask and k <= w:
                    nm, nw = mask ^ lmask, w - k
                    rest = f(nm, nw, tbl, disc)
                    if rest == _INF:
                        continue
                    for faces, bits in self.opts[idx]:
                        if not faces or fits(faces, used, tbl):
                            out.append((cost, rest, (nm, nw, tbl, disc, merge(faces)), ("meld", idx, faces, bits)))
            for lmask, k, t, e in self.ext_by_low[c]:
                if lmask & mask == lmask and k <= w and not tbl >> t & 1:
                    nm, nw, nt = mask ^ lmask, w - k, tbl | 1 << t
                    rest = f(nm, nw, nt, disc)
                    if rest == _INF or not self._join_ok(used, t, nt):
                        continue
                    for faces, _bits in self.ext_opts[e]:
                        if not faces or fits(faces, used, nt):
                            out.append((0, rest, (nm, nw, nt, disc, merge(faces)), ("ext", e, faces, 0)))
            rest_mask = mask ^ low
            out.append((self.dead_cost[c], f(rest_mask, w, tbl, disc), (rest_mask, w, tbl, disc, used),
                        ("dead", c, (), 0)))
            if self.discard and not disc:
                out.append((self.disc_cost[c], f(rest_mask, w, tbl, 1), (rest_mask, w, tbl, 1, used),
                            ("discard", c, (), 0)))
        elif w:
            for k, cost, idx in self.wild_only:
                if k <= w:
                    rest = f(0, w - k, tbl, disc)
                    if rest == _INF:
                        continue
                    for faces, bits in self.opts[idx]:
                        if not faces or fits(faces, used, tbl):
                            out.append((cost, rest, (0, w - k, tbl, disc, merge(faces)), ("meld", idx, faces, bits)))
            for k, t, e in self.ext_wild:
                if k <= w and not tbl >> t & 1:
                    nt = tbl | 1 << t
                    rest = f(0, w - k, nt, disc)
                    if rest == _INF or not self._join_ok(used, t, nt):
                        continue
                    for faces, _bits in self.ext_opts[e]:
                        if not faces or fits(faces, used, nt):
                            out.append((0, rest, (0, w - k, nt, disc, merge(faces)), ("ext", e, faces, 0)))
            out.append((self.wild_dead, f(0, w - 1, tbl, disc), (0, w - 1, tbl, disc, used), ("dead", -1, (), 0)))
            if self.discard and not disc:
                out.append((self.wild_disc, f(0, w - 1, tbl, 1), (0, w - 1, tbl, 1, used), ("discard", -1, (), 0)))
        out.sort(key=lambda m: m[0] + m[1])
        return out

    def fu(self, mask: int, w: int, tbl: int, disc: int, used: tuple[int, ...], budget: float = _INF) -> float:
        """The least cost of placing the naturals ``mask`` and ``w`` wilds with the
        meanings ``used`` already given (rules 1-3): exact when below ``budget``,
        otherwise some lower bound of it that is at least ``budget``.

        A branch and bound over :meth:`moves`, best bound first, with :meth:`f`
        (the search without the cross-meld rules) as the bound; exact results and
        lower bounds are memoised."""
        bound = self.f(mask, w, tbl, disc)
        if bound >= budget or not (mask or w):
            return bound
        key = (mask, w, tbl, disc, used)
        got = self.umemo.get(key)
        if got is not None and (got[1] or got[0] >= budget):
            return got[0]
        best = _INF
        low = _INF
        for step, rest, nxt, _what in self.moves(mask, w, tbl, disc, used):
            limit = best if best < budget else budget
            if step + rest >= limit:
                low = min(low, step + rest)
                break
            v = step + self.fu(*nxt, limit - step)
            if v < limit:
                best = v
            elif v < low:
                low = v
        if best < budget:
            self.umemo[key] = (best, True)
            return best
        value = max(low, bound)
        self.umemo[key] = (value, value == _INF)
        return value

    # the memoised recursion ------------------------------------------------

    def f(self, mask: int, w: int, tbl: int, disc: int) -> float:
        """The least cost of placing the naturals ``mask`` and ``w`` wilds."""
        key = (((tbl << 1 | disc) << 6 | w) << self.n) | mask
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        f = self.f
        best: float = _INF
        if mask:
            low = mask & -mask
            c = low.bit_length() - 1
            rest = mask ^ low
            for lmask, k, cost, _i in self.by_low[c]:
                if lmask & mask == lmask and k <= w:
                    v = cost + f(mask ^ lmask, w - k, tbl, disc)
                    if v < best:
                        best = v
            for lmask, k, t, _e in self.ext_by_low[c]:
                if lmask & mask == lmask and k <= w and not tbl >> t & 1:
                    v = f(mask ^ lmask, w - k, tbl | 1 << t, disc)
                    if v < best:
                        best = v
            v = self.dead_cost[c] + f(rest, w, tbl, disc)
            if v < best:
                best = v
            if self.discard and not disc:
                v = self.disc_cost[c] + f(rest, w, tbl, 1)
                if v < best:
                    best = v
        elif w:
            for k, cost, _i in self.wild_only:
                if k <= w:
                    v = cost + f(0, w - k, tbl, disc)
                    if v < best:
                        best = v
            for k, t, _e in self.ext_wild:
                if k <= w and not tbl >> t & 1:
                    v = f(0, w - k, tbl | 1 << t, disc)
                    if v < best:
                        best = v
            v = self.wild_dead + f(0, w - 1, tbl, disc)
            if v < best:
                best = v
            if self.discard and not disc:
                v = self.wild_disc + f(0, w - 1, tbl, 1)
                if v < best:
                    best = v
        else:
            best = _INF if self.discard and not disc else 0
        memo[key] = best
        return best

    def plain(self) -> _Found:
        """The unconstrained best: (cost, mask, wilds, tbl, disc, contract melds, meanings used)."""
        full = (1 << self.n) - 1
        cost = self.fu(full, self.w, 0, 0, ()) if self.unique else self.f(full, self.w, 0, 0)
        return cost, full, self.w, 0, 0, (), ()

    # the contract ------------------------------------------------------------

    def contract_search(self, existence: bool) -> _Found | None:
        """Collections of disjoint melds that meet the contract.

        With ``existence``, the first one found; otherwise the one whose
        remaining cards arrange with the least cost. With ``wild_unique_card``
        each meld also takes one of its sets of meanings (``(cand, faces, kinds)``).
        """
        rules = self.rules
        pred = rules.contract
        assert pred is not None
        cands = self.cands
        depth_limit = rules.contract_max_melds
        hand_wilds = self.wild_cards
        kind_names = rules.kind_names
        unique = self.unique
        best: list[_Found | None] = [None]
        full = (1 << self.n) - 1
        chosen: list[tuple[int, tuple[int, ...], int]] = []
        order = range(len(cands))

        def meets() -> bool:
            groups = []
            used = 0
            for i, _faces, bits in chosen:
                lmask, k, _g, _bits = cands[i]
                cards = [self.naturals[j] for j in range(self.n) if lmask >> j & 1]
                cards.extend(hand_wilds[used:used + k])
                used += k
                names = [kind_names[b] for b in range(len(kind_names)) if bits >> b & 1]
                groups.append((names, tuple(cards)))
            for pick in itertools.product(*(names for names, _ in groups)):
                if pred([(kind, cards) for kind, (_, cards) in zip(pick, groups)]):
                    return True
            return False

        def visit(start: int, used: int, wused: int, faces_used: tuple[int, ...]) -> bool:
            for pos in range(start, len(order)):
                i = order[pos]
                lmask, k, _g, cbits = cands[i]
                if lmask & used or wused + k > self.w:
                    continue
                options = self.opts[i] if unique else (((), cbits),)
                for faces, bits in options:
                    if faces and not self._fits(faces, faces_used, 0):
                        continue
                    now_used = tuple(sorted(faces_used + faces)) if faces else faces_used
                    chosen.append((i, faces, bits))
                    nu, nw = used | lmask, wused + k
                    if meets():
                        if existence:
                            best[0] = (0.0, full ^ nu, self.w - nw, 0, 0, tuple(chosen), now_used)
                            chosen.pop()
                            return True
                        # contract melds are played: they cost nothing
                        if unique:
                            cost = self.fu(full ^ nu, self.w - nw, 0, 0, now_used)
                        else:
                            cost = self.f(full ^ nu, self.w - nw, 0, 0)
                        if cost < _INF and (best[0] is None or cost < best[0][0]):
                            best[0] = (cost, full ^ nu, self.w - nw, 0, 0, tuple(chosen), now_used)
                    if depth_limit is None or len(chosen) < depth_limit:
                        if visit(pos + 1, nu, nw, now_used):
                            chosen.pop()
                            return True
                    chosen.pop()
            return False

        visit(0, 0, 0, ())
        return best[0]

    # reading the result ------------------------------------------------------

    def arrangement(self, found: _Found, holds: bool) -> Arrangement:
        cost, mask, w, tbl, disc, contract_choices, used = found
        rules = self.rules
        values = rules.values
        wild_pool = list(self.wild_cards)
        melds: list[tuple[Any, ...]] = []
        kinds: list[frozenset[str]] = []
        contract_melds: list[tuple[Any, ...]] = []
        layoffs: list[tuple[int, tuple[Any, ...]]] = []
        unmatched: list[Any] = []
        discard: Any = None
        meanings: list[tuple[Any, Any]] = []
        face_cards = rules._cards

        def take_wilds(k: int) -> list[Any]:
            taken = wild_pool[:k]
            del wild_pool[:k]
            return taken

        def local_cards(lmask: int) -> list[Any]:
            return [self.naturals[j] for j in range(self.n) if lmask >> j & 1]

        for i, faces, bits in contract_choices:
            lmask, k, _g, _bits = self.cands[i]
            wilds = take_wilds(k)
            meanings.extend((card, face_cards[face]) for card, face in zip(wilds, faces))
            group = tuple(local_cards(lmask) + wilds)
            melds.append(group)
            contract_melds.append(group)
            kinds.append(rules._names(bits))
        # wilds kept back for the rest: the pool must hold exactly w now
        assert len(wild_pool) == w
        # walk the memoised recursion along a best path
        f = self.f
        while self.unique and (mask or w):
            target = self.fu(mask, w, tbl, disc, used)
            for step, rest, nxt, what in self.moves(mask, w, tbl, disc, used):
                if step + rest <= target and step + self.fu(*nxt, target - step + 1) == target:
                    break
            else:
                raise AssertionError("no step reaches the best cost")
            how, ref, faces, bits = what
            nm, nw, ntbl, ndisc, used = nxt
            if how == "meld":
                lmask, k, _g, _bits = self.cands[ref]
                wilds = take_wilds(k)
                meanings.extend((card, face_cards[face]) for card, face in zip(wilds, faces))
                melds.append(tuple(local_cards(lmask) + wilds))
                kinds.append(rules._names(bits))
            elif how == "ext":
                t, lmask, k = self.exts[ref]
                wilds = take_wilds(k)
                meanings.extend((card, face_cards[face]) for card, face in zip(wilds + self.twilds[t], faces))
                layoffs.append((t, tuple(local_cards(lmask) + wilds)))
            elif how == "dead":
                unmatched.append(self.naturals[ref] if ref >= 0 else wild_pool.pop(0))
            elif ref >= 0:
                discard = self.naturals[ref]
            else:
                discard = wild_pool.pop()  # the highest-id wild: the tie-break's choice
            mask, w, tbl, disc = nm, nw, ntbl, ndisc
        while mask or w:
            target = f(mask, w, tbl, disc)
            if mask:
                low = mask & -mask
                c = low.bit_length() - 1
                done = False
                for lmask, k, mcost, idx in self.by_low[c]:
                    if lmask & mask == lmask and k <= w and mcost + f(mask ^ lmask, w - k, tbl, disc) == target:
                        group = tuple(local_cards(lmask) + take_wilds(k))
                        melds.append(group)
                        kinds.append(rules._names(self.cands[idx][3]))
                        mask, w = mask ^ lmask, w - k
                        done = True
                        break
                if done:
                    continue
                for lmask, k, t, _e in self.ext_by_low[c]:
                    if (lmask & mask == lmask and k <= w and not tbl >> t & 1
                            and f(mask ^ lmask, w - k, tbl | 1 << t, disc) == target):
                        layoffs.append((t, tuple(local_cards(lmask) + take_wilds(k))))
                        mask, w, tbl = mask ^ lmask, w - k, tbl | 1 << t
                        done = True
                        break
                if done:
                    continue
                if self.dead_cost[c] + f(mask ^ low, w, tbl, disc) == target:
                    unmatched.append(self.naturals[c])
                    mask ^= low
                    continue
                assert self.discard and not disc
                discard = self.naturals[c]
                mask, disc = mask ^ low, 1
                continue
            done = False
            for k, mcost, idx in self.wild_only:
                if k <= w and mcost + f(0, w - k, tbl, disc) == target:
                    melds.append(tuple(take_wilds(k)))
                    kinds.append(rules._names(self.cands[idx][3]))
                    w -= k
                    done = True
                    break
            if done:
                continue
            for k, t, _e in self.ext_wild:
                if k <= w and not tbl >> t & 1 and f(0, w - k, tbl | 1 << t, disc) == target:
                    layoffs.append((t, tuple(take_wilds(k))))
                    w, tbl = w - k, tbl | 1 << t
                    done = True
                    break
            if done:
                continue
            if self.wild_dead + f(0, w - 1, tbl, disc) == target:
                unmatched.append(wild_pool.pop(0))
                w -= 1
                continue
            assert self.discard and not disc
            discard = wild_pool.pop()  # the highest-id wild: the tie-break's choice
            w, disc = w - 1, 1
        primary = int(cost // self.A)
        layoffs.sort(key=lambda item: item[0])
        return Arrangement(
            deadwood=primary,
            melds=tuple(tuple(sorted(m, key=lambda c: c.id)) for m in melds),
            kinds=tuple(kinds),
            unmatched=tuple(sorted(unmatched, key=lambda c: c.id)),
            contract=holds,
            layoffs=tuple((t, tuple(sorted(cs, key=lambda c: c.id))) for t, cs in layoffs),
            discard=discard,
            contract_melds=tuple(tuple(sorted(m, key=lambda c: c.id)) for m in contract_melds),
            meanings=tuple(sorted(meanings, key=lambda pair: pair[0].id)),
        )


def _ids(mask: int) -> Iterable[int]:
    """The bit positions set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _contract_max_melds(contract: Any) -> int | None:
    """An upper bound on the melds a compiled contract takes (``count == 3``), if any."""
    facts = getattr(contract, "facts", None)
    return facts.max_melds if isinstance(facts, ContractFacts) else None


# --------------------------------------------------------------------------- CLI


def _reading_key(card: Any) -> tuple[int, int, int]:
    if card.wild:
        return (1, 0, card.id)
    return (0, card.rank.order, card.suit.index)


def melds_report(rules: MeldRules, cards: Iterable[Any] | str, hand_size: int | None = None) -> dict[str, Any]:
    """The ``rummydsl melds --json`` object of DESIGN.md for one hand.

    ``{"deadwood": N, "melds": [[cards]...], "unmatched": [cards], "contract":
    bool}``, plus ``best_discard`` and ``deadwood_after_discard`` when the hand
    holds ``hand_size + 1`` cards. Cards are written in the deck's notation.

    :raises CardError: for bad cards (unknown, repeated, too many, none).
    """
    hand = rules.check_hand(cards)
    best = rules.solve(hand)
    report: dict[str, Any] = {
        "deadwood": best.deadwood,
        "melds": [[str(c) for c in rules.display_order(meld)] for meld in best.melds],
        "unmatched": [str(c) for c in sorted(best.unmatched, key=_reading_key)],
        "contract": best.contract,
    }
    if hand_size is not None and len(hand) == hand_size + 1:
        card, after = rules.best_discard(hand)
        report["best_discard"] = str(card)
        report["deadwood_after_discard"] = after
    return report
