"""What the part searches of one solver share (rummydsl/melds/partstates.py), and the knock
question asked of the parts once (``melds.discards.parts_knock``).

Every part search of a solver reads and writes one table of states
(``WildWindows.states``): a state's least deadwood is taken to depend on its cards and
wild cards alone, whatever part it was met in. Parts grown card by card, asked with
more and fewer wild cards, in renamed suits, on one solver, are held to the general
search itself; every state the table holds afterwards is held to a search of that state
alone, with a memo of its own (a state of a part's shape moved down by some ranks, with the
values of the cards that many ranks higher, to those cards too). A part's placing (its suit pattern, the suits' order and
places) is held to its definition. The knock question asked once
(``parts_knock``: the least deadwood and, unless a discard cannot bring it within the
limit, the discards that do) is held to the general search of the whole hand without
each card.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Card
from rummydsl.melds import MeldRules
from rummydsl.melds.discards import parts_knock
from rummydsl.melds.partsearch import part_search
from rummydsl.melds.partshapes import values_at
from rummydsl.melds.partstates import Placings
from rummydsl.melds.search import HandSearch
from rummydsl.melds.wildwindows import WILDS_MOST, WildWindows, windows_of
from rummydsl.variant import load_variant

from wild_decks import solver

NAMES = ("ginski", "skarney_wild", "two_packs_wild")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def searched(rules: MeldRules, hand: list[Card]) -> int:
    """The least deadwood of ``hand`` by the general search of the whole hand."""
    search = HandSearch(rules, hand, (), False)
    return int(search.plain().cost // search.deadwood_unit)


@SETTINGS
@given(st.data(), st.sampled_from(NAMES))
def test_parts_grown_card_by_card_share_their_states(data: Any, name: str) -> None:
    ww = WildWindows(solver(name))  # a solver's windows of their own: the table starts empty
    core = ww.core
    naturals = [c for c in core.deck.cards if not c.wild]
    low = data.draw(st.integers(1, 8))
    suits = data.draw(st.lists(st.integers(0, len(core.deck.suits) - 1), min_size=1, max_size=3, unique=True))
    pool = [c for c in naturals if c.rank is not None and low <= c.rank.order <= low + 5
            and c.suit is not None and c.suit.index in suits]
    order = data.draw(st.permutations(pool))[:9]
    most = min(WILDS_MOST, len(core._wild_cards))
    part = 0
    for card in order:  # each part the last grown by a card, with any number of wild cards
        part |= 1 << card.id
        w = data.draw(st.integers(0, most))
        assert ww._search(part, w, True) == ww._hand_search(part, w, True)
        if data.draw(st.booleans()):  # a discard: a state of the part, perhaps met before
            rest = part ^ 1 << data.draw(st.sampled_from(order[:order.index(card) + 1])).id
            if rest:
                assert ww.searched(part, w)[1](rest, w) == ww._hand_search(rest, w, True)[0][w]
    assert ww.states
    shift = core._size
    for key in random.Random(len(ww.states)).sample(sorted(ww.states), min(25, len(ww.states))):
        # a state of a shape moved down by d ranks (rummydsl/melds/partshapes.py) is its
        # cards worth the cards d ranks higher; d = 0 for the cards themselves
        mask, wilds, d = key & ((1 << shift) - 1), key >> shift & 7, key >> shift + 3
        assert not d or ww.shapes is not None and ww.shapes.moves
        values = values_at(core, ww.shapes.ranks, d) if d and ww.shapes else None
        alone = part_search(core, mask, wilds, ww._pools, values=values)  # a memo of its own
        assert ww.states[key] == alone(mask, wilds), (mask, wilds, d)
        if d:  # the same as the cards d ranks higher themselves
            assert ww.states[key] == part_search(core, mask << d, wilds, ww._pools)(mask << d, wilds)


@SETTINGS
@given(st.data())
def test_a_placing_is_the_sorted_rank_masks(data: Any) -> None:
    suits = data.draw(st.integers(1, 6))
    ranks = data.draw(st.integers(1, 14))
    part = data.draw(st.integers(0, (1 << suits * ranks) - 1))
    pattern, order, place = Placings(suits, ranks)(part)
    full = (1 << ranks) - 1
    masks = [part >> s * ranks & full for s in range(suits)]
    assert sorted(order) == list(range(suits))
    assert [masks[s] for s in order] == sorted(masks, reverse=True)
    assert all(order[place[s]] == s for s in range(suits))
    assert pattern == sum(masks[s] << i * ranks for i, s in enumerate(order))
    ties = [s for s in order if masks[s] == masks[order[0]]]
    assert ties == sorted(ties)  # equal masks keep the suits' order (a part's pattern is one)


def draw_hand(rules: MeldRules, data: Any) -> list[Card]:
    """Eight to eleven cards of close ranks in few suits, one to four wild."""
    deck = rules.deck
    naturals = [c for c in deck.cards if not c.wild]
    wilds = [c for c in deck.cards if c.wild]
    size = data.draw(st.integers(8, 11))
    w = data.draw(st.integers(1, min(WILDS_MOST, len(wilds))))
    suits = data.draw(st.integers(1, len(deck.suits)))
    start = data.draw(st.integers(1, 9))
    pool = [c for c in naturals if c.suit is not None and c.suit.index < suits
            and c.rank is not None and start <= c.rank.order <= start + 5]
    return list(data.draw(st.permutations(pool))[:size - w]) + list(data.draw(st.permutations(wilds))[:w])


@SETTINGS
@given(st.data(), st.sampled_from(NAMES))
def test_the_knock_asked_once_is_the_general_searchs(data: Any, name: str) -> None:
    rules = solver(name)
    windows = windows_of(rules)
    assert windows is not None
    hand = draw_hand(rules, data)
    for _ in range(3):  # a hand, then the same changed by a card at a time
        mask = sum(1 << c.id for c in hand)
        limit = data.draw(st.integers(0, 40))
        reach = data.draw(st.sampled_from([0, 5, 10, 20, 1 << 62]))
        asked = parts_knock(rules, mask, limit, reach)
        assert asked is not None
        whole, within, wild = asked
        least = searched(rules, hand)
        assert whole == least
        if least - reach > limit:
            assert within is None and wild is False
        else:
            assert within == {c.id for c in hand if not c.wild
                              and searched(rules, [d for d in hand if d is not c]) <= limit}
            dropped = next(c for c in hand if c.wild)
            assert wild == (searched(rules, [d for d in hand if d is not dropped]) <= limit)
        rest = [c for c in rules.deck.cards if c not in hand and not c.wild]
        hand = hand + [data.draw(st.sampled_from(rest))]
        hand.remove(data.draw(st.sampled_from(hand)))
        if not any(c.wild for c in hand):
            break


def test_no_wild_card_or_too_many_is_not_asked() -> None:
    rules = MeldRules.from_variant(load_variant("ginski"))
    plain = sum(1 << c.id for c in rules.deck.parse_cards("3R 4R 5R 9B 9G"))
    wilds = [c for c in rules.deck.cards if c.wild]
    assert parts_knock(rules, plain, 10, 10) is None
    assert parts_knock(rules, sum(1 << c.id for c in wilds), 10, 10) is None
    assert parts_knock(rules, plain | sum(1 << c.id for c in wilds[:WILDS_MOST + 1]), 10, 10) is None
