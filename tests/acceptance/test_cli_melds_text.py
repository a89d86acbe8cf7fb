"""The text form of ``rummydsl melds``: what a person at the table needs to know."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rummydsl.cli import main

GIN_HAND = ["5H", "6H", "7H", "8H", "9C", "9D", "9S", "AC", "2D", "4S"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


def test_each_meld_names_its_kind() -> None:
    code, out, _ = run("melds", "gin_rummy", *GIN_HAND)
    assert code == 0
    assert "meld:      9S 9D 9C  (set)" in out
    assert "meld:      5H 6H 7H 8H  (run)" in out


def test_no_contract_line_without_a_contract() -> None:
    assert "contract" not in run("melds", "gin_rummy", *GIN_HAND)[1]
    skarney = run("melds", "skarney_gin", "3S", "4C", "5C", "JH", "JD", "JC", "8C", "9C", "TC", "2H")[1]
    assert "contract:  met" in skarney


@pytest.mark.parametrize("extra, verdict", [
    ("KC", "ends:      knock allowed (deadwood 7 <= limit 10)"),
    ("3C", "ends:      knock allowed (deadwood 6 <= limit 10)"),
])
def test_one_card_over_says_whether_the_best_discard_knocks(extra: str, verdict: str) -> None:
    out = run("melds", "gin_rummy", *GIN_HAND, extra)[1]
    assert verdict in out


def test_no_knock_over_the_limit_and_gin_at_none() -> None:
    out = run("melds", "straight_gin", *GIN_HAND, "KC")[1]
    assert "ends:      no knock (deadwood 7 > limit 0)" in out
    gin = run("melds", "gin_rummy", "AS", "2S", "3S", "4S", "5H", "6H", "7H", "9C", "9D", "9S", "KH")[1]
    assert "ends:      gin after the discard" in gin


def test_a_limit_that_depends_on_the_upcard_is_given_as_a_range() -> None:
    out = run("melds", "oklahoma_gin", *GIN_HAND, "KC")[1]
    assert "knock allowed if this round's limit is at least 7 (the limit is 0 to 10, by the upcard)" in out


def test_a_shell_expanded_star_gets_a_hint_to_quote_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    code, _, err = run("melds", "ginski", "4R", "5R", "notes.txt")
    assert code == 1
    assert "'notes.txt' is a file in this folder" in err and "quote the wild card: '*'" in err
