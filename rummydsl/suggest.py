"""The nearest name to a misspelt one, for "did you mean ...?" in messages.

Every suggestion rummydsl makes (unknown keys, deck presets, variant ids, names in
expressions, option values) comes from :func:`closest`, so they all judge
closeness the same way; each caller chooses how strict to be (``cutoff``) and
writes its own message around the answer.

>>> closest("hand_sise", ["hand_size", "upcard", "rotation"])
'hand_size'
>>> closest("zzz", ["hand_size", "upcard"]) is None
True
>>> closest("gim", ["gin", "knock", "out"]), closest("knocker", ["ender", "opponents"])
('gin', 'ender')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

__all__ = ["closest", "likeness", "SYNONYMS"]


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate most like ``word``, or None if none is at least ``cutoff`` alike.

    A word of :data:`SYNONYMS` gives the name it stands for, if that is a
    candidate. Otherwise likeness is :class:`difflib.SequenceMatcher`'s ratio (0 to 1),
    and for a word of 3 or 4 letters with no candidate that alike, a candidate one
    letter away will do (``gim`` → ``gin``; not with a cutoff of 0.9 or more). Of equally
    alike candidates the one last in sorted order wins, so the answer does not
    depend on the order (or repeats) of ``candidates``. difflib is imported only
    when a suggestion is wanted, which keeps start-up cheap; a name that shares no
    letter with ``word`` is never compared with it in full (see :class:`_Pool`).

    :param word: the name as written.
    :param candidates: the names that exist.
    :param cutoff: the least ratio that counts as close: 0.6 by default; higher
        is stricter (0.7 for names in expressions, where short names abound).

    >>> closest("ordr", ["order", "rank", "suit"])
    'order'
    >>> closest("rnk", ["rank", "order"], cutoff=0.9) is None
    True
    >>> closest("standard", ("standard52", "rumski70"), cutoff=0.5)
    'standard52'
    """
    pool = _pool(tuple(candidates))
    meant = SYNONYMS.get(word.lower())
    if meant is not None and meant in pool.names:
        return meant
    match = pool.best(word, cutoff)
    if match is not None:
        return match
    if 3 <= len(word) <= 4 and cutoff < 0.9:  # short names: one letter changed is close
        # (whatever the ratio says), unless the caller asked for near-exact matches
        near = [name for name in pool.names if _one_edit(word, name)]
        if near:
            return near[-1]
    return None


class _Pool:
    """Candidate names (sorted, without repeats) indexed by the letters they hold, so a
    word is compared in full only with the names that share enough letters with it.

    :meth:`best` answers as ``difflib.get_close_matches(word, names, n=1, cutoff)`` does,
    which compares a name in full only if two bounds on the ratio reach the cutoff: one
    from the lengths, one from the letters the two share as multisets (its
    ``quick_ratio``). The second bound is 0 for a name that shares no letter with the
    word, so with a positive cutoff such names never count; the index finds the others
    without looking at the rest (a file of thousands of unknown keys asks once a key)."""

    def __init__(self, candidates: tuple[str, ...]) -> None:
        self.names = sorted(set(candidates))
        self._letters: dict[str, list[tuple[int, int]]] = {}
        for i, name in enumerate(self.names):
            for letter in set(name):
                self._letters.setdefault(letter, []).append((i, name.count(letter)))

    def best(self, word: str, cutoff: float) -> str | None:
        import difflib

        if not word or not 0 < cutoff <= 1:  # every name may count (an empty word matches an
            # empty name), or difflib refuses the cutoff
            found = difflib.get_close_matches(word, self.names, n=1, cutoff=cutoff)
            return found[0] if found else None
        shared: dict[int, int] = {}  # a name's index: the letters it shares with the word
        for letter in set(word):
            postings = self._letters.get(letter)
            if postings:
                count = word.count(letter)
                for i, theirs in postings:
                    shared[i] = shared.get(i, 0) + (count if count < theirs else theirs)
        matcher = None
        scored: list[tuple[float, str]] = []
        for i, together in shared.items():
            name = self.names[i]
            length = len(name) + len(word)
            # difflib's real_quick_ratio and quick_ratio, computed as it computes them
            if 2.0 * together / length < cutoff or 2.0 * min(len(name), len(word)) / length < cutoff:
                continue
            if matcher is None:
                matcher = difflib.SequenceMatcher()
                matcher.set_seq2(word)
            matcher.set_seq1(name)
            ratio = matcher.ratio()
            if ratio >= cutoff:
                scored.append((ratio, name))
        return max(scored)[1] if scored else None


@lru_cache(maxsize=32)
def _pool(candidates: tuple[str, ...]) -> _Pool:
    return _Pool(candidates)


def likeness(word: str, other: str) -> float:
    """How alike two names are, 0 to 1: the ratio :func:`closest` judges by.

    >>> likeness("oklahoma", "oklahoma_gin")
    0.8
    """
    import difflib

    return difflib.SequenceMatcher(None, word, other).ratio()


SYNONYMS = {
    "knocker": "ender",
    "winner": "ender",
    "goer": "ender",
    "defender": "opponents",
    "defenders": "opponents",
    "opponent": "opponents",
}
"""Words people write for a name that has another: suggested when nothing is
spelt alike (``knocker`` → ``ender``), and only where the name exists."""


def _one_edit(word: str, other: str) -> bool:
    """Whether one letter changed, added or removed turns ``word`` into ``other``.

    >>> _one_edit("gim", "gin"), _one_edit("gi", "gin"), _one_edit("gin", "gin"), _one_edit("ab", "ba")
    (True, True, False, False)
    """
    if word == other or abs(len(word) - len(other)) > 1:
        return False
    if len(word) == len(other):
        return sum(a != b for a, b in zip(word, other)) == 1
    short, long = sorted((word, other), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))
