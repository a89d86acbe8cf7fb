"""``rummydsl simulate``: every shipped variant from any folder, the same figures for a
seed and for any number of workers, the JSON object of DESIGN.md, one clear line
for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummydsl.variant import shipped_variant_ids

from .conftest import read_log, run

VARIANTS = shipped_variant_ids()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_variant_simulates_and_replays_from_any_folder(
        variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("simulate", variant, "--games", "1", "--seed", "3", "--json", "--log", "games.jsonl")
    assert (code, err) == (0, ""), err
    figures = json.loads(out)
    assert figures["variant"] == variant and figures["games"] == 1 and figures["hands"] >= 1
    assert sum(figures["wins"].values()) == 1
    code, out, err = run("replay", "games.jsonl")
    assert (code, err) == (0, ""), err
    assert out.startswith(f"{variant}: 1 game, {figures['hands']} round")
    code, out, err = run("simulate", variant, "--hands", "2", "--seed", "3", "--log", "hands.jsonl")
    assert (code, err) == (0, ""), err
    assert out.startswith(f"{variant}: 2 hands, 2 rounds")
    assert run("replay", "hands.jsonl")[0] == 0


def test_json_has_the_fields_of_design_md() -> None:
    code, out, _ = run("simulate", "gin_rummy", "--games", "3", "--seed", "7", "--json")
    assert code == 0
    figures = json.loads(out)
    for key in ("variant", "games", "hands", "seconds", "wins", "points", "endings", "undercuts",
                "turns_per_round", "dealer", "first_player", "win_rate", "mean_points"):
        assert key in figures
    assert set(figures["wins"]) == set(figures["points"]) == {"P1", "P2"}
    assert figures["games"] == 3 and sum(figures["wins"].values()) == 3
    assert sum(e["count"] for e in figures["endings"].values()) == figures["hands"]
    rate = figures["win_rate"]["P1"]
    assert 0 <= rate["low"] <= rate["rate"] <= rate["high"] <= 1
    assert figures["dealer"]["games"]["of"] == 3
    assert figures["dealer"]["rounds"]["won"] + figures["first_player"]["rounds"]["won"] == \
        figures["dealer"]["rounds"]["of"]  # two players: one or the other


def without_time(text: str) -> dict[str, object]:
    figures = json.loads(text)
    figures.pop("seconds")
    assert isinstance(figures, dict)
    return figures


def test_the_same_seed_gives_the_same_figures_and_another_seed_others() -> None:
    first = without_time(run("simulate", "oklahoma_gin", "--games", "4", "--seed", "11", "--json")[1])
    again = without_time(run("simulate", "oklahoma_gin", "--games", "4", "--seed", "11", "--json")[1])
    other = without_time(run("simulate", "oklahoma_gin", "--games", "4", "--seed", "12", "--json")[1])
    assert first == again
    assert first != other


def test_workers_give_identical_figures_and_logs(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    code, out_one, _ = run("simulate", "gin_rummy", "--games", "6", "--seed", "5", "--json", "--log", str(one))
    assert code == 0
    code, out_two, err = run("simulate", "gin_rummy", "--games", "6", "--seed", "5", "--json", "--log", str(two),
                             "--workers", "3")
    assert (code, err) == (0, "")
    assert without_time(out_one) == without_time(out_two)
    assert one.read_text() == two.read_text()


def test_game_i_is_the_same_game_whatever_the_run_length(tmp_path: Path) -> None:
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    run("simulate", "gin_rummy", "--games", "2", "--seed", "9", "--log", str(short))
    run("simulate", "gin_rummy", "--games", "4", "--seed", "9", "--log", str(long))
    first_two = [line for line in read_log(long) if line["type"] == "game"][:2]
    assert first_two == [line for line in read_log(short) if line["type"] == "game"]


def test_hands_rotate_the_dealer_by_seat(tmp_path: Path) -> None:
    log = tmp_path / "hands.jsonl"
    code, out, _ = run("simulate", "ginski", "--hands", "4", "--seed", "2", "--log", str(log))
    assert code == 0
    assert [line["dealer"] for line in read_log(log) if line["type"] == "deal"] == ["P1", "P2", "P3", "P1"]
    assert "hand wins" in out and "games won" not in out


def test_text_report_names_every_figure() -> None:
    code, out, _ = run("simulate", "gin_rummy", "--games", "2", "--seed", "1", "--agents", "greedy,random")
    assert code == 0
    assert out.startswith("gin_rummy: 2 games, ")
    for words in ("P1    greedy", "P2    random", "how rounds end", "undercut", "turns per round:",
                  "dealer", "first player", "[95% CI]"):
        assert words in out
    assert "\x1b" not in out  # no colour codes


def test_a_variant_file_from_another_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\nknock: {limit: '5'}\n")
    monkeypatch.chdir(tmp_path.parent)
    code, out, err = run("simulate", str(house), "--games", "1", "--seed", "1", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["variant"] == "house"


BAD = [
    (["--games", "0", "--seed", "1"], "rummydsl simulate: --games must be at least 1, got 0"),
    (["--hands", "-3", "--seed", "1"], "rummydsl simulate: --hands must be at least 1, got -3"),
    (["--games", "1", "--seed", "1", "--workers", "0"], "rummydsl simulate: --workers must be at least 1, got 0"),
    (["--games", "1", "--seed", "1", "--agents", "greedy,clever"],
     "rummydsl simulate: P2: unknown agent 'clever'; use random, greedy, heuristic, simple, ismcts, pimc, cmd:PROGRAM or llm:PROGRAM"),
]


@pytest.mark.parametrize("argv,message", BAD, ids=["games-0", "hands-negative", "workers-0", "agent"])
def test_bad_input_is_one_line_and_exit_1(argv: list[str], message: str) -> None:
    code, out, err = run("simulate", "gin_rummy", *argv)
    assert (code, out, err) == (1, "", message + "\n")


def test_an_unknown_variant_is_one_line() -> None:
    code, out, err = run("simulate", "gin_rumy", "--games", "1", "--seed", "1")
    assert (code, out) == (1, "")
    assert err == "gin_rumy: no shipped variant or file 'gin_rumy'; did you mean 'gin_rummy'?\n"


def test_an_unwritable_log_is_one_line(tmp_path: Path) -> None:
    code, _, err = run("simulate", "gin_rummy", "--games", "1", "--seed", "1",
                       "--log", str(tmp_path / "no" / "such" / "x.jsonl"))
    assert code == 1 and err.count("\n") == 1 and "cannot write the log" in err


@pytest.mark.parametrize("argv", [
    ["gin_rummy", "--seed", "1"],                              # neither --games nor --hands
    ["gin_rummy", "--games", "1", "--hands", "1", "--seed", "1"],
    ["gin_rummy", "--games", "1"],                             # no --seed
    ["gin_rummy", "--games", "many", "--seed", "1"],
])
def test_usage_errors_exit_2(argv: list[str]) -> None:
    code, out, err = run("simulate", *argv)
    assert code == 2 and out == "" and "usage" not in out
    assert err.startswith("rummydsl simulate: ")


def test_ctrl_c_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummydsl.simulate

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(rummydsl.simulate, "simulate", interrupted)
    assert run("simulate", "gin_rummy", "--games", "1", "--seed", "1") == (130, "", "rummydsl simulate: interrupted\n")
