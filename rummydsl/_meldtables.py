"""Per-suit least-deadwood tables: the solver's fast path (private to rummydsl.melds).

Applies when the rules' melds split into two structures, read from the deck's
wild-free melds themselves (never from a variant's name): every meld of the deck
either lies in one suit (runs), or holds cards of one rank in two or more suits
(sets); the deck has one pack; melds held in the hand are free (the usual
deadwood rule). Then a hand without wild cards is a rank mask per suit plus, for
each rank held in enough suits, a choice of which of its cards form sets.

- For every suit and every rank mask of that suit (``2 ** ranks`` entries: 8,192
  for 13 ranks) a table holds the least deadwood of that suit's cards with the
  suit's melds only, and the meld that takes the mask's lowest rank in one best
  arrangement. Suits with the same melds and card values share a table.
- For the knock question a second table per suit holds the best single discard
  from the mask, keyed ``deadwood_after * K + penalty`` minus the mask's own
  ``deadwood * K``, where ``K`` is the number of natural cards and the penalty
  ranks every card by (value, id) from the top: the documented tie-break.
- A hand then costs a few lookups per choice of sets: the choices are the
  product, over the ranks held in enough suits, of "no set" and every union of
  disjoint rank melds of that rank inside the hand. Every arrangement of the
  hand is some choice plus per-suit arrangements, so the minimum is exact.

Tables are built lazily, once per :class:`rummydsl.melds.MeldRules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummydsl.cards import Card
    from rummydsl.melds import MeldRules

#: One suit's part of an arrangement: (melds, kinds, unmatched cards).
_Walk = tuple[tuple[tuple["Card", ...], ...], tuple[frozenset[str], ...], tuple["Card", ...]]

__all__ = ["SuitTables"]

#: Ranks beyond this make the per-suit tables too big (2 ** ranks entries each).
MAX_TABLE_RANKS = 14


class SuitTables:
    """The per-suit tables of one solver; build with :meth:`build`."""

    __slots__ = (
        "R", "S", "F", "K", "full", "shifts", "T", "CH", "DK", "DC", "rank_bits",
        "options", "packings", "kmin", "meld_info", "by_penalty", "W", "_four",
    )

    # set by build() (and by_penalty by _discard_tables())
    R: int
    S: int
    F: int
    K: int
    full: int
    shifts: tuple[int, ...]
    rank_bits: tuple[int, ...]
    options: tuple[dict[int, tuple[int, ...]], ...]
    packings: tuple[dict[int, dict[int, tuple[int, ...]]], ...]
    kmin: int
    meld_info: dict[int, tuple[tuple[Card, ...], frozenset[str]]]
    by_penalty: tuple[int, ...]
    _four: bool

    def __init__(self) -> None:
        self.T: list[list[int]] = []
        self.CH: list[list[int]] = []
        self.W: list[list[_Walk | None]] = []
        self.DK: list[list[int]] | None = None
        self.DC: list[list[int]] | None = None

    # ------------------------------------------------------------------ building

    @classmethod
    def build(cls, rules: MeldRules) -> SuitTables | None:
        """The tables for ``rules`` (a :class:`MeldRules`), or ``None`` when they do not apply."""
        deck = rules.deck
        if not rules.excludes_concealed_melds or getattr(deck, "packs", 1) != 1:
            return None
        R = len(deck.ranks)
        S = len(deck.suits)
        if not 1 <= R <= MAX_TABLE_RANKS or S < 1:
            return None
        F = R * S
        cards = rules._cards
        for card in cards:
            if card.wild:
                if card.id < F:
                    return None
            elif card.id != card.suit.index * R + card.rank.order - 1:
                return None
        deck_table = rules._deck_table()
        if deck_table is None:
            return None
        full = (1 << R) - 1
        suit_melds: list[set[int]] = [set() for _ in range(S)]
        rank_melds: list[list[int]] = [[] for _ in range(R)]
        meld_info: dict[int, tuple[tuple[Card, ...], frozenset[str]]] = {}
        for per_low in deck_table:
            for gmask, _value, bits in per_low:
                slices = [(gmask >> (s * R)) & full for s in range(S)]
                held = [s for s in range(S) if slices[s]]
                if len(held) == 1:
                    suit_melds[held[0]].add(slices[held[0]])
                else:
                    ranks = 0
                    for part in slices:
                        ranks |= part
                    if ranks & (ranks - 1):
                        return None  # a meld across suits and ranks: not this structure
                    rank_melds[ranks.bit_length() - 1].append(gmask)
                meld_info[gmask] = (rules._cards_of(gmask), rules._names(bits))
        self = cls()
        self.R, self.S, self.F, self.K = R, S, F, F
        self.full = full
        self.shifts = tuple(s * R for s in range(S))
        self.meld_info = meld_info
        values = rules.values
        shared: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[list[int], list[int]]] = {}
        for s in range(S):
            vals = tuple(values[s * R + r] for r in range(R))
            key = (tuple(sorted(suit_melds[s])), vals)
            if key not in shared:
                shared[key] = _suit_table(R, suit_melds[s], vals)
            T, CH = shared[key]
            self.T.append(T)
            self.CH.append(CH)
        # sets: for every rank and every subset of its cards, the unions of disjoint rank melds
        self.rank_bits = tuple(sum(1 << (s * R + r) for s in range(S)) for r in range(R))
        sizes = [m.bit_count() for ms in rank_melds for m in ms]
        self.kmin = min(sizes) if sizes else 0
        options: list[dict[int, tuple[int, ...]]] = []
        packings: list[dict[int, dict[int, tuple[int, ...]]]] = []
        for r in range(R):
            table: dict[int, tuple[int, ...]] = {}
            packs: dict[int, dict[int, tuple[int, ...]]] = {}
            if rank_melds[r]:
                everything = self.rank_bits[r]
                sub = everything
                while True:
                    found = _packings(sub, rank_melds[r])
                    if found:
                        table[sub] = (0,) + tuple(o for o, _ in found)
                        packs[sub] = dict(found)
                    if not sub:
                        break
                    sub = (sub - 1) & everything
            options.append(table)
            packings.append(packs)
        self.options = tuple(options)
        self.packings = tuple(packings)
        self._four = S == 4 and self.kmin == 3
        self.W = [[None] * (1 << R) for _ in range(S)]
        return self

    def _discard_tables(self, rules: MeldRules) -> None:
        """Build the knock-question tables (on first use)."""
        values = rules.values
        F, R, S, K = self.F, self.R, self.S, self.K
        order = sorted(range(F), key=lambda cid: (values[cid], cid), reverse=True)
        pen = [0] * F
        for i, cid in enumerate(order):
            pen[cid] = i
        big = 1 << 62
        DK: list[list[int]] = []
        DC: list[list[int]] = []
        for s in range(S):
            T = self.T[s]
            bits = [(1 << r, pen[s * R + r], s * R + r) for r in range(R)]
            dk = [big] * (1 << R)
            dc = [-1] * (1 << R)
            for m in range(1, 1 << R):
                best = big
                card = -1
                for bit, p, cid in bits:
                    if m & bit:
                        v = T[m ^ bit] * K + p
                        if v < best:
                            best, card = v, cid
                dk[m] = best - T[m] * K
                dc[m] = card
            DK.append(dk)
            DC.append(dc)
        self.DK, self.DC = DK, DC
        self.by_penalty = tuple(order)

    # ------------------------------------------------------------------ queries

    def _choices(self, H: int) -> list[int]:
        """The unions of sets to try for hand ``H`` (0 always first)."""
        kmin = self.kmin
        if not kmin:
            return [0]
        full = self.full
        if self._four:
            R = self.R
            a = H & full
            b = (H >> R) & full
            c = (H >> (2 * R)) & full
            d = (H >> (3 * R)) & full
            ab = a & b
            cd = c & d
            ranks = (ab & (c | d)) | (cd & (a | b))
        else:
            ge = [full] + [0] * kmin
            for sh in self.shifts:
                m = (H >> sh) & full
                for j in range(kmin, 0, -1):
                    ge[j] |= ge[j - 1] & m
            ranks = ge[kmin]
        if not ranks:
            return [0]
        choices = [0]
        options = self.options
        rank_bits = self.rank_bits
        while ranks:
            low = ranks & -ranks
            r = low.bit_length() - 1
            ranks ^= low
            opts = options[r].get(H & rank_bits[r])
            if opts:
                choices = [u | o for u in choices for o in opts]
        return choices

    def deadwood(self, H: int) -> int:
        """The least deadwood of the wild-free hand ``H`` (a card-id bitmask)."""
        return self.best(H)[0]

    def best(self, H: int) -> tuple[int, int]:
        """``(least deadwood, set union of one best arrangement)`` of the wild-free hand ``H``."""
        full = self.full
        T = self.T
        choices = self._choices(H)
        best = None
        best_u = 0
        if self.S == 4:
            T0, T1, T2, T3 = T
            R = self.R
            R2, R3 = 2 * R, 3 * R
            for u in choices:
                m = H ^ u
                v = T0[m & full] + T1[(m >> R) & full] + T2[(m >> R2) & full] + T3[(m >> R3) & full]
                if best is None or v < best:
                    best, best_u = v, u
            return best, best_u  # type: ignore[return-value]  # choices is never empty: best is set
        pairs = tuple(zip(self.shifts, T))
        for u in choices:
            m = H ^ u
            v = 0
            for sh, t in pairs:
                v += t[(m >> sh) & full]
            if best is None or v < best:
                best, best_u = v, u
        return best, best_u  # type: ignore[return-value]  # choices is never empty: best is set

    def knock_key(self, H: int, rules: MeldRules) -> tuple[int, int]:
        """``(deadwood * K + penalty, set union)`` of the best discard from ``H``."""
        if self.DK is None:
            self._discard_tables(rules)
        full = self.full
        T = self.T
        DK = self.DK
        K = self.K
        assert DK is not None
        choices = self._choices(H)
        best = None
        best_u = 0
        if self.S == 4:
            T0, T1, T2, T3 = T
            D0, D1, D2, D3 = DK
            R = self.R
            R2, R3 = 2 * R, 3 * R
            for u in choices:
                m = H ^ u
                a = m & full
                b = (m >> R) & full
                c = (m >> R2) & full
                d = (m >> R3) & full
                v = (T0[a] + T1[b] + T2[c] + T3[d]) * K + min(D0[a], D1[b], D2[c], D3[d])
                if best is None or v < best:
                    best, best_u = v, u
            return best, best_u  # type: ignore[return-value]  # choices is never empty: best is set
        for u in choices:
            m = H ^ u
            parts = [(m >> sh) & full for sh in self.shifts]
            v = sum(t[p] for t, p in zip(T, parts)) * K + min(dk[p] for dk, p in zip(DK, parts))
            if best is None or v < best:
                best, best_u = v, u
        return best, best_u  # type: ignore[return-value]  # choices is never empty: best is set

    # ------------------------------------------------------------------ arrangements

    def _sets_of(self, H: int, u: int) -> list[int]:
        """The rank melds making up the union ``u`` (one packing of it)."""
        out: list[int] = []
        full = self.full
        ranks = 0
        for sh in self.shifts:
            ranks |= (u >> sh) & full
        rank_bits = self.rank_bits
        packings = self.packings
        while ranks:
            low = ranks & -ranks
            r = low.bit_length() - 1
            ranks ^= low
            rb = rank_bits[r]
            out.extend(packings[r][H & rb][u & rb])
        return out

    def _walk(self, s: int, m: int, rules: MeldRules) -> _Walk:
        """Suit ``s``'s part of an arrangement for its rank mask ``m``: (melds, kinds, unmatched)."""
        melds: list[tuple[Card, ...]] = []
        kinds: list[frozenset[str]] = []
        unmatched: list[Card] = []
        cards = rules._cards
        info = self.meld_info
        sh = self.shifts[s]
        ch = self.CH[s]
        key = m
        while m:
            meld = ch[m]
            if meld:
                group, names = info[meld << sh]
                melds.append(group)
                kinds.append(names)
                m ^= meld
            else:
                low = m & -m
                unmatched.append(cards[sh + low.bit_length() - 1])
                m ^= low
        entry = (tuple(melds), tuple(kinds), tuple(unmatched))
        self.W[s][key] = entry
        return entry

    def arrange(self, H: int, discard: bool, rules: MeldRules) -> tuple[
            int, tuple[tuple[Card, ...], ...], tuple[frozenset[str], ...], tuple[Card, ...], int]:
        """One best arrangement: ``(deadwood, melds, kinds, unmatched, discard id or -1)``.

        Melds come sets first, then runs suit by suit; unmatched cards by id.
        """
        full = self.full
        if discard:
            key, u = self.knock_key(H, rules)
            deadwood = key // self.K
            rest = H ^ u
            DK, DC = self.DK, self.DC
            assert DK is not None and DC is not None
            best = None
            disc = -1
            for s, sh in enumerate(self.shifts):
                part = (rest >> sh) & full
                v = DK[s][part]
                if best is None or v < best:
                    best, disc = v, DC[s][part]
            rest ^= 1 << disc
        else:
            deadwood, u = self.best(H)
            rest = H ^ u
            disc = -1
        melds: tuple[tuple[Card, ...], ...] = ()
        kinds: tuple[frozenset[str], ...] = ()
        if u:
            info = self.meld_info
            for m in self._sets_of(H, u):
                group, names = info[m]
                melds += (group,)
                kinds += (names,)
        unmatched: tuple[Card, ...] = ()
        W = self.W
        for s, sh in enumerate(self.shifts):
            m = (rest >> sh) & full
            if m:
                got = W[s][m]
                if got is None:
                    got = self._walk(s, m, rules)
                if got[0]:
                    melds += got[0]
                    kinds += got[1]
                if got[2]:
                    unmatched += got[2]
        return deadwood, melds, kinds, unmatched, disc


def _suit_table(R: int, melds: set[int], vals: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Least deadwood of every rank mask of one suit, and the meld taking its lowest rank."""
    by_low: list[list[int]] = [[] for _ in range(R)]
    for m in sorted(melds):
        by_low[(m & -m).bit_length() - 1].append(m)
    size = 1 << R
    T = [0] * size
    CH = [0] * size
    for m in range(1, size):
        low = m & -m
        r = low.bit_length() - 1
        best = T[m ^ low] + vals[r]
        choice = 0
        for meld in by_low[r]:
            if meld & m == meld:
                v = T[m ^ meld]
                if v < best:
                    best, choice = v, meld
        T[m] = best
        CH[m] = choice
    return T, CH


def _packings(sub: int, melds: list[int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every non-empty union of disjoint melds inside ``sub``, once each, with one packing."""
    inside = [m for m in melds if m & sub == m]
    found: dict[int, tuple[int, ...]] = {}

    def grow(start: int, used: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(inside)):
            m = inside[i]
            if not m & used:
                u = used | m
                picked = chosen + (m,)
                found.setdefault(u, picked)
                grow(i + 1, u, picked)

    grow(0, 0, ())
    return tuple(sorted(found.items()))
