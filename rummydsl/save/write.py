"""Writing a save: the whole game in progress (and its agents) as JSON, and to a file.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..engine.actions import action_cards as _action_cards
from ..engine.actions import card_text, player_name
from ..errors import Location, RecordError
from .parts import PERSON, SAVE_VERSION, _rng_json, _seats

if TYPE_CHECKING:
    from ..agents import Agent
    from ..engine import Game, Round
    from ..engine.match import Match

def save_game(game: Game | Match, agents: Sequence[Agent | None] | None = None) -> dict[str, Any]:
    """The whole game as plain JSON (see the module docstring); with ``agents``, theirs too
    (a seat whose agent is ``None`` is a person's: :data:`PERSON`).

    ``game``: a :class:`~rummydsl.engine.Game`, or a seeded
    :class:`~rummydsl.engine.match.Match` (saved as the game it stands at: its undo
    history is not kept).

    :raises RecordError: for a match whose chance is explicit (its deal and stock come
        from outside, not from a generator a save could hold: save it with
        :meth:`Match.to_json <rummydsl.engine.match.Match.to_json>`), and as
        :func:`save_agents` says.
    """
    from .. import __version__
    from ..engine import Game
    from ..record import variant_digests

    if not isinstance(game, Game):
        if game.chance != "seeded":
            raise RecordError("a match whose chance is explicit cannot be saved as a game (its cards come "
                              "from outside, not from a generator): save it with Match.to_json()")
        standing = game.game.copy()
        standing.round = game.round
        game = standing
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


def save_agents(agents: Sequence[Agent | None]) -> list[dict[str, Any]]:
    """Each seat's agent as JSON: the ``--agents`` name it was made from (its settings in it,
    ``ismcts:iters=400:rollout=greedy``) and, for an agent that draws random numbers
    (``random``, ``ismcts``, ``pimc``), its generator's state, so the loaded agent plays on as
    this one would.

    An agent made by :func:`~rummydsl.agents.make_agents` is saved by its name; a
    :class:`~rummydsl.agents.RandomAgent`, :class:`~rummydsl.agents.GreedyAgent` or
    :class:`~rummydsl.protocol.ProgramAgent` or :class:`~rummydsl.llm.LLMAgent` made directly is
    saved too. A ``cmd:`` or
    ``llm:`` program's state is its own (the save says ``"state": "program"``): a resumed
    game starts the program afresh. A seat whose agent is ``None`` is a person's, written
    ``{"agent": "person"}`` (:data:`PERSON`).

    :raises RecordError: for an agent made otherwise (its name, and so how to make it again,
        is not known).
    """
    from ..agents import GreedyAgent, RandomAgent, agent_spec
    from ..llm import LLMAgent
    from ..protocol import ProgramAgent

    out: list[dict[str, Any]] = []
    for seat, agent in enumerate(agents):
        if agent is None:
            out.append({"agent": PERSON})
            continue
        name = agent_spec(agent)
        if name is None:  # made directly: exactly these types (a subclass may hold state of its own)
            name = {RandomAgent: "random", GreedyAgent: "greedy"}.get(type(agent))
            if type(agent) is ProgramAgent:
                name = f"cmd:{agent.command}"
            elif type(agent) is LLMAgent:
                name = f"llm:{agent.command}"
        if name is None:
            raise RecordError(f"{player_name(seat)}'s agent, a {type(agent).__name__}, cannot be saved: it was "
                              "not made from an --agents name (rummydsl.agents.make_agents), so a save could not "
                              "make it again; save the game without agents")
        item: dict[str, Any] = {"agent": name}
        rng = getattr(agent, "rng", None)
        if isinstance(rng, random.Random):
            item["rng"] = _rng_json(rng)
        if name.startswith(("cmd:", "llm:")):
            item["state"] = "program"
        out.append(item)
    return out


def write_save(path: str, game: Game | Match, agents: Sequence[Agent | None] | None = None) -> None:
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
