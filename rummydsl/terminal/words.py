"""What the play screen says of the variant itself: its moves, its cards, its contract.

Everything here is read from the variant (its turn steps, its deck, its contract), so a
house rule's screen speaks its own rules: a game with an offer step lists ``offer`` and
``take``/``decline`` and no ``discard``; a deck of numbers and colours writes its
examples ``4R``, ``13Y``, ``*``.

>>> from rummydsl.variant import load_variant
>>> print(card_notation(load_variant("ginski").deck))
cards are a rank then a suit: ranks 1 2 3 4 5 6 7 8 9 10 11 12 13, suits R (red) B (blue) G (green) P (purple) Y (yellow); * is a wild card (4R, 13Y, *)
"""

from __future__ import annotations

import itertools
import textwrap
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..errors import RummyDslError

if TYPE_CHECKING:
    from ..cards import Card, Deck
    from ..variant.model import Variant

__all__ = ["help_text", "card_notation", "example_cards", "contract_words", "COMMANDS"]

COMMANDS = """\
Other commands: 'hint' asks the greedy agent what it would play, 'score' shows the
score sheet, 'all' lists every move when similar lay-downs are folded, 'undo' takes
back your last move (and what was played since), 'show' prints the table again,
'save FILE' writes the game to FILE (go on later with 'rummydsl play VARIANT --resume
FILE'), 'help' this text, 'quit' (or Ctrl-D) leaves the game and prints the totals."""


def _card(deck: Deck, order: int, suit: int) -> Card:
    """The first copy of the natural card of rank ``order`` (from 1) in suit ``suit`` (from 0),
    both taken within the deck's ranks and suits."""
    order = min(max(order, 1), len(deck.ranks))
    suit = min(suit, len(deck.suits) - 1)
    for card in deck.cards:
        if not card.wild and card.rank is not None and card.suit is not None \
                and card.rank.order == order and card.suit.index == suit:
            return card
    return deck.cards[0]  # pragma: no cover - every deck has every natural face


def example_cards(deck: Deck) -> dict[str, str]:
    """Cards of this deck for the help's examples: a discard, a knock, a run of three and
    the card that lays off onto it.

    >>> from rummydsl.variant import load_variant
    >>> example_cards(load_variant("gin_rummy").deck)["run"]
    '3H 4H 5H'
    >>> example_cards(load_variant("ginski").deck)["discard"]
    '7B'
    """
    run = [_card(deck, order, 1) for order in (3, 4, 5)]
    return {"discard": str(_card(deck, 7, 1)), "knock": str(_card(deck, 9, len(deck.suits) - 1)),
            "run": " ".join(str(card) for card in run), "layoff": str(_card(deck, 6, 1)),
            "set": " ".join(str(_card(deck, 7, suit)) for suit in range(3))}


def card_notation(deck: Deck) -> str:
    """How this deck's cards are written, with examples of its own."""
    ranks = " ".join(rank.symbol + "".join(f" (or {alias})" for alias in rank.aliases) for rank in deck.ranks)
    suits = " ".join(f"{suit.symbol} ({suit.name})" for suit in deck.suits)
    examples = [str(_card(deck, 4, 0)), str(_card(deck, len(deck.ranks), len(deck.suits) - 1))]
    wild = ""
    if deck.wilds:
        wild = f"; {str(next(card for card in deck.cards if card.wild))} is a wild card"
        examples.append(str(next(card for card in deck.cards if card.wild)))
    return f"cards are a rank then a suit: ranks {ranks}, suits {suits}{wild} ({', '.join(examples)})"


def _moves(variant: Variant) -> list[tuple[str, str]]:
    """Each move of the variant as (an example, what it does), in the order of a turn."""
    cards = example_cards(variant.deck)
    moves: list[tuple[str, str]] = []
    draw = variant.step("draw")
    meld = variant.step("meld")
    offer = variant.step("offer")
    layoff_anywhere = meld is not None and (meld.add_to_own or meld.add_to_opponents)
    if variant.upcard_offer is not None and variant.deal.upcard:
        moves.append(("draw discard / pass", "at the first turn, take the upcard or refuse it"))
    if draw is not None:
        moves.append(("draw stock", "draw the top card of the stock"))
        if "discard" in draw.sources:
            moves.append(("draw discard", "take the top card of the discard pile"))
            if draw.discard_depth == "any":
                moves.append((f"draw discard {cards['discard']}",
                              f"take {cards['discard']} and every card above it from the pile"))
    if variant.buying is not None:
        moves.append(("buy", "take the top discard out of turn, with a penalty card from the stock"))
    if meld is not None:
        first = " (the first lay-down must meet the contract)" if variant.contract is not None else ""
        moves.append((f"meld [{cards['run']}] [{cards['set']}]", f"put melds down{first}"))
        if layoff_anywhere:
            moves.append((f"layoff {cards['layoff']} on P1#1", "add a card to a table meld (P1's first)"))
        if meld.optional:
            moves.append(("done", "end the meld step"))
    if variant.step("discard") is not None:
        moves.append((f"discard {cards['discard']}", "discard a card, ending your turn"))
    if offer is not None:
        moves.append((f"offer {cards['discard']}", "offer a card to the next player, ending your turn"))
        moves.append(("take / decline", "answer a card offered to you"))
    if variant.knock is not None:
        moves.append((f"knock {cards['knock']}", f"end the round, discarding {cards['knock']} face down "
                                                 "and showing your melds"))
        if variant.layoff.onto != "none":
            moves.append((f"layoff {cards['layoff']} on P1#1", "after a knock, add a card to the knocker's meld"))
        if variant.deadwood_arrangement == "as_shown":  # the melds shown are what count
            moves.append((f"meld [{cards['run']}] / done", "after a knock, show your melds (you are scored on "
                                                          "what you show), then finish"))
        else:  # a defender is scored on its best melds: 'done' is all it needs
            moves.append(("done", "after a knock, finish (you are scored on your best melds)"))
    if variant.stock.last_discard_claim:
        moves.append(("draw discard / pass", "claim the last discard or let it go"))
    kept: dict[str, str] = {}
    for example, meaning in moves:  # a move two rules name (a lay-off in turn and after a knock) once
        kept.setdefault(example, meaning)
    return list(kept.items())


def help_text(variant: Variant) -> str:
    """The help of the play screen: this variant's moves with examples in its own cards,
    how its cards are written, and the other commands.

    >>> from rummydsl.variant import load_variant
    >>> text = help_text(load_variant("skarney_gin"))
    >>> "offer 7H" in text and "take / decline" in text and "discard 7H" not in text and "knock" not in text
    True
    >>> "discard 7B" in help_text(load_variant("ginski"))
    True
    """
    moves = _moves(variant)
    width = max(len(example) for example, _ in moves)
    lines = [f"Moves in {variant.name}: type a move's number, or the move itself (your seat, "
             "e.g. P1, may be left out):"]
    lines.extend(f"  {example:<{width}}  {meaning}" for example, meaning in moves)
    lines.extend(textwrap.wrap(card_notation(variant.deck)[0].upper() + card_notation(variant.deck)[1:] + ".", 88))
    lines.append(COMMANDS)
    return "\n".join(lines)


# -- the contract in words ------------------------------------------------------------

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen")
_MOST_MELDS = 5
"""The most melds a contract is probed with (as ``check`` probes it: contract-impossible)."""
_SIZES_PROBED = 4
"""How many sizes of each kind are probed, from its smallest."""


def _number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


Piece = tuple[str, int, Sequence["Card"]]


def _meets(contract: Callable[[Any], Any], combo: Sequence[Piece]) -> bool:
    try:
        return bool(contract([(kind, cards) for kind, _, cards in combo]))
    except RummyDslError:
        return False


def contract_words(contract: Callable[[Any], Any], samples: dict[str, dict[int, tuple[Card, ...]]],
                   most: int) -> str | None:
    """The contract in words (``three melds of exactly three cards``, ``a set and a run``),
    found by asking ``contract`` (a predicate over ``[(kind, cards), ...]``, bound to the
    round) about sample melds of each kind (``samples``, as ``check`` probes the contract),
    fitting in ``most`` cards. ``None`` when no collection of up to five melds meets it.

    The smallest collection that meets it is worded meld by meld: a meld whose kind can
    be any kind is "a meld", one whose size cannot grow is "of exactly N cards", one that
    needs more than its kind's smallest size "of N or more cards"; "at least" when one
    more meld still meets it. A contract that reads more than kinds and sizes may be
    worded too simply: ``explain`` gives its formula.

    >>> from rummydsl.variant import load_variant
    >>> from rummydsl.variant.semantics_probe import sample_melds
    >>> v = load_variant("skarney_gin")
    >>> contract_words(v.contract.melds, sample_melds(v), 11)
    'three melds of exactly three cards'
    """
    pieces: list[Piece] = []
    for kind, by_size in samples.items():
        for size in sorted(by_size)[:_SIZES_PROBED]:
            pieces.append((kind, size, by_size[size]))
    found: tuple[Piece, ...] | None = None
    for count in range(1, _MOST_MELDS + 1):
        combos = [c for c in itertools.combinations_with_replacement(pieces, count)
                  if sum(size for _, size, _ in c) <= most and _meets(contract, c)]
        if combos:
            found = min(combos, key=lambda c: sum(size for _, size, _ in c))
            break
    if found is None:
        return None
    parts: dict[str, int] = {}
    for index, (kind, size, _) in enumerate(found):
        rest = found[:index] + found[index + 1:]
        others = [p for p in pieces if p[1] == size and p[0] != kind]
        free = bool(others) and all(_meets(contract, rest + (other,)) for other in others)
        name = "meld" if free else kind
        sizes = sorted(samples[kind])
        bigger = [p for p in pieces if p[0] == kind and p[1] == size + 1]
        grows = bool(bigger) and _meets(contract, rest + (bigger[0],))
        if not grows and bigger:
            what = f"of exactly {_number(size)} cards"
        elif size > sizes[0]:
            what = f"of {_number(size)} or more cards"
        else:
            what = ""
        key = f"{name}\0{what}"
        parts[key] = parts.get(key, 0) + 1
    words = []
    for key, n in parts.items():
        name, what = key.split("\0")
        count_word = "a" if n == 1 and len(parts) > 1 else _number(n)
        words.append(" ".join(w for w in (count_word, _plural(name, n), what) if w))
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    if _meets(contract, found + (found[-1],)) and sum(p[1] for p in found) + found[-1][1] <= most:
        text = "at least " + text
    return text
