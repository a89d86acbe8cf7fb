"""The meld probe: sample groups of cards that a meld kind's pattern accepts.

The semantic checks ask whether each meld kind can ever be formed from the deck and
whether the contract can be met; they answer with samples, not a search of every
group: groups shaped like the usual melds (same rank, same-suit and mixed-suit
sequences), then the same with wild cards, in the sizes the pattern allows
(:func:`size_bounds`), up to :data:`MAX_PROBE_SIZE` cards.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterator

from ..cards import Card, Deck
from ..errors import ExpressionError
from ..expr.facts import PatternFacts
from .model import Variant

__all__ = ["MAX_PROBE_SIZE", "natural_groups", "wild_groups", "sample_groups", "size_bounds", "sample_melds"]

#: The largest meld size the formability probe tries.
MAX_PROBE_SIZE = 14


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
