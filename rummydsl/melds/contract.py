"""The contract search (SK-5): collections of disjoint melds that meet the contract.

A contract is a predicate over ``[(kind, cards), ...]``; the search tries
collections of disjoint candidate melds (at most ``contract_max_melds`` of them)
and, for each that meets it, the best arrangement of the cards left, where the
contract melds count as played (never deadwood).

A contract by deal (CR-2) reads the round as well as the melds; the solver calls a
contract with the melds alone, so such a contract is bound to a round first
(:class:`BoundContract`; without a round, to :func:`first_deal_facts`).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Sequence

from ..cards import Card
from ..expr.facts import ContractFacts
from ..expr.runtime import RoundFacts
from .search import INFINITE, ContractChoice, Found, HandSearch

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["contract_search", "meets_contract", "BoundContract", "first_deal_facts"]


def meets_contract(search: HandSearch, chosen: list[ContractChoice]) -> bool:
    """Whether the chosen melds, with some kind each forms, meet the contract."""
    core = search.core
    predicate = core.contract
    assert predicate is not None
    kind_names = core.kind_names
    groups: list[tuple[list[str], tuple[Card, ...]]] = []
    wilds_taken = 0
    for choice in chosen:
        local_mask, k, _natural_mask, _kinds = search.cands[choice.candidate]
        cards = [search.naturals[j] for j in range(search.n) if local_mask >> j & 1]
        cards.extend(search.wild_cards[wilds_taken:wilds_taken + k])
        wilds_taken += k
        names = [kind_names[b] for b in range(len(kind_names)) if choice.kinds >> b & 1]
        groups.append((names, tuple(cards)))
    for pick in itertools.product(*(names for names, _ in groups)):
        if predicate([(kind, cards) for kind, (_, cards) in zip(pick, groups)]):
            return True
    return False


def contract_search(search: HandSearch, existence: bool) -> list[Found]:
    """Collections of disjoint melds that meet the contract.

    With ``existence``, the first one found (a list of one, or empty); otherwise
    every collection whose remaining cards arrange with the least cost (the
    caller picks the canonical one among them).
    """
    core = search.core
    cands = search.cands
    depth_limit = core.contract_max_melds
    best: list[Found] = []
    full = (1 << search.n) - 1
    chosen: list[ContractChoice] = []
    total_wilds = search.wild_count
    least_melds, sizes = _contract_bounds(core.contract)
    if sizes is not None:  # a meld outside the contract's sizes is in no collection that meets it
        low, high = sizes
        cands = [c if low <= c[0].bit_count() + c[1] <= high else _NO_MELD for c in cands]

    def visit(start: int, used: int, wilds_used: int, faces_used: tuple[int, ...]) -> bool:
        for i in range(start, len(cands)):
            local_mask, k, _natural_mask, _kinds = cands[i]
            if local_mask & used or wilds_used + k > total_wilds:
                continue
            for faces, kinds in search.meld_options(i):
                if faces and not search.fits(faces, faces_used, 0):
                    continue
                now_used = tuple(sorted(faces_used + faces)) if faces else faces_used
                chosen.append(ContractChoice(i, faces, kinds))
                now_mask, now_wilds = used | local_mask, wilds_used + k
                if len(chosen) >= least_melds and meets_contract(search, chosen):
                    if existence:
                        best.append(Found(0.0, full ^ now_mask, total_wilds - now_wilds, 0, 0, tuple(chosen),
                                          now_used))
                        chosen.pop()
                        return True
                    # contract melds are played: they cost nothing
                    cost = search.rest_cost(full ^ now_mask, total_wilds - now_wilds, now_used)
                    if cost < INFINITE and (not best or cost <= best[0].cost):
                        found = Found(cost, full ^ now_mask, total_wilds - now_wilds, 0, 0, tuple(chosen), now_used)
                        if best and cost < best[0].cost:
                            best.clear()
                        best.append(found)
                if depth_limit is None or len(chosen) < depth_limit:
                    if visit(i + 1, now_mask, now_wilds, now_used):
                        chosen.pop()
                        return True
                chosen.pop()
        return False

    visit(0, 0, 0, ())
    return best


_NO_MELD = (-1, 1 << 30, 0, 0)
"""Stands for a candidate the contract cannot take: it overlaps every mask and needs
more wild cards than any hand has, so :func:`contract_search` skips it, and the other
candidates keep their indices."""


def _contract_bounds(contract: object) -> tuple[int, tuple[int, int] | None]:
    """From the contract's :class:`~rummydsl.expr.facts.ContractFacts`: the fewest melds
    a collection that meets it has, and the least and most cards of each of its melds
    (``None`` when the facts bound neither)."""
    facts = getattr(contract, "facts", None)
    if not isinstance(facts, ContractFacts):
        return 1, None
    low, high = facts.min_size, facts.max_size
    sizes = None if low <= 1 and high is None else (low, high if high is not None else 1 << 30)
    return max(1, facts.min_melds), sizes


def first_deal_facts(variant: Variant) -> RoundFacts:
    """The round names of a variant's first deal, dealt by P1 at totals of 0: where a
    contract by deal is judged without a round (``rummydsl melds``, a hand case)."""
    players = tuple(range(variant.players))
    return RoundFacts(players=players, dealer=0, round=1, hand_size=variant.deal.hand_size,
                      scores=(0,) * len(players))


class BoundContract:
    """A contract judged in one round: ``bound(melds)`` is ``contract(melds, view)``.

    The meld solver calls a contract with the melds alone; a contract by deal
    (CR-2) reads the round too, so the solver of a round gets it bound to that
    round's view. ``facts`` (what the contract says for certain) pass through.
    """

    __slots__ = ("contract", "view")

    def __init__(self, contract: Any, view: RoundFacts) -> None:
        self.contract = contract
        self.view = view

    @property
    def facts(self) -> Any:
        """The contract's :class:`~rummydsl.expr.facts.ContractFacts`."""
        return getattr(self.contract, "facts", None)

    @property
    def names(self) -> Any:
        """The names the contract reads."""
        return getattr(self.contract, "names", frozenset())

    def __call__(self, melds: Sequence[tuple[str, Sequence[Card]]]) -> bool:
        return bool(self.contract(melds, self.view))
