"""The contract search (SK-5): collections of disjoint melds that meet the contract.

A contract is a predicate over ``[(kind, cards), ...]``; the search tries
collections of disjoint candidate melds (at most ``contract_max_melds`` of them)
and, for each that meets it, the best arrangement of the cards left, where the
contract melds count as played (never deadwood).
"""

from __future__ import annotations

import itertools

from ..cards import Card
from .search import INFINITE, ContractChoice, Found, HandSearch

__all__ = ["contract_search", "meets_contract"]


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
                if meets_contract(search, chosen):
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
