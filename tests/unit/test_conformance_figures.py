"""The suite format's ``setup.wins`` and ``expect.figures`` (GR-10.5): read, and able to fail.

A scripted case gives the hands each player has already won (``setup.wins``) and
expects the game's final figures (``expect.figures``: hand points, game bonus,
boxes, shutout) once the round it plays ends the game.
"""

from __future__ import annotations

from pathlib import Path

from rummydsl.conformance.runner import run_case
from rummydsl.conformance.suite import load_suite

_CASE = """\
variant: gin_rummy
cases:
  - id: gr15-game-end
    rule: GR-15
    setup:
      dealer: P2
      hands:
        P1: 5H 6H 7H 8H 9C 9D 9S AC 2D 4S
        P2: KS KH KD 2C 3C 4C 9H 4H QC 7D
      stock: KC 3D 4D 5D 6D 8D TD JD 2H 3H TH
      upcard: QD
      scores: {{P1: 94, P2: 27}}
{wins}
    actions: [P1 pass, P2 pass, P1 draw stock, "P1 knock KC [5H 6H 7H 8H] [9C 9D 9S]",
              P2 layoff 9H on P1#1, P2 layoff 4H on P1#1, P2 done]
    expect:
      figures: {figures}
"""


def _run(tmp_path: Path, figures: str, wins: str = "      wins: {P1: 3, P2: 1}") -> tuple[str, list[str]]:
    path = tmp_path / "figures.suite.yaml"
    path.write_text(_CASE.format(figures=figures, wins=wins), encoding="utf-8")
    result = run_case(load_suite(str(path)).cases[0])
    return result.status, [d.what for d in result.differences]


def test_figures_of_gr15_pass(tmp_path: Path) -> None:
    """GR-15: P1 = 104 + 100 + 4 x 25 = 304, P2 = 27 + 25 = 52."""
    assert _run(tmp_path, "{P1: 304, P2: 52}") == ("passed", [])


def test_wrong_figure_fails(tmp_path: Path) -> None:
    status, differences = _run(tmp_path, "{P1: 303, P2: 52}")
    assert status == "failed"
    assert differences == ["P1's final figure"]


def test_wins_count_for_the_boxes(tmp_path: Path) -> None:
    """Without ``setup.wins`` only this round's win is boxed: 104 + 100 + 25 = 229, P2 27."""
    assert _run(tmp_path, "{P1: 229, P2: 27}", wins="") == ("passed", [])
    assert _run(tmp_path, "{P1: 229, P2: 27}")[0] == "failed"


def test_figures_need_the_game_over(tmp_path: Path) -> None:
    path = tmp_path / "open.suite.yaml"
    path.write_text(_CASE.format(figures="{P1: 304, P2: 52}", wins="").replace("P1: 94", "P1: 10"),
                    encoding="utf-8")
    result = run_case(load_suite(str(path)).cases[0])
    assert result.status == "failed"
    assert [d.what for d in result.differences] == ["'figures' is expected, but the game is not over"]
