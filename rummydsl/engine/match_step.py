"""How a :class:`~.match.Match` moves: one step applied, a redeal of hidden cards.

Each function takes a match's state (:class:`~.match.State`) and returns a
new one; nothing here changes a round or a game that another state may hold, unless
the match says it holds them alone (``Match._exclusive``: no history, no copy).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..cards import Card
from ..errors import IllegalActionError, MalformedActionError, RummyDslError
from .actions import Action, Draw, Knock, Meld, action_cards, card_copy, card_text, player_name, with_cards
from .catalogue import ONE_ID_ACTIONS, Choose, Close, DealCard, FirstDealer, Lay, MatchAction
from .round import STATE, Round, dealt_hand_size
from .state import Phase

from .match_state import CHANCE, TERMINAL, Event, State, left_of_face
from .match_undo import Delta, before_apply, moved, put_back, shadow_of, untouched

if TYPE_CHECKING:
    from ..variant.model import Variant
    from .match import Match

__all__ = ["apply_step", "engine_step", "decide", "resample", "deal_order", "hidden_from", "dealt_owners", "parse_step",
           "step_text"]


def apply_step(m: Match, s: State, seat: int, action: MatchAction) -> tuple[State, Event, State | Delta]:
    """The state after ``action`` by ``seat`` (the seat to move, or CHANCE), its event,
    and what undo goes back to (:func:`engine_step`).

    :raises IllegalActionError: for an action not allowed now (``s`` is untouched).
    """
    if seat < 0:
        if seat == TERMINAL:
            raise IllegalActionError(str(action), s.game.stalled or "the game is over")
        new, event = _chance(m, s, action)
        if new.round is not s.round:  # a deal completed: the game's new round, which the next apply copies
            m._shadow = None
            return new, event, s
        return new, event, untouched(s)
    if type(action) in ONE_ID_ACTIONS and not s.pending:
        return engine_step(m, s, seat, action, action)  # type: ignore[arg-type]  # a plain engine action
    if isinstance(action, (DealCard, FirstDealer)):
        raise IllegalActionError(str(action), f"no card is being dealt: it is {player_name(seat)}'s move")
    logged: MatchAction = action
    if isinstance(action, (Choose, Close, Lay)):
        if action.player != seat:
            raise IllegalActionError(str(action), f"it is {player_name(seat)}'s move, not "
                                                  f"{player_name(action.player)}'s")
        pending = s.pending + (m.action_space.index(action),)
        paths = m._paths()
        if not any(path[:len(pending)] == pending for _, path in paths):
            raise IllegalActionError(str(action), _why_not_step(m, s, pending, paths))
        if not isinstance(action, Lay):
            new = s._replace(pending=pending, log=(action, s.log), steps=s.steps + 1)
            return new, Event(action, seat), untouched(s)
        # the lay-down these steps spell; lay-downs alike but for the order of cards within
        # a meld (or the copies of a face) are told apart by their text, not the listing's order
        action = min((a for a, path in paths if path == pending), key=lambda a: (str(a), _ids(a)))
        # the log keeps the lay-down whole (a replay checks it by the rules, as any meld)
        log = s.log
        for _ in s.pending:
            log = log[1]
        back = s
        s = s._replace(pending=(), log=log, steps=s.steps - len(s.pending))
        logged = action
        assert not isinstance(action, (Choose, Close, Lay, DealCard, FirstDealer))
        return engine_step(m, s, seat, action, logged, back)
    elif s.pending:
        if not (isinstance(action, Meld) and action.melds
                and m.action_space.encode(action)[:len(s.pending)] == s.pending):
            raise IllegalActionError(str(action), "melds are being chosen (choose, close, lay): finish them, "
                                                  "or undo")
    assert not isinstance(action, (Choose, Close, Lay, DealCard, FirstDealer))
    return engine_step(m, s, seat, action, logged)


_SHOWDOWN = Phase.SHOWDOWN

RECORDS_AFTER = 8
"""A match with history plays on a copy of the round for this many applies after it was
made, copied or undone (an undo of such an apply puts the old state back: nothing to
rebuild), then on its own round in place with undo records (:mod:`.match_undo`: fewer
objects kept for a long history, but an undo rebuilds what the apply moved). A search
that copies, plays a few moves and takes them back stays on copies."""


def engine_step(m: Match, s: State, seat: int, action: Action, logged: MatchAction, back: State | None = None
                ) -> tuple[State, Event, State | Delta]:
    """An engine action played (``logged``: what the log keeps of it), what follows, and
    what :meth:`Match.undo <rummydsl.engine.match.Match.undo>` goes back to: ``back``
    (default ``s``), or a :class:`~.match_undo.Delta` when the round was changed in place."""
    before = s.round
    shadow = m._shadow
    saved = None
    run = m._run
    m._run = run + 1
    if m._exclusive:
        rnd = before
    elif shadow is not None and run >= RECORDS_AFTER:
        # the match alone holds its round: played in place, what moved kept for undo
        rnd = before
        saved = before_apply(rnd)
    else:  # another state may hold this round, or the match has just been copied or undone: on a copy
        rnd = before.copy()
        rnd._listed = before._listed  # the same position: its listing (a listed action is known legal)
        m._shadow = shadow = None  # the round before is kept whole for undo (nothing changes it any more)
        if m._history and run >= RECORDS_AFTER:  # a history growing: the copy is the match's own from now on
            shadow = shadow_of(before)  # a round nothing changes any more is its own shadow
            saved = before_apply(rnd)
    back = s if back is None else back
    try:
        new, got, ended = _engine_moves(m, s, seat, action, logged, rnd)
        event: Event = got  # type: ignore[assignment]  # (asked with events: never None)
    except GameStopped as stopped:  # played: committed with the game stopped (its round stays in play)
        stopped.entry = back
        if saved is not None:
            assert shadow is not None
            stopped.entry = Delta(back, saved, moved(rnd.__dict__, shadow), False)
            m._shadow = shadow
        raise
    except BaseException:
        if saved is not None and rnd is before:  # changed in place, then failed: put back as it was
            assert shadow is not None
            put_back(rnd, saved, moved(rnd.__dict__, shadow), shadow)
        raise
    if saved is None:
        return new, event, back
    assert shadow is not None
    # ended: the match goes on with a round the game dealt, which the next apply copies
    m._shadow = None if ended else shadow
    return new, event, Delta(back, saved, moved(rnd.__dict__, shadow), ended)


def decide(m: Match, seat: int, action: Action, events: bool = True) -> Event | None:
    """:meth:`Match.apply <rummydsl.engine.match.Match.apply>` of an engine action (its
    type one of ``ONE_ID_ACTIONS``) by ``seat``, the seat to move, with no lay-down under
    way: what ``apply`` does for it, without working out the seat to move again (the play
    loop, :func:`~.play.play`, has just asked it). ``Match.apply`` does the same for
    that path inline, saving a call a step by ids: change the two together. With ``events``
    False (a loop that reads no events), a step of a match that alone holds its round and
    does not end it gives None, its event not worked out."""
    s = m._s
    if m._exclusive:  # engine_step of a match that alone holds its round (the play loop's): in place
        m._run += 1
        try:
            new, event, _ = _engine_moves(m, s, seat, action, action, s.round, events)
        except GameStopped as stopped:  # played, but the game stops: TERMINAL, with the reason
            m._commit(s, stopped.state)
            raise stopped.error from None
        m._s = new
        m._cache = None
        m._ids = None
        return event
    try:
        new, event, entry = engine_step(m, s, seat, action, action)
    except GameStopped as stopped:  # played, but the game stops: TERMINAL, with the reason
        m._commit(stopped.entry, stopped.state)
        raise stopped.error from None
    if m._history:  # what Match._commit does
        m._undo = (entry, m._undo)
    m._s = new
    m._cache = None
    m._ids = None
    return event


def _engine_moves(m: Match, s: State, seat: int, action: Action, logged: MatchAction, rnd: Round,
                  events: bool = True) -> tuple[State, Event | None, bool]:
    """:func:`engine_step`'s moves on ``rnd`` (the round to change): the new state, its
    event, and whether the round ended and the match went on with another. With ``events``
    False, the event of a step that leaves the round in play is None (not worked out)."""
    stock = rnd.stock
    size = len(stock)
    top = stock[-4:]
    rnd.apply(action)  # checked first: a refused action changes nothing
    if not events and rnd.result is None and rnd.phase is not _SHOWDOWN:  # no event to work out
        if m._exclusive:  # the match alone holds this state (and its round): changed in place
            s.pending = ()
            s.log = (logged, s.log)
            s.steps += 1
            return s, None, False
        return s.stepped(rnd, (logged, s.log), s.steps + 1), None, False
    drawn: tuple[Card, ...] = ()
    others: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if rnd.stock is not stock or len(stock) != size:  # cards left the stock (most actions: none)
        drawn, others = _drawn(rnd, seat, stock, size, top)
    automatic: list[Action] | tuple[()] = ()
    while rnd.result is None and rnd.phase is _SHOWDOWN:  # (only a showdown has a move nobody decides)
        forced = rnd.automatic()
        if forced is None:
            break
        rnd.apply(forced)
        if not automatic:
            automatic = []
        automatic.append(forced)
    steps = s.steps + 1
    if m._exclusive:  # the match alone holds this state (and its round): changed in place
        new = s
        new.pending = ()
        new.log = (logged, s.log)
        new.steps = steps
    else:
        new = s.stepped(rnd, (logged, s.log), steps)
    result = rnd.result
    if result is None or s.one_round:
        return new, _event(Event, (logged, seat, drawn, tuple(automatic) if automatic else (), result, None,
                                   others)), False
    game = s.game if m._exclusive else s.game.copy()
    game.round = rnd
    seeded = m.chance == "seeded"
    try:
        game.next_round(deal=seeded)
    except RummyDslError as stop:  # the round is played and scored; the game goes no further
        event = Event(logged, seat, drawn, tuple(automatic), result, others_drawn=others)
        stop.event = event  # type: ignore[attr-defined]  # the play loop tells what was played (play.failed_event)
        if game.stalled is None:  # a total past its limit: the sheet refused it, and said why
            game.stalled = str(stop)
        raise GameStopped(new._replace(game=game), event, stop) from None
    ended = False
    if game.result is not None:
        new = new._replace(game=game)
    elif seeded:
        new = new._replace(game=game, round=game.round, round_start=steps)
        ended = True
    else:
        new = new._replace(game=game, dealing=())
    return new, Event(logged, seat, drawn, tuple(automatic), result, game.result, others), ended


_event = tuple.__new__
"""An :class:`Event` made from all its fields in order (what its own constructor does,
without reading defaults: each step makes one)."""


def _drawn(rnd: Round, seat: int, stock: list[Card], size: int, top: list[Card]
           ) -> tuple[tuple[Card, ...], tuple[tuple[int, tuple[Card, ...]], ...]]:
    """The cards that came from the stock into ``seat``'s hand, and into the others'
    (a draw the action completed, CR-4), by an action that changed the stock: ``stock``
    was its list, ``size`` long, ``top`` its top four cards before."""
    gone = size - len(stock) if rnd.stock is stock else -1
    same = 0 <= gone and (gone < len(top) and stock[-1] is top[-1 - gone] or gone == size <= len(top))
    if same and gone == 1:  # one card drawn (most draws): into the hand of the seat that drew it
        card = top[-1]
        hand = rnd.hands[seat]
        if hand and hand[-1] is card or any(c is card for c in hand):
            return (card,), ()
        # into another seat's hand (the last pass of a buy completed the mover's draw, CR-4):
        # what drawn_into below finds, without building it for every seat
        into: tuple[tuple[int, tuple[Card, ...]], ...] = tuple(
            (other, (card,)) for other, held in enumerate(rnd.hands) if other != seat
            and (held and held[-1] is card or any(c is card for c in held)))
        return (), into

    def drawn_into(hand: list[Card]) -> tuple[Card, ...]:
        if same:  # the same stock, its top ``gone`` cards taken (most actions: none; a draw: one)
            return tuple(c for c in reversed(top[len(top) - gone:]) if any(c is held for held in hand)) if gone else ()
        return tuple(c for c in reversed(top) if any(c is held for held in hand)
                     and not any(c is left for left in rnd.stock))

    drawn = drawn_into(rnd.hands[seat])
    others: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    if gone != 0 and (not same or len(drawn) < gone):  # another seat's draw this action completed (CR-4)
        others = tuple((other, got) for other in range(rnd.players) if other != seat
                       for got in (drawn_into(rnd.hands[other]),) if got)
    return drawn, others


class GameStopped(Exception):
    """The action was played and its round recorded, but the game cannot go on (a game
    past ``MAX_ROUNDS``, a ``deal.sit_out`` that fails): the state to commit, its event,
    the error to raise once it is committed, and what undo goes back to (``entry``: the
    state before, or a :class:`~.match_undo.Delta`; None until :func:`engine_step` sets it)."""

    def __init__(self, state: Any, event: Any, error: RummyDslError) -> None:
        super().__init__(str(error))
        self.state = state
        self.event = event
        self.error = error
        self.entry: Any = None


def _ids(action: Action) -> tuple[int, ...]:
    return tuple(c.id for c in action_cards(action))


def _why_not_step(m: Match, s: State, pending: tuple[int, ...], paths: Sequence[tuple[Action, tuple[int, ...]]]
                  ) -> str:
    if not paths:
        return "no melds can be put down now"
    n = len(pending) - 1
    nexts = sorted({path[n] for _, path in paths if path[:n] == s.pending and len(path) > n})
    words = ", ".join(m.action_space.describe(i) for i in nexts[:12])
    more = " ..." if len(nexts) > 12 else ""
    return f"no lay-down of melds goes on this way; next may come: {words}{more}"


def _chance(m: Match, s: State, outcome: MatchAction) -> tuple[State, Event]:
    variant = m.variant
    if s.choose_dealer:
        if not isinstance(outcome, FirstDealer) or not 0 <= outcome.seat < m.players:
            raise IllegalActionError(str(outcome), "the first dealer is drawn now: 'P1 deals' .. "
                                                   f"'{player_name(m.players - 1)} deals'")
        game = s.game.copy()
        game.sat_out, game.dealer = game._seating(None, outcome.seat)
        new = s._replace(game=game, choose_dealer=False, dealing=(), log=(outcome, s.log), steps=s.steps + 1)
        return new, Event(outcome, CHANCE)
    if not isinstance(outcome, DealCard):
        raise IllegalActionError(str(outcome), "a card is being dealt: the chance outcome is 'deal CARD'")
    assert s.dealing is not None
    left = left_of_face(variant, s.dealing, outcome.card)
    if not left:
        raise IllegalActionError(str(outcome), f"every {outcome.card} has been dealt already")
    card = next((c for c in left if c is outcome.card), left[0])
    dealing = s.dealing + (card,)
    steps = s.steps + 1
    new = s._replace(dealing=dealing, log=(DealCard(card), s.log), steps=steps)
    if len(dealing) < variant.deck.size:
        return new, Event(DealCard(card), CHANCE)
    game = s.game.copy()
    game.deal(dealing)
    return new._replace(game=game, round=game.round, dealing=None, round_start=steps), Event(DealCard(card), CHANCE)


# -- what a seat has not seen ------------------------------------------------------------


def _card_id(card: Card) -> int:
    return card.id


def hidden_from(rnd: Round, seat: int) -> list[Card]:
    """The cards of ``rnd`` that ``seat`` has not seen: the stock, the cards of other
    hands never seen face up this round, and a knock's face-down discard (but the
    knocker's own). A card seen once (discarded, offered, melded, the upcard) stays where
    it is wherever it went since; in a deck with copies of a face, every copy of a face
    seen stays. A hand the rules constrain now stays whole: the knocker's (shown), and
    the turn player's while a deep draw must be melded (R5-3) or a claimed discard
    knocked with (GR-8)."""
    deck = rnd.variant.deck
    seen: list[Card] = [c for c in (rnd.offered, rnd.taken, rnd.must_meld, rnd.upcard, *rnd.last_accepted)
                        if c is not None]
    seen.extend(rnd.discards)
    for melds in rnd.table:
        for table_meld in melds:
            seen.extend(table_meld.cards)
    for declared in rnd.declared:
        for shown in declared or ():
            seen.extend(shown)
    for action in rnd.actions:
        if isinstance(action, Knock) and rnd.ender != seat:
            seen.extend(c for meld in action.melds or () for c in meld)
            continue
        seen.extend(action_cards(action))
    copies = deck.packs > 1 or deck.wilds > 1
    seen_ids = {c.id for c in seen}
    seen_faces = {deck.face_key(c) for c in seen} if copies else set()
    fixed = set()
    if rnd.ender is not None:
        fixed.add(rnd.ender)
    if rnd.must_meld is not None or rnd.must_knock:
        fixed.add(rnd.turn_player)
    for action in rnd.actions:  # a deep draw was legal only with what that hand held (R5-3)
        if isinstance(action, Draw) and action.card is not None:
            fixed.add(action.player)

    def unseen(card: Card) -> bool:
        return card.id not in seen_ids and (not copies or deck.face_key(card) not in seen_faces)

    # A pile turned over beneath the stock (BR-4) was seen face up: with the floor at 0
    # the whole stock is then known.
    hidden = [] if rnd.turn_overs else [c for c in rnd.stock if unseen(c)]
    for other in range(rnd.players):
        if other == seat or other in fixed:
            continue
        known = {c.id for c in rnd.known[other]}
        hidden.extend(c for c in rnd.hands[other] if c.id not in known and unseen(c))
    if rnd.face_down is not None and rnd.ender != seat and unseen(rnd.face_down):
        hidden.append(rnd.face_down)
    return hidden


def step_text(step: Any, deck: Any) -> str:
    """A logged step as text; in a deck with copies of a face, a copy after the first is
    written ``AS/1`` (the very card: a replay moves the same copies)."""
    text = str(step)
    if deck.packs == 1 and deck.wilds <= 1:
        return text
    cards = action_cards(step)
    if not any(c.copy for c in cards):
        return text
    tokens = text.replace("[", " [ ").replace("]", " ] ").split()
    at = 0
    for k, token in enumerate(tokens):
        if at < len(cards) and token == str(cards[at]):
            tokens[k] = card_text(cards[at])
            at += 1
    return " ".join(tokens).replace("[ ", "[").replace(" ]", "]")


def parse_step(m: Match, text: str) -> Any:
    """Read a step :func:`step_text` wrote (copies included).

    :raises MalformedActionError: for text that is no step, or a copy the deck lacks.
    """
    if "/" not in text:
        return m.parse(text)
    deck = m.variant.deck
    tokens = text.replace("[", " [ ").replace("]", " ] ").split()
    marked: list[tuple[str, int]] = []
    for token in tokens:
        face, slash, copy = token.partition("/")
        most = deck.wilds if face == "*" else deck.packs
        if slash and (not copy.isdigit() or not 0 < int(copy) < most):
            raise MalformedActionError(text, f"{token!r}: this deck has no copy {copy} of {face}")
        marked.append((face, int(copy) if slash else 0))
    action = m.parse(" ".join(face for face, _ in marked))
    exact = []
    at = 0
    for card in action_cards(action):
        while at < len(marked) and marked[at][0] != str(card):
            at += 1
        number = marked[at][1] if at < len(marked) else 0
        at += 1
        held = card_copy(deck, card, number)
        assert held is not None  # each copy number was checked against the deck above
        exact.append(held)
    return with_cards(action, iter(exact)) if exact else action


def resample(m: Match, seat: int, rng: random.Random) -> Match:
    """See :meth:`Match.resample <rummydsl.engine.match.Match.resample>`."""
    if not 0 <= seat < m.players:
        raise ValueError(f"seat {seat} is not one of the {m.players} seats")
    out = m.copy()
    out._undo = None
    s = m._s
    if m.to_move == TERMINAL or s.choose_dealer:
        return out  # nothing hidden (the game is over), or nothing dealt yet
    if s.dealing is not None:
        out._s = _resample_dealing(m, s, seat, rng)
        return out
    rnd = s.round
    hidden = hidden_from(rnd, seat)
    shuffled = sorted(hidden, key=_card_id)  # the redeal depends on what is hidden, not where it lies
    rng.shuffle(shuffled)
    swap = {a.id: b for a, b in zip(hidden, shuffled) if a is not b}
    log = s.log
    pending = s.pending
    if pending and seat != rnd.to_move:  # another seat's unfinished choice: not seen, not kept
        for _ in pending:
            log = log[1]
        pending = ()
    new_round = _relabel_round(rnd, swap)
    new_seed = None
    if m.chance == "seeded":
        new_seed = rng.getrandbits(63)
        # a shallow copy, its generator new: copying the old one cost a third of a resample,
        # and the sheets can be shared, as no state changes a game in place once another
        # may hold it (the states of a copied match copy their game before a round ends)
        game = copy.copy(s.game)
        game.rng = random.Random(new_seed)
    else:
        game = s.game.copy()
    game.round = new_round
    steps = s.steps - (len(s.pending) - len(pending))
    tail = steps - s.round_start  # the round's own steps (not the deal's chance outcomes)
    log = _relabel_log(log, tail, swap)
    redeals = s.redeals
    if new_seed is not None:
        order = tuple(c.id for c in deal_order(new_round))
        redeals = tuple(r for r in redeals if r[0] != s.round_start) + ((s.round_start, order, new_seed),)
    else:
        log = _relabel_deal(log, tail, m.variant.deck.size, new_round)
    out._s = s._replace(game=game, round=new_round, pending=pending, log=log, steps=steps, redeals=redeals)
    if s.one_round and not out._history:
        # its state and round are its own, and a match of one round never changes its game:
        # played in place, as Match.playing plays (a search's worlds: not a copy of the round an apply)
        out._exclusive = True
    return out


def _resample_dealing(m: Match, s: Any, seat: int, rng: random.Random) -> Any:
    """A deal under way (chance outcomes): the dealt cards ``seat`` has not seen, dealt again."""
    dealing = list(s.dealing)
    owners = dealt_owners(m.variant, s.game, len(dealing))
    mine = {k for k, owner in enumerate(owners) if owner in (seat, "upcard")}
    others = [k for k in range(len(dealing)) if k not in mine]
    cards = sorted((dealing[k] for k in others), key=_card_id)
    rng.shuffle(cards)
    for k, card in zip(others, cards):
        dealing[k] = card
    log = s.log
    for _ in range(len(dealing)):
        log = log[1]
    for card in dealing:
        log = (DealCard(card), log)
    return s._replace(dealing=tuple(dealing), log=log)


def dealt_owners(variant: Variant, game: Any, count: int) -> list[int | str]:
    """Who gets each of the first ``count`` cards of a deal: a seat, ``"upcard"`` or ``"stock"``."""
    n = game.players
    order = [(game.dealer + k) % n for k in range(1, n + 1)]
    if game.sat_out is not None:
        order.remove(game.sat_out)
    size = dealt_hand_size(variant, players=n, dealer=game.dealer, number=len(game.results) - game._game_start + 1,
                           scores=game.scores, sat_out=game.sat_out)
    owners: list[int | str] = [seat for _ in range(size) for seat in order]
    if variant.deal.upcard:
        owners.append("upcard")
    owners.extend(["stock"] * (variant.deck.size - len(owners)))
    return owners[:count]


def deal_order(rnd: Round) -> list[Card]:
    """The deck in the order ``rnd`` was dealt from (:meth:`Round.deal_cards` deals it back)."""
    hands, stock, upcard = rnd.dealt
    n = rnd.players
    order = [(rnd.dealer + k) % n for k in range(1, n + 1)]
    if rnd.sat_out is not None:
        order.remove(rnd.sat_out)
    size = len(hands[order[0]]) if order else 0
    cards = [hands[seat][k] for k in range(size) for seat in order]
    if upcard is not None:
        cards.append(upcard)
    cards.extend(stock)
    return cards


def _relabel_round(rnd: Round, swap: Mapping[int, Card]) -> Round:
    """A copy of ``rnd`` with each card of ``swap`` (by id) replaced where it lies: in every
    field declared to hold cards a seat may not have seen (:mod:`.fields`), the deal, and
    the actions (a knock's face-down discard)."""
    new = rnd.copy()
    if not swap:
        return new

    def one(card: Card) -> Card:
        return swap.get(card.id, card)

    for field in STATE:
        if not field.cards:
            continue
        value = getattr(new, field.name)
        if field.kind == "list":
            value = [one(c) for c in value]
        elif field.kind == "lists":
            value = [[one(c) for c in item] for item in value]
        elif value is not None:
            value = one(value)
        setattr(new, field.name, value)
    hands, stock, upcard = new.dealt
    new.dealt = (tuple(tuple(one(c) for c in hand) for hand in hands), tuple(one(c) for c in stock), upcard)
    new.actions = [_relabel_action(a, swap) for a in new.actions]
    return new


def _relabel_action(action: Any, swap: Mapping[int, Card]) -> Any:
    """``action`` with its cards replaced by ``swap`` (only a knock's face-down card can be hidden)."""
    if isinstance(action, Knock) and action.card is not None and action.card.id in swap:
        return dataclasses.replace(action, card=swap[action.card.id])
    return action


def _relabel_log(log: Any, count: int, swap: Mapping[int, Card]) -> Any:
    """The log with its newest ``count`` entries relabelled."""
    if not swap:
        return log
    entries = []
    for _ in range(count):
        entries.append(log[0])
        log = log[1]
    for entry in reversed(entries):
        log = (_relabel_action(entry, swap), log)
    return log


def _relabel_deal(log: Any, after: int, size: int, rnd: Round) -> Any:
    """The log with the chance outcomes of the deal of ``rnd`` (``size`` of them, just
    before its newest ``after`` entries) written again as ``rnd`` is now dealt."""
    newer = []
    for _ in range(after):
        newer.append(log[0])
        log = log[1]
    for _ in range(size):
        log = log[1]
    for card in deal_order(rnd):
        log = (DealCard(card), log)
    for entry in reversed(newer):
        log = (entry, log)
    return log
