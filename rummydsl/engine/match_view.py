"""What one seat of a :class:`~.match.Match` may know: as JSON, and as planes of numbers.

:class:`MatchObservation` is the engine's :class:`~.observe.Observation` of the round in
play (its own hand, every table meld, the discard pile, the known cards of other hands,
the sizes, a knock's shown melds: never a card hidden from the seat) with the game
around it: the totals, the round before, the steps of a lay-down being chosen, a deal
under way. :meth:`MatchObservation.tensor` writes the same as rows of one number per
face of the deck, named by :meth:`MatchObservation.planes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Card
from .actions import player_name
from .match_state import CHANCE, TERMINAL
from .match_step import dealt_owners
from .observe import Observation, result_json
from .state import Phase

if TYPE_CHECKING:
    from .match import Match

__all__ = ["MatchObservation", "PHASES"]

#: The phases in the order the ``numbers`` row of a tensor numbers them (from 1; 0: no round).
PHASES: tuple[str, ...] = tuple(p.value for p in Phase)


class MatchObservation:
    """Seat ``seat``'s view of a match as it stands (a snapshot: later moves do not change it)."""

    __slots__ = ("_match", "seat", "_view")

    def __init__(self, match: Match, seat: int) -> None:
        self._match = match.copy()
        self.seat = seat
        self._view = Observation(self._match.round, seat)

    @property
    def round(self) -> Observation:
        """The engine's observation of the round in play (what agents are given)."""
        return self._view

    def to_json(self) -> dict[str, Any]:
        """The observation as plain JSON: the round's (:meth:`Observation.as_json`), the
        legal actions when this seat is to move, and ``game`` (totals, rounds played,
        the game's result once over), ``last_round`` (the round before, as this seat saw
        it), ``pending`` (its lay-down being chosen) and ``dealing`` (a deal under way)."""
        m = self._match
        seat = self.seat
        to_move = m.to_move
        if m._s.choose_dealer or (m._s.dealing is not None and not m.game.results):
            return {"variant": m.variant.id, "you": player_name(seat), "to_move": "chance",
                    "game": {"scores": {player_name(p): 0 for p in range(m.players)}, "rounds_played": 0,
                             "over": False},
                    "dealing": self._dealing_json()}
        out = self._view.as_json()
        out["to_move"] = {CHANCE: "chance", TERMINAL: "over"}.get(to_move) or player_name(to_move)
        out.pop("legal", None)
        if to_move == seat:
            out["legal"] = [str(a) for a in m.legal_actions()]
            if m._s.pending:
                out["pending"] = [str(a) for a in m.pending]
        game = m.game
        out["game"] = {
            "scores": {player_name(p): v for p, v in enumerate(game.scores)},
            "rounds_played": len(game.results),
            **({"games_won": {player_name(p): v for p, v in enumerate(game.games_won)}}
               if m.variant.game.match_games_to_win is not None else {}),
            "over": to_move == TERMINAL,
            **({} if game.result is None else {"result": game.result.as_json()}),
        }
        if m.round.result is None and game.results:
            out["last_round"] = result_json(game.results[-1], seat)
        dealing = m._s.dealing
        if dealing is not None or m._s.choose_dealer:
            out["dealing"] = self._dealing_json()
        return out

    def _dealing_json(self) -> dict[str, Any]:
        m = self._match
        dealing = m._s.dealing or ()
        owners = dealt_owners(m.variant, m.game, len(dealing)) if dealing else []
        return {
            "dealer": None if m._s.choose_dealer else player_name(m.game.dealer),
            "dealt": len(dealing),
            "hand": [str(c) for c, owner in zip(dealing, owners) if owner == self.seat],
            "upcard": next((str(c) for c, owner in zip(dealing, owners) if owner == "upcard"), None),
        }

    # ------------------------------------------------------------------ planes

    def planes(self) -> list[str]:
        """The name of each row of :meth:`tensor`, seats counted from this one (``+1``:
        the next seat to its left)."""
        n = self._match.players
        others = [f"+{k}" for k in range(1, n)]
        return (["hand"] + [f"known {o}" for o in others] + ["discards", "top discard", "upcard"]
                + [f"table {o}" for o in ["+0", *others]] + ["chosen"] + ["numbers"] * self._numbers_rows())

    def tensor(self) -> list[list[int]]:
        """The observation as rows of one number per face of the deck (``action_space.faces``
        columns; a face's copies add up): the rows :meth:`planes` names. The last rows,
        ``numbers``, hold in order the stock's size, the phase (1 + its index in
        :data:`PHASES`; 0 while dealing), the seat to move counted from this one (-1: chance
        or over), the round's number, then per seat from this one its hand's size and its
        game total; zeros after."""
        m = self._match
        space = m.action_space
        faces = space.faces
        view = self._view
        n = m.players
        seat = self.seat
        order = [(seat + k) % n for k in range(n)]

        def row(cards: Any) -> list[int]:
            out = [0] * faces
            for card in cards:
                out[space.face(card)] += 1
            return out

        dealing = m._s.dealing is not None or m._s.choose_dealer
        if dealing:  # a deal under way: what this seat was dealt so far, and the upcard once dealt
            info = self._dealing_json()
            deck = m.variant.deck
            rows = [row(self._dealt_to_me())] + [row(()) for _ in order[1:]] + [row(()), row(())]
            rows.append(row([deck.parse_card(info["upcard"])] if info["upcard"] else []))
            rows += [row(()) for _ in order]
        else:
            rows = [row(view.hand)] + [row(view.known(p)) for p in order[1:]]
            pile = view.discards
            rows += [row(pile[:-1]), row(pile[-1:]), row([view.upcard] if view.upcard is not None else [])]
            rows += [row(c for meld in view.table[p] for c in meld.cards) for p in order]
        chosen = [space.face_card(i - space._block["choose"]) for i in m._s.pending
                  if space._block["choose"] <= i < space._block["choose"] + faces] if m.to_move == seat else []
        rows.append(row(chosen))
        to_move = m.to_move
        if dealing:
            got = m._s.dealing or ()
            owners = dealt_owners(m.variant, m.game, len(got)) if got else []
            numbers = [owners.count("stock"), 0, -1, len(m.game.results) - m.game._game_start + 1]
            numbers += [owners.count(p) for p in order]
        else:
            numbers = [view.stock_size, 1 + PHASES.index(view.phase),
                       (to_move - seat) % n if to_move >= 0 else -1, view.number]
            numbers += [view.hand_sizes[p] for p in order]
        scores = m.game.scores
        numbers += [scores[p] for p in order]
        for k in range(self._numbers_rows()):
            chunk = numbers[k * faces:(k + 1) * faces]
            rows.append(chunk + [0] * (faces - len(chunk)))
        return rows

    def _numbers_rows(self) -> int:
        count = 4 + 2 * self._match.players
        faces = self._match.action_space.faces
        return -(-count // faces)

    def _dealt_to_me(self) -> list[Card]:
        m = self._match
        dealing = m._s.dealing or ()
        owners = dealt_owners(m.variant, m.game, len(dealing)) if dealing else []
        return [c for c, owner in zip(dealing, owners) if owner == self.seat]
