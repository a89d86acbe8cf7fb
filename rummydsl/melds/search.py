"""The general search: any hand, wild cards, lay-offs onto table melds, the discard.

A hand is re-indexed locally (bit ``i`` of a mask is the hand's ``i``-th natural
card by id) and its candidate melds listed (:mod:`.candidates`). A memoised
recursion over the mask of the cards still to place decides the lowest remaining
card: deadwood, the discard (for the knock question), or the lowest card of a
candidate meld or lay-off inside the mask; once the natural cards are placed, the
wild cards left are placed the same way. The memo key is (remaining naturals,
remaining wilds, table melds already extended, discard used). Every arrangement is
reachable, so the result is the true minimum (C-6).

The canonical arrangement is then read off the memo: at each step, the first best
step in the order of preference of the package docs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..cards import Card
from ..errors import MeldError
from ..limits import MAX_MELD_WORK
from .candidates import Candidate, candidates
from .core import (
    ROLE_DEAD, ROLE_LAYOFF, ROLE_MELD, Arrangement, GroupKey, LayoffTarget, MeldCore, WorkBoundError, group_key,
)

__all__ = ["HandSearch", "Found", "Group", "INFINITE"]

INFINITE = float("inf")

#: Meanings of a group's wild cards and the kinds they form: ``((faces...), kinds bitmask)``.
MeaningOption = tuple[tuple[int, ...], int]


class ContractChoice(NamedTuple):
    """One meld of a collection that meets the contract."""

    candidate: int
    """Index into :attr:`HandSearch.cands`."""
    faces: tuple[int, ...]
    """The meanings of its wild cards (``wild_unique_card``), else empty."""
    kinds: int
    """The kinds it forms (with those meanings)."""


class Found(NamedTuple):
    """Where a search ends: the best cost, and the state the rest is placed from."""

    cost: float
    """``deadwood * deadwood_unit + discard penalty * penalty_unit + unmatched value``."""
    mask: int
    """Natural cards still to place (local bits)."""
    wilds: int
    """Wild cards still to place."""
    joined: int = 0
    """Table melds already extended (bit per table index)."""
    discarded: int = 0
    """1 when the discard is already made."""
    contract_choices: tuple[ContractChoice, ...] = ()
    """The contract melds chosen before the rest (``solve(..., contract=True)``)."""
    meanings_used: tuple[int, ...] = ()
    """The meanings given so far (``wild_unique_card``), sorted."""


Group = tuple[int, int, int, int, tuple[int, ...], int, bool]
"""One group of an arrangement as the search found it: ``(role, local natural mask,
wild cards, table index, meanings, kinds bitmask, is a contract meld)``. A plain
tuple (a named tuple costs about 0.4 µs more each, on every solve)."""


class HandSearch:
    """One hand's search: local card indices, candidates, the memoised recursion."""

    def __init__(self, core: MeldCore, hand: Sequence[Card], table: Sequence[LayoffTarget | Sequence[Card]],
                 discard: bool, *, short: bool = False, work: list[int] | None = None) -> None:
        self.core = core
        self.work: list[int] = work if work is not None else [MAX_MELD_WORK]
        """The question's work left (:data:`~rummydsl.limits.MAX_MELD_WORK`), shared
        by the candidate listing and the search states."""
        self.hand = tuple(hand)
        self.discard = discard
        values = core.values
        naturals = sorted((c for c in hand if not c.wild), key=lambda c: c.id)
        wild_cards = sorted((c for c in hand if c.wild), key=lambda c: c.id)
        self.naturals = naturals
        self.wild_cards = wild_cards
        n = len(naturals)
        self.n = n
        self.wild_count = len(wild_cards)
        natural_ids = [c.id for c in naturals]
        self.natural_ids = natural_ids
        self.local_bits = {cid: 1 << i for i, cid in enumerate(natural_ids)}
        self.wild_ids = sum(1 << c.id for c in wild_cards)
        self.hand_ids = self.wild_ids | sum(1 << cid for cid in natural_ids)
        total = sum(values[c.id] for c in hand)
        # cost = deadwood * deadwood_unit + discard penalty * penalty_unit + unmatched value
        free = core.excludes_concealed_melds
        self.penalty_unit = penalty_unit = total + 1
        self.deadwood_unit = unit = penalty_unit * (len(hand) + 1)
        in_meld = [0 if free else values[cid] * unit for cid in natural_ids]
        self.dead_cost = [values[cid] * (unit + 1) for cid in natural_ids]
        self.wild_dead_cost = core._wild_value * (unit + 1)
        self.wild_meld_cost = 0 if free else core._wild_value * unit
        # the discard tie-break: rank every hand card by (value, id); the best gets penalty 0
        ranked = sorted(hand, key=lambda c: (values[c.id], c.id))
        rank_of = {c.id: r for r, c in enumerate(ranked)}
        top = len(hand) - 1
        self.discard_cost = [(top - rank_of[cid]) * penalty_unit for cid in natural_ids]
        self.wild_discard_cost = (top - rank_of[wild_cards[-1].id]) * penalty_unit if wild_cards else 0

        # hand melds: by lowest local card, or of wild cards only
        self.cands: list[Candidate] = candidates(core, natural_ids, self.wild_count, short=short, work=self.work)
        self.melds_by_lowest: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        self.wild_melds: list[tuple[int, int, int]] = []
        for idx, (local_mask, k, _natural_mask, _kinds) in enumerate(self.cands):
            cost = k * self.wild_meld_cost
            m = local_mask
            while m:
                low = m & -m
                cost += in_meld[low.bit_length() - 1]
                m ^= low
            if local_mask:
                self.melds_by_lowest[(local_mask & -local_mask).bit_length() - 1].append((local_mask, k, cost, idx))
            else:
                self.wild_melds.append((k, cost, idx))

        # lay-offs onto table melds
        self.table = [t if isinstance(t, LayoffTarget) else LayoffTarget(tuple(t)) for t in table]
        self.layoffs_by_lowest: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        self.wild_layoffs: list[tuple[int, int, int]] = []
        self.exts: list[tuple[int, int, int]] = []  # (table index, local mask, wilds)
        self.ext_groups: list[tuple[int, int, int]] = []  # (natural card-id mask, all wilds, kinds)
        for t, group in enumerate(self.table):
            for local_mask, k, natural_mask, total_k, kinds in self._extensions(t, group):
                e = len(self.exts)
                self.exts.append((t, local_mask, k))
                self.ext_groups.append((natural_mask, total_k, kinds))
                if local_mask:
                    self.layoffs_by_lowest[(local_mask & -local_mask).bit_length() - 1].append((local_mask, k, t, e))
                else:
                    self.wild_layoffs.append((k, t, e))
        self.memo: dict[int, float] = {}

    def _extensions(self, t: int, group: LayoffTarget) -> list[tuple[int, int, int, int, int]]:
        """Every (hand natural local mask, hand wild count) that can be added to the
        table meld, with the extended group's card-id mask, wild count and kinds.

        :raises MeldError: for a table meld sharing a card with the hand, or of an
            unknown kind under ``kind_locked``.
        """
        core = self.core
        table_naturals = sorted(c.id for c in group.cards if not c.wild)
        table_wilds = sum(1 for c in group.cards if c.wild)
        shared = set(self.natural_ids) & set(table_naturals)
        if shared:
            card = core._cards[min(shared)]
            raise MeldError(f"table meld {t} holds {str(card)!r}, a card of the hand")
        n = self.n
        ids = list(self.natural_ids) + table_naturals
        table_bits = ((1 << len(table_naturals)) - 1) << n
        need = None
        if core.kind_locked and group.kind is not None:
            if group.kind not in core.kinds:
                raise MeldError(f"table meld {t} has the unknown meld kind {group.kind!r} "
                                f"(expected one of {list(core.kind_names)!r})")
            need = 1 << core.kind_names.index(group.kind)
        out = []
        for local_mask, k, natural_mask, kinds in candidates(core, ids, self.wild_count + table_wilds, work=self.work):
            if local_mask & table_bits != table_bits or k < table_wilds:
                continue
            hand_mask = local_mask & ((1 << n) - 1)
            hand_wilds = k - table_wilds
            if not hand_mask and not hand_wilds:
                continue
            if need is not None and not kinds & need:
                continue
            out.append((hand_mask, hand_wilds, natural_mask, k, kinds if need is None else kinds & need))
        return out

    # the memoised recursion ------------------------------------------------

    def least_cost(self, mask: int, wilds: int, joined: int, discarded: int) -> float:
        """The least cost of placing the naturals ``mask`` and ``wilds`` wild cards,
        the table melds ``joined`` already extended."""
        key = (((joined << 1 | discarded) << 7 | wilds) << self.n) | mask  # wilds <= MAX_WILDS = 64
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        work = self.work
        work[0] -= 1
        if work[0] < 0:
            raise WorkBoundError(self.core.kind_names)
        least_cost = self.least_cost
        best: float = INFINITE
        if mask:
            low = mask & -mask
            c = low.bit_length() - 1
            rest = mask ^ low
            for local_mask, k, cost, _i in self.melds_by_lowest[c]:
                if local_mask & mask == local_mask and k <= wilds:
                    v = cost + least_cost(mask ^ local_mask, wilds - k, joined, discarded)
                    if v < best:
                        best = v
            for local_mask, k, t, _e in self.layoffs_by_lowest[c]:
                if local_mask & mask == local_mask and k <= wilds and not joined >> t & 1:
                    v = least_cost(mask ^ local_mask, wilds - k, joined | 1 << t, discarded)
                    if v < best:
                        best = v
            v = self.dead_cost[c] + least_cost(rest, wilds, joined, discarded)
            if v < best:
                best = v
            if self.discard and not discarded:
                v = self.discard_cost[c] + least_cost(rest, wilds, joined, 1)
                if v < best:
                    best = v
        elif wilds:
            for k, cost, _i in self.wild_melds:
                if k <= wilds:
                    v = cost + least_cost(0, wilds - k, joined, discarded)
                    if v < best:
                        best = v
            for k, t, _e in self.wild_layoffs:
                if k <= wilds and not joined >> t & 1:
                    v = least_cost(0, wilds - k, joined | 1 << t, discarded)
                    if v < best:
                        best = v
            v = self.wild_dead_cost + least_cost(0, wilds - 1, joined, discarded)
            if v < best:
                best = v
            if self.discard and not discarded:
                v = self.wild_discard_cost + least_cost(0, wilds - 1, joined, 1)
                if v < best:
                    best = v
        else:
            best = INFINITE if self.discard and not discarded else 0
        memo[key] = best
        return best

    # hooks the wild_unique_card search overrides ------------------------------

    def meld_options(self, idx: int) -> tuple[MeaningOption, ...]:
        """The meanings candidate ``idx`` may take, with the kinds each forms."""
        return (((), self.cands[idx][3]),)

    def fits(self, faces: tuple[int, ...], used: tuple[int, ...], joined: int) -> bool:
        """Whether meanings ``faces`` may join ``used`` (always, without the option)."""
        return True

    def rest_cost(self, mask: int, wilds: int, used: tuple[int, ...]) -> float:
        """The least cost of the cards left after a contract collection."""
        return self.least_cost(mask, wilds, 0, 0)

    def inner(self, hand: Sequence[Card], discard: bool) -> Found | None:
        """The unconstrained best of ``hand`` read from this search, when ``hand`` lies
        inside this one's hand with the same wild cards (with ``discard``: is this
        search's hand, which takes the discard); else None.

        The least cost of a mask of this hand's natural cards, the discard made
        (``discarded`` 1), is that sub-hand's least cost: its cards, melds and values are
        the same, and the units here exceed any cost of the sub-hand's. The discard's
        tie-break ranks this hand's cards, so only the whole hand asks it here. The walk
        from the state is the sub-hand's canonical walk (the same candidates inside it)."""
        local = 0
        wild_ids = 0
        bits = self.local_bits
        for card in hand:
            if card.wild:
                wild_ids |= 1 << card.id
                continue
            bit = bits.get(card.id)
            if bit is None:
                return None
            local |= bit
        if wild_ids != self.wild_ids or (discard and (len(hand) != len(self.hand) or not self.discard)):
            return None
        wilds = self.wild_count
        done = 0 if discard else 1
        self.work[0] = MAX_MELD_WORK  # each question its own work bound
        return Found(self.least_cost(local, wilds, 0, done), local, wilds, 0, done)

    def plain(self) -> Found:
        """The unconstrained best."""
        full = (1 << self.n) - 1
        return Found(self.least_cost(full, self.wild_count, 0, 0), full, self.wild_count)

    def walk(self, found: Found) -> tuple[list[Group], int]:
        """The canonical groups from ``found``'s state, in canonical order: ``(groups,
        discarded local card, -1 for none, -2 for a wild card)``.

        At each step the first best move in the order of preference: the moves of the
        lowest card sorted by (larger mask, more wild cards, own meld before lay-off,
        lower table), then leaving it unmatched, then discarding it. The groups come
        out by lowest card, then the wild-only ones in preference order: sorted.
        """
        groups: list[Group] = []
        discard = -1
        mask, wilds, joined, discarded = found.mask, found.wilds, found.joined, found.discarded
        least_cost = self.least_cost
        may_discard = self.discard
        layoffs = bool(self.exts)
        while mask:
            target = least_cost(mask, wilds, joined, discarded)
            low = mask & -mask
            c = low.bit_length() - 1
            melds = [x for x in self.melds_by_lowest[c] if x[0] & mask == x[0] and x[1] <= wilds]
            if layoffs:
                steps = [(lm, k, ROLE_LAYOFF, t, 0, e) for lm, k, t, e in self.layoffs_by_lowest[c]
                         if lm & mask == lm and k <= wilds and not joined >> t & 1]
                if steps:
                    steps += [(lm, k, ROLE_MELD, 0, cost, idx) for lm, k, cost, idx in melds]
                    steps.sort(key=lambda x: (-x[0], -x[1], x[2], x[3]))
                    found_step = False
                    for lm, k, role, t, cost, ref in steps:
                        nj = joined | 1 << t if role == ROLE_LAYOFF else joined
                        if cost + least_cost(mask ^ lm, wilds - k, nj, discarded) == target:
                            kinds = self.cands[ref][3] if role == ROLE_MELD else 0
                            groups.append((role, lm, k, t, (), kinds, False))
                            mask, wilds, joined = mask ^ lm, wilds - k, nj
                            found_step = True
                            break
                    if found_step:
                        continue
                    melds = []
            if melds:
                melds.sort(reverse=True)
                for lm, k, cost, idx in melds:
                    if cost + least_cost(mask ^ lm, wilds - k, joined, discarded) == target:
                        groups.append((ROLE_MELD, lm, k, 0, (), self.cands[idx][3], False))
                        mask, wilds = mask ^ lm, wilds - k
                        break
                else:
                    melds = []
                if melds:
                    continue
            if self.dead_cost[c] + least_cost(mask ^ low, wilds, joined, discarded) == target:
                groups.append((ROLE_DEAD, low, 0, 0, (), 0, False))
            else:
                assert may_discard and not discarded
                discard, discarded = c, 1
            mask ^= low
        while wilds:
            target = least_cost(0, wilds, joined, discarded)
            wild_steps = [(k, ROLE_MELD, 0, cost, idx) for k, cost, idx in self.wild_melds if k <= wilds]
            wild_steps += [(k, ROLE_LAYOFF, t, 0, e) for k, t, e in self.wild_layoffs
                           if k <= wilds and not joined >> t & 1]
            wild_steps.sort(key=lambda x: (-x[0], x[1], x[2]))
            for k, role, t, cost, ref in wild_steps:
                nj = joined | 1 << t if role == ROLE_LAYOFF else joined
                if cost + least_cost(0, wilds - k, nj, discarded) == target:
                    groups.append((role, 0, k, t, (), self.cands[ref][3] if role == ROLE_MELD else 0, False))
                    wilds, joined = wilds - k, nj
                    break
            else:
                if self.wild_dead_cost + least_cost(0, wilds - 1, joined, discarded) == target:
                    groups.append((ROLE_DEAD, 0, 1, 0, (), 0, False))
                else:
                    assert may_discard and not discarded
                    discard, discarded = -2, 1
                wilds -= 1
        return groups, discard

    # reading the result ------------------------------------------------------

    def canonical_key(self, groups: Sequence[Group]) -> tuple[GroupKey, ...]:
        """The canonical order's key of an arrangement's groups (the least wins).

        Local masks order like card-id masks (local bits follow card ids)."""
        return tuple(sorted(group_key(g[1], g[2], g[0], g[3], g[4]) for g in groups))

    def arrangement(self, groups: list[Group], discard: int, holds: bool, cost: float,
                    ordered: bool = True) -> Arrangement:
        """Build the :class:`Arrangement` from groups (in canonical order, or sorted
        here when not ``ordered``): the wild cards dealt lowest id first to the groups
        in that order, the highest-id wild card being the discard when a wild card is
        discarded."""
        core = self.core
        wild_pool = list(self.wild_cards)
        discard_card: Card | None = None
        if discard == -2:
            discard_card = wild_pool.pop()
        elif discard >= 0:
            discard_card = self.naturals[discard]
        if not ordered:
            groups = sorted(groups, key=lambda g: group_key(g[1], g[2], g[0], g[3], g[4]))
        melds: list[tuple[Card, ...]] = []
        kinds: list[frozenset[str]] = []
        contract_melds: list[tuple[Card, ...]] = []
        layoffs: list[tuple[int, tuple[Card, ...]]] = []
        unmatched: list[Card] = []
        meanings: list[tuple[Card, Card]] = []
        cards = core._cards
        naturals = self.naturals
        for role, local_mask, k, t, faces, kind_bits, is_contract in groups:
            own = []
            m = local_mask
            while m:
                low = m & -m
                own.append(naturals[low.bit_length() - 1])
                m ^= low
            if k:
                wilds = wild_pool[:k]
                del wild_pool[:k]
                own += wilds
            if role == ROLE_MELD:
                meld = tuple(own) if not k else tuple(sorted(own, key=lambda c: c.id))
                melds.append(meld)
                kinds.append(core._names(kind_bits))
                if is_contract:
                    contract_melds.append(meld)
                if faces:
                    meanings.extend((card, cards[face]) for card, face in zip(wilds, faces))
            elif role == ROLE_LAYOFF:
                layoffs.append((t, tuple(sorted(own, key=lambda c: c.id))))
                if faces:
                    meanings.extend((card, cards[face])
                                    for card, face in zip((wilds if k else []) + self.table_wilds(t), faces))
            else:
                unmatched.extend(own)
        if layoffs:
            layoffs.sort(key=lambda item: item[0])
        return Arrangement(
            deadwood=int(cost // self.deadwood_unit),
            melds=tuple(melds),
            kinds=tuple(kinds),
            unmatched=tuple(sorted(unmatched, key=lambda c: c.id)),
            contract=holds,
            layoffs=tuple(layoffs),
            discard=discard_card,
            contract_melds=tuple(contract_melds),
            meanings=tuple(sorted(meanings, key=lambda pair: pair[0].id)) if meanings else (),
        )

    def table_wilds(self, t: int) -> list[Card]:
        """The wild cards of table meld ``t``, by id."""
        return sorted((c for c in self.table[t].cards if c.wild), key=lambda c: c.id)

    def contract_groups(self, found: Found) -> list[Group]:
        """The groups of ``found``'s contract collection."""
        out = []
        for choice in found.contract_choices:
            local_mask, k, _natural_mask, _kinds = self.cands[choice.candidate]
            out.append((ROLE_MELD, local_mask, k, 0, choice.faces, choice.kinds, True))
        return out

    def solve_found(self, found: Found, holds: bool) -> Arrangement:
        """The canonical arrangement from a search result."""
        groups, discard = self.walk(found)
        if found.contract_choices:
            return self.arrangement(self.contract_groups(found) + groups, discard, holds, found.cost, False)
        return self.arrangement(groups, discard, holds, found.cost)
