"""docs/lab.md stays true: it names every key of the JSON object, every figure and every plot."""

from __future__ import annotations

import json
from pathlib import Path

from rummydsl.lab.figures import HISTOGRAMS
from rummydsl.lab.report import PLOTS

from .conftest import run

LAB = (Path(__file__).resolve().parents[2] / "docs" / "lab.md").read_text(encoding="utf-8")


def test_every_json_key_figure_and_plot_is_documented() -> None:
    code, out, err = run("sweep", "gin_rummy", "--set", "knock.limit=7,10", "--games", "2", "--seed", "1",
                         "--workers", "1", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    for key in data:
        assert f"`{key}`" in LAB, f"docs/lab.md never names the JSON key `{key}`"
    for figure in data["figures"]:
        for key in figure:
            assert f'"{key}"' in LAB, f"docs/lab.md never names the figure field {key!r}"
        prefix = figure["key"].split(".")[0]
        assert f"`{prefix}" in LAB, f"docs/lab.md never names the figure {figure['key']!r}"
        for comparison in figure["comparisons"]:
            for key in comparison:
                assert f'"{key}"' in LAB
    for key in HISTOGRAMS:
        assert f"`{key}`" in LAB
    for key in PLOTS:
        assert f"`{key}`" in LAB, f"docs/lab.md never names the plot {key!r}"


def test_every_quality_metric_is_defined_with_its_source() -> None:
    from rummydsl.lab.quality import QUALITY

    section = LAB.split("## Game quality")[1].split("\n## ")[0]
    for key, (name, _meaning, source) in QUALITY.items():
        assert f"`{key}`" in section, f"docs/lab.md's Game quality never defines `{key}`"
        assert source.split()[0] in section
