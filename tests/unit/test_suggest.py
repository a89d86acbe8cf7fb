"""``closest`` answers as difflib's ``get_close_matches`` with its own two fallbacks
(synonyms, one letter away), whatever the candidates: its index by letters
(rummydsl/suggest.py's ``_Pool``) only skips names difflib would not have counted."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.suggest import SYNONYMS, _one_edit, closest

LETTERS = "abcdeknorstu_1"  # few letters, so words and names share some
WORDS = st.text(LETTERS, max_size=9)
CUTOFFS = st.sampled_from([0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0])


def difflib_closest(word: str, candidates: list[str], cutoff: float) -> str | None:
    """closest as it was written before the index: difflib over every candidate."""
    pool = sorted(set(candidates))
    meant = SYNONYMS.get(word.lower())
    if meant is not None and meant in pool:
        return meant
    matches = difflib.get_close_matches(word, pool, n=1, cutoff=cutoff)
    if matches:
        return matches[0]
    if 3 <= len(word) <= 4 and cutoff < 0.9:
        near = [name for name in pool if _one_edit(word, name)]
        if near:
            return near[-1]
    return None


@settings(max_examples=300, deadline=None)
@given(word=WORDS, candidates=st.lists(WORDS, max_size=12), cutoff=CUTOFFS)
def test_closest_is_difflib_s_answer(word: str, candidates: list[str], cutoff: float) -> None:
    assert closest(word, candidates, cutoff) == difflib_closest(word, candidates, cutoff)


def test_closest_on_the_schema_s_keys_and_many_unknown_ones() -> None:
    from rummydsl.variant.schema import variant_schema

    allowed = sorted(variant_schema()["properties"])
    words = [f"u{i}" for i in range(0, 26000, 997)] + ["dael", "meld", "knok", "turns", "scoring", "optons",
                                                       "", "x", "stock_", "card_valeu", "upcard_ofer"]
    for word in words:
        for cutoff in (0.6, 0.7):
            assert closest(word, allowed, cutoff) == difflib_closest(word, allowed, cutoff), word
    assert closest("dael", allowed) == "deal"
