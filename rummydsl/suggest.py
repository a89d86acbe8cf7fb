"""The nearest name to a misspelt one, for "did you mean ...?" in messages.

Every suggestion rummydsl makes (unknown keys, deck presets, variant ids, names in
expressions, option values) comes from :func:`closest`, so they all judge
closeness the same way; each caller chooses how strict to be (``cutoff``) and
writes its own message around the answer.

>>> closest("hand_sise", ["hand_size", "upcard", "rotation"])
'hand_size'
>>> closest("zzz", ["hand_size", "upcard"]) is None
True
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["closest"]


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate most like ``word``, or None if none is at least ``cutoff`` alike.

    Likeness is :class:`difflib.SequenceMatcher`'s ratio (0 to 1); of equally
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

    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=cutoff)
    return matches[0] if matches else None
