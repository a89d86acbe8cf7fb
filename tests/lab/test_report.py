"""``--report FILE.html``: one self-contained page with every plot, checked as a person would
see it: opened in headless Chromium, screenshotted, and its DOM read back."""

from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rummydsl.lab.report import PLOTS, ReportError, render_report, require_matplotlib
from rummydsl.lab.run import Arm, LabResult, Plan, run_lab

from .conftest import run

pytestmark = pytest.mark.xdist_group("report")  # one compare played and drawn, on one test worker

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def result() -> LabResult:
    return run_lab(Plan([Arm.load("gin_rummy"), Arm.load("oklahoma_gin")], seed=1, games=6))


@pytest.fixture(scope="module")
def page(result: LabResult) -> str:
    return render_report(result, "compare", 1.0)


def _images(page: str) -> dict[str, str]:
    """The ``src`` of each ``<img>`` by ``id``."""
    found = {}
    for tag in re.findall(r"<img\b[^>]*>", page):
        ident = re.search(r"\bid=['\"]([^'\"]+)['\"]", tag)
        src = re.search(r"\bsrc=['\"]([^'\"]+)['\"]", tag)
        assert ident and src, tag[:200]
        found[ident.group(1)] = src.group(1)
    return found


def _png_size(src: str) -> tuple[int, int]:
    from PIL import Image

    assert src.startswith("data:image/png;base64,")
    with Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as image:
        image.load()
        return image.size


def test_every_plot_is_an_embedded_png(page: str) -> None:
    images = _images(page)
    assert set(images) == set(PLOTS)
    for key, src in images.items():
        width, height = _png_size(src)
        assert width > 300 and height > 100, key
        assert f"alt='{PLOTS[key]}'" in page.replace("&#x27;", "'")


def test_no_url_anywhere(page: str) -> None:
    assert not re.search(r"(src|href)\s*=\s*['\"]?\s*https?://", page, re.I)
    assert "http://" not in page and "https://" not in page
    for src in _images(page).values():  # nor inside the images (matplotlib signs PNGs with its URL)
        assert b"http" not in base64.b64decode(src.split(",", 1)[1])


def test_the_tables_show_every_figure(page: str, result: LabResult) -> None:
    for row in result.rows:
        assert row.figure.label in page
    assert "McNemar exact" in page and "Holm" in page


def test_sweep_report_shows_the_derived_variants(tmp_path: Path) -> None:
    target = tmp_path / "sweep.html"
    code, out, err = run("sweep", "gin_rummy", "--set", "knock.limit=7,10", "--games", "2", "--seed", "1",
                         "--workers", "1", "--report", str(target))
    assert (code, err) == (0, ""), err
    assert out.endswith(f"wrote {target}\n")
    page = target.read_text(encoding="utf-8")
    assert "The derived variants" in page and "extends: gin_rummy" in page
    assert set(_images(page)) == set(PLOTS)


def test_a_report_into_a_missing_folder_fails_before_any_game(tmp_path: Path, no_play: None) -> None:
    target = tmp_path / "no" / "such" / "r.html"
    code, out, err = run("compare", "gin_rummy", "straight_gin", "--games", "2", "--seed", "1", "--report", str(target))
    assert code == 1 and out == ""
    assert f"cannot write the report {str(target)!r}: no folder" in err


def test_without_matplotlib_the_report_is_refused_before_any_game(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path, no_play: None) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    with pytest.raises(ReportError, match=r"pip install 'rummydsl\[report\]'"):
        require_matplotlib()
    code, out, err = run("compare", "gin_rummy", "straight_gin", "--games", "2", "--seed", "1",
                         "--report", str(tmp_path / "r.html"))
    assert code == 1 and "--report needs matplotlib" in err


def _chromium(tmp_path: Path, *flags: str, url: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               f"--user-data-dir={tmp_path / 'profile'}", *flags, url]
    return subprocess.run(command, capture_output=True, text=True, check=False)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium); "
                                             "the report is checked without a browser above")
def test_the_report_opens_in_a_real_browser_with_every_plot(tmp_path: Path, page: str) -> None:
    """One Chromium run screenshots the page and prints its DOM: the page with a script at
    its end (``_BROKEN_PROBE``) that asks the browser itself which images it could not draw
    and writes the answer on the body, nothing a screenshot shows."""
    from PIL import Image, ImageStat

    probe = tmp_path / "probe.html"
    probe.write_text(page.replace("</body>", _BROKEN_PROBE + "</body>"), encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1280,4000", "--dump-dom",
                     url=probe.resolve().as_uri())
    assert shot.exists(), done.stderr[-2000:]
    with Image.open(shot) as image:
        image = image.convert("L")
        assert image.size == (1280, 4000)
        extrema = image.getextrema()
        assert extrema[0] < 100 and extrema[1] > 200, "the screenshot is blank"
        assert ImageStat.Stat(image).stddev[0] > 10, "the screenshot is blank"
    dom = done.stdout
    images = _images(dom)
    assert set(images) == set(PLOTS), f"plots in the browser's DOM: {sorted(images)}"
    for key, src in images.items():
        width, height = _png_size(src)
        assert width > 0 and height > 0, key
    marks = re.search(r'data-images="(\d+)" data-broken="([^"]*)"', dom)
    assert marks is not None, dom[-500:]
    assert (int(marks.group(1)), marks.group(2)) == (len(PLOTS), "none")


_BROKEN_PROBE = """<script>
const broken = [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.id);
document.body.setAttribute("data-images", document.images.length);
document.body.setAttribute("data-broken", broken.join(",") || "none");
</script>"""


def test_an_interval_at_an_end_is_drawn(tmp_path: Path) -> None:
    """Three games on seed 2 give a rate whose Wilson interval ends a rounding error past its
    estimate (0% or 100%); matplotlib refuses a negative error bar, so the report clamps it."""
    pytest.importorskip("matplotlib")
    from rummydsl.lab.report import plot_images

    house = tmp_path / "house.yaml"
    house.write_text("rummydsl: 1\nid: house\nname: House Gin\nextends: gin_rummy\nknock: {limit: 5}\n",
                     encoding="utf-8")
    small = run_lab(Plan([Arm.load("gin_rummy"), Arm.load(str(house))], seed=2, games=3))
    assert list(plot_images(small)) == list(PLOTS)
