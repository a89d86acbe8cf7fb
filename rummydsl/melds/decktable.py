"""The per-deck meld table: every wild-free meld of the deck, and a search over it.

Like OpenSpiel's meld tables, the deck's wild-free melds are listed once from the
kinds' shapes, by lowest card id (each list by card-id mask, largest first: the
canonical order's preference), and kept for the process: every solver of the same
deck, kinds and card values shares them (a house rule that changes only the
players, each task of a parallel run, every test's variant). A hand without wild cards,
table melds or contract search is then solved by a memoised recursion over the
hand's card-id mask that only looks those lists up.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .candidates import Emit, generate
from .core import Arrangement, MeldCore

__all__ = ["DeckTable", "DECK_TABLE_LIMIT"]

#: The most melds the per-deck table lists; a deck with more is left to the general search.
DECK_TABLE_LIMIT = 200_000

#: A deck meld: (card-id mask, sum of its card values, kinds bitmask).
DeckMeld = tuple[int, int, int]

#: How many decks' tables the process keeps (the oldest is dropped first).
TABLE_CACHE_SIZE = 16

#: Past this many melds a table is also kept by card-id mask, so that the melds inside a
#: hand are found by listing the hand's groups of the kinds' shapes and looking each up,
#: instead of scanning every meld of its cards (Contract Rummy's two packs: thousands a
#: card, and a greedy discard asks a dozen hands).
BY_MASK_FROM = 5_000


class _Listing:
    """The melds of one deck table, shared by every solver of that deck, kinds and values."""

    __slots__ = ("by_lowest", "by_mask")

    def __init__(self, by_lowest: list[tuple[DeckMeld, ...]]) -> None:
        self.by_lowest = by_lowest
        self.by_mask: dict[int, DeckMeld] | None = None
        if sum(len(melds) for melds in by_lowest) >= BY_MASK_FROM:
            self.by_mask = {meld[0]: meld for melds in by_lowest for meld in melds}


_TABLES: dict[Hashable, _Listing | None] = {}
"""The tables built so far, by :func:`_table_key` (None: that deck has too many melds)."""


def _table_key(core: MeldCore) -> Hashable | None:
    """What a deck table depends on: the deck (its cards, ranks and sequence rules), the
    kinds' names in order with their patterns' source text (a meld pattern reads only the
    group and the deck), and the card values. None when a kind has no source text (a
    Python predicate): its table is built for its solver alone."""
    texts = []
    for name in core.kind_names:
        text = getattr(core.kinds[name], "text", None)
        if not isinstance(text, str):
            return None
        texts.append((name, text))
    return core.deck, tuple(texts), core.values


class _Full(Exception):
    """The deck has more wild-free melds than :data:`DECK_TABLE_LIMIT`."""


class DeckTable:
    """Every wild-free meld of a deck, by lowest card id; build with :meth:`build`."""

    def __init__(self, core: MeldCore, listing: _Listing) -> None:
        self.core = core
        self.by_lowest = listing.by_lowest
        """``by_lowest[cid]``: the melds whose lowest card is ``cid``, largest mask first."""
        self._by_mask = listing.by_mask
        self._last: tuple[int, dict[int, list[DeckMeld]]] = (0, {})
        """The last hand :meth:`all_inside` listed from its groups, and what it found."""

    def inside(self, cid: int, hand: int, ids: Sequence[int]) -> list[DeckMeld] | tuple[DeckMeld, ...]:
        """The melds whose lowest card is ``cid`` made of cards of ``hand`` (a card-id
        mask of the cards ``ids``), largest mask first as in :attr:`by_lowest`."""
        if self._by_mask is None:
            return [meld for meld in self.by_lowest[cid] if meld[0] & hand == meld[0]]
        return list(self.all_inside(hand, ids).get(cid, ()))

    def all_inside(self, hand: int, ids: Sequence[int]) -> dict[int, list[DeckMeld]]:
        """:meth:`inside` for every card of the hand at once: the lowest card id of each
        meld made of cards of ``hand`` -> those melds, largest mask first (cards with
        none left out).

        A big table (:data:`BY_MASK_FROM`) lists the hand's groups of the kinds' shapes
        (the table's melds were listed by the same shapes over the whole deck, and a
        group of the deck made of the hand's cards is a group of the hand) and looks
        each up by mask; a small one scans each card's melds. A hand inside the last
        hand listed (a player weighing each discard asks the hand less each card) keeps
        that hand's melds made of its cards."""
        by_mask = self._by_mask
        out: dict[int, list[DeckMeld]] = {}
        if by_mask is None:
            for cid in ids:
                melds = [meld for meld in self.by_lowest[cid] if meld[0] & hand == meld[0]]
                if melds:
                    out[cid] = melds
            return out
        last, held = self._last
        if hand & last == hand:
            for cid, melds in held.items():
                if hand >> cid & 1:
                    kept = [meld for meld in melds if meld[0] & hand == meld[0]]
                    if kept:
                        out[cid] = kept
            return out
        found: list[DeckMeld] = []
        seen: set[int] = set()

        def emit(_local_mask: int, natural_mask: int, wilds: int) -> None:
            if natural_mask not in seen:
                seen.add(natural_mask)
                meld = by_mask.get(natural_mask)
                if meld is not None:
                    found.append(meld)

        _generate_all(self.core, list(ids), emit)
        found.sort(reverse=True)
        for meld in found:
            mask = meld[0]
            out.setdefault((mask & -mask).bit_length() - 1, []).append(meld)
        self._last = (hand, out)
        return out

    @classmethod
    def build(cls, core: MeldCore) -> DeckTable | None:
        """The table of ``core``'s deck, or ``None`` when it has too many melds (a
        mixed-suit sequence kind over many packs) or a kind of unknown shape. Built once
        a process for each deck, kinds and values (:data:`TABLE_CACHE_SIZE` kept)."""
        if any(shape.family == "any" for shape in core._families):
            return None
        if _too_many_sequences(core):
            return None  # known before listing them (a mixed-suit sequence kind: millions)
        key = _table_key(core)
        if key is not None and key in _TABLES:
            listing = _TABLES[key]
        else:
            by_lowest = _melds_by_lowest(core)
            listing = None if by_lowest is None else _Listing(by_lowest)
            if key is not None:
                if len(_TABLES) >= TABLE_CACHE_SIZE:
                    _TABLES.pop(next(iter(_TABLES)))
                _TABLES[key] = listing
        return None if listing is None else cls(core, listing)

    # ------------------------------------------------------------------ the plain question

    def least_deadwood(self, ids: Sequence[int]) -> int:
        """The least deadwood of the wild-free hand of card ids ``ids``."""
        deadwood = _plain(self, ids, False)
        assert isinstance(deadwood, int)
        return deadwood

    def arrangement(self, ids: Sequence[int]) -> Arrangement:
        """The canonical arrangement of the wild-free hand of card ids ``ids``."""
        arrangement = _plain(self, ids, True)
        assert isinstance(arrangement, Arrangement)
        return arrangement

    # ------------------------------------------------------------------ the knock question

    def knock(self, ids: Sequence[int]) -> tuple[int, int]:
        """``(least deadwood after the best discard, the discard's card id)``."""
        return _knock(self, ids)

    def discard_arrangement(self, ids: Sequence[int]) -> Arrangement:
        """The canonical arrangement after the best discard.

        The discard is fixed by the cost (deadwood, then the discard tie-break), so
        the arrangement is the canonical one of the hand without it.
        """
        core = self.core
        _deadwood, discard = _knock(self, ids)
        rest = [cid for cid in ids if cid != discard]
        if not rest:
            return Arrangement(0, (), (), (), core.contract is None, (), core._cards[discard])
        return self.arrangement(rest)._replace(discard=core._cards[discard])


def _melds_by_lowest(core: MeldCore) -> list[tuple[DeckMeld, ...]] | None:
    """Every wild-free meld of ``core``'s deck by lowest card id, largest mask first, or
    None past :data:`DECK_TABLE_LIMIT` melds."""
    found: list[int] = []
    seen: set[int] = set()
    budget = [DECK_TABLE_LIMIT]

    def emit(_local_mask: int, natural_mask: int, wilds: int) -> None:
        if wilds or natural_mask in seen:
            return
        budget[0] -= 1
        if budget[0] < 0:
            raise _Full
        seen.add(natural_mask)
        found.append(natural_mask)

    try:
        _generate_all(core, [c.id for c in core._cards if not c.wild], emit)
    except _Full:
        return None
    table: list[list[DeckMeld]] = [[] for _ in range(core._size)]
    values = core.values
    for mask in found:
        kinds = core._judge(mask, 0)
        if kinds:
            total = 0
            rest = mask
            while rest:  # the melds' values, read bit by bit (no list per meld: built cold)
                low = rest & -rest
                rest ^= low
                total += values[low.bit_length() - 1]
            table[(mask & -mask).bit_length() - 1].append((mask, total, kinds))
    return [tuple(sorted(melds, reverse=True)) for melds in table]


def _generate_all(core: MeldCore, natural_ids: Sequence[int], emit: Emit) -> None:
    """Emit every wild-free group of the kinds' shapes over the natural cards ``natural_ids``
    (a family kept in one suit, suit by suit)."""
    for shape in core._families:
        if shape.per_suit:
            by_suit: dict[int, list[int]] = {}
            for i, cid in enumerate(natural_ids):
                by_suit.setdefault(core._suit_index[cid], []).append(i)
            for members in by_suit.values():
                generate(core, shape.family, natural_ids, members, 0, shape.min_size, shape.max_size, emit)
        else:
            generate(core, shape.family, natural_ids, range(len(natural_ids)), 0,
                     shape.min_size, shape.max_size, emit)


def _too_many_sequences(core: MeldCore) -> bool:
    """Whether the deck's wild-free sequences surely pass :data:`DECK_TABLE_LIMIT`: a
    window of ``L`` positions holds ``q ** L`` of them, ``q`` the cards at a position
    (every suit's, or one suit's for a family kept in one suit). Counted, not listed:
    listing 200,000 groups to find out took seconds."""
    by_position: dict[int, int] = {}
    for card in core._cards:
        if not card.wild:
            for p in core._positions[card.id]:
                by_position[p] = by_position.get(p, 0) + 1
    if not by_position:
        return False
    suits = max(1, len({core._suit_index[c.id] for c in core._cards if not c.wild}))
    span = core._sequence_length if not core._wrap else core._rank_count
    for shape in core._families:
        if shape.family != "sequence":
            continue
        q = max(by_position.values()) / (suits if shape.per_suit else 1)
        top = span if shape.max_size is None else min(span, shape.max_size)
        total = 0.0
        for length in range(max(shape.min_size, 1), top + 1):
            total += (span - length + 1) * q ** length * (suits if shape.per_suit else 1)
        if total > 4 * DECK_TABLE_LIMIT:  # a loose estimate (gaps, the ace's two places): only sure cases
            return True
    return False


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _plain(table: DeckTable, ids: Sequence[int], build: bool) -> Arrangement | int:
    """One hand's least-deadwood recursion over card-id masks (no discard): the
    least deadwood, or with ``build`` the canonical arrangement.

    A cost is ``deadwood * unit + unmatched value``: with concealed melds counted,
    the value outside melds breaks ties (melding wins); otherwise it is the
    deadwood again. The arrangement is read off the memo: at each lowest card the
    first best step in preference order (largest meld first, dead last).
    """
    core = table.core
    values = core.values
    hand = 0
    total = 0
    for cid in ids:
        hand |= 1 << cid
        total += values[cid]
    unit = total + 1
    dead_unit = unit + 1
    free = core.excludes_concealed_melds
    melds_by_lowest: dict[int, list[tuple[int, int]]] = {}
    meldable = 0
    for cid, held in table.all_inside(hand, ids).items():
        inside = [(m, 0 if free else v * unit) for m, v, _k in held]
        melds_by_lowest[cid] = inside
        for m, _ in inside:
            meldable |= m
    unmeldable = hand & ~meldable
    base = 0  # the cost of the unmeldable cards, dead in every arrangement
    for cid in ids:
        if unmeldable >> cid & 1:
            base += values[cid] * dead_unit
    memo: dict[int, int] = {}

    def least_cost(mask: int) -> int:
        got = memo.get(mask)
        if got is not None:
            return got
        key = mask
        if not mask:
            memo[key] = 0
            return 0
        low = mask & -mask
        c = low.bit_length() - 1
        rest = mask ^ low
        # cards with no meld left inside the mask are dead: no branching
        acc = 0
        while True:
            inside = melds_by_lowest.get(c)
            if inside:
                for m, _cost in inside:
                    if m & mask == m:
                        break
                else:
                    inside = None
            if inside:
                break
            acc += values[c] * dead_unit
            mask = rest
            if not mask:
                memo[key] = acc
                return acc
            low = mask & -mask
            c = low.bit_length() - 1
            rest = mask ^ low
        if acc:
            best = acc + least_cost(mask)
            memo[key] = best
            return best
        best = values[c] * dead_unit + least_cost(rest)
        for m, cost in melds_by_lowest[c]:
            if m & mask == m:
                v = cost + least_cost(mask ^ m)
                if v < best:
                    best = v
        memo[key] = best
        return best

    cost = base + least_cost(meldable)
    if not build:
        return cost // unit
    melds = []
    kinds = []
    unmatched = unmeldable
    mask = meldable
    while mask:
        target = least_cost(mask)
        low = mask & -mask
        c = low.bit_length() - 1
        for m, mcost in melds_by_lowest.get(c, ()):
            if m & mask == m and mcost + least_cost(mask ^ m) == target:
                melds.append(core._cards_of(m))
                kinds.append(core._names(core._judge(m, 0)))
                mask ^= m
                break
        else:
            unmatched |= low
            mask ^= low
    return Arrangement(cost // unit, tuple(melds), tuple(kinds), core._cards_of(unmatched), core.contract is None)


def _knock(table: DeckTable, ids: Sequence[int]) -> tuple[int, int]:
    """The knock question on the deck table: ``(least deadwood after the best
    discard, the discard's card id)``; ``ids`` holds at least one card.

    Cards are taken from the most valuable down: local bit ``i`` is the hand's
    ``i``-th card by (value, id) from the top. Some best arrangement discards its
    most valuable unmatched card (swapping the discard with a more valuable
    unmatched card never costs more, and the tie-break prefers it), so a card
    reached while no card is discarded yet is either melded or discarded, never
    left unmatched: far fewer states.

    A cost is ``deadwood * unit + discard rank * penalty_unit + unmatched value``,
    the discard rank counting from the most valuable card (0); each discard has
    its own rank, so the cost fixes the discard.
    """
    core = table.core
    values = core.values
    hand = 0
    total = 0
    for cid in ids:
        hand |= 1 << cid
        total += values[cid]
    order = sorted(ids, key=lambda c: (values[c], c), reverse=True)
    held_by = table.all_inside(hand, ids)
    if not held_by:
        return total - values[order[0]], order[0]  # no meld: the most valuable card goes
    n = len(order)
    local = {cid: i for i, cid in enumerate(order)}
    penalty_unit = total + 1
    unit = penalty_unit * (n + 1)
    free = core.excludes_concealed_melds
    melds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for cid in ids:
        for m, v, _k in held_by.get(cid, ()):
            local_mask = 0
            for member in _ids(m):
                local_mask |= 1 << local[member]
            melds[(local_mask & -local_mask).bit_length() - 1].append((local_mask, 0 if free else v * unit))
    dead_cost = [values[cid] * (unit + 1) for cid in order]
    memo: dict[int, int] = {}
    infinite = 1 << 200

    def least_cost(mask: int, discarded: int) -> int:
        key = mask << 1 | discarded
        got = memo.get(key)
        if got is not None:
            return got
        if not mask:
            best = 0 if discarded else infinite
            memo[key] = best
            return best
        low = mask & -mask
        c = low.bit_length() - 1
        if discarded:
            acc = 0
            while True:
                for m, _cost in melds[c]:
                    if m & mask == m:
                        break
                else:
                    acc += dead_cost[c]
                    mask ^= low
                    if not mask:
                        memo[key] = acc
                        return acc
                    low = mask & -mask
                    c = low.bit_length() - 1
                    continue
                break
            if acc:
                best = acc + least_cost(mask, 1)
                memo[key] = best
                return best
            best = dead_cost[c] + least_cost(mask ^ low, 1)
        else:
            best = c * penalty_unit + least_cost(mask ^ low, 1)
        for m, cost in melds[c]:
            if m & mask == m:
                v = cost + least_cost(mask ^ m, discarded)
                if v < best:
                    best = v
        memo[key] = best
        return best

    mask = (1 << n) - 1
    target = least_cost(mask, 0)
    deadwood = target // unit
    while True:  # follow a best path to the discard (every best path has the same one)
        low = mask & -mask
        c = low.bit_length() - 1
        if c * penalty_unit + least_cost(mask ^ low, 1) == target:
            return deadwood, order[c]
        for m, cost in melds[c]:
            if m & mask == m and cost + least_cost(mask ^ m, 0) == target:
                mask ^= m
                target -= cost
                break
        else:  # pragma: no cover - the memo always holds a best step
            raise AssertionError("no step reaches the best cost")
