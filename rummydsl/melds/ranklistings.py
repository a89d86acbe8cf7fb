"""A class's meld listing kept by what it reads, for :mod:`.rankclasses`.

With one class at each sequence position and rank (:attr:`~.rankclasses.RankClasses.one_class`),
the melds with a card of class ``k`` that a pattern holds are its sets (one rank: as many
cards of ``k`` as the pattern holds, up to the largest set) and its windows (one card at
each of a run of consecutive positions through a position of ``k``, inside the run of
held positions around it). So the listing reads only ``k``, how many cards of it the
pattern holds (up to the largest set), and the run of held positions around each of
``k``'s positions, unless a class sits twice in such a run (the ace low and high in a
run of every rank: then whether the pattern holds two of it counts too). A new pattern
mostly differs from the ones seen before away from ``k``, so the listing is kept by
those (:func:`class_melds`): a new pattern's listing then costs the walk down and up
its runs.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["ListedMelds", "class_melds", "list_class_melds"]


class ListedMelds(Protocol):
    """What the listing reads of a deck's :class:`~.rankclasses.RankClasses`."""

    width: int
    field: int
    guards: int
    shift_at: tuple[int, ...]
    windows: dict[tuple[int, int], tuple[int, bool]]
    set_sizes: list[tuple[int, int | None]]
    runs: list[tuple[int, int | None]]
    inc: tuple[int, ...]
    positions: tuple[tuple[int, ...], ...]
    judged: dict[int, int]
    set_cap: int | None
    listings: dict[int, list[int]]
    memo_limit: int

    def melds_pattern(self, group: int) -> bool: ...


def class_melds(classes: ListedMelds, k: int, key: int) -> list[int]:
    """The patterns of the melds with a card of class ``k`` that pattern ``key`` holds
    (one class at each position and rank), each once, kept by what the listing reads."""
    field = classes.field
    have = key >> (k * classes.width) & field
    cap = classes.set_cap
    if cap is not None and have > cap:
        have = cap
    spans = [k, have]
    memo_key = 0  # the runs, then the count and the class, packed in one int (the class read first)
    twice = False
    if classes.runs:
        shift_at, windows = classes.shift_at, classes.windows
        top = len(shift_at)
        for p in classes.positions[k]:
            down = p
            while key >> shift_at[down - 1] & field:
                down -= 1
            up = p
            while key >> shift_at[up + 1] & field:
                up += 1
            spans += (down, up)
            memo_key = (memo_key * top + down) * top + up
            twice = twice or (down < up and windows[(down, up)][1])
    if twice:  # a class twice in a run: whether the pattern holds two of it counts (not kept)
        return list_class_melds(classes, k, key, have, spans)
    memo_key = (memo_key * (field + 1) + have) * len(classes.inc) + k
    got = classes.listings.get(memo_key)
    if got is None:
        got = list_class_melds(classes, k, key, have, spans)
        if len(classes.listings) >= classes.memo_limit:
            classes.listings.clear()
        classes.listings[memo_key] = got
    return got


def list_class_melds(classes: ListedMelds, k: int, key: int, have: int, spans: list[int]) -> list[int]:
    """:func:`class_melds` listed: ``have`` cards of class ``k`` in pattern ``key``, and
    ``spans[2 + 2 * i:4 + 2 * i]`` the run of held positions around ``k``'s ``i``-th position."""
    out = []
    judged = classes.judged
    inc = classes.inc[k]
    for lo, hi in classes.set_sizes:
        for r in range(lo, (have if hi is None else min(hi, have)) + 1):
            group = r * inc
            if judged.get(group) or (group not in judged and classes.melds_pattern(group)):
                out.append(group)
    windows, guards = classes.windows, classes.guards
    for lo, hi in classes.runs:
        for i, p in enumerate(classes.positions[k]):
            down, up = spans[2 + 2 * i], spans[3 + 2 * i]
            if up - down + 1 < lo:
                continue
            longest = up - down + 1 if hi is None else min(hi, up - down + 1)
            for a in range(max(down, p - longest + 1), p + 1):
                for b in range(max(p, a + lo - 1), min(up, a + longest - 1) + 1):
                    group, twice = windows[(a, b)]
                    if twice and ((key | guards) - group) & guards != guards:
                        continue
                    if judged.get(group) or (group not in judged and classes.melds_pattern(group)):
                        out.append(group)
    if len(classes.set_sizes) + len(classes.runs) > 1 or len(classes.positions[k]) > 1:
        out = list(dict.fromkeys(out))
    return out
