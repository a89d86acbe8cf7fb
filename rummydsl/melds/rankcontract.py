"""The contract questions of the rank windows: on a part's pattern (:mod:`.rankclasses`),
the multisets of meld sizes a pattern holds, for a contract that reads only its melds'
sizes and count (:func:`~rummydsl.melds.shapes.blind_contract`); on the cards, a search
of their collections of disjoint melds (:func:`cards_hold`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..cards import Card
    from .core import MeldCore

__all__ = ["ContractClasses", "PatternMelds", "cannot_meld", "cards_hold", "size_sets", "sized_melds", "sizes_hold"]


class PatternMelds(Protocol):
    """What these questions read of a deck's :class:`~.rankclasses.RankClasses`."""

    guards: int
    field: int
    width: int
    one_class: bool
    shift_at: tuple[int, ...]
    windows: dict[tuple[int, int], tuple[int, bool]]
    set_sizes: list[tuple[int, int | None]]
    runs: list[tuple[int, int | None]]
    inc: tuple[int, ...]
    size_memo: dict[tuple[object, ...], frozenset[tuple[int, ...]]]
    group_sizes: dict[int, int]
    memo_limit: int

    def _counts(self, group: int) -> list[tuple[int, int]]: ...

    def _size(self, group: int) -> int: ...

    def melds(self, k: int, key: int) -> list[int]: ...

    def melds_pattern(self, group: int) -> bool: ...


class ContractClasses(PatternMelds, Protocol):
    """What :func:`sizes_hold` and :func:`cannot_meld` read of a deck's :class:`~.rankclasses.RankClasses` besides."""

    core: MeldCore
    naturals: tuple[Card, ...]
    value: tuple[int, ...]
    asked: dict[tuple[int, ...], tuple[object, bool]]
    valued: dict[int, tuple[int, list[int]]]

    def least(self, key: int) -> int: ...

    def size_sets(self, key: int, sizes: tuple[int, int], most_melds: int | None) -> frozenset[tuple[int, ...]]: ...


def size_sets(classes: PatternMelds, key: int, sizes: tuple[int, int],
              most_melds: int | None) -> frozenset[tuple[int, ...]]:
    """The multisets of sizes (sorted tuples, the empty one included) of the
    collections of disjoint melds of ``sizes`` cards, at most ``most_melds`` of them,
    that pattern ``key`` holds; kept per pattern. A card of the lowest class ``k`` is
    in no meld of a collection (then it is a collection of the pattern without that
    card) or in one of the melds with a card of class ``k`` (then the rest is a
    collection of the pattern without that meld): the states are the least-deadwood
    search's (:meth:`~.rankclasses.RankClasses.least`), whose meld listings are kept."""
    memo_key = (key, sizes, most_melds)
    got = classes.size_memo.get(memo_key)
    if got is not None:
        return got
    if not key:
        got = frozenset({()})
    else:
        k = ((key & -key).bit_length() - 1) // classes.width
        out = set(size_sets(classes, key - classes.inc[k], sizes, most_melds))
        low, high = sizes
        group_sizes = classes.group_sizes
        for group in classes.melds(k, key):
            n = group_sizes.get(group)
            if n is None:
                n = group_sizes[group] = classes._size(group)
            if low <= n <= high:
                for rest in size_sets(classes, key - group, sizes, most_melds):
                    if most_melds is None or len(rest) < most_melds:
                        out.add(tuple(sorted((*rest, n))))
        got = frozenset(out)
    if len(classes.size_memo) >= classes.memo_limit:
        classes.size_memo.clear()
        classes.group_sizes.clear()
    classes.size_memo[memo_key] = got
    return got


def sizes_hold(classes: ContractClasses, keys: Sequence[int],
               contract: Callable[[list[tuple[str, tuple[Card, ...]]]], object],
               least_melds: int, most_melds: int | None, sizes: tuple[int, int]) -> bool:
    """:meth:`~.rankclasses.RankClasses.holds` past :func:`cannot_meld`, not kept: the
    unions of each part's :func:`size_sets`, ``contract`` asked once per multiset of sizes."""
    combos: set[tuple[int, ...]] = {()}
    for key in keys:
        own = classes.size_sets(key, sizes, most_melds)
        combos = {tuple(sorted(a + b)) for a in combos for b in own
                  if most_melds is None or len(a) + len(b) <= most_melds}
    asked = classes.asked
    names = classes.core.kind_names
    naturals = classes.naturals
    for combo in sorted(combos, key=len, reverse=True):
        if len(combo) < least_melds:
            break
        memo_key = (id(contract), *combo)
        got = asked.get(memo_key)
        if got is None:
            melds = [(names[0], naturals[:n]) for n in combo]
            if len(asked) >= classes.memo_limit:
                asked.clear()
            got = asked[memo_key] = (contract, bool(contract(melds)))
        if got[1]:
            return True
    return False


def cannot_meld(classes: ContractClasses, keys: Sequence[int], cards: int) -> bool:
    """Whether no collection of disjoint melds of the parts of patterns ``keys`` holds
    ``cards`` cards, read from their least deadwood: such a collection leaves at most
    the parts' value less that of their ``cards`` lowest-valued cards unmatched, and
    the least deadwood is no more than what any collection leaves."""
    values: list[int] = []
    least = 0
    memo = classes.valued
    for key in keys:
        got = memo.get(key)
        if got is None:
            value = classes.value
            if len(memo) >= classes.memo_limit:
                memo.clear()
            got = memo[key] = (classes.least(key), [value[k] for k, n in classes._counts(key) for _ in range(n)])
        least += got[0]
        values += got[1]
    if cards > len(values):
        return True
    values.sort()
    return least > sum(values[cards:])


def sized_melds(classes: PatternMelds, key: int, low_size: int, high_size: int) -> set[int]:
    """The patterns of the melds of ``low_size`` to ``high_size`` cards pattern ``key`` holds."""
    found: set[int] = set()
    if not classes.one_class:
        for k, _n in classes._counts(key):
            for group in classes.melds(k, key):
                if low_size <= classes._size(group) <= high_size:
                    found.add(group)
        return found
    field, shift_at, windows, guards = classes.field, classes.shift_at, classes.windows, classes.guards
    for lo, hi in classes.set_sizes:
        top = high_size if hi is None else min(hi, high_size)
        for k, have in classes._counts(key):
            for r in range(max(lo, low_size), min(top, have) + 1):
                if classes.melds_pattern(r * classes.inc[k]):
                    found.add(r * classes.inc[k])
    last = len(shift_at) - 2
    for lo, hi in classes.runs:
        lo = max(lo, low_size)
        hi = high_size if hi is None else min(hi, high_size)
        a = 1
        while a <= last:
            if not key >> shift_at[a] & field:
                a += 1
                continue
            b = a
            while b < last and key >> shift_at[b + 1] & field:
                b += 1
            for start in range(a, b - lo + 2):
                for end in range(start + lo - 1, min(b, start + hi - 1) + 1):
                    group, twice = windows[(start, end)]
                    if twice and ((key | guards) - group) & guards != guards:
                        continue
                    if classes.melds_pattern(group):
                        found.add(group)
            a = b + 1
    return found


def cards_hold(core: MeldCore, melds_with: Callable[[int, int], list[int]], mask: int,
               contract: Callable[[list[tuple[str, tuple[Card, ...]]]], object],
               least_melds: int, most_melds: int | None, sizes: tuple[int, int]) -> bool:
    """Whether some collection of disjoint melds of the wild-free cards ``mask``, of
    ``least_melds`` to ``most_melds`` melds of ``sizes`` cards each, meets ``contract``
    (with some kind each meld forms), as :func:`~rummydsl.melds.contract.contract_search`
    asks it: the rank windows' question of the cards (``melds_with(card, mask)``: the
    melds of ``mask`` holding the card), for a contract that reads more than sizes."""
    low_size, high_size = sizes
    melds: list[int] = []
    m = mask
    while m:
        low = m & -m
        for meld in melds_with(low.bit_length() - 1, m):
            if low_size <= meld.bit_count() <= high_size:
                melds.append(meld)
        m ^= low
    if len(melds) < least_melds:
        return False
    names = core.kind_names
    read: dict[int, tuple[tuple[Card, ...], list[str]]] = {}
    chosen: list[int] = []

    def meets() -> bool:
        groups = []
        for meld in chosen:
            got = read.get(meld)
            if got is None:
                kinds = core._judge(meld, 0)
                got = read[meld] = (core._cards_of(meld), [names[b] for b in range(len(names)) if kinds >> b & 1])
            groups.append(got)
        for pick in itertools.product(*(kinds for _, kinds in groups)):
            if contract([(kind, cards) for kind, (cards, _) in zip(pick, groups)]):
                return True
        return False

    def visit(start: int, used: int) -> bool:
        for i in range(start, len(melds)):
            meld = melds[i]
            if meld & used:
                continue
            chosen.append(meld)
            if len(chosen) >= least_melds and meets():
                return True
            if (most_melds is None or len(chosen) < most_melds) and visit(i + 1, used | meld):
                return True
            chosen.pop()
        return False

    return visit(0, 0)
