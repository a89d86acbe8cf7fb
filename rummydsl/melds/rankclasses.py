"""Rank classes: the rank-window search on a hand's rank pattern, for suit-blind kinds.

When being a meld never depends on suits (:func:`~rummydsl.melds.shapes.suit_blind`:
Skarney's runs and poker sequences together are every sequence), two natural cards of
one rank and one value are interchangeable for whether a group melds and what it costs.
A hand's cards then fall into *classes* (rank, value), and its *pattern* is how many
cards it holds of each: an int with one field of :attr:`RankClasses.width` bits per
class (classes numbered by their lowest sequence position, so the lowest set field is
a lowest-ranked class). A group's pattern is the sum of its cards' fields, and the
pattern of what is left after a group is the difference.

The least deadwood of a pattern (:meth:`RankClasses.least`) is the search of
:meth:`.RankWindows.least` over patterns instead of cards: one card of the lowest class
is unmatched or in a meld, and the melds a pattern holds with a card of class ``k``
(:meth:`RankClasses.melds`) are listed from the shapes over classes (any cards of one
rank; one class at each of a window of consecutive positions), each judged once per
pattern on cards of the deck that have it. Cards of one class collapse into one
choice, so a state has a few melds where the cards had dozens, and hands of one
pattern share every state.

The canonical arrangement (:meth:`RankClasses.walk`) is still read card by card (when
the least deadwood is the cards' whole value and every card has a value, no meld
leaves that least, so all are unmatched): at
the lowest card, the largest meld by card-id mask that leaves the least deadwood. A
meld's cost depends only on its pattern, so that meld is, among the patterns ``P`` with
a card of the lowest card's class that leave the least, the largest of their largest
card sets: the lowest card and, in each class of ``P``, the highest cards the hand holds
of it (any other choice of the same pattern loses at its highest differing card).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..cards import Card
from .rankcontract import cannot_meld, size_sets, sizes_hold
from .ranklistings import class_melds
from .rankmasks import mask_sum
from .shapes import blind_contract

if TYPE_CHECKING:
    from .core import MeldCore

__all__ = ["RankClasses", "CLASS_MEMO_LIMIT", "PartArrangement", "PartWalk", "blind_contract", "least_step"]

#: A part's canonical arrangement: (deadwood, melds, kinds, unmatched).
PartArrangement = tuple[int, tuple[tuple[Card, ...], ...], tuple[frozenset[str], ...], tuple[Card, ...]]
#: A part's canonical arrangement with its unmatched cards as a card-id mask: (deadwood, melds, kinds, unmatched).
PartWalk = tuple[int, tuple[tuple[Card, ...], ...], tuple[frozenset[str], ...], int]

#: A meld that leaves the least (:meth:`RankClasses.tight`): (pattern, its classes' cards, their fields, counts).
Tight = tuple[int, int, int, tuple[tuple[int, int], ...]]

CLASS_MEMO_LIMIT = 1 << 16
"""Entries each memo of a solver's rank classes holds before it starts again."""


def least_step(unmatched: int, melds: Iterable[int], key: int, least: Callable[[int], int]) -> int:
    """One step of the least-deadwood search of cards or patterns ``key``: the least of
    ``unmatched`` (its lowest card unmatched) and ``least(key - meld)`` for each meld of
    that card (a meld inside ``key``: for card masks, ``key - meld`` is ``key ^ meld``)."""
    best = unmatched
    if best:
        for meld in melds:
            v = least(key - meld)
            if v < best:
                best = v
                if not v:
                    break
    return best


class RankClasses:
    """The (rank, value) classes of a deck's natural cards under suit-blind kinds."""

    def __init__(self, core: MeldCore, set_sizes: Sequence[tuple[int, int | None, bool]],
                 runs: Sequence[tuple[int, int | None, bool]]) -> None:
        self.core = core
        rank_of, values, positions = core._rank_order, core.values, core._positions
        cards = [c for c in core._cards if not c.wild]
        keys = sorted({(min(positions[c.id]), rank_of[c.id], values[c.id]) for c in cards})
        index = {key: i for i, key in enumerate(keys)}
        count = len(keys)
        members: list[list[int]] = [[] for _ in range(count)]
        class_of = [-1] * core._size
        for c in cards:
            k = index[(min(positions[c.id]), rank_of[c.id], values[c.id])]
            class_of[c.id] = k
            members[k].append(c.id)
        self.width = width = max(len(m) for m in members).bit_length() + 1
        """Bits of one class's field in a pattern: its count and a guard bit above it."""
        self.field = (1 << width) - 1
        self.guards = sum(1 << (k * width + width - 1) for k in range(count))
        """The guard bit of every field: ``((key | guards) - group) & guards == guards``
        when pattern ``key`` holds pattern ``group`` (no field borrows)."""
        self.count = count
        self.class_of = tuple(class_of)
        """Card id -> its class (-1 for a wild card)."""
        self.inc = tuple(1 << (k * width) for k in range(count))
        """Class -> its field's unit: a card's pattern."""
        self.card_inc = tuple(0 if k < 0 else self.inc[k] for k in class_of)
        """Card id -> its pattern."""
        self.members = tuple(tuple(sorted(m)) for m in members)
        """Class -> its cards' ids, lowest first."""
        self.class_cards = tuple(sum(1 << cid for cid in m) for m in members)
        """Class -> the card-id mask of its cards."""
        self.value = tuple(values[m[0]] for m in members)
        self.positive = all(v > 0 for v in self.value)
        """Every natural card has a value: cards in a meld leave less deadwood than unmatched."""
        self.positions = tuple(positions[m[0]] for m in members)
        ranks = [rank_of[m[0]] for m in members]
        self.same_rank = tuple(tuple(j for j in range(count) if ranks[j] == ranks[k]) for k in range(count))
        """Class -> the classes of its rank (itself included), which a group of one rank may take."""
        at: dict[int, list[int]] = {}
        for k in range(count):
            for p in self.positions[k]:
                at.setdefault(p, []).append(k)
        self.at = {p: tuple(ks) for p, ks in at.items()}
        """Sequence position -> the classes with a card there."""
        # (each size range once: a family kept in one suit and its twin list the same patterns)
        self.set_sizes = list(dict.fromkeys((max(lo, 1), hi) for lo, hi, _per_suit in set_sizes))
        self.runs = list(dict.fromkeys((max(lo, 1), hi) for lo, hi, _per_suit in runs))
        highs = [hi for _lo, hi in self.set_sizes if hi is not None]
        self.set_cap = None if len(highs) < len(self.set_sizes) else max(highs, default=0)
        """The most cards of a set (``None``: no bound): a listing reads a class's count up to it."""
        self.listings: dict[int, list[int]] = {}  # a class's melds, by what they read (.ranklistings)
        # suit-blind kinds: a family kept in one suit has a twin of the same sizes that is
        # not, so listing every family without its suit lists each meld's pattern
        top = max(at) if at else 0
        self.one_class = all(len(ks) == 1 for ks in at.values()) and all(len(c) == 1 for c in self.same_rank)
        """Each sequence position and rank has one class (values follow the ranks): a window is one sum."""
        empty = count * width  # a shift past every field: reads 0
        self.shift_at = tuple(at[q][0] * width if q in at and len(at[q]) == 1 else empty for q in range(top + 2))
        """Position -> its one class's field shift (0 to ``top + 1``; past every field where none)."""
        self.windows: dict[tuple[int, int], tuple[int, bool]] = {}
        """``(low, high)`` positions -> (the pattern of one card at each, whether a class
        sits twice in it), with :attr:`one_class`."""
        if self.one_class:
            for a in range(1, top + 1):
                group = 0
                seen: set[int] = set()
                twice = False
                for b in range(a, top + 1):
                    k = at[b][0] if b in at else -1
                    if k < 0:
                        break
                    twice = twice or k in seen
                    seen.add(k)
                    group += self.inc[k]
                    self.windows[(a, b)] = (group, twice)
        self.melds_memo: tuple[dict[int, list[int]], ...] = tuple({} for _ in range(count))
        """Class ``k`` -> :meth:`melds` of ``k`` by pattern (a dict a class: no key packs the class)."""
        self.tights: tuple[dict[int, list[Tight]], ...] = tuple({} for _ in range(count))
        """Class ``k`` -> :meth:`tight` of ``k`` by pattern."""
        self.least_memo: dict[int, int] = {}
        self.meldless: set[int] = set()
        """With :attr:`positive`: patterns whose least deadwood is their whole value (no meld
        leaves less), found by :meth:`least` (each of them: its lowest card unmatched and
        the rest such a pattern, or empty). A pattern not in it may still be one."""
        self.pattern_values: dict[int, int] = {}  # a pattern's cards' value, by pattern_value
        self.judged: dict[int, int] = {}  # a pattern's group: 1 when it melds
        self.size_memo: dict[tuple[object, ...], frozenset[tuple[int, ...]]] = {}  # size_sets, by pattern
        self.group_sizes: dict[int, int] = {}  # a meld pattern's cards, for size_sets
        self.naturals = tuple(cards)
        self.group_counts: dict[int, tuple[tuple[tuple[int, int], ...], int, int]] = {}  # (class, cards), cards, fields
        self.group_kinds: dict[int, int] = {}  # kinds by (pattern, one suit)
        suit_cards: dict[int, int] = {}
        for c in cards:
            suit_cards[core._suit_index[c.id]] = suit_cards.get(core._suit_index[c.id], 0) | 1 << c.id
        self.suit_cards = suit_cards
        """Suit index -> the card-id mask of its natural cards."""
        self.suit_of = tuple(suit_cards.get(core._suit_index[i], 0) for i in range(core._size))
        """Card id -> the card-id mask of its suit's natural cards."""
        self.group_names: tuple[dict[int, frozenset[str]], dict[int, frozenset[str]]] = ({}, {})
        """Kind names by pattern, of melds of two suits or more, then of one suit (as group_kinds)."""
        self.off_suit = tuple(~suit for suit in self.suit_of)
        """Card id -> the card-id mask of every card not of its suit's natural cards."""
        self.memo_limit = CLASS_MEMO_LIMIT  # for .rankcontract
        self.asked: dict[tuple[int, ...], tuple[object, bool]] = {}  # a contract's answer by its melds' sizes
        self.held: dict[tuple[object, ...], tuple[object, bool]] = {}  # holds, by contract, bounds and patterns
        self.valued: dict[int, tuple[int, list[int]]] = {}  # a pattern's least deadwood and its cards' values
        self.cards_of: Callable[[int], tuple[Card, ...]] = core._cards_of
        """The deck's cards of a card-id mask, by id (the rank windows give theirs by chunks, .rankparts)."""

    # ------------------------------------------------------------------ patterns

    def key(self, mask: int) -> int:
        """The pattern of the natural cards ``mask``."""
        return mask_sum(self.card_inc, mask)

    def _counts(self, group: int) -> list[tuple[int, int]]:
        """``(class, cards)`` of each class a pattern holds."""
        out = []
        width, field = self.width, self.field
        k = 0
        while group:
            n = group & field
            if n:
                out.append((k, n))
            group >>= width
            k += 1
        return out

    def melds_pattern(self, group: int) -> bool:
        """Whether a group of pattern ``group`` melds (judged once, on the deck's lowest cards of it)."""
        got = self.judged.get(group)
        if got is None:
            mask = 0
            for k, n in self._counts(group):
                for cid in self.members[k][:n]:
                    mask |= 1 << cid
            got = int(bool(self.core._judge(mask, 0)))
            if len(self.judged) >= CLASS_MEMO_LIMIT:
                self.judged.clear()
            self.judged[group] = got
        return bool(got)

    def melds(self, k: int, key: int) -> list[int]:
        """The patterns of the melds with a card of class ``k`` that pattern ``key`` holds."""
        memo = self.melds_memo[k]
        got = memo.get(key)
        if got is not None:
            return got
        if len(memo) >= CLASS_MEMO_LIMIT:
            memo.clear()
        if self.one_class:
            out = memo[key] = self._melds_one_class(k, key)
            return out
        width, field, inc = self.width, self.field, self.inc
        found: set[int] = set()
        for lo, hi in self.set_sizes:
            classes = self.same_rank[k]
            if len(classes) == 1:
                have = key >> (k * width) & field
                top = have if hi is None else min(hi, have)
                for r in range(lo, top + 1):
                    found.add(r * inc[k])
                continue
            groups = [(inc[k], 1)]  # (pattern, cards) with one card of class k
            for j in classes:
                have = (key >> (j * width) & field) - (j == k)
                grown = []
                for group, size in groups:
                    for extra in range(have + 1):
                        if hi is not None and size + extra > hi:
                            break
                        grown.append((group + extra * inc[j], size + extra))
                groups = grown
            for group, size in groups:
                if size >= lo:
                    found.add(group)
        if self.runs:
            at = self.at

            def held(q: int) -> tuple[int, ...]:
                return tuple(j for j in at.get(q, ()) if key >> (j * width) & field)

            for lo, hi in self.runs:
                for p in self.positions[k]:
                    down = p
                    while held(down - 1):
                        down -= 1
                    up = p
                    while held(up + 1):
                        up += 1
                    if up - down + 1 < lo:
                        continue
                    longest = up - down + 1 if hi is None else min(hi, up - down + 1)
                    for a in range(max(down, p - longest + 1), p + 1):
                        windows = [inc[k]]
                        for q in range(a, p):
                            windows = [g + inc[j] for g in windows for j in held(q)]
                        for b in range(p, min(up, a + longest - 1) + 1):
                            if b > p:
                                windows = [g + inc[j] for g in windows for j in held(b)]
                            if b - a + 1 >= lo:
                                found.update(windows)
        out = []
        for group in found:
            if self._fits(group, key) and self.melds_pattern(group):
                out.append(group)
        memo[key] = out
        return out

    def _melds_one_class(self, k: int, key: int) -> list[int]:
        """:meth:`melds` with :attr:`one_class` (:func:`.ranklistings.class_melds`)."""
        return class_melds(self, k, key)

    def _fits(self, group: int, key: int) -> bool:
        """Whether pattern ``key`` holds every card of pattern ``group`` (a class may sit
        at two positions of one window: the ace low and high)."""
        guards = self.guards
        return ((key | guards) - group) & guards == guards

    # ------------------------------------------------------------------ the search

    def least(self, key: int) -> int:
        """The least deadwood of pattern ``key``."""
        if not key:
            return 0
        memo = self.least_memo
        got = memo.get(key)
        if got is not None:
            return got
        k = ((key & -key).bit_length() - 1) // self.width
        rest = key - self.inc[k]
        unmatched = self.value[k] + self.least(rest)
        best = least_step(unmatched, self.melds(k, key), key, self.least)
        if len(memo) >= CLASS_MEMO_LIMIT:
            memo.clear()
            self.meldless.clear()
        memo[key] = best
        if best == unmatched and self.positive and (not rest or rest in self.meldless):
            self.meldless.add(key)
        return best

    def pattern_value(self, key: int) -> int:
        """The value of the cards of pattern ``key`` (kept in :attr:`pattern_values`)."""
        values = self.pattern_values
        if len(values) >= CLASS_MEMO_LIMIT:
            values.clear()
        got = values[key] = sum(self.value[k] * n for k, n in self._counts(key))
        return got

    def _largest(self, group: int, c: int, mask: int, key: int) -> int:
        """The largest card set (by card-id mask) of ``mask`` (of pattern ``key``) with
        pattern ``group`` holding card ``c``: every card of ``group``'s classes when
        ``mask`` holds just ``group`` of them."""
        counts, cards, fields = self._group_counts(group)
        if key & fields == group:
            return mask & cards
        return self._pick(counts, c, mask)

    def _pick(self, counts: tuple[tuple[int, int], ...], c: int, mask: int) -> int:
        """:meth:`_largest` past its first case, given the group's ``(class, cards)``."""
        k_c = self.class_of[c]
        out = 1 << c
        class_cards = self.class_cards
        for k, n in counts:
            pool = class_cards[k] & mask
            if k == k_c:
                pool ^= out
                n -= 1
            if pool.bit_count() == n:  # no choice in this class: all of them
                out |= pool
                continue
            while n:
                top = 1 << (pool.bit_length() - 1)
                out |= top
                pool ^= top
                n -= 1
        return out

    def _group_counts(self, group: int) -> tuple[tuple[tuple[int, int], ...], int, int]:
        """``group``'s ``(class, cards)`` of each class, the card-id mask of those classes'
        cards and the mask of their fields (kept)."""
        got = self.group_counts.get(group)
        if got is None:
            counts = tuple(self._counts(group))
            cards = fields = 0
            for k, _n in counts:
                cards |= self.class_cards[k]
                fields |= self.field << (k * self.width)
            got = self.group_counts[group] = (counts, cards, fields)
        return got

    def kinds(self, meld: int, group: int) -> int:
        """The kinds bitmask of the wild-free cards ``meld`` of pattern ``group``. Under
        :func:`~rummydsl.melds.shapes.suit_blind` kinds every pattern is conjuncts on the
        ranks and the size and at most ``same(suit)`` or ``not same(suit)``, so the kinds
        follow from the pattern and whether the cards share one suit: judged once each."""
        low = meld & -meld
        same = not meld & ~self.suit_cards[self.core._suit_index[low.bit_length() - 1]]
        key = group << 1 | same
        got = self.group_kinds.get(key)
        if got is None:
            got = self.core._judged.get(meld) or self.core._judge(meld, 0)
            if len(self.group_kinds) >= CLASS_MEMO_LIMIT:
                self.group_kinds.clear()
            self.group_kinds[key] = got
        return got

    def walk(self, mask: int) -> PartArrangement:
        """The canonical arrangement of the wild-free cards ``mask``, as :meth:`.RankWindows.walk` reads it."""
        deadwood, melds, kinds, unmatched = self.walk_loose(mask)
        return deadwood, melds, kinds, self.core._cards_of(unmatched)

    def walk_loose(self, mask: int, key: int = -1) -> PartWalk:
        """:meth:`walk` with the unmatched cards as a card-id mask (given the cards' pattern
        ``key``, or with ``key`` -1 reading it). A step at the lowest card ``c`` reads the
        melds of its class that leave the least (:meth:`tight`); once what is left is
        :attr:`meldless`, every card left is unmatched (module docs)."""
        if key < 0:
            key = self.key(mask)
        deadwood = self.least_memo.get(key)
        if deadwood is None:
            deadwood = self.least(key)
        meldless = self.meldless
        if key in meldless:  # no meld: one would leave less (module docs)
            return deadwood, (), (), mask
        tights = self.tights
        melds: list[tuple[Card, ...]] = []
        kinds: list[frozenset[str]] = []
        melded = 0
        class_of, card_inc, names, suit_of, cards_of = (
            self.class_of, self.card_inc, self.group_names, self.suit_of, self.cards_of)
        left = mask
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            k = class_of[c]
            tight = tights[k].get(key)
            if tight is None:
                tight = self.tight(k, key)
            if not tight:  # the card unmatched
                mask ^= low
                key -= card_inc[c]
                if key in meldless:
                    break
                continue
            group, cards, fields, counts = tight[0]
            # the part holds just the group of its classes: those cards, else _largest
            best = mask & cards if key & fields == group else self._pick(counts, c, mask)
            for other, cards, fields, counts in tight[1:]:
                real = mask & cards if key & fields == other else self._pick(counts, c, mask)
                if real > best:
                    best, group = real, other
            melds.append(cards_of(best))
            named = names[best & suit_of[c] == best]  # by whether the meld keeps one suit, as kinds() keys it
            got_names = named.get(group)
            if got_names is None:
                if len(named) >= CLASS_MEMO_LIMIT:
                    named.clear()
                got_names = named[group] = self.core._names(self.kinds(best, group))
            kinds.append(got_names)
            mask ^= best
            melded |= best
            key -= group
            if key in meldless:
                break
        return deadwood, tuple(melds), tuple(kinds), left ^ melded

    def tight(self, k: int, key: int) -> list[Tight]:
        """The melds with a card of class ``k`` that pattern ``key`` holds and that leave
        its least deadwood, as (pattern, the card-id mask of its classes' cards, the mask
        of their fields, ``(class, cards)`` of each), in :meth:`melds`' order; kept per class."""
        least, memo = self.least, self.least_memo
        target = least(key)
        out = []
        for group in self.melds(k, key):
            v = memo.get(key - group)
            if (least(key - group) if v is None else v) == target:
                counts, cards, fields = self._group_counts(group)
                out.append((group, cards, fields, counts))
        tights = self.tights[k]
        if len(tights) >= CLASS_MEMO_LIMIT:
            tights.clear()
        tights[key] = out
        return out

    # ------------------------------------------------------------------ the contract

    def _size(self, group: int) -> int:
        width, field = self.width, self.field
        size = 0
        while group:
            size += group & field
            group >>= width
        return size

    def holds(self, keys: Sequence[int], contract: Callable[[list[tuple[str, tuple[Card, ...]]]], object],
              least_melds: int, most_melds: int | None, sizes: tuple[int, int]) -> bool:
        """Whether the parts of patterns ``keys`` hold a collection of disjoint melds, of
        ``least_melds`` to ``most_melds`` melds of ``sizes`` cards each, that meets
        ``contract``, for a contract that reads only its melds' sizes and count
        (:func:`blind_contract`): as :meth:`.RankWindows.holds` asks it of the cards. No
        meld crosses two parts, so the collections are the unions of each part's
        (:meth:`size_sets`, kept per part's pattern); ``contract`` is asked once per
        multiset of sizes, on melds of that many of the deck's cards (it reads nothing
        else of them). First :meth:`cannot_meld`: most hands that fail fail there. The
        answer is kept by the parts' patterns (a hand seen again asks nothing)."""
        memo_key = (id(contract), least_melds, most_melds, sizes, *keys)
        kept = self.held.get(memo_key)
        if kept is None:
            answer = not cannot_meld(self, keys, least_melds * sizes[0]) and sizes_hold(
                self, keys, contract, least_melds, most_melds, sizes)
            if len(self.held) >= CLASS_MEMO_LIMIT:
                self.held.clear()
            kept = self.held[memo_key] = (contract, answer)
        return kept[1]

    def cannot_meld(self, keys: Sequence[int], cards: int) -> bool:
        """Whether no collection of disjoint melds of the parts of patterns ``keys`` holds
        ``cards`` cards (:func:`.rankcontract.cannot_meld`)."""
        return cannot_meld(self, keys, cards)

    def size_sets(self, key: int, sizes: tuple[int, int], most_melds: int | None) -> frozenset[tuple[int, ...]]:
        """The multisets of sizes of the collections of disjoint melds of ``sizes`` cards,
        at most ``most_melds``, pattern ``key`` holds (:func:`.rankcontract.size_sets`)."""
        return size_sets(self, key, sizes, most_melds)
