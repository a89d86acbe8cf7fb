"""Wild meanings (GS-3.3 ``wild_unique_card``): what each wild card stands for.

With the option, every wild card in a meld of an arrangement must be given a
*meaning*, a natural face of the deck, under rules 1-3 of
:class:`~rummydsl.melds.MeldRules`. :func:`meanings` lists, for one group, every
way to give its wild cards meanings (rules 1-2 for the group alone), and
:class:`UniqueSearch` is the general search that also keeps rule 3 (and rule 2
across melds): a branch and bound over the plain search, whose cost is a lower
bound of it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from ..cards import Card
from .core import ROLE_DEAD, ROLE_DISCARD, ROLE_LAYOFF, ROLE_MELD, LayoffTarget, MeldCore, bits_of
from .search import INFINITE, Found, Group, HandSearch, MeaningOption

__all__ = ["meaning_domains", "meanings", "UniqueSearch"]

#: A state of the search with meanings: (naturals, wilds, joined, discarded, meanings used).
State = tuple[int, int, int, int, tuple[int, ...]]
#: What a step did: (role, candidate or extension or card index, meanings, kinds).
Step = tuple[int, int, tuple[int, ...], int]


def meaning_domains(core: MeldCore, natural_mask: int, k: int, kinds: int) -> tuple[tuple[int, ...], ...]:
    """Faces the ``k`` wild cards of a group may stand for, from the shapes of the kinds
    in ``kinds``: alternatives (all meanings of one group come from one of them).

    Only necessary conditions (one rank, one suit, within reach of the natural
    cards' sequence positions); the predicates decide.
    """
    key = (natural_mask, k, kinds)
    got = core._domain_memo.get(key)
    if got is not None:
        return got
    ranks = core._rank_count
    nat = list(bits_of(natural_mask))
    size = len(nat) + k
    orders = {core._rank_order[c] for c in nat}
    suits = {core._suit_index[c] for c in nat}
    all_orders = set(range(1, ranks + 1))
    all_suits = {core._suit_index[f] for f in range(core._faces)}
    natural_positions = [p for c in nat for p in core._positions[c]]
    alternatives: set[tuple[int, ...]] = set()
    for i, name in enumerate(core.kind_names):
        if not kinds >> i & 1:
            continue
        shape = core.shapes[name]
        rank_alternatives: list[set[int]]
        if shape.family == "same_rank":
            rank_alternatives = [orders] if len(orders) == 1 else [] if orders else [{r} for r in all_orders]
        elif shape.family == "sequence" and nat:
            reach = size - 1

            def near(q: int) -> bool:
                for p in natural_positions:
                    d = abs(p - q)
                    if core._wrap:
                        d = min(d % ranks, ranks - d % ranks)
                    if d <= reach:
                        return True
                return False

            rank_alternatives = [{r for r in all_orders if any(near(q) for q in core._positions[r - 1])}]
        else:
            rank_alternatives = [all_orders]
        if shape.same_suit:
            suit_alternatives = [suits] if len(suits) == 1 else [] if suits else [{x} for x in all_suits]
        else:
            suit_alternatives = [all_suits]
        for rank_set in rank_alternatives:
            for suit_set in suit_alternatives:
                alternatives.add(tuple(sorted(x * ranks + r - 1 for x in suit_set for r in rank_set)))
    out = tuple(sorted(alternatives))
    core._domain_memo[key] = out
    return out


def meanings(core: MeldCore, natural_mask: int, k: int, kinds: int,
             held: Mapping[int, int]) -> tuple[MeaningOption, ...]:
    """Every way to give the ``k`` wild cards of a group (natural cards
    ``natural_mask``, kinds ``kinds`` judged with the wild cards) meanings under rules
    1-3 for the group alone: ``(faces, kinds)`` pairs, ``faces`` sorted (wild cards
    are interchangeable), in increasing order of ``faces``. ``held[face]``: natural
    cards of that face in play (the hand, a joined table meld; the group's own
    included).
    """
    alternatives = meaning_domains(core, natural_mask, k, kinds)
    packs = core._packs
    faces = sorted({f for alt in alternatives for f in alt})
    signature = tuple((f, held[f]) for f in faces if held.get(f))
    key = (natural_mask, k, kinds, signature)
    got = core._meaning_memo.get(key)
    if got is not None:
        return got
    face_count = core._faces
    seen: set[tuple[int, ...]] = set()
    out: list[MeaningOption] = []
    for alt in alternatives:
        free = [f for f in alt if held.get(f, 0) < packs]
        combos: Iterable[tuple[int, ...]] = (
            itertools.combinations(free, k) if packs == 1 else itertools.combinations_with_replacement(free, k))
        for combo in combos:
            if combo in seen:
                continue
            seen.add(combo)
            concrete = natural_mask
            fits = True
            for f in combo:
                if packs > 1 and held.get(f, 0) + combo.count(f) > packs:
                    fits = False
                    break
                cid = f
                while concrete >> cid & 1:
                    cid += face_count
                concrete |= 1 << cid
            if not fits:
                continue
            got_kinds = kinds & core._judge(concrete, 0)
            if got_kinds:
                out.append((combo, got_kinds))
    result = tuple(sorted(out))
    if len(core._meaning_memo) >= core._memo_limit:
        core._meaning_memo.clear()
    core._meaning_memo[key] = result
    return result


class UniqueSearch(HandSearch):
    """The general search under ``wild_unique_card`` (rules 1-3 of MeldRules' docs).

    Candidates without meanings are dropped, so the inherited
    :meth:`~HandSearch.least_cost` becomes the search without rule 3 and the
    cross-meld part of rule 2: a lower bound that :meth:`least_cost_unique` uses
    to prune.
    """

    def __init__(self, core: MeldCore, hand: Sequence[Card], table: Sequence[LayoffTarget | Sequence[Card]],
                 discard: bool) -> None:
        super().__init__(core, hand, table, discard)
        faces = core._faces
        self.packs = core._packs
        self.held: Counter[int] = Counter(cid % faces for cid in self.natural_ids)
        self.opts: list[tuple[MeaningOption, ...]] = []
        for _local_mask, k, natural_mask, kinds in self.cands:
            self.opts.append(meanings(core, natural_mask, k, kinds, self.held) if k else (((), kinds),))
        self.melds_by_lowest = [[m for m in lst if self.opts[m[3]]] for lst in self.melds_by_lowest]
        self.wild_melds = [m for m in self.wild_melds if self.opts[m[2]]]
        self.table_faces: list[Counter[int]] = [Counter(c.id % faces for c in group.cards if not c.wild)
                                                for group in self.table]
        self.ext_opts: list[tuple[MeaningOption, ...]] = []
        for (t, _local, _k), (natural_mask, total_k, kinds) in zip(self.exts, self.ext_groups):
            if total_k:
                self.ext_opts.append(meanings(core, natural_mask, total_k, kinds, self.held + self.table_faces[t]))
            else:
                self.ext_opts.append((((), kinds),) if kinds else ())
        self.layoffs_by_lowest = [[x for x in lst if self.ext_opts[x[3]]] for lst in self.layoffs_by_lowest]
        self.wild_layoffs = [x for x in self.wild_layoffs if self.ext_opts[x[2]]]
        self.unique_memo: dict[State, tuple[float, bool]] = {}

    def meld_options(self, idx: int) -> tuple[MeaningOption, ...]:
        return self.opts[idx]

    def _in_play(self, face: int, joined: int) -> int:
        """Natural cards of ``face`` in the hand and in the table melds ``joined``."""
        count = self.held[face]
        t = 0
        while joined >> t:
            if joined >> t & 1:
                count += self.table_faces[t][face]
            t += 1
        return count

    def fits(self, faces: tuple[int, ...], used: tuple[int, ...], joined: int) -> bool:
        packs = self.packs
        for face in set(faces):
            if self._in_play(face, joined) + used.count(face) + faces.count(face) > packs:
                return False
        return True

    def _join_ok(self, used: tuple[int, ...], t: int, joined: int) -> bool:
        """Joining table meld ``t`` (``joined`` already including it) breaks no meaning in ``used``."""
        table_faces = self.table_faces[t]
        for face in set(used):
            if table_faces[face] and self._in_play(face, joined) + used.count(face) > self.packs:
                return False
        return True

    def rest_cost(self, mask: int, wilds: int, used: tuple[int, ...]) -> float:
        return self.least_cost_unique((mask, wilds, 0, 0, used))

    def moves(self, state: State) -> list[tuple[float, float, State, Step]]:
        """The steps from a state: ``(step cost, bound of the rest, next state, what
        was done)``, the rest bounded by the plain search; best bound first."""
        mask, wilds, joined, discarded, used = state
        out: list[tuple[float, float, State, Step]] = []
        bound = self.least_cost
        fits = self.fits

        def merge(faces: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(sorted(used + faces)) if faces else used

        if mask:
            low = mask & -mask
            c = low.bit_length() - 1
            melds = [(lm, k, cost, idx) for lm, k, cost, idx in self.melds_by_lowest[c]]
            layoffs = [(lm, k, t, e) for lm, k, t, e in self.layoffs_by_lowest[c]]
            rest_mask = mask ^ low
            dead = (self.dead_cost[c], c)
            discard = (self.discard_cost[c], c)
        else:
            melds = [(0, k, cost, idx) for k, cost, idx in self.wild_melds]
            layoffs = [(0, k, t, e) for k, t, e in self.wild_layoffs]
            rest_mask = 0
            dead = (self.wild_dead_cost, -1)
            discard = (self.wild_discard_cost, -1)
        for local_mask, k, cost, idx in melds:
            if local_mask & mask == local_mask and k <= wilds:
                nm, nw = mask ^ local_mask, wilds - k
                rest = bound(nm, nw, joined, discarded)
                if rest == INFINITE:
                    continue
                for faces, kinds in self.opts[idx]:
                    if not faces or fits(faces, used, joined):
                        out.append((cost, rest, (nm, nw, joined, discarded, merge(faces)),
                                    (ROLE_MELD, idx, faces, kinds)))
        for local_mask, k, t, e in layoffs:
            if local_mask & mask == local_mask and k <= wilds and not joined >> t & 1:
                nm, nw, nj = mask ^ local_mask, wilds - k, joined | 1 << t
                rest = bound(nm, nw, nj, discarded)
                if rest == INFINITE or not self._join_ok(used, t, nj):
                    continue
                for faces, _kinds in self.ext_opts[e]:
                    if not faces or fits(faces, used, nj):
                        out.append((0, rest, (nm, nw, nj, discarded, merge(faces)), (ROLE_LAYOFF, e, faces, 0)))
        left = wilds if mask else wilds - 1
        out.append((dead[0], bound(rest_mask, left, joined, discarded), (rest_mask, left, joined, discarded, used),
                    (ROLE_DEAD, dead[1], (), 0)))
        if self.discard and not discarded:
            out.append((discard[0], bound(rest_mask, left, joined, 1), (rest_mask, left, joined, 1, used),
                        (ROLE_DISCARD, discard[1], (), 0)))
        out.sort(key=lambda m: m[0] + m[1])
        return out

    def least_cost_unique(self, state: State, budget: float = INFINITE) -> float:
        """The least cost from ``state`` under rules 1-3: exact when below ``budget``,
        otherwise some lower bound of it that is at least ``budget``.

        A branch and bound over :meth:`moves`, best bound first, with the plain
        search as the bound; exact results and lower bounds are memoised."""
        mask, wilds, joined, discarded, _used = state
        bound = self.least_cost(mask, wilds, joined, discarded)
        if bound >= budget or not (mask or wilds):
            return bound
        got = self.unique_memo.get(state)
        if got is not None and (got[1] or got[0] >= budget):
            return got[0]
        best = INFINITE
        low = INFINITE
        for step, rest, after, _what in self.moves(state):
            limit = best if best < budget else budget
            if step + rest >= limit:
                low = min(low, step + rest)
                break
            v = step + self.least_cost_unique(after, limit - step)
            if v < limit:
                best = v
            elif v < low:
                low = v
        if best < budget:
            self.unique_memo[state] = (best, True)
            return best
        value = max(low, bound)
        self.unique_memo[state] = (value, value == INFINITE)
        return value

    def plain(self) -> Found:
        full = (1 << self.n) - 1
        return Found(self.least_cost_unique((full, self.wild_count, 0, 0, ())), full, self.wild_count)

    def _preference(self, what: Step, state: State) -> tuple[int, int, int, int, tuple[int, ...]]:
        """A step's place in the canonical order (the least first)."""
        role, ref, faces, _kinds = what
        mask = state[0]
        if role == ROLE_MELD:
            local_mask, k, _natural_mask, _kinds = self.cands[ref]
            return (-local_mask, -k, role, 0, faces)
        if role == ROLE_LAYOFF:
            t, local_mask, k = self.exts[ref]
            return (-local_mask, -k, role, t, faces)
        return (-(mask & -mask), 0 if mask else -1, role, 0, ())

    def walk(self, found: Found) -> tuple[list[Group], int]:
        groups: list[Group] = []
        discard = -1
        state: State = (found.mask, found.wilds, found.joined, found.discarded, found.meanings_used)
        while state[0] or state[1]:
            target = self.least_cost_unique(state)
            steps = sorted(self.moves(state), key=lambda m: self._preference(m[3], state))
            for step, rest, after, what in steps:
                if step + rest <= target and step + self.least_cost_unique(after, target - step + 1) == target:
                    break
            else:  # pragma: no cover - the memo always holds a best step
                raise AssertionError("no step reaches the best cost")
            role, ref, faces, kinds = what
            if role == ROLE_MELD:
                local_mask, k, _natural_mask, _kinds = self.cands[ref]
                groups.append((role, local_mask, k, 0, faces, kinds, False))
            elif role == ROLE_LAYOFF:
                t, local_mask, k = self.exts[ref]
                groups.append((role, local_mask, k, t, faces, 0, False))
            elif role == ROLE_DEAD:
                groups.append((role, 1 << ref if ref >= 0 else 0, 0 if ref >= 0 else 1, 0, (), 0, False))
            else:
                discard = ref if ref >= 0 else -2
            state = after
        return groups, discard
