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
the largest short meld first that leaves a best arrangement of the rest; that meld
then grows, a short meld at a time (the extension of the largest mask first), while
the merged group is still a meld and the rest still best. The deadwood is exact; the
melds are a best arrangement, maximal but not always the canonical one of the
package docs (which hands of up to ``SHORT_SEARCH_FROM`` cards, taken by the general
search, still get).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from .core import ROLE_DEAD, ROLE_MELD, MeldCore, WorkBoundError
from .search import INFINITE, Found, Group, HandSearch

__all__ = ["ShortSearch"]


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
        self.grows = short and any(cap is not None for cap in core._family_caps)
        by_lowest: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        for local_mask, _k, cost, _idx in (x for lst in self.melds_by_lowest for x in lst):
            smask = self.to_search(local_mask)
            by_lowest[(smask & -smask).bit_length() - 1].append((smask, cost))
        self.s_melds = by_lowest
        self.s_dead = [0.0] * n
        self.s_discard = [0.0] * n
        for i in range(n):
            self.s_dead[position[i]] = self.dead_cost[i]
            self.s_discard[position[i]] = self.discard_cost[i]
        self.s_memo: dict[int, float] = {}
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

    def to_search(self, mask: int) -> int:
        """A local (card-id order) mask as a mask of search positions."""
        out = 0
        position = self.position
        while mask:
            low = mask & -mask
            out |= 1 << position[low.bit_length() - 1]
            mask ^= low
        return out

    def least_cost(self, mask: int, wilds: int, joined: int, discarded: int) -> float:
        return self._least(self.to_search(mask), discarded)

    def _least(self, smask: int, discarded: int) -> float:
        """The least cost of placing the cards ``smask`` (search positions)."""
        for start, run in self.classes:
            held = smask & run
            if held:
                smask = (smask ^ held) | (((1 << held.bit_count()) - 1) << start)
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
        least = self._least
        low = smask & -smask
        c = low.bit_length() - 1
        rest = smask ^ low
        best = self.s_dead[c] + least(rest, discarded)
        if self.discard and not discarded:
            v = self.s_discard[c] + least(rest, 1)
            if v < best:
                best = v
        for m, cost in self.s_melds[c]:
            if m & smask == m:
                v = cost + least(smask ^ m, discarded)
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
            # grow the best short meld, a short meld at a time, into the largest merged
            # meld that keeps the rest best: the extension giving the largest mask first
            # (a maximal meld; on hands this big the search does not look for the maximum)
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

    def _in_meld(self, local_mask: int) -> list[float]:
        """What each card of ``local_mask`` costs in a meld (0 when melds are free)."""
        if self.core.excludes_concealed_melds:
            return []
        values = self.core.values
        unit = self.deadwood_unit
        return [values[self.natural_ids[i]] * unit for i in range(self.n) if local_mask >> i & 1]
