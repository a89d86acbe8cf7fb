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
    when a suggestion is wanted, which keeps start-up cheap.

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
    import difflib

    pool = sorted(set(candidates))
    meant = SYNONYMS.get(word.lower())
    if meant is not None and meant in pool:
        return meant
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=cutoff)
    if matches:
        return matches[0]
    if 3 <= len(word) <= 4 and cutoff < 0.9:  # short names: one letter changed is close
        # (whatever the ratio says), unless the caller asked for near-exact matches
        near = [name for name in pool if _one_edit(word, name)]
        if near:
            return near[-1]
    return None


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
