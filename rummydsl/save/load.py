"""Loading a save: everything checked before anything is built, the round replayed from
its deal (the actions are the authority), the game and its agents rebuilt.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .. import jsonbound, limits
from ..engine.actions import action_cards as _action_cards
from ..engine.actions import card_text, player_name
from ..engine.actions import with_cards as _with_cards
from ..errors import Location, RecordError, RummyDslError
from .parts import PERSON, SAVE_VERSION, Fields, _Cards, _rng_from_json, misplaced

if TYPE_CHECKING:
    from ..agents import Agent
    from ..cards import Card
    from ..engine import Game, Round
    from ..variant.model import Variant


def load_agents(data: Mapping[str, Any], *, programs: bool = False,
                person: Callable[[int], Agent] | None = None) -> list[Agent]:
    """The agents of a save, each made again from its ``--agents`` name (any name
    :func:`~rummydsl.agents.make_agents` takes), each generator where it was. Every agent
    is checked before any is made.

    A ``cmd:`` or ``llm:`` program agent is started afresh, and only when ``programs`` is
    true: a save is a file anyone may have written, and no code runs from a file
    (docs/security.md), so by default a save naming a program is refused.

    A seat saved as a person's (``{"agent": "person"}``, ``rummydsl play``'s ``save``) gets
    ``person(seat)``, and without ``person`` is refused: no agent can stand in for a person.

    :raises RecordError: for a save without agents, an agent name that is not one, a
        program agent without ``programs=True``, or a generator missing, not wanted or of
        the wrong shape, naming the seat's key.
    """
    from ..agents import make_agents, parse_agent
    from ..agents.spec import PROGRAM_PREFIXES
    from ..errors import AgentError

    items = data.get("agents")
    if not isinstance(items, list) or not items:
        raise RecordError(f"agents: the save holds no agents (saved without them?), got {items!r:.60}")
    players = data.get("players")
    if isinstance(players, int) and len(items) != players:
        raise RecordError(f"agents: expected one agent for each of {players} players, got {len(items)}")
    plan: list[tuple[str, random.Random | None]] = []
    for seat, item in enumerate(items):
        where = f"agents[{seat}]"
        name = item.get("agent") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"{where}: expected an object with the agent's name, such as "
                              f"{{\"agent\": \"greedy\"}}, got {item!r:.60}")
        assert isinstance(item, dict)
        if name == PERSON:
            if person is None:
                raise RecordError(f"{where}.agent: the seat is a person's (the game was saved from rummydsl play), "
                                  "and no agent can play it: go on with 'rummydsl play VARIANT --resume FILE'")
            if item.get("rng") is not None:
                raise RecordError(f"{where}.rng: a person's seat holds no generator")
            plan.append((name, None))
            continue
        program = name.startswith(PROGRAM_PREFIXES)
        if program and len(name) <= 4:
            raise RecordError(f"{where}.agent: {name!r} names no program (cmd:PROGRAM, llm:PROGRAM)")
        if program and not programs:
            raise RecordError(f"{where}.agent: the save names the program agent {name!r:.80}, and a save "
                              "starts no program unless its loader allows it (load_agents(data, "
                              "programs=True), for a save you made yourself)")
        if not program:
            try:
                parse_agent(name, seat)
            except AgentError as problem:
                raise RecordError(f"{where}.agent: {problem.reason}") from None
        rng = _rng_from_json(item["rng"], where + ".rng") if item.get("rng") is not None else None
        plan.append((name, rng))
    agents: list[Agent] = []
    for seat, (name, rng) in enumerate(plan):
        where = f"agents[{seat}]"
        agent: Agent
        if name == PERSON:
            assert person is not None
            agents.append(person(seat))
            continue
        if name.startswith("cmd:"):
            from ..protocol import ProgramAgent

            agent = ProgramAgent(name[4:], seat)
        elif name.startswith("llm:"):
            agent = _llm_agent(name[4:], seat, where + ".agent")
        else:
            (agent,) = make_agents(name, 1, random.Random(0))
        draws = isinstance(getattr(agent, "rng", None), random.Random)
        if draws and rng is None:
            raise RecordError(f"{where}.rng: missing: the agent {name!r} draws random numbers, and the save must "
                              "hold its generator to play on as it would have")
        if rng is not None and not draws:
            raise RecordError(f"{where}.rng: the agent {name!r} draws no random numbers, so a save of it holds "
                              "no generator")
        if rng is not None:
            setattr(agent, "rng", rng)
        agents.append(agent)
    return agents


def _llm_agent(command: str, seat: int, where: str) -> Agent:
    """An ``llm:`` seat started afresh from its command; its settings (the transcript, the time
    limit, the retries) come from the environment of the resumed game, as for a new one.

    :raises RecordError: for a command that cannot be read, or a setting of the wrong kind.
    """
    from ..errors import AgentError
    from ..llm import LLMAgent

    try:
        return LLMAgent(command, seat)
    except AgentError as problem:
        raise RecordError(f"{where}: {problem.reason}") from None


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
    from ..record import variant_digests

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
    from ..engine import Round

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
    from ..endings import Ending
    from ..engine import Game, GameResult, PastRound, RoundResult, Sheet

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
    # the rounds before it by their results (a save keeps no earlier round's moves), so that
    # an observation's past_results() and a prompt's summary of them go on as before
    game.past = tuple(PastRound(k + 1, (), False, r) for k, r in enumerate(results[game._game_start:]))
    rnd.earlier = game.past
    game.games_won = load.numbers(data, "games_won", "")
    game.finished_games = finished
    game.result = result
    if result is None and tuple(rnd.scores) != game.scores:
        raise RecordError(f"round.deal.scores: the round was dealt at {list(rnd.scores)}, but the score sheet "
                          f"says {list(game.scores)}")
    return game


def read_save(variant: Variant, path: str, *, programs: bool = False,
              person: Callable[[int], Agent] | None = None) -> tuple[Game, list[Agent] | None]:
    """The game of a save file, and its agents if the save holds them (a program agent
    only with ``programs=True``, a person's seat only with ``person``, as :func:`load_agents`
    says).

    :raises RecordError: for a file that cannot be read, is larger than
        :data:`~rummydsl.limits.MAX_RECORD_BYTES`, is not JSON (a save cut short says so)
        or past the JSON limits (:mod:`rummydsl.jsonbound`), or does not load
        (:func:`load_game`), naming the file.
    """
    from ..untrusted import open_regular

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
        agents = load_agents(data, programs=programs, person=person) if "agents" in data else None
    except RecordError as problem:
        raise RecordError(problem.message, Location(path)) from None
    return game, agents
