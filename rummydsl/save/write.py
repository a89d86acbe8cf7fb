"""Writing a save: the whole game in progress (and its agents) as JSON, and to a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..engine.actions import action_cards as _action_cards
from ..engine.actions import card_text, player_name
from ..errors import Location, RecordError
from .parts import SAVE_VERSION, _rng_json, _seats

if TYPE_CHECKING:
    from ..agents import Agent
    from ..engine import Game, Round


def save_game(game: Game, agents: Sequence[Agent] | None = None) -> dict[str, Any]:
    """The whole game as plain JSON (see the module docstring); with ``agents``, theirs too."""
    from .. import __version__
    from ..record import variant_digests

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
    resumed game starts the program afresh. So is an ``llm:`` seat's
    (:meth:`LLMAgent.save_entry <rummydsl.llm.LLMAgent.save_entry>`: its command; its
    settings come from the environment of the resumed game).

    :raises RecordError: for an agent that is not ``random``, ``greedy``, a program or an ``llm:`` seat.
    """
    from ..agents import GreedyAgent, RandomAgent
    from ..llm import LLMAgent
    from ..protocol import ProgramAgent

    out: list[dict[str, Any]] = []
    for seat, agent in enumerate(agents):
        if type(agent) is RandomAgent:  # exactly: a subclass may hold state of its own
            out.append({"agent": "random", "rng": _rng_json(agent.rng)})
        elif type(agent) is GreedyAgent:
            out.append({"agent": "greedy"})
        elif type(agent) is ProgramAgent:
            out.append({"agent": f"cmd:{agent.command}", "state": "program"})
        elif type(agent) is LLMAgent:
            out.append(agent.save_entry())
        else:
            raise RecordError(f"{player_name(seat)}'s agent, a {type(agent).__name__}, cannot be saved "
                              "(random, greedy, cmd: and llm: agents can); save the game without agents")
    return out


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
