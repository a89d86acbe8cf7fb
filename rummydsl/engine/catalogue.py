"""Every action of a variant as an integer: the fixed catalogue a learning agent sees.

An :class:`ActionSpace` numbers every action a seat can take in a variant at a given
player count, the same numbers in every state, as OpenSpiel numbers Gin Rummy's. An id
says nothing of the seat: it is the action of whoever is to move.

Most actions are one id: the draws, ``pass``, ``take``, ``decline``, ``done``, ``buy``,
a discard, an offer, a knock by its discard (the knocker shows the canonical
arrangement with least deadwood, as ``P1 knock KC`` does), a deep draw by its card, a
lay-off by card, meld owner and meld number. Putting melds down is too large to number
whole (a contract lay-down is any choice of melds from the hand), so it takes several
ids, one card at a time, as OpenSpiel lays one meld at a time:

- ``P1 choose 7H``: the next card of the meld being chosen;
- ``P1 close``: that meld is complete, another follows;
- ``P1 lay``: that meld is complete and the melds chosen go down together.

``P1 meld [3S 4S 5S] [7H 7D 7C]`` is ``choose 3S, choose 4S, choose 5S, close,
choose 7C, choose 7D, choose 7H, lay`` (the melds in the order laid, which numbers them
on the table, each meld's cards by face number): :meth:`ActionSpace.encode` gives the ids. A several-pack
deck numbers faces, not copies: the copy is the one the hand holds. A chance outcome
(:class:`DealCard`: the next card dealt; :class:`FirstDealer`) has ids of its own.

docs/engine.md ("The state you step: Match", Ids) has a worked example, tested with the docs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from ..cards import Card
from ..errors import MalformedActionError
from ..melds.shapes import shape_of_pattern
from .actions import (Action, Buy, Decline, Discard, Done, Draw, Knock, Layoff, Meld, Offer, Pass, Take,
                      player_name)
from .prebuilt import Prebuilt

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["ActionSpace", "Choose", "Close", "Lay", "DealCard", "FirstDealer", "Step", "ChanceOutcome",
           "MatchAction", "STEP_VERBS", "ONE_ID_ACTIONS", "MATCH_ACTION_TYPES"]


@dataclass(frozen=True, slots=True)
class Choose:
    """The next card of the meld being chosen, one id at a time: ``P1 choose 7H``."""

    player: int
    card: Card

    def __str__(self) -> str:
        return f"{player_name(self.player)} choose {self.card}"

    def __repr__(self) -> str:
        return f"Choose({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Close:
    """The meld being chosen is complete and another follows: ``P1 close``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} close"

    def __repr__(self) -> str:
        return f"Close({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Lay:
    """The meld being chosen is complete, and the melds chosen go down: ``P1 lay``."""

    player: int

    def __str__(self) -> str:
        return f"{player_name(self.player)} lay"

    def __repr__(self) -> str:
        return f"Lay({str(self)!r})"


@dataclass(frozen=True, slots=True)
class DealCard:
    """A chance outcome: the next card dealt is ``card`` (``deal 7H``). The deck is dealt
    whole in the engine's order: the hands card by card from the dealer's left, the
    upcard, then the stock from its top."""

    card: Card

    def __str__(self) -> str:
        return f"deal {self.card}"

    def __repr__(self) -> str:
        return f"DealCard({str(self)!r})"


@dataclass(frozen=True, slots=True)
class FirstDealer:
    """A chance outcome: ``seat`` deals the first round (GR-2.1), ``P2 deals``."""

    seat: int

    def __str__(self) -> str:
        return f"{player_name(self.seat)} deals"

    def __repr__(self) -> str:
        return f"FirstDealer({str(self)!r})"


Step = Union[Choose, Close, Lay]
ChanceOutcome = Union[DealCard, FirstDealer]
MatchAction = Union[Action, Step, ChanceOutcome]
"""Whatever :meth:`Match.apply <rummydsl.engine.match.Match.apply>` takes."""

#: The engine's actions that are always one id (a lay-down of melds may be several steps).
ONE_ID_ACTIONS: frozenset[type] = frozenset({Draw, Pass, Discard, Knock, Layoff, Offer, Take, Decline, Done, Buy})
#: Every type of action a match takes: the engine's, the steps of a lay-down, chance outcomes.
MATCH_ACTION_TYPES: frozenset[type] = ONE_ID_ACTIONS | {Meld, Choose, Close, Lay, DealCard, FirstDealer}

#: The verbs of the steps of a lay-down, beside the engine's (DESIGN.md's) verbs.
STEP_VERBS = ("choose", "close", "lay")

# The single ids, in order; then one block of ``faces`` ids per card verb; then lay-offs.
_SINGLE = ("draw stock", "draw discard", "pass", "take", "decline", "done", "buy", "knock", "close", "lay")
_BLOCKS = ("discard", "offer", "knock", "draw discard", "choose", "deal")


_SPACES_KEPT = 64
_SPACES: dict[tuple[int, int], tuple[Variant, ActionSpace]] = {}
"""The catalogues built so far (:meth:`ActionSpace.of`), by variant object and player count."""


class ActionSpace:
    """The fixed catalogue of ids of one variant at one player count (see the module)."""

    def __init__(self, variant: Variant, players: int) -> None:
        deck = variant.deck
        self.variant = variant
        self.players = players
        self.natural = deck.natural_faces
        self.faces = self.natural + (1 if deck.wilds else 0)
        """How many different faces the deck has (a wild card is one face)."""
        self._face_card: list[Card] = [deck.cards[f] for f in range(self.natural)]
        if deck.wilds:
            self._face_card.append(deck.cards[deck.packs * self.natural])
        self._face_of: tuple[int, ...] = tuple(self.natural if c.wild else c.id % self.natural for c in deck.cards)
        """The face of every card, by card id (:meth:`face` read from a table)."""
        self.melds_per_player = max(1, deck.size // _smallest_meld(variant))
        """The most melds one player can have on the table: what lay-off ids are numbered to."""
        self._single = {name: i for i, name in enumerate(_SINGLE)}
        at = len(_SINGLE)
        self._block: dict[str, int] = {}
        for name in _BLOCKS:
            self._block[name] = at
            at += self.faces
        self._layoffs = at
        self._card_verbs: dict[type, int] = {Discard: self._block["discard"], Offer: self._block["offer"],
                                             Choose: self._block["choose"], DealCard: self._block["deal"]}
        """The id of a card verb's action is its block's first id plus its card's face."""
        at += self.faces * players * self.melds_per_player
        self._dealers = at
        at += players
        self.size = at
        """How many ids there are: every id is below this."""
        self._face_per_card = len(set(self._face_of)) == len(self._face_of)
        """Every card a face of its own (one pack, at most one wild card)."""
        self._prebuilt = Prebuilt.of(deck, players)
        self._prebuilt_ids: dict[int, int] = {id(a): self.id_of(a) for a in self._prebuilt.every()}
        """The id of each prebuilt action (:mod:`.prebuilt`: what listings hand out), by the
        object's ``id()`` (the table is held, so those stay its actions'): :meth:`ids_of`."""

    @classmethod
    def of(cls, variant: Variant, players: int) -> ActionSpace:
        """The catalogue of ``variant`` at ``players``, built once for each variant object
        (a variant is immutable; every match of it shares one catalogue)."""
        key = (id(variant), players)
        entry = _SPACES.get(key)
        if entry is not None and entry[0] is variant:
            return entry[1]
        space = cls(variant, players)
        if len(_SPACES) >= _SPACES_KEPT:
            _SPACES.pop(next(iter(_SPACES)))
        _SPACES[key] = (variant, space)  # the variant is held, so its id is not reused
        return space

    def __repr__(self) -> str:
        return f"<ActionSpace {self.variant.id} players={self.players} size={self.size}>"

    def __len__(self) -> int:
        return self.size

    # ------------------------------------------------------------------ faces

    def face(self, card: Card) -> int:
        """The face number of ``card``: the same for every copy of a several-pack deck."""
        return self._face_of[card.id]

    def face_card(self, face: int) -> Card:
        """A card of face ``face`` (the first copy)."""
        return self._face_card[face]

    # ------------------------------------------------------------------ to ids

    def index(self, action: MatchAction) -> int:
        """The id of ``action`` (the seat it names does not count).

        :raises MalformedActionError: for a lay-down of melds (several ids: use
            :meth:`encode`), a knock that names its melds (a knock's id shows the canonical
            arrangement; name the melds by notation), a lay-off beyond the numbered melds.
        """
        single = self._single
        if isinstance(action, Draw):
            if action.card is not None:
                return self._block["draw discard"] + self.face(action.card)
            return single["draw " + action.source]
        if isinstance(action, Discard):
            return self._block["discard"] + self.face(action.card)
        if isinstance(action, Offer):
            return self._block["offer"] + self.face(action.card)
        if isinstance(action, Choose):
            return self._block["choose"] + self.face(action.card)
        if isinstance(action, DealCard):
            return self._block["deal"] + self.face(action.card)
        if isinstance(action, Knock):
            if action.melds is not None:
                raise MalformedActionError(str(action), "a knock's id shows the canonical melds: an id "
                                           "is 'knock CARD' without melds")
            return single["knock"] if action.card is None else self._block["knock"] + self.face(action.card)
        if isinstance(action, Layoff):
            if not 0 <= action.index < self.melds_per_player or not 0 <= action.owner < self.players:
                raise MalformedActionError(str(action), f"lay-off ids number {self.melds_per_player} melds "
                                           f"per player")
            return (self._layoffs + (action.owner * self.melds_per_player + action.index) * self.faces
                    + self.face(action.card))
        if isinstance(action, FirstDealer):
            return self._dealers + action.seat
        if isinstance(action, Meld):
            raise MalformedActionError(str(action), "putting melds down takes several ids (choose, close, "
                                       "lay): use encode()")
        name = {Pass: "pass", Take: "take", Decline: "decline", Done: "done", Buy: "buy", Close: "close",
                Lay: "lay"}[type(action)]
        return single[name]

    def id_of(self, action: MatchAction) -> int:
        """:meth:`index`, with the card verbs (discard, offer...) read from tables: a
        listing's ids are worked out at every step of a match."""
        base = self._card_verbs.get(type(action))
        if base is not None:
            return base + self._face_of[action.card.id]  # type: ignore[union-attr]
        return self.index(action)

    def listing_ids(self, actions: list[Action]) -> list[int] | None:
        """The id of each action of a listing, in its order, when every one is prebuilt
        (:mod:`.prebuilt`) and no two share an id (most listings); else None (ask
        :meth:`ids_of`)."""
        ids = list(map(self._prebuilt_ids.get, map(id, actions)))
        if None in ids or (not self._face_per_card and len(set(ids)) != len(ids)):
            return None
        # with a face per card, distinct prebuilt actions have distinct ids, and a
        # mechanic lists each action once (Mechanic.legal)
        return ids  # type: ignore[return-value]  # no None in it

    def ids_of(self, actions: list[Action]) -> tuple[dict[int, Action], list[tuple[Action, tuple[int, ...]]]]:
        """The single-id actions of a listing by id (the first of each id), and each
        lay-down of melds with its ids (:meth:`encode`): a prebuilt action's id is read
        from a table, any other's worked out."""
        known = self._prebuilt_ids
        ids = list(map(known.get, map(id, actions)))
        if None not in ids:  # every action prebuilt (most listings)
            by_id: dict[int, Action] = dict(zip(ids, actions))  # type: ignore[arg-type]
            if len(by_id) == len(actions):  # no id twice (else the first of each is kept, below)
                return by_id, []
        by_id = {}
        paths: list[tuple[Action, tuple[int, ...]]] = []
        for a in actions:
            i = known.get(id(a))
            if i is None:
                if type(a) is Meld and a.melds:
                    paths.append((a, self.encode(a)))
                    continue
                i = self.id_of(a)
            if i not in by_id:
                by_id[i] = a
        return by_id, paths

    def encode(self, action: MatchAction) -> tuple[int, ...]:
        """The ids that play ``action``: one, or the steps of a lay-down of melds."""
        if not isinstance(action, Meld):
            return (self.index(action),)
        if not action.melds:
            raise MalformedActionError(str(action), "'meld []' (a defender showing no melds) has no id: "
                                       "a defender's 'done' shows the arrangement with least deadwood")
        choose = self._block["choose"]
        melds = [sorted(self.face(c) for c in meld) for meld in action.melds]
        ids: list[int] = []
        for k, meld in enumerate(melds):
            ids.extend(choose + f for f in meld)
            ids.append(self._single["lay" if k == len(melds) - 1 else "close"])
        return tuple(ids)

    # ------------------------------------------------------------------ from ids

    def action(self, i: int, seat: int) -> MatchAction:
        """The action of id ``i`` for ``seat`` (a chance outcome names no seat).

        :raises MalformedActionError: for an id outside ``0 .. size - 1``.
        """
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < self.size:
            raise MalformedActionError(repr(i), f"an action id is an integer from 0 to {self.size - 1}")
        if i < len(_SINGLE):
            name = _SINGLE[i]
            single: dict[str, MatchAction] = {
                "draw stock": Draw(seat, "stock"), "draw discard": Draw(seat, "discard"), "pass": Pass(seat),
                "take": Take(seat), "decline": Decline(seat), "done": Done(seat), "buy": Buy(seat),
                "knock": Knock(seat, None), "close": Close(seat), "lay": Lay(seat)}
            return single[name]
        if i >= self._dealers:
            return FirstDealer(i - self._dealers)
        if i >= self._layoffs:
            rest, face = divmod(i - self._layoffs, self.faces)
            owner, index = divmod(rest, self.melds_per_player)
            return Layoff(seat, self.face_card(face), owner, index)
        block, face = divmod(i - len(_SINGLE), self.faces)
        card = self.face_card(face)
        name = _BLOCKS[block]
        if name == "discard":
            return Discard(seat, card)
        if name == "offer":
            return Offer(seat, card)
        if name == "knock":
            return Knock(seat, card)
        if name == "draw discard":
            return Draw(seat, "discard", card)
        if name == "choose":
            return Choose(seat, card)
        return DealCard(card)

    def describe(self, i: int) -> str:
        """The id's action for the seat to move, written for any seat (``discard 7H``)."""
        text = str(self.action(i, 0))
        return text[3:] if text.startswith("P1 ") else text


def _smallest_meld(variant: Variant) -> int:
    """The fewest cards of any meld of the variant (1 where a kind says nothing)."""
    sizes = [shape_of_pattern(kind.pattern).min_size for kind in variant.meld_kinds]
    return max(1, min(sizes, default=1))
