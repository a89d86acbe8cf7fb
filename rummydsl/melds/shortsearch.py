"""The search for big wild-free hands: short candidates, cards taken in rank order.

The general search (:mod:`.search`) lists every meld of the hand and takes the
lowest card id first. Both blow up on big hands of mixed-suit sequences (Skarney's
poker, SK-3.3): a 26-card hand has tens of thousands of sequences, and card ids go
suit by suit, so every state of the search leaves holes in every suit. This search
changes two things, and neither changes a result:

1. **Short candidates.** When every kind of a family splits
   (:func:`~rummydsl.melds.shapes.split_sizes`: a meld of ``2 * min_size`` cards or
   more is two melds), only melds below that size are listed. A longer meld costs
   what its pieces cost, so the least cost of every set of cards is the same.
2. **Rank order.** The memoised recursion decides the card of the lowest sequence
   position (then suit) still to place, not the lowest card id: the melds of that
   card reach only a few ranks up, so the states are few (the cards above those
   ranks are all still there). The memo is keyed by the cards left, so
   :meth:`least_cost` is the same function of a set of cards as the general
   search's.

The arrangement is then read as the general search reads it, lowest card id first,
the largest meld first that leaves a best arrangement of the rest (the canonical
order of the package docs). Melds longer than the short list are found by merging:
every merge of short melds that stays a meld and keeps the rest best is tried (any
window of a meld of kinds that split is a meld, and a best arrangement less a meld
is still best, so every such meld is reached), while that takes at most
:data:`MERGE_TRIES` tries a step; past it (hands where nearly every card melds in
many ways: most 32-card Skarney hands), the step merges greedily, the extension of
the largest mask first, and the arrangement is a best one, each meld maximal, not
always the canonical one (:attr:`ShortSearch.exact` says which). The deadwood is
exact either way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from .core import ROLE_DEAD, ROLE_MELD, MeldCore, WorkBoundError
from .search import INFINITE, Found, Group, HandSearch

__all__ = ["ShortSearch", "MERGE_TRIES", "RANK_ORDER_FROM"]

MERGE_TRIES = 2_000
"""The most merges one step of the arrangement tries in looking for the largest meld;
past it (hands where nearly every card melds in many ways) the step merges greedily
and the arrangement is a best one, not always the canonical one."""

RANK_ORDER_FROM = 14
"""Wild-free hands without table melds of more cards than this, and at most
``rules.SHORT_SEARCH_FROM`` (20), asked for the arrangement take this search over
*every* candidate (``short=False``): the general search's candidates and its walk
(:meth:`walk` without merges is :meth:`HandSearch.walk` for such hands), so the same
arrangement, from the same least costs found in rank order, in far fewer states (a
20-card Skarney ``solve``: 12 ms to 1.6 ms). Below it the general search is as fast."""


def byte_tables(values: Sequence[int]) -> list[list[int]]:
    """For each byte of a local mask (cards ``8 * k`` to ``8 * k + 7``), the ``|`` of
    ``values[card]`` over the cards of each of its 256 values.

    >>> [table[:4] for table in byte_tables([1, 2, 4])]
    [[0, 1, 2, 3]]
    """
    tables = []
    for first in range(0, len(values), 8):
        table = [0]
        for value in values[first:first + 8]:
            table += [x | value for x in table]
        tables.append(table + [0] * (256 - len(table)))
    return tables


class ShortSearch(HandSearch):
    """The search of a wild-free hand without table melds (module docs)."""

    def __init__(self, core: MeldCore, hand: Sequence[Card], discard: bool, *, short: bool = True,
                 work: list[int] | None = None) -> None:
        super().__init__(core, hand, (), discard, short=short, work=work)
        assert not self.wild_count
        n = self.n
        positions = core._positions
        suit = core._suit_index
        rank = core._rank_order
        ids = self.natural_ids
        order = sorted(range(n), key=lambda i: (min(positions[ids[i]], default=rank[ids[i]]), suit[ids[i]], i))
        self.position = position = [0] * n
        """``position[local card]``: its bit in the search's masks."""
        for s, i in enumerate(order):
            position[i] = s
        self.byte_tables = byte_tables([1 << p for p in position])
        """Per byte of a local mask, its 256 values as masks of search positions."""
        self.grows = short and any(cap is not None for cap in core._family_caps)
        by_lowest: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        self.s_cands = [self.to_search(c[0]) for c in self.cands]
        """Each candidate's cards as a mask of search positions."""
        for _local_mask, _k, cost, idx in (x for lst in self.melds_by_lowest for x in lst):
            smask = self.s_cands[idx]
            by_lowest[(smask & -smask).bit_length() - 1].append((smask, cost))
        self.s_melds = by_lowest
        self.s_dead = [0.0] * n
        self.s_discard = [0.0] * n
        for i in range(n):
            self.s_dead[position[i]] = self.dead_cost[i]
            self.s_discard[position[i]] = self.discard_cost[i]
        self.s_memo: dict[int, float] = {}
        self.l_memo: dict[int, float] = {}
        """:meth:`least_cost` by local mask (the walk asks the same masks again)."""
        # a group's outline: its sequence positions, ranks and suits as bitmasks, packed
        # in one int of three fields (``width`` bits each) so that a union is an ``|``
        self.width = width = 1 + max([0, *(p for cid in ids for p in positions[cid]), *(rank[cid] for cid in ids),
                                      *(suit[cid] for cid in ids)])
        card_outlines = [sum(1 << p for p in positions[cid]) | 1 << rank[cid] + width
                         | 1 << max(suit[cid], 0) + 2 * width for cid in ids]
        self.outline_tables = byte_tables(card_outlines) if self.grows else []
        """Per byte of a local mask, the outline of its 256 values."""
        self._fits = self._shape_test() if self.grows else None
        self.outlines = [self._outline(c[0]) for c in self.cands] if self.grows else []
        """:meth:`_outline` of each candidate (for the merges' shape test)."""
        self.exact = True
        """False once a step of :meth:`walk` merged greedily (past :data:`MERGE_TRIES`)."""
        # Interchangeable cards (suit-blind kinds, no discard tie-break): runs of search
        # positions holding one rank and one value; a state holds, of each run, its lowest
        # positions (as many as are left): equal cards swapped give the same state.
        self.classes: list[tuple[int, int]] = []  # (first position, run mask)
        if not discard and core._suit_blind:
            values = core.values
            start = 0
            for s in range(1, n + 1):
                if s == n or (rank[ids[order[s]]], values[ids[order[s]]]) != (rank[ids[order[start]]],
                                                                            values[ids[order[start]]]):
                    if s - start > 1:
                        self.classes.append((start, ((1 << (s - start)) - 1) << start))
                    start = s
            if self.classes:
                # the search runs on keyed states (each class's lowest positions), so of
                # the melds of a card only those taking each class's lowest positions are
                # needed: any other is one of them with equal cards swapped
                def lowest(m: int) -> bool:
                    for first, run in self.classes:
                        held = m & run
                        if held and held != ((1 << held.bit_count()) - 1) << first:
                            return False
                    return True

                self.s_melds = [[(m, cost) for m, cost in melds if lowest(m)] for melds in self.s_melds]
        # what a step leaves of a keyed state is keyed again by shifting down the runs it
        # took from (a meld takes t cards of a run, its lowest: the rest shift down by t)
        self.s_steps: list[list[tuple[int, float, tuple[tuple[int, int], ...]]]] = [
            [(m, cost, tuple((run, (m & run).bit_count()) for _first, run in self.classes if m & run))
             for m, cost in melds] for melds in self.s_melds]
        """:attr:`s_melds` with, for each, the runs it takes from and how many cards."""
        self.s_run = [0] * n
        """``s_run[position]``: the run of interchangeable cards holding it (0: none)."""
        for _first, run in self.classes:
            for p in range(n):
                if run >> p & 1:
                    self.s_run[p] = run

    def to_search(self, mask: int) -> int:
        """A local (card-id order) mask as a mask of search positions (a table per byte)."""
        out = 0
        for table in self.byte_tables:
            out |= table[mask & 255]
            mask >>= 8
        return out

    def least_cost(self, mask: int, wilds: int, joined: int, discarded: int) -> float:
        key = mask << 1 | discarded
        got = self.l_memo.get(key)
        if got is None:
            got = self.l_memo[key] = self._least(self.to_search(mask), discarded)
        return got

    def _least(self, smask: int, discarded: int) -> float:
        """The least cost of placing the cards ``smask`` (search positions)."""
        for start, run in self.classes:
            held = smask & run
            if held:
                smask = (smask ^ held) | (((1 << held.bit_count()) - 1) << start)
        return self._keyed(smask, discarded)

    def _keyed(self, smask: int, discarded: int) -> float:
        """:meth:`_least` of a keyed state (each run of interchangeable cards holding
        its lowest positions): each step keys what it leaves by shifting runs down."""
        key = smask << 1 | discarded
        memo = self.s_memo
        got = memo.get(key)
        if got is not None:
            return got
        if not smask:
            best = INFINITE if self.discard and not discarded else 0.0
            memo[key] = best
            return best
        work = self.work
        work[0] -= 1
        if work[0] < 0:
            raise WorkBoundError(self.core.kind_names)
        least = self._keyed
        low = smask & -smask
        c = low.bit_length() - 1
        rest = smask ^ low
        run = self.s_run[c]
        if run:  # c was its run's lowest card: the others shift down one
            held = rest & run
            rest = (rest ^ held) | (held >> 1)
        best = self.s_dead[c] + least(rest, discarded)
        if self.discard and not discarded:
            v = self.s_discard[c] + least(rest, 1)
            if v < best:
                best = v
        for m, cost, took in self.s_steps[c]:
            if m & smask == m:
                rest = smask ^ m
                for run, t in took:
                    held = rest & run
                    rest = (rest ^ held) | (held >> t)
                v = cost + least(rest, discarded)
                if v < best:
                    best = v
        memo[key] = best
        return best

    def walk(self, found: Found) -> tuple[list[Group], int]:
        """The canonical groups, as :meth:`HandSearch.walk` reads them, melds of the
        short list merged into the largest that keep the rest best (module docs)."""
        groups: list[Group] = []
        discard = -1
        mask, discarded = found.mask, found.discarded
        least_cost = self.least_cost
        judge = self.core._judge
        cands = self.cands
        work = self.work
        while mask:
            target = least_cost(mask, 0, 0, discarded)
            low = mask & -mask
            c = low.bit_length() - 1
            best: tuple[int, int, int] | None = None  # (local mask, kinds, natural mask)
            for lm, _k, cost, idx in sorted(self.melds_by_lowest[c], reverse=True):
                if lm & mask == lm and cost + least_cost(mask ^ lm, 0, 0, discarded) == target:
                    best = (lm, cands[idx][3], cands[idx][2])
                    break
            # the largest merged meld that keeps the rest best: every merge of short melds
            # that stays a meld and keeps the rest best, while that takes at most
            # MERGE_TRIES tries (the canonical group); past it, the greedy merge below
            if best is not None and self.grows:
                best, exact = self._largest(best, mask, target, discarded)
                if exact:
                    groups.append((ROLE_MELD, best[0], 0, 0, (), best[1], False))
                    mask ^= best[0]
                    continue
                self.exact = False
            # greedy: the extension giving the largest mask first (a maximal meld)
            while best is not None and self.grows:
                lm, _kinds, natural = best
                group_cost = float(sum(self._in_meld(lm)))
                free = mask ^ lm
                grown = None
                for plm, _pk, pnatural, _pkinds in sorted((x for x in cands if x[0] & free == x[0]),
                                                          key=lambda x: -x[0]):
                    both = lm | plm
                    work[0] -= 1
                    if work[0] < 0:
                        raise WorkBoundError(self.core.kind_names)
                    both_cost = group_cost + sum(self._in_meld(plm))
                    if both_cost + least_cost(mask ^ both, 0, 0, discarded) != target:
                        continue
                    kinds = judge(natural | pnatural, 0)
                    if kinds:
                        grown = (both, kinds, natural | pnatural)
                        break
                if grown is None:
                    break
                best = grown
            if best is not None:
                groups.append((ROLE_MELD, best[0], 0, 0, (), best[1], False))
                mask ^= best[0]
                continue
            if self.dead_cost[c] + least_cost(mask ^ low, 0, 0, discarded) == target:
                groups.append((ROLE_DEAD, low, 0, 0, (), 0, False))
            else:
                assert self.discard and not discarded
                discard, discarded = c, 1
            mask ^= low
        return groups, discard

    def _largest(self, start: tuple[int, int, int], mask: int, target: float,
                 discarded: int) -> tuple[tuple[int, int, int], bool]:
        """The largest meld holding ``start``'s lowest card that keeps the rest of
        ``mask`` best, grown from the best short melds of that card; and whether the
        search ended (false: it passed :data:`MERGE_TRIES`, the best found so far)."""
        judge = self.core._judge
        cands = self.cands
        low = start[0] & -start[0]
        best = start
        # (local mask, cost, natural card-id mask, outline, search mask)
        frontier: list[tuple[int, float, int, int, int]] = []
        seen: set[int] = set()
        least = self._least
        s_cands = self.s_cands
        s_mask = self.to_search(mask)
        for lm, _k, meld_cost, idx in self.melds_by_lowest[low.bit_length() - 1]:
            if lm & mask == lm and meld_cost + least(s_mask ^ s_cands[idx], discarded) == target:
                frontier.append((lm, float(meld_cost), cands[idx][2], self.outlines[idx], s_cands[idx]))
                seen.add(lm)
        tries = 0
        fits = self._fits
        judged, memo_limit = self.core._judged, self.core._memo_limit
        # the candidates inside the mask, in candidate order (any other is no merge)
        inside = [(plm, pnatural, self.outlines[i], s_cands[i])
                  for i, (plm, _pk, pnatural, _pkinds) in enumerate(cands) if plm & mask == plm]
        while frontier:
            lm, cost, natural, outline, s_lm = frontier.pop()
            for plm, pnatural, poutline, s_plm in inside:
                if plm & lm:
                    continue
                both = lm | plm
                if both in seen:
                    continue
                seen.add(both)
                tries += 1  # bounded by MERGE_TRIES a step; the states they reach count as work
                if tries > MERGE_TRIES:
                    return best, False
                merged = natural | pnatural
                kinds = judged.get(merged)  # the judge's memo (a wild-free group's key: its mask)
                if kinds is None:
                    if fits is not None and not fits(outline | poutline, both.bit_count()):
                        # no kind's shape holds it, so no kind does: what the judge would say
                        if len(judged) >= memo_limit:
                            judged.clear()
                        judged[merged] = kinds = 0
                    else:
                        kinds = judge(merged, 0)
                if not kinds:
                    continue
                both_cost = cost + sum(self._in_meld(plm))
                if both_cost + least(s_mask ^ s_lm ^ s_plm, discarded) == target:
                    frontier.append((both, both_cost, merged, outline | poutline,
                                     s_lm | s_plm))
                    if both > best[0]:
                        best = (both, kinds, natural | pnatural)
        return best, True

    def _outline(self, local_mask: int) -> int:
        """The outline of the cards ``local_mask``: their sequence positions, ranks and
        suits as bitmasks, packed in fields of :attr:`width` bits (a union is an ``|``)."""
        out = 0
        for table in self.outline_tables:
            out |= table[local_mask & 255]
            local_mask >>= 8
        return out

    def _shape_test(self) -> Callable[[int, int], bool] | None:
        """A quick test of the merged group shapes (:class:`~.shapes.MergedShape`), a
        necessary condition of every kind (a meld fits its kind's shape): whether a
        wild-free group of this outline (:meth:`_outline`) and size fits one; ``None``
        when a family is ``any`` (every group might be a meld)."""
        core = self.core
        families = core._families
        if any(shape.family == "any" for shape in families):
            return None
        period = core._rank_count if core._wrap else 0

        width = self.width
        field = (1 << width) - 1

        def fits(outline: int, size: int) -> bool:
            spots, ranks, suits = outline & field, outline >> width & field, outline >> 2 * width
            for shape in families:
                if size < shape.min_size or (shape.max_size is not None and size > shape.max_size):
                    continue
                if shape.per_suit and suits & (suits - 1):
                    continue
                if shape.family == "same_rank":
                    if not ranks & (ranks - 1):
                        return True
                    continue
                # a sequence without wild cards fills a window of ``size`` positions
                run = spots | (spots << period) if period else spots
                for _ in range(size - 1):
                    run &= run >> 1
                    if not run:
                        break
                if run:
                    return True
            return False

        return fits

    def _in_meld(self, local_mask: int) -> list[float]:
        """What each card of ``local_mask`` costs in a meld (0 when melds are free)."""
        if self.core.excludes_concealed_melds:
            return []
        values = self.core.values
        unit = self.deadwood_unit
        return [values[self.natural_ids[i]] * unit for i in range(self.n) if local_mask >> i & 1]
