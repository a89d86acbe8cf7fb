"""A seat's observation as planes of zeros and ones, the form learning environments take.

:meth:`MatchObservation.tensor <rummydsl.engine.match_view.MatchObservation.tensor>`
gives rows of counts (a face's copies add up) and a few rows of plain numbers (the
stock's size, the phase, the scores). A learning environment wants one box of zeros and
ones of a fixed shape, as PettingZoo's classic games give (``Box(0, 1, shape, int8)``),
for any deck: :class:`Planes` turns the engine's tensor into that, one row of ``faces``
columns (one per face of the deck: 52, Ginski's 66, a two-pack deck's 53) per plane:

- each card row of the tensor (the seat's hand, each other seat's known cards, the
  discard pile below its top card, the top card, the dealt upcard, the table melds by
  owner, the lay-down being chosen) as one plane per copy a face can have: ``hand`` in a
  one-pack deck, ``hand #1`` and ``hand #2`` (a second copy held) with two packs (the
  top card and the upcard, one card each, take one plane whatever the deck);
- where a card deep in the discard pile may be drawn (``discard_depth: any``) the pile's
  order: ``pile depth bit K`` holds bit K of each face's depth below the top card
  (1: just under it; the shallowest copy), enough bits for the whole deck;
- the numbers: ``stock size``, ``round``, each seat's ``hand size`` written in binary
  (least significant bit first, one column a bit), ``phase`` and ``to move`` one-hot
  (the phase's number as the tensor gives it, 0 while dealing; the seat to move counted
  from this one, none at chance or the end), each seat's ``score`` in binary with its
  sign in the last column.

Seats are counted from the observing one (``+1`` the next on its left), as the tensor
counts them. Nothing enters a plane that the tensor (so the engine's observation) does
not hold, so a plane never shows a card the seat may not know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.catalogue import Choose
from ..engine.match_state import CHANCE
from ..engine.match_view import PHASES
from ..engine.observe import face_up_pile
from ..engine.state import Phase

if TYPE_CHECKING:
    from ..engine.match import Match

__all__ = ["Planes"]

_INT8 = np.dtype(np.int8)

MIN_COLUMNS = 16
"""The fewest columns a plane has: a deck of fewer faces (a small deck for exhaustive
solvers) gets this many, so the phase, the seat to move and the numbers fit."""

_ONE_CARD = frozenset({"top discard", "upcard"})
"""Rows of the tensor that hold one card at most: one plane each, whatever the deck."""


class Planes:
    """The planes of one variant at one player count (the same shape in every state).

    >>> import rummydsl
    >>> m = rummydsl.Match.new("gin_rummy", seed=1)
    >>> planes = Planes(m)
    >>> planes.shape
    (16, 52)
    >>> planes.names[:3]
    ['hand', 'known +1', 'discards']
    >>> grid = planes.encode(m, 0)
    >>> int(grid[0].sum()), grid.shape == planes.shape
    (10, True)
    """

    def __init__(self, match: Match) -> None:
        space = match.action_space
        deck = match.variant.deck
        self.faces = space.faces
        """Card columns: one per face of the deck."""
        self.columns = max(self.faces, MIN_COLUMNS)
        """Columns of a plane: the faces, or :data:`MIN_COLUMNS` for a deck of fewer faces
        (its card planes use the first ``faces``)."""
        counts = [0] * self.faces
        for card in deck.cards:
            counts[space.face(card)] += 1
        self.copies = max(counts)
        """The most copies of one face (1 for one pack; 2 for two; Ginski's five wild cards: 5)."""
        self.players = match.players
        draw = match.variant.step("draw")
        self.deep = draw is not None and getattr(draw, "discard_depth", "top") == "any"
        """Whether the pile's order is written (a card deep in it may be drawn)."""
        self.depth_bits = max(1, deck.size.bit_length()) if self.deep else 0
        probe = match.observation(0)
        tensor_names = probe.planes()
        self._card_rows = [i for i, name in enumerate(tensor_names) if name != "numbers"]
        self._numbers_at = len(self._card_rows)
        names: list[str] = []
        self._levels = [1 if tensor_names[i] in _ONE_CARD else self.copies for i in self._card_rows]
        for i, levels in zip(self._card_rows, self._levels):
            name = tensor_names[i]
            names += [name] if levels == 1 else [f"{name} #{c}" for c in range(1, levels + 1)]
        names += [f"pile depth bit {k}" for k in range(self.depth_bits)]
        others = ["+0"] + [f"+{k}" for k in range(1, self.players)]
        names += ["stock size", "phase", "to move", "round"]
        names += [f"hand size {o}" for o in others] + [f"score {o}" for o in others]
        self.names = names
        """The name of each plane, in order."""
        self._copy_levels = np.arange(self.copies)
        self._depth_shifts = np.arange(self.depth_bits)
        self._rows: dict[int, np.ndarray[Any, np.dtype[np.int8]]] = {}
        self._bytes: dict[int, bytes] = {}
        self._face = [space.face(card) for card in deck.cards]
        """Each card's face (column), by card id."""
        self._by_id = self.copies == 1 and self._face == list(range(len(self._face)))
        """Whether each card's face is its id (one pack): :meth:`encode` writes a card at its id."""
        self._lays = match.variant.step("meld") is not None
        """Whether a lay-down of melds may be under way (its chosen cards in the ``chosen``
        plane): only the meld step lays melds down."""
        self._size = len(self.names) * self.columns
        self._shape = (len(self.names), self.columns)
        self._phase_number = {name: 1 + i for i, name in enumerate(PHASES)}
        self._orders = [[(seat + k) % self.players for k in range(self.players)] for seat in range(self.players)]
        """Each seat's order of the seats, from itself (``+0``, ``+1``, ...)."""
        self._numbers: dict[tuple[Any, ...], bytes] = {}
        """The planes of numbers written so far, by what they are written from (:meth:`_numbers_bytes`)."""
        if len(PHASES) + 1 > self.columns or self.players > self.columns:
            raise ValueError(f"{self.columns} columns are too few for the phase and seat planes")

    @property
    def shape(self) -> tuple[int, int]:
        """(planes, columns): columns are the deck's faces (at least :data:`MIN_COLUMNS`)."""
        return (len(self.names), self.columns)

    def encode(self, match: Match, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """Seat ``seat``'s observation of ``match`` as planes of 0 and 1 (:attr:`names`),
        an ``int8`` array of :attr:`shape` (a new one each call).

        Written straight from the round as the seat's :class:`~rummydsl.engine.observe.Observation`
        shows it (its hand, the cards known of others, the pile face up:
        :func:`~rummydsl.engine.observe.face_up_pile`; no copy of the match, no lists of
        counts): each card sets one byte, and the
        planes of numbers (stock size, phase, seat to move, round, hand sizes, scores),
        which change in few ways, are copied whole from the last time the same numbers
        were written. It is the same array as :meth:`encode_tensor` gives in every state
        (tests hold them equal); while a deal is under way (chance to move) it is that one."""
        return self.encode_at(match, seat, match.to_move)

    def encode_at(self, match: Match, seat: int, to_move: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """:meth:`encode`, given ``match.to_move`` (read once by an environment that needs
        it for the mask as well)."""
        if to_move == CHANCE:
            return self.encode_tensor(match, seat)
        faces = self.columns  # the stride of a plane; a card's column is its face
        buf = bytearray(self._size)
        rnd = match.round
        order = self._orders[seat]
        pile = face_up_pile(rnd)
        hands = rnd.hands
        known = rnd.known
        table = rnd.table
        if self._by_id:  # a card's id is its face (one pack): each card sets one byte
            for card in hands[seat]:
                buf[card.id] = 1
            at = faces
            for p in order[1:]:
                for card in known[p]:
                    buf[at + card.id] = 1
                at += faces
            if pile:
                for card in pile:
                    buf[at + card.id] = 1
                top = pile[-1].id  # the top card has a plane of its own
                buf[at + top] = 0
                buf[at + faces + top] = 1
            at += 2 * faces
            upcard = rnd.upcard
            if upcard is not None:
                buf[at + upcard.id] = 1
            at += faces
            for p in order:
                for meld in table[p]:
                    for card in meld.cards:
                        buf[at + card.id] = 1
                at += faces
            if self._lays and to_move == seat:
                for a in match.pending:
                    if type(a) is Choose:
                        buf[at + a.card.id] = 1
            at += faces
        else:
            face = self._face
            upcard = rnd.upcard
            chosen = ([a.card for a in match.pending if type(a) is Choose]
                      if self._lays and to_move == seat else ())
            rows: list[Any] = [hands[seat]] + [known[p] for p in order[1:]]
            rows += [pile[:-1], pile[-1:], () if upcard is None else (upcard,)]
            rows += [[c for meld in table[p] for c in meld.cards] for p in order]
            rows.append(chosen)
            at = 0
            for cards, levels in zip(rows, self._levels):
                seen: dict[int, int] = {}
                for card in cards:
                    f = face[card.id]
                    k = seen.get(f, 0)
                    seen[f] = k + 1
                    if k < levels:
                        buf[at + k * faces + f] = 1
                at += levels * faces
        if self.deep:
            face = self._face
            depth: dict[int, int] = {}
            for d, card in enumerate(reversed(pile[:-1]), start=1):
                depth.setdefault(face[card.id], d)
            for f, d in depth.items():
                for k in range(self.depth_bits):
                    if d >> k & 1:
                        buf[at + k * faces + f] = 1
            at += self.depth_bits * faces
        phase = rnd.phase
        sizes = (len(hands[0]), len(hands[1])) if self.players == 2 else tuple(map(len, hands))  # (two: quicker)
        key = (seat, to_move, len(rnd.stock), id(phase), rnd.number, sizes, match.game.scores)
        numbers = self._numbers.get(key)
        if numbers is None:
            numbers = self._numbers_bytes(key, phase)
        buf[at:] = numbers
        grid: np.ndarray[Any, np.dtype[np.int8]] = np.ndarray(self._shape, _INT8, buf)
        return grid

    def _numbers_bytes(self, key: tuple[Any, ...], phase: Phase) -> bytes:
        """The planes of numbers as bytes, for :meth:`encode`'s ``key`` (``phase`` is
        in it by its ``id``: an enum member hashes slowly; kept: a few thousand at most,
        the dict cleared when full)."""
        seat, to_move, stock, _, number, sizes, scores = key
        faces = self.columns
        n = self.players
        out = bytearray((4 + 2 * n) * faces)
        binary = self._binary_bytes
        out[0:faces] = binary(stock)
        at = self._phase_number[phase.value]
        if at < faces:
            out[faces + at] = 1
        if to_move >= 0:
            out[2 * faces + (to_move - seat) % n] = 1
        out[3 * faces:4 * faces] = binary(number)
        for k, p in enumerate(self._orders[seat]):
            start = (4 + k) * faces
            out[start:start + faces] = binary(sizes[p])
            score = scores[p]
            start = (4 + n + k) * faces
            out[start:start + faces] = binary(abs(score))
            if score < 0:
                out[start + faces - 1] = 1
        numbers = bytes(out)
        if len(self._numbers) >= 4096:
            self._numbers.clear()
        self._numbers[key] = numbers
        return numbers

    def encode_tensor(self, match: Match, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """:meth:`encode` the slow way, from :meth:`MatchObservation.tensor
        <rummydsl.engine.match_view.MatchObservation.tensor>` (a copy of the match, lists of
        counts): what the fast path is held equal to (tests), and what a deal under way is
        written from."""
        view = match.observation(seat)
        tensor = view.tensor()
        faces = self.columns
        deck_faces = self.faces
        out = np.zeros(self.shape, dtype=np.int8)
        cards = np.array([tensor[i] for i in self._card_rows], dtype=np.int8)
        if self.copies == 1:
            at = len(cards)
            out[:at, :deck_faces] = cards
        else:
            at = 0
            for row, levels in zip(cards, self._levels):
                out[at:at + levels, :deck_faces] = row[None, :] > self._copy_levels[:levels, None]
                at += levels
        if self.deep:
            depth = np.zeros(deck_faces, dtype=np.int64)
            pile = view.round.discards
            space = match.action_space
            for d, card in enumerate(reversed(pile[:-1]), start=1):
                f = space.face(card)
                if depth[f] == 0:
                    depth[f] = d
            out[at:at + self.depth_bits, :deck_faces] = (depth[None, :] >> self._depth_shifts[:, None]) & 1
            at += self.depth_bits
        numbers = [v for row in tensor[self._numbers_at:] for v in row]
        n = self.players
        binary = self._binary
        out[at] = binary(numbers[0])
        for r in (1, 2):
            if 0 <= numbers[r] < faces:
                out[at + r, numbers[r]] = 1
        out[at + 3] = binary(numbers[3])
        at += 4
        for k in range(n):
            out[at + k] = binary(numbers[4 + k])
            score = numbers[4 + n + k]
            out[at + n + k] = binary(abs(score))
            out[at + n + k, faces - 1] = score < 0
        return out

    def _binary_bytes(self, value: int) -> bytes:
        """:meth:`_binary` as bytes (kept as the rows are)."""
        row = self._bytes.get(value)
        if row is None:
            row = self._binary(value).tobytes()
            if len(self._bytes) < 4096:
                self._bytes[value] = row
        return row

    def _binary(self, value: int) -> np.ndarray[Any, np.dtype[np.int8]]:
        """``value`` (0 for a negative one) in binary, least significant bit first, in all
        columns but the last (kept for a score's sign)."""
        row = self._rows.get(value)
        if row is None:
            row = np.array([(max(0, value) >> k) & 1 for k in range(self.columns - 1)] + [0], dtype=np.int8)
            if len(self._rows) < 4096:
                self._rows[value] = row
        return row

    def spec(self) -> str:
        """The planes as text, one a line: ``row  name``."""
        width = len(str(len(self.names) - 1))
        faces = (f"one per face of the deck" if self.columns == self.faces
                 else f"the deck's {self.faces} faces first, the rest empty in card planes")
        lines = [f"{len(self.names)} planes of {self.columns} columns ({faces}; "
                 f"{self.copies} cop{'y' if self.copies == 1 else 'ies'} of a face at most)"]
        lines += [f"{i:>{width}}  {name}" for i, name in enumerate(self.names)]
        return "\n".join(lines)
