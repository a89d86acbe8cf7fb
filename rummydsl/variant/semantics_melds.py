"""The semantic checks of the meld kinds and the contract.

Each meld kind can be formed from the deck (``meld-impossible``), fits in a hand
(``meld-unusable``), is not oddly small (``meld-small``) and has a shape the solver can
use (``meld-explodes``), and keeps no description written for the parent's pattern
(``description-stale``); the contract can be met by some set of sample melds, in every
round it reads (``contract-impossible``). The samples come from :mod:`.semantics_probe`.
"""

from __future__ import annotations

import itertools
from typing import Any, Mapping

from ..cards import Card
from ..errors import ExpressionError
from ..expr.check import CONTRACT_ROUND_NAMES
from ..expr.facts import PatternFacts, split_sizes
from ..expr.runtime import RoundFacts
from ..limits import MAX_MELD_WORK
from .model import Variant
from .semantics_probe import MAX_PROBE_SIZE, sample_melds
from .semantics_report import KeyPath, Report

__all__ = ["check_melds", "check_contract"]


def check_melds(variant: Variant, report: Report) -> dict[str, dict[int, tuple[Card, ...]]]:
    """Each meld kind can be formed, fits in a hand and has a usable shape; gives the
    sample melds found (for :func:`check_contract`)."""
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
        _check_description(variant, kind.name, path, report)
    return samples


def _check_description(variant: Variant, name: str, path: KeyPath, report: Report) -> None:
    """Warn when a kind's pattern changes but its description is the parent's: ``explain``
    would show the old words beside the new pattern (``description-stale``)."""
    parent = variant.parent_data
    if parent is None:
        return
    old = (parent.get("melds") or {}).get(name)
    new = (variant.data.get("melds") or {}).get(name)
    if not (isinstance(old, Mapping) and isinstance(new, Mapping)):
        return
    described = old.get("description")
    if not described or new.get("description") != described or new.get("pattern") == old.get("pattern"):
        return
    report.warn(path, f"meld kind {name!r} has a new pattern but keeps the description it inherits from "
                f"{parent.get('id', 'its parent')} ({described!r}), written for the pattern "
                f"{old.get('pattern')!r}: write a 'description' that fits the new pattern, or "
                "'description: null' to drop it", "description-stale")



#: A kind without a shape may list every group of at most this many cards unwarned
#: (2^5 subsets of each 5 cards...): the warning is for patterns that explode.
_LOOSE_MELD_SIZE = 5


def _check_meld_shape(variant: Variant, kind: Any, path: KeyPath, report: Report) -> None:
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


def check_contract(variant: Variant, report: Report,
                    samples: dict[str, dict[int, tuple[Card, ...]]]) -> None:
    """The contract can be met by up to 5 of the ``samples`` in every round it reads
    (``contract-impossible``)."""
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
