"""``--report FILE.html``: one self-contained page of tables and plots for a compare or sweep run.

The plots are drawn with matplotlib's Agg backend (no display needed) and embedded
as base64 PNG ``data:`` images, and the style sheet is inline, so the file opens
anywhere without a network: it names no URL at all. Each plot is an ``<img>``
with an ``id`` from :data:`PLOTS` and an ``alt`` text saying what it shows.
"""

from __future__ import annotations

import base64
import html
import io
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import RummyDslError
from ..simulate import Interval
from .figures import ALPHA, ENDING_LABELS, HISTOGRAMS, FigureRow
from .output import format_p, format_quality, numeric_values, quality_differences, trend
from .quality import QUALITY
from .run import LabResult

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure as PlotFigure

__all__ = ["PLOTS", "ReportError", "require_matplotlib", "plot_images", "render_report", "write_report",
           "quality_table", "STYLE", "write_page", "check_report"]

PLOTS: dict[str, str] = {
    "plot-win-rates": "Who wins the game: each seat, the first dealer and the first to play, with 95% intervals",
    "plot-edges": "The dealer's and the first player's edge: win rate minus an even share, with 95% intervals",
    "plot-endings": "How rounds end: the share of each ending",
    "plot-means": "Turns per round, points per round and rounds per game, with 95% intervals",
    "plot-round-length": "The distribution of round lengths (turns per round)",
    "plot-points": "The distribution of points per round",
    "plot-game-length": "The distribution of game lengths (rounds per game)",
}
"""The id and alt text of every plot a report has."""

_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22")
_ENDING_COLOURS = {"knock_not_undercut": "#4c72b0", "undercut": "#dd8452", "gin": "#55a868", "big_gin": "#8172b3",
                   "out": "#937860", "stock_end": "#da8bc3", "void": "#8c8c8c"}


class ReportError(RummyDslError, ValueError):
    """A report that cannot be drawn (matplotlib missing) or written."""


def require_matplotlib() -> None:
    """Make sure the report can be drawn.

    :raises ReportError: when matplotlib is not installed, saying how to install it.
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ReportError("--report needs matplotlib, which is not installed: "
                          "pip install 'rummydsl[report]'") from None


def _colour(index: int) -> str:
    return _COLOURS[index % len(_COLOURS)]


def _png(figure: "PlotFigure") -> str:
    """A figure as a base64 PNG ``data:`` URI (the figure is closed)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    plt.close(figure)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _new(width: float, height: float, columns: int = 1) -> tuple["PlotFigure", list["Axes"]]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, columns, figsize=(width, height), squeeze=False)
    for ax in axes[0]:
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
        ax.grid(axis="x", alpha=0.3)
    return figure, list(axes[0])


def _legend(ax: "Axes") -> None:
    """The legend beside the plot, where it hides no point."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)


def _rows(result: LabResult, prefix: str) -> list[FigureRow]:
    return [row for row in result.rows if row.figure.key.startswith(prefix)]


def _interval_plot(ax: "Axes", rows: Sequence[FigureRow], labels: Sequence[str], *, scale: float = 100.0,
                   shift: float = 0.0) -> None:
    """Each row a band of points, one per variant, with horizontal 95% error bars."""
    count = len(labels)
    step = 0.8 / max(count, 1)
    for k, label in enumerate(labels):
        ys, xs, lows, highs = [], [], [], []
        for i, row in enumerate(rows):
            estimate = row.estimates[k]
            ys.append(len(rows) - 1 - i + 0.4 - step * (k + 0.5))
            xs.append((estimate.value - shift) * scale)
            # never below 0: an interval at 0% or 100% can end a rounding error past its estimate
            lows.append(max(0.0, (estimate.value - estimate.low) * scale))
            highs.append(max(0.0, (estimate.high - estimate.value) * scale))
        ax.errorbar(xs, ys, xerr=[lows, highs], fmt="o", color=_colour(k), label=label, capsize=3, markersize=5)
    ax.set_yticks([len(rows) - 1 - i for i in range(len(rows))])
    ax.set_yticklabels([row.figure.label for row in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)


def _win_rates(result: LabResult) -> "PlotFigure":
    labels = [arm.label for arm in result.arms]
    rows = _rows(result, "win.")
    figure, (ax,) = _new(9.5, 1.0 + 0.45 * len(rows) * max(1.0, len(labels) / 3))
    _interval_plot(ax, rows, labels)
    ax.axvline(100 / len(result.agents), color="#555555", linestyle="--", linewidth=1)
    ax.set_xlabel("games won (%), 95% Wilson interval; dashed: an even share")
    _legend(ax)
    ax.set_title("Who wins the game", loc="left", fontsize=11)
    return figure


def _edges(result: LabResult) -> "PlotFigure":
    labels = [arm.label for arm in result.arms]
    share = 1 / len(result.agents)
    keys = ["round_win.dealer", "round_win.first", "win.dealer", "win.first"]
    rows = [row for key in keys for row in result.rows if row.figure.key == key]
    figure, (ax,) = _new(9.5, 1.0 + 0.5 * len(rows) * max(1.0, len(labels) / 3))
    _interval_plot(ax, rows, labels, shift=share)
    ax.axvline(0, color="#555555", linewidth=1)
    ax.set_xlabel(f"edge in percentage points over an even share ({share:.0%}), 95% intervals")
    _legend(ax)
    ax.set_title("The dealer's and the first player's edge", loc="left", fontsize=11)
    return figure


def _endings(result: LabResult) -> "PlotFigure":
    labels = [arm.label for arm in result.arms]
    rows = _rows(result, "ending.")
    figure, (ax,) = _new(9.5, 1.2 + 0.45 * len(labels))
    left = [0.0] * len(labels)
    for row in rows:
        name = row.figure.key[len("ending."):]
        widths = [e.value * 100 for e in row.estimates]
        ax.barh(range(len(labels)), widths, left=left, color=_ENDING_COLOURS.get(name, "#cccccc"),
                label=ENDING_LABELS.get(name, name.replace("_", " ")), edgecolor="white", height=0.6)
        for k, (start, width) in enumerate(zip(left, widths)):
            if width >= 6:
                ax.text(start + width / 2, k, f"{width:.0f}%", ha="center", va="center", fontsize=8, color="white")
        left = [a + b for a, b in zip(left, widths)]
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of rounds (%)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=min(len(rows), 7), fontsize=8, frameon=False)
    ax.set_title("How rounds end", loc="left", fontsize=11)
    return figure


def _means(result: LabResult) -> "PlotFigure":
    labels = [arm.label for arm in result.arms]
    keys = ["turns_per_round", "points_per_round", "rounds_per_game"]
    figure, axes = _new(11, 0.9 + 0.42 * len(labels), columns=3)
    for ax, key in zip(axes, keys):
        row = next(row for row in result.rows if row.figure.key == key)
        for k, estimate in enumerate(row.estimates):
            ax.errorbar([estimate.value], [k], xerr=[[max(0.0, estimate.value - estimate.low)],
                                                             [max(0.0, estimate.high - estimate.value)]],
                        fmt="o", color=_colour(k), capsize=3, markersize=5)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels if ax is axes[0] else [""] * len(labels))
        ax.invert_yaxis()
        ax.set_title(row.figure.label, fontsize=10)
        ax.margins(x=0.25)
    return figure


def _distribution(result: LabResult, key: str, xlabel: str) -> "PlotFigure":
    figure, (ax,) = _new(9.5, 3.4)
    ax.grid(axis="y", alpha=0.3)
    seen = [value for figures in result.figures for value in figures.histograms[key].counts]
    width = max(1, -(-(max(seen) - min(seen) + 1) // 40)) if seen else 1  # about 40 bins at most
    for k, (arm, figures) in enumerate(zip(result.arms, result.figures)):
        items = figures.histograms[key].sorted_items()
        total = sum(count for _, count in items) or 1
        if not items:
            continue
        binned: dict[int, int] = {}
        for value, count in items:
            start = value - value % width
            binned[start] = binned.get(start, 0) + count
        starts = list(range(min(binned), max(binned) + 1, width))
        shares = [100 * binned.get(v, 0) / total for v in starts]
        centres = [v + (width - 1) / 2 for v in starts]
        ax.step(centres, shares, where="mid", color=_colour(k), label=arm.label, linewidth=1.6)
    ax.set_xlabel(xlabel + (f" (bins of {width})" if width > 1 else ""))
    ax.set_ylabel("share (%)")
    _legend(ax)
    ax.set_title(HISTOGRAMS[key].capitalize(), loc="left", fontsize=11)
    return figure


def _estimate(row: FigureRow, interval: Interval) -> str:
    if row.figure.kind == "rate":
        return f"{interval.value:.1%} <small>[{interval.low:.1%}, {interval.high:.1%}]</small>"
    return f"{interval.value:.2f} <small>[{interval.low:.2f}, {interval.high:.2f}]</small>"


def _difference(row: FigureRow, interval: Interval) -> str:
    scale, unit = (100.0, " pp") if row.figure.kind == "rate" else (1.0, "")
    return (f"{interval.value * scale:+.2f}{unit} <small>[{interval.low * scale:+.2f}, "
            f"{interval.high * scale:+.2f}]</small>")


def _table(result: LabResult) -> str:
    """The figures of every variant side by side (a significant difference from the first in red, with *)."""
    labels = [html.escape(arm.label) for arm in result.arms]
    xs = numeric_values(result)
    head = "<tr><th>figure</th>" + "".join(f"<th>{label}</th>" for label in labels)
    head += "<th>slope per unit</th>" if xs is not None else ""
    body = []
    for row in result.rows:
        cells = [f"<td class='name'>{html.escape(row.figure.label)}</td>", f"<td>{_estimate(row, row.estimates[0])}</td>"]
        for estimate, comparison in zip(row.estimates[1:], row.comparisons):
            mark = (" class='sig'", " *") if comparison.significant else ("", "")
            cells.append(f"<td{mark[0]}>{_estimate(row, estimate)}{mark[1]}</td>")
        if xs is not None:
            slope = trend(row, xs)
            cells.append("<td>-</td>" if slope is None else
                         f"<td>{slope * 100:+.3f} pp</td>" if row.figure.kind == "rate" else f"<td>{slope:+.4f}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<div class='wide'><table><thead>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"


def _differences(result: LabResult) -> str:
    """Each later variant's difference from the first: the difference, its interval, the test and p."""
    first = html.escape(result.arms[0].label)
    parts = []
    for k, arm in enumerate(result.arms[1:]):
        rows = []
        for row in result.rows:
            comparison = row.comparisons[k]
            mark = " class='sig'" if comparison.significant else ""
            rows.append(f"<tr><td class='name'>{html.escape(row.figure.label)}</td>"
                        f"<td{mark}>{_difference(row, comparison.difference)}{' *' if comparison.significant else ''}</td>"
                        f"<td>{html.escape(comparison.test.name)}</td><td>{format_p(comparison.test.p)}</td>"
                        f"<td{mark}>{format_p(comparison.p_holm)}</td></tr>")
        parts.append(f"<h3>{html.escape(arm.label)} &minus; {first}</h3><div class='wide'><table><thead><tr>"
                     "<th>figure</th><th>difference [95%]</th><th>test</th><th>p</th><th>p (Holm)</th></tr></thead>"
                     f"<tbody>{''.join(rows)}</tbody></table></div>")
    return "".join(parts)


def quality_table(labels: Sequence[str], sets: Sequence[Any], pairs: Sequence[Any] = (), seed: int = 0) -> str:
    """The game-quality metrics of each set of games (a column each), each later variant's
    difference from the first (paired where the games pair: paired t for the per-game metrics,
    a paired bootstrap for the whole-run ones; else as independent samples) with its p-value,
    and the sources."""
    differences = []
    for k, (label, pair) in enumerate(zip(labels[1:], pairs), start=1):
        found = quality_differences(pair, sets[0], sets[k], seed=seed, variant=k, unpaired=True)
        if found:
            differences.append((label, found, pair is not None))
    head = ("<tr><th>metric</th>" + "".join(f"<th>{html.escape(label)}</th>" for label in labels)
            + "".join(f"<th>{html.escape(label)} &minus; {html.escape(labels[0])}"
                      f"<br><small>{'paired' if paired else 'unpaired'}</small></th>" for label, _, paired in differences)
            + "<th>source</th></tr>")
    estimates = [figures.estimates() for figures in sets]
    body = []
    for key, (name, meaning, source) in QUALITY.items():
        cells = "".join(f"<td>{format_quality(key, e[key]).replace(' [', ' <small>[').replace(']', ']</small>')}</td>"
                        for e in estimates)
        for _label, found, _paired in differences:
            if key in found:
                interval, p, method = found[key]
                digits = 2 if key.startswith("duration") else 3
                cells += (f"<td title='{html.escape(method)}'>{interval.value:+.{digits}f} <small>"
                          f"[{interval.low:+.{digits}f}, {interval.high:+.{digits}f}], "
                          f"p {format_p(p)}</small></td>")
            else:
                cells += "<td>-</td>"
        body.append(f"<tr><td class='name' id='quality-{key}'>{html.escape(name)}: {html.escape(meaning)}</td>{cells}"
                    f"<td class='name'>{html.escape(source)}</td></tr>")
    return (f"<div class='wide'><table><thead>{head}</thead><tbody>{''.join(body)}</tbody></table></div>"
            "<p class='meta'>95% intervals in brackets; a difference is paired where the games pair (paired t for "
            "the per-game metrics, a paired bootstrap over seeds for balance, advantage, fairness, drawishness and "
            "completion), else unpaired (Welch t; a bootstrap of each variant's games); the formulas are in "
            "docs/lab.md, \"Game quality\".</p>")


_STYLE = """
body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222;
       max-width: 1200px; margin: 2em auto; padding: 0 1.5em; line-height: 1.45; background: #fff; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
.meta { color: #555; } .meta li { margin: 0.15em 0; }
table { border-collapse: collapse; font-size: 0.85em; margin: 1em 0; }
th, td { padding: 0.3em 0.6em; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
th { background: #f4f6f8; position: sticky; top: 0; } td.name { text-align: left; }
td.sig { color: #b3261e; font-weight: 600; } small { color: #777; }
figure { margin: 1.2em 0; } figure img { max-width: 100%; height: auto; display: block; }
figcaption { color: #555; font-size: 0.9em; } .wide { overflow-x: auto; } h3 { font-size: 1em; } pre { background: #f6f8fa; padding: 0.8em; font-size: 0.85em; }
"""


def plot_images(result: LabResult) -> dict[str, str]:
    """Every plot of :data:`PLOTS` for ``result``, by id, as a base64 PNG ``data:`` URI (the
    report's images; the web playground's "try it" shows them too). pyplot is not
    thread-safe: draw from one thread at a time.

    :raises ReportError: when matplotlib is not installed.
    """
    require_matplotlib()
    drawn = {
        "plot-win-rates": _win_rates(result),
        "plot-edges": _edges(result),
        "plot-endings": _endings(result),
        "plot-means": _means(result),
        "plot-round-length": _distribution(result, "turns_per_round", "turns in the round"),
        "plot-points": _distribution(result, "points_per_round", "points scored in the round"),
        "plot-game-length": _distribution(result, "rounds_per_game", "rounds in the game"),
    }
    return {key: _png(figure) for key, figure in drawn.items()}


def render_report(result: LabResult, command: str, seconds: float) -> str:
    """The HTML text of a report (every plot of :data:`PLOTS` embedded).

    :raises ReportError: when matplotlib is not installed.
    """
    images = plot_images(result)
    labels = ", ".join(html.escape(arm.label) for arm in result.arms)
    title = f"rummydsl {command}: {labels}"
    meta = [f"{result.games} games of each variant, seed {result.seed}, agents {html.escape(', '.join(result.agents))}, "
            f"{seconds:.1f} s",
            f"why it stopped: {html.escape(result.stop_reason)}"]
    first = html.escape(result.arms[0].label)
    for ok in (True, False):
        which = [html.escape(arm.label) for arm, paired in zip(result.arms[1:], result.paired) if paired == ok]
        if which:
            meta.append(f"{', '.join(which)} against {first}: "
                        + ("the same deals from the same seeds, so game figures are paired (McNemar, paired t)" if ok
                           else "the deals differ, so every test is for independent samples (z, Welch t)")
                        + "; round figures are never paired (z, Welch t)")
    family = sum(1 for row in result.rows for c in row.comparisons if c.test.p is not None)
    meta.append(f"* and red: significant at {ALPHA:g} after Holm's correction over the {family} comparisons "
                "of this run; rates with Wilson 95% intervals, means with t intervals")
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>",
             f"<style>{_STYLE}</style></head><body>",
             f"<h1>{title}</h1><ul class='meta'>" + "".join(f"<li>{m}</li>" for m in meta) + "</ul>"]

    def plot(key: str) -> str:
        return (f"<figure><img id='{key}' alt='{html.escape(PLOTS[key])}' src='{images[key]}'>"
                f"<figcaption>{html.escape(PLOTS[key])}</figcaption></figure>")

    parts.append("<h2>Who wins</h2>" + plot("plot-win-rates") + plot("plot-edges"))
    parts.append("<h2>How rounds end</h2>" + plot("plot-endings"))
    parts.append("<h2>How long, how many points</h2>" + plot("plot-means") + plot("plot-round-length")
                 + plot("plot-points") + plot("plot-game-length"))
    parts.append("<h2>Every figure</h2>" + _table(result))
    parts.append(f"<h2>Differences from {html.escape(result.arms[0].label)}</h2>" + _differences(result))
    parts.append("<h2>Game quality</h2>" + quality_table([arm.label for arm in result.arms],
                                                          [f.quality for f in result.figures], result.pairs,
                                                          result.seed))
    derived = [arm for arm in result.arms if arm.derived is not None]
    if derived:
        parts.append("<h2>The derived variants</h2>" + "".join(
            f"<pre>{html.escape(arm.derived.text)}</pre>" for arm in derived if arm.derived is not None))
    parts.append("</body></html>\n")
    return "".join(parts)


def write_report(result: LabResult, command: str, path: str, seconds: float) -> None:
    """Write the report of ``result`` to ``path``.

    :raises ReportError: when matplotlib is missing or the file cannot be written.
    """
    write_page(render_report(result, command, seconds), path)


STYLE = _STYLE
"""The report's style sheet (the tournament's report shares it)."""


def write_page(page: str, path: str) -> None:
    """Write an HTML page to ``path``.

    :raises ReportError: when the file cannot be written.
    """
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(page)
    except OSError as problem:
        raise ReportError(f"cannot write the report {path!r}: {problem.strerror or problem}") from None


def check_report(name: str | None) -> None:
    """Refuse a report that could not be drawn or written (``None``: none asked for), before
    anything is played.

    :raises ReportError: when matplotlib is missing or the report's folder does not exist.
    """
    if name is None:
        return
    from pathlib import Path

    require_matplotlib()
    folder = Path(name).resolve().parent
    if not folder.is_dir():
        raise ReportError(f"cannot write the report {name!r}: no folder {str(folder)!r}")
