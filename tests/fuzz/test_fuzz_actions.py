"""Fuzzing the action notation (fuzz/targets.py ``action``): parsing raises only
ActionError and round-trips; applied to a live round, an action is played or
refused with a family error, and a refused action leaves the round as it was.

The actions are built from the notation's words (players, verbs, cards of every
shipped deck, brackets, meld targets) with odd words mixed in, and the suites'
own actions edited at random; each is tried on a round of a shipped variant
after a random number of random legal actions.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mutations import fuzz_settings, mutated
from seeds import actions
from targets import action_input, action_target

from rummydsl.variant import shipped_variant_ids

VARIANTS = shipped_variant_ids()
CARDS = ["AS", "7H", "TD", "10D", "KC", "QS", "2C", "9H", "4R", "13Y", "1G", "7P", "10B", "*", "JS", "JH",
         "ks", "7z", "0S", "11S", "AA", "S7", "14R", "🂡"]
WORDS = (["P1", "P2", "P3", "P4", "P0", "P99", "p1", "draw", "stock", "discard", "pass", "knock", "meld",
          "layoff", "on", "P2#1", "P1#2", "P1#0", "P2#99", "offer", "take", "decline", "done", "[", "]", "[]",
          "DRAW", "kncok", "\t", "\n", "#", "é", "x" * 30] + CARDS)


@st.composite
def action_texts(draw: st.DrawFn) -> str:
    """``PLAYER VERB ARGS`` put together from the notation's words, sometimes out of order."""
    player = draw(st.sampled_from(["P1", "P2", "P3", "P4", "P0", "p2", "X"]))
    verb = draw(st.sampled_from(["draw", "pass", "discard", "knock", "meld", "layoff", "offer", "take",
                                 "decline", "done", "Draw", "knok", ""]))
    shape = draw(st.sampled_from(["words", "melds", "layoff"]))
    if shape == "melds":
        groups = draw(st.lists(st.lists(st.sampled_from(CARDS), max_size=5), max_size=4))
        first = draw(st.sampled_from(["", *CARDS[:6]]))
        args = " ".join([first] + ["[" + " ".join(group) + "]" for group in groups])
    elif shape == "layoff":
        args = f"{draw(st.sampled_from(CARDS))} on {draw(st.sampled_from(['P1#1', 'P2#1', 'P2#2', 'P3#1', 'P1']))}"
    else:
        args = " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=6)))
    return f"{player} {verb} {args}"


@fuzz_settings(120)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1), st.integers(0, 60), action_texts())
def test_actions_from_the_notation_are_played_or_refused_cleanly(variant: str, seed: int, steps: int,
                                                                  text: str) -> None:
    action_target(action_input(variant, seed, steps, text))


SUITE_ACTIONS = [action_input(variant, 0, 0, text) for variant, text in actions()]


@fuzz_settings(80)
@given(mutated(SUITE_ACTIONS, [b" ", b"[", b"]", b"P2 ", b"#1", b" on ", b"stock", b"7H", b"*", b"\n", b"0",
                               b"9"]))
def test_edited_suite_actions_are_played_or_refused_cleanly(data: bytes) -> None:
    action_target(data)


@fuzz_settings(40)
@given(st.sampled_from(VARIANTS), st.integers(0, 99), st.text(max_size=40))
def test_random_text_is_refused_cleanly(variant: str, steps: int, text: str) -> None:
    action_target(action_input(variant, steps, steps, text))
