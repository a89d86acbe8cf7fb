"""The knock question of a hand with wild cards by its parts (``melds.discards.parts_discards``).

The knock listing asks, for a hand holding a wild card, which discards leave at most the
knock limit. The parts answer it searching only the discards whose value could (a discard
lowers the least deadwood by at most its value), and a part's discards only when one of
its cards is asked, from its search kept open since its least deadwood was asked, from
its suit pattern's, or from a new search. Every answer here is held to the general
search of the whole hand without the card, on one solver across each test's hands (so
the open searches, the kept patterns and the discards filled in later carry over), and
the engine's knock listing of random Ginski rounds to the same search card by card.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Card
from rummydsl.engine import Round
from rummydsl.engine.actions import Knock
from rummydsl.melds import MeldRules
from rummydsl.melds.discards import parts_discards
from rummydsl.melds.search import HandSearch
from rummydsl.melds.wildwindows import WILDS_MOST, windows_of
from rummydsl.variant import load_variant

from wild_decks import solver

NAMES = ("ginski", "skarney_wild", "two_packs_wild")


def searched(rules: MeldRules, hand: list[Card]) -> int:
    """The least deadwood of ``hand`` by the general search of the whole hand."""
    search = HandSearch(rules, hand, (), False)
    return int(search.plain().cost // search.deadwood_unit)


def draw_hand(rules: MeldRules, data: Any) -> list[Card]:
    """Eight to eleven cards of close ranks in few suits (parts big, melds overlapping), one to four wild."""
    deck = rules.deck
    naturals = [c for c in deck.cards if not c.wild]
    wilds = [c for c in deck.cards if c.wild]
    size = data.draw(st.integers(8, 11))
    w = data.draw(st.integers(1, min(WILDS_MOST, len(wilds))))
    suits = data.draw(st.integers(1, len(deck.suits)))
    start = data.draw(st.integers(1, 9))
    pool = [c for c in naturals if c.suit is not None and c.suit.index < suits
            and c.rank is not None and start <= c.rank.order <= start + 5]
    picked: list[Card] = data.draw(st.permutations(pool))[:size - w]
    chosen: list[Card] = data.draw(st.permutations(wilds))[:w]
    return list(picked) + chosen


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(NAMES))
def test_the_discards_within_a_limit_are_the_general_searchs(data: Any, name: str) -> None:
    rules = solver(name)
    windows = windows_of(rules)
    assert windows is not None
    hand = draw_hand(rules, data)
    for _ in range(4):  # a hand, then the same changed by a card at a time, perhaps in renamed suits
        natural = sum(1 << c.id for c in hand if not c.wild)
        w = sum(c.wild for c in hand)
        if natural and 1 <= w <= WILDS_MOST:
            if data.draw(st.booleans()):  # the least deadwood first (its search left open), as the listing asks
                assert windows.deadwood(natural, w) == searched(rules, hand)
            limit = data.draw(st.integers(0, 40))
            asked = parts_discards(rules, natural | sum(1 << c.id for c in hand if c.wild), limit)
            assert asked is not None
            within, wild = asked
            assert within == {c.id for c in hand if not c.wild
                              and searched(rules, [d for d in hand if d is not c]) <= limit}
            dropped = next(c for c in hand if c.wild)
            assert wild == (searched(rules, [d for d in hand if d is not dropped]) <= limit)
        if windows.grid is not None and data.draw(st.booleans()):  # the same in renamed suits: found by pattern
            suits, ranks = windows.grid
            order = data.draw(st.permutations(range(suits)))
            hand = [c if c.wild else rules.deck.cards[order[c.id // ranks] * ranks + c.id % ranks] for c in hand]
        rest = [c for c in rules.deck.cards if c not in hand and not c.wild]
        hand = hand + [data.draw(st.sampled_from(rest))]
        hand.remove(data.draw(st.sampled_from(hand)))


def test_the_knock_listing_of_random_rounds_is_the_general_searchs() -> None:
    """Random Ginski rounds (three and two seats): at every listing after a draw of a hand
    holding a wild card, the knocks listed are the discards (one card of each face, not the
    card taken) whose rest the general search leaves within the limit."""
    rng = random.Random(2205)
    asked = 0
    for players in (3, 2):
        variant = load_variant("ginski")
        for number in range(6):
            rnd = Round.deal(variant, rng, dealer=number % players, players=players)
            while rnd.result is None:
                player = rnd.to_move
                assert player is not None
                legal = rnd.legal_actions()
                hand = rnd.hands[player]
                if rnd.drawn and player == rnd.turn_player and any(c.wild for c in hand):
                    limit = rnd.knock_limit
                    assert limit is not None
                    taken = rnd.taken if rnd.forbid_taken else None
                    faces = rnd.distinct_faces([c for c in hand if c is not taken])
                    expected = {c.id for c in faces if searched(rnd.rules, [d for d in hand if d is not c]) <= limit}
                    assert {a.card.id for a in legal if isinstance(a, Knock) and a.card is not None} == expected
                    asked += 1
                rnd.apply(rng.choice(legal))
    assert asked > 50


def test_a_discard_asked_in_one_suit_answers_in_another() -> None:
    """Two hands of the same suit pattern asked their least deadwood first, then their
    discards in turn: the second reads the first's discards through its pattern (no new
    search), each card renamed back, and every answer is the general search's."""
    rules = MeldRules.from_variant(load_variant("ginski"))  # a fresh solver: nothing kept yet
    windows = windows_of(rules)
    assert windows is not None and windows.grid is not None
    first = list(rules.deck.parse_cards("3R 4R 6R 7R 9B 9G 11G 12G 5P *"))
    second = list(rules.deck.parse_cards("3B 4B 6B 7B 9G 9Y 11Y 12Y 5P *"))  # R->B, B->G, G->Y
    masks = [sum(1 << c.id for c in hand) for hand in (first, second)]
    for hand, mask in zip((first, second), masks):
        assert windows.deadwood(mask & rules._natural_mask, 1) == searched(rules, hand)
    for hand, mask in zip((first, second), masks):
        kept = {key: (vectors, dict(windows.pattern_each[key])) for key, vectors in windows.patterns.items()}
        opened = set(windows._open)
        asked = parts_discards(rules, mask, 40)  # every card asked
        assert asked is not None
        within, wild = asked
        left = {c.id: searched(rules, [d for d in hand if d is not c]) for c in hand}
        assert within == {cid for cid, deadwood in left.items() if deadwood <= 40 and not rules._cards[cid].wild}
        assert wild == (left[hand[-1].id] <= 40)
        if hand is second:  # the first's discards answered the second's: no search, the patterns gained nothing
            assert set(windows._open) == opened
            assert {key: (vectors, dict(windows.pattern_each[key])) for key, vectors in windows.patterns.items()} == kept
