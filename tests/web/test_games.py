"""The playground's games (rummydsl/web/games.py) beyond what the API tests reach."""

from __future__ import annotations

import random

from rummydsl.engine.match import TERMINAL
from rummydsl.variant import load_variant
from rummydsl.web.games import Table


def test_a_game_that_cannot_go_on_stops_over_with_its_reason_and_undoes() -> None:
    table = Table.new(load_variant("gin_rummy"), seed=3, agents="greedy", seat=0)
    table.match.game.max_rounds = 1  # the Game's bound (MAX_ROUNDS), lowered to reach it at once
    rng = random.Random(3)
    for _ in range(2000):
        view = table.view()
        if view["over"]:
            break
        table.act(rng.choice(view["legal"]))
    assert table.match.to_move == TERMINAL
    view = table.view()
    assert view["over"] and view["legal"] == [] and "ran past 1 rounds" in view["stalled"]
    assert any(line.startswith("the game stopped: ") for line in view["log"])
    assert len(view["rounds"]) == 1  # the round it scored before it stopped is summed up
    back = table.undo()
    assert not back["over"] and "stalled" not in back
