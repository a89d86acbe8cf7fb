"""Invariant checks for seeded play of any variant (helpers for the engine property tests).

:func:`check_round_play` plays a round with agents and, before every action,
checks what must hold at every step of every game:

- every card of the deck is in exactly one place (hands, stock, discard pile,
  table melds);
- a player's ``known`` cards are in that player's hand, and were seen by all
  (tracked here from the actions, independently of the engine);
- until the round ends the player to move has a listed legal action; every
  listed action is accepted by ``in`` (as a value and as text) and by
  ``apply`` on a copy, and the copy is independent (the original's ``to_json``
  is unchanged);
- actions that are not listed (a wrong pile, a card not held, another
  player's move) are refused by ``why_illegal`` and by ``apply``, state unchanged;
  but an action of a later step of the turn, sent in an optional step, is accepted
  exactly when the listed ``done`` leads to a step that lists it, and plays as
  ``done`` then the action would (:func:`later_step_accepted`);
- no player's observation shows a card another player holds face down.

At the end it checks the deadwoods against the hands left and the points
against :func:`rummydsl.scoring.score_round` of the variant.

``RUMMYDSL_SOAK=1`` in the environment makes the tests that use :data:`LIGHT_HANDS`,
:data:`FULL_HANDS` and :data:`GAMES` play many more (a soak run, done by hand, not by default).
"""

from __future__ import annotations

import json
import os
import re
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from rummydsl.agents import make_agents
from rummydsl.cards import Card
from rummydsl.engine import (
    Action,
    Buy,
    Decline,
    Discard,
    Done,
    Draw,
    Knock,
    Layoff,
    Meld,
    Observation,
    Offer,
    Pass,
    Round,
    Take,
)
from rummydsl.engine import Game, RoundResult
from rummydsl.engine.actions import player_name
from rummydsl.engine.round import STATE
from rummydsl.errors import IllegalActionError
from rummydsl.expr.runtime import SimpleRoundView
from rummydsl.save import card_places, misplaced
from rummydsl.scoring import final_figures, score_round
from rummydsl.variant import load_variant

SHIPPED = ("gin_rummy", "skarney_gin", "ginski", "oklahoma_gin", "straight_gin", "tournament_gin",
           "hollywood_gin", "skarney_poker_distinct", "ginski_four",
           "knock_rummy", "gin_three_handed", "rummy", "rummy_500",
           "contract_rummy", "openspiel_gin", "rlcard_gin")
"""Every variant in variants/ (a test checks this list against the folder)."""

SOAK = os.environ.get("RUMMYDSL_SOAK", "") not in ("", "0")
LIGHT_HANDS = 2000 if SOAK else 100
"""Seeded hands per variant (random, greedy and mixed seats in turn) checked lightly."""
FULL_HANDS = 60 if SOAK else 5
"""Seeded hands per variant and agent kind checked in full at every step."""
GAMES = 20 if SOAK else 2
"""Seeded whole games per variant and agent kind."""

SOAK_LOG = os.environ.get("RUMMYDSL_SOAK_LOG", "")
"""A file to which each test appends what it checked (one JSON line), for soak reports."""

MAX_ROUND_ACTIONS = 20_000
"""A round that runs longer than this is taken to loop (the longest seen is far below)."""


@dataclass
class Tally:
    """What a run checked: hands, games and actions."""

    hands: int = 0
    games: int = 0
    actions: int = 0
    refused: int = 0
    implicit_done: int = 0
    """Actions of a later step accepted in an optional step, as if after ``done``."""
    observations: int = 0
    endings: dict[str, int] = field(default_factory=dict)

    def record(self, test: str) -> None:
        """Append this tally to :data:`SOAK_LOG`, if set."""
        if SOAK_LOG:
            line = {"test": test, "hands": self.hands, "games": self.games, "actions": self.actions,
                    "refused": self.refused, "observations": self.observations, "endings": self.endings}
            with open(SOAK_LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps(line) + "\n")

    def add(self, other: Tally) -> None:
        self.hands += other.hands
        self.games += other.games
        self.actions += other.actions
        self.refused += other.refused
        self.observations += other.observations
        for key, value in other.endings.items():
            self.endings[key] = self.endings.get(key, 0) + value


# ---------------------------------------------------------------------------- places of cards

def where(rnd: Round) -> list[Card]:
    """Every card of the round, from every place it can be (hands, stock, pile, table)."""
    return [c for _, cards in card_places(rnd) for c in cards]


def check_conservation(rnd: Round) -> None:
    """Every card of the deck is in exactly one place (the package's check, which saves use).

    Asked first as one count and one comparison of sets, which hold exactly when the
    package's check finds nothing: the objects placed (hands, stock, pile, table melds:
    ``card_places``' places) are the deck's own card objects, each once, and all of them.
    Only when that fails is the package's check run, for its message (this is called before
    every action and after every listed action: hundreds of thousands of times a run)."""
    deck = rnd.variant.deck
    placed = set(map(id, rnd.stock))
    placed.update(map(id, rnd.discards))
    count = len(rnd.stock) + len(rnd.discards)
    for hand in rnd.hands:
        placed.update(map(id, hand))
        count += len(hand)
    for melds in rnd.table:
        for meld in melds:
            placed.update(map(id, meld.cards))
            count += len(meld.cards)
    if count == len(deck.cards) and placed == _per_deck(deck)[3]:
        return
    problem = misplaced(deck, card_places(rnd))
    assert problem is None, f"cards out of place: {problem}"
    raise AssertionError(f"cards out of place, though the package's check finds nothing: {card_places(rnd)}")


_PER_DECK: dict[int, tuple[Any, list[str], list[int], frozenset[int]]] = {}


def _per_deck(deck: Any) -> tuple[Any, list[str], list[int], frozenset[int]]:
    """The deck, its cards' texts and face keys by card id, and the ``id()`` of its card objects."""
    kept = _PER_DECK.get(id(deck))
    if kept is None or kept[0] is not deck:  # the deck is held, so its id is never another's
        kept = _PER_DECK[id(deck)] = (deck, [str(c) for c in deck.cards], [deck.face_key(c) for c in deck.cards],
                                      frozenset(map(id, deck.cards)))
    return kept


def names_of(deck: Any) -> list[str]:
    """``str(card)`` of each card of ``deck``, by card id: written once per deck (the
    observation checks name every card of the round for every seat at every step)."""
    return _per_deck(deck)[1]


def face_keys_of(deck: Any) -> list[int]:
    """``deck.face_key(card)`` of each card of ``deck``, by card id, worked out once per deck."""
    return _per_deck(deck)[2]


def faces_in(deck: Any, cards: Sequence[Card]) -> Counter[int]:
    """How many cards of each face ``cards`` hold (``Counter(deck.face_key(c) for c in cards)``)."""
    key = face_keys_of(deck)
    return Counter([key[c.id] for c in cards])


# ---------------------------------------------------------------------------- what everyone saw

class Witness:
    """The cards of each hand that every player has seen, tracked from the actions.

    Independent of the engine's ``known``: a card is seen when it is taken from
    the discard pile (the upcard, a claim, a normal draw), bought (CR-4), or offered
    and declined (it stays in the offerer's hand, seen); taken after an offer it is
    seen in the taker's hand. What is known is faces with multiplicity, as the table
    sees them: copies of a face look alike (two packs, Ginski's five ``*``), so each
    card of a face leaving a hand takes one of that face off what is known there,
    whichever copy it was, and a face offered that is known already adds nothing.
    ``faces[p]`` counts the known faces of seat p's hand; ``ids[p]`` holds the ids
    of the cards seen face up going into it (the known cards must be among them).
    """

    def __init__(self, players: int) -> None:
        self.faces: list[Counter[int]] = [Counter() for _ in range(players)]
        self.ids: list[set[int]] = [set() for _ in range(players)]
        self._held: list[Counter[int]] = []
        self._seen: list[tuple[int, Card]] = []
        self._counted: tuple[list[tuple[Card, ...]], list[Counter[int]]] = ([], [])
        """The hands as :meth:`after` left them, and their faces (the next :meth:`before`'s,
        when the hands are still those cards)."""

    def before(self, rnd: Round, action: Action) -> None:
        """Note what ``action`` shows, from the round as it is before the action."""
        deck = rnd.variant.deck
        hands, held = self._counted
        if hands != [tuple(hand) for hand in rnd.hands]:
            held = [faces_in(deck, hand) for hand in rnd.hands]
        self._held = held
        seen = self._seen = []
        player = action.player
        if isinstance(action, Draw) and action.source == "discard" and action.card is not None:
            faces = [deck.face_key(c) for c in rnd.discards]  # a deep draw (R5-3):
            at = len(faces) - 1 - faces[::-1].index(deck.face_key(action.card))
            seen += [(player, c) for c in rnd.discards[at:]]  # the card and all above it
        elif isinstance(action, Draw) and action.source == "discard" and rnd.discards:
            seen.append((player, rnd.discards[-1]))
        elif isinstance(action, Take) and rnd.offered is not None:
            seen.append((player, rnd.offered))
        elif isinstance(action, Decline) and rnd.offered is not None:
            giver, card = rnd.turn_player, rnd.offered
            self.ids[giver].add(card.id)
            key = deck.face_key(card)
            self.faces[giver][key] = max(self.faces[giver][key], 1)
        elif isinstance(action, Buy) and rnd.discards:  # CR-4: the bought discard was face up
            seen.append((player, rnd.discards[-1]))

    def after(self, rnd: Round) -> None:
        """Take the faces that left a hand off what is known there; add the faces seen going in."""
        deck = rnd.variant.deck
        held = [faces_in(deck, hand) for hand in rnd.hands]  # (no hand changes in here: counted once)
        for player, hand in enumerate(rnd.hands):
            now = held[player]
            known = self.faces[player]
            for key, count in self._held[player].items():
                gone = count - now[key]
                if gone > 0:
                    known[key] = max(0, known[key] - gone)
            self.ids[player] &= {c.id for c in hand}
        for player, card in self._seen:
            self.faces[player][deck.face_key(card)] += 1
            self.ids[player].add(card.id)
        for player, now in enumerate(held):
            known = self.faces[player]
            for key in list(known):
                known[key] = min(known[key], now[key])
                if not known[key]:
                    del known[key]  # (so every count left is positive)
        self._seen = []
        self._counted = ([tuple(hand) for hand in rnd.hands], held)


def check_known(rnd: Round, witness: Witness) -> None:
    """``known`` cards are in their hand and were seen going in, and the known faces are
    exactly those the table saw go in and not come out (by face, with multiplicity)."""
    deck = rnd.variant.deck
    for player, known in enumerate(rnd.known):
        hand = {c.id for c in rnd.hands[player]}
        name = player_name(player)
        assert len({c.id for c in known}) == len(known), f"a card is known twice in {name}'s hand"
        for card in known:
            assert card.id in hand, f"{card} is known in {name}'s hand but not held"
            assert card.id in witness.ids[player], (
                f"{card!r} is marked known in {name}'s hand but that card was never seen there")
        if not known:  # most steps: compared as the Counter of no faces would be
            assert not any(witness.faces[player].values()), (
                f"{name}'s known cards [] are not the faces the table saw go in and not out "
                f"({sorted(str(deck.cards[k]) if k < deck.natural_faces else '*' for k in witness.faces[player].elements())})")
            continue
        faces = Counter(deck.face_key(c) for c in known)
        assert faces == witness.faces[player], (
            f"{name}'s known cards {sorted(str(c) for c in known)} are not the faces the table saw "
            f"go in and not out ({sorted(str(deck.cards[k]) if k < deck.natural_faces else '*' for k in witness.faces[player].elements())})")


# ---------------------------------------------------------------------------- observations

_TOKEN = re.compile(r'[^\s\[\]",:{}]+')


def strings(value: Any) -> set[str]:
    """Every token of a JSON value's text (split on spaces, brackets and JSON punctuation)."""
    return set(_TOKEN.findall(json.dumps(value)))


def tokens_among(faces: set[str], value: Any) -> set[str]:
    """``faces & strings(value)``, without splitting the text where no face is in it at all
    (a token is a piece of the text, so a face found nowhere in it is no token of it)."""
    text = json.dumps(value)
    there = {face for face in faces if face in text}
    return there & set(_TOKEN.findall(text)) if there else there


def shown_to_all(rnd: Round, player: int) -> set[int]:
    """Ids of ``player``'s cards everyone may see: known, or in melds shown after a knock."""
    out = {c.id for c in rnd.known[player]}
    declared = rnd.declared[player]
    if declared:
        out |= {c.id for meld in declared for c in meld}
    return out


def hidden_from(rnd: Round, seat: int) -> set[str]:
    """Faces that only another player may know: held face down by another player, or
    discarded face down by another's knock, and not visible to ``seat`` in any other way
    (own hand, the pile face up, the table, shown cards)."""
    name = names_of(rnd.variant.deck)
    visible: set[str] = {name[c.id] for c in rnd.hands[seat]}
    face_down = rnd.face_down if rnd.ender != seat else None  # a knock's discard (GR-6.1)
    visible.update([name[c.id] for c in rnd.discards if c is not face_down])
    visible.update([name[c.id] for melds in rnd.table for meld in melds for c in meld.cards])
    if rnd.upcard is not None:
        visible.add(str(rnd.upcard))
    if rnd.offered is not None:
        visible.add(str(rnd.offered))
    secret: set[str] = set()
    for other in range(rnd.players):
        if other == seat:
            continue
        public = shown_to_all(rnd, other)
        for c in rnd.hands[other]:
            (visible if c.id in public else secret).add(name[c.id])
    if face_down is not None:
        secret.add(str(face_down))
    return secret - visible


def check_observation(rnd: Round, seat: int, witness: Witness | None = None) -> None:
    """Seat ``seat``'s observation (JSON and attributes) shows no card held face down by another.

    With a ``witness``, the known cards it shows of each other hand are, face by face
    and with multiplicity, those the table saw go in and not come out, and each is a
    card seen going in (a second copy of a face never seen there is a leak)."""
    secret = hidden_from(rnd, seat)
    obs = Observation(rnd, seat)
    data = obs.as_json()  # the round does not change while it is looked at: one JSON serves every check
    if witness is not None:
        deck = rnd.variant.deck
        shown = data["known"]
        for other in range(rnd.players):
            if other == seat:
                continue
            cards = obs.known(other)
            name = player_name(other)
            if not cards:  # most steps: nothing known, so the three checks below read as these
                assert not any(witness.faces[other].values()), (
                    f"{player_name(seat)}'s observation shows [] known in {name}'s hand")
                assert not shown[name], (
                    f"{player_name(seat)}'s observation JSON shows {shown[name]} known in {name}'s hand")
                continue
            key = face_keys_of(deck)  # (the witness's counts are all positive: see Witness.after)
            assert sorted([key[c.id] for c in cards]) == sorted(witness.faces[other].elements()), (
                f"{player_name(seat)}'s observation shows {sorted(str(c) for c in cards)} known in {name}'s hand")
            assert {c.id for c in cards} <= witness.ids[other], (
                f"{player_name(seat)}'s observation shows a copy never seen in {name}'s hand: {cards!r}")
            assert sorted(shown[name]) == sorted([str(c) for c in cards]), (
                f"{player_name(seat)}'s observation JSON shows {shown[name]} known in {name}'s hand")
    leaked = tokens_among(secret, data)
    assert not leaked, f"{player_name(seat)}'s observation shows {sorted(leaked)} held face down by another"
    seen: list[Card] = [*obs.hand, *obs.discards]
    for other in range(rnd.players):
        seen += obs.known(other)
        seen += [c for meld in obs.shown(other) or () for c in meld]
    seen += [c for melds in obs.table for meld in melds for c in meld.cards]
    seen += [c for c in (obs.offered, obs.taken, obs.top_discard, obs.upcard, obs.knock_discard) if c is not None]
    if rnd.face_down is not None and rnd.ender != seat:
        assert obs.knock_discard is None and all(c is not rnd.face_down for c in obs.discards), (
            f"{player_name(seat)}'s observation shows the knock's face-down discard")
        assert data["knock_discard"] is None
    if rnd.result is not None and rnd.result.void:  # nobody shows a hand in a void round
        shown_deadwoods = data["result"]["deadwoods"]
        others = {player_name(p): shown_deadwoods[player_name(p)] for p in range(rnd.players) if p != seat}
        assert set(others.values()) <= {None}, f"{player_name(seat)} sees the void round's deadwoods {others}"
    card_name = names_of(rnd.variant.deck)
    leaked = secret & {card_name[c.id] for c in seen}
    assert not leaked, f"{player_name(seat)}'s observation attributes show {sorted(leaked)}"
    if rnd.to_move != seat:
        listed = [str(a) for a in obs.legal_actions()]
        assert listed == [], f"{player_name(seat)} (not to move) is shown legal actions {listed}"
    else:
        leaked = tokens_among(secret, [str(a) for a in obs.legal_actions()])
        assert not leaked, f"{player_name(seat)}'s legal actions show {sorted(leaked)}"


# ---------------------------------------------------------------------------- actions

def candidates(rnd: Round, rng: random.Random, count: int) -> list[Action]:
    """Random actions of every verb (but ``meld``, whose listing is not exhaustive):
    by the player to move and by the others, with random cards of the deck."""
    deck = rnd.variant.deck.cards
    out: list[Action] = []
    for _ in range(count):
        player = rng.randrange(rnd.players)
        card = deck[rng.randrange(len(deck))]
        owner = rng.randrange(rnd.players)
        index = rng.randrange(3)
        verb = rng.randrange(10)
        if verb == 0:
            out.append(Draw(player, rng.choice(("stock", "discard"))))
        elif verb == 1:
            out.append(Pass(player))
        elif verb == 2:
            out.append(Discard(player, card))
        elif verb == 3:
            out.append(Knock(player, card if rng.random() < 0.8 else None))
        elif verb == 4:
            out.append(Layoff(player, card, owner, index))
        elif verb == 5:
            out.append(Offer(player, card))
        elif verb == 6:
            out.append(Take(player))
        elif verb == 7:
            out.append(Decline(player))
        elif verb == 8:
            out.append(Done(player))
        else:  # a card the player to move holds, in a verb that may not fit the phase
            mover = rnd.to_move if rnd.to_move is not None else player
            hand = rnd.hands[mover]
            if hand:
                held = hand[rng.randrange(len(hand))]
                out.append(rng.choice((Discard, Offer))(mover, held))
    return out


def state_of(rnd: Round, card_text: Callable[[Card], str] = str) -> tuple[dict[str, Any], list[Action]]:
    """What ``rnd.to_json(card_text)`` holds, to tell whether a round changed: the JSON of every
    part of the state but the action log, written as ``to_json`` writes it, and the log itself, a
    copy of the list of its actions (frozen values: the same actions write the same text).

    ``to_json`` writes every action of the round so far, so comparing two of its dumps costs
    more with every action; the list compares element by element, each the same object
    unless something replaced it (then its value is compared, stricter than its text).
    ``test_state_of_holds_what_to_json_holds`` holds the two to telling the same changes."""
    out: dict[str, Any] = {"round": rnd.number, "dealer": rnd.dealer, "sat_out": rnd.sat_out}
    for field in STATE:
        if field.json is None or field.key == "actions":
            continue
        value = field.json(rnd, card_text)
        if field.key:
            out[field.key] = value
        else:
            out.update(value)
    return out, list(rnd.actions)


def same_text(one: tuple[dict[str, Any], list[Action]], other: tuple[dict[str, Any], list[Action]]) -> bool:
    """Whether two :func:`state_of` values mean the same ``to_json``: the JSON but the log
    equal, and the logs' actions the same text one by one (the same object writes the same
    text, so only actions that are not the very same object are written out)."""
    return one[0] == other[0] and len(one[1]) == len(other[1]) and all(
        a is b or str(a) == str(b) for a, b in zip(one[1], other[1]))


def check_step(rnd: Round, rng: random.Random, tally: Tally, *, refusals: int = 4) -> list[Action]:
    """Everything that must hold before the next action (see the module docstring); the
    actions listed, each checked ``in`` the legal actions."""
    check_conservation(rnd)
    assert rnd.result is None
    player = rnd.to_move
    assert player is not None, f"nobody to move in phase {rnd.phase.value}"
    legal = rnd.legal_actions()
    listed = list(legal)
    assert listed, f"{player_name(player)} has no legal action in phase {rnd.phase.value}"
    texts = {str(a) for a in listed}
    assert len(texts) == len(listed), f"an action is listed twice: {sorted(str(a) for a in listed)}"
    before = state_of(rnd, id)  # each card as the very object: equal means the same text (see state_of)
    for action in listed:
        assert action.player == player, f"{action} is listed on {player_name(player)}'s move"
        assert rnd.why_illegal(action) is None, f"{action} is listed but refused: {rnd.why_illegal(action)}"
        assert action in legal and str(action) in legal, f"{action} is listed but not 'in' the legal actions"
        other = rnd.copy()
        other.apply(action)
        check_conservation(other)
    for action in candidates(rnd, rng, refusals):
        if str(action) in texts:
            continue
        reason = rnd.why_illegal(action)
        if reason is None and later_step_accepted(rnd, action):
            tally.implicit_done += 1
            continue
        assert reason is not None, f"{action} is not listed but accepted (listed: {sorted(texts)})"
        assert action not in legal and str(action) not in legal
        try:
            rnd.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{action} was applied though why_illegal said {reason!r}")
        tally.refused += 1
    # One look at the state for both: neither applying the listed actions to copies nor
    # the refused actions may change the round (a change by the first stays to the end).
    assert state_of(rnd, id) == before, "applying an action to a copy, or a refused action, changed the round"
    return listed


def later_step_accepted(rnd: Round, action: Action) -> bool:
    """An action of a later step, sent in an optional step (issue 17: ``P1 offer 7H``
    right after ``P1 draw stock``): accepted exactly when the listed ``done`` ends the
    step(s) between and the action is then listed; applying it is the same as playing
    those ``done`` first, and a copy shows it (the original is left unchanged)."""
    done = Done(action.player)
    if not any(str(a) == str(done) for a in rnd.listed()):
        return False
    stepped = rnd.copy()
    while stepped.to_move == action.player and not any(str(a) == str(action) for a in stepped.listed()):
        if not any(str(a) == str(done) for a in stepped.listed()):
            return False
        stepped.apply(done)
    if stepped.to_move != action.player:
        return False
    stepped.apply(action)
    direct = rnd.copy()
    direct.apply(action)
    assert same_text(state_of(direct), state_of(stepped)), (  # to_json ==, the logs compared as text
        f"{action} with an implicit 'done' differs from 'done' first")
    return True


def random_melds(rnd: Round, rng: random.Random, cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    """Melds to name: some of the best arrangement's, or random groups (mostly not melds)."""
    if not cards:
        return ()
    best = [tuple(meld) for meld in rnd.rules.solve(cards, check_contract=False).melds]
    if best and rng.random() < 0.6:
        return tuple(rng.sample(best, rng.randint(1, len(best))))
    if len(cards) < 3:
        return ()
    return tuple(tuple(rng.sample(list(cards), rng.randint(3, min(5, len(cards)))))
                 for _ in range(rng.randint(1, 3)))


def check_unlisted(rnd: Round, rng: random.Random, count: int = 3) -> None:
    """Actions the listing leaves out (melds of several groups, a defender showing melds,
    a knock naming its melds): ``why_illegal`` and ``apply`` agree, and an accepted one
    leaves a sound round (cards in place, someone to move or a right result)."""
    player = rnd.to_move
    assert player is not None
    hand = rnd.hands[player]
    before = state_of(rnd, id)
    for _ in range(count):
        tries: list[Action] = []
        melds = random_melds(rnd, rng, hand)
        if melds:
            tries.append(Meld(player, melds))
        if hand:
            out = hand[rng.randrange(len(hand))]
            kept = [c for c in hand if c is not out]
            tries.append(Knock(player, out, random_melds(rnd, rng, kept) or None))
        for action in tries:
            reason = rnd.why_illegal(action)
            other = rnd.copy()
            try:
                other.apply(action)
            except IllegalActionError as problem:
                assert reason is not None, f"{action}: why_illegal says legal, apply refuses: {problem}"
                continue
            assert reason is None, f"{action}: why_illegal says {reason!r}, apply accepts it"
            check_conservation(other)
            if other.result is None:
                assert other.to_move is not None and len(other.legal_actions()) > 0, f"stuck after {action}"
            else:
                check_result(other)
    assert state_of(rnd, id) == before


def expected_deadwood(rnd: Round, player: int) -> int | None:
    """A player's deadwood at the end, worked out from the hand left (C-6, GR-7, SK-10.1).

    The ender's is what the melds put on the table leave; anyone else's is the least the
    hand allows (C-6), and melds a defender showed leave exactly that. A hand grown past
    the solver's 20 cards by deep draws has none (None)."""
    hand = rnd.hands[player]
    if player == rnd.ender:
        return rnd.value(hand)  # the knocker's melds are on the table; what is left is deadwood
    if len(hand) > 20:
        return None
    least = rnd.rules.min_deadwood(hand) if hand else 0
    declared = rnd.declared[player]
    if declared:
        used = {c.id for meld in declared for c in meld}
        assert rnd.value([c for c in hand if c.id not in used]) == least, (
            f"{player_name(player)} showed melds that leave more than the least deadwood {least}")
    return least


def expected_melded(rnd: Round, player: int) -> int:
    """``melded(p)`` worked out apart from the engine's credit module: each table card
    credited to ``player`` (who laid it, ``TableMeld.by``), valued by ``melded_value``
    with a run's cards placed by rank (the ace low when the run holds a 2)."""
    formula = rnd.variant.melded_value
    total = 0
    for melds in rnd.table:
        for meld in melds:
            assert len(meld.by) == len(meld.cards), "every table card has who laid it"
            if formula is None or any(c.wild for c in meld.cards):
                total += sum(rnd.values[c.id] for c, who in zip(meld.cards, meld.by) if who == player)
                if formula is not None:  # wild cards: the engine's placing, trusted here
                    from rummydsl.engine.mechanics.credit import melded_total
                    return melded_total(rnd, player)
                continue
            orders = [c.rank.order for c in meld.cards if c.rank is not None]
            run = len(set(orders)) == len(orders) and len(orders) > 1
            low_ace = 2 in orders

            def place(index: int) -> int:
                card = meld.cards[index]
                assert card.rank is not None
                order = card.rank.order
                return (14 if order == 1 and not low_ace else order) if run else index

            ranked = sorted(range(len(meld.cards)), key=place)
            for position, index in enumerate(ranked, start=1):
                if meld.by[index] == player:
                    card = meld.cards[index]
                    total += int(formula(card, rnd.values[card.id], meld.kind, position, len(meld.cards)))
    return total


def check_result(rnd: Round) -> None:
    """The end: deadwoods from the hands left, points from the variant's scoring."""
    result = rnd.result
    assert result is not None
    assert rnd.to_move is None and list(rnd.legal_actions()) == []
    check_conservation(rnd)
    n = rnd.players
    names = [player_name(p) for p in range(n)]
    deadwoods = tuple(expected_deadwood(rnd, p) for p in range(n))
    assert result.deadwoods == deadwoods, f"deadwoods {result.deadwoods}, hands left give {deadwoods}"
    if result.void:
        assert result.points == (0,) * n
        assert result.ender is None
        return
    view = SimpleRoundView(
        players=[names[p] for p in rnd.seated], dealer=names[rnd.dealer], round=rnd.number,
        hand_size=rnd.variant.deal.hand_size, upcard=rnd.upcard,
        ender=None if result.ender is None else names[result.ender], ending=result.ending,
        deadwoods=dict(zip(names, result.deadwoods)), scores=dict(zip(names, rnd.scores)),
        card_value=lambda card: rnd.values[card.id], contracts=dict(zip(names, rnd.met_contract)),
        melded=dict(zip(names, rnd.melded_turns)),
        hand_values={name: sum(rnd.values[c.id] for c in rnd.hands[p]) for p, name in enumerate(names)},
        melded_values={name: expected_melded(rnd, p) for p, name in enumerate(names)})
    want = score_round(rnd.variant, view)
    assert result.points == tuple(want.get(name, 0) for name in names), (
        f"points {result.points}, the variant's scoring gives {want}")
    if result.ending in ("gin", "big_gin", "knock", "out"):
        assert result.ender is not None
    if result.ending == "gin":
        assert result.deadwoods[result.ender] == 0


def play_checked(rnd: Round, agents: Sequence[Any], rng: random.Random, tally: Tally, *,
                 observe: bool = True, refusals: int = 4) -> list[str]:
    """Play ``rnd`` to its end with ``agents``, checking every step; the actions played."""
    witness = Witness(rnd.players)
    views = [Observation(rnd, seat) for seat in range(rnd.players)]
    count = 0
    while rnd.result is None:
        listed = check_step(rnd, rng, tally, refusals=refusals)
        check_known(rnd, witness)
        if observe:
            for seat in range(rnd.players):
                check_observation(rnd, seat, witness)
                tally.observations += 1
        player = rnd.to_move
        assert player is not None
        action = agents[player].act(views[player])
        # the agent's choice is legal by ``in`` (play_light's check): a listed action was
        # checked ``in`` above; an unlisted one (melds shown after a knock) is asked here
        assert action in listed or action in rnd.legal_actions(), f"{action} is not legal"
        witness.before(rnd, action)
        rnd.apply(action)
        witness.after(rnd)
        count += 1
        assert count <= MAX_ROUND_ACTIONS, f"round still going after {count} actions"
    if observe:
        for seat in range(rnd.players):
            check_observation(rnd, seat)
    check_result(rnd)
    tally.actions += count
    tally.hands += 1
    tally.endings[rnd.result.ending] = tally.endings.get(rnd.result.ending, 0) + 1
    return [str(a) for a in rnd.actions]


class ShowingAgent:
    """A random agent that, as a defender after a knock, often shows its best melds first
    (``meld``, which the listing leaves out), so the shown-melds paths get played too."""

    def __init__(self, inner: Any, rng: random.Random) -> None:
        self.inner = inner
        self.rng = rng

    def act(self, observation: Observation) -> Action:
        seat = observation.player
        if observation.phase == "showdown" and observation.shown(seat) is None and self.rng.random() < 0.5:
            best = observation.rules.solve(observation.hand, check_contract=False)
            if best.melds:
                show = Meld(seat, tuple(tuple(meld) for meld in best.melds))
                assert show in observation.legal_actions(), f"{show} (the best melds) is refused"
                return show
        action: Action = self.inner.act(observation)
        return action


def seeded_agents(variant: Any, kind: str, seed: int) -> list[Any]:
    """The agents of one seeded hand: all ``random``, all ``greedy``, a mix (random
    seats that show melds after a knock, greedy seats), or the rule agents of
    rummydsl/agents/ (``strong``: heuristic and simple by turns; the search agents are
    tests/agents/test_agents.py's)."""
    spec = {"random": "random", "greedy": "greedy", "mixed": "random,greedy",
            "strong": "heuristic,simple"}[kind]
    agents = make_agents(spec, variant.players, random.Random(seed))
    if kind == "mixed":
        agents = [ShowingAgent(a, random.Random(seed * 31 + i)) if i % 2 == 0 else a
                  for i, a in enumerate(agents)]
    return agents


# ---------------------------------------------------------------------------- whole games

MAX_GAME_ROUNDS = 2_000
"""A game that runs longer than this is taken to loop."""


def play_light(rnd: Round, agents: list[Any], tally: Tally | None = None) -> RoundResult:
    """Play a round checking the cheap invariants only: cards in place, a legal action to
    take, the agent's choice legal, an end within the bound, the result scored right."""
    views = [Observation(rnd, seat) for seat in range(rnd.players)]
    count = 0
    while rnd.result is None:
        check_conservation(rnd)
        player = rnd.to_move
        assert player is not None
        legal = rnd.legal_actions()
        assert len(legal) > 0
        action = agents[player].act(views[player])
        assert action in legal
        rnd.apply(action)
        count += 1
        assert count <= MAX_ROUND_ACTIONS, f"round {rnd.number} still going after {count} actions"
    check_result(rnd)
    if tally is not None:
        tally.hands += 1
        tally.actions += count
        tally.endings[rnd.result.ending] = tally.endings.get(rnd.result.ending, 0) + 1
    return rnd.result


def expected_dealer(game: Game, dealer: int, result: RoundResult) -> int:
    """The next dealer by the rules (GR-2.2, GR-2.3, SK-2.2, GS-2.2), worked out here."""
    deal = game.variant.deal
    n = game.players
    if deal.rotation == "sitter":  # G3-2: the seat sitting out deals (who that is: test_sit_out.py)
        assert game.round.sat_out is not None
        return game.round.sat_out
    if deal.rotation == "next":
        if result.void and deal.void_redeal == "same_dealer":
            return dealer
        return (dealer + 1) % n
    if result.winner is None:
        return dealer if deal.void_redeal == "same_dealer" else (dealer + 1) % n
    assert n == 2, "winner_deals/loser_deals are checked here for two players"
    return result.winner if deal.rotation == "winner_deals" else 1 - result.winner


class Sheets:
    """An independent score sheet: one game, or Hollywood's several (GR-13)."""

    def __init__(self, count: int, players: int) -> None:
        self.points = [[0] * players for _ in range(count)]
        self.wins = [[0] * players for _ in range(count)]
        self.entries = [[False] * players for _ in range(count)]
        self.closed = [False] * count

    def enter(self, points: tuple[int, ...], hollywood: bool) -> None:
        for player, got in enumerate(points):
            if not got:
                continue
            if not hollywood:
                self.points[0][player] += got
                self.wins[0][player] += got > 0
                continue
            assert got > 0
            opened = False
            for game in range(len(self.points)):
                if self.closed[game]:
                    continue
                if self.entries[game][player] or not opened:
                    opened = opened or not self.entries[game][player]
                    self.entries[game][player] = True
                    self.points[game][player] += got
                    self.wins[game][player] += 1

    def close(self, target: int | None, deals: int | None = None, lowest: bool = False,
              played: int = 0) -> list[int]:
        """Close the games that reached the target with one leader, or played their
        ``deals`` (CR-2: a tie then goes to the first seat); the games closed."""
        done = []
        last = deals is not None and played >= deals
        for game, points in enumerate(self.points):
            best = min(points) if lowest else max(points)
            reached = target is not None and max(points) >= target
            if not self.closed[game] and (reached or last) and (points.count(best) == 1 or last):
                self.closed[game] = True
                done.append(game)
        return done


RoundPlayer = Callable[[Round, list[Any], "Tally | None"], RoundResult]
"""Plays one round of a game to its end, checking what it checks (:func:`play_light` by default)."""


def play_game_checked(variant_id: str, kind: str, seed: int, tally: Tally | None = None, *,
                      play: RoundPlayer | None = None, game: Game | None = None) -> Game:
    """A whole seeded game, with its totals, dealers, closing and figures checked.

    ``play`` plays each round (the soak script's attacks between the actions); ``game``
    is the game to play, if the caller made it (it must be fresh, seeded with ``seed``)."""
    variant = load_variant(variant_id)
    game = game if game is not None else Game(variant, random.Random(seed))
    agents = seeded_agents(variant, kind, seed)
    play = play if play is not None else play_light
    hollywood = variant.game.hollywood_games is not None
    sheets = Sheets(variant.game.hollywood_games or 1, game.players)
    target = variant.game.target
    lowest = variant.game.winner == "lowest"
    match_wins = [0] * game.players
    games_played = 0
    game_start = 0  # rounds played before the current game of a match began
    while not game.over:
        rnd = game.round
        assert rnd.number == len(game.results) - game_start + 1, "round is the deal number within its game"
        assert rnd.dealer == game.dealer
        open_game = next((g for g in range(len(sheets.points)) if not sheets.closed[g]), -1)
        assert rnd.scores == tuple(sheets.points[open_game]), "the round does not start from the totals"
        result = play(rnd, agents, tally)
        dealer = game.dealer
        sheets.enter(result.points, hollywood)
        game.next_round()
        assert len(game.results) <= MAX_GAME_ROUNDS, f"game of seed {seed} still going"
        closed = sheets.close(target, variant.game.deals, lowest, len(game.results) - game_start)
        if variant.game.match_games_to_win and closed:
            points = sheets.points[0]
            winner = points.index(max(points))
            played = game.finished_games[games_played]
            assert played[0] == winner and played[2] == tuple(points)
            figures = final_figures(variant, dict(enumerate(points)), dict(enumerate(sheets.wins[0])))
            assert played[1] == tuple(figures[p] for p in range(game.players))
            games_played += 1
            match_wins[winner] += 1
            if max(match_wins) < variant.game.match_games_to_win:
                sheets = Sheets(1, game.players)
                game_start = len(game.results)
        if not game.over:
            assert game.round.dealer == expected_dealer(game, dealer, result)
            if not variant.game.match_games_to_win:
                for number, sheet in enumerate(game.sheets):
                    assert sheet.points == sheets.points[number]
                    assert sheet.closed == sheets.closed[number]
    outcome = game.result
    assert outcome is not None
    assert outcome.rounds == len(game.results)
    assert all(sheets.closed), "the game ended with a game still open"
    if variant.game.match_games_to_win:
        assert max(match_wins) == variant.game.match_games_to_win
        assert outcome.games_won == tuple(match_wins)
        assert outcome.winner == match_wins.index(max(match_wins))
        return game
    figures = [final_figures(variant, dict(enumerate(points)), dict(enumerate(wins)))
               for points, wins in zip(sheets.points, sheets.wins)]
    want = tuple(sum(f[p] for f in figures) for p in range(game.players))
    assert outcome.figures == want
    assert outcome.points == tuple(sum(points[p] for points in sheets.points) for p in range(game.players))
    if hollywood:
        won = [0] * game.players
        for points in sheets.points:
            won[points.index(max(points))] += 1
        assert outcome.games_won == tuple(won)
        assert won[outcome.winner] == max(won)
    else:
        best = (min if lowest else max)(sheets.points[0])
        assert outcome.winner == sheets.points[0].index(best)
        assert variant.game.deals is not None or max(sheets.points[0]) >= (target or 0)
        blank = [v == 0 for p, v in enumerate(sheets.points[0]) if p != outcome.winner]
        assert outcome.shutout == (any(blank) if variant.game.shutout_per == "each_loser" else all(blank))
    return game
