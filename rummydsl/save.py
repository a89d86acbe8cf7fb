"""Save a game in progress as JSON, and resume it to the identical continuation.

A save (:func:`save_game`) holds the whole game: the format version, the variant's id
and rules digest, every score sheet, the rounds played so far, the dealer, the state of
the random generator that deals the later rounds, and the current round as its deal, the
actions played since, and the position they lead to (phase, hands, stock order, discard
pile, table melds, whose turn, a knock in progress ...). With ``agents`` it also holds
each seat's agent and its own generator (a ``cmd:`` program keeps its state itself: it
is started afresh).

Loading (:func:`load_game`) checks everything before anything is built, so a save is
loaded whole or not at all: the version, the variant (the same rules digest, as
:func:`rummydsl.record.variant_digests` gives), every card of the deck exactly once in
the deal and in the position, each action legal where it stands (the round is replayed
from its deal: the actions are the authority), and the position the actions give equal
to the saved one. A problem is a :class:`~rummydsl.errors.RecordError` naming the key
and quoting the bad value.

Cards are written in the deck's notation; in a deck with several copies of a face a
copy after the first is marked ``/copy`` (``AS/1``, ``*/2``), so the very same cards
are where they were.

>>> import json, random
>>> from rummydsl.variant import load_variant
>>> from rummydsl.agents import make_agents
>>> from rummydsl.engine import Game, Observation, play_game
>>> variant = load_variant("gin_rummy")
>>> game = Game(variant, random.Random(5))
>>> agents = make_agents("random", 2, random.Random(5))
>>> for _ in range(7):  # a few actions into the first round
...     seat = game.round.to_move
...     _ = game.round.apply(agents[seat].act(Observation(game.round, seat)))
>>> text = json.dumps(save_game(game, agents))
>>> again = load_game(variant, json.loads(text))
>>> again_agents = load_agents(json.loads(text))
>>> play_game(game, agents) == play_game(again, again_agents)
True
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from . import jsonbound, limits
from .engine.actions import action_cards as _action_cards
from .engine.actions import card_text, player_name
from .engine.actions import with_cards as _with_cards
from .errors import Location, RecordError, RummyDslError

if TYPE_CHECKING:
    from .agents import Agent
    from .cards import Card, Deck
    from .engine import Game, Round
    from .variant.model import Variant

__all__ = [
    "SAVE_VERSION",
    "Fields",
    "card_text",
    "card_places",
    "misplaced",
    "check_cards",
    "save_game",
    "load_game",
    "save_agents",
    "load_agents",
    "write_save",
    "read_save",
]

#: The version of the save format, in each save.
SAVE_VERSION = 1

_COPY = "/"


# -- cards -------------------------------------------------------------------------------


class _Cards:
    """Reads cards written by :func:`card_text` in one deck."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.copies = {(deck.face_key(c), c.copy): c for c in deck.cards}

    def card(self, text: Any, where: str) -> Card:
        if not isinstance(text, str):
            raise RecordError(f"{where}: expected a card, got {text!r:.60}")
        face, mark, copy = text.partition(_COPY)
        try:
            first = self.deck.parse_card(face)
        except RummyDslError as problem:
            raise RecordError(f"{where}: {problem}") from None
        number = int(copy) if mark and copy.isdigit() else (0 if not mark else -1)
        found = self.copies.get((self.deck.face_key(first), number))
        if found is None:
            raise RecordError(f"{where}: {text!r} is not a card of this deck (no copy {copy!r} of {face!r})")
        return found

    def cards(self, value: Any, where: str) -> list[Card]:
        if not isinstance(value, list):
            raise RecordError(f"{where}: expected a list of cards, got {value!r:.60}")
        return [self.card(text, f"{where}[{i}]") for i, text in enumerate(value)]


def card_places(rnd: Round) -> list[tuple[str, Sequence[Card]]]:
    """Every place a card can be in a round, named: each hand, the stock, the discard
    pile, each player's table melds."""
    places: list[tuple[str, Sequence[Card]]] = [(f"{player_name(p)}'s hand", hand)
                                                 for p, hand in enumerate(rnd.hands)]
    places.append(("the stock", rnd.stock))
    places.append(("the discard pile", rnd.discards))
    for p, melds in enumerate(rnd.table):
        places.append((f"{player_name(p)}'s melds", [c for meld in melds for c in meld.cards]))
    return places


def misplaced(deck: Deck, places: Sequence[tuple[str, Sequence[Card]]]) -> str | None:
    """Why ``places`` do not hold every card of ``deck`` exactly once, or ``None`` if they do.

    >>> from rummydsl.cards import Deck
    >>> deck = Deck.preset("standard52")
    >>> misplaced(deck, [("P1's hand", deck.cards[:30]), ("the stock", deck.cards[29:])])
    "card '4D' is twice: in P1's hand and in the stock"
    >>> misplaced(deck, [("the stock", deck.cards[1:])])
    "card 'AS' is missing (the deck has 52 cards, 51 are placed)"
    """
    where: dict[int, str] = {}
    for name, cards in places:
        for card in cards:
            if not 0 <= card.id < len(deck.cards) or deck.cards[card.id] is not card:
                return f"{card!r} in {name} is not a card of this deck"
            if card.id in where:
                return f"card {card_text(card)!r} is twice: in {where[card.id]} and in {name}"
            where[card.id] = name
    if len(where) != len(deck.cards):
        missing = next(c for c in deck.cards if c.id not in where)
        return (f"card {card_text(missing)!r} is missing (the deck has {len(deck.cards)} cards, "
                f"{len(where)} are placed)")
    return None


def check_cards(rnd: Round) -> None:
    """Check that every card of the round's deck is in exactly one place.

    :raises RecordError: naming the card and its places.
    """
    problem = misplaced(rnd.variant.deck, card_places(rnd))
    if problem is not None:
        raise RecordError(f"round {rnd.number}: {problem}")


# -- saving --------------------------------------------------------------------------------


def _rng_json(rng: random.Random) -> dict[str, Any]:
    version, state, gauss = rng.getstate()
    return {"version": version, "state": list(state), "gauss": gauss}


def _rng_from_json(value: Any, where: str) -> random.Random:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected a generator's state, got {value!r:.60}")
    state = value.get("state")
    if not (isinstance(state, list) and len(state) == 625
            and all(type(v) is int and 0 <= v < 2 ** 32 for v in state) and state[-1] <= 624):
        raise RecordError(f"{where}.state: expected 625 whole numbers (a Mersenne Twister state), "
                          f"got {state!r:.60}")
    gauss = value.get("gauss")
    if gauss is not None and type(gauss) is not float:
        raise RecordError(f"{where}.gauss: expected a number or null, got {gauss!r:.60}")
    rng = random.Random()
    try:
        rng.setstate((value.get("version"), tuple(state), gauss))
    except (TypeError, ValueError) as problem:
        raise RecordError(f"{where}: not a generator's state: {problem}") from None
    return rng


def _seats(values: Sequence[Any]) -> dict[str, Any]:
    return {player_name(p): v for p, v in enumerate(values)}


def save_game(game: Game, agents: Sequence[Agent] | None = None) -> dict[str, Any]:
    """The whole game as plain JSON (see the module docstring); with ``agents``, theirs too."""
    from . import __version__
    from .record import variant_digests

    rnd = game.round
    hands, stock, upcard = rnd.dealt
    data: dict[str, Any] = {
        "type": "save",
        "save": SAVE_VERSION,
        "rummydsl": __version__,
        "variant": game.variant.id,
        "variant_sha256": variant_digests(game.variant)["variant_sha256"],
        "players": game.players,
        "dealer": player_name(game.dealer),
        "rng": _rng_json(game.rng),
        "sheets": [{"points": list(s.points), "wins": list(s.wins), "entries": list(s.entries),
                    "closed": s.closed, "winner": None if s.winner is None else player_name(s.winner),
                    "figures": list(s.figures)} for s in game.sheets],
        "results": [r.as_json() for r in game.results],
        "games_won": list(game.games_won),
        "finished_games": [{"winner": player_name(w), "figures": list(f), "points": list(p)}
                           for w, f, p in game.finished_games],
        "result": None if game.result is None else {
            "winner": player_name(game.result.winner), "figures": list(game.result.figures),
            "points": list(game.result.points), "rounds": game.result.rounds,
            "games_won": list(game.result.games_won), "shutout": game.result.shutout},
        "round": {
            "deal": {"round": rnd.number, "dealer": player_name(rnd.dealer), "scores": list(rnd.scores),
                     "hands": _seats([[card_text(c) for c in hand] for hand in hands]),
                     "stock": [card_text(c) for c in stock],
                     "upcard": None if upcard is None else card_text(upcard),
                     **({} if rnd.sat_out is None else {"sat_out": player_name(rnd.sat_out)})},
            "actions": [str(a) for a in rnd.actions],
            "action_cards": _copies_played(rnd),
            "position": rnd.to_json(card_text),
        },
    }
    if agents is not None:
        data["agents"] = save_agents(agents)
    return data


def _copies_played(rnd: Round) -> dict[str, list[str]]:
    """For each action (by its index) whose text reads as other copies than the ones played
    (a deck with copies of a face), the cards it played, copies marked."""
    out: dict[str, list[str]] = {}
    if rnd.variant.deck.packs == 1 and rnd.variant.deck.wilds <= 1:
        return out
    for index, action in enumerate(rnd.actions):
        played = _action_cards(action)
        if played and _action_cards(rnd.parse(str(action))) != played:
            out[str(index)] = [card_text(c) for c in played]
    return out


def save_agents(agents: Sequence[Agent]) -> list[dict[str, Any]]:
    """Each seat's agent as JSON: its name and, for a ``random`` agent, its generator's state.

    A ``cmd:`` program's state is its own (the save says ``"state": "program"``): a
    resumed game starts the program afresh.

    :raises RecordError: for an agent that is not ``random``, ``greedy`` or a program.
    """
    from .agents import GreedyAgent, RandomAgent
    from .protocol import ProgramAgent

    out: list[dict[str, Any]] = []
    for seat, agent in enumerate(agents):
        if type(agent) is RandomAgent:  # exactly: a subclass may hold state of its own
            out.append({"agent": "random", "rng": _rng_json(agent.rng)})
        elif type(agent) is GreedyAgent:
            out.append({"agent": "greedy"})
        elif type(agent) is ProgramAgent:
            out.append({"agent": f"cmd:{agent.command}", "state": "program"})
        else:
            raise RecordError(f"{player_name(seat)}'s agent, a {type(agent).__name__}, cannot be saved "
                              "(random, greedy and cmd: agents can); save the game without agents")
    return out


def load_agents(data: Mapping[str, Any]) -> list[Agent]:
    """The agents of a save, each generator where it was (a ``cmd:`` program is started afresh).

    :raises RecordError: for a save without agents, or an agent that cannot be read.
    """
    from .agents import GreedyAgent, RandomAgent
    from .protocol import ProgramAgent

    items = data.get("agents")
    if not isinstance(items, list) or not items:
        raise RecordError(f"agents: the save holds no agents (saved without them?), got {items!r:.60}")
    players = data.get("players")
    if isinstance(players, int) and len(items) != players:
        raise RecordError(f"agents: expected one agent for each of {players} players, got {len(items)}")
    agents: list[Agent] = []
    for seat, item in enumerate(items):
        where = f"agents[{seat}]"
        name = item.get("agent") if isinstance(item, dict) else None
        if name == "random":
            agents.append(RandomAgent(_rng_from_json(item.get("rng"), where + ".rng")))
        elif name == "greedy":
            agents.append(GreedyAgent())
        elif isinstance(name, str) and name.startswith("cmd:") and len(name) > 4:
            agents.append(ProgramAgent(name[4:], seat))
        else:
            raise RecordError(f"{where}: expected an agent random, greedy or cmd:PROGRAM, got {item!r:.60}")
    return agents


# -- loading -------------------------------------------------------------------------------


class Fields:
    """Typed reading of a JSON object's fields (a save's, a run file's line): each problem a
    :class:`~rummydsl.errors.RecordError` naming the key (after ``where``) and quoting the value.

    >>> Fields(2).numbers({"points": [3, "x"]}, "points", "sheets[0].")
    Traceback (most recent call last):
    ...
    rummydsl.errors.RecordError: sheets[0].points: expected 2 whole numbers, got [3, 'x']
    """

    def __init__(self, players: int) -> None:
        self.players = players

    def get(self, data: Any, key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
        """``data[key]``, which must be of ``kind`` (``True`` is not a number here)."""
        value = data.get(key) if isinstance(data, Mapping) else None
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = {int: "a whole number", str: "text", list: "a list", dict: "an object",
                     bool: "true or false", type(None): "null"}
            raise RecordError(f"{where}{key}: expected {' or '.join(names.get(k, k.__name__) for k in kinds)}, "
                              f"got {value!r:.60}")
        return value

    def seat(self, value: Any, where: str, *, empty: bool = False) -> int | None:
        """The seat a player name (``P1``...) gives; with ``empty``, ``None`` for null."""
        n = self.players
        if value is None and empty:
            return None
        if isinstance(value, str) and value[:1] == "P" and value[1:].isdigit() and 1 <= int(value[1:]) <= n:
            return int(value[1:]) - 1
        raise RecordError(f"{where}: expected a player P1 to P{n}, got {value!r:.60}")

    def player(self, value: Any, where: str) -> int:
        """The seat a player name (``P1``...) gives."""
        seat = self.seat(value, where)
        assert seat is not None
        return seat

    def numbers(self, data: Any, key: str, where: str, kind: type = int) -> list[Any]:
        """``data[key]``: one whole number (or, with ``kind=bool``, true or false) a seat."""
        value = self.get(data, key, list, where)
        if len(value) != self.players or not all(type(v) is kind for v in value):
            what = "whole numbers" if kind is int else "true or false"
            raise RecordError(f"{where}{key}: expected {self.players} {what}, got {value!r:.60}")
        return list(value)

    def by_seat(self, data: Any, key: str, where: str) -> list[Any]:
        """``data[key]``, an object with one entry a seat (``{"P1": ..., "P2": ...}``), as a list."""
        value = self.get(data, key, dict, where)
        out: list[Any] = [None] * self.players
        for name, item in value.items():
            out[self.player(name, f"{where}{key}")] = item
        if len(value) != self.players:
            raise RecordError(f"{where}{key}: expected one entry for each of {self.players} players, "
                              f"got {value!r:.80}")
        return out


class _Loader(Fields):
    """Reads the fields and cards of a save of ``variant``."""

    def __init__(self, variant: Variant, players: int) -> None:
        super().__init__(players)
        self.variant = variant
        self.cards = _Cards(variant.deck)


def load_game(variant: Variant, data: Any) -> Game:
    """The game a save holds, checked whole before it is built (see the module docstring).

    :raises RecordError: for a save of another version or other rules, a card twice or
        missing, an action that is not legal where it stands, a position that differs
        from the one the actions give, or any field of the wrong shape, naming the key.
    """
    if not isinstance(data, dict) or data.get("type") != "save":
        raise RecordError(f"a save is a JSON object with \"type\": \"save\", got {str(data)[:60]!r}")
    if data.get("save") != SAVE_VERSION:
        raise RecordError(f"save: format {data.get('save')!r} is not {SAVE_VERSION} (made by another rummydsl?)")
    from .record import variant_digests

    if data.get("variant") != variant.id:
        raise RecordError(f"variant: the save is of {data.get('variant')!r}, not {variant.id!r}")
    digest = variant_digests(variant)["variant_sha256"]
    if data.get("variant_sha256") != digest:
        raise RecordError(f"variant_sha256: the save was made with other rules of {variant.id!r} "
                          f"({str(data.get('variant_sha256'))[:12]!r}..., these are {str(digest)[:12]!r}...); "
                          "it would not play on as it was")
    players = data.get("players")
    if type(players) is not int or players < 1:
        raise RecordError(f"players: expected the number of players, got {players!r:.60}")
    load = _Loader(variant, players)
    rnd = _load_round(load, data.get("round"))
    return _load_game(load, data, rnd)


def _load_round(load: _Loader, data: Any) -> Round:
    from .engine import Round

    if not isinstance(data, dict):
        raise RecordError(f"round: expected an object, got {data!r:.60}")
    deal = load.get(data, "deal", dict, "round.")
    where = "round.deal."
    hands = [load.cards.cards(hand, f"{where}hands.{player_name(p)}")
             for p, hand in enumerate(load.by_seat(deal, "hands", where))]
    stock = load.cards.cards(deal.get("stock"), where + "stock")
    upcard = None if deal.get("upcard") is None else load.cards.card(deal.get("upcard"), where + "upcard")
    places: list[tuple[str, Sequence[Card]]] = [(f"{player_name(p)}'s hand", h) for p, h in enumerate(hands)]
    places += [("the stock", stock), ("the upcard", [upcard] if upcard is not None else [])]
    problem = misplaced(load.variant.deck, places)
    if problem is not None:
        raise RecordError(f"round.deal: {problem}")
    number = load.get(deal, "round", int, where)
    if number < 1:
        raise RecordError(f"{where}round: expected a round number from 1, got {number!r}")
    dealer = load.player(deal.get("dealer"), where + "dealer")
    scores = load.numbers(deal, "scores", where)
    sat_out = load.seat(deal.get("sat_out"), where + "sat_out", empty=True)  # G3-1
    try:
        rnd = Round.from_setup(load.variant, dealer=dealer, hands=hands, stock=stock, upcard=upcard,
                               scores=scores, number=number, sat_out=sat_out)
    except RummyDslError as problem_:
        raise RecordError(f"round.deal: {problem_}") from None
    actions = load.get(data, "actions", list, "round.")
    copies = data.get("action_cards", {})
    if not isinstance(copies, dict):
        raise RecordError(f"round.action_cards: expected an object, got {copies!r:.60}")
    for index, text in enumerate(actions):
        try:
            action = rnd.parse(text)
            marked = copies.get(str(index))
            if marked is not None:
                cards = load.cards.cards(marked, f"round.action_cards.{index}")
                if len(cards) != len(_action_cards(action)):
                    raise RecordError(f"round.action_cards.{index}: {len(cards)} cards for {text!r}, "
                                      f"which names {len(_action_cards(action))}")
                action = _with_cards(action, iter(cards))
            rnd.apply(action)
        except RecordError:
            raise
        except RummyDslError as refused:
            reason = getattr(refused, "reason", None) or str(refused)
            raise RecordError(f"round.actions[{index}] {text!r:.60}: {reason}") from None
    position = load.get(data, "position", dict, "round.")
    _check_position(load, position)
    played = rnd.to_json(card_text)
    for key, value in played.items():
        if position.get(key) != value:
            raise RecordError(f"round.position.{key}: the save says {position.get(key)!r:.80}, but its deal and "
                              f"actions give {value!r:.80}")
    return rnd


def _check_position(load: _Loader, position: dict[str, Any]) -> None:
    """Every card of the saved position exactly once (before comparing it with the replay)."""
    where = "round.position."
    places: list[tuple[str, Sequence[Card]]] = []
    for p, hand in enumerate(load.by_seat(position, "hands", where)):
        places.append((f"{player_name(p)}'s hand", load.cards.cards(hand, f"{where}hands.{player_name(p)}")))
    places.append(("the stock", load.cards.cards(position.get("stock"), where + "stock")))
    places.append(("the discard pile", load.cards.cards(position.get("discards"), where + "discards")))
    for p, melds in enumerate(load.by_seat(position, "table", where)):
        name = player_name(p)
        if not isinstance(melds, list) or not all(isinstance(m, dict) for m in melds):
            raise RecordError(f"{where}table.{name}: expected a list of melds, got {melds!r:.60}")
        cards = [c for i, meld in enumerate(melds)
                 for c in load.cards.cards(meld.get("cards"), f"{where}table.{name}[{i}]")]
        places.append((f"{name}'s melds", cards))
    problem = misplaced(load.variant.deck, places)
    if problem is not None:
        raise RecordError(f"round.position: {problem}")


def _load_game(load: _Loader, data: dict[str, Any], rnd: Round) -> Game:
    from .endings import Ending
    from .engine import Game, GameResult, RoundResult, Sheet

    n = load.players
    rng = _rng_from_json(data.get("rng"), "rng")
    sheets = []
    for i, item in enumerate(load.get(data, "sheets", list, "")):
        where = f"sheets[{i}]."
        if not isinstance(item, dict):
            raise RecordError(f"sheets[{i}]: expected an object, got {item!r:.60}")
        closed = load.get(item, "closed", bool, where)
        figures = load.get(item, "figures", list, where)
        if figures:
            figures = load.numbers(item, "figures", where)
        sheets.append(Sheet(load.numbers(item, "points", where), load.numbers(item, "wins", where),
                            load.numbers(item, "entries", where, bool), closed,
                            load.seat(item.get("winner"), where + "winner", empty=True), tuple(figures)))
    want = load.variant.game.shared_sheet or 1
    if len(sheets) != want:
        raise RecordError(f"sheets: expected {want} score sheet{'s' if want != 1 else ''}, got {len(sheets)}")
    results = []
    for i, item in enumerate(load.get(data, "results", list, "")):
        where = f"results[{i}]."
        if not isinstance(item, dict):
            raise RecordError(f"results[{i}]: expected an object, got {item!r:.60}")
        ending = load.get(item, "ending", str, where)
        if ending not in {e.value for e in Ending}:
            raise RecordError(f"{where}ending: expected one of {', '.join(e.value for e in Ending)}, "
                              f"got {ending!r}")
        deadwoods = load.by_seat(item, "deadwoods", where)
        points = load.by_seat(item, "points", where)
        # a deadwood is null for a hand past the meld solver (deep draws, R5-3)
        if not (all(type(v) is int or v is None for v in deadwoods) and all(type(v) is int for v in points)):
            raise RecordError(f"{where}: deadwoods and points are whole numbers (a deadwood may be null), "
                              f"got {item!r:.80}")
        results.append(RoundResult(Ending(ending), load.seat(item.get("ender"), where + "ender", empty=True),
                                   tuple(deadwoods), tuple(points), load.get(item, "undercut", bool, where),
                                   load.get(item, "turns", int, where), load.variant.game.winner == "lowest"))
    finished = []
    for i, item in enumerate(load.get(data, "finished_games", list, "")):
        where = f"finished_games[{i}]."
        finished.append((load.player(item.get("winner") if isinstance(item, dict) else None, where + "winner"),
                         tuple(load.numbers(item, "figures", where)), tuple(load.numbers(item, "points", where))))
    result = None
    raw = data.get("result")
    if raw is not None:
        if not isinstance(raw, dict):
            raise RecordError(f"result: expected an object or null, got {raw!r:.60}")
        result = GameResult(load.player(raw.get("winner"), "result.winner"),
                            tuple(load.numbers(raw, "figures", "result.")),
                            tuple(load.numbers(raw, "points", "result.")), load.get(raw, "rounds", int, "result."),
                            tuple(load.numbers(raw, "games_won", "result.")),
                            load.get(raw, "shutout", bool, "result."),
                            load.variant.game.winner == "lowest")
    dealer = load.player(data.get("dealer"), "dealer")
    if dealer != rnd.dealer:
        raise RecordError(f"dealer: the save says {player_name(dealer)}, but the round was dealt by "
                          f"{player_name(rnd.dealer)}")
    game = Game(load.variant, random.Random(0), players=n, dealer=dealer)
    game.rng = rng
    game.round = rnd
    game.dealer = rnd.dealer
    game.sat_out = rnd.sat_out
    game.sheets = sheets
    game.results = results
    game._game_start = len(results) - (rnd.number - 1)  # the round is deal rnd.number of its game (CR-2)
    game.games_won = load.numbers(data, "games_won", "")
    game.finished_games = finished
    game.result = result
    if result is None and tuple(rnd.scores) != game.scores:
        raise RecordError(f"round.deal.scores: the round was dealt at {list(rnd.scores)}, but the score sheet "
                          f"says {list(game.scores)}")
    return game


# -- files ---------------------------------------------------------------------------------


def write_save(path: str, game: Game, agents: Sequence[Agent] | None = None) -> None:
    """Write a save to ``path`` whole or not at all (a new file, synced, then renamed over).

    :raises RecordError: if the file cannot be written.
    """
    text = json.dumps(save_game(game, agents), indent=1) + "\n"
    temporary = f"{path}.tmp{os.getpid()}"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as problem:
        Path(temporary).unlink(missing_ok=True)
        raise RecordError(f"cannot write the save: {problem.strerror or problem}", Location(path)) from None


def read_save(variant: Variant, path: str) -> tuple[Game, list[Agent] | None]:
    """The game of a save file, and its agents if the save holds them.

    :raises RecordError: for a file that cannot be read, is larger than
        :data:`~rummydsl.limits.MAX_RECORD_BYTES`, is not JSON (a save cut short says so)
        or past the JSON limits (:mod:`rummydsl.jsonbound`), or does not load
        (:func:`load_game`), naming the file.
    """
    from .untrusted import open_regular

    most = limits.MAX_RECORD_BYTES
    try:
        with open_regular(path) as handle:  # never a FIFO, device, folder or /proc entry
            raw = handle.read(most + 1)  # never past the record limit, whatever the file is
        text = raw.decode("utf-8")
    except (OSError, ValueError) as problem:  # UnicodeDecodeError is a ValueError
        reason = "not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else \
            getattr(problem, "strerror", None) or problem
        raise RecordError(f"cannot read the save: {reason}", Location(path)) from None
    if len(raw) > most:
        raise RecordError(f"the save is too large: more than {most:,} bytes (the record limit)", Location(path))
    try:
        data = jsonbound.loads(text)
    except jsonbound.JSONLimitError as problem:
        raise RecordError(f"not a save: {problem.msg}", Location(path, problem.lineno, problem.colno)) from None
    except json.JSONDecodeError as problem:
        cut = " (the file is cut short)" if not text[problem.pos:].strip() else ""
        raise RecordError(f"not a JSON save: {problem.msg}{cut}", Location(path, problem.lineno)) from None
    try:
        game = load_game(variant, data)
        agents = load_agents(data) if "agents" in data else None
    except RecordError as problem:
        raise RecordError(problem.message, Location(path)) from None
    return game, agents
