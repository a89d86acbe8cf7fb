"""The meld listings as the whole search lists them (Contract Rummy's above all): the contract lay-downs
(a branch entered only when some collection of its shapes meets the contract) and
single melds (judged once a game, groups that fit no shape never judged) are the
lists, in the same order, of the plain search over every group of the hand."""

from __future__ import annotations

import itertools
import random
from typing import Iterator

import pytest

from rummydsl.agents import GreedyAgent, RandomAgent
from rummydsl.cards import Card
from rummydsl.engine import Observation, Round
from rummydsl.engine.actions import Meld
from rummydsl.engine.mechanics import contractlist
from rummydsl.engine.mechanics import meldlist as melding
from rummydsl.engine.state import Phase
from rummydsl.expr.facts import ContractFacts
from rummydsl.variant import load_variant


def _plain_single_melds(rnd: Round, hand: list[Card]) -> list[tuple[Card, ...]]:
    """Every group the listing proposes, judged by ``kinds_of`` (no memo, no shape test)."""
    real = melding._listing

    def plain(rnd: Round) -> melding._Listing:
        _memo, _test, low, families, _one_suit, _buckets = real(rnd)
        return {}, (lambda group: True), low, families, False, None

    melding._listing = plain
    try:
        return melding.single_melds(rnd, hand)
    finally:
        melding._listing = real


def _plain_contract_melds(rnd: Round, player: int,
                          singles: list[tuple[Card, ...]] | None = None) -> Iterator[Meld]:
    """The whole depth-first search over disjoint candidates, every branch entered
    (``singles``: :func:`_plain_single_melds` of the player's hand, if the caller has it)."""
    hand = rnd.hands[player]
    fewest, most, small, big = contractlist.contract_bounds(rnd, hand)
    if singles is None:
        singles = _plain_single_melds(rnd, hand)
    candidates = [g for g in singles if small <= len(g) <= big]
    kinds = [sorted(rnd.rules.kinds_of(g, hand=hand)) for g in candidates]
    masks = [sum(1 << c.id for c in g) for g in candidates]
    meets = rnd.rules.contract
    assert meets is not None
    listed: set[str] = set()

    def search(start: int, used: int, chosen: list[int]) -> Iterator[Meld]:
        if len(chosen) >= fewest and any(
                meets([(kind, candidates[i]) for kind, i in zip(choice, chosen)])
                for choice in itertools.product(*(kinds[i] for i in chosen))):
            meld = Meld(player, tuple(candidates[i] for i in chosen))
            if str(meld) not in listed:
                listed.add(str(meld))
                yield meld
        if len(chosen) == most:
            return
        for i in range(start, len(candidates)):
            if not masks[i] & used:
                chosen.append(i)
                yield from search(i + 1, used | masks[i], chosen)
                chosen.pop()

    yield from search(0, 0, [])


@pytest.mark.parametrize("deal", range(1, 8))
def test_contract_and_single_melds_are_the_whole_searchs(deal: int) -> None:
    variant = load_variant("contract_rummy")
    rng = random.Random(deal)
    compared = met = 0
    for number in range(2):
        rnd = Round.deal(variant, rng, dealer=0, players=4, number=deal)
        agents = [GreedyAgent() if (seat + number) % 2 else RandomAgent(random.Random(seat)) for seat in range(4)]
        while rnd.result is None and len(rnd.actions) < 250:
            player = rnd.to_move
            assert player is not None
            if rnd.phase is Phase.MELD and not rnd.met_contract[player]:
                hand = rnd.hands[player]
                listed = melding.single_melds(rnd, hand)
                plain = _plain_single_melds(rnd, hand)
                assert listed == plain
                got = list(contractlist._contract_melds(rnd, player))
                assert got == list(_plain_contract_melds(rnd, player, plain))
                compared += 1
                met += bool(got)
            rnd.apply(agents[player].act(Observation(rnd, player)))
    assert compared > 10 and met > 0


@pytest.mark.parametrize("variant_id", ["rummy", "rummy_500"])
def test_single_melds_are_the_whole_listings(variant_id: str) -> None:
    variant = load_variant(variant_id)
    rng = random.Random(4)
    compared = found = 0
    for number in range(3):
        rnd = Round.deal(variant, rng, dealer=0, players=2 + number)
        agent = RandomAgent(random.Random(number))
        while rnd.result is None and len(rnd.actions) < 300:
            player = rnd.to_move
            assert player is not None
            if rnd.phase is Phase.MELD:
                hand = rnd.hands[player]
                got = melding.single_melds(rnd, hand)
                assert got == _plain_single_melds(rnd, hand)
                compared += 1
                found += bool(got)
            rnd.apply(agent.act(Observation(rnd, player)))
    assert compared > 20 and found > 0


@pytest.mark.parametrize("house", ["", "deck: {preset: standard52, ace: both, wrap: false}\n",
                                   "deck: {preset: standard52, ace: low, wrap: false, wilds: 2}\n"])
def test_single_melds_of_meld_rich_hands_are_the_whole_listings(house: str, tmp_path: object) -> None:
    """Hands of two suits and a few ranks (long runs, sets, the ace both ways, wild
    cards), listed again and again as they change a card at a time, as play does."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    variant = load_variant("rummy")
    if house:
        path = tmp_path / "house.yaml"
        path.write_text(f"rummydsl: 1\nid: house\nname: house\nextends: rummy\n{house}", encoding="utf-8")
        variant = load_variant(str(path))
    rnd = Round.deal(variant, random.Random(1), dealer=0, players=2)
    rng = random.Random(22)
    cards = list(variant.deck.cards)
    found = 0
    for _ in range(40):
        suits = rng.sample(range(4), 2)
        low = rng.randrange(1, 9)
        pool = [c for c in cards if c.wild or (c.suit is not None and c.suit.index in suits and c.rank is not None
                                               and (low <= c.rank.order < low + 6 or c.rank.order == 1))]
        hand = rng.sample(pool, min(len(pool), rng.choice([4, 7, 10])))
        for _step in range(4):
            got = melding.single_melds(rnd, hand)
            assert got == _plain_single_melds(rnd, hand)
            found += len(got)
            hand = [*hand[1:], rng.choice([c for c in pool if c not in hand])]
    assert found > 100


def _random_hand(data: object, variant_id: str, deal: int, kinds: tuple[str, ...] = ("set", "run", "mixed"),
                 ) -> tuple[Round, list[Card]]:
    """A deal of ``variant_id`` whose first player holds a drawn hand: any cards of the
    deck; cards of two or three suits and a few ranks; or (most often) a few sets and
    runs (``kinds``, and perhaps one more of them: sets, runs of one suit, runs of mixed
    suits) with other cards, some
    of them wild cards and one card perhaps left out, where lay-downs are many or nearly
    there."""
    from hypothesis import strategies as st

    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(deal), dealer=0, players=variant.players, number=deal)
    cards = list(variant.deck.cards)
    naturals = [c for c in cards if not c.wild]
    wilds = [c for c in cards if c.wild]
    draw = data.draw  # type: ignore[attr-defined]
    mode = draw(st.sampled_from(["any", "few", "melds", "melds"]))
    if mode == "melds":
        hand: list[Card] = []
        for kind in [*kinds, *draw(st.lists(st.sampled_from(kinds), max_size=1))]:
            free = [c for c in naturals if c not in hand]
            if kind == "set":
                rank = draw(st.integers(1, 13))
                same = [c for c in free if c.rank is not None and c.rank.order == rank]
                hand += draw(st.permutations(same))[:draw(st.integers(2, 4))]
            else:  # a run (of one suit, or of mixed suits)
                start, length = draw(st.integers(1, 10)), draw(st.integers(3, 5))
                suit = draw(st.integers(0, 3))
                for order in range(start, min(start + length, 14)):
                    spot = [c for c in free if c.rank is not None and c.rank.order == order and c.suit is not None
                            and (c.suit.index == suit or (kind == "mixed" and draw(st.booleans())))]
                    hand += spot[:1]
        hand += draw(st.permutations([c for c in naturals if c not in hand]))[:draw(st.integers(0, 4))]
        hand = draw(st.permutations(hand))[:14]
        if hand and draw(st.booleans()):
            hand = hand[1:]  # a card short
        w = draw(st.integers(0, min(2, len(wilds), len(hand))))
        hand = hand[w:] + wilds[:w]  # wild cards in place of some
    else:
        size = draw(st.integers(6, 14))
        pool = naturals
        if mode == "few":
            suits = draw(st.sets(st.integers(0, 3), min_size=2, max_size=3))
            low = draw(st.integers(1, 8))
            pool = [c for c in naturals if c.suit is not None and c.suit.index in suits and c.rank is not None
                    and (low <= c.rank.order < low + 6 or c.rank.order == 1)]
        w = draw(st.integers(0, min(2, len(wilds))))
        hand = draw(st.permutations(pool))[:size - w] + wilds[:w]
    return rnd, draw(st.permutations(hand))


def _compare(rnd: Round, hand: list[Card]) -> bool:
    """The listing against the whole search on ``hand`` (the first player's); whether it lists any."""
    from hypothesis import assume

    from rummydsl.engine.mechanics import contractfit

    rnd.hands[0] = hand
    singles = _plain_single_melds(rnd, hand)
    assume(len(singles) <= 60)  # the whole search visits every collection of three
    want = list(_plain_contract_melds(rnd, 0, singles))
    contract = rnd.variant.contract
    assert contract is not None
    facts = contract.melds.facts
    assert isinstance(facts, ContractFacts)
    most = facts.max_melds or rnd.rules.contract_max_melds or 4
    if not contractfit.may_meet(rnd, hand, facts.min_melds, most, facts.min_size, facts.max_size or len(hand)):
        assert want == []  # the bound never rules out a hand that holds a lay-down
    assert list(contractlist._contract_melds(rnd, 0)) == want
    return bool(want)


#: The melds each Contract Rummy deal's hands are built from (CR-2: two sets; a set and a
#: run; two runs; three sets; two sets and a run; a set and two runs; three runs).
_CONTRACT_KINDS = {1: ("set", "set"), 2: ("set", "run"), 3: ("run", "run"), 4: ("set", "set", "set"),
                   5: ("set", "set", "run"), 6: ("set", "run", "run"), 7: ("run", "run", "run")}


@pytest.mark.parametrize("deal", range(1, 8))
def test_contract_rummy_lay_downs_of_random_hands_are_the_whole_searchs(deal: int) -> None:
    """Each of the seven contracts (CR-2), on random hands with up to two jokers."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    met = []

    @settings(max_examples=30, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(data=st.data())
    def check(data: object) -> None:
        met.append(_compare(*_random_hand(data, "contract_rummy", deal, _CONTRACT_KINDS[deal])))

    check()
    assert any(met) and not all(met)


def test_skarney_lay_downs_of_random_hands_are_the_whole_searchs() -> None:
    """Skarney Gin's contract of exactly three three-card melds (SK-5), on random hands."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    met = []

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(data=st.data())
    def check(data: object) -> None:
        met.append(_compare(*_random_hand(data, "skarney_gin", 1)))

    check()
    assert any(met) and not all(met)


@pytest.mark.parametrize("variant_id", ["contract_rummy", "rummy"])
def test_a_buckets_counts_by_position_are_those_by_levels(variant_id: str) -> None:
    """The count check's sequence bucket read a byte a position (``_bucket``) answers as
    the count by levels of held positions (``_bucket_by_levels``), for any counts and
    meld size; and a same-rank kind's counts read by byte tables answer as the loop."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import contractfit

    deck = load_variant(variant_id).deck
    orders = len(deck.ranks)

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(counts=st.lists(st.integers(0, 3), min_size=orders, max_size=orders), low=st.integers(1, 15))
    def check(counts: list[int], low: int) -> None:
        code = sum(count << (8 * order) for order, count in enumerate(counts, start=1))
        assert contractfit._bucket(deck, code, low) == contractfit._bucket_by_levels(deck, code, low)
        by_rank = bytes([0, *counts])
        assert contractfit._same_rank_natural(by_rank, low) == contractfit._same_rank_natural(list(by_rank), low)
        assert contractfit._same_rank_costs(by_rank, low) == contractfit._same_rank_costs(list(by_rank), low)

    check()


def test_the_count_checks_layout_counts_a_hand_as_its_cards() -> None:
    """The count check's one sum of a hand (``_Layout``): each suit's slice codes that
    suit's rank counts, the rank counts add the suits, and the top counts the wild cards."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import contractfit

    deck = load_variant("contract_rummy").deck
    layout = contractfit._layout(deck)

    @settings(max_examples=100, deadline=None, derandomize=True)
    @given(hand=st.lists(st.sampled_from(deck.cards), min_size=0, max_size=30, unique=True))
    def check(hand: list[Card]) -> None:
        total = sum(layout.codes[card.id] for card in hand)
        assert total >> layout.wild_shift == sum(card.wild for card in hand)
        suits = [total >> (layout.slot * suit) & layout.mask for suit in range(layout.suits)]
        want = [0] * layout.suits
        by_rank = [0] * (len(deck.ranks) + 1)
        for card in hand:
            if not card.wild:
                assert card.rank is not None and card.suit is not None
                want[card.suit.index] += 1 << (8 * card.rank.order)
                by_rank[card.rank.order] += 1
        assert suits == want
        assert list(layout.rank_counts(suits)) == by_rank

    check()


@pytest.mark.parametrize("variant_id", ["contract_rummy", "skarney_gin"])
def test_viable_groups_keep_every_group_a_shape_takes_in_order(variant_id: str) -> None:
    """A bucket's viable groups (grown by masks, size by size) are groups of
    ``bucket_groups`` in its order, and hold every one the shape test takes."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import meldbuckets

    variant = load_variant(variant_id)
    rnd = Round.deal(variant, random.Random(1), dealer=0, players=variant.players, number=1)
    may_form = melding._shape_test(rnd)
    naturals = [card for card in variant.deck.cards if not card.wild]
    wild = [card for card in variant.deck.cards if card.wild]

    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(bucket=st.lists(st.sampled_from(naturals), min_size=1, max_size=9, unique=True),
           wilds=st.integers(0, min(2, len(wild))), low=st.integers(1, 4))
    def check(bucket: list[Card], wilds: int, low: int) -> None:
        bucket.sort(key=lambda card: card.id)
        every = list(meldbuckets.bucket_groups(range(len(bucket)), wilds, low))
        viable = list(meldbuckets.viable_groups(rnd, bucket, wilds, low))
        at = {group: i for i, group in enumerate(every)}
        assert [at[group] for group in viable] == sorted(at[group] for group in viable)
        kept = set(viable)
        for places, extra in every:
            if may_form([*(bucket[i] for i in places), *wild[:extra]]):
                assert (places, extra) in kept

    check()


def test_the_disjointness_check_is_the_brute_force_one() -> None:
    """``_apart`` (a contract listing stops where its candidates hold no ``fewest``
    disjoint ones) answers as trying every choice of that many candidates: here those
    disjoint from ``used``, each candidate's later ones that share no card with it built
    from the masks as the listing builds them from its groups."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(masks=st.lists(st.integers(1, (1 << 12) - 1), max_size=9), need=st.integers(1, 4),
           used=st.integers(0, (1 << 12) - 1))
    def check(masks: list[int], need: int, used: int) -> None:
        want = any(all(not a & b for a, b in itertools.combinations([used, *chosen], 2))
                   for chosen in itertools.combinations(masks, need))
        after = [sum(1 << j for j in range(i + 1, len(masks)) if not masks[i] & masks[j]) for i in range(len(masks))]
        free = sum(1 << i for i, mask in enumerate(masks) if not mask & used)
        assert contractlist._apart(after, free, need) == want

    check()


def test_a_lay_down_built_by_its_slots_is_the_dataclasss() -> None:
    """``_meld`` (the contract listing's lay-downs, built by the slots) makes the action
    ``Meld(player, melds)`` makes: equal, alike in text and hash, and as frozen."""
    import dataclasses

    deck = load_variant("skarney_gin").deck
    groups = (deck.parse_cards("3S 4S 5S"), deck.parse_cards("7H 7D 7C"))
    built, plain = contractlist._meld(1, groups), Meld(1, groups)
    assert built == plain and hash(built) == hash(plain) and str(built) == str(plain)
    assert built.player == 1 and built.melds is groups
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.player = 0  # type: ignore[misc]


def test_skarney_lay_downs_of_hands_grown_card_by_card_are_a_fresh_listings() -> None:
    """The contract listing's candidates grown from the player's last listing
    (``contractgrown``: kept by the hand's cards, those it still holds and those with a
    card it gained) list what a listing with nothing kept lists, and what the whole
    search lists: a hand that gains a card or two, loses one, or is dealt anew, step by
    step as play changes it, for either player."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import contractgrown

    met = []

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(data=st.data())
    def check(data: object) -> None:
        rnd, hand = _random_hand(data, "skarney_gin", 1)
        draw = data.draw  # type: ignore[attr-defined]
        cards = list(rnd.variant.deck.cards)
        player = draw(st.integers(0, 1))
        contractgrown._LAST.clear()
        for step in range(draw(st.integers(1, 8))):
            change = draw(st.sampled_from(["gain", "gain", "gain two", "lose", "swap", "anew"]))
            free = [c for c in cards if c not in hand]
            if change == "anew":
                hand = draw(st.permutations(cards))[:draw(st.integers(9, 15))]
            else:
                if change in ("lose", "swap") and len(hand) > 9:
                    hand = [c for c in hand if c is not draw(st.sampled_from(hand))]
                if change != "lose":
                    hand = [*hand, *draw(st.permutations(free))[:2 if change == "gain two" else 1]]
            rnd.hands[player] = hand
            got = list(contractlist._contract_melds(rnd, player))
            kept_now = dict(contractgrown.kept(contractgrown._LAST, rnd.rules, 32, dict))
            contractgrown._LAST.clear()
            assert got == list(contractlist._contract_melds(rnd, player))  # nothing kept
            if step % 3 == 0 and len(singles := _plain_single_melds(rnd, hand)) <= 60:
                assert got == list(_plain_contract_melds(rnd, player, singles))
            contractgrown.kept(contractgrown._LAST, rnd.rules, 32, dict).update(kept_now)
            met.append(bool(got))

    check()
    assert any(met) and not all(met)


def _plain_touching(rnd: Round, table: object, mask: int, gained: int, small: int, big: int,
                    sequences: bool) -> list[tuple[object, ...]]:
    """``contractgrown._touching`` as the tenth pass wrote it: every product of the hand's
    cards in the windows through a gained card built, summed and judged at each listing."""
    from rummydsl.engine.mechanics.meldbuckets import face_codes

    naturals, ranks, spots, at, _odd, same_rank, _sequences = table  # type: ignore[misc]
    memo, may_form = melding._listing(rnd)[:2]
    faces = face_codes(rnd.variant.deck)

    def cards_of(bits: int) -> list[Card]:
        return [naturals[i] for i in range(bits.bit_length()) if bits >> i & 1]

    groups: list[tuple[tuple[Card, ...], int]] = []
    done = 0
    starts: set[int] = set()
    for cid in range(gained.bit_length()):
        if not gained >> cid & 1:
            continue
        if same_rank and not done >> cid & 1:
            same = ranks[cid] & mask
            done |= same
            cards = cards_of(same)
            for size in range(small, min(big, len(cards)) + 1):
                groups.extend((group, ranks[cid]) for group in itertools.combinations(cards, size))
        if sequences:
            for spot in spots[cid]:
                starts.update(range(max(spot - big + 1, 0), spot + 1))
    for start in sorted(starts):
        held = []
        for spot in range(start, min(start + big, len(at) - 1)):
            if not at[spot] & mask:
                break
            held.append(cards_of(at[spot] & mask))
            if len(held) >= small:
                groups.extend((group, -1 - start) for group in itertools.product(*held))
    out: list[tuple[object, ...]] = []
    seen: set[int] = set()
    for group, where in groups:
        ids = sum(1 << card.id for card in group)
        if ids & gained and ids not in seen and ids.bit_count() == len(group):
            seen.add(ids)
            kinds = melding._forms(memo, sum(faces[card.id] for card in group), group, may_form,
                                   rnd.rules.kinds_bits)
            if kinds:
                out.append((ids, group, kinds, where, len(group)))
    return out


@pytest.mark.parametrize("variant_id", ["skarney_gin", "contract_rummy"])
def test_the_grown_candidates_through_gained_cards_are_the_plain_products(variant_id: str) -> None:
    """``contractgrown._touching`` (the groups walked as bitmasks, each built and judged
    once, kept by its cards) lists what building every product of the hand's cards at each
    listing lists, in the same order: one deck with aces at both ends, and two packs (two
    cards a position); bounds of one size and of several, gained cards one or all."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import contractgrown

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def check(data: object) -> None:
        rnd, hand = _random_hand(data, variant_id, 1)
        draw = data.draw  # type: ignore[attr-defined]
        table = contractgrown._table(rnd)
        assert table is not None
        hand = [c for c in hand if not c.wild]
        mask = sum(1 << c.id for c in hand)
        ids = [c.id for c in hand]
        gained = sum(1 << i for i in draw(st.lists(st.sampled_from(ids), max_size=3))) if ids else 0
        if not gained or draw(st.booleans()):
            gained = mask
        small, big = draw(st.sampled_from([(3, 3), (3, 5), (3, 4), (3, 14)]))
        sequences = draw(st.booleans())
        if draw(st.booleans()):
            contractgrown._MET.clear()
        want = _plain_touching(rnd, table, mask, gained, small, big, sequences)
        assert contractgrown._touching(rnd, table, mask, gained, small, big, sequences) == want

    check()


def test_the_grown_candidates_disjointness_check_is_the_brute_force_one() -> None:
    """``contractgrown.holds_apart`` (an empty grown listing told from its candidates'
    cards: too few cards held, or no ``need`` of them disjoint) answers as trying every
    choice of that many candidates."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rummydsl.engine.mechanics import contractgrown

    @settings(max_examples=400, deadline=None)
    @given(masks=st.lists(st.integers(1, (1 << 12) - 1), max_size=10), need=st.integers(0, 4),
           least=st.integers(1, 3))
    def check(masks: list[int], need: int, least: int) -> None:
        masks = [mask for mask in masks if mask.bit_count() >= least]
        want = any(all(not a & b for a, b in itertools.combinations(chosen, 2))
                   for chosen in itertools.combinations(masks, need))
        assert contractgrown.holds_apart(masks, need, least) == want

    check()
