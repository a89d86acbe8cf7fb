"""The action notation: every action prints to text that parses back to it, its repr
shows that text, and any string either parses or raises MalformedActionError."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummydsl.agents import make_agents
from rummydsl.engine import (Decline, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, Round, Take,
                             parse_action)
from rummydsl.errors import MalformedActionError
from rummydsl.variant import load_variant, shipped_variant_ids

GIN = load_variant("gin_rummy")
GINSKI = load_variant("ginski")


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_every_listed_action_round_trips(variant_id: str) -> None:
    """Each action listed during seeded random play prints to text that parses back to it
    (the same value, or with several copies of a face, one the round takes the same way)."""
    variant = load_variant(variant_id)
    rng = random.Random(3)
    agents = make_agents("random", variant.players, rng)
    seen = 0
    plural = variant.deck.packs > 1 or variant.deck.wilds > 1  # copies share one notation
    for hand in range(2):
        rnd = Round.deal(variant, rng, dealer=hand % variant.players)
        while rnd.result is None:
            for action in rnd.legal_actions():
                text = str(action)
                back = parse_action(text, variant.deck, variant.players)
                assert str(back) == text
                assert back == action or (plural and back in rnd.legal_actions())
                assert repr(action) == f"{type(action).__name__}({text!r})"
                seen += 1
            player = rnd.to_move
            assert player is not None
            from rummydsl.engine import Observation

            rnd.apply(agents[player].act(Observation(rnd, player)))
    assert seen > 20


@pytest.mark.parametrize(("text", "expected"), [
    ("P1 draw stock", Draw(0, "stock")),
    ("p2 DRAW Discard", Draw(1, "discard")),
    ("P1 pass", Pass(0)),
    ("P1 discard 10h", Discard(0, GIN.deck.parse_card("TH"))),
    ("P1 knock", Knock(0)),
    ("P1 knock KC", Knock(0, GIN.deck.parse_card("KC"))),
    ("P1 knock KC [5H 6H 7H] [9C 9D 9S]",
     Knock(0, GIN.deck.parse_card("KC"), (GIN.deck.parse_cards("5H 6H 7H"), GIN.deck.parse_cards("9C 9D 9S")))),
    ("P1 knock KC []", Knock(0, GIN.deck.parse_card("KC"), ())),
    ("P1 meld [3S 4S 5S]", Meld(0, (GIN.deck.parse_cards("3S 4S 5S"),))),
    ("P2 layoff 6S on P1#2", Layoff(1, GIN.deck.parse_card("6S"), 0, 1)),
    ("P1 offer 7H", Offer(0, GIN.deck.parse_card("7H"))),
    ("P2 take", Take(1)), ("P2 decline", Decline(1)), ("P1 done", Done(0)),
])
def test_parse(text: str, expected: object) -> None:
    assert parse_action(text, GIN.deck, 2) == expected


def test_a_knock_showing_no_melds_round_trips() -> None:
    """``Knock(p, KC, ())`` (no melds shown) is not ``Knock(p, KC)`` (the canonical melds)."""
    bare = Knock(0, GIN.deck.parse_card("KC"), ())
    assert str(bare) == "P1 knock KC []"
    assert parse_action(str(bare), GIN.deck, 2) == bare != Knock(0, GIN.deck.parse_card("KC"))


def test_rumski_notation_and_wilds() -> None:
    action = parse_action("P3 knock 13R [4R 5R 6R] [9G 9B *]", GINSKI.deck, 3)
    assert str(action) == "P3 knock 13R [4R 5R 6R] [9G 9B *]"


@pytest.mark.parametrize(("text", "fragment"), [
    ("P1 fly", "unknown verb 'fly'"),
    ("P1 drwa stock", "did you mean 'draw'?"),
    ("P3 draw stock", "expected a player P1 to P2"),
    ("P1 discard", "'discard' takes one card"),
    ("P1 discard 7Z", "unknown card '7Z'"),
    ("P1 take 7H", "'take' takes nothing after it"),
    ("P1 layoff 5H P2#1", "write 'layoff CARD on P2#1'"),
    ("P1 layoff 5H on P2", "expected a meld such as P2#1"),
    ("P1 knock KC [5H 6H", "a meld is not closed"),
    ("P1 knock KC 5H]", "outside the brackets"),
    ("P1 meld", "'meld' needs at least one meld"),
    ("P1 meld [5H [6H]]", "a '[' inside a meld"),
    ("P1 meld [] [5H 6H 7H]", "an empty meld"),
    ("P1 discard 7H 7H", "'discard' takes one card"),
    ("P1 meld [7H 7H 7H]", "duplicate card"),
    ("", "an action is 'PLAYER VERB ARGS'"),
])
def test_malformed(text: str, fragment: str) -> None:
    with pytest.raises(MalformedActionError) as caught:
        parse_action(text, GIN.deck, 2)
    assert fragment in str(caught.value)
    assert caught.value.action == text


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("P12 []#0123456789AKQJTSHDCRGBYdrawstockpilenfkmyuo*")), max_size=40))
def test_any_text_parses_or_is_malformed(text: str) -> None:
    try:
        action = parse_action(text, GINSKI.deck, 3)
    except MalformedActionError:
        return
    assert parse_action(str(action), GINSKI.deck, 3) == action
