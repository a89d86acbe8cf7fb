"""One game of a variant as a state you step: apply, undo, copy, observe, save.

:class:`Match` is DESIGN.md's "state you step", in the manner of OpenSpiel's ``State``
and python-chess's ``Board``: one object for a whole game (rounds follow each other
inside :meth:`Match.apply`), whose actions are DESIGN.md's notation or the integer ids
of a fixed catalogue (:mod:`.catalogue`), with chance outcomes, undo, a cheap copy, the
observation of any seat, a redeal of what a seat cannot see, and JSON.

docs/engine.md ("The state you step: Match") has a worked example, tested with the docs.

How it stays cheap: a state never changes a round or a game in place once anything else
may hold it. A match that alone holds its round plays on it in place and keeps for
:meth:`undo` what the apply moved (:mod:`.match_undo`), after its first few applies
since it was made, copied or undone (``match_step.RECORDS_AFTER``), which play on a
copy of the round (2 µs for Gin), so that a search that takes its moves back only
swaps states. Once the round may be held elsewhere (:meth:`copy` shares everything and
costs a few attributes; :attr:`round`, :attr:`game` and :meth:`view` hand it out) the
next apply plays on a copy too. With ``history=False`` (the play loops) nothing is
kept, and the rounds and the state itself change in place until the match is copied
(and in a redeal of a one-round match, :meth:`resample`, which holds its round alone).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Collection

from ..cards import Card
from ..errors import IllegalActionError, MalformedActionError
from .actions import Action, Meld, parse_action, parse_player, player_name
from .catalogue import (MATCH_ACTION_TYPES, ONE_ID_ACTIONS, STEP_VERBS, ActionSpace, Choose, Close, DealCard,
                        FirstDealer, Lay, MatchAction)
from ..variant import load_variant, with_players
from .game import Game
from .match_state import CHANCE, MATCH_FORMAT, MATCH_VERSION, TERMINAL, Event, State, left_to_deal
from .match_replay import LazyHistory, from_json
from .match_step import GameStopped, apply_step, engine_step, resample, step_text
from .match_undo import Delta, revert
from .match_view import MatchObservation
from .observe import Observation
from .round import Round

if TYPE_CHECKING:
    from ..variant.model import Variant

__all__ = ["Match", "Event", "CHANCE", "TERMINAL", "MATCH_FORMAT", "MATCH_VERSION"]

class _Cache:
    """What a state works out once and keeps until it changes (never shared by another)."""

    __slots__ = ("paths", "by_id")

    def __init__(self) -> None:
        self.paths: list[tuple[Action, tuple[int, ...]]] | None = None
        self.by_id: dict[int, MatchAction] | None = None


class Match:
    """One game of a variant as a state you step (see the module docstring)."""

    __slots__ = ("variant", "players", "chance", "seed", "action_space", "_s", "_undo", "_history",
                 "_exclusive", "_cache", "_ids", "_shadow", "_run")
    variant: Variant
    players: int
    chance: str
    """``seeded`` or ``explicit`` (see :meth:`new`)."""
    seed: int | None
    action_space: ActionSpace
    """The fixed catalogue of action ids of this variant and player count."""
    _s: State
    _undo: tuple[State | Delta, Any] | LazyHistory | None
    """What :meth:`undo` goes back to, newest first: pairs (entry, older); an entry is the
    state before an apply, or a :class:`~.match_undo.Delta` of the round changed in place."""
    _history: bool
    _exclusive: bool
    """This state alone holds its round and game (no history, never copied): change them in place."""
    _cache: _Cache | None
    _ids: list[int] | tuple[()] | None
    """The ids of the round's listing in its order (:meth:`_listing_ids`), ``()`` where that
    does not serve, None until asked (kept apart from ``_cache``: asked at most steps)."""
    _shadow: list[Any] | None
    """With history: the contents of the round's tracked fields (:mod:`.match_undo`) when
    this match alone holds its round and changes it in place, keeping a :class:`~.match_undo.Delta`
    for undo; None when another state may hold the round (the next apply copies it)."""
    _run: int
    """Applies since the match was made, copied or last undone (``match_step.RECORDS_AFTER``)."""

    def __init__(self) -> None:
        raise TypeError("use Match.new(variant, seed=...) or Match.from_json(data)")

    # ------------------------------------------------------------------ building

    @classmethod
    def new(cls, variant: Variant | str, *, seed: int | None = None, players: int | None = None,
            chance: str = "seeded", history: bool = True) -> Match:
        """A game at its start. ``variant``: a :class:`Variant`, a shipped id or a path.

        With ``chance="seeded"`` (the default) the first dealer and every shuffle come
        from ``random.Random(seed)``, exactly as :class:`Game` deals (``seed=None``
        draws a seed and keeps it); ``chance="explicit"`` makes the first dealer and every
        dealt card a chance outcome. ``history=False`` keeps no undo (faster play loops).

        :raises VariantError: for an unknown id, a broken file, a player count the variant
            does not allow (rule ``players``).
        :raises ValueError: for an unknown ``chance``.
        """
        if isinstance(variant, str):
            variant = load_variant(variant)
        if chance not in ("seeded", "explicit"):
            raise ValueError(f"chance is 'seeded' or 'explicit', not {chance!r}")
        variant = with_players(variant, players)
        n = variant.players
        if chance == "seeded" and seed is None:
            seed = random.SystemRandom().randrange(2 ** 63)
        m = object.__new__(cls)
        m.variant = variant
        m.players = n
        m.chance = chance
        m.seed = seed
        m.action_space = ActionSpace.of(variant, n)
        m._undo = None
        m._history = history
        m._exclusive = not history
        m._cache = None
        m._ids = None
        m._shadow = None
        m._run = 0
        if chance == "seeded":
            game = Game(variant, random.Random(seed), players=n)
            m._s = State(game, game.round)
        else:
            game = Game(variant, random.Random(0), players=n, dealer=0, deal_first=False)
            m._s = State(game, _placeholder_round(variant, n), choose_dealer=True)
        return m

    @classmethod
    def playing(cls, game: Game | Round) -> Match:
        """A match that plays ``game`` in place from where it stands, keeping no history:
        how the play loop (:func:`~.play.play`) drives the older API (``play_round``,
        ``play_game``, records, saves). ``game``: a :class:`Game` (its current round, then
        the rounds it deals, as :meth:`new`), or a lone :class:`Round` (the match ends
        with it: no next round is dealt). The game and the round are changed as played;
        a game whose round is over is first moved on to the next (:meth:`Game.next_round`).
        Its seed is not known: :meth:`to_json` writes none.
        """
        if isinstance(game, Game) and game.round.result is not None and not game.over:
            game.next_round()
        if isinstance(game, Round):
            rnd = game
            game = Game(rnd.variant, random.Random(0), players=rnd.players, dealer=rnd.dealer, deal_first=False)
            game.round = rnd
            state = State(game, rnd, one_round=True)
        else:
            state = State(game, game.round)
        m = object.__new__(cls)
        m.variant = game.variant
        m.players = game.players
        m.chance = "seeded"
        m.seed = None
        m.action_space = ActionSpace.of(game.variant, game.players)
        m._undo = None
        m._history = False
        m._exclusive = True
        m._cache = None
        m._ids = None
        m._shadow = None
        m._run = 0
        m._s = state
        return m

    def copy(self) -> Match:
        """An independent state (sharing what neither changes in place: a few attributes)."""
        other = object.__new__(Match)
        other.variant = self.variant
        other.players = self.players
        other.chance = self.chance
        other.seed = self.seed
        other.action_space = self.action_space
        other._s = self._s
        other._undo = self._undo
        other._history = self._history
        other._cache = None
        other._ids = None
        other._exclusive = self._exclusive = False
        other._shadow = self._shadow = None  # both hold the round now: each copies it before changing it
        other._run = self._run = 0
        return other

    # ------------------------------------------------------------------ reading

    @property
    def round(self) -> Round:
        """The round in play (read it; change it only through :meth:`apply`). It stays as it
        is when the match moves on: the match's next apply plays on a copy."""
        self._shadow = None  # handed out: no longer changed in place
        return self._s.round

    @property
    def game(self) -> Game:
        """The game's sheets and results (read them only; the current round is :attr:`round`)."""
        self._shadow = None  # its round may be the one in play: no longer changed in place
        return self._s.game

    @property
    def to_move(self) -> int:
        """The seat to move, :data:`CHANCE` or :data:`TERMINAL`."""
        s = self._s  # (the play loop, :func:`~.play.play`, asks this inline: change the two together)
        if s.game.result is not None or s.game.stalled is not None:
            return TERMINAL
        if s.choose_dealer or s.dealing is not None:
            return CHANCE
        seat = s.round.to_move
        return TERMINAL if seat is None else seat

    @property
    def over(self) -> bool:
        """Whether the game has ended (or stopped: :attr:`stalled`)."""
        return self.to_move == TERMINAL

    @property
    def stalled(self) -> str | None:
        """Why the game stopped short of its end (past ``MAX_ROUNDS`` rounds), or None."""
        return self._s.game.stalled

    @property
    def pending(self) -> tuple[MatchAction, ...]:
        """The steps chosen so far of a lay-down of melds (``choose``, ``close``)."""
        seat = self.to_move
        return tuple(self.action_space.action(i, seat) for i in self._s.pending)

    def legal_actions(self) -> list[MatchAction]:
        """The actions of the seat to move, in the engine's order; at :data:`CHANCE` the
        chance outcomes; while melds are being chosen, the lay-downs that continue them."""
        seat = self.to_move
        if seat == TERMINAL:
            return []
        if seat == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        pending = self._s.pending
        if not pending:
            return list(self._s.round.listed())
        n = len(pending)
        return [a for a, path in self._paths() if path[:n] == pending]

    def chance_outcomes(self) -> list[tuple[MatchAction, float]]:
        """At :data:`CHANCE`: each outcome and its probability (one per face left to deal:
        with several packs a face's copies are one outcome); else ``[]``."""
        s = self._s
        if s.choose_dealer:
            return [(FirstDealer(p), 1 / self.players) for p in range(self.players)]
        if s.dealing is None or self.to_move != CHANCE:
            return []
        left = left_to_deal(self.variant, s.dealing)
        total = sum(len(cards) for cards in left.values())
        return [(DealCard(cards[0]), len(cards) / total) for cards in left.values()]

    def legal_ids(self) -> list[int]:
        """The ids legal now, ascending: one per legal action, the next step of a lay-down
        of melds for each lay-down (the steps chosen so far count)."""
        ids = self._listing_ids()
        return sorted(ids if ids is not None else self._legal_ids())

    def legal_mask(self) -> list[bool]:
        """One bool per id of :attr:`action_space`: True exactly for :meth:`legal_ids`."""
        mask = [False] * self.action_space.size
        ids = self._listing_ids()
        for i in ids if ids is not None else self._legal_ids():
            mask[i] = True
        return mask

    def returns(self, form: str = "points") -> list[float]:
        """Per seat: the game's points. Once the game is over, each seat's final figure
        (bonuses included, GR-10.5); before, the totals so far.

        ``form="zero_sum"``: each seat's points less the mean of the others' (two players:
        ``a - b`` and ``b - a``), the sign turned where the lowest total wins (CR-6), so
        more is always better and the returns add to zero.
        """
        game = self._s.game
        if game.result is not None:
            points = [float(v) for v in game.result.figures]
        else:
            points = [float(v) for v in game.scores]
        if form == "points":
            return points
        if form != "zero_sum":
            raise ValueError(f"form is 'points' or 'zero_sum', not {form!r}")
        n = len(points)
        sign = -1.0 if self.variant.game.winner == "lowest" else 1.0
        total = sum(points)
        return [sign * (p - (total - p) / (n - 1)) if n > 1 else 0.0 for p in points]

    def observation(self, seat: int) -> MatchObservation:
        """What ``seat`` may know now (:class:`~.match_view.MatchObservation`)."""
        if not 0 <= seat < self.players:
            raise ValueError(f"seat {seat} is not one of the {self.players} seats")
        return MatchObservation(self, seat)

    def view(self, seat: int) -> Observation:
        """The engine's :class:`Observation` of the round in play for ``seat`` (what agents
        take): of the round as it stands (the match's next apply plays on a copy)."""
        self._shadow = None
        return Observation(self._s.round, seat)

    # ------------------------------------------------------------------ moving

    def parse(self, text: str) -> MatchAction:
        """Read an action in this game's notation: DESIGN.md's, the steps of a lay-down
        (``P1 choose 7H``, ``P1 close``, ``P1 lay``) and chance outcomes (``deal 7H``,
        ``P2 deals``).

        :raises MalformedActionError: for text that is not one.
        """
        deck = self.variant.deck
        words = text.split() if isinstance(text, str) else []
        if len(words) == 2 and words[0].lower() == "deal":
            try:
                return DealCard(deck.parse_card(words[1]))
            except Exception as problem:  # CardError: a bad card
                raise MalformedActionError(text, str(problem)) from None
        if len(words) == 2 and words[1].lower() == "deals":
            return FirstDealer(_seat(text, words[0], self.players))
        if len(words) >= 2 and words[1].lower() in STEP_VERBS:
            seat = _seat(text, words[0], self.players)
            verb = words[1].lower()
            if verb == "choose":
                if len(words) != 3:
                    raise MalformedActionError(text, "write 'choose CARD', e.g. 'P1 choose 7H'")
                try:
                    return Choose(seat, deck.parse_card(words[2]))
                except Exception as problem:
                    raise MalformedActionError(text, str(problem)) from None
            if len(words) != 2:
                raise MalformedActionError(text, f"'{verb}' takes nothing after it")
            return Close(seat) if verb == "close" else Lay(seat)
        return parse_action(text, deck, self.players)

    def apply(self, x: MatchAction | int | str) -> Event:
        """Play ``x`` (an action, its id or its notation) and whatever follows by itself:
        a defender's ``done`` with nothing to decide, the next round's deal.

        :returns: what happened (:class:`Event`).
        :raises MalformedActionError: for text or an id that is no action.
        :raises IllegalActionError: for an action not allowed now, with the reason; the
            state is unchanged.
        :raises StalledGameError: when the action ends a round after which the game cannot
            go on (past ``MAX_ROUNDS`` rounds; a failing ``deal.sit_out`` raises its
            ``ExpressionError``): the action is played, the match is :data:`TERMINAL`,
            :attr:`stalled` says why, and :meth:`undo` takes it back.
        """
        s = self._s
        ids = self._ids
        # the listing's ids kept (legal_ids was asked here): a decision, no lay-down under way
        seat: int = s.round.to_move if ids else self.to_move  # type: ignore[assignment]  # not None at a decision
        kind = type(x)
        if seat >= 0 and not s.pending and (kind is int or kind in ONE_ID_ACTIONS):
            # a decision by an engine action or its id (most steps): played at once
            action: MatchAction
            if kind is int:
                if ids is None:
                    ids = self._listing_ids() or ()
                try:  # the listed action of that id (the first, the copy held)
                    action = s.round.listed()[ids.index(x)]  # type: ignore[arg-type]  # x is an int
                except ValueError:
                    action = self._resolve(x, seat)
            else:
                action = x  # type: ignore[assignment]  # an engine action (its type is one of ONE_ID_ACTIONS)
            plain = type(action) in ONE_ID_ACTIONS
        else:
            action = self._resolve(x, seat)
            plain = False
        try:
            if plain:  # what apply_step does first for these
                new, event, entry = engine_step(self, s, seat, action, action)  # type: ignore[arg-type]
            else:
                new, event, entry = apply_step(self, s, seat, action)
        except GameStopped as stopped:  # played, but the game stops: TERMINAL, with the reason
            self._commit(stopped.entry, stopped.state)
            raise stopped.error from None
        if self._history:  # what _commit does
            self._undo = (entry, self._undo)
        self._s = new
        self._cache = None
        self._ids = None
        return event

    def _commit(self, entry: State | Delta, new: State) -> None:
        if self._history:
            self._undo = (entry, self._undo)
        self._s = new
        self._cache = None
        self._ids = None

    def undo(self) -> None:
        """Take back the last :meth:`apply` exactly (a decision, a step of a lay-down or a
        chance outcome, with all that followed from it).

        :raises IllegalActionError: when there is nothing to take back.
        """
        undo = self._undo
        if undo is None:
            why = "this match keeps no history (history=False)" if not self._history else "nothing was played"
            raise IllegalActionError("undo", why)
        if isinstance(undo, LazyHistory):  # read from JSON: the history replayed now
            undo = undo.chain()
        entry, self._undo = undo
        self._run = 0
        if isinstance(entry, Delta):  # the round was changed in place: put back what the apply moved
            s = self._s
            rnd, self._shadow = revert(entry, s.round, self._shadow)
            old = entry.state
            self._s = old if old.round is rnd else old._replace(round=rnd)
        else:  # the state before an apply that replaced the round (a deal completed): another may hold it
            self._shadow = None
            self._s = entry
        self._cache = None
        self._ids = None

    @property
    def can_undo(self) -> bool:
        return self._undo is not None

    def resample(self, seat: int, rng: random.Random) -> Match:
        """A state consistent with all ``seat`` has observed: the cards hidden from it (the
        stock, what others hold unseen, a knock's face-down discard) dealt again with
        ``rng``, and later deals drawn anew. It has no history to undo."""
        return resample(self, seat, rng)

    # ------------------------------------------------------------------ saving

    def state(self) -> dict[str, Any]:
        """The whole state as plain JSON, every hidden card included (tests compare it)."""
        s = self._s
        game = s.game
        return {
            "to_move": self.to_move,
            "round": s.round.to_json(_card_id_text),
            "sheets": [sheet.as_json() for sheet in game.sheets],
            "results": [r.as_json() for r in game.results],
            "games_won": list(game.games_won),
            "dealer": game.dealer,
            "result": None if game.result is None else game.result.as_json(),
            "pending": list(s.pending),
            "dealing": None if s.dealing is None else [c.id for c in s.dealing],
            "choose_dealer": s.choose_dealer,
            "rng": hash(game.rng.getstate()) if self.chance == "seeded" else None,
        }

    def to_json(self) -> dict[str, Any]:
        """The match as JSON: its variant, seed and every step applied (a few hundred bytes a
        round); :meth:`from_json` replays them, checking each, to the same state."""
        deck = self.variant.deck
        steps: list[str] = []
        node = self._s.log
        while node is not None:
            step, node = node
            steps.append(step_text(step, deck))
        steps.reverse()
        out: dict[str, Any] = {
            "format": MATCH_FORMAT, "version": MATCH_VERSION, "variant": self.variant.id,
            "players": self.players, "chance": self.chance, "seed": self.seed, "steps": steps,
        }
        if self._s.redeals:
            out["redeals"] = [{"at": at, "cards": list(cards), "seed": seed}
                              for at, cards, seed in self._s.redeals]
        return out

    @classmethod
    def from_json(cls, data: Any, variant: Variant | None = None) -> Match:
        """The match :meth:`to_json` wrote, replayed step by step (each checked). The
        replay keeps no history; the first :meth:`undo` replays the steps again keeping it,
        so the match undoes exactly as the one written did.

        ``variant``: the rules to play it by (default: the shipped variant of its id).

        :raises RecordError: naming the key of anything wrong (another format or version,
            a step that is not legal where it stands, a redeal that is no shuffle).
        """
        return from_json(cls, data, variant)

    # ------------------------------------------------------------------ inside

    def _resolve(self, x: MatchAction | int | str, seat: int) -> MatchAction:
        if type(x) in MATCH_ACTION_TYPES:
            return x  # type: ignore[return-value]
        if isinstance(x, str):
            return self.parse(x)
        if isinstance(x, int) and not isinstance(x, bool):
            space = self.action_space
            if not 0 <= x < space.size:
                raise MalformedActionError(repr(x), f"an action id is an integer from 0 to {space.size - 1}")
            listed = self._by_id().get(x)
            if listed is not None:
                return listed
            return space.action(x, seat if seat >= 0 else 0)
        raise MalformedActionError(repr(x), "an action is an Action, its id or its notation")

    def _paths(self) -> list[tuple[Action, tuple[int, ...]]]:
        """Each listed lay-down of melds with its ids (kept until the state changes)."""
        cache = self._caches()
        if cache.paths is None:
            space = self.action_space
            cache.paths = [(a, space.encode(a)) for a in self._s.round.listed() if isinstance(a, Meld) and a.melds]
        return cache.paths

    def _by_id(self) -> dict[int, MatchAction]:
        """The legal single-id actions by id (the engine's own objects, the copies held)."""
        cache = self._cache
        if cache is None:
            cache = self._cache = _Cache()
        elif cache.by_id is not None:
            return cache.by_id
        space = self.action_space
        by_id: dict[int, MatchAction] = {}
        seat = self.to_move
        if seat == CHANCE:
            for outcome, _ in self.chance_outcomes():
                by_id.setdefault(space.index(outcome), outcome)
        elif seat != TERMINAL and not self._s.pending:
            # one pass over the listing fills both caches (the lay-downs are _paths)
            by_id, paths = space.ids_of(self._s.round.listed())  # type: ignore[assignment]
            if cache.paths is None:
                cache.paths = paths
        cache.by_id = by_id
        return by_id

    def _listing_ids(self) -> list[int] | None:
        """At a decision with no lay-down under way: the ids of the round's listing in its
        order, when every listed action is prebuilt and no two share an id (most
        decisions: read from a table, :meth:`ActionSpace.listing_ids`); else None."""
        ids = self._ids
        if ids is None:
            s = self._s
            game = s.game
            rnd = s.round
            # at a decision (what to_move >= 0 says, read here at once: asked at most steps)
            decision = (game.result is None and game.stalled is None and not s.choose_dealer and s.dealing is None
                        and rnd.to_move is not None and not s.pending)
            got = self.action_space.listing_ids(rnd.listed()) if decision else None
            ids = self._ids = got if got else ()
        return ids or None

    def _legal_ids(self) -> Collection[int]:
        by_id = self._by_id()
        assert self._cache is not None
        paths = self._cache.paths  # filled by _by_id at a decision
        if paths is None:
            if self.to_move < 0:
                return by_id.keys()
            paths = self._paths()
        if not paths:
            return by_id.keys()
        n = len(self._s.pending)
        pending = self._s.pending
        ids = set(by_id)
        ids.update(path[n] for _, path in paths if len(path) > n and path[:n] == pending)
        return ids

    def _caches(self) -> _Cache:
        cache = self._cache
        if cache is None:
            cache = self._cache = _Cache()
        return cache

    def __repr__(self) -> str:
        seat = self.to_move
        who = {CHANCE: "chance", TERMINAL: "over"}.get(seat) or player_name(seat)
        return f"<Match {self.variant.id} round {self._s.round.number} {who} to move>"


def _seat(text: str, word: str, players: int) -> int:
    try:
        return parse_player(word, players)
    except MalformedActionError as problem:
        raise MalformedActionError(text, problem.reason) from None


def _card_id_text(card: Card) -> str:
    return f"{card}#{card.id}"


def _placeholder_round(variant: Variant, players: int) -> Round:
    """What :attr:`Match.round` is before the first deal made of chance outcomes: the deck
    dealt unshuffled, never shown (an observation shows the deal under way instead)."""
    return Round.deal_cards(variant, variant.deck.cards, dealer=0, players=players)
