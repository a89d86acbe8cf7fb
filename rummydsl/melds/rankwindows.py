"""Rank windows: a wild-free hand splits into parts that no meld crosses.

Without wild cards every meld's shape (:mod:`.shapes`) ties its cards together: a
group of one rank holds cards of that rank; a sequence holds one card at each of a
run of consecutive sequence positions (in one suit when its family keeps one), so
each of its cards sits next to another. Two cards are *linked* when some family's
shape lets one wild-free meld hold both as neighbours: the same rank for a
``same_rank`` family, adjacent sequence positions (the ace at each of its positions,
around the top only when the deck wraps; in one suit for a family kept in one) for a
``sequence`` family. The hand's *parts* are the classes of cards linked in chains:
windows of consecutive ranks the hand holds (with their sets), split wherever the
hand lacks a rank. No meld crosses two parts, so

- the least deadwood (and the least value outside melds) of the hand is the sum of
  its parts' (each part's arrangement can be chosen alone);
- the canonical arrangement (package docs) is the union of the parts' canonical
  arrangements: where two best arrangements first differ, at their lowest differing
  card, both take that card's part at its least, and that part's canonical
  arrangement is the preferred one at that card;
- a contract collection's melds lie in the parts of at least its melds' least size.

A part with fewer cards than the least meld is all deadwood. With melds free and no
wrap (:attr:`RankWindows.direct`) the others take a search in rank order over the
melds its shapes list (:meth:`RankWindows.least`, memoised per (rank, value) multiset
for suit-blind kinds, :func:`~rummydsl.melds.shapes.suit_blind`), else the general
search alone; a part's arrangement is kept per card set. The memos are per solver and
bounded (:data:`WINDOW_MEMO_LIMIT`).

A family of unknown shape (``any``) links everything: the split does not apply.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..cards import Card
from .core import Arrangement, MeldCore
from .rankarrange import arrange_by_ranks, by_first_card
from .rankclasses import PartArrangement, PartWalk, RankClasses, blind_contract, least_step
from .rankcontract import cards_hold
from .rankmasks import connected_parts, mask_sum
from .rankparts import RankParts

if TYPE_CHECKING:
    from .search import HandSearch

__all__ = ["RankWindows", "WINDOW_MEMO_LIMIT"]

WINDOW_MEMO_LIMIT = 1 << 16
"""Entries each memo of a solver's rank windows holds before it starts again."""

DIRECT_MOST = 20
"""The most cards of a part the rank-window search takes (a bigger one takes the search
:meth:`MeldRules._search` gives it: the short search in rank order)."""

SearchOf = Callable[[tuple[Card, ...], bool], "HandSearch"]
"""``search_of(part's cards, canonical)``: the search for one part (no table, no discard)."""


class RankWindows:
    """The links of a deck's natural cards under a solver's meld shapes; build with
    :meth:`build`."""

    def __init__(self, core: MeldCore, links: Sequence[int], fewest: int) -> None:
        self.core = core
        self.links = tuple(links)
        """Card id -> card-id mask of the natural cards linked to it."""
        self.fewest = fewest
        """The fewest cards of any meld: a smaller part is all deadwood."""
        self.direct = core.excludes_concealed_melds and not core._wrap
        """The part questions take the rank-window search (:meth:`least`, :meth:`walk`,
        :meth:`holds`) rather than the general search: melds free, no wrap."""
        families = core._families
        self._set_sizes = [(shape.min_size, shape.max_size, shape.per_suit) for shape in families
                           if shape.family == "same_rank"]
        self._runs = [(shape.min_size, shape.max_size, shape.per_suit) for shape in families
                      if shape.family == "sequence"]
        self.rank_classes = RankClasses(core, self._set_sizes, self._runs) if core._suit_blind else None
        """With suit-blind kinds: the search on the hand's rank pattern (:mod:`.rankclasses`)."""
        self.classes = None if self.rank_classes is None else self.rank_classes.card_inc
        """With suit-blind kinds: card id -> its (rank, value) class's field increment,
        so that a part's multiset of classes is the sum over its cards."""
        size = core._size
        rank_masks: dict[int, int] = {}
        position_masks: dict[int, int] = {}
        suit_masks: dict[int, int] = {}
        for c in core._cards:
            if c.wild:
                continue
            rank_masks[core._rank_order[c.id]] = rank_masks.get(core._rank_order[c.id], 0) | 1 << c.id
            suit_masks[core._suit_index[c.id]] = suit_masks.get(core._suit_index[c.id], 0) | 1 << c.id
            for p in core._positions[c.id]:
                position_masks[p] = position_masks.get(p, 0) | 1 << c.id
        self._same_rank = tuple(rank_masks.get(core._rank_order[i], 0) & ~(1 << i) for i in range(size))
        self._same_suit = tuple(suit_masks.get(core._suit_index[i], 0) for i in range(size))
        self._at = position_masks
        self._by_rank = tuple(rank_masks[r] for r in sorted(rank_masks))
        self.meld_memo: dict[int, list[int]] = {}  # melds_with, by card and the cards its melds may take
        self.least_memo: dict[int, int] = {}  # least, by the cards' class multiset or their mask
        self.meld_classes: dict[int, int] = {}  # suit-blind kinds: 1 when a group of that class multiset melds
        self.costs: dict[int, int] = {}  # a part's least deadwood by the general search
        self.arrangements: dict[int, PartWalk] = {}  # a part's arrangement, unmatched as a mask
        self.rank_parts = None if self.rank_classes is None else RankParts.build(core, links, self.rank_classes)
        """With suit-blind kinds whose links are their ranks': a hand's parts read by ranks (:mod:`.rankparts`)."""
        if self.rank_parts is not None and self.rank_classes is not None:
            self.rank_classes.cards_of = self.rank_parts.cards_of
        self._parts_of = -1
        self._walks = 0  # parts walked afresh, up to PREFILL_AFTER (then the memos are filled: .rankprefill)
        self.memo_limit = WINDOW_MEMO_LIMIT  # for .rankarrange
        self._contract_bounds: tuple[object, int, int, tuple[int, int], bool] | None = None
        self._last_parts: list[int] = []
        self._last_keys: list[int] = []

    @classmethod
    def build(cls, core: MeldCore) -> RankWindows | None:
        """The rank windows of ``core``'s kinds, or ``None`` when a family has no known shape."""
        families = core._families
        if not families or any(shape.family == "any" for shape in families):
            return None
        cards = [c for c in core._cards if not c.wild]
        rank_of, suit_of, positions = core._rank_order, core._suit_index, core._positions
        period, wrap = core._rank_count, core._wrap
        same_rank = any(shape.family == "same_rank" for shape in families)
        sequences = [shape.per_suit for shape in families if shape.family == "sequence"]
        any_suit = any(not per_suit for per_suit in sequences)

        def adjacent(p: int, q: int) -> bool:
            if abs(p - q) == 1:
                return True
            return wrap and (p % period + 1 == q or q % period + 1 == p)

        links = [0] * core._size
        for a in cards:
            for b in cards:
                if a is b:
                    continue
                linked = same_rank and rank_of[a.id] == rank_of[b.id]
                if not linked and sequences and (any_suit or suit_of[a.id] == suit_of[b.id]):
                    linked = any(adjacent(p, q) for p in positions[a.id] for q in positions[b.id])
                if linked:
                    links[a.id] |= 1 << b.id
        fewest = max(1, min(shape.min_size for shape in families))
        return cls(core, links, fewest)

    # ------------------------------------------------------------------ parts

    def parts(self, mask: int) -> list[int]:
        """The parts of the wild-free hand of card-id mask ``mask``, by lowest card (by
        lowest sequence position with :attr:`rank_parts`; the last hand's kept: a solve
        asks them for the contract, then the arrangement)."""
        if mask == self._parts_of:
            return self._last_parts
        if self.rank_parts is not None:
            parts, self._last_keys = self.rank_parts.split(mask)
        else:
            parts = connected_parts(mask, self.links)
            self._last_keys = []
        self._parts_of, self._last_parts = mask, parts
        return parts

    def part_keys(self, mask: int) -> list[int]:
        """With suit-blind kinds: the patterns (:mod:`.rankclasses`) of :meth:`parts`, in their order."""
        parts = self.parts(mask)
        if not self._last_keys and parts:
            assert self.rank_classes is not None
            self._last_keys = [self.rank_classes.key(part) for part in parts]
        return self._last_keys

    def _key(self, mask: int) -> int:
        """A memo key of the cards ``mask``: their class multiset (suit-blind kinds, which
        decides a part's least deadwood), else the cards themselves."""
        return mask if self.rank_classes is None else self.rank_classes.key(mask)

    def _cards(self, mask: int) -> tuple[Card, ...]:
        return self.core._cards_of(mask)

    def _value(self, mask: int) -> int:
        return mask_sum(self.core.values, mask)

    # ------------------------------------------------------------------ the rank-window search

    def melds_with(self, c: int, mask: int) -> list[int]:
        """Every meld (card-id mask) of the cards ``mask`` that holds card ``c``, as the
        shapes list them (:mod:`.candidates`: any cards of one rank; one card at each of
        a window of consecutive positions) and the kinds' predicates judge them.
        Memoised by ``c`` and the cards of ``mask`` such a meld could take."""
        bit = 1 << c
        relevant = 0
        for _lo, _hi, per_suit in self._set_sizes:
            relevant |= mask & self._same_rank[c] & (self._same_suit[c] if per_suit else -1)
        spans: list[tuple[int, int | None, int, int, int, int]] = []
        if self._runs:
            at = self._at
            for lo, hi, per_suit in self._runs:
                allowed = (mask & self._same_suit[c] if per_suit else mask) & ~bit
                for p in self.core._positions[c]:
                    # the positions below and above p held by some other card of the hand
                    down = p
                    while at.get(down - 1, 0) & allowed:
                        down -= 1
                        relevant |= at[down] & allowed
                    up = p
                    while at.get(up + 1, 0) & allowed:
                        up += 1
                        relevant |= at[up] & allowed
                    if up - down + 1 >= lo:
                        spans.append((lo, hi, p, down, up, allowed))
        key = relevant * self.core._size + c
        memo = self.meld_memo
        got = memo.get(key)
        if got is not None:
            return got
        found: set[int] = set()
        for lo, hi, per_suit in self._set_sizes:
            pool = mask & self._same_rank[c]
            if per_suit:
                pool &= self._same_suit[c]
            others = []
            while pool:
                low = pool & -pool
                others.append(low)
                pool ^= low
            top = len(others) + 1 if hi is None else min(hi, len(others) + 1)
            for r in range(max(lo, 1), top + 1):
                for combo in itertools.combinations(others, r - 1):
                    found.add(bit | sum(combo))
        for lo, hi, p, down, up, allowed in spans:
            longest = up - down + 1 if hi is None else min(hi, up - down + 1)
            left = self._reach(p, -1, p - down, allowed)
            right = self._reach(p, 1, up - p, allowed)
            for k, downs in enumerate(left):
                for j in range(max(0, lo - 1 - k), min(len(right), longest - k)):
                    for one in downs:
                        for two in right[j]:
                            if not one & two:
                                found.add(bit | one | two)
        out = []
        core = self.core
        judged = core._judged
        by_class = self.meld_classes if self.classes is not None else None
        if by_class is not None and len(by_class) >= WINDOW_MEMO_LIMIT:
            by_class.clear()
        for meld in found:
            kinds = judged.get(meld)
            if kinds is None and by_class is not None:  # suit-blind: a group melds by its classes alone
                if (kinds := by_class.get(group := self._key(meld))) is None:
                    kinds = by_class[group] = int(bool(core._judge(meld, 0)))
            elif kinds is None:
                kinds = core._judge(meld, 0)
            if kinds:
                out.append(meld)
        if len(memo) >= WINDOW_MEMO_LIMIT:
            memo.clear()
        memo[key] = out
        return out

    def _reach(self, p: int, step: int, most: int, allowed: int) -> list[list[int]]:
        """``out[k]``: the groups of one card of ``allowed`` at each of the ``k`` positions
        next to ``p`` in direction ``step`` (``out[0]`` is the empty group)."""
        at = self._at
        out = [[0]]
        groups = [0]
        q = p
        for _ in range(most):
            q += step
            pool = at[q] & allowed
            grown = []
            while pool:
                low = pool & -pool
                pool ^= low
                for g in groups:
                    if not g & low:
                        grown.append(g | low)
            if not grown:
                break
            groups = grown
            out.append(groups)
        return out

    def least(self, mask: int) -> int:
        """The least deadwood of the wild-free cards ``mask`` (any cards, one part or
        several): a card of its lowest rank is unmatched or in one of its melds (rank
        order keeps the states few: what is left has holes in the lowest ranks only);
        memoised by the class multiset with suit-blind kinds (which decides it), else
        by the cards."""
        if not mask:
            return 0
        if self.rank_classes is not None:
            return self.rank_classes.least(self.rank_classes.key(mask))
        key = self._key(mask)
        memo = self.least_memo
        got = memo.get(key)
        if got is not None:
            return got
        for cards in self._by_rank:
            if cards & mask:
                low = cards & mask & -(cards & mask)
                break
        c = low.bit_length() - 1
        best = least_step(self.core.values[c] + self.least(mask ^ low), self.melds_with(c, mask), mask, self.least)
        if len(memo) >= WINDOW_MEMO_LIMIT:
            memo.clear()
        memo[key] = best
        return best

    def walk(self, mask: int) -> PartArrangement:
        """The canonical arrangement of the wild-free cards ``mask``, read as the general
        search reads it: at the lowest card, its largest meld (by card-id mask) that
        leaves the least deadwood, else the card unmatched."""
        if self.rank_classes is not None:
            return self.rank_classes.walk(mask)
        core = self.core
        cards = core._cards
        values = core.values
        deadwood = target = self.least(mask)
        melds: list[tuple[Card, ...]] = []
        kinds: list[frozenset[str]] = []
        unmatched: list[Card] = []
        least = self.least
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            for meld in sorted(self.melds_with(c, mask), reverse=True):
                if least(mask ^ meld) == target:
                    melds.append(self._cards(meld))
                    kinds.append(core._names(core._judged.get(meld) or core._judge(meld, 0)))
                    mask ^= meld
                    break
            else:
                unmatched.append(cards[c])
                target -= values[c]
                mask ^= low
        return deadwood, tuple(melds), tuple(kinds), tuple(unmatched)

    def holds(self, mask: int, contract: Callable[[list[tuple[str, tuple[Card, ...]]]], object],
              least_melds: int, most_melds: int | None, sizes: tuple[int, int]) -> bool:
        """Whether some collection of disjoint melds of the wild-free cards ``mask``, of
        ``least_melds`` to ``most_melds`` melds of ``sizes`` cards each, meets ``contract``
        (:func:`.rankcontract.cards_hold`)."""
        return cards_hold(self.core, self.melds_with, mask, contract, least_melds, most_melds, sizes)

    # ------------------------------------------------------------------ questions

    def deadwood(self, mask: int, search_of: SearchOf) -> int:
        """The least deadwood of the wild-free hand ``mask``: the sum of its parts'."""
        total = 0
        fewest = self.fewest
        costs = self.costs
        parts = self.parts(mask)
        if self.rank_parts and self.rank_classes and self.direct and mask.bit_count() <= DIRECT_MOST:  # by ranks
            least = self.rank_classes.least
            values, value_of = self.rank_classes.pattern_values, self.rank_classes.pattern_value
            for part, key in zip(parts, self._last_keys):
                total += (values.get(key) or value_of(key)) if part.bit_count() < fewest else least(key)
            return total
        for part in parts:
            if part.bit_count() < fewest:
                total += self._value(part)
                continue
            if self.direct and part.bit_count() <= DIRECT_MOST:
                total += self.least(part)
                continue
            key = self._key(part)
            got = costs.get(key)
            if got is None:
                search = search_of(self._cards(part), False)
                got = int(search.plain().cost // search.deadwood_unit)
                if len(costs) >= WINDOW_MEMO_LIMIT:
                    costs.clear()
                costs[key] = got
            total += got
        return total

    def knock(self, mask: int) -> tuple[int, int]:
        """The knock question of the wild-free hand ``mask`` (:attr:`direct` only):
        ``(least deadwood after the best discard, the discard's card id)``. Discarding a
        card changes only its part's least deadwood; ties go to the highest value, then
        the highest card id (the general search's discard tie-break)."""
        values = self.core.values
        fewest = self.fewest
        parts = self.parts(mask)
        costs = [self._value(p) if p.bit_count() < fewest else self.least(p) for p in parts]
        total = sum(costs)
        best: tuple[int, int, int] | None = None
        for part, cost in zip(parts, costs):
            m = part
            while m:
                low = m & -m
                m ^= low
                c = low.bit_length() - 1
                rest = part ^ low
                after = total - cost + (self._value(rest) if rest.bit_count() < fewest else self.least(rest))
                key = (after, -values[c], -c)
                if best is None or key < best:
                    best = key
        assert best is not None
        return best[0], -best[2]

    def arrangement(self, mask: int, search_of: SearchOf, holds: bool, discard: bool = False) -> Arrangement:
        """The canonical arrangement of the wild-free hand ``mask`` (its parts'), with
        :attr:`Arrangement.contract` ``holds``; with ``discard`` (:attr:`direct` only),
        after the best discard (:meth:`knock`), that of the cards kept."""
        if discard:
            card = self.core._cards[self.knock(mask)[1]]
            if mask == 1 << card.id:
                return Arrangement(0, (), (), (), holds, (), card)
            return self.arrangement(mask ^ 1 << card.id, search_of, holds)._replace(discard=card)
        classes = self.rank_classes if self.direct and mask.bit_count() <= DIRECT_MOST else None
        if classes is not None and self.rank_parts is not None:  # each part by its rank pattern
            return arrange_by_ranks(self, classes, self.rank_parts, mask, holds)
        deadwood = 0
        melds: list[tuple[Card, ...]] = []
        kinds: list[frozenset[str]] = []
        loose = 0  # the unmatched cards, read out by id at the end
        fewest = self.fewest
        memo = self.arrangements
        parts = self.parts(mask)
        for part in parts:
            if part.bit_count() < fewest:
                deadwood += self._value(part)
                loose |= part
                continue
            kept = memo.get(part)
            if kept is None:
                if classes is not None:  # suit-blind kinds on a direct hand: the part walks its rank pattern
                    kept = classes.walk_loose(part)
                else:
                    if self.direct and part.bit_count() <= DIRECT_MOST:
                        got = self.walk(part)
                    else:
                        search = search_of(self._cards(part), True)
                        found = search.solve_found(search.plain(), True)
                        got = (found.deadwood, found.melds, found.kinds, found.unmatched)
                    kept = (got[0], got[1], got[2], sum(1 << c.id for c in got[3]))
                if len(memo) >= WINDOW_MEMO_LIMIT:
                    memo.clear()
                memo[part] = kept
            deadwood += kept[0]
            melds.extend(kept[1])
            kinds.extend(kept[2])
            loose |= kept[3]
        sorted_melds: tuple[tuple[Card, ...], ...]
        sorted_kinds: tuple[frozenset[str], ...]
        if len(parts) > 1 and len(melds) == 2:  # by first card (the most common case: one comparison)
            if melds[0][0].id > melds[1][0].id:
                sorted_melds, sorted_kinds = (melds[1], melds[0]), (kinds[1], kinds[0])
            else:
                sorted_melds, sorted_kinds = tuple(melds), tuple(kinds)
        elif len(parts) > 1 and len(melds) > 1:  # by first card (.rankarrange.by_first_card)
            sorted_melds, sorted_kinds = by_first_card(len(parts), melds, kinds)
        else:
            sorted_melds, sorted_kinds = tuple(melds), tuple(kinds)
        # tuple.__new__ skips the named tuple's Python-level __new__ (as MeldRules.solve does)
        return tuple.__new__(Arrangement, (deadwood, sorted_melds, sorted_kinds, self.core._cards_of(loose), holds,
                                           (), None, (), ()))

    def contract_holds(self, mask: int, search: Callable[[tuple[Card, ...]], bool]) -> bool:
        """Whether the wild-free hand ``mask`` meets the solver's contract. A contract
        meld lies in one part of at least the contract's least meld size, and a part of
        ``n`` cards holds at most ``n // size`` such melds: when the parts hold fewer than
        the contract's least number of melds, no; else the contract is searched in those
        parts only (:meth:`holds`, or ``search(cards)``, the general contract search,
        past :data:`DIRECT_MOST` cards or without the rank-window search)."""
        core = self.core
        contract = core.contract
        assert contract is not None
        bounds = self._contract_bounds
        if bounds is None or bounds[0] is not contract:
            bounds = self._contract_bounds = self._bounds(contract)
        _, least_size, least_melds, sizes, blind = bounds
        room = 0
        parts = self.parts(mask)
        for part in parts:
            room += part.bit_count() // least_size
        if room < least_melds:  # (most hands)
            return False
        held = []
        cards = 0
        for i, part in enumerate(parts):
            if part.bit_count() >= least_size:
                held.append(i)
                cards |= part
        if self.direct and cards.bit_count() <= DIRECT_MOST:
            classes = self.rank_classes
            if classes is not None and blind:
                keys = self.part_keys(mask)
                return classes.holds([keys[i] for i in held], contract, least_melds, core.contract_max_melds, sizes)
            return self.holds(cards, contract, least_melds, core.contract_max_melds, sizes)
        return search(self._cards(cards))

    def _bounds(self, contract: object) -> tuple[object, int, int, tuple[int, int], bool]:
        """(contract, least meld size, least melds, (least, most) sizes, reads only sizes?), from its facts."""
        facts = getattr(contract, "facts", None)
        least_size = max(int(getattr(facts, "min_size", 1) or 1), self.fewest)
        least_melds = max(1, int(getattr(facts, "min_melds", 1) or 1))
        high = getattr(facts, "max_size", None)
        sizes = (least_size, high if isinstance(high, int) else self.core._size)
        return contract, least_size, least_melds, sizes, self.rank_classes is not None and blind_contract(contract)
