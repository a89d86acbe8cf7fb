"""Rank windows with wild cards: the least deadwood of a hand holding wild cards, by parts.

With ``w`` wild cards a meld's natural cards are still tied together by its shape
(:mod:`.shapes`), only more loosely: a group of one rank holds cards of that rank; a
sequence's natural cards sit at positions of one window with at most ``w`` gaps
between them, so two of them next to each other in it are at most ``w + 1`` positions
apart (in one suit when the family keeps one). Two natural cards are *linked* when
one family's shape lets a meld with at most ``w`` wild cards hold both as neighbours,
and the hand's *parts* are the classes of cards linked in chains
(:class:`~rummydsl.melds.rankwindows.RankWindows` is the case ``w = 0``). No meld
crosses two parts, and wild cards alone (unmelded, or in a meld of wild cards only)
belong to no part, so an arrangement of the hand is an arrangement of each part with
some share of the wild cards: the least deadwood of the hand is the least, over the
ways of sharing the ``w`` wild cards out among the parts, of the sum of each part's
least deadwood with its share (the share's wild cards melded in the part, left
unmatched, or in melds of their own). A part's least deadwood with ``j`` wild cards,
``j = 0..w``, is what the general search (:class:`~rummydsl.melds.search.HandSearch`)
gives for the part's cards and ``w`` wild cards, read at each ``j`` from one search;
the same search gives the part's least deadwood with any one of its cards discarded.
Both are kept per solver by the part's cards and ``w``: parts recur from turn to turn,
when a hand changes by a card or two.

Where renaming the suits changes no meld into a non-meld nor the other way
(:func:`~rummydsl.expr.facts.suit_symmetric`, read from the patterns' syntax trees) and
no card's value or sequence positions depend on its suit, two parts that differ only
by which suit is which have the same least deadwoods, card for renamed card: the
solver keeps them once more by the part's *pattern*, its suits' rank masks sorted
(:meth:`WildWindows.pattern`), so that a part first met in one suit is answered in the
others (new deals meet many parts once each, a third to a half of them in another
suit than before). The kept costs of a pattern are by the pattern's cards, read back
onto the part's own by the suits' renaming, and by the pattern alone, not ``w``: a
part's least deadwood with ``j`` wild cards is the same whatever number of wild cards
made it a part, so a pattern searched with more wild cards answers for fewer.

The search of a part gives each discard's least deadwood too, when asked, from the same
search kept open since the part's least deadwood was asked: the knock listing asks a
hand's least deadwood, then the discards whose value could bring it within the limit
(:func:`~.discards.parts_discards`: a discard lowers the least deadwood by at most its
value), so only the parts holding such a card are asked theirs.

The sharing is a small knapsack over the parts (:mod:`.wildshares`), and
the knock question (the least deadwood after one discard) replaces one part by the
part without the card, or takes one wild card out.

This answers the questions with no arrangement only (:meth:`WildWindows.deadwood`,
:meth:`WildWindows.discard_deadwoods`): the least deadwood is the same whatever the
search, so no tie-break is involved. It applies when melds in the hand are free
(``excludes_concealed_melds``), without a table, a contract or ``wild_unique_card``
(meanings tie the parts together), the deck does not wrap, and no family is of
unknown shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import add

from ..cards import Card
from ..expr.facts import suit_symmetric
from ..limits import MAX_MELD_WORK
from .candidates import PoolMelds
from .core import MeldCore, WorkBoundError, bits_of
from .partsearch import PART_MOST, PartMelds, part_melds, part_search
from .partshapes import Shapes
from .partstates import Placings, lazy_search, shared_states
from .rankmasks import connected_parts
from .search import HandSearch
from .wildshares import _NONE, INFINITE, WILDS_MOST, PartCosts, _combine, _discard_deadwoods_one

__all__ = ["WildWindows", "WILD_MEMO_LIMIT", "WILDS_MOST", "windows_of"]  # (WILDS_MOST: from .wildshares)

WILD_MEMO_LIMIT = 1 << 15
"""Parts whose least deadwoods a solver keeps before it starts again."""

OPEN_LIMIT = 32
"""Parts' searches a solver keeps open (for a walk) before it starts again."""


class WildWindows:
    """The parts of hands with wild cards under a solver's meld shapes; build with :meth:`build`."""

    def __init__(self, core: MeldCore) -> None:
        self.core = core
        natural = [c for c in core._cards if not c.wild]
        self._natural = natural
        families = core._families
        self._same_rank = [shape.per_suit for shape in families if shape.family == "same_rank"]
        self._sequences = [shape.per_suit for shape in families if shape.family == "sequence"]
        self._links: dict[int, tuple[int, ...]] = {}
        self._worth: dict[int, int] = {}
        """A value -> the natural cards of that value or more (:meth:`worth`)."""
        """Wild cards ``w`` -> card id -> the card-id mask of the natural cards linked to it."""
        self._last: tuple[int, tuple[dict[int, int], int | None]] | None = None
        """The last hand's :meth:`discard_deadwoods` (the knock listing asks it twice a turn)."""
        self._last_parts: tuple[int, list[int]] = (-1, [])
        self._open: dict[int, tuple[PartMelds, Callable[[int, int], int]]] = {}
        """The last parts' searches (:meth:`searched`), by ``part mask << 3 | w``, the last
        :data:`OPEN_LIMIT` at most: a part's discards are asked after its least deadwood,
        and the canonical walk (:mod:`.partwalk`) asks the states of a knock's parts."""
        self.memo: dict[int, tuple[int, ...]] = {}
        """A part's least deadwoods by share of wild cards (the first of its
        :data:`PartCosts`), by ``part mask << 3 | w``."""
        self.each: dict[int, dict[int, tuple[int, ...]]] = {}
        """The same part's least deadwoods without each of its cards known so far (the second
        of its :data:`PartCosts`), by the same key. Two dicts, not one of tuples: a tuple
        holding a dict is never untracked by the garbage collector, so every full collection
        walked each kept part; tuples of ints and dicts of them are untracked."""
        self.patterns: dict[int, tuple[int, ...]] = {}
        """A part pattern's least deadwoods (by the pattern's cards), by pattern mask, with
        ``j = 0..w`` wild cards for the ``w`` it was searched with (a part's least deadwood
        with ``j`` wild cards does not depend on the ``w`` that made it a part, so a pattern
        kept with more wild cards answers for fewer); its discards in :attr:`pattern_each`."""
        self.pattern_each: dict[int, dict[int, tuple[int, ...]]] = {}
        """A part pattern's least deadwoods without each of its cards known so far, by pattern mask."""
        self.grid = _suit_grid(core)
        self.placed = Placings(*self.grid) if self.grid else None
        """A part's pattern and the suits' places in it (:class:`~.partstates.Placings`), with :attr:`grid`."""
        self.states: dict[int, int] = {}
        """The part searches' states' least deadwoods, shared by every part's search
        (:mod:`.partstates`; a shape's moved down by ``d`` ranks by ``(d << 3 | wilds) <<
        size | mask``, :mod:`.partshapes`)."""
        self._pools = PoolMelds(core, self.grid[1] if self.grid else 0)
        """The melds of each pool of a part's cards (by suit pattern on a grid)."""
        self.shapes = Shapes(core, self._pools, self.states, self.placed, self.grid) if self.placed and self.grid else None
        """The parts' searches by their shapes (:mod:`.partshapes`), with :attr:`grid`."""
        self._plain_values = all(v >= 0 for v in core.values) and core._wild_value >= 0
        """Whether every card value is 0 or more (:func:`~.partsearch.part_search` then gives what the
        general search gives; else :meth:`_hand_search` runs that search itself)."""
        """``(suits, ranks)`` where parts are kept by pattern too (module docs), else None."""

    @classmethod
    def build(cls, core: MeldCore) -> WildWindows | None:
        """The wild windows of ``core``, or ``None`` where they do not apply (module docs)."""
        families = core._families
        if (not families or any(shape.family == "any" for shape in families) or core._wrap
                or not core.excludes_concealed_melds or core.contract is not None or core.wild_unique_card
                or not core._wild_cards):
            return None
        return cls(core)

    def links(self, w: int) -> tuple[int, ...]:
        """Card id -> the natural cards linked to it with ``w`` wild cards (module docs)."""
        got = self._links.get(w)
        if got is not None:
            return got
        core = self.core
        rank_of, suit_of, positions = core._rank_order, core._suit_index, core._positions
        links = [0] * core._size
        by_rank: dict[int, int] = {}
        by_suit: dict[int, int] = {}
        by_position: dict[int, int] = {}
        for c in self._natural:
            bit = 1 << c.id
            by_rank[rank_of[c.id]] = by_rank.get(rank_of[c.id], 0) | bit
            by_suit[suit_of[c.id]] = by_suit.get(suit_of[c.id], 0) | bit
            for p in positions[c.id]:
                by_position[p] = by_position.get(p, 0) | bit
        # a family of groups of one rank links a rank's cards (of one suit where it keeps
        # one); a sequence family links cards at most w + 1 positions apart, likewise
        rank_any, rank_suited = any(not s for s in self._same_rank), bool(self._same_rank)
        run_any, run_suited = any(not s for s in self._sequences), bool(self._sequences)
        for a in self._natural:
            suit = by_suit[suit_of[a.id]]
            linked = 0
            if rank_suited:
                same = by_rank[rank_of[a.id]]
                linked |= same if rank_any else same & suit
            if run_suited:
                near = 0
                for p in positions[a.id]:
                    for q in range(p - w - 1, p + w + 2):
                        if q != p:
                            near |= by_position.get(q, 0)
                linked |= near if run_any else near & suit
            links[a.id] = linked & ~(1 << a.id)
        got = self._links[w] = tuple(links)
        return got

    def parts(self, mask: int, w: int) -> list[int]:
        """The parts of the natural cards ``mask`` with ``w`` wild cards, by lowest card
        (the last hand's kept: the knock listing asks a hand's least deadwood, then each
        discard's)."""
        key = mask << 3 | w
        last = self._last_parts
        if last[0] == key:
            return last[1]
        got = connected_parts(mask, self._links.get(w) or self.links(w))
        self._last_parts = (key, got)
        return got

    def costs(self, part: int, w: int, *, without: bool = False) -> PartCosts:
        """The part's least deadwood with ``j = 0..w`` wild cards and without each of its
        cards (with ``without``; else perhaps some or none, filled in place when asked later): one
        general search of the part and ``w`` wild cards, kept. A search asked the least
        deadwood alone is kept open for the discards (the knock listing asks them only
        where a discard could leave a knock, :func:`~.discards.parts_discards`).

        :raises WorkBoundError: past the search's work bound.
        """
        key = part << 3 | w
        whole = self.memo.get(key)
        count = part.bit_count()
        got: PartCosts | None = None
        if whole is not None:
            got = (whole, self.each[key])
            if not without or len(got[1]) == count:
                return got
        grid = self.grid
        if grid is None:
            if got is None:
                return self._keep(key, self._search(part, w, without))
            self._discards(part, w, got[1])
            return got
        ranks = grid[1]
        assert self.placed is not None
        pattern, order, place = self.placed(part)
        kept = self.patterns.get(pattern)
        top = w + 1
        if kept is not None and len(kept) >= top and (not without or len(self.pattern_each[pattern]) == count):
            # the pattern's card of suit place i, rank r is the part's of suit order[i];
            # kept with more wild cards, the vectors' first w + 1 entries are these
            whole = kept if len(kept) == top else kept[:top]
            if not without and got is None:
                # the least deadwoods alone asked (most asks): the discards are read off the
                # pattern when a discard of the part is asked (:func:`~.discards._discards_of`)
                return self._keep(key, (whole, {}))
            theirs = self.pattern_each[pattern]
            if len(kept) == top:
                each = {order[c // ranks] * ranks + c % ranks: v for c, v in theirs.items()}
            else:
                each = {order[c // ranks] * ranks + c % ranks: v[:top] for c, v in theirs.items()}
            if got is not None:  # the least deadwoods were kept, not every discard
                got[1].update(each)
                return got
            return self._keep(key, (whole, each))
        if got is None:
            got = self._keep(key, self._search(part, w, without))
        else:
            self._discards(part, w, got[1])
        each = {place[c // ranks] * ranks + c % ranks: v for c, v in got[1].items()}
        if kept is not None and len(kept) == top and len(theirs := self.pattern_each[pattern]) < count:
            theirs.update(each)  # the same entry, its discards now known
        else:
            self._keep_pattern(pattern, (got[0], each))
        return got

    def vector(self, part: int, w: int) -> tuple[int, ...]:
        """The part's least deadwood with ``j = 0..w`` wild cards (:meth:`costs`' first)."""
        return self.memo.get(part << 3 | w) or self.costs(part, w)[0]

    def discards_of(self, part: int, w: int) -> dict[int, tuple[int, ...]]:
        """The part's least deadwoods without each of its cards known so far (:meth:`costs`'
        second; filled in place)."""
        each = self.each.get(part << 3 | w)
        return self.costs(part, w)[1] if each is None else each

    def pattern(self, part: int) -> tuple[int, Sequence[int]]:
        """The pattern of the part ``part`` (a card-id mask; with :attr:`grid` only): the
        card-id mask of the same rank masks, sorted from the largest, in suits ``0, 1,
        ...``; and for each suit of the pattern the part's suit it was."""
        assert self.placed is not None
        return self.placed(part)[:2]

    def _keep(self, key: int, got: PartCosts) -> PartCosts:
        memo = self.memo
        if len(memo) >= WILD_MEMO_LIMIT:
            memo.clear()
            self.each.clear()
        memo[key] = got[0]
        self.each[key] = got[1]
        return got

    def _keep_pattern(self, key: int, got: PartCosts) -> None:
        patterns = self.patterns
        if len(patterns) >= WILD_MEMO_LIMIT:
            patterns.clear()
            self.pattern_each.clear()
        patterns[key] = got[0]
        self.pattern_each[key] = got[1]

    def _search(self, part: int, w: int, without: bool) -> PartCosts:
        """:meth:`costs` by one general search of the part's cards and ``w`` wild cards
        (the search cut to a part's needs, :func:`~.partsearch.part_search`, where it gives
        the same): each discard's deadwood too with ``without``, else the search is kept
        open for them (:meth:`_discards`)."""
        if not self._plain_values or part.bit_count() > PART_MOST:
            return self._hand_search(part, w, without)
        each: dict[int, tuple[int, ...]] = {}
        if self.shapes is None:
            least = self.asker(part, w)
            whole = tuple([least(part, j) for j in range(w + 1)])
            if without:
                self._each(part, w, least, each)
            return whole, each
        shapes = self.shapes
        assert shapes is not None
        shape, d, _ = shapes.shaped(part)
        least = shapes.asker(shape, d, w)
        whole = tuple([least(shape, j) for j in range(w + 1)])
        if without:
            shapes.each(part, w, bits_of(part), each)
        return whole, each

    def searched(self, part: int, w: int) -> tuple[PartMelds, Callable[[int, int], int]]:
        """The part's melds and its search (:func:`~.partsearch.part_search`, values of 0 or
        more and at most :data:`~.partsearch.PART_MOST` cards), kept open (:attr:`_open`)."""
        key = part << 3 | w
        got = self._open.get(key)
        if got is None:
            melds = part_melds(part, w, self._pools)
            opened = self._open
            if len(opened) >= OPEN_LIMIT:
                opened.clear()
            got = opened[key] = (melds, part_search(self.core, part, w, self._pools, melds,
                                                    shared_states(self.states)))
        return got

    def discards_for(self, part: int, w: int, cids: Iterable[int], each: dict[int, tuple[int, ...]]) -> None:
        """``each[cid]`` for the part's cards ``cids`` (values of 0 or more, at most
        :data:`~.partsearch.PART_MOST` cards): its least deadwoods without the card, from
        its shape's search with :attr:`grid`, else from its own."""
        if self.shapes is not None:
            self.shapes.each(part, w, cids, each)
            return
        least = self.asker(part, w)
        top = range(w + 1)
        for cid in cids:
            rest = part ^ 1 << cid
            each[cid] = tuple([least(rest, j) for j in top])

    def asker(self, part: int, w: int) -> Callable[[int, int], int]:
        """The part's search (:meth:`searched`), opened only for a state the shared table
        (:attr:`states`) lacks (:func:`~.partstates.lazy_search`)."""
        return lazy_search(self.states, self.core._size, lambda: self.searched(part, w)[1])

    def _discards(self, part: int, w: int, each: dict[int, tuple[int, ...]]) -> None:
        """Fill ``each`` (empty) with the part's least deadwoods without each of its cards:
        from the part's search if it is still open, else from a new one."""
        if not self._plain_values or part.bit_count() > PART_MOST:
            each.update(self._hand_search(part, w, True)[1])
            return
        self.discards_for(part, w, bits_of(part), each)

    @staticmethod
    def _each(part: int, w: int, least: Callable[[int, int], int], each: dict[int, tuple[int, ...]]) -> None:
        top = range(w + 1)
        m = part
        while m:
            low = m & -m
            m ^= low
            rest = part ^ low
            each[low.bit_length() - 1] = tuple([least(rest, j) for j in top])

    def _hand_search(self, part: int, w: int, without: bool) -> PartCosts:
        """:meth:`_search` by :class:`~rummydsl.melds.search.HandSearch` itself (card
        values below 0, whose cost units :func:`~.partsearch.part_search` does not copy)."""
        core = self.core
        cards: Sequence[Card] = core._cards_of(part) + tuple(core._wild_cards[:w])
        search = HandSearch(core, cards, (), False)
        unit = search.deadwood_unit
        full = (1 << search.n) - 1
        least = search.least_cost
        work = search.work
        work[0] = MAX_MELD_WORK
        whole = tuple(int(least(full, j, 0, 0) // unit) for j in range(w + 1))
        each: dict[int, tuple[int, ...]] = {}
        try:
            for i, cid in enumerate(search.natural_ids):
                work[0] = MAX_MELD_WORK
                rest = full ^ 1 << i
                each[cid] = tuple(int(least(rest, j, 0, 0) // unit) for j in range(w + 1))
        except WorkBoundError:
            if without:
                raise
            each = {}  # the least deadwood alone was asked, and it is known
        return whole, each

    def least(self, mask: int, discard: bool) -> int | None:
        """The least deadwood of the hand of card-id mask ``mask`` (after the best discard
        with ``discard``), or None where the parts do not answer it: no natural card, or
        more than :data:`WILDS_MOST` wild cards.

        :raises WorkBoundError: past a part search's work bound.
        """
        natural = mask & self.core._natural_mask
        w = (mask ^ natural).bit_count()
        if not natural or w > WILDS_MOST:
            return None
        if not discard:
            return self.deadwood(natural, w)
        each, wild = self.discard_deadwoods(natural, w)
        least = min(each.values())
        return least if wild is None or least <= wild else wild

    def deadwood(self, mask: int, w: int) -> int:
        """The least deadwood of the natural cards ``mask`` (at least one) and ``w`` wild cards.

        :raises WorkBoundError: past a part search's work bound.
        """
        vector = self.vector
        kept = self.memo.get  # (the kept costs read first: most parts were met before)
        if w == 1:  # most hands with a wild card hold one: the part it goes to gains the most
            total = 0
            gain = INFINITE
            for part in self.parts(mask, 1):
                a, b = kept(part << 3 | 1) or vector(part, 1)
                total += a
                if b - a < gain:
                    gain = b - a
            return total + gain
        best: Sequence[int] = _NONE[w]
        for part in self.parts(mask, w):
            best = _combine(best, kept(part << 3 | w) or vector(part, w), w)
        return best[w]

    def discard_deadwoods(self, mask: int, w: int) -> tuple[dict[int, int], int | None]:
        """The least deadwood of the hand (natural cards ``mask``, ``w`` wild cards) after
        discarding each natural card (card id -> deadwood), and after discarding a wild
        card (None without one).

        :raises WorkBoundError: past a part search's work bound.
        """
        last = self._last
        if last is not None and last[0] == mask << 3 | w:
            return last[1]
        parts = self.parts(mask, w)
        got = [self.costs(part, w, without=True) for part in parts]
        if w == 1:
            found = _discard_deadwoods_one(got)
            self._last = (mask << 3 | w, found)
            return found
        vectors = [whole for whole, _ in got]
        n = len(parts)
        # the shares of every part but one: the parts before it and after it, combined
        before: list[Sequence[int]] = [_NONE[w]]
        for vector in vectors:
            before.append(_combine(before[-1], vector, w))
        after: list[Sequence[int]] = [_NONE[w]]
        for vector in reversed(vectors):
            after.append(_combine(after[-1], vector, w))
        after.reverse()  # after[i]: the parts from i on, combined
        out: dict[int, int] = {}
        for i in range(n):
            others = _combine(before[i], after[i + 1], w)
            others.reverse()  # others[j]: the other parts with w - j wild cards
            for cid, vector in got[i][1].items():
                out[cid] = min(map(add, others, vector))
        # a sum's entries below w depend on the entries below w alone: the least with a
        # wild card less is the first w entries' last
        wild = before[-1][w - 1] if w else None
        self._last = (mask << 3 | w, (out, wild))
        return out, wild

    def worth(self, need: int) -> int:
        """The card-id mask of the natural cards of value ``need`` or more (kept)."""
        got = self._worth.get(need)
        if got is None:
            values = self.core.values
            got = self._worth[need] = sum(1 << c.id for c in self._natural if values[c.id] >= need)
        return got


def _suit_grid(core: MeldCore) -> tuple[int, int] | None:
    """``(suits, ranks)`` when parts may be kept by pattern (module docs): the kinds are
    suit-symmetric, and the deck's natural cards are every suit's ranks once each, card
    ``suit * ranks + r`` of the ``r``-th rank, with the same value and sequence positions
    in every suit; else None."""
    if not suit_symmetric(core.kinds):
        return None
    deck = core.deck
    ranks = len(deck.ranks)
    natural = [c for c in core._cards if not c.wild]
    suits = len(natural) // ranks if ranks else 0
    if not suits or suits * ranks != len(natural):
        return None
    slot = {rank: r for r, rank in enumerate(deck.ranks)}
    seen = set()
    for c in natural:
        if (c.suit is None or c.rank is None or not 0 <= c.suit.index < suits
                or c.id != c.suit.index * ranks + slot[c.rank] or c.id in seen):
            return None
        seen.add(c.id)
        first = slot[c.rank]
        if core.values[c.id] != core.values[first] or core._positions[c.id] != core._positions[first]:
            return None
    return suits, ranks


def windows_of(core: MeldCore) -> WildWindows | None:
    """The solver's wild windows, built on first use and kept on it; None where they do
    not apply (module docs)."""
    state = core._wild_state
    if state is None:
        state = core._wild_state = WildWindows.build(core) or False
    return state or None
