"""``llm:PROGRAM``: a seat played through a program that reads a prompt and answers text,
here the scripted stand-in model tests/llm/fake_model.py (no network, no model). A bad
answer is asked again with the reason, then the greedy fallback plays; a broken program is
an AgentError naming the seat; and the agent works wherever agents are named."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import pytest

from rummydsl import Match
from rummydsl.agents import GreedyAgent, make_agents
from rummydsl.errors import AgentError
from rummydsl.llm import LLMAgent, generate_prompt, get_legal_moves

from .conftest import run

FAKE = Path(__file__).with_name("fake_model.py")


def model(mode: str = "json") -> str:
    """The ``llm:`` command of the stand-in model answering in ``mode``."""
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))} {mode}"


def _play(agent: LLMAgent, vid: str = "gin_rummy", decisions: int = 6, seed: int = 3) -> list[str]:
    """The moves ``agent`` plays at seat 0 in its first ``decisions`` decisions (greedy at the others)."""
    m = Match.new(vid, seed=seed, history=False)
    greedy = GreedyAgent()
    played = []
    while len(played) < decisions and not m.over:
        view = m.view(m.to_move)
        if m.to_move == 0:
            action = agent.act(view)
            assert action in view.legal_actions()
            played.append(str(action))
        else:
            action = greedy.act(view)
        m.apply(action)
    return played


def test_a_model_that_answers_well_plays_its_moves() -> None:
    agent = LLMAgent(model("json"), 0, retries=2)
    played = _play(agent)
    assert len(played) == 6 and agent.prompts == 6 and agent.fallbacks == 0


@pytest.mark.parametrize("mode", ["bad-first", "illegal-first"])
def test_a_bad_answer_is_asked_again_with_the_reason(mode: str, tmp_path: Path) -> None:
    transcript = tmp_path / "llm.txt"
    agent = LLMAgent(model(mode), 0, retries=1, transcript=str(transcript))
    played = _play(agent, decisions=3)
    assert len(played) == 3 and agent.prompts == 6 and agent.fallbacks == 0
    text = transcript.read_text(encoding="utf-8")
    reason = "no move found in the answer" if mode == "bad-first" else "expected a player P1 to P2, got 'P9'"
    assert text.count(f">>>>> P1 refused: ") == 3 and reason in text
    assert "\nYour last answer was refused: " in "\n" + text.split(">>>>> P1 prompt\n")[2]


def test_after_every_try_the_greedy_fallback_plays() -> None:
    agent = LLMAgent(model("never"), 0, retries=1)
    m = Match.new("gin_rummy", seed=3)
    view = m.view(m.to_move)
    assert agent.act(view) == GreedyAgent().act(view)
    assert agent.prompts == 2 and agent.fallbacks == 1


def test_a_model_answering_in_prose_plays_contract_rummy() -> None:
    agent = LLMAgent(model("prose"), 0, retries=0)
    assert len(_play(agent, "contract_rummy", decisions=5)) == 5 and agent.fallbacks == 0


@pytest.mark.parametrize("command,reason", [
    (model("fail"), "failed (exit code 3)"),
    ("/no/such/model-runner", "cannot start '/no/such/model-runner'"),
    ("sleep 30", "no answer within 0.5 seconds"),
    (f"{shlex.quote(sys.executable)} -c \"print('x' * 2_000_000)\"", "answered more than 1048576 bytes"),
])
def test_a_broken_program_is_an_agent_error_naming_the_seat(command: str, reason: str) -> None:
    agent = LLMAgent(command, 1, timeout=0.5 if command.startswith("sleep") else 60)
    m = Match.new("gin_rummy", seed=3)
    m.apply(m.legal_actions()[0])
    with pytest.raises(AgentError, match=r"^P2: ") as caught:
        agent.act(m.view(1))
    assert reason in str(caught.value)


@pytest.mark.parametrize("name,value,reason", [
    ("RUMMYDSL_LLM_RETRIES", "-1", "RUMMYDSL_LLM_RETRIES must be a whole number, 0 or more, got '-1'"),
    ("RUMMYDSL_LLM_RETRIES", "two", "must be a whole number"),
    ("RUMMYDSL_LLM_TIMEOUT", "0", "RUMMYDSL_LLM_TIMEOUT must be a positive number of seconds, got '0'"),
])
def test_bad_settings_are_refused(name: str, value: str, reason: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(AgentError, match=reason):
        make_agents("greedy,llm:" + model(), 2, random.Random(1))


def test_llm_agents_are_named_in_agent_lists() -> None:
    agents = make_agents(f"llm:{model()},greedy", 3, random.Random(1))
    assert [type(a).__name__ for a in agents] == ["LLMAgent", "GreedyAgent", "GreedyAgent"]
    with pytest.raises(AgentError, match="needs a program"):
        LLMAgent("  ", 0)


def test_simulate_plays_an_llm_seat() -> None:
    code, out, err = run("simulate", "gin_rummy", "--hands", "1", "--seed", "2", "--json",
                         "--agents", f"llm:{model()},greedy")
    assert (code, err) == (0, ""), err
    figures = json.loads(out)
    assert figures["hands"] == 1


def test_tournament_plays_an_llm_seat(tmp_path: Path) -> None:
    short = tmp_path / "short_gin.yaml"  # a game of one round or so: a tournament plays whole games
    short.write_text("rummydsl: 1\nid: short_gin\nname: Short Gin\nextends: gin_rummy\ngame: {target: 1}\n", encoding="utf-8")
    code, out, err = run("tournament", str(short), "--games", "1", "--seed", "2", "--json",
                         "--agents", f"llm:{model()},greedy")
    assert (code, err) == (0, ""), err
    assert [a["name"] for a in json.loads(out)["agents"]] == [f"llm:{model()}", "greedy"]


def test_play_lets_a_person_face_an_llm_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    transcript = tmp_path / "llm.txt"
    monkeypatch.setenv("RUMMYDSL_LLM_TRANSCRIPT", str(transcript))
    code, out, err = run("play", "gin_rummy", "--seed", "2", "--agents", f"llm:{model()}",
                         stdin="1\n1\n1\n1\nquit\n")  # the person plays its first listed move a few times
    assert "Traceback" not in err and code in (0, 1), err
    played = [line for line in transcript.read_text(encoding="utf-8").splitlines() if line.startswith(">>>>> P2 played")]
    assert played and all(line.split(": ", 1)[1] in out for line in played)


def test_the_legal_list_in_the_prompt_is_the_one_the_agent_accepts() -> None:
    m = Match.new("gin_rummy", seed=3)
    view = m.view(m.to_move)
    from rummydsl.llm import generate_prompt

    prompt = generate_prompt(view, legal=True)
    assert all(f"- {move}" in prompt for move in get_legal_moves(view))


def test_a_game_with_an_llm_seat_is_saved_and_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save names the program; the resumed seat is started from it and writes to the
    transcript the environment names then; the prompts go on summing up the earlier rounds."""
    from rummydsl.engine import Game, Observation
    from rummydsl.save import load_agents, load_game, save_game
    from rummydsl.variant import load_variant

    variant = load_variant("gin_rummy")
    game = Game(variant, random.Random(4))
    agents = [LLMAgent(model(), 0), GreedyAgent()]
    while len(game.results) < 1 or len(game.round.actions) < 3:  # into round 2
        rnd = game.round
        if rnd.over:
            game.next_round()
        else:
            rnd.apply(GreedyAgent().act(Observation(rnd, rnd.to_move)))  # greedy for both seats until the save
    data = json.loads(json.dumps(save_game(game, agents)))
    assert data["agents"][0] == {"agent": f"llm:{model()}", "state": "program"}
    transcript = tmp_path / "resumed.txt"
    monkeypatch.setenv("RUMMYDSL_LLM_TRANSCRIPT", str(transcript))
    again, seats = load_game(variant, data), load_agents(data, programs=True)
    assert isinstance(seats[0], LLMAgent) and seats[0].command == model() and seats[0].transcript == str(transcript)
    rnd = again.round
    before = generate_prompt(Observation(game.round, 0))
    after = generate_prompt(Observation(rnd, 0))
    summary = before.split("# Earlier rounds", 1)[1].split("# Moves so far", 1)[0]
    assert "- Round 1: " in summary and summary in after
    while rnd.to_move != 0:
        rnd.apply(seats[rnd.to_move].act(Observation(rnd, rnd.to_move)))
    rnd.apply(seats[0].act(Observation(rnd, 0)))
    assert ">>>>> P1 played: " in transcript.read_text(encoding="utf-8")


@pytest.mark.parametrize("command,reason", [("", "'llm:' names no program"), ("'open", "cannot read the command")])
def test_a_save_with_an_llm_seat_that_cannot_be_started_says_where(command: str, reason: str) -> None:
    from rummydsl.errors import RecordError
    from rummydsl.save import load_agents

    with pytest.raises(RecordError, match=rf"^agents\[1\]\.agent: .*{reason}"):
        load_agents({"players": 2, "agents": [{"agent": "greedy"}, {"agent": f"llm:{command}", "state": "program"}]},
                    programs=True)
