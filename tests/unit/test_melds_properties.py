"""The meld solver against a plain brute-force reference (RULES.md C-5, C-6).

The reference lists every subset of the hand that forms a meld, then finds the
best packing by exhaustive search; it shares no code with rummydsl.melds. The
rules are written here as plain Python predicates (the wild-card semantics of
docs/language.md "melds"), and, where the expression compiler is installed, also
compiled from the variant pattern strings.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import Any, Callable, Iterator, NamedTuple, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummydsl.cards import Deck
from rummydsl.melds import KindShape, MeldRules

Pred = Callable[[Sequence[Any]], bool]

# --------------------------------------------------------------------------- plain rules


class Necessary(NamedTuple):
    """What every group of a kind meets, each a test that, once a group fails it, every
    group with more cards fails too: the reference skips the subsets that fail one for
    every kind, and the subsets containing them, without asking the predicates.

    Of a predicate below they are read off its text (:func:`needs`); of a compiled
    pattern, off its top-level ``and`` operands (:func:`necessary`), by what
    docs/language.md says of them: ``same(a)`` (the natural cards share ``a``),
    ``distinct(a)`` (no two natural cards share it), ``consecutive(rank)`` (the natural
    ranks are distinct), and a size at most a number."""

    most: int | None = None
    """The most cards (``None``: no bound read)."""
    same: tuple[str, ...] = ()
    """Attributes (``rank``, ``suit``, ``colour``) the natural cards share."""
    distinct: tuple[str, ...] = ()
    """Attributes no two natural cards share."""


def needs(pred: Pred, *, most: int | None = None, same: tuple[str, ...] = (),
          distinct: tuple[str, ...] = ()) -> Pred:
    """``pred``, marked with what its text says every group it accepts meets."""
    pred.necessary = Necessary(most, same, distinct)  # type: ignore[attr-defined]
    return pred


ATTRIBUTES: dict[str, Callable[[Any], Any]] = {
    "rank": lambda c: c.rank.order, "suit": lambda c: c.suit.index, "colour": lambda c: c.suit.colour}

_BOUND = re.compile(r"size\s*(?:in\s*\d+\s*\.\.\s*(\d+)|<=\s*(\d+)|<\s*(\d+)|==\s*(\d+))")
_CALL = re.compile(r"(same|distinct|consecutive)\((rank|suit|colour)\)")


def conjuncts(text: str) -> list[str] | None:
    """The top-level ``and`` operands of a pattern, or None where it has a top-level
    ``or`` or ``? :`` (spec/expr.lark: ``and`` binds looser than everything but those two)."""
    depth, start, parts = 0, 0, []
    for m in re.finditer(r"[()\[\]?]|\b(?:and|or)\b", text):
        token = m.group()
        if token in ("(", "["):
            depth += 1
        elif token in (")", "]"):
            depth -= 1
        elif depth == 0:
            if token != "and":
                return None
            parts.append(text[start:m.start()])
            start = m.end()
    parts.append(text[start:])
    return [part.strip() for part in parts]


def necessary(pred: Pred) -> Necessary:
    """What every group ``pred`` accepts meets: marked by :func:`needs`, read from a
    compiled pattern's text, else nothing (every subset is asked)."""
    marked = getattr(pred, "necessary", None)
    if marked is not None:
        return marked  # type: ignore[no-any-return]
    text = getattr(pred, "text", None)
    parts = conjuncts(text) if isinstance(text, str) else None
    if parts is None:
        return Necessary()
    most, same, distinct = None, [], []
    for part in parts:
        bound = _BOUND.fullmatch(part)
        if bound:
            a, b, c, d = bound.groups()
            top = int(a or b or d) if c is None else int(c) - 1
            most = top if most is None else min(most, top)
        call = _CALL.fullmatch(part)
        if call:
            fn, attribute = call.groups()
            (same if fn == "same" else distinct).append(attribute)
    return Necessary(most, tuple(same), tuple(distinct))


def kind_groups(kinds: dict[str, Pred], hand: Sequence[Any],
                base: Sequence[Any] = ()) -> list[tuple[int, tuple[Any, ...], list[Pred]]]:
    """Every non-empty subset of the hand that some kind may form: its bitmask over hand
    positions, ``base``'s cards then its own in hand order, and the kinds (predicates) it
    may form. That is every subset but those that fail one of each kind's
    :class:`Necessary` tests, found by adding cards in hand order and stopping where no
    kind is left (a group with more cards fails the same tests).

    A group's failures are a bitmask, ``2 * j`` for "the natural cards do not all share
    ``used[j]``" and ``2 * j + 1`` for "two natural cards share it", and each is a
    failure of a pair of natural cards: so a group's are the union of its pairs' (those
    of each card with the group's earlier cards, kept as one row a group as cards are
    added). The kinds still alive are a bitmask too, and what a failure kills or a size
    allows is looked up: the work a subset tried is a few integer operations."""
    preds = list(kinds.values())
    facts = [necessary(pred) for pred in preds]
    used = sorted({a for f in facts for a in (*f.same, *f.distinct)})
    kills = [sum(1 << 2 * used.index(a) for a in f.same) | sum(2 << 2 * used.index(a) for a in f.distinct)
             for f in facts]
    n = len(hand)
    most = [len(base) + n if f.most is None else f.most for f in facts]
    # the kinds a set of failures leaves alive, a bitmask over preds, for every set of failures
    lives = [sum(1 << k for k in range(len(preds)) if not bad & kills[k]) for bad in range(1 << 2 * len(used))]
    # the kinds that allow a group of each size, and the predicates of each set of kinds
    fits = [sum(1 << k for k in range(len(preds)) if size <= most[k]) for size in range(len(base) + n + 2)]
    chosen = [[preds[k] for k in range(len(preds)) if alive >> k & 1] for alive in range(1 << len(preds))]

    def read(card: Any) -> tuple[Any, ...] | None:
        return None if card.wild else tuple(ATTRIBUTES[a](card) for a in used)

    def pair(x: tuple[Any, ...] | None, y: tuple[Any, ...] | None) -> int:
        """The failures of two cards' values (none where either is wild)."""
        if x is None or y is None:
            return 0
        return sum((2 if u == v else 1) << 2 * j for j, (u, v) in enumerate(zip(x, y)))

    reads = [read(card) for card in hand]
    pairs = [[pair(x, y) for y in reads] for x in reads]
    out: list[tuple[int, tuple[Any, ...], list[Pred]]] = []

    def visit(start: int, mask: int, group: tuple[Any, ...], row: list[int], bad: int, alive: int) -> None:
        """``row[i]``: the failures card ``i`` makes with the group's cards."""
        fit = alive & fits[len(group) + 1]
        for i in range(start, n):
            left = fit & lives[bad | row[i]]
            if left:
                grown = group + (hand[i],)
                out.append((mask | 1 << i, grown, chosen[left]))
                if i + 1 < n:
                    visit(i + 1, mask | 1 << i, grown, [a | b for a, b in zip(row, pairs[i])], bad | row[i], left)

    base_reads = [read(card) for card in base]
    bad = 0
    for j, x in enumerate(base_reads):
        for y in base_reads[:j]:
            bad |= pair(x, y)
    row = [0] * n
    for x in base_reads:
        row = [r | pair(x, y) for r, y in zip(row, reads)]
    alive = fits[len(base)] & lives[bad]
    if alive:
        visit(0, 0, tuple(base), row, bad, alive)
    return out


def naturals(cards: Sequence[Any]) -> list[Any]:
    return [c for c in cards if not c.wild]


# The three tests below are loops that stop at the first card that settles them: the
# reference asks them of every subset of every hand, most of which fail early.


def same_rank(cards: Sequence[Any]) -> bool:
    """The natural cards share one rank."""
    rank = 0  # no rank yet (orders start at 1)
    for c in cards:
        if not c.wild:
            order = c.rank.order
            if order != rank:
                if rank:
                    return False
                rank = order
    return True


def same_suit(cards: Sequence[Any]) -> bool:
    """The natural cards share one suit."""
    suit = -1  # no suit yet (indices start at 0)
    for c in cards:
        if not c.wild:
            index = c.suit.index
            if index != suit:
                if suit >= 0:
                    return False
                suit = index
    return True


def consecutive(deck: Deck, cards: Sequence[Any]) -> bool:
    """Natural ranks distinct, and wilds can fill the gaps and ends inside the rank range."""
    size = len(cards)
    if size > len(deck.ranks):
        return False
    positions = _positions(deck)
    orders = set()
    places = []
    single = True
    for c in cards:
        if not c.wild:
            order = c.rank.order
            if order in orders:
                return False
            orders.add(order)
            place = positions[order]
            single = single and len(place) == 1
            places.append(place)
    if not places:
        return True
    if single:  # one position a rank: the one choice
        return max(places)[0] - min(places)[0] + 1 <= size
    for choice in itertools.product(*places):
        if max(choice) - min(choice) + 1 <= size:
            return True
    return False


def _positions(deck: Deck) -> dict[int, tuple[int, ...]]:
    """The deck's ``sequence_positions`` of each rank, by its order (read once a deck)."""
    kept = _POSITIONS.get(id(deck))
    if kept is None or kept[0] is not deck:
        kept = _POSITIONS[id(deck)] = (deck, {r.order: deck.sequence_positions(r) for r in deck.ranks})
    return kept[1]


_POSITIONS: dict[int, tuple[Deck, dict[int, tuple[int, ...]]]] = {}


def gin_kinds(deck: Deck) -> dict[str, Pred]:
    return {
        "set": needs(lambda cs: 3 <= len(cs) <= 4 and same_rank(cs), most=4, same=("rank",)),
        "run": needs(lambda cs: len(cs) >= 3 and same_suit(cs) and consecutive(deck, cs),
                     same=("suit",), distinct=("rank",)),
    }


def skarney_kinds(deck: Deck, poker: str = "not_all_same") -> dict[str, Pred]:
    kinds = gin_kinds(deck)
    if poker == "not_all_same":
        kinds["poker"] = needs(lambda cs: len(cs) >= 3 and consecutive(deck, cs) and not same_suit(cs),
                               distinct=("rank",))
    else:  # all_different
        kinds["poker"] = needs(lambda cs: (len(cs) >= 3 and consecutive(deck, cs)
                                           and len({c.suit.index for c in cs}) == len(cs)),
                               distinct=("rank", "suit"))
    return kinds


def ginski_kinds(deck: Deck) -> dict[str, Pred]:
    def has_natural(cs: Sequence[Any]) -> bool:
        return any(not c.wild for c in cs)

    def distinct_colours(cs: Sequence[Any]) -> bool:
        nat = naturals(cs)
        return len({c.suit.index for c in nat}) == len(nat)

    return {
        "run": needs(lambda cs: len(cs) >= 3 and has_natural(cs) and same_suit(cs) and consecutive(deck, cs),
                     same=("suit",), distinct=("rank",)),
        "set": needs(lambda cs: (3 <= len(cs) <= 5 and has_natural(cs) and same_rank(cs)
                                 and distinct_colours(cs)), most=5, same=("rank",), distinct=("suit",)),
    }


GIN_SHAPES = {"set": KindShape("same_rank", 3, 4), "run": KindShape("sequence", 3, same_suit=True)}
SKARNEY_SHAPES = {**GIN_SHAPES, "poker": KindShape("sequence", 3)}
GINSKI_SHAPES = {"set": KindShape("same_rank", 3, 5), "run": KindShape("sequence", 3, same_suit=True)}

STANDARD = Deck.preset("standard52")
SKARNEY_DECK = Deck.from_spec({"preset": "standard52", "ace": "both"})
RUMSKI = Deck.preset("rumski70")


def gin_value(card: Any) -> int:
    return min(card.rank.order, 10)


def skarney_value(card: Any) -> int:
    return 15 if card.rank.order == 1 else min(card.rank.order, 10)


def ginski_value(card: Any) -> int:
    return 25 if card.wild else card.rank.order


def three_by_three(melds: Sequence[tuple[str, Sequence[Any]]]) -> bool:
    """The Skarney Gin contract: exactly three melds of exactly three cards (SK-5.2)."""
    return len(melds) == 3 and all(len(cards) == 3 for _, cards in melds)


def make(name: str, *, shapes: bool = True, **kw: Any) -> tuple[MeldRules, dict[str, Pred], Callable[[Any], int]]:
    if name == "gin":
        deck, kinds, value, sh = STANDARD, gin_kinds(STANDARD), gin_value, GIN_SHAPES
    elif name == "skarney":
        deck, kinds, value, sh = SKARNEY_DECK, skarney_kinds(SKARNEY_DECK), skarney_value, SKARNEY_SHAPES
    else:
        deck, kinds, value, sh = RUMSKI, ginski_kinds(RUMSKI), ginski_value, GINSKI_SHAPES
    rules = MeldRules(deck, kinds, value, shapes=sh if shapes else None, **kw)
    return rules, kinds, value


GIN, GIN_KINDS, _ = make("gin")
SKARNEY, SKARNEY_KINDS, _ = make("skarney")
SKARNEY_C, _, _ = make("skarney", contract=three_by_three, contract_max_melds=3)
GINSKI, GINSKI_KINDS, _ = make("ginski")
VALUES = {"gin": gin_value, "skarney": skarney_value, "ginski": ginski_value}
KINDS = {"gin": GIN_KINDS, "skarney": SKARNEY_KINDS, "ginski": GINSKI_KINDS}

# --------------------------------------------------------------------------- reference


def lowest_index(groups: Sequence[Any], n: int) -> list[list[Any]]:
    """Groups of hand positions (bitmasks, or tuples that start with one) by their lowest
    position: a search that takes the lowest card of what is left looks only there."""
    out: list[list[Any]] = [[] for _ in range(n)]
    for group in groups:
        mask = group if isinstance(group, int) else group[0]
        out[(mask & -mask).bit_length() - 1].append(group)
    return out


def subsets(hand: Sequence[Any]) -> Iterator[tuple[int, tuple[Any, ...]]]:
    """Every non-empty subset of the hand: its bitmask over hand positions and its cards
    in hand order, the smaller subsets first (each size's subsets as
    ``itertools.combinations`` lists them, the masks summed from the same positions)."""
    bits = [1 << i for i in range(len(hand))]
    for size in range(1, len(hand) + 1):
        yield from zip(map(sum, itertools.combinations(bits, size)), itertools.combinations(hand, size))


def brute_melds(kinds: dict[str, Pred], hand: Sequence[Any]) -> list[int]:
    """Every subset of the hand (as a bitmask over hand positions, in increasing order)
    that forms some kind (a compiled pattern asked through its bare closure, the same
    function): each of :func:`kind_groups` asked of every kind."""
    out = []
    bare = {id(pred): getattr(pred, "fn", pred) for pred in kinds.values()}
    for mask, group, could in kind_groups(kinds, hand):
        for pred in could:
            if bare[id(pred)](group):
                out.append(mask)
                break
    out.sort()
    return out


def test_the_reference_skips_only_groups_no_kind_forms() -> None:
    """:func:`kind_groups` (with a table meld's cards first, too) finds every subset that
    :func:`subsets` finds some kind to form, on seeded hands of every kind set below
    and every shipped variant's compiled patterns, wild cards where the deck has them."""
    import random

    rng = random.Random(9)
    sets = [(GIN_KINDS, STANDARD), (SKARNEY_KINDS, SKARNEY_DECK), (skarney_kinds(SKARNEY_DECK, "all_different"),
            SKARNEY_DECK), (GINSKI_KINDS, RUMSKI), *((TABLE_RULES[n][1], TABLE_RULES[n][0].deck) for n in TABLE_NAMES),
            *((shipped(v)[2], shipped(v)[0].deck) for v in shipped_variant_ids())]
    for kinds, deck in sets:
        preds = list(kinds.values())
        for rich in (False, True):
            pool = [c for c in deck.cards if not c.wild]
            if rich:
                low = rng.randint(1, 9)
                pool = [c for c in pool if low <= c.rank.order < low + 4]
            wilds = [c for c in deck.cards if c.wild][:rng.randint(0, 2)]
            hand = rng.sample(pool, 10 - len(wilds)) + wilds
            table = [c for c in rng.sample(pool, 2) if c not in hand]
            for base in ((), tuple(table)):
                every = sorted(m for m, g in subsets(hand) if any(p((*base, *g)) for p in preds))
                assert sorted(m for m, g, could in kind_groups(kinds, hand, base) if any(p(g) for p in could)) == every


def brute_packing(kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any]) -> Callable[[int], int]:
    """The least deadwood of any part of the hand (a bitmask over hand positions), by
    exhaustive search over packings of the meld subsets of the whole hand.

    The melds of a part are the hand's melds inside it (a subset of the part is the same
    cards in the same order as that subset of the hand), so one listing serves every
    part: the hand, the hand less each discard, what a contract leaves. The last
    hand's answer is kept (a test asks of one hand its best and its best discard)."""
    kept = _LAST_PACKING[:3]
    if len(kept) == 3 and kept[0] is kinds and kept[1] is value and kept[2] == tuple(hand):
        return _LAST_PACKING[3]  # type: ignore[no-any-return]
    melds = brute_melds(kinds, hand)
    vals = [value(c) for c in hand]
    by_lowest = lowest_index(melds, len(hand))

    @lru_cache(maxsize=None)
    def best(mask: int) -> int:
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        result = vals[i] + best(mask & ~(1 << i))
        for m in by_lowest[i]:  # every meld holding card i and inside the part starts at i
            if m & mask == m:
                result = min(result, best(mask & ~m))
        return result

    best.melds = melds  # type: ignore[attr-defined]
    _LAST_PACKING[:] = [kinds, value, tuple(hand), best]
    return best


_LAST_PACKING: list[Any] = []


def brute_best(kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any]) -> int:
    """The least deadwood by exhaustive search over packings of the meld subsets."""
    return brute_packing(kinds, value, hand)((1 << len(hand)) - 1)


def brute_discard(kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any]) -> tuple[Any, int]:
    """One brute-force solve per discard; ties to the highest value, then highest id."""
    best = brute_packing(kinds, value, hand)
    whole = (1 << len(hand)) - 1
    results = []
    for i, card in enumerate(hand):
        results.append((best(whole & ~(1 << i)), -value(card), -card.id, card))
    after, _, _, card = min(results, key=lambda r: r[:3])
    return card, after


def brute_contract(kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any],
                   contract: Callable[..., bool]) -> int | None:
    """Least deadwood of the cards left after some collection of disjoint melds that meets the contract."""
    packing = brute_packing(kinds, value, hand)
    melds: list[int] = packing.melds  # type: ignore[attr-defined]
    n = len(hand)
    best: int | None = None
    for count in range(1, n // 3 + 1):
        for combo in itertools.combinations(melds, count):
            union = 0
            ok = True
            for m in combo:
                if union & m:
                    ok = False
                    break
                union |= m
            if not ok:
                continue
            groups = [[hand[i] for i in range(n) if m >> i & 1] for m in combo]
            names = [[k for k, p in kinds.items() if p(g)] for g in groups]
            if not any(contract(list(zip(pick, groups))) for pick in itertools.product(*names)):
                continue
            d = packing(((1 << n) - 1) & ~union)  # the least deadwood of the cards left
            best = d if best is None else min(best, d)
    return best


# --------------------------------------------------------------------------- hands


def uniform_hands(deck: Deck, size: int) -> st.SearchStrategy[list[Any]]:
    naturals_ = [c for c in deck.cards if not c.wild]
    return st.permutations(naturals_).map(lambda p: list(p[:size]))


def rich_hands(deck: Deck, size: int, width: int = 5) -> st.SearchStrategy[list[Any]]:
    """Cards from a narrow window of ranks: many overlapping melds."""
    n = len(deck.ranks)

    def window(lo: int) -> st.SearchStrategy[list[Any]]:
        pool = [c for c in deck.cards if not c.wild and lo <= c.rank.order < lo + width]
        return st.permutations(pool).map(lambda p: list(p[:size]))

    return st.integers(1, n - width + 1).flatmap(window)


def wild_hands(size: int, rich: bool) -> st.SearchStrategy[list[Any]]:
    wilds = [c for c in RUMSKI.cards if c.wild]
    base = rich_hands(RUMSKI, size, width=4) if rich else uniform_hands(RUMSKI, size)
    return st.tuples(base, st.integers(0, 3)).map(lambda t: t[0][: size - t[1]] + wilds[: t[1]])


FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_arrangement(rules: MeldRules, hand: Sequence[Any], arrangement: Any, discard: bool = False) -> None:
    """The arrangement itself is legal and adds up (C-5: melds never overlap)."""
    used = [c for meld in arrangement.melds for c in meld] + list(arrangement.unmatched)
    if discard:
        used.append(arrangement.discard)
    assert sorted(c.id for c in used) == sorted(c.id for c in hand)
    for meld, kinds in zip(arrangement.melds, arrangement.kinds):
        assert kinds and rules.kinds_of(meld) == kinds
    assert arrangement.deadwood == sum(rules.values[c.id] for c in arrangement.unmatched)


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("name", ["gin", "skarney"])
@FEW
@given(data=st.data())
def test_least_deadwood_matches_brute_force(name: str, rich: bool, size: int, data: st.DataObject) -> None:
    rules = {"gin": GIN, "skarney": SKARNEY}[name]
    hand = data.draw(rich_hands(rules.deck, size) if rich else uniform_hands(rules.deck, size))
    best = rules.solve(hand)
    assert best.deadwood == brute_best(KINDS[name], VALUES[name], hand)
    assert rules.min_deadwood(hand) == best.deadwood
    check_arrangement(rules, hand, best)


@pytest.mark.parametrize("name", ["gin", "skarney"])
@SLOW
@given(data=st.data())
def test_fourteen_card_hands(name: str, data: st.DataObject) -> None:
    rules = {"gin": GIN, "skarney": SKARNEY}[name]
    hand = data.draw(rich_hands(rules.deck, 14))
    assert rules.solve(hand).deadwood == brute_best(KINDS[name], VALUES[name], hand)


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("rich", [False, True])
@SOME
@given(data=st.data())
def test_ginski_with_wilds_matches_brute_force(rich: bool, size: int, data: st.DataObject) -> None:
    hand = data.draw(wild_hands(size, rich))
    best = GINSKI.solve(hand)
    assert best.deadwood == brute_best(GINSKI_KINDS, ginski_value, hand)
    check_arrangement(GINSKI, hand, best)


@SLOW
@given(data=st.data())
def test_ginski_fourteen_cards_with_wilds(data: st.DataObject) -> None:
    hand = data.draw(wild_hands(14, rich=True))
    assert GINSKI.solve(hand).deadwood == brute_best(GINSKI_KINDS, ginski_value, hand)


@pytest.mark.parametrize("name", ["gin", "skarney", "ginski"])
@pytest.mark.parametrize("rich", [False, True])
@FEW
@given(data=st.data())
def test_best_discard_matches_brute_force(name: str, rich: bool, data: st.DataObject) -> None:
    rules = {"gin": GIN, "skarney": SKARNEY, "ginski": GINSKI}[name]
    if name == "ginski":
        hand = data.draw(wild_hands(11, rich))
    else:
        hand = data.draw(rich_hands(rules.deck, 11) if rich else uniform_hands(rules.deck, 11))
    card, after = rules.best_discard(hand)
    ref_card, ref_after = brute_discard(KINDS[name], VALUES[name], hand)
    assert after == ref_after
    if not (card.wild and ref_card.wild):  # wild cards are interchangeable
        assert card == ref_card
    arrangement = rules.solve_discard(hand)
    check_arrangement(rules, hand, arrangement, discard=True)
    assert rules.min_deadwood(hand, discard=True) == after


@pytest.mark.parametrize("rich", [False, True])
@SOME
@given(data=st.data())
def test_skarney_contract_matches_brute_force(rich: bool, data: st.DataObject) -> None:
    deck = SKARNEY_DECK
    hand = data.draw(rich_hands(deck, 10, width=4) if rich else uniform_hands(deck, 10))
    ref = brute_contract(SKARNEY_KINDS, skarney_value, hand, three_by_three)
    assert SKARNEY_C.holds_contract(hand) == (ref is not None)
    got = SKARNEY_C.solve(hand, contract=True)
    assert got.contract == (ref is not None)
    if ref is not None:
        assert got.deadwood == ref
        assert len(got.contract_melds) == 3 and all(len(m) == 3 for m in got.contract_melds)


@SOME
@given(data=st.data())
def test_unknown_shapes_give_the_same_answers(data: st.DataObject) -> None:
    """Without shape hints every subset is tried: slower, the same minimum."""
    hand = data.draw(rich_hands(STANDARD, 10))
    plain, _, _ = make("gin", shapes=False)
    assert plain.solve(hand).deadwood == GIN.solve(hand).deadwood


@FEW
@given(data=st.data())
def test_concealed_melds_counted(data: st.DataObject) -> None:
    """SK-10.1 with excludes false: every card left in hand counts."""
    rules, _, value = make("skarney", excludes_concealed_melds=False)
    hand = data.draw(rich_hands(SKARNEY_DECK, 11))
    assert rules.solve(hand).deadwood == sum(value(c) for c in hand)


# --------------------------------------------------------------------------- compiled patterns


def compiled(deck: Deck, melds: dict[str, str], value: str) -> MeldRules:
    from rummydsl.expr import BOOL, INT, Context, Env, compile_expression

    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    return MeldRules(deck, kinds, compile_expression(value, Env(Context.CARD, deck), INT))


PATTERNS = {
    "gin": (STANDARD, {"set": "size in 3..4 and same(rank)",
                       "run": "size >= 3 and same(suit) and consecutive(rank)"}, "min(order, 10)"),
    "skarney": (SKARNEY_DECK, {"set": "size in 3..4 and same(rank)",
                               "run": "size >= 3 and same(suit) and consecutive(rank)",
                               "poker": "size >= 3 and consecutive(rank) and not same(suit)"},
                "rank == A ? 15 : min(order, 10)"),
    "ginski": (RUMSKI, {"run": "size >= 3 and naturals >= 1 and same(suit) and consecutive(rank)",
                        "set": "size in 3..5 and naturals >= 1 and same(rank) and distinct(suit)"},
               "wild ? 25 : order"),
}


@pytest.mark.parametrize("name", ["gin", "skarney", "ginski"])
@FEW
@given(data=st.data())
def test_compiled_patterns_agree_with_plain_rules(name: str, data: st.DataObject) -> None:
    """The solver gives the same answers from the pattern strings (shapes read from the AST)."""
    pytest.importorskip("rummydsl.expr")
    deck, melds, value = PATTERNS[name]
    rules = _COMPILED.get(name)
    if rules is None:  # compiled once a process (setdefault compiled them again at every example)
        rules = _COMPILED[name] = compiled(deck, melds, value)
    plain = {"gin": GIN, "skarney": SKARNEY, "ginski": GINSKI}[name]
    hand = data.draw(wild_hands(11, True) if name == "ginski" else rich_hands(deck, 11))
    assert rules.solve(hand).deadwood == plain.solve(hand).deadwood
    assert rules.best_discard(hand)[1] == plain.best_discard(hand)[1]


_COMPILED: dict[str, MeldRules] = {}


# --------------------------------------------------------------------------- the per-suit table path

# Rules whose melds split into same-suit runs and same-rank sets, for hands without
# wild cards, go through rummydsl.melds.suittables; these check that path against the
# brute-force reference and against the general search, on several deck and size
# rules (ace both, wrap, five suits, pairs that let one rank hold two sets).

WRAP_DECK = Deck.from_spec({"preset": "standard52", "wrap": True})


def table_rules(name: str, **kw: Any) -> tuple[MeldRules, dict[str, Pred], Callable[[Any], int]]:
    if name == "gin":
        return make("gin", **kw)
    if name == "ginski":
        return make("ginski", **kw)
    if name == "ace_both":
        deck, value = SKARNEY_DECK, skarney_value
        kinds, shapes = gin_kinds(deck), GIN_SHAPES
    elif name == "wrap":
        deck, value = WRAP_DECK, gin_value
        kinds, shapes = gin_kinds(deck), GIN_SHAPES
    elif name == "pairs_short_runs":
        deck, value = STANDARD, gin_value
        kinds = {
            "pair": lambda cs: 2 <= len(cs) <= 4 and same_rank(cs),
            "run": lambda cs: 3 <= len(cs) <= 4 and same_suit(cs) and consecutive(deck, cs),
        }
        shapes = {"pair": KindShape("same_rank", 2, 4), "run": KindShape("sequence", 3, 4, same_suit=True)}
    else:
        raise ValueError(name)
    return MeldRules(deck, kinds, value, shapes=shapes, **kw), kinds, value


TABLE_NAMES = ["gin", "ginski", "ace_both", "wrap", "pairs_short_runs"]
TABLE_RULES = {name: table_rules(name) for name in TABLE_NAMES}


def general_deadwood(rules: MeldRules, hand: Sequence[Any], discard: bool = False) -> int:
    """The least deadwood by the general search, bypassing every fast path."""
    from rummydsl.melds.search import HandSearch

    search = HandSearch(rules, tuple(hand), (), discard)
    return int(search.plain().cost // search.deadwood_unit)


def test_table_path_applies_only_to_its_structure() -> None:
    for name in TABLE_NAMES:
        assert TABLE_RULES[name][0]._suit_tables(), name
    assert not SKARNEY._suit_tables()  # poker sequences mix suits
    concealed, _, _ = make("gin", excludes_concealed_melds=False)
    assert not concealed._suit_tables()
    # two packs of six ranks: the refusal is the packs' (the whole deck's 132,294 melds listed
    # by these Python predicates cost a second, and no table question reads them)
    small_two = Deck.from_spec({"preset": "standard52", "packs": 2, "ranks": ["A", 2, 3, 4, 5, 6]})
    two_packs = MeldRules(small_two, gin_kinds(small_two), gin_value, shapes=GIN_SHAPES)
    assert two_packs.deck.packs == 2 and not two_packs._suit_tables()
    colour_deck = STANDARD
    colour = MeldRules(colour_deck, {
        "run": lambda cs: (len(cs) >= 3 and len({c.suit.colour for c in cs}) == 1
                           and consecutive(colour_deck, cs)),
    }, gin_value, shapes={"run": KindShape("sequence", 3)})
    assert not colour._suit_tables()
    hand = colour_deck.parse_cards("4H 5D 6H 9C 9S KC")
    assert colour.solve(hand).deadwood == 9 + 9 + 10
    # a wild card in the hand leaves the tables for the general search
    assert GINSKI._suit_tables()
    assert GINSKI.solve(RUMSKI.parse_cards("4R 5R * 9G")).deadwood == 9


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("name", TABLE_NAMES)
@SOME
@given(data=st.data())
def test_table_path_matches_brute_force(name: str, rich: bool, size: int, data: st.DataObject) -> None:
    rules, kinds, value = TABLE_RULES[name]
    deck = rules.deck
    hand = data.draw(rich_hands(deck, size) if rich else uniform_hands(deck, size))
    ref = brute_best(kinds, value, hand)
    best = rules.solve(hand)
    assert best.deadwood == ref == rules.min_deadwood(hand) == general_deadwood(rules, hand)
    check_arrangement(rules, hand, best)
    ref_card, ref_after = brute_discard(kinds, value, hand)
    assert rules.best_discard(hand) == (ref_card, ref_after)
    assert rules.min_deadwood(hand, discard=True) == ref_after == general_deadwood(rules, hand, True)
    arrangement = rules.solve_discard(hand)
    assert arrangement.discard == ref_card and arrangement.deadwood == ref_after
    check_arrangement(rules, hand, arrangement, discard=True)


@pytest.mark.parametrize("name", TABLE_NAMES)
@SLOW
@given(data=st.data())
def test_table_path_fourteen_cards(name: str, data: st.DataObject) -> None:
    rules, kinds, value = TABLE_RULES[name]
    hand = data.draw(rich_hands(rules.deck, 14))
    best = rules.solve(hand)
    assert best.deadwood == brute_best(kinds, value, hand) == general_deadwood(rules, hand)
    check_arrangement(rules, hand, best)
    card, after = rules.best_discard(hand)
    assert after == general_deadwood(rules, hand, True)
    assert rules.solve_discard(hand).discard == card


@pytest.mark.parametrize("name", TABLE_NAMES)
@FEW
@given(data=st.data())
def test_table_path_agrees_with_general_search_on_big_hands(name: str, data: st.DataObject) -> None:
    """Up to 20 cards (too many for the brute force): the two searches agree."""
    rules, _, _ = TABLE_RULES[name]
    size = data.draw(st.integers(1, 20))
    hand = data.draw(rich_hands(rules.deck, size, width=6) if size > 8 else uniform_hands(rules.deck, size))
    best = rules.solve(hand)
    assert best.deadwood == rules.min_deadwood(hand) == general_deadwood(rules, hand)
    check_arrangement(rules, hand, best)
    after = rules.solve_discard(hand)
    assert after.deadwood == rules.best_discard(hand)[1] == general_deadwood(rules, hand, True)
    check_arrangement(rules, hand, after, discard=True)


# --------------------------------------------------------------------------- every shipped variant

from rummydsl.variant import load_variant, shipped_variant_ids  # noqa: E402


@lru_cache(maxsize=None)
def shipped(variant_id: str) -> tuple[Any, MeldRules, dict[str, Pred], Callable[[Any], int]]:
    """A shipped variant, its meld rules, its compiled patterns by kind and its card
    values: made once a process and shared by every example that asks (a solver's
    answers must not depend on what it was asked before, so one object serves all; a
    fresh one a hand rebuilt its per-suit and discard tables each time)."""
    variant = load_variant(variant_id)
    kinds = {kind.name: kind.pattern for kind in variant.meld_kinds}
    values = variant.card_values
    return variant, MeldRules.from_variant(variant), kinds, lambda card: values[card.id]


def shipped_hands(deck: Deck, size: int, rich: bool) -> st.SearchStrategy[list[Any]]:
    """Uniform or meld-rich hands of the deck, with 0 to 3 wild cards where it has them."""
    base = rich_hands(deck, size, width=4) if rich else uniform_hands(deck, size)
    wilds = [c for c in deck.cards if c.wild]
    if not wilds:
        return base
    return st.tuples(base, st.integers(0, min(3, len(wilds)))).map(
        lambda t: t[0][: size - t[1]] + wilds[: t[1]])


def brute_inputs(variant_id: str) -> tuple[Any, ...]:
    """What the brute force of a shipped variant reads: its deck's cards, its kinds'
    patterns (the text, and the value of each option a pattern reads) and its card values."""
    variant = load_variant(variant_id)
    return (tuple((c.id, str(c), c.wild) for c in variant.deck.cards),
            tuple((kind.name, kind.pattern.text,
                   tuple((name, variant.options[name].value) for name in sorted(kind.pattern.options)))
                  for kind in variant.meld_kinds),
            tuple(variant.card_values))


def same_brute_force(variant_ids: Sequence[str]) -> list[tuple[str, ...]]:
    """The variants in groups whose brute force is the same (:func:`brute_inputs`), in order."""
    groups: dict[tuple[Any, ...], list[str]] = {}
    for variant_id in variant_ids:
        groups.setdefault(brute_inputs(variant_id), []).append(variant_id)
    return [tuple(group) for group in groups.values()]


SHIPPED_GROUPS = same_brute_force(shipped_variant_ids())
"""The shipped variants by their brute force: the Gin family and Rummy (one pack, sets and
runs, the same values) are one group, the two Ginskis another, the rest one each."""


@pytest.mark.parametrize("size", [10, 11, 14])
@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("variant_ids", SHIPPED_GROUPS, ids="+".join)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_shipped_variant_matches_brute_force(variant_ids: tuple[str, ...], rich: bool, size: int,
                                                   data: st.DataObject) -> None:
    """The solver built from each variant file agrees with the brute force over the same
    file's compiled patterns and card values (C-6), and for a hand one card over the
    hand size, on the best discard (the knock question).

    Variants whose brute force reads the same deck, patterns and values (:data:`SHIPPED_GROUPS`)
    share each hand: every one's own solver answers it (on its own deck's cards), and the
    brute force is worked out once, where it was once a variant."""
    first, _, kinds, value = shipped(variant_ids[0])
    hand = data.draw(shipped_hands(first.deck, size, rich))
    best = brute_best(kinds, value, hand)
    discard: tuple[Any, int] | None = None
    for variant_id in variant_ids:
        variant, rules, _, _ = shipped(variant_id)
        own = [variant.deck.cards[c.id] for c in hand]
        assert rules.solve(own).deadwood == best, variant_id
        if size == variant.hand_size + 1:
            if discard is None:
                discard = brute_discard(kinds, value, hand)
            card, after = rules.best_discard(own)
            assert (card, after) == (variant.deck.cards[discard[0].id], discard[1]), variant_id


# --------------------------------------------------------------------------- wild_unique_card (GS-3.3)

# With wild_unique_card every wild card of a meld (a table meld it joins included) is
# given a meaning, a natural face: the group with its meanings is a meld judged on
# natural cards (and the group as it is, wild cards and all, too); no meaning is the
# face of a natural card in the hand or in a joined table meld; no two meanings are
# equal (one pack). The reference below follows that text directly: every subset of
# the hand (and of the hand with the table meld), every set of meanings over all 65
# faces, then the best packing whose meanings never collide.

FACES = [c for c in RUMSKI.cards if not c.wild]  # one pack: a face is a card id
WILDS = [c for c in RUMSKI.cards if c.wild]
GINSKI_U, _, _ = make("ginski", wild_unique_card=True)


def unique_meanings(kinds: dict[str, Pred], nat: list[Any], wilds: list[Any],
                    banned: frozenset[int]) -> list[frozenset[int]]:
    """Every set of distinct meanings for the wild cards of a group (natural cards
    ``nat``), none in ``banned``, that makes it a meld both ways.

    Meanings are tried over all faces, one wild card at a time; a partial choice is
    dropped when the group with the other wild cards still wild forms no kind (for
    these rules a part of a good choice always passes that test, so nothing is lost).

    No test of a choice reads ``banned``: it only leaves out the choices that hold a
    banned face. So the choices over all faces are worked out once a group (its kinds, its
    natural and wild cards, kept for the process: hands of the tests below share many
    groups, a natural card or two with wild cards above all) and each call keeps those
    that hold no banned face, the same list in the same order."""
    key = (id(kinds), tuple(c.id for c in nat), tuple(c.id for c in wilds))
    kept = _MEANINGS.get(key)
    if kept is None or kept[0] is not kinds:
        kept = _MEANINGS[key] = (kinds, _every_meaning(kinds, nat, wilds))
    return [chosen for chosen in kept[1] if not chosen & banned]


_MEANINGS: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[dict[str, Pred], list[frozenset[int]]]] = {}


def _every_meaning(kinds: dict[str, Pred], nat: list[Any], wilds: list[Any]) -> list[frozenset[int]]:
    """:func:`unique_meanings` with nothing banned, worked out."""
    k = len(wilds)
    out: list[frozenset[int]] = []
    group = nat + wilds

    def rec(chosen: list[int], start: int) -> None:
        if len(chosen) == k:
            concrete = nat + [FACES[f] for f in chosen]
            if any(p(group) and p(concrete) for p in kinds.values()):
                out.append(frozenset(chosen))
            return
        for f in range(start, len(FACES)):
            partial = nat + [FACES[g] for g in chosen] + [FACES[f]] + wilds[: k - len(chosen) - 1]
            if any(p(partial) for p in kinds.values()):
                rec(chosen + [f], f + 1)

    rec([], 0)
    return out


def brute_unique(kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any],
                 table: Sequence[Any] = ()) -> int:
    """The least deadwood over arrangements legal under wild_unique_card, with lay-offs
    onto at most one table meld ``table``."""
    n = len(hand)
    held = frozenset(c.id for c in hand if not c.wild)
    t_faces = frozenset(c.id for c in table if not c.wild)
    vals = [value(c) for c in hand]

    judged: dict[tuple[tuple[int, ...], int, bool], list[frozenset[int]]] = {}

    def options(cards: Sequence[Any], lay: bool) -> list[frozenset[int]]:
        """The group's meanings, judged once for each of its natural cards and number of
        wild cards (a wild card has no face: groups that differ only in which of the
        hand's wild cards they hold are the same group)."""
        nat = [c for c in cards if not c.wild]
        key = (tuple(c.id for c in nat), len(cards) - len(nat), lay)
        found = judged.get(key)
        if found is None:
            if not any(p(cards) for p in kinds.values()):
                found = []
            else:
                wilds = [c for c in cards if c.wild]
                found = unique_meanings(kinds, nat, wilds, banned_lay if lay else held) if wilds else [frozenset()]
            judged[key] = found
        return found

    banned_lay = held | t_faces
    melds = []
    lays = []
    for mask, part, _ in kind_groups(kinds, hand):  # a group no kind can form has no meanings
        opts = options(part, False)
        if opts:
            melds.append((mask, opts))
    if table:
        for mask, joined, _ in kind_groups(kinds, hand, base=table):  # the table meld's cards, then the part's
            opts = options(joined, True)
            if opts:
                lays.append((mask, opts))

    melds_at, lays_at = lowest_index(melds, n), lowest_index(lays, n)

    @lru_cache(maxsize=None)
    def best(mask: int, used: frozenset[int], joined: bool) -> int:
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        result = vals[i] + best(mask & ~(1 << i), used, joined)
        for m, opts in melds_at[i]:  # a group holding card i inside the part starts at i
            if m & mask == m:
                for o in opts:
                    if not o & used and not (joined and o & t_faces):
                        result = min(result, best(mask & ~m, used | o, joined))
        if not joined and not used & t_faces:
            for m, opts in lays_at[i]:
                if m & mask == m:
                    for o in opts:
                        if not o & used:
                            result = min(result, best(mask & ~m, used | o, True))
        return result

    return best((1 << n) - 1, frozenset(), False)


def check_meanings(kinds: dict[str, Pred], hand: Sequence[Any], arrangement: Any, table: Sequence[Any] = ()) -> None:
    """The arrangement's meanings obey rules 1-3, and it adds up."""
    meaning = {w.id: m for w, m in arrangement.meanings}
    groups = [list(m) for m in arrangement.melds]
    if arrangement.layoffs:
        groups.append(list(table) + list(arrangement.layoffs[0][1]))
    in_play = {c.id for c in hand if not c.wild}
    if arrangement.layoffs:
        in_play |= {c.id for c in table if not c.wild}
    wilds = [c for g in groups for c in g if c.wild]
    assert sorted(meaning) == sorted(c.id for c in wilds)
    faces = [m.id for m in meaning.values()]
    assert len(set(faces)) == len(faces) and not set(faces) & in_play
    for group in groups:
        concrete = [meaning[c.id] if c.wild else c for c in group]
        assert any(p(group) and p(concrete) for p in kinds.values())
    assert arrangement.deadwood == sum(ginski_value(c) for c in arrangement.unmatched)


def unique_hands(rich: bool, exclude: Sequence[Any] = ()) -> st.SearchStrategy[list[Any]]:
    """Rumski hands of 6 to 10 cards with 1 to 3 wild cards (uniform or meld-rich)."""
    gone = {c.id for c in exclude}

    def build(size: int, wilds: int) -> st.SearchStrategy[list[Any]]:
        if rich:
            pool_of = lambda lo: [c for c in FACES if lo <= c.rank.order < lo + 4 and c.id not in gone]  # noqa: E731
            base = st.integers(1, 10).flatmap(lambda lo: st.permutations(pool_of(lo)))
        else:
            base = st.permutations([c for c in FACES if c.id not in gone])
        return base.map(lambda p: list(p[: size - wilds]) + WILDS[:wilds])

    return st.tuples(st.integers(6, 10), st.integers(1, 3)).flatmap(lambda t: build(*t))


@pytest.mark.parametrize("rich", [False, True])
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_wild_unique_card_matches_brute_force(rich: bool, data: st.DataObject) -> None:
    hand = data.draw(unique_hands(rich))
    best = GINSKI_U.solve(hand)
    assert best.deadwood == brute_unique(GINSKI_KINDS, ginski_value, hand)
    check_meanings(GINSKI_KINDS, hand, best)
    assert GINSKI_U.min_deadwood(hand) == best.deadwood
    # the option only ever takes arrangements away
    assert best.deadwood >= GINSKI.solve(hand).deadwood
    for meld, kinds in zip(best.melds, best.kinds):
        assert kinds and kinds <= GINSKI_U.kinds_of(meld, hand=hand)


UNIQUE_TABLES = ["4B 6B", "7G 8G 9G", "5R 5B", "10Y 11Y", "3P 3G 3Y"]


@pytest.mark.parametrize("table_text", UNIQUE_TABLES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_wild_unique_card_layoffs_match_brute_force(table_text: str, data: st.DataObject) -> None:
    """Lay-offs onto one table meld (with the last wild card of the deck on it, if it is
    short of three cards): its wild card needs a meaning too."""
    from rummydsl.melds import LayoffTarget

    table = list(RUMSKI.parse_cards(table_text))
    if len(table) < 3:
        table.append(WILDS[-1])
    hand = data.draw(unique_hands(data.draw(st.booleans()), exclude=table))
    best = GINSKI_U.solve(hand, table=[LayoffTarget(tuple(table))])
    assert best.deadwood == brute_unique(GINSKI_KINDS, ginski_value, hand, table)
    check_meanings(GINSKI_KINDS, hand, best, table)


def test_wild_unique_card_compiled_patterns_agree() -> None:
    """The compiled Ginski patterns give the plain rules' answers with the option on."""
    pytest.importorskip("rummydsl.expr")
    deck, melds, value = PATTERNS["ginski"]
    from rummydsl.expr import BOOL, INT, Context, Env, compile_expression

    kinds = {k: compile_expression(t, Env(Context.MELD, deck), BOOL) for k, t in melds.items()}
    rules = MeldRules(deck, kinds, compile_expression(value, Env(Context.CARD, deck), INT), wild_unique_card=True)
    for text in ("9R 9B 9G 9P 9Y *", "9R 9B * 9G 9P *", "4R * 6R 5R 9G 9B", "1R 2R * * 5R 7G 7B",
                 "12R 13R * 11R 11B 11G 11P 11Y"):
        hand = deck.parse_cards(text)
        assert rules.solve(hand).deadwood == GINSKI_U.solve(hand).deadwood == brute_unique(
            GINSKI_KINDS, ginski_value, hand), text


@pytest.mark.parametrize("hand_text, table_text", [
    ("9R 9B 8Y 10Y *", "9G 9P"),             # the table's wild and the hand's both want 9Y
    ("11Y 9R 8Y 9B * *", "9G 9P"),
    ("9Y 8B 10B 8G 9R *", "9G 9P"),
    ("11G 8G 8B 9R * *", "9G 9P"),           # 9G lies in the joined table meld
    ("13R 10R 11G 10Y 11Y *", "12Y 13Y"),    # the table's wild would be 11Y, which is held
    ("10Y 12B 11P 11Y 11G * *", "12Y 13Y"),
])
def test_wild_unique_card_table_conflicts(hand_text: str, table_text: str) -> None:
    """Hands found by search where the option changes the answer through a table meld."""
    from rummydsl.melds import LayoffTarget

    hand = list(RUMSKI.parse_cards(hand_text))
    table = list(RUMSKI.parse_cards(table_text)) + [WILDS[-1]]
    best = GINSKI_U.solve(hand, table=[LayoffTarget(tuple(table))])
    assert best.deadwood == brute_unique(GINSKI_KINDS, ginski_value, hand, table)
    assert best.deadwood > GINSKI.solve(hand, table=[LayoffTarget(tuple(table))]).deadwood
    check_meanings(GINSKI_KINDS, hand, best, table)


# --------------------------------------------------------------------------- one canonical arrangement

# Every strategy (the per-suit tables, the per-deck table, the general search, and
# the public entry points that pick among them) returns the same whole arrangement:
# the least under the order of the rummydsl.melds docs. The reference below lists
# every arrangement (own melds, lay-offs onto at most one extension per table meld,
# unmatched cards, the discard) by exhaustive search and keeps the least key; it
# writes the order out again instead of importing it.

WILD_LOW = 1 << 30
ROLES = {"meld": 0, "layoff": 1, "dead": 2, "discard": 3}


def reference_key(naturals: int, wilds: int, role: str, table: int = 0) -> tuple[Any, ...]:
    """A group's place in the canonical order: lowest natural card, larger natural mask,
    more wild cards, own meld < lay-off < unmatched < discard, lower table index."""
    low = (naturals & -naturals).bit_length() - 1 if naturals else WILD_LOW
    return (low, -naturals, -wilds, ROLES[role], table, ())


def brute_canonical(kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any], *,
                    discard: bool = False, table: Sequence[Sequence[Any]] = (),
                    free_melds: bool = True) -> dict[str, Any]:
    """The canonical arrangement by exhaustive search, as plain data."""
    cards = sorted(hand, key=lambda c: (c.wild, c.id))
    n = len(cards)
    vals = [value(c) for c in cards]
    ranked = sorted(hand, key=lambda c: (value(c), c.id), reverse=True)
    penalty = {c.id: i for i, c in enumerate(ranked)}
    wild_ranked = [c for c in ranked if c.wild]

    @lru_cache(maxsize=None)  # asked of the same group at every state that can take it
    def natural_mask(mask: int) -> tuple[int, int]:
        nat, wilds = 0, 0
        for i in range(n):
            if mask >> i & 1:
                if cards[i].wild:
                    wilds += 1
                else:
                    nat |= 1 << cards[i].id
        return nat, wilds

    melds = sorted(m for m, group, could in kind_groups(kinds, cards) if any(p(group) for p in could))
    lays = [sorted(m for m, group, could in kind_groups(kinds, cards, base=t) if any(p(group) for p in could))
            for t in table]
    melds_at = lowest_index(melds, n)
    lays_at = [lowest_index(ms, n) for ms in lays]

    @lru_cache(maxsize=None)
    def best(mask: int, joined: int, discarded: bool) -> tuple[Any, ...] | None:
        """((deadwood, discard penalty, unmatched value), sorted group keys, groups)."""
        if not mask:
            return None if discard and not discarded else ((0, 0, 0), (), ())
        i = (mask & -mask).bit_length() - 1
        options = []

        def add(cost: tuple[int, int, int], group: tuple[Any, ...], rest: tuple[Any, ...] | None) -> None:
            if rest is None:
                return
            total = tuple(a + b for a, b in zip(cost, rest[0]))
            options.append((total, tuple(sorted((group[0],) + rest[1])), (group,) + rest[2]))

        single = natural_mask(1 << i)
        add((vals[i], 0, vals[i]), (reference_key(*single, "dead"), "dead", 1 << i, 0),
            best(mask ^ (1 << i), joined, discarded))
        if discard and not discarded:
            card = cards[i]
            pen = penalty[card.id] if not card.wild else penalty[wild_ranked[0].id]
            add((0, pen, 0), (reference_key(*single, "discard"), "discard", 1 << i, 0),
                best(mask ^ (1 << i), joined, True))
        for m in melds_at[i]:  # a meld holding card i with no lower card: i is its lowest
            if m & mask == m:
                in_meld = 0 if free_melds else sum(vals[j] for j in range(n) if m >> j & 1)
                add((in_meld, 0, 0), (reference_key(*natural_mask(m), "meld"), "meld", m, 0),
                    best(mask ^ m, joined, discarded))
        for t, ms in enumerate(lays_at):
            if joined >> t & 1:
                continue
            for m in ms[i]:
                if m & mask == m:
                    add((0, 0, 0), (reference_key(*natural_mask(m), "layoff", t), "layoff", m, t),
                        best(mask ^ m, joined | 1 << t, discarded))
        return min(options, key=lambda o: (o[0], o[1])) if options else None

    found = best((1 << n) - 1, 0, False)
    assert found is not None
    (deadwood, _, unmatched_value), _keys, groups = found
    # deal the wild cards: the discarded one is the highest; the rest lowest first, in group order
    wilds = sorted((c for c in hand if c.wild), key=lambda c: c.id)
    out: dict[str, Any] = {"melds": [], "kinds": [], "unmatched": [], "layoffs": [], "discard": None,
                           "deadwood": deadwood}
    for g in groups:
        if g[1] == "discard":
            out["discard"] = wilds.pop() if cards[(g[2] & -g[2]).bit_length() - 1].wild else \
                cards[(g[2] & -g[2]).bit_length() - 1]
    for key, role, m, t in sorted(groups, key=lambda g: g[0]):
        if role == "discard":
            continue
        count = sum(1 for j in range(n) if m >> j & 1 and cards[j].wild)
        own = [cards[j] for j in range(n) if m >> j & 1 and not cards[j].wild] + wilds[:count]
        del wilds[:count]
        own_t = tuple(sorted(own, key=lambda c: c.id))
        if role == "meld":
            out["melds"].append(own_t)
            out["kinds"].append(frozenset(k for k, p in kinds.items() if p(list(own_t))))
        elif role == "layoff":
            out["layoffs"].append((t, own_t))
        else:
            out["unmatched"].extend(own_t)
    out["unmatched"] = tuple(sorted(out["unmatched"], key=lambda c: c.id))
    out["melds"] = tuple(out["melds"])
    out["kinds"] = tuple(out["kinds"])
    out["layoffs"] = tuple(sorted(out["layoffs"], key=lambda x: x[0]))
    return out


def as_data(arrangement: Any) -> dict[str, Any]:
    """The parts of an arrangement the canonical order fixes."""
    return {"melds": tuple(tuple(sorted(m, key=lambda c: c.id)) for m in arrangement.melds),
            "kinds": tuple(arrangement.kinds), "unmatched": tuple(arrangement.unmatched),
            "layoffs": tuple((t, tuple(sorted(cs, key=lambda c: c.id))) for t, cs in arrangement.layoffs),
            "discard": arrangement.discard, "deadwood": arrangement.deadwood}


def every_strategy(rules: MeldRules, hand: Sequence[Any], discard: bool,
                   table: Sequence[Any] = ()) -> dict[str, Any]:
    """The arrangement of every strategy that applies to the question."""
    from rummydsl.melds.search import HandSearch

    out: dict[str, Any] = {}
    if discard:
        out["public"] = rules.solve_discard(hand, table=table)
    else:
        out["public"] = rules.solve(hand, table=table, check_contract=False)
    tables = [t if hasattr(t, "cards") else tuple(t) for t in table]
    search = HandSearch(rules, tuple(hand), rules._check_table(tables, rules._check(hand)[1]) if table else (),
                        discard)
    out["general search"] = search.solve_found(search.plain(), rules.contract is None)
    if not table and not any(c.wild for c in hand):
        deck_table = rules._deck_table()
        ids = sorted(c.id for c in hand)
        if deck_table:
            out["deck table"] = deck_table.discard_arrangement(ids) if discard else deck_table.arrangement(ids)
        suit_tables = rules._suit_tables()
        if suit_tables:
            out["suit tables"] = rules._suit_arrangement(suit_tables, rules._check(hand)[1], discard)
    return out


def table_meld_from(deck: Deck, kinds: dict[str, Pred], hand: Sequence[Any],
                    data: st.DataObject) -> list[Any] | None:
    """A meld of three or four cards not in the hand (a set or a run of the deck), if one is drawn."""
    held = {c.id for c in hand}
    free = [c for c in deck.cards if c.id not in held and not c.wild]
    anchor = data.draw(st.sampled_from(free))
    same_rank = [c for c in free if c.rank == anchor.rank and c.suit != anchor.suit]
    same_suit = [c for c in free if c.suit == anchor.suit
                 and 0 < c.rank.order - anchor.rank.order <= 2]
    for group in ([anchor] + same_rank[:2], [anchor] + same_suit):
        if len(group) == 3 and any(p(group) for p in kinds.values()):
            return group
    return None


def check_canonical(rules: MeldRules, kinds: dict[str, Pred], value: Callable[[Any], int], hand: Sequence[Any],
                    discard: bool, table: Sequence[Sequence[Any]] = ()) -> None:
    expected = brute_canonical(kinds, value, hand, discard=discard, table=table,
                               free_melds=rules.excludes_concealed_melds)
    for name, got in every_strategy(rules, hand, discard, table).items():
        assert as_data(got) == expected, name


@pytest.mark.parametrize("discard", [False, True])
@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize("name", ["gin", "skarney", "ginski"])
@SOME
@given(data=st.data())
def test_every_strategy_gives_the_canonical_arrangement(name: str, rich: bool, discard: bool,
                                                        data: st.DataObject) -> None:
    """10 cards (11 for the knock question); Ginski with 0 to 3 wild cards; half the
    draws with a table meld to lay off onto."""
    rules, kinds, value = {"gin": (GIN, GIN_KINDS, gin_value), "skarney": (SKARNEY, SKARNEY_KINDS, skarney_value),
                           "ginski": (GINSKI, GINSKI_KINDS, ginski_value)}[name]
    size = 11 if discard else 10
    if name == "ginski":
        hand = data.draw(wild_hands(size, rich))
    else:
        hand = data.draw(rich_hands(rules.deck, size) if rich else uniform_hands(rules.deck, size))
    table = []
    if data.draw(st.booleans()):
        meld = table_meld_from(rules.deck, kinds, hand, data)
        if meld is not None:
            table.append(meld)
    check_canonical(rules, kinds, value, hand, discard, table)


@pytest.mark.parametrize("discard", [False, True])
@pytest.mark.parametrize("name", TABLE_NAMES)
@SOME
@given(data=st.data())
def test_table_shapes_give_the_canonical_arrangement(name: str, discard: bool, data: st.DataObject) -> None:
    """The per-suit tables' structures (ace both, wrap, pairs and short runs) too."""
    rules, kinds, value = TABLE_RULES[name]
    size = 11 if discard else 10
    hand = data.draw(rich_hands(rules.deck, size) if data.draw(st.booleans()) else uniform_hands(rules.deck, size))
    check_canonical(rules, kinds, value, hand, discard)


@pytest.mark.parametrize("size", [10, 11])
@pytest.mark.parametrize("variant_id", shipped_variant_ids())
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_shipped_variant_gives_the_canonical_arrangement(variant_id: str, size: int,
                                                               data: st.DataObject) -> None:
    """Every shipped variant file, with its compiled patterns, wild cards where the
    deck has them, and a table meld half the time."""
    variant, rules, kinds, value = shipped(variant_id)
    hand = data.draw(shipped_hands(variant.deck, size, data.draw(st.booleans())))
    table = []
    if not rules.wild_unique_card and data.draw(st.booleans()):
        meld = table_meld_from(variant.deck, kinds, hand, data)
        if meld is not None:
            table.append(meld)
    if rules.wild_unique_card and any(c.wild for c in hand):
        return  # meanings have their own reference above
    check_canonical(rules, kinds, value, hand, size == 11, table)


def test_the_issue_hand_has_one_arrangement() -> None:
    """The hand of the issue: 6H-7H-8H or 7S-7H-7D, 64 either way; every strategy melds
    the set (its lowest card, 7S, is melded rather than left)."""
    hand = STANDARD.parse_cards("7S TS QS 6H 7H 8H 7D KD JC QC")
    results = every_strategy(GIN, hand, False)
    assert set(results) == {"public", "general search", "deck table", "suit tables"}
    for got in results.values():
        assert got.deadwood == 64 and [STANDARD.format_cards(m) for m in got.melds] == ["7S 7H 7D"]


# --------------------------------------------------------------------------- big hands (issue 17, section 3)

from rummydsl.melds.search import HandSearch  # noqa: E402
from rummydsl.melds.shortsearch import ShortSearch  # noqa: E402


def general_search_arrangement(rules: MeldRules, hand: Sequence[Any], discard: bool = False) -> Any:
    """The general search with every candidate, lowest card id first (the search
    hands of up to 20 cards took before issue 17): the reference for big hands."""
    search = HandSearch(rules, tuple(hand), (), discard, work=[10 ** 9])
    return search.solve_found(search.plain(), rules.contract is None)


@pytest.mark.parametrize("variant_id", ["skarney_gin", "skarney_poker_distinct", "rummy_500", "contract_rummy"])
@pytest.mark.parametrize("size", [14, 17])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_short_search_matches_the_general_search(variant_id: str, size: int, data: st.DataObject) -> None:
    """The short-candidate search in rank order (shortsearch.py, hands past 20 cards)
    gives the general search's least deadwood and discard, a legal arrangement of it,
    and, when its merges end within MERGE_TRIES, the same canonical arrangement (melds
    of 6+ cards merged back, SK-3.3 pokers, suit-blind states); wild-free hands."""
    rules = shipped(variant_id)[1]
    deck = rules.deck
    pool = [c for c in deck.cards if not c.wild]
    hand = data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)
                     if data.draw(st.booleans()) else rich_hands(deck, size, width=6).filter(
                         lambda h: not any(c.wild for c in h)))
    for discard in (False, True):
        short = ShortSearch(rules, tuple(hand), discard)
        got = short.solve_found(short.plain(), rules.contract is None)
        want = general_search_arrangement(rules, hand, discard)
        assert (got.deadwood, got.discard) == (want.deadwood, want.discard)
        check_arrangement(rules, [c for c in hand if c is not got.discard], got)
        if short.exact:  # the merges ended: the canonical arrangement itself
            assert got == want


def test_big_skarney_hands_are_scored() -> None:
    """SK-10.3: hands of 21, 26 and 32 cards (declined offers) and the whole deck get
    their exact least deadwood, within the work bound; 21 cards against the general search."""
    import random

    rules = MeldRules.from_variant(load_variant("skarney_gin"))
    rng = random.Random(17)
    cards = list(rules.deck.cards)
    for size in (21, 26, 32):
        for _ in range(3):
            hand = rng.sample(cards, size)
            least = rules.min_deadwood(hand)
            arrangement = rules.solve(hand, check_contract=False)
            assert arrangement.deadwood == least
            check_arrangement(rules, hand, arrangement)
            if size == 21:  # the general search's states grow fast past this (26 cards: seconds)
                assert least == general_search_arrangement(rules, hand).deadwood
    assert rules.min_deadwood(cards) == 0


def test_big_contract_rummy_and_500_rum_hands() -> None:
    """CR-3 buys and R5-3 deep draws: Contract Rummy hands of 24 and 30 cards (jokers
    and all) and 500 Rum hands of 30 and 40 are solved (exact: the general search agrees)."""
    import random

    for variant_id, sizes in (("contract_rummy", (24, 30)), ("rummy_500", (30, 40))):
        rules = MeldRules.from_variant(load_variant(variant_id))
        rng = random.Random(5)
        cards = list(rules.deck.cards)
        for size in sizes:
            hand = rng.sample(cards, size)
            arrangement = rules.solve(hand, check_contract=False)
            check_arrangement(rules, hand, arrangement)
            assert arrangement.deadwood == rules.min_deadwood(hand)
