"""The contract questions of :mod:`.rankclasses` on a part's pattern: the multisets of
meld sizes a pattern holds, for a contract that reads only its melds' sizes and count
(:func:`~rummydsl.melds.shapes.blind_contract`)."""

from __future__ import annotations

from typing import Protocol

__all__ = ["PatternMelds", "size_sets", "sized_melds"]


class PatternMelds(Protocol):
    """What these questions read of a deck's :class:`~.rankclasses.RankClasses`."""

    guards: int
    field: int
    one_class: bool
    shift_at: tuple[int, ...]
    windows: dict[tuple[int, int], tuple[int, bool]]
    set_sizes: list[tuple[int, int | None]]
    runs: list[tuple[int, int | None]]
    inc: tuple[int, ...]
    size_memo: dict[tuple[object, ...], frozenset[tuple[int, ...]]]
    memo_limit: int

    def _counts(self, group: int) -> list[tuple[int, int]]: ...

    def _size(self, group: int) -> int: ...

    def melds(self, k: int, key: int) -> list[int]: ...

    def melds_pattern(self, group: int) -> bool: ...


def size_sets(classes: PatternMelds, key: int, sizes: tuple[int, int],
              most_melds: int | None) -> frozenset[tuple[int, ...]]:
    """The multisets of sizes (sorted tuples, the empty one included) of the
    collections of disjoint melds of ``sizes`` cards, at most ``most_melds`` of them,
    that pattern ``key`` holds; kept per pattern."""
    memo_key = (key, sizes, most_melds)
    got = classes.size_memo.get(memo_key)
    if got is not None:
        return got
    # smallest first, so that a collection taken in list order has its sizes sorted; each
    # collection is grown in list order only (a meld at or after the last one taken)
    groups = sorted((classes._size(g), g) for g in sized_melds(classes, key, *sizes))
    full = key | classes.guards
    guards = classes.guards
    out: set[tuple[int, ...]] = set()
    seen: set[tuple[int, tuple[int, ...], int]] = set()
    stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 0)]
    while stack:
        used, taken, start = stack.pop()
        out.add(taken)
        if most_melds is not None and len(taken) >= most_melds:
            continue
        for i in range(start, len(groups)):
            n, group = groups[i]
            now = used + group
            if (full - now) & guards == guards:
                state = (now, taken + (n,), i)
                if state not in seen:
                    seen.add(state)
                    stack.append(state)
    got = frozenset(out)
    if len(classes.size_memo) >= classes.memo_limit:
        classes.size_memo.clear()
    classes.size_memo[memo_key] = got
    return got


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
