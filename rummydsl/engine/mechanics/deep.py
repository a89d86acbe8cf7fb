"""Drawing deeper into the discard pile, and the meld it obliges (R5-3).

With the draw step's ``discard_depth: any`` the player may name any card of the
discard pile (``P1 draw discard 7H``) and takes it with every card above it. With
``deep_draw_must_meld`` (the default) the deepest card taken, unless it was the top
card, must be melded or laid off in the same turn: the meld step cannot be closed,
nor a card discarded, nor a knock made, while it is still in the hand.

So that a player is never stuck with such a card, a deep draw is legal only when the
hand with the cards taken can meld that card (in a group of the hand, or by laying it
off onto a table meld the player may add to), and a meld or lay-off of other cards is
legal only when it leaves that possible. A card whose face is in the pile twice (two
packs) is taken at its topmost copy; copies being interchangeable, melding any card of
the face the player holds meets the obligation.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Sequence

from ...cards import Card
from ...variant.model import DrawStep
from ..actions import Action, Draw, Knock, Meld
from ..state import Phase, TableMeld
from .layoffs import _fits
from .melding import MAX_LISTED, single_melds

from ..fields import Field, card_json
if TYPE_CHECKING:
    from ..round import Round

__all__ = ["depth_any", "deep_index", "pending", "can_use", "keeps_use", "pending_reason"]

FIELDS: tuple[Field, ...] = (
    Field("must_meld", lambda rnd: None, json=lambda rnd, text: card_json(rnd.must_meld, text), turn=True),
    Field("must_meld_copies", lambda rnd: 0, turn=True),
)
"""``must_meld``: the card drawn from deep in the pile this turn, to be melded or laid
off before the turn goes on (R5-3); ``must_meld_copies``: how many of its face the
hand held just after that draw."""



def _draw_step(rnd: Round) -> DrawStep | None:
    return rnd.variant.step("draw")


def depth_any(rnd: Round) -> bool:
    """Whether the draw step may take cards from deep in the discard pile."""
    step = _draw_step(rnd)
    return step is not None and step.discard_depth == "any"


def deep_index(rnd: Round, card: Card) -> int | None:
    """The index in the discard pile of the topmost card with ``card``'s face, or None."""
    pile = rnd.discards
    for index in range(len(pile) - 1, -1, -1):
        if rnd.find((pile[index],), card, ()) is not None:
            return index
    return None


def _copies(rnd: Round, card: Card) -> list[Card]:
    """The cards of the turn player's hand with ``card``'s face (that card first)."""
    key = rnd.variant.deck.face_key(card)
    hand = rnd.hands[rnd.turn_player]
    same = [held for held in hand if held is card]
    same += [held for held in hand if held is not card and rnd.variant.deck.face_key(held) == key]
    return same


def pending(rnd: Round) -> Card | None:
    """The deep-drawn card still to be melded this turn (a card of its face in the hand),
    or None once it is melded or laid off.

    With several packs copies of a face are interchangeable: melding either copy of
    the face meets the obligation (the hand then holds fewer cards of that face than
    just after the draw, :attr:`Round.must_meld_copies`).
    """
    card = rnd.must_meld
    if card is None:
        return None
    same = _copies(rnd, card)
    if len(same) < rnd.must_meld_copies or not same:
        return None
    return same[0]


def pending_reason(rnd: Round) -> str:
    """Why the turn cannot go on while :func:`pending` holds a card."""
    return (f"{rnd.must_meld} was drawn from deep in the discard pile and must be melded or "
            f"laid off this turn (R5-3)")


def _targets(rnd: Round, player: int) -> list[int]:
    """Whose melds ``player``'s meld step may add to (whatever the phase now)."""
    step = rnd.variant.step("meld")
    if step is None or not rnd.met_contract[player]:
        return []
    targets = [player] if step.add_to_own else []
    if step.add_to_opponents:
        targets.extend(q for q in range(rnd.players) if q != player)
    return targets


def _near(rnd: Round, card: Card, other: Card, span: int) -> bool:
    """Whether ``other`` could share a meld with ``card`` (same rank, a wild card, or
    sequence positions less than ``span`` apart); a cheap filter before the patterns."""
    if other.wild or card.wild or other.rank is card.rank:
        return True
    deck = rnd.variant.deck
    if deck.wrap or card.rank is None or other.rank is None:
        return True
    return any(abs(a - b) < span for a in deck.sequence_positions(card.rank)
               for b in deck.sequence_positions(other.rank))


def can_use(rnd: Round, player: int, card: Card, hand: Sequence[Card],
            table: Sequence[Sequence[TableMeld]] | None = None) -> bool:
    """Whether ``card`` of ``hand`` can be melded this turn: in a group of ``hand`` that
    forms a meld kind, or laid off onto a table meld ``player`` may add to."""
    rules = rnd.rules
    melds = rnd.table if table is None else table
    for owner in _targets(rnd, player):
        for meld in melds[owner]:
            if _fits(rnd, meld, card, hand):
                return True
    shapes = rules.shapes.values()
    low = max(1, min((shape.min_size for shape in shapes), default=3))
    span = max(low, MAX_LISTED)
    pool = [c for c in hand if c is not card and _near(rnd, card, c, span)]
    if len(pool) + 1 < low:
        return False
    families = {shape.family for shape in shapes}
    if "any" in families or card.wild or any(c.wild for c in pool):
        for size in range(low, min(len(pool) + 1, MAX_LISTED) + 1):
            for others in itertools.combinations(pool, size - 1):
                if rules.kinds_of((card, *others), hand=hand):
                    return True
        return False
    # the groups the kinds' shapes allow (one rank; one card per sequence position)
    return any(any(c is card for c in group) for group in single_melds(rnd, [card, *pool]))


def deep_draws(rnd: Round, player: int) -> list[Action]:
    """The deep draws ``player`` may make now: each card below the top (one per face)
    whose taking leaves it meldable (or every one, without ``deep_draw_must_meld``)."""
    step = _draw_step(rnd)
    pile = rnd.discards
    if step is None or step.discard_depth != "any" or len(pile) < 2:
        return []
    out: list[Action] = []
    seen: set[int] = set()
    hand = rnd.hands[player]
    for index in range(len(pile) - 2, -1, -1):
        card = pile[index]
        face = rnd.variant.deck.face_key(card)
        if face in seen:
            continue
        seen.add(face)
        if step.deep_draw_must_meld and not can_use(rnd, player, card, [*hand, *pile[index:]]):
            continue
        out.append(Draw(player, "discard", card))
    return out


def deep_draw_reason(rnd: Round, action: Draw) -> str | None:
    """Why the deep draw ``action`` is not allowed, or None."""
    assert action.card is not None
    step = _draw_step(rnd)
    if step is None or step.discard_depth != "any":
        return "this variant draws only the top card of the discard pile ('draw discard')"
    index = deep_index(rnd, action.card)
    if index is None:
        return f"{action.card} is not in the discard pile"
    pile = rnd.discards
    if (index < len(pile) - 1 and step.deep_draw_must_meld
            and not can_use(rnd, action.player, pile[index], [*rnd.hands[action.player], *pile[index:]])):
        return (f"{pile[index]} could not be melded or laid off from this hand with the cards above it, "
                f"and the deepest card taken must be (R5-3)")
    return None


def keeps_use(rnd: Round, action: Action) -> bool:
    """Whether the pending deep-drawn card can still be melded after ``action``
    (a meld or lay-off of other cards); true when nothing is pending or the action uses it."""
    card = pending(rnd)
    if card is None or isinstance(action, Knock):
        return True
    from .melding import MeldMechanic

    if rnd.phase is not Phase.MELD:
        return True
    used = sum(len(meld) for meld in action.melds) if isinstance(action, Meld) else 1
    if used >= len(rnd.hands[action.player]):
        return True  # it empties the hand, the deep card with it (and would end the round)
    trial = rnd.copy()
    MeldMechanic().apply(trial, action)
    left = pending(trial) if trial.result is None else None
    if left is None:
        return True
    return can_use(trial, action.player, left, trial.hands[action.player])
