"""``rummydsl check --play N``: the play checker from the command line (exit codes,
text and JSON, what is and is not played)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BROKEN = EXAMPLES / "broken_in_play"


def test_broken_in_play_files_check_clean_without_play() -> None:
    code, out, _ = run("check", str(BROKEN))
    assert code == 0, out
    assert out.endswith("0 errors, 0 warnings\n")


def test_play_finds_them_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    code, out, err = run("check", "--play", "2", "-q", "no_draw_step.yaml", "stalled_pile_only.yaml")
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0].startswith("no_draw_step.yaml:10:5: the round is not over but P")
    assert lines[1].startswith("stalled_pile_only.yaml:9:18: a round ran past 3000 actions without ending")
    assert lines[-1] == ("2 files checked: 2 errors, 0 warnings "
                         "(played 2 games of each with random agents and 1 with greedy agents, seed 0)")


def test_play_json_gives_the_play_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    code, out, _ = run("check", "--play", "1", "--json", "ender_points_to_nobody.yaml")
    assert code == 1
    [problem] = json.loads(out)
    assert problem["rule"] == "play-scoring-error"
    assert (problem["path"], problem["line"], problem["column"]) == ("ender_points_to_nobody.yaml", 11, 34)
    assert "--seed 0" in problem["message"] and "round 1" in problem["message"]


def test_play_warnings_do_not_fail_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second command plays the games the first played (the same file, count, seed and
    agents: 440 rounds, about 2 s of CPU), and seeded play gives the same report every time
    (tests/unit/test_playcheck.py): it is given the first one's report, so what it shows is
    what ``--no-warnings`` prints of it. Play asked with other arguments is played."""
    from rummydsl import playcheck

    played: dict[tuple[object, ...], list[object]] = {}
    real = playcheck.play_check

    def once(path: str, games: int, **options: object) -> list[object]:
        key = (path, games, *sorted(options.items()))
        if key not in played:
            played[key] = real(path, games, **options)  # type: ignore[arg-type]
        return list(played[key])

    monkeypatch.setattr(playcheck, "play_check", once)
    monkeypatch.chdir(BROKEN)
    code, out, _ = run("check", "--play", "1", "-q", "never_won.yaml")
    assert code == 0
    assert "warning: in 2 games nobody won a round" in out
    first = set(played)  # the file's games, and its parent's (play_check asks of the parent too)
    assert run("check", "--play", "1", "--no-warnings", "never_won.yaml")[1].startswith("1 file checked: 0 errors")
    assert set(played) == first, "the second command asked for the games the first played"


def test_a_file_with_static_errors_is_not_played() -> None:
    bad = str(EXAMPLES / "bad" / "expr_unknown_name.yaml")
    plain = run("check", "-q", bad)
    played = run("check", "-q", "--play", "2", bad)
    assert played[0] == plain[0] == 1
    assert played[1].splitlines()[:-1] == plain[1].splitlines()[:-1]


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_play_count_must_be_a_positive_number(value: str) -> None:
    code, _, err = run("check", "--play", value, str(BROKEN))
    assert code == 2
    assert "--play" in err


@pytest.mark.parametrize("option", [["--seed", "3"], ["--agents", "greedy"]])
def test_seed_and_agents_need_play(option: list[str]) -> None:
    code, out, err = run("check", *option, str(BROKEN / "no_draw_step.yaml"))
    assert (code, out) == (2, "")
    assert "give --play too" in err


def test_another_seed_and_agents_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(BROKEN)
    code, out, _ = run("check", "-q", "--play", "1", "--seed", "5", "--agents", "greedy,random", "no_draw_step.yaml")
    assert code == 1
    assert "--seed 5 --agents greedy,random)" in out
    assert out.splitlines()[-1].endswith("(played 1 game of each with greedy,random agents and 1 with greedy "
                                         "agents, seed 5)")


def test_an_unknown_agent_is_an_input_error() -> None:
    code, out, err = run("check", "--play", "1", "--agents", "random,clever", str(BROKEN / "no_draw_step.yaml"))
    assert (code, out) == (1, "")
    assert "unknown agent 'clever'" in err


def test_the_documented_example_is_what_check_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    import shlex

    doc = (EXAMPLES.parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    shown = re.search(r"^\$ (rummydsl check -q --play [^\n]*)\n(.*?)```", doc, re.S | re.M)
    assert shown is not None, "docs/cli.md has no check --play example"
    monkeypatch.chdir(EXAMPLES.parent.parent)
    code, out, _ = run(*shlex.split(shown.group(1))[1:])
    assert code == 1
    assert out == shown.group(2)


def test_the_simulate_command_a_finding_names_reports_it_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression: simulate's random agent was asked to choose from no legal action
    (ValueError: empty range for randrange(), a traceback)."""
    monkeypatch.chdir(BROKEN)
    code, out, err = run("simulate", "no_draw_step.yaml", "--games", "1", "--seed", "0", "--agents", "random")
    assert (code, out) == (1, "")
    assert err == ("rummydsl simulate: round 1 cannot go on: it is not over, but P2 has no legal action\n")
