"""Per-suit least-deadwood tables: the fastest strategy, for decks of suits and ranks.

Applies when the rules' melds split into two structures, read from the deck's wild-free
melds themselves (never from a variant's name): every meld of the deck either lies in one
suit (runs), or holds cards of one rank in two or more suits (sets); the deck has one pack;
melds held in the hand are free (the usual deadwood rule). Then a hand without wild cards is
a rank mask per suit plus, for each rank held in enough suits, a choice of which of its
cards form sets.

- For every suit and every rank mask of that suit (``2 ** ranks`` entries: 8,192 for 13
  ranks) a table holds the least deadwood of that suit's cards with the suit's melds only,
  and the meld that takes the mask's lowest rank in the canonical arrangement (the largest
  best meld; none when leaving the card unmatched is as good and no meld is). Suits with the
  same melds and card values share a table.
- For the knock question a second table per suit holds the best single discard from the
  mask, keyed ``deadwood_after * K + penalty`` minus the mask's own ``deadwood * K``, where
  ``K`` is the number of natural cards and the penalty ranks every card by (value, id) from
  the top: the documented tie-break.
- A hand then costs a few lookups per choice of sets: the choices are the product, over the
  ranks held in enough suits, of "no set" and every union of disjoint rank melds of that
  rank inside the hand. Every arrangement of the hand is some choice plus per-suit
  arrangements, so the minimum is exact. When several choices tie, their arrangements are
  compared by the canonical order, as one integer key each (:func:`.rankmasks.set_tie_key`).

Tables are built lazily, once per :class:`rummydsl.melds.MeldRules`.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Sequence

from ..cards import Card
from .core import MeldCore
from .decktable import DeckTable
from .rankmasks import disjoint_unions, set_tie_key, suit_table, walk_tie_key
from .setvalues import rank_values, rank_values_of, three_of_five
from .suitdiscards import discard_tables

__all__ = ["SuitTables", "MAX_TABLE_RANKS"]

_lowest_card = itemgetter(2)  # of a meld_info entry

#: The choices of sets of a hand that can hold none.
_NO_SETS = (0,)

#: Ranks beyond this make the per-suit tables too big (2 ** ranks entries each).
MAX_TABLE_RANKS = 14

#: A deck meld's (cards, kinds, lowest bit, card-id mask).
MeldInfo = tuple[tuple[Card, ...], frozenset[str], int, int]
#: One suit's part of an arrangement: (meld cards, their kinds, unmatched cards, the
#: melds' :data:`MeldInfo`).
SuitWalk = tuple[tuple[tuple[Card, ...], ...], tuple[frozenset[str], ...], tuple[Card, ...], tuple[MeldInfo, ...]]


class SuitTables:
    """The per-suit tables of one solver; build with :meth:`build`."""

    __slots__ = (
        "core", "rank_count", "suit_count", "natural_count", "rank_mask", "suit_shifts", "suit_bits",
        "deadwood_by_suit", "lowest_meld_by_suit", "discard_key_by_suit", "discard_card_by_suit",
        "walks_by_suit", "same_rank_bits", "set_unions", "set_infos", "min_set_size",
        "meld_info", "cards_by_penalty", "_four_suits_of_three", "_four", "_five_suits_of_three", "_five",
        "walk_tie_keys", "set_tie_keys", "sets_by_union",
    )

    core: MeldCore
    rank_count: int
    """Ranks per suit (``R``); a card's id is ``suit * R + rank order - 1``."""
    suit_count: int
    natural_count: int
    """Natural cards (``R * suits``): also the base ``K`` of the knock keys."""
    rank_mask: int
    """``2 ** R - 1``: one suit's rank mask, all ranks."""
    suit_shifts: tuple[int, ...]
    """Where each suit's rank mask starts in a card-id mask."""
    suit_bits: tuple[int, ...]
    """``[suit]``: the card-id mask of every card of that suit."""
    deadwood_by_suit: list[tuple[int, ...]]
    """``[suit][rank mask]``: the least deadwood with the suit's melds only (a tuple: the collector skips it)."""
    lowest_meld_by_suit: list[tuple[int, ...]]
    """``[suit][rank mask]``: the canonical meld (a rank mask) taking the lowest rank, or 0."""
    discard_key_by_suit: list[tuple[int, ...]] | None
    """``[suit][rank mask]``: the best discard's key minus the mask's deadwood * K (built on first use)."""
    discard_card_by_suit: list[tuple[int, ...]] | None
    """``[suit][rank mask]``: the card id of that discard."""
    walks_by_suit: list[dict[int, SuitWalk]]
    """``[suit][rank mask]``: the suit's canonical melds and unmatched cards, filled on demand."""
    walk_tie_keys: dict[int, int]
    """A suit's cards left to runs (a card-id mask of one suit) -> those runs and
    unmatched cards as a part of a tie key (:func:`.rankmasks.walk_tie_key`), filled
    on the ties that need it (ints only, so the garbage collector never scans it)."""
    same_rank_bits: tuple[int, ...]
    """``[rank]``: the card-id mask of every card of that rank."""
    set_unions: tuple[dict[int, tuple[int, ...]], ...]
    """``[rank][cards of the rank held]``: 0 and every union of disjoint sets inside them."""
    set_infos: tuple[dict[int, dict[int, tuple[MeldInfo, ...]]], ...]
    """``[rank][cards held][union]``: the sets making up that union (its canonical packing)."""
    sets_by_union: dict[int, tuple[MeldInfo, ...]]
    """A union of sets -> the sets making it up, filled on demand (:meth:`_sets_of`)."""
    set_tie_keys: dict[int, int]
    """The sets of one rank making up a union (a card-id mask; 0: none) -> their part of
    a tie key, filled on the ties that need it (:meth:`_set_tie_key`)."""
    min_set_size: int
    meld_info: dict[int, MeldInfo]
    """Card-id mask of a deck meld -> its :data:`MeldInfo`."""
    cards_by_penalty: tuple[int, ...]
    """Card ids from the most valuable down (the knock key's penalty is the index)."""
    _four_suits_of_three: bool
    _four: tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None
    _five_suits_of_three: bool
    _five: tuple[int, int, int, int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...],
                 tuple[int, ...]] | None
    """Five suits (a deck of five colours): the rank mask, the suits' shifts and tables, read by name."""

    # ------------------------------------------------------------------ building

    @classmethod
    def build(cls, core: MeldCore, deck_table: DeckTable | None) -> SuitTables | None:
        """The tables for ``core``, or ``None`` when they do not apply."""
        deck = core.deck
        if not core.excludes_concealed_melds or deck.packs != 1 or deck_table is None:
            return None
        R = len(deck.ranks)
        S = len(deck.suits)
        if not 1 <= R <= MAX_TABLE_RANKS or S < 1:
            return None
        natural_count = R * S
        for card in core._cards:
            if card.rank is None or card.suit is None:
                if card.id < natural_count:
                    return None
            elif card.id != card.suit.index * R + card.rank.order - 1:
                return None
        rank_mask = (1 << R) - 1
        suit_melds: list[set[int]] = [set() for _ in range(S)]
        rank_melds: list[list[int]] = [[] for _ in range(R)]
        meld_info: dict[int, MeldInfo] = {}
        names: dict[int, frozenset[str]] = {}  # kinds bitmask -> names, built once each
        for melds in deck_table.by_lowest:
            for mask, _value, kinds in melds:
                slices = [(mask >> (s * R)) & rank_mask for s in range(S)]
                held = [s for s in range(S) if slices[s]]
                if len(held) == 1:
                    suit_melds[held[0]].add(slices[held[0]])
                else:
                    ranks = 0
                    for part in slices:
                        ranks |= part
                    if ranks & (ranks - 1):
                        return None  # a meld across suits and ranks: not this structure
                    rank_melds[ranks.bit_length() - 1].append(mask)
                kind_names = names.get(kinds)
                if kind_names is None:
                    kind_names = names[kinds] = core._names(kinds)
                meld_info[mask] = (core._cards_of(mask), kind_names, mask & -mask, mask)
        self = cls()
        self.core = core
        self.rank_count, self.suit_count, self.natural_count = R, S, natural_count
        self.rank_mask = rank_mask
        self.suit_shifts = tuple(s * R for s in range(S))
        self.suit_bits = tuple(rank_mask << shift for shift in self.suit_shifts)
        self.meld_info = meld_info
        values = core.values
        shared: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.deadwood_by_suit, self.lowest_meld_by_suit = [], []
        for s in range(S):
            suit_values = tuple(values[s * R + r] for r in range(R))
            key = (tuple(sorted(suit_melds[s])), suit_values)
            if key not in shared:
                deadwood_table, lowest_table = suit_table(R, suit_melds[s], suit_values)
                shared[key] = (tuple(deadwood_table), tuple(lowest_table))
            deadwood, lowest_meld = shared[key]
            self.deadwood_by_suit.append(deadwood)
            self.lowest_meld_by_suit.append(lowest_meld)
        self.discard_key_by_suit = self.discard_card_by_suit = None
        # sets: for every rank and every subset of its cards, the unions of disjoint rank melds
        self.same_rank_bits = tuple(sum(1 << (s * R + r) for s in range(S)) for r in range(R))
        sizes = [m.bit_count() for melds in rank_melds for m in melds]
        self.min_set_size = min(sizes) if sizes else 0
        unions: list[dict[int, tuple[int, ...]]] = []
        packings: list[dict[int, dict[int, tuple[int, ...]]]] = []
        for r in range(R):
            table: dict[int, tuple[int, ...]] = {}
            packs: dict[int, dict[int, tuple[int, ...]]] = {}
            if rank_melds[r]:
                everything = self.same_rank_bits[r]
                sub = everything
                while True:
                    found = disjoint_unions(sub, rank_melds[r])
                    if found:
                        table[sub] = (0,) + tuple(union for union, _ in found)
                        packs[sub] = dict(found)
                    if not sub:
                        break
                    sub = (sub - 1) & everything
            unions.append(table)
            packings.append(packs)
        self.set_unions = tuple(unions)
        self.set_tie_keys, self.walk_tie_keys = {0: 0}, {0: 0}
        self.sets_by_union = {}
        self.set_infos = tuple({held: {union: tuple(meld_info[m] for m in melds) for union, melds in by_union.items()}
                                for held, by_union in per_rank.items()} for per_rank in packings)
        self._four_suits_of_three = S == 4 and self.min_set_size == 3
        T = self.deadwood_by_suit
        self._four = (rank_mask, R, 2 * R, 3 * R, T[0], T[1], T[2], T[3]) if S == 4 else None
        self._five_suits_of_three = S == 5 and self.min_set_size == 3
        self._five = (rank_mask, R, 2 * R, 3 * R, 4 * R, T[0], T[1], T[2], T[3], T[4]) if S == 5 else None
        self.walks_by_suit = [{} for _ in range(S)]
        return self

    def _build_discard_tables(self) -> None:
        """Build the knock-question tables (on first use: :func:`.suitdiscards.discard_tables`)."""
        self.discard_key_by_suit, self.discard_card_by_suit, self.cards_by_penalty = discard_tables(self)

    # ------------------------------------------------------------------ queries

    def _choices(self, hand: int) -> Sequence[int]:
        """The unions of sets to try for the hand (0 always first)."""
        min_size = self.min_set_size
        if not min_size:
            return _NO_SETS
        full = self.rank_mask
        if self._four_suits_of_three:
            R = self.rank_count
            a = hand & full
            b = (hand >> R) & full
            c = (hand >> (2 * R)) & full
            d = (hand >> (3 * R)) & full
            ab = a & b
            cd = c & d
            ranks = (ab & (c | d)) | (cd & (a | b))
        elif self._five_suits_of_three:
            R = self.rank_count
            ranks = three_of_five(hand & full, (hand >> R) & full, (hand >> (2 * R)) & full,
                                   (hand >> (3 * R)) & full, (hand >> (4 * R)) & full)
        else:
            at_least = [full] + [0] * min_size
            for shift in self.suit_shifts:
                m = (hand >> shift) & full
                for j in range(min_size, 0, -1):
                    at_least[j] |= at_least[j - 1] & m
            ranks = at_least[min_size]
        if not ranks:
            return _NO_SETS
        choices: Sequence[int] = _NO_SETS
        set_unions = self.set_unions
        same_rank_bits = self.same_rank_bits
        while ranks:
            low = ranks & -ranks
            r = low.bit_length() - 1
            ranks ^= low
            unions = set_unions[r].get(hand & same_rank_bits[r])
            if unions:
                if len(choices) == 1:  # the first rank with sets: its unions, 0 first, as they are
                    choices = unions
                else:
                    choices = [u | o for u in choices for o in unions]
        return choices

    def deadwood(self, hand: int, floor: bool = False) -> int:
        """The least deadwood of the wild-free hand (a card-id bitmask), or a ``floor`` of it (:mod:`.setvalues`)."""
        best = 1 << 62
        if (four := self._four) is not None:  # four suits: each suit's table read by name
            full, R, R2, R3, T0, T1, T2, T3 = four
            if self._four_suits_of_three:  # no rank held in three suits (most hands): no set to choose
                a, b, c, d = hand & full, (hand >> R) & full, (hand >> R2) & full, (hand >> R3) & full
                ranks = (a & b & (c | d)) | (c & d & (a | b))  # the set ranks (as _choices finds them)
                if not ranks or floor:
                    return T0[a] + T1[b] + T2[c] + T3[d] - (rank_values(self, a, b, c, d, ranks) if ranks else 0)
            for u in self._choices(hand):
                m = hand ^ u
                v = T0[m & full] + T1[(m >> R) & full] + T2[(m >> R2) & full] + T3[(m >> R3) & full]
                if v < best:
                    best = v
            return best
        if (five := self._five) is not None:  # five suits: the same, read by name
            full, R, R2, R3, R4, T0, T1, T2, T3, T4 = five
            a, b, c = hand & full, (hand >> R) & full, (hand >> R2) & full
            d, e = (hand >> R3) & full, (hand >> R4) & full
            # no rank held in three suits (most hands): no set to choose (or a floor)
            if self._five_suits_of_three and (not (ranks := three_of_five(a, b, c, d, e)) or floor):
                runs = T0[a] + T1[b] + T2[c] + T3[d] + T4[e]
                return runs - rank_values_of(self, (a, b, c, d, e), ranks) if ranks else runs
            for u in self._choices(hand):
                m = hand ^ u
                v = (T0[m & full] + T1[(m >> R) & full] + T2[(m >> R2) & full] + T3[(m >> R3) & full]
                     + T4[(m >> R4) & full])
                if v < best:
                    best = v
            return best
        full = self.rank_mask
        pairs = tuple(zip(self.suit_shifts, self.deadwood_by_suit))
        for u in self._choices(hand):
            m = hand ^ u
            v = 0
            for shift, table in pairs:
                v += table[(m >> shift) & full]
            if v < best:
                best = v
        return best

    def _best_unions(self, hand: int) -> tuple[int, int, list[int] | None]:
        """``(least deadwood, a set union reaching it, every union reaching it or None
        when that one is the only one)`` of the wild-free hand."""
        full = self.rank_mask
        tables = self.deadwood_by_suit
        best = 1 << 62
        best_u = 0
        tied: list[int] | None = None
        if self.suit_count == 4:
            T0, T1, T2, T3 = tables
            R = self.rank_count
            R2, R3 = 2 * R, 3 * R
            for u in self._choices(hand):
                m = hand ^ u
                v = T0[m & full] + T1[(m >> R) & full] + T2[(m >> R2) & full] + T3[(m >> R3) & full]
                if v < best:
                    best, best_u, tied = v, u, None
                elif v == best:
                    if tied is None:
                        tied = [best_u]
                    tied.append(u)
            return best, best_u, tied
        pairs = tuple(zip(self.suit_shifts, tables))
        for u in self._choices(hand):
            m = hand ^ u
            v = 0
            for shift, table in pairs:
                v += table[(m >> shift) & full]
            if v < best:
                best, best_u, tied = v, u, None
            elif v == best:
                if tied is None:
                    tied = [best_u]
                tied.append(u)
        return best, best_u, tied

    def knock_key(self, hand: int) -> int:
        """``deadwood * K + penalty`` of the best discard from the hand: the discard
        is ``cards_by_penalty[key % K]``, the deadwood after it ``key // K``."""
        if self.discard_key_by_suit is None:
            self._build_discard_tables()
        full = self.rank_mask
        tables = self.deadwood_by_suit
        keys = self.discard_key_by_suit
        K = self.natural_count
        assert keys is not None
        best = 1 << 62
        if self.suit_count == 4:
            T0, T1, T2, T3 = tables
            D0, D1, D2, D3 = keys
            R = self.rank_count
            R2, R3 = 2 * R, 3 * R
            for u in self._choices(hand):
                m = hand ^ u
                a = m & full
                b = (m >> R) & full
                c = (m >> R2) & full
                d = (m >> R3) & full
                v = (T0[a] + T1[b] + T2[c] + T3[d]) * K + min(D0[a], D1[b], D2[c], D3[d])
                if v < best:
                    best = v
            return best
        for u in self._choices(hand):
            m = hand ^ u
            parts = [(m >> shift) & full for shift in self.suit_shifts]
            v = sum(t[p] for t, p in zip(tables, parts)) * K + min(dk[p] for dk, p in zip(keys, parts))
            if v < best:
                best = v
        return best

    # ------------------------------------------------------------------ arrangements

    def _walk(self, s: int, m: int) -> SuitWalk:
        """Suit ``s``'s canonical part for its rank mask ``m`` (:data:`SuitWalk`), memoised."""
        got = self.walks_by_suit[s].get(m)
        if got is not None:
            return got
        groups: list[tuple[Card, ...]] = []
        kinds: list[frozenset[str]] = []
        infos: list[MeldInfo] = []
        unmatched: list[Card] = []
        shift = self.suit_shifts[s]
        lowest_meld = self.lowest_meld_by_suit[s]
        cards = self.core._cards
        meld_info = self.meld_info
        key = m
        while m:
            meld = lowest_meld[m]
            if meld:
                info = meld_info[meld << shift]
                groups.append(info[0])
                kinds.append(info[1])
                infos.append(info)
                m ^= meld
            else:
                low = m & -m
                unmatched.append(cards[shift + low.bit_length() - 1])
                m ^= low
        entry = (tuple(groups), tuple(kinds), tuple(unmatched), tuple(infos))
        self.walks_by_suit[s][key] = entry
        return entry

    def _canonical_union(self, hand: int, tied: list[int]) -> int:
        """Among set unions of equal deadwood, the one of the canonical arrangement:
        the one of the largest tie key (:func:`.rankmasks.set_tie_key`; the first on equal keys).

        A key sums the walk keys of the suits and the set keys of the ranks where
        the unions differ: elsewhere every union has the same sets and runs, the
        same part of each key. Both parts are memoised (dicts of ints, which the
        garbage collector never scans) and built only when a tie needs them.
        """
        first = tied[0]
        differ = 0
        for union in tied:
            differ |= union ^ first
        R, S = self.rank_count, self.suit_count
        in_suits = [in_suit for in_suit in self.suit_bits if differ & in_suit]
        ranks = 0
        for shift in self.suit_shifts:
            ranks |= differ >> shift
        ranks &= self.rank_mask
        rank_bits = []
        same_rank_bits = self.same_rank_bits
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            rank_bits.append(same_rank_bits[low.bit_length() - 1])
        walk_keys = self.walk_tie_keys
        set_keys = self.set_tie_keys
        best = first
        best_key = -1
        for union in tied:
            rest = hand ^ union
            key = 0
            for in_suit in in_suits:
                cards = rest & in_suit
                got = walk_keys.get(cards)
                if got is None:
                    s = (cards.bit_length() - 1) // R
                    got = walk_keys[cards] = walk_tie_key(self.lowest_meld_by_suit[s], cards >> (s * R), s, R, S)
                key += got
            for bits in rank_bits:
                sets = union & bits
                got = set_keys.get(sets)
                if got is None:
                    got = set_keys[sets] = self._set_tie_key(hand & bits, sets)
                key += got
            if key > best_key:
                best, best_key = union, key
        return best

    def _set_tie_key(self, held: int, union: int) -> int:
        """The sets making up ``union`` (a non-empty union of sets of one rank, of that
        rank's cards ``held``) as a part of a tie key (:func:`.rankmasks.set_tie_key`)."""
        R, S = self.rank_count, self.suit_count
        r = ((union & -union).bit_length() - 1) % R
        return sum(set_tie_key(info[3], r, R, S) for info in self.set_infos[r][held][union])

    def _sets_of(self, hand: int, union: int) -> tuple[MeldInfo, ...]:
        """The sets making up ``union`` (of the hand's cards), memoised per union (its
        canonical packing does not depend on the other cards)."""
        ranks = 0
        for shift in self.suit_shifts:
            ranks |= union >> shift
        ranks &= self.rank_mask
        found: tuple[MeldInfo, ...] = ()
        while ranks:  # the union's ranks, lowest first
            low = ranks & -ranks
            ranks ^= low
            r = low.bit_length() - 1
            bits = self.same_rank_bits[r]
            found += self.set_infos[r][hand & bits][union & bits]
        self.sets_by_union[union] = found
        return found

    def arrange(self, hand: int) -> tuple[int, tuple[tuple[Card, ...], ...], tuple[frozenset[str], ...],
                                          tuple[Card, ...]]:
        """The canonical arrangement: ``(deadwood, melds by lowest card, their kinds,
        unmatched cards by id)``."""
        deadwood, union, tied = self._best_unions(hand)
        if tied is not None:
            union = self._canonical_union(hand, tied)
        rest = hand ^ union
        full = self.rank_mask
        walks_by_suit = self.walks_by_suit
        unmatched: tuple[Card, ...] = ()
        s = 0
        if not union:  # runs only: suit by suit is by lowest card
            melds: tuple[tuple[Card, ...], ...] = ()
            kinds: tuple[frozenset[str], ...] = ()
            for shift in self.suit_shifts:
                m = (rest >> shift) & full
                if m:
                    got = walks_by_suit[s].get(m) or self._walk(s, m)
                    if got[0]:
                        melds += got[0]
                        kinds += got[1]
                    if got[2]:
                        unmatched += got[2]
                s += 1
            return deadwood, melds, kinds, unmatched
        found = list(self.sets_by_union.get(union) or self._sets_of(hand, union))
        for shift in self.suit_shifts:
            m = (rest >> shift) & full
            if m:
                got = walks_by_suit[s].get(m) or self._walk(s, m)
                if got[3]:
                    found += got[3]
                if got[2]:
                    unmatched += got[2]
            s += 1
        if len(found) > 1:  # sets and runs, by lowest card
            found.sort(key=_lowest_card)
        columns: Any = zip(*found)
        melds, kinds, _lowest, _masks = columns
        return deadwood, melds, kinds, unmatched
