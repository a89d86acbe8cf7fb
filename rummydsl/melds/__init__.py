"""Meld recognition and the exact least-deadwood solver (RULES.md C-5, C-6).

A :class:`MeldRules` holds what a variant says about melds: the deck, the meld
kinds (a predicate per kind, usually compiled from a meld pattern), the card
values, the contract and the deadwood rule. It answers:

- :meth:`MeldRules.kinds_of`: which kinds a group of cards forms;
- :meth:`MeldRules.solve`: the canonical arrangement of a hand (the least
  deadwood), optionally one that meets the contract, optionally with lay-offs
  onto melds already on the table;
- :meth:`MeldRules.best_discard` / :meth:`MeldRules.solve_discard`: the knock
  question (which card to discard from a hand one card over the hand size), in
  one search;
- :meth:`MeldRules.min_deadwood`, :meth:`MeldRules.holds_contract`.

The package is one front over several strategies (docs/performance.md, "Meld
solver", has the numbers), each in its own module:

- :mod:`.core`: results (:class:`Arrangement`, :class:`LayoffTarget`), cards,
  values, and judging a group (memoised on its card-id bitmask and wild count);
- :mod:`.shapes` and :mod:`.candidates`: the candidate melds of a hand, listed
  from each kind's :class:`KindShape` and judged by the predicates;
- :mod:`.search`: the general search (wild cards, lay-offs, the discard), a
  memoised recursion over the mask of the cards left; :mod:`.contract` and
  :mod:`.meanings` (``wild_unique_card``) extend it;
- :mod:`.decktable`: every wild-free meld of the deck listed once, and a
  search over it for hands without wild cards;
- :mod:`.suittables` (with :mod:`.rankmasks`): per-suit tables over rank
  masks plus a choice of sets, for decks whose melds are runs in a suit and
  sets of a rank; :mod:`.setvalues` gives them a floor of the least deadwood
  that chooses no set (most turns' knock question), :mod:`.suitdiscards` their
  knock question's tables;
- :mod:`.rankwindows`: a wild-free hand split into the parts no meld crosses
  (windows of consecutive ranks), each solved alone, by a search in rank order
  over the melds its shapes list when melds are free and the deck does not wrap;
- :mod:`.report`: :func:`melds_report`, the ``rummydsl melds --json`` object;
- :mod:`.rules`: :class:`MeldRules`, which picks the fastest strategy that
  applies to each question.
- :mod:`.bind`: :func:`~.bind.meld_rules`, the solver of a variant (kept, and bound to
  the round for a contract by deal, :class:`~.contract.BoundContract`), which the
  engine asks for in every round.

**One canonical arrangement.** Several arrangements of a hand often reach the
least deadwood (``7S TS QS 6H 7H 8H 7D KD JC QC`` melds 6H-7H-8H or 7S-7H-7D,
64 either way), and the melds shown decide what a defender may lay off. Every
strategy returns the same one, the least in this order:

1. the least deadwood;
2. for the knock question, the discard: the highest card value, then the
   highest card id;
3. with ``excludes_concealed_melds`` false, the least value outside melds
   (melding wins over keeping cards loose);
4. then the groups, card by card: take the lowest natural card whose group
   differs between two arrangements; the one whose group of that card is
   preferred wins. Groups are preferred by, in turn: the larger card-id mask of
   their natural cards (so any meld beats leaving the card unmatched, and the
   longer meld beats the shorter), more wild cards, an own meld before a
   lay-off before an unmatched card, the lower table index, and (with
   ``wild_unique_card``) the smaller sorted tuple of meanings. When the natural
   cards agree, the groups of wild cards alone are compared the same way
   (more wild cards first). With ``contract=True`` the contract melds are also
   compared this way, after the whole arrangement.

Wild cards are interchangeable in this order; the arrangement names them by
dealing them lowest id first to its groups in the order above (the discarded
wild card, if any, is the highest-id one). The order is a key
(``core.GroupKey``): each search applies it as it reads its answer off its memo
(at each step the first best move in order of preference), so no strategy lists
all the best arrangements; only the per-suit tables compare the few choices of
sets that tie, and the contract search the collections that tie. RULES.md C-6
lets the declaring player pick any best arrangement; this one is what a game
engine uses when they do not. Arrangement lists its melds in this order.

>>> from rummydsl.cards import Deck
>>> deck = Deck.preset("standard52")
>>> def gin_set(cards):
...     return 3 <= len(cards) <= 4 and len({c.rank for c in cards}) == 1
>>> def gin_run(cards):
...     orders = sorted(c.rank.order for c in cards)
...     return (len(cards) >= 3 and len({c.suit for c in cards}) == 1
...             and orders == list(range(orders[0], orders[0] + len(cards))))
>>> rules = MeldRules(deck, {"set": gin_set, "run": gin_run},
...                   [min(c.rank.order, 10) for c in deck.cards],
...                   shapes={"set": KindShape("same_rank", 3, 4),
...                           "run": KindShape("sequence", 3)})
>>> best = rules.solve(deck.parse_cards("7C 7S 7D 8D 9D KH"))
>>> best.deadwood, deck.format_cards(best.unmatched)
(24, '7S KH 7C')
>>> best = rules.solve(deck.parse_cards("7S TS QS 6H 7H 8H 7D KD JC QC"))
>>> best.deadwood, [deck.format_cards(meld) for meld in best.melds]
(64, ['7S 7H 7D'])
"""

from __future__ import annotations

from .core import MAX_HAND, Arrangement, LayoffTarget
from .rules import MeldRules, melds_report
from .shapes import KindShape, shape_of_pattern

__all__ = [
    "MAX_HAND",
    "KindShape",
    "LayoffTarget",
    "Arrangement",
    "MeldRules",
    "melds_report",
    "shape_of_pattern",
]
