"""Checks that need the whole variant: beyond what the schema and the types can say.

Errors are variants that cannot be played (the deck cannot hold the deal, a meld
kind can never be formed, the contract can never be met, a turn cannot end).
Warnings are valid but odd choices (a meld kind no hand is big enough for, a knock
limit no hand can reach, settings that have no effect).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator, Sequence

from ..cards import Card, Deck
from ..endings import SCORED_ENDING_NAMES
from ..errors import Diagnostic, ExpressionError
from ..expr import SimpleRoundView
from ..expr.check import CONTRACT_ROUND_NAMES
from ..expr.facts import PatternFacts, split_sizes
from ..expr.runtime import NextDealView, RoundFacts
from ..limits import MAX_EXPR_INT, MAX_HAND, MAX_MELD_WORK
from .model import Variant

__all__ = ["semantic_diagnostics", "sample_melds"]

KeyPath = tuple[str | int, ...]

#: The largest meld size the formability probe tries.
MAX_PROBE_SIZE = 14


@dataclass
class _Report:
    positions: Any
    found: list[Diagnostic]

    def error(self, path: KeyPath, message: str, rule: str) -> None:
        self.found.append(Diagnostic(self.positions.value(path), message, rule))

    def warn(self, path: KeyPath, message: str, rule: str) -> None:
        self.found.append(Diagnostic(self.positions.value(path), message, rule, "warning"))

    def error_inside(self, path: KeyPath, problem: ExpressionError, note: str) -> None:
        """An error at ``problem``'s place inside the expression at ``path``."""
        where = self.positions.inside_scalar(path, problem.line, problem.column)
        self.found.append(Diagnostic(where, problem.message + note, problem.rule))


def semantic_diagnostics(variant: Variant, positions: Any) -> list[Diagnostic]:
    """Every semantic problem of a built variant."""
    report = _Report(positions, [])
    _check_deal(variant, report)
    _check_sit_out(variant, report)
    _check_turn(variant, report)
    samples = _check_melds(variant, report)
    _check_contract(variant, report, samples)
    _check_knock(variant, report)
    _check_scoring(variant, report)
    _check_integer_sizes(variant, report)
    _check_game(variant, report)
    return report.found


def _check_deal(variant: Variant, report: _Report) -> None:
    deck, deal, players = variant.deck, variant.deal, variant.players
    dealt_in = players - (1 if deal.sit_out is not None else 0)  # G3-1: one seat is dealt nothing
    dealt = dealt_in * deal.hand_size + (1 if deal.upcard else 0)
    needed = dealt + variant.stock.floor + 1
    if deal.hand_size_rule is not None:
        _check_hand_size_rule(variant, report)  # every allowed player count and deal
    elif needed > deck.size:
        upcard = " and an upcard" if deal.upcard else ""
        report.error(("deal", "hand_size"),
                     f"the deck has {deck.size} cards, too few to deal {dealt_in} × {deal.hand_size}"
                     f"{upcard} and keep a stock above its floor of {variant.stock.floor} "
                     f"(needs at least {needed})", "deal-size")
    low, high = variant.players_range
    if low > high:
        report.error(("players", "min"), f"players.min ({low}) is more than players.max ({high})", "players")
    elif not low <= players <= high:
        report.error(("players", "count"), f"{players} players, but the rules allow {low} to {high}",
                     "players")
    elif high > players and deal.hand_size_rule is None:
        most = high * deal.hand_size + (1 if deal.upcard else 0) + variant.stock.floor + 1
        if most > deck.size:
            report.warn(("players", "max"), f"the rules allow {high} players, but the deck of {deck.size} "
                        f"cards cannot deal {high} × {deal.hand_size} and keep a stock (needs {most})",
                        "players")
    if variant.upcard_offer is not None and not deal.upcard:
        report.error(("upcard_offer",), "an upcard round needs 'deal.upcard: true'", "upcard")


def _check_sit_out(variant: Variant, report: _Report) -> None:
    """G3-1, G3-2: ``deal.sit_out`` leaves at least two players dealt in; ``rotation:
    sitter`` needs it; and round 1 must not read the last round (which does not exist)."""
    deal = variant.deal
    if deal.rotation == "sitter" and deal.sit_out is None:
        report.error(("deal", "rotation"), "'rotation: sitter' deals by the player sitting out, "
                     "but 'deal.sit_out' names nobody", "sit-out")
    if deal.sit_out is None:
        return
    low = variant.players_range[0]
    if low < 3:
        report.error(("deal", "sit_out"), f"with {low} players a seat sitting out leaves fewer than two "
                     "to play: 'sit_out' needs at least 3 players", "sit-out")
        return
    seats = tuple(range(variant.players))
    for dealer in seats:  # round 1 with each first dealer: every name of the deal context has a value
        try:
            deal.sit_out(NextDealView(players=seats, round=1, dealer=dealer))  # type: ignore[arg-type]
        except ExpressionError as problem:
            report.warn(("deal", "sit_out"), f"round 1 cannot be dealt: {problem.message}", "sit-out-round-1")
            return


def _check_hand_size_rule(variant: Variant, report: _Report) -> None:
    """A ``deal.hand_size`` expression gives 1..19 cards, and a deal the deck can hold
    (hands, upcard, and a stock above its floor), for every allowed player count and,
    if it reads ``round``, every deal; the first problem is reported, at the expression."""
    from .exprs import HAND_SIZE_RANGE, deal_probes

    deal, deck = variant.deal, variant.deck
    rule = deal.hand_size_rule
    assert rule is not None
    low, high = variant.players_range
    low, high = min(low, variant.players), max(high, variant.players)
    path: KeyPath = ("deal", "hand_size")
    smallest, largest = HAND_SIZE_RANGE
    reads_round = "round" in rule.names
    for count, number, value in deal_probes(rule, (low, high), getattr(variant.game, "deals", None)):
        where = f"{count} players" + (f", deal {number}" if reads_round else "")
        if isinstance(value, ExpressionError):
            report.error_inside(path, value, f" (dealing to {where})")
            return
        if not smallest <= value <= largest:
            report.error(path, f"deal.hand_size gives {value} cards with {where}; a hand is "
                         f"{smallest} to {largest} cards", "deal-size")
            return
        dealt_in = count - (1 if deal.sit_out is not None else 0)  # G3-1: one seat is dealt nothing
        needed = dealt_in * value + (1 if deal.upcard else 0) + variant.stock.floor + 1
        if needed > deck.size:
            upcard = " and an upcard" if deal.upcard else ""
            report.error(path, f"the deck has {deck.size} cards, too few to deal {dealt_in} × {value}{upcard} "
                         f"with {where} and keep a stock above its floor of {variant.stock.floor} "
                         f"(needs at least {needed})", "deal-size")
            return


def _check_turn(variant: Variant, report: _Report) -> None:
    names = [step.name for step in variant.turn]
    draw = variant.step("draw")
    if draw is not None and "discard" in draw.sources and not variant.has_discard_pile:
        index = names.index("draw")
        report.error(("turn", index, "draw", "from"),
                     "draws from the discard pile, but this variant has none (no upcard and no "
                     "'discard' step)", "turn-pile")
    if "discard" in names and "offer" in names:
        report.error(("turn",), "a turn ends with 'discard' or with 'offer', not both", "turn-end")
    elif "discard" not in names and "offer" not in names:
        report.error(("turn",), "a turn needs a 'discard' or an 'offer' step to end it", "turn-end")
    for later, earlier in (("discard", "draw"), ("offer", "draw"), ("meld", "draw")):
        if later in names and earlier in names and names.index(later) < names.index(earlier):
            report.warn(("turn", names.index(later)), f"'{later}' comes before '{earlier}' in the turn",
                        "turn-order")
    for step in ("discard", "offer"):
        if step in names and names.index(step) != len(names) - 1:
            report.error(("turn", names.index(step)), f"'{step}' ends the turn, so it must be the last step",
                         "turn-end")
    if variant.knock is not None and "discard" not in names:
        report.error(("knock",), "knocking discards a card face down: the turn needs a 'discard' step",
                     "knock-discard")
    if variant.knock is None and "meld" not in names:
        report.warn(("turn",), "no 'knock' and no 'meld' step: a round can only end at the stock floor",
                    "round-end")
    for skipped in variant.stock.final_turn_skip:
        if skipped not in names:
            report.warn(("stock", "final_turn_skip"), f"'{skipped}' is not a step of this variant's turn",
                        "stock-skip")
    offer = variant.step("offer")
    if offer is not None and offer.min_hand > variant.max_hand_size + 1:
        report.warn(("turn", names.index("offer"), "offer", "min_hand"),
                    f"min_hand {offer.min_hand} is more than a hand ever holds ({variant.max_hand_size + 1}): "
                    "no offer is ever made", "offer-min-hand")
    if variant.contract is not None and "meld" not in names:
        report.warn(("contract",), "a contract has no effect without a 'meld' step", "contract-unused")
    _check_deep_draw(variant, names, report)
    _check_hand_growth(variant, names, report)
    if variant.knock is None and "layoff" in variant.data:
        report.warn(("layoff",), "lay-off settings have no effect without 'knock'", "layoff-unused")
    _check_stock_and_going_out(variant, report, names)
    _check_void_and_arrangement(variant, report)


def _check_void_and_arrangement(variant: Variant, report: _Report) -> None:
    """``void`` rules that can never apply, and ``deadwood.arrangement: as_shown`` without
    knocking (nobody shows melds to be scored on)."""
    draw, discard = variant.step("draw"), variant.step("discard")
    pile_draws = draw is not None and "discard" in draw.sources
    if variant.void.at_discard_draw is not None and not pile_draws:
        report.warn(("void", "at_discard_draw"), "no draw step draws from the discard pile: "
                    "'at_discard_draw' never applies", "void-unused")
    if variant.void.after_throwbacks is not None:
        why = ("the turn has no 'discard' step" if discard is None
               else "the card taken from the pile may not be discarded that turn (add 'taken_card: allowed' "
                    "to the discard step)" if discard.taken_card == "forbidden"
               else "no card is ever taken from the discard pile" if not (pile_draws or variant.upcard_offer)
               else None)
        if why is not None:
            report.warn(("void", "after_throwbacks"), f"{why}: 'after_throwbacks' never applies", "void-unused")
    if variant.deadwood_arrangement == "as_shown" and variant.knock is None:
        report.warn(("deadwood", "arrangement"), "'as_shown' scores the melds shown at a knock, but this "
                    "variant has no 'knock': it changes nothing", "arrangement-unused")


def _check_stock_and_going_out(variant: Variant, report: _Report, names: Sequence[str]) -> None:
    """``stock.at_floor: turn_over`` needs a discard pile and has no final turn (BR-4);
    ``going_out.final_discard: required`` needs a discard step (BR-3)."""
    stock = variant.stock
    if stock.at_floor == "turn_over":
        if not variant.has_discard_pile:
            report.error(("stock", "at_floor"), "'turn_over' turns the discard pile over into a new "
                         "stock, but this variant has none (no upcard and no 'discard' step)",
                         "stock-turn-over")
        for key, given in (("final_turn_skip", bool(stock.final_turn_skip)),
                           ("last_discard_claim", stock.last_discard_claim)):
            if given:
                report.warn(("stock", key), f"'{key}' has no effect with 'at_floor: turn_over': "
                            "the stock is renewed, so there is no final turn", "stock-turn-over-final")
    if variant.going_out.final_discard == "required" and "discard" not in names:
        report.error(("going_out", "final_discard"), "'required' means the last card is discarded, "
                     "but the turn has no 'discard' step", "going-out-discard")


def _check_hand_growth(variant: Variant, names: Sequence[str], report: _Report) -> None:
    """Warn where a hand can grow past the meld solver's MAX_HAND cards: only a deck of
    more cards can deal such a hand, and only a rule that lets a hand grow in play makes
    one (a declined offer, SK-7; buying, CR-4; deep draws, R5-3). Its deadwood is then
    not known, and a formula that asks stops the round (``hand-too-large``)."""
    cards = len(variant.deck.cards)
    if cards <= MAX_HAND:
        return
    places: list[tuple[KeyPath, str]] = []
    if "offer" in names:
        places.append((("turn", names.index("offer"), "offer"), "a declined offer stays in the offerer's hand"))
    draw = variant.step("draw")
    if draw is not None and draw.discard_depth == "any":
        places.append((("turn", names.index("draw"), "draw", "discard_depth"), "a deep draw takes many cards"))
    if variant.buying is not None:
        places.append((("buying",), "each buy adds cards to the buyer's hand"))
    for path, why in places:
        report.warn(path, f"a hand may grow past the meld solver's {MAX_HAND} cards here ({why}, and the deck "
                    f"has {cards:,}): its deadwood is then not known, and a scoring formula that asks for it "
                    "stops the round (hand-too-large)", "hand-past-solver")


def _check_deep_draw(variant: Variant, names: Sequence[str], report: _Report) -> None:
    """``discard_depth: any`` needs the discard pile and, to meld the card it obliges, a
    meld step after the draw (R5-3); ``at_floor: discard_only`` needs draws from the pile
    (R5-5)."""
    draw = variant.step("draw")
    if draw is not None and draw.discard_depth == "any":
        index = names.index("draw")
        if "discard" not in draw.sources:
            report.error(("turn", index, "draw", "discard_depth"),
                         "discard_depth 'any' takes cards from the discard pile, but this draw step's "
                         "'from' has no 'discard'", "deep-draw")
        elif draw.deep_draw_must_meld and ("meld" not in names or names.index("meld") < index):
            report.error(("turn", index, "draw", "discard_depth"),
                         "a deep draw's card must be melded the same turn (deep_draw_must_meld), but no "
                         "'meld' step follows the draw (add one, or set deep_draw_must_meld: false)",
                         "deep-draw")
    if variant.stock.at_floor == "discard_only" and (draw is None or "discard" not in draw.sources):
        report.error(("stock", "at_floor"), "at_floor 'discard_only' goes on with draws from the discard "
                     "pile, but the draw step does not draw from it (turn: draw: from: [.., discard])",
                     "deep-draw")


def _shapes(deck: Deck, size: int) -> list[list[tuple[int, int]]]:
    """Faces (rank order, suit index) of the usual meld shapes of ``size`` cards."""
    n_suits, n_ranks = len(deck.suits), len(deck.ranks)
    shapes: list[list[tuple[int, int]]] = []
    for order in range(1, n_ranks + 1):  # same rank, suits cycling (then packs)
        shapes.append([(order, i % n_suits) for i in range(size)])
    for start in range(1, deck.max_sequence_position + 1):  # sequences
        orders = []
        for position in range(start, start + size):
            if deck.wrap:
                position = (position - 1) % n_ranks + 1
            elif position > deck.max_sequence_position:
                break
            orders.append(1 if position == n_ranks + 1 else position)
        if len(orders) != size or len(set(orders)) != size:
            continue
        for suit in range(n_suits):
            shapes.append([(o, suit) for o in orders])
        shapes.append([(o, i % n_suits) for i, o in enumerate(orders)])
        shapes.append([(o, 0 if i < size - 1 else 1 % n_suits) for i, o in enumerate(orders)])
    return shapes


@lru_cache(maxsize=256)
def natural_groups(deck: Deck, size: int) -> tuple[tuple[Card, ...], ...]:
    """Groups of ``size`` natural cards shaped like the usual melds.

    Same-rank groups, same-suit sequences, and mixed-suit sequences (suits cycling,
    or all one suit but the last). A probe, not every group: the shapes are those
    meld patterns test (same, distinct, consecutive).
    """
    by_face: dict[tuple[int, int], list[Card]] = {}
    for card in deck.cards:
        if card.rank is not None and card.suit is not None:
            by_face.setdefault((card.rank.order, card.suit.index), []).append(card)
    groups: list[tuple[Card, ...]] = []
    for shape in _shapes(deck, size):
        used: dict[tuple[int, int], int] = {}
        group: list[Card] = []
        for face in shape:
            copies = by_face.get(face, [])
            taken = used.get(face, 0)
            if taken >= len(copies):
                break
            used[face] = taken + 1
            group.append(copies[taken])
        else:
            groups.append(tuple(group))
    return tuple(groups)


@lru_cache(maxsize=256)
def wild_groups(deck: Deck, size: int) -> tuple[tuple[Card, ...], ...]:
    """The natural groups with wild cards in place of some naturals (the first, the
    last, or spread out), and ``size`` wild cards alone."""
    wilds = [c for c in deck.cards if c.wild]
    if not wilds:
        return ()
    groups: list[tuple[Card, ...]] = []
    for group in natural_groups(deck, size):
        for count in range(1, min(len(wilds), size) + 1):
            spread = tuple(round(i * (size - 1) / max(count - 1, 1)) for i in range(count))
            for spots in {tuple(range(count)), tuple(range(size - count, size)), spread}:
                if len(set(spots)) != count:
                    continue
                replaced = list(group)
                for spot, wild in zip(spots, wilds):
                    replaced[spot] = wild
                groups.append(tuple(replaced))
    if len(wilds) >= size:
        groups.append(tuple(wilds[:size]))
    return tuple(groups)


def sample_groups(deck: Deck, size: int) -> Iterator[tuple[Card, ...]]:
    """Probe groups of ``size`` cards: the natural ones, then those with wild cards
    (built only if asked for: most patterns accept a natural group first)."""
    yield from natural_groups(deck, size)
    yield from wild_groups(deck, size)


def size_bounds(pattern: Any) -> tuple[int, int]:
    """The sizes the probe tries for a compiled meld pattern: the bounds its
    :class:`~rummydsl.expr.PatternFacts` give, within 1..MAX_PROBE_SIZE."""
    facts = getattr(pattern, "facts", None)
    if not isinstance(facts, PatternFacts):
        return 1, MAX_PROBE_SIZE
    high = MAX_PROBE_SIZE if facts.max_size is None else min(facts.max_size, MAX_PROBE_SIZE)
    return facts.min_size, high


_KIND_SAMPLES: dict[tuple[Any, ...], dict[int, tuple[Card, ...]]] = {}


def _kind_samples(variant: Variant, pattern: Any) -> dict[int, tuple[Card, ...]]:
    """A sample group of every size up to a full hand that ``pattern`` accepts; past
    that, the smallest size it accepts (for the warning), up to MAX_PROBE_SIZE."""
    most = variant.max_hand_size + 1
    used = tuple(sorted((name, variant.options[name].value) for name in getattr(pattern, "options", ())))
    key = (variant.deck, getattr(pattern, "text", id(pattern)), used, most)
    if key in _KIND_SAMPLES:
        return _KIND_SAMPLES[key]
    found: dict[int, tuple[Card, ...]] = {}
    low, high = size_bounds(pattern)
    for size in range(low, min(high, MAX_PROBE_SIZE, variant.deck.size) + 1):
        if size > most and found:
            break
        for group in sample_groups(variant.deck, size):
            try:
                if pattern(group):
                    found[size] = group
                    break
            except ExpressionError:
                break
    _KIND_SAMPLES[key] = found
    return found


def sample_melds(variant: Variant) -> dict[str, dict[int, tuple[Card, ...]]]:
    """For each meld kind, a sample group of every size the probe could form."""
    return {kind.name: _kind_samples(variant, kind.pattern) for kind in variant.meld_kinds}


def _check_melds(variant: Variant, report: _Report) -> dict[str, dict[int, tuple[Card, ...]]]:
    samples = sample_melds(variant)
    most = variant.max_hand_size + 1
    for kind in variant.meld_kinds:
        path: KeyPath = ("melds", kind.name)
        if isinstance(variant.data.get("melds", {}).get(kind.name), dict):
            path += ("pattern",)
        sizes = sorted(samples[kind.name])
        if not sizes:
            report.error(path, f"meld kind {kind.name!r} can never be formed from this deck "
                         f"(no group of up to {MAX_PROBE_SIZE} cards matches its pattern)", "meld-impossible")
        elif sizes[0] > most:
            report.warn(path, f"meld kind {kind.name!r} needs at least {sizes[0]} cards, but a hand holds "
                        f"at most {most}: no hand can use it", "meld-unusable")
        elif sizes[0] < 3:
            report.warn(path, f"meld kind {kind.name!r} allows {sizes[0]}-card melds; melds usually have "
                        "at least 3 cards (add 'size >= 3')", "meld-small")
        _check_meld_shape(variant, kind, path, report)
    return samples


#: A kind without a shape may list every group of at most this many cards unwarned
#: (2^5 subsets of each 5 cards...): the warning is for patterns that explode.
_LOOSE_MELD_SIZE = 5


def _check_meld_shape(variant: Variant, kind: Any, path: KeyPath, report: _Report) -> None:
    """Warn about a kind whose candidate groups explode: no ``same(rank)`` or
    ``consecutive(rank)`` among its top-level ``and``s, so the meld solver lists every
    group of a hand's cards up to its greatest size (2^N for N cards), unless its
    melds split into smaller ones (then only the short ones are listed)."""
    facts = getattr(kind.pattern, "facts", None)
    if not isinstance(facts, PatternFacts):
        facts = PatternFacts()  # no facts: no shape (melds.shapes.shape_of_pattern gives "any")
    if facts.same_rank or facts.consecutive or (facts.max_size is not None and facts.max_size <= _LOOSE_MELD_SIZE):
        return
    if split_sizes({kind.name: kind.pattern})[kind.name] is not None:
        return
    top = "no greatest size" if facts.max_size is None else f"up to {facts.max_size} cards"
    report.warn(path, f"meld kind {kind.name!r} has no shape the meld solver can use (no same(rank) or "
                f"consecutive(rank) among its top-level 'and's) and {top}: every group of a hand's cards is "
                f"a candidate, so big hands stop at the solver's work bound ({MAX_MELD_WORK:,}, "
                "docs/limits.md)", "meld-explodes")


def _check_contract(variant: Variant, report: _Report,
                    samples: dict[str, dict[int, tuple[Card, ...]]]) -> None:
    contract = variant.contract
    if contract is None or contract.melds is None:
        return
    largest = variant.max_hand_size + 1
    pieces = [(kind, size, group) for kind, by_size in samples.items()
              for size, group in by_size.items() if size <= largest]
    for number, view in _contract_rounds(variant):
        most = largest if view is None else view.hand_size + 1
        if not _contract_possible(contract.melds, pieces, most, view):
            when = "" if number is None else f" in round {number}"
            report.error(("contract", "melds"), f"the contract can never be met{when}: no set of up to 5 "
                         f"melds of this variant fitting in a hand of {most} cards satisfies it",
                         "contract-impossible")
            return


def _contract_rounds(variant: Variant) -> list[tuple[int | None, Any]]:
    """The rounds a contract is probed in: none for a contract that does not read the
    round; else each deal of a game of ``game.deals`` (CR-2), or the first."""
    contract = variant.contract
    assert contract is not None
    if not frozenset(getattr(contract.melds, "names", ())) & CONTRACT_ROUND_NAMES:
        return [(None, None)]
    players = tuple(range(variant.players))
    out: list[tuple[int | None, Any]] = []
    for number in range(1, (variant.game.deals or 1) + 1):
        size = variant.hand_size
        rule = variant.deal.hand_size_rule
        if rule is not None:  # the hand size of this deal (CR-2: 10, then 12)
            try:
                size = int(rule(RoundFacts(players=players, dealer=0, round=number, scores=(0,) * len(players))))
            except ExpressionError:
                size = variant.max_hand_size
        out.append((number, RoundFacts(players=players, dealer=0, round=number, hand_size=size,
                                       scores=(0,) * len(players),
                                       card_value=lambda card: variant.card_values[card.id])))
    return out


def _contract_possible(contract: Any, pieces: list[tuple[str, int, tuple[Card, ...]]], most: int,
                       view: Any) -> bool:
    """Whether some set of up to 5 sample melds fitting in ``most`` cards meets the contract."""
    for count in range(1, 6):
        for combo in itertools.combinations_with_replacement(pieces, count):
            if sum(size for _, size, _ in combo) > most:
                continue
            try:
                if contract([(kind, group) for kind, _, group in combo], view):
                    return True
            except ExpressionError:
                continue
    return False


def _check_knock(variant: Variant, report: _Report) -> None:
    knock = variant.knock
    if knock is None or knock.limit is None or not variant.card_values:
        return
    from .exprs import probe_round_values

    limits = probe_round_values(variant, knock.limit)
    if limits and max(limits) < 0:
        report.warn(("knock", "limit"), f"the knock limit is always below 0 ({max(limits)}): no hand can knock",
                    "knock-unreachable")
    worst = sum(sorted(variant.card_values, reverse=True)[: variant.max_hand_size])
    if limits and min(limits) >= worst:
        report.warn(("knock", "limit"), f"the knock limit ({min(limits)}) is at least the most deadwood a "
                    f"hand can hold ({worst}): every hand can knock at once", "knock-always")


def _check_integer_sizes(variant: Variant, report: _Report) -> None:
    """Score a sample round of each ending, every player holding the most deadwood a
    hand can: a formula that computes an integer past
    :data:`~rummydsl.limits.MAX_EXPR_INT` there (``let`` formulas that square each
    other) is an error in place, not a failure in the middle of a game. Other
    failures (a formula asking what the sample round does not have) are left to
    the checks that own them."""
    if not variant.card_values:
        return
    players = tuple(f"P{i}" for i in range(1, variant.players + 1))
    worst = sum(sorted(variant.card_values, reverse=True)[: variant.max_hand_size])
    scoring = variant.scoring
    reported: set[KeyPath] = set()

    def run(path: KeyPath, formula: Any, view: Any, p: Any, lets: dict[str, Any], ending: str) -> Any:
        try:
            return formula.fn(view, p, lets)
        except ExpressionError as problem:
            if problem.rule == "expr-limit" and path not in reported:
                reported.add(path)
                report.error_inside(path, problem, f" (scoring a sample {ending} round, every deadwood {worst})")
            raise

    for ending in SCORED_ENDING_NAMES:
        view = SimpleRoundView(players=players, ender=players[0], ending=ending, hand_size=variant.hand_size,
                               deadwoods={p: worst for p in players},
                               card_value=lambda card: variant.card_values[card.id])
        lets: dict[str, Any] = {}
        try:
            for name, formula in scoring.lets:
                lets[name] = run(("scoring", "let", name), formula, view, None, lets, ending)
        except ExpressionError:
            continue  # later formulas may need this one
        factor = 1
        if scoring.multiplier is not None:
            try:
                factor = int(run(("scoring", "multiplier"), scoring.multiplier, view, None, lets, ending))
            except (ExpressionError, TypeError, ValueError):
                pass
        for index, case in enumerate(scoring.cases):
            for field, per_player in (("when", False), ("points", True), ("ender", False), ("others", True)):
                formula = getattr(case, field)
                if formula is None:
                    continue
                for p in players if per_player else (None,):
                    try:
                        value = run(("scoring", "round", index, field), formula, view, p, lets, ending)
                    except ExpressionError:
                        break
                    if field != "when" and isinstance(value, int):
                        _check_sample_points(variant, report, reported, (index, field), value, factor, ending)


def _check_sample_points(variant: Variant, report: _Report, reported: set[KeyPath], case: tuple[int, str],
                         value: int, factor: int, ending: str) -> None:
    """A sample round's points ``value`` of scoring case ``case`` (index, field), times the
    multiplier ``factor``, and that round alone as a game's final figure (doubled by a
    shutout, with the game bonus and a box): each past
    :data:`~rummydsl.limits.MAX_EXPR_INT` is an error in place (rule ``expr-limit``),
    which play would otherwise meet in the middle of a game."""
    index, field = case
    sample = f"scoring a sample {ending} round, scoring.round[{index}].{field} gives {value:,}"
    points = value * factor
    if abs(points) > MAX_EXPR_INT:
        key: KeyPath = ("scoring", "multiplier")
        if key not in reported:
            reported.add(key)
            report.error(key, f"integer too large: the points times the multiplier ({value:,} times {factor:,}, "
                         f"{sample}) would be beyond {MAX_EXPR_INT:,} (the most a score may be)", "expr-limit")
        return
    game = variant.game
    figure = abs(points)
    if points > 0:  # the winner's figure: doubled by a shutout, with the bonuses
        figure = figure * (2 if game.shutout in ("double_total", "double_hand_points") else 1)
        figure += abs(game.game_bonus) + abs(game.box_bonus)
    if figure > MAX_EXPR_INT:
        bonus = ", a shutout, the game and box bonus" if points > 0 else ""
        key = ("scoring", "round", index, field)
        if key not in reported:
            reported.add(key)
            report.error(key, f"integer too large: one such round makes a final figure of {figure:,} (the "
                         f"points {points:,}{bonus}; {sample}), beyond "
                         f"{MAX_EXPR_INT:,} (the most a total may be)", "expr-limit")


def _check_scoring(variant: Variant, report: _Report) -> None:
    if not variant.scoring.cases:
        report.warn(("scoring", "round"), "no scoring case: nobody ever scores", "score-none")
    used: set[str] = set()
    for case in variant.scoring.cases:
        used |= set(getattr(case.when, "names", ()) or ())
    for _, compiled in variant.scoring.lets:
        used |= set(getattr(compiled, "names", ()) or ())
    if variant.stock.at_floor == "stock_end" and "stock_end" not in used:
        report.warn(("stock", "at_floor"), "the round ends at the stock floor, but no scoring case tests "
                    "'stock_end': such rounds score nothing", "score-stock-end")
    _check_stock_end_ender(variant, report)
    if variant.knock is None:
        for index, case in enumerate(variant.scoring.cases):
            names = set(getattr(case.when, "names", ()) or ())
            if names & {"knock", "gin", "big_gin"} and not names & {"out", "stock_end"}:
                report.warn(("scoring", "round", index, "when"), "this case tests a knock, but the variant "
                            "has no 'knock': it never applies", "score-unused")


_KNOCK_OR_OUT = frozenset({"knock", "gin", "big_gin", "out"})


def _names_through_lets(variant: Variant, compiled: Any) -> set[str]:
    """The names an expression uses, with those of every ``let`` it uses, transitively."""
    lets = dict(variant.scoring.lets)
    names = set(getattr(compiled, "names", ()) or ())
    todo = [n for n in names if n in lets]
    while todo:
        for name in getattr(lets[todo.pop()], "names", ()) or ():
            if name not in names:
                names.add(name)
                if name in lets:
                    todo.append(name)
    return names


def _check_stock_end_ender(variant: Variant, report: _Report) -> None:
    """A round ended at the stock floor has no ender (docs/language.md, the score
    context): a case that can apply then must not use ``ender`` (nor a ``let`` that
    does), nor give ``ender`` points. A case can apply at the stock end when its
    ``when`` names ``stock_end`` or names none of the other endings."""
    if variant.stock.at_floor != "stock_end":
        return
    for index, case in enumerate(variant.scoring.cases):
        when = _names_through_lets(variant, case.when)
        if "stock_end" not in when and when & _KNOCK_OR_OUT:
            continue
        base: KeyPath = ("scoring", "round", index)
        if "ender" in when:
            report.error(base + ("when",), "this case can apply when the round ends at the stock floor, "
                         "where nobody ended it, but 'when' uses 'ender'", "score-ender")
        for field in ("points", "ender", "others"):
            compiled = getattr(case, field)
            if compiled is None:
                continue
            if field == "ender":
                report.error(base + (field,), "this case can apply when the round ends at the stock floor, "
                             "where nobody ended it, so 'ender' points go to nobody; give them with "
                             "'points', or test another ending in 'when'", "score-ender")
            elif "ender" in _names_through_lets(variant, compiled):
                report.error(base + (field,), f"this case can apply when the round ends at the stock floor, "
                             f"where nobody ended it, but '{field}' uses 'ender'", "score-ender")


def _check_game(variant: Variant, report: _Report) -> None:
    game = variant.game
    if game.hollywood_games and game.match_games_to_win:
        report.error(("game", "hollywood"), "'hollywood' and 'match' cannot both be set", "game-mode")
    if game.deals is not None and game.hollywood_games:
        report.error(("game", "deals"), "'deals' and 'hollywood' cannot both be set: a shared score sheet "
                     "closes each game at its target", "game-mode")
    if game.winner == "lowest" and (game.game_bonus or game.box_bonus or game.shutout != "none"):
        report.warn(("game", "winner"), "the lowest total wins, but game_bonus, box_bonus or shutout add "
                    "points at the end (they would count against the winner)", "game-bonus-lowest")
    _check_buying(variant, report)


def _check_buying(variant: Variant, report: _Report) -> None:
    """``buying`` (CR-4) needs a discard pile and a draw from the stock and the pile."""
    if variant.buying is None:
        return
    draw = variant.step("draw")
    if draw is None or "stock" not in draw.sources or "discard" not in draw.sources:
        report.error(("buying",), "buying takes the top discard when the player to move draws from the "
                     "stock: the turn needs 'draw: {from: [stock, discard]}'", "buying-draw")
