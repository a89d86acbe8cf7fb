"""The deck tables are built once a process per deck, kinds and card values (issue 22:
a house rule that changes only the players rebuilt Contract Rummy's 165,855-meld table,
2.5 s, for every variant object)."""

from __future__ import annotations

from dataclasses import replace

from rummydsl.melds import MeldRules
from rummydsl.melds.decktable import TABLE_CACHE_SIZE, _TABLES
from rummydsl.variant import load_variant, with_players


def _table(variant):  # type: ignore[no-untyped-def]
    table = MeldRules.from_variant(variant)._deck_table()
    assert table
    return table


def test_variants_alike_in_deck_kinds_and_values_share_one_table() -> None:
    gin = load_variant("gin_rummy")
    first = _table(gin)
    again = _table(replace(gin, id="gin_house_rule"))  # another variant object, the same melds
    assert again is not first and again.by_lowest is first.by_lowest
    assert again.core is not first.core  # each solver keeps its own rules (contract, values)
    three = load_variant("gin_three_handed")
    assert _table(with_players(three, 3)).by_lowest is _table(with_players(three, 3)).by_lowest


def test_other_card_values_or_patterns_get_their_own_table() -> None:
    gin = load_variant("gin_rummy")
    base = _table(gin).by_lowest
    rules = MeldRules.from_variant(gin)
    values = [v + 1 for v in rules.values]
    other = MeldRules(gin.deck, rules.kinds, values)._deck_table()
    assert other and other.by_lowest is not base
    assert [[total for _, total, _ in melds] for melds in other.by_lowest] != \
        [[total for _, total, _ in melds] for melds in base]
    sets_only = MeldRules.from_variant(replace(gin, meld_kinds=gin.meld_kinds[:1]))._deck_table()
    assert sets_only and sets_only.by_lowest is not base


def test_python_predicates_are_not_shared_and_the_cache_is_bounded() -> None:
    gin = load_variant("gin_rummy")
    rules = MeldRules.from_variant(gin)
    kinds = {name: (lambda cards, p=p: p(cards)) for name, p in rules.kinds.items()}  # no source text
    shapes = dict(rules.shapes)  # the shapes read from the patterns, given by hand
    a = MeldRules(gin.deck, kinds, rules.values, shapes=shapes)._deck_table()
    b = MeldRules(gin.deck, kinds, rules.values, shapes=shapes)._deck_table()
    assert a and b and a.by_lowest is not b.by_lowest and a.by_lowest == b.by_lowest
    kept = dict(_TABLES)
    try:
        for extra in range(TABLE_CACHE_SIZE + 2):
            MeldRules(gin.deck, rules.kinds, [v + 100 + extra for v in rules.values])._deck_table()
        assert len(_TABLES) <= TABLE_CACHE_SIZE
    finally:  # the process's tables as they were: the tests after this one (Contract Rummy's 2 s table) keep them
        _TABLES.clear()
        _TABLES.update(kept)


def test_a_big_table_finds_the_melds_of_a_hand_from_its_groups_as_a_scan_would() -> None:
    import random

    from rummydsl.melds.decktable import BY_MASK_FROM

    contract = load_variant("contract_rummy")
    table = _table(contract)
    assert sum(map(len, table.by_lowest)) >= BY_MASK_FROM and table._by_mask is not None
    naturals = [c.id for c in contract.deck.cards if not c.wild]
    rng = random.Random(22)
    found = 0
    cards = {c.id: c for c in contract.deck.cards}
    for number in range(200):
        pool = naturals
        if number % 2:  # meld-rich: two suits, a window of five ranks (runs both packs long, sets)
            suits = rng.sample(range(4), 2)
            low = rng.randrange(1, 10)
            pool = [cid for cid in naturals if cards[cid].suit.index in suits  # type: ignore[union-attr]
                    and low <= cards[cid].rank.order < low + 5]  # type: ignore[union-attr]
        ids = rng.sample(pool, min(len(pool), rng.choice([6, 11, 16])))
        hand = sum(1 << cid for cid in ids)
        every = table.all_inside(hand, ids)
        scans = {}
        for cid in ids:
            scanned = scans[cid] = [meld for meld in table.by_lowest[cid] if meld[0] & hand == meld[0]]
            assert list(table.inside(cid, hand, ids)) == scanned
            assert every.get(cid, []) == scanned
            found += len(scanned)
        assert set(every) <= set(ids)
        for out in ids[:4]:  # hands inside the last one listed keep its melds of their cards
            less = [cid for cid in ids if cid != out]
            mask = hand & ~(1 << out)
            # the scan of the smaller hand: the hand's melds, less those holding the card left out
            assert table.all_inside(mask, less) == {
                cid: melds for cid in less if (melds := [meld for meld in scans[cid] if not meld[0] >> out & 1])}
    assert found > 1000  # the hands held melds to find
    gin = _table(load_variant("gin_rummy"))
    assert gin._by_mask is None  # a small table is scanned
