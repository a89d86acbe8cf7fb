"""The play checker (rummydsl.playcheck): seeded, bounded, placed at the node to blame,
and never raising for what a variant or the engine does in play."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummydsl.playcheck import PlayLimits, play_check, play_variant
from rummydsl.resources import variants_dir
from rummydsl.simulate import simulate
from rummydsl.variant import load_variant, shipped_variant_ids

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def write(tmp_path: Path, text: str, name: str = "house.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("variant_id", shipped_variant_ids())
def test_shipped_variant_plays_clean(variant_id: str) -> None:
    assert [str(d) for d in play_check(str(variants_dir() / f"{variant_id}.yaml"), 2, seed=7)] == []


def test_the_same_games_and_seed_give_the_same_report() -> None:
    path = str(EXAMPLES / "broken_in_play" / "division_by_zero.yaml")
    first = play_check(path, 3, seed=4)
    assert first and first == play_check(path, 3, seed=4)


def test_game_i_is_the_game_i_simulate_plays() -> None:
    variant = load_variant("ginski")
    report = play_variant(variant, games=6, seed=3, greedy_game=False, limits=PlayLimits(max_rounds=10_000))
    stats = simulate("ginski", games=6, seed=3, agents="random")
    assert report.finished == report.games == stats.games == 6
    assert report.rounds == stats.hands
    assert report.endings == {ending: count for ending, count in stats.endings.items() if count}


def test_a_file_that_does_not_load_is_not_played(tmp_path: Path) -> None:
    path = write(tmp_path, "rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\nplayers: two\n")
    assert play_check(path, 2) == []


def test_a_failing_let_is_placed_inside_its_formula(tmp_path: Path) -> None:
    path = write(tmp_path, "rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\nscoring:\n  let:\n"
                           '    lead: "max(score(o) for o in players)"\n'
                           '    ratio: "100 // lead"\n'
                           "  round:\n"
                           '    - {when: "knock or gin or big_gin", ender: "ratio"}\n', name="my house.yaml")
    found = play_check(path, 1, seed=0)
    assert [(d.rule, d.location.line, d.location.column) for d in found] == [("play-scoring-error", 8, 13)]
    assert found[0].message.startswith("division by zero when a round ends ")
    assert f"rummydsl simulate '{path}' --games " in found[0].message and "--seed 0" in found[0].message


def test_a_stalled_round_is_reported_once_at_the_knock_limit() -> None:
    path = str(variants_dir() / "gin_rummy.yaml")
    found = play_check(path, 3, limits=PlayLimits(max_actions=4))
    assert [d.rule for d in found] == ["play-stalled"]
    assert found[0].message.startswith("a round ran past 4 actions without ending: nobody knocked")
    assert "(in 4 of 4 games; first in game 1, round 1: " in found[0].message
    assert found[0].location.line == 43  # gin_rummy.yaml's knock.limit


def test_rounds_nobody_wins_are_counted_and_warned_of() -> None:
    variant = load_variant(str(EXAMPLES / "broken_in_play" / "never_won.yaml"))
    limits = PlayLimits(max_rounds=5, greedy_rounds=20, never_won_rounds=30)
    report = play_variant(variant, games=2, limits=limits)
    assert (report.games, report.rounds, report.finished) == (3, 30, 0)
    assert report.endings == {"void": 30}
    assert [(f.rule, f.severity, f.path) for f in report.findings] == [
        ("play-never-won", "warning", ("knock", "limit"))]
    assert report.findings[0].message == ("in 3 games nobody won a round: all 30 rounds ended without a knock, "
                                          "gin or going out (30 void); so at most 1 round in 10 is won "
                                          "(95% confidence)")


def test_too_few_rounds_to_say_nobody_wins() -> None:
    variant = load_variant(str(EXAMPLES / "broken_in_play" / "never_won.yaml"))
    limits = PlayLimits(max_rounds=5, greedy_rounds=20, never_won_rounds=31)
    assert "play-never-won" not in [f.rule for f in play_variant(variant, games=2, limits=limits).findings]


def test_a_game_that_never_ends_is_warned_of(tmp_path: Path) -> None:
    # 0 by a formula that reads the round: the constant "0" is refused by check itself (game-end).
    path = write(tmp_path, "rummydsl: 1\nid: house\nextends: gin_rummy\nname: House\nscoring:\n  round:\n"
                           '    - {when: "knock or gin or big_gin", ender: "deadwood(ender) * 0"}\n')
    found = play_check(path, 1, limits=PlayLimits(max_rounds=5, greedy_rounds=30))
    assert [(d.rule, d.severity) for d in found] == [("play-game-endless", "warning")]
    assert found[0].location.line == 5  # blamed on the house rule's scoring, not gin_rummy's target
    assert "it breaks gin_rummy.yaml:" in found[0].message


def test_an_engine_failure_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummydsl.engine import Round

    def broken(self: Round, action: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(Round, "apply", broken)
    found = play_check(str(variants_dir() / "gin_rummy.yaml"), 2)
    assert [d.rule for d in found] == ["play-engine"]
    assert "RuntimeError: boom" in found[0].message and "(in 3 of 3 games;" in found[0].message


def test_an_unknown_agent_is_refused_before_playing() -> None:
    from rummydsl.errors import AgentError

    with pytest.raises(AgentError, match="unknown agent 'clever'"):
        play_variant(load_variant("gin_rummy"), games=1, agents="clever")


def test_play_leaves_the_loaded_variant_as_it_was() -> None:
    variant = load_variant("gin_rummy")
    before = (variant.scoring, variant.knock, variant.turn)
    play_variant(variant, games=1, limits=PlayLimits(max_rounds=2, greedy_rounds=2))
    assert (variant.scoring, variant.knock, variant.turn) == before
    assert load_variant("gin_rummy") is variant
