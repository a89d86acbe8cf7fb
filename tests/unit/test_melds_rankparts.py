"""A hand's parts read by ranks (rummydsl/melds/rankparts.py) are the parts its links make.

Under suit-blind kinds whose links are their ranks' (Skarney's sets, runs and poker
sequences), the rank windows read a hand's parts and their rank patterns from its card-id
mask's bytes and the ranks it holds; each is held here to the parts the cards' links
connect (:func:`~rummydsl.melds.rankmasks.connected_parts`) and to each part's pattern
read card by card, on random hands of one or two packs with the ace low, high or both.
Rules whose links read more than ranks, or a rank of two values, keep the links.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.expr import BOOL, INT, Context, Env, compile_expression
from rummydsl.melds import MeldRules
from rummydsl.melds.rankmasks import connected_parts
from rummydsl.melds.rankparts import RankParts, pieces_of
from rummydsl.melds.rankwindows import RankWindows

SKARNEY = {"set": "size in 3..4 and same(rank)", "run": "size >= 3 and same(suit) and consecutive(rank)",
           "poker": "size >= 3 and consecutive(rank) and not same(suit)"}
RANKS = "rank == A ? 15 : min(order, 10)"

#: (ace, packs)
DECKS = [("both", 1), ("low", 1), ("high", 1), ("both", 2)]

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _rules(ace: str, packs: int, melds: dict[str, str] = SKARNEY, values: str = RANKS) -> MeldRules:
    deck = Deck.from_spec({"preset": "standard52", "ace": ace, "packs": packs})
    if packs > 1:
        melds = {**melds, "set": "size >= 3 and same(rank)"}
    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    return MeldRules(deck, kinds, compile_expression(values, Env(Context.CARD, deck), INT))


@lru_cache(maxsize=None)
def windows(index: int) -> RankWindows:
    got = _rules(*DECKS[index])._windows()
    assert got and got.rank_classes is not None and got.rank_parts is not None
    return got


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_the_parts_by_ranks_are_the_linked_parts(index: int, data: Any) -> None:
    found = windows(index)
    assert found.rank_classes is not None and found.rank_parts is not None
    naturals = [c.id for c in found.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=0, max_size=24, unique=True))
    mask = sum(1 << cid for cid in ids)
    parts, keys = found.rank_parts.split(mask)
    totals = [found.rank_classes.pattern_value(key) for key in keys]
    assert sorted(parts) == sorted(connected_parts(mask, found.links))
    assert keys == [found.rank_classes.key(part) for part in parts]
    lowest = [min(min(found.core._positions[cid]) for cid in _ids(part)) for part in parts]
    assert lowest == sorted(lowest)  # by lowest sequence position
    assert found.parts(mask) == parts and found.part_keys(mask) == keys
    assert totals == [sum(found.core.values[cid] for cid in _ids(part)) for part in parts]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        out.append(mask & -mask)
        mask ^= out[-1]
    return out


def _ids(mask: int) -> list[int]:
    return [low.bit_length() - 1 for low in _bits(mask)]


def test_solvers_of_one_deck_share_the_pieces() -> None:
    one = _rules("both", 1)._windows()
    two = _rules("both", 1)._windows()
    assert one and two and one.rank_parts and two.rank_parts
    assert one.rank_parts.pieces is two.rank_parts.pieces
    assert len(one.rank_parts.pieces) == 1 << 13


def test_links_that_read_more_than_ranks_keep_the_links() -> None:
    found = windows(0)
    assert found.rank_classes is not None
    links = list(found.links)
    assert RankParts.build(found.core, links, found.rank_classes) is not None
    links[0] &= ~(1 << 13)  # AS no longer linked to AH: a link that reads the suits
    assert RankParts.build(found.core, links, found.rank_classes) is None
    # no set: the cards of a rank held alone are parts of their own
    no_sets = _rules("both", 1, {k: v for k, v in SKARNEY.items() if k != "set"})._windows()
    assert no_sets and no_sets.rank_classes is not None and no_sets.rank_parts is None
    # a rank of two values is two classes
    hearts = _rules("both", 1, values="suit == H ? 1 : min(order, 10)")._windows()
    assert hearts and hearts.rank_classes is not None and hearts.rank_parts is None


def test_pieces_join_what_links_join() -> None:
    # three classes in a row, 2-bit fields: 0 links 1, 1 links 2; class 3 alone
    links = [0b0011, 0b0111, 0b0110, 0b1000]
    columns = [1, 2, 4, 8]
    pieces = pieces_of(links, columns, 2)
    assert pieces[0b0101] == ((1, 0b11), (4, 0b11 << 4))
    assert pieces[0b1111] == ((7, 0b111111), (8, 0b11 << 6))
    assert pieces[0] == () and len(pieces) == 16


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_the_cards_by_chunks_are_the_cards_by_id(index: int, data: Any) -> None:
    found = windows(index)
    assert found.rank_parts is not None and found.rank_classes is not None
    naturals = [c.id for c in found.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=0, max_size=24, unique=True))
    mask = sum(1 << cid for cid in ids)
    assert found.rank_parts.cards_of(mask) == found.core._cards_of(mask)
    assert found.rank_parts.cards_of(mask) == found.core._cards_of(mask)  # kept chunks read again
    assert found.rank_classes.cards_of == found.rank_parts.cards_of  # the walk's meld cards read so too


def test_a_deck_by_suits_reads_a_suit_a_lookup() -> None:
    # one pack by suits: every suit's 13 ids one class each, one table shared by the four chunks
    one = windows(0).rank_parts
    assert one is not None and one.chunk == 13 and len(one.tables) == 4
    assert len({id(table) for table in one.tables}) == 1


@pytest.mark.parametrize("index", range(len(DECKS)))
@SETTINGS
@given(data=st.data())
def test_the_meldless_patterns_are_those_left_at_their_value(index: int, data: Any) -> None:
    # the walk's early exit: a pattern the search marks meldless has no meld that leaves
    # less than its whole value, and (no memo cleared) every such pattern it met is marked
    found = windows(index)
    classes = found.rank_classes
    assert classes is not None and classes.positive
    naturals = [c.id for c in found.core._cards if not c.wild]
    ids = data.draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=14, unique=True))
    mask = sum(1 << cid for cid in ids)
    for part, key in zip(found.parts(mask), found.part_keys(mask)):
        deadwood, melds, _kinds, unmatched = classes.walk_loose(part, key)
        value = sum(found.core.values[cid] for cid in _ids(part))
        assert classes.pattern_value(key) == value
        assert (key in classes.meldless) == (deadwood == value) == (not melds)
        assert not melds or unmatched != part
    for key, least in classes.least_memo.items():
        assert (key in classes.meldless) == (least == classes.pattern_value(key))
