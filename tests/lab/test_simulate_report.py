"""``simulate --report FILE.html``: the page holds every plot as an embedded PNG, the figures
of ``simulate --json`` and the game-quality metrics; it opens in headless Chromium."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from rummydsl.lab.simulate_report import SIMULATE_PLOTS, render_simulate_report, simulate_plot_ids
from rummydsl.simulate import Statistics, simulate

from .conftest import run
from .test_report import CHROMIUM, _BROKEN_PROBE, _chromium, _images, _png_size

pytestmark = pytest.mark.xdist_group("simulate-report")  # one simulate played and drawn, on one test worker

if importlib.util.find_spec("matplotlib") is None:  # found, not imported: 0.7 s of CPU at collection in every worker
    pytest.skip("could not import 'matplotlib'", allow_module_level=True)


@pytest.fixture(scope="module")
def games() -> Statistics:
    return simulate("gin_rummy", games=6, seed=1, agents="greedy,random")


@pytest.fixture(scope="module")
def page(games: Statistics) -> str:
    return render_simulate_report(games, 1.0)


def test_every_plot_is_an_embedded_png(page: str, games: Statistics) -> None:
    images = _images(page)
    assert list(images) == simulate_plot_ids(games.as_json(1.0)) == list(SIMULATE_PLOTS)
    for key, src in images.items():
        width, height = _png_size(src)
        assert width > 300 and height > 100, key
        assert f"alt='{SIMULATE_PLOTS[key]}'" in page.replace("&#x27;", "'")


def test_the_page_shows_the_json_figures_and_names_no_url(page: str, games: Statistics) -> None:
    data = games.as_json(1.0)
    for seat, rate in data["win_rate"].items():
        assert f"{rate['rate']:.1%} <small>[{rate['low']:.1%}, {rate['high']:.1%}]</small>" in page, seat
    for ending, value in data["endings"].items():
        assert f"<td class='name'>{ending.replace('_', ' ')}</td><td>{value['count']}</td>" in page
    assert "greedy" in page and "random" in page and "Game quality" in page
    assert "Ludii Balance" in page and "CardStock Fairness" in page
    quality = data["quality"]["drama"]
    assert f"{quality['value']:.3f} <small>[{quality['low']:.3f}, {quality['high']:.3f}]</small>" in page
    assert "http://" not in page and "https://" not in page


def test_a_report_of_hands_has_no_game_quality() -> None:
    hands = simulate("gin_rummy", hands=4, seed=2)
    page = render_simulate_report(hands, 1.0)
    assert list(_images(page)) == [key for key in SIMULATE_PLOTS if key != "plot-quality"]
    assert "Game quality" not in page and "hands won" in page
    # a count's interval stops at 0 on the page too
    assert not re.search(r"\[-\d", page)


def test_the_command_writes_the_report(tmp_path: Path) -> None:
    target = tmp_path / "sim.html"
    code, out, err = run("simulate", "gin_rummy", "--games", "3", "--seed", "4", "--workers", "1",
                         "--report", str(target))
    assert (code, err) == (0, "") and out.endswith(f"wrote {target}\n")
    assert list(_images(target.read_text(encoding="utf-8"))) == list(SIMULATE_PLOTS)
    code, out, _ = run("simulate", "gin_rummy", "--games", "3", "--seed", "4", "--workers", "1", "--json",
                       "--report", str(target))
    assert code == 0 and json.loads(out)["games"] == 3  # stdout stays one JSON object


def test_a_report_that_cannot_be_written_fails_before_any_game(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played before the error was reported")

    monkeypatch.setattr("rummydsl.simulate.run_tasks", refuse)
    target = tmp_path / "no" / "r.html"
    code, out, err = run("simulate", "gin_rummy", "--games", "2", "--seed", "1", "--report", str(target))
    assert code == 1 and out == "" and f"cannot write the report {str(target)!r}: no folder" in err
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    code, _, err = run("simulate", "gin_rummy", "--games", "2", "--seed", "1", "--report", str(tmp_path / "r.html"))
    assert code == 1 and "--report needs matplotlib" in err


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium); "
                                             "the report is checked without a browser above")
def test_the_report_opens_in_a_real_browser_with_every_plot(tmp_path: Path, page: str) -> None:
    """One Chromium run screenshots the page and prints its DOM (test_report.py's probe
    at the page's end says which images the browser could not draw)."""
    from PIL import Image, ImageStat

    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", _BROKEN_PROBE + "</body>"), encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,3600", "--dump-dom",
                     url=probe.resolve().as_uri())
    assert shot.exists(), done.stderr[-2000:]
    with Image.open(shot) as image:
        grey = image.convert("L")
        assert grey.getextrema()[0] < 100 and ImageStat.Stat(grey).stddev[0] > 10, "the screenshot is blank"
    marks = re.search(r'data-images="(\d+)" data-broken="([^"]*)"', done.stdout)
    assert marks is not None, done.stdout[-500:]
    assert (int(marks.group(1)), marks.group(2)) == (len(SIMULATE_PLOTS), "none")
