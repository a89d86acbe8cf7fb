"""``simulate --report FILE.html``: one self-contained page of a simulation's figures, plots and game quality.

Drawn as the lab's report is (:mod:`rummydsl.lab.report`): matplotlib's Agg backend,
the plots embedded as base64 PNG ``data:`` images, the style inline, no URL. The
figures are the ones ``simulate --json`` prints (:meth:`Statistics.as_json
<rummydsl.simulate.Statistics.as_json>`), read from that object, so the page and the
JSON never disagree; each plot is an ``<img>`` with an ``id`` from
:data:`SIMULATE_PLOTS` and an ``alt`` text.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Sequence

from .figures import HISTOGRAMS
from .quality import QUALITY
from .report import STYLE, _colour, _legend, _new, _png, quality_table, require_matplotlib, write_page

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from ..simulate import Statistics

__all__ = ["SIMULATE_PLOTS", "simulate_plot_ids", "render_simulate_report", "write_simulate_report"]

SIMULATE_PLOTS: dict[str, str] = {
    "plot-win-rates": "Who wins: each seat's win rate, and the dealer's and the first player's, with 95% Wilson "
                      "intervals, against an even share",
    "plot-endings": "How rounds end: the share of each ending, with 95% Wilson intervals",
    "plot-round-length": "The distribution of round lengths (turns per round)",
    "plot-points": "The distribution of each seat's points per game (or hand)",
    "plot-quality": "The game-quality metrics that are shares (0 to 1), with 95% intervals",
}
"""The id and alt text of every plot a simulate report can have (``plot-quality`` only with ``--games``)."""

_SHARES = [key for key in QUALITY if not key.startswith("duration")]
"""The quality metrics drawn on a 0-to-1 axis (the durations are in the table)."""


def simulate_plot_ids(data: dict[str, Any]) -> list[str]:
    """The plots a report of the ``simulate --json`` object ``data`` holds."""
    return [key for key in SIMULATE_PLOTS if key != "plot-quality" or "quality" in data]


def _unit(data: dict[str, Any]) -> str:
    return "hand" if data["mode"] == "hands" else "game"


def _rate_rows(data: dict[str, Any]) -> list[tuple[str, dict[str, float]]]:
    """(label, {"rate", "low", "high"}) of each win rate the report draws, top first."""
    unit = _unit(data)
    rows = [(f"{seat} ({agent}) wins the {unit}", data["win_rate"][seat]) for seat, agent in data["agents"].items()]
    if data["mode"] == "games":
        rows += [("the first dealer wins the game", data["dealer"]["games"]),
                 ("the first to play wins the game", data["first_player"]["games"])]
    rows += [("the dealer wins the round", data["dealer"]["rounds"]),
             ("the first to play wins the round", data["first_player"]["rounds"])]
    return rows


def _errorbars(ax: "Axes", rows: Sequence[tuple[str, dict[str, float]]], scale: float = 100.0) -> None:
    """Each row a point with its horizontal 95% error bar (times ``scale``: percent), top first."""
    for k, (_label, value) in enumerate(rows):
        centre = scale * value["rate"]
        # never below 0: an interval at 0% or 100% can end a rounding error past its estimate
        ax.errorbar([centre], [len(rows) - 1 - k], fmt="o", color=_colour(0), capsize=3, markersize=5,
                    xerr=[[max(0.0, centre - scale * value["low"])], [max(0.0, scale * value["high"] - centre)]])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in reversed(rows)])
    ax.set_ylim(-0.6, len(rows) - 0.4)


def _win_rates(data: dict[str, Any]) -> str:
    rows = _rate_rows(data)
    figure, (ax,) = _new(9.5, 1.0 + 0.45 * len(rows))
    _errorbars(ax, rows)
    players = len(data["agents"])
    ax.axvline(100 / players, color="#555555", linestyle="--", linewidth=1)
    ax.set_xlabel(f"won (%), 95% Wilson intervals; dashed: an even share ({100 / players:.0f}%)")
    ax.set_title("Who wins", loc="left", fontsize=11)
    return _png(figure)


def _ending_rows(data: dict[str, Any]) -> list[tuple[str, dict[str, float]]]:
    rows = [(ending.replace("_", " "), value) for ending, value in data["endings"].items()]
    if "knock" in data["endings"] or data["undercuts"]["count"]:
        rows.append(("undercut (among the knocks)", data["undercuts"]))
    return rows


def _endings(data: dict[str, Any]) -> str:
    rows = _ending_rows(data)
    figure, (ax,) = _new(9.5, 1.0 + 0.45 * max(1, len(rows)))
    _errorbars(ax, rows)
    ax.set_xlim(-2, 102)
    ax.set_xlabel(f"share of the {data['hands']} rounds (%), 95% Wilson intervals")
    ax.set_title("How rounds end", loc="left", fontsize=11)
    return _png(figure)


def _step(ax: "Axes", values: Sequence[int], colour: str, label: str | None) -> int:
    """A step histogram of ``values`` in percent, about 40 bins at most; returns the bin width."""
    if not values:
        return 1
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // 40))
    counts: dict[int, int] = {}
    for value in values:
        start = value - (value - low) % width
        counts[start] = counts.get(start, 0) + 1
    starts = list(range(low, high + 1, width))
    ax.step([s + (width - 1) / 2 for s in starts], [100 * counts.get(s, 0) / len(values) for s in starts],
            where="mid", color=colour, label=label, linewidth=1.6)
    return width


def _distribution(samples: Sequence[tuple[str, Sequence[int]]], xlabel: str, title: str) -> str:
    figure, (ax,) = _new(9.5, 3.4)
    ax.grid(axis="y", alpha=0.3)
    widths = [_step(ax, values, _colour(k), label if len(samples) > 1 else None)
              for k, (label, values) in enumerate(samples)]
    width = max(widths, default=1)
    ax.set_xlabel(xlabel + (f" (bins of about {width})" if width > 1 else ""))
    ax.set_ylabel("share (%)")
    if len(samples) > 1:
        _legend(ax)
    ax.set_title(title, loc="left", fontsize=11)
    return _png(figure)


def _quality(data: dict[str, Any]) -> str:
    metrics = data["quality"]
    rows = [(QUALITY[key][0], {"rate": metrics[key]["value"], "low": metrics[key]["low"],
                                "high": metrics[key]["high"]}) for key in _SHARES]
    figure, (ax,) = _new(9.5, 1.0 + 0.45 * len(rows))
    _errorbars(ax, rows, scale=1.0)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("value (0 to 1; the formulas: docs/lab.md, \"Game quality\"), 95% intervals")
    ax.set_title("Game quality", loc="left", fontsize=11)
    return _png(figure)


def _images(stats: Statistics, data: dict[str, Any]) -> dict[str, str]:
    require_matplotlib()
    unit = _unit(data)
    images = {
        "plot-win-rates": _win_rates(data),
        "plot-endings": _endings(data),
        "plot-round-length": _distribution([("every round", stats.turns)], "turns in the round",
                                           HISTOGRAMS["turns_per_round"].capitalize()),
        "plot-points": _distribution([(f"{seat} ({agent})", stats.per_unit_points[p])
                                      for p, (seat, agent) in enumerate(data["agents"].items())],
                                     f"points in the {unit}", f"Points per {unit}"),
    }
    if "quality" in data:
        images["plot-quality"] = _quality(data)
    return images


def _interval(value: dict[str, float], key: str = "rate", rate: bool = True) -> str:
    if rate:
        return (f"{value[key]:.1%} <small>[{value['low']:.1%}, {value['high']:.1%}]</small>")
    return f"{value[key]:.2f} <small>[{value['low']:.2f}, {value['high']:.2f}]</small>"


def _tables(data: dict[str, Any]) -> tuple[str, str, str]:
    unit = _unit(data)
    seats = "".join(
        f"<tr><td class='name'>{html.escape(seat)}</td><td class='name'>{html.escape(agent)}</td>"
        f"<td>{data['wins'][seat]}</td><td>{_interval(data['win_rate'][seat])}</td><td>{data['points'][seat]}</td>"
        f"<td>{_interval(data['mean_points'][seat], 'mean', rate=False)}</td></tr>"
        for seat, agent in data["agents"].items())
    wins = (f"<div class='wide'><table><thead><tr><th>seat</th><th>agent</th><th>{unit}s won</th>"
            f"<th>rate [95%]</th><th>points</th><th>mean a {unit} [95%]</th></tr></thead><tbody>{seats}</tbody>"
            "</table></div>")
    edges = "".join(f"<tr><td class='name'>{html.escape(label)}</td><td>{value['won']} of {value['of']}</td>"
                    f"<td>{_interval(value)}</td></tr>"
                    for label, value in _rate_rows(data)[len(data["agents"]):])
    wins += ("<div class='wide'><table><thead><tr><th>who</th><th>won</th><th>rate [95%]</th></tr></thead>"
             f"<tbody>{edges}</tbody></table></div>")
    endings = "".join(f"<tr><td class='name'>{html.escape(label)}</td><td>{value['count']}</td>"
                      f"<td>{_interval(value)}</td></tr>" for label, value in _ending_rows(data))
    rounds = (f"<div class='wide'><table><thead><tr><th>ending</th><th>rounds</th><th>share [95%]</th></tr></thead>"
              f"<tbody>{endings}</tbody></table></div>"
              f"<p class='meta'>turns per round: {_interval(data['turns_per_round'], 'mean', rate=False)}</p>")
    stopped = "".join(f"<li>{html.escape(reason)}</li>" for reason in data["stopped"])
    return wins, rounds, (f"<h2>Stopped early</h2><ul class='meta'>{stopped}</ul>" if stopped else "")


def render_simulate_report(stats: Statistics, seconds: float) -> str:
    """The HTML text of a simulation's report (every plot of :func:`simulate_plot_ids` embedded).

    :raises ReportError: when matplotlib is not installed.
    """
    data = stats.as_json(seconds)
    images = _images(stats, data)
    unit = _unit(data)
    units = data["hands"] if unit == "hand" else data["games"]
    title = html.escape(f"rummydsl simulate: {data['variant']}")
    agents = ", ".join(f"{seat} {agent}" for seat, agent in data["agents"].items())
    meta = [html.escape(f"{units} {unit}{'s' if units != 1 else ''}, {data['hands']} rounds, seed {data['seed']}, "
                        f"agents {agents}, {seconds:.1f} s"),
            "rates with Wilson 95% intervals, means with Student t intervals (a count's never below 0: "
            "docs/lab.md, \"Intervals of counts\"); the same figures as <code>simulate --json</code>"]

    def plot(key: str) -> str:
        return (f"<figure><img id='{key}' alt='{html.escape(SIMULATE_PLOTS[key])}' src='{images[key]}'>"
                f"<figcaption>{html.escape(SIMULATE_PLOTS[key])}</figcaption></figure>")

    wins, rounds, stopped = _tables(data)
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{title}</h1><ul class='meta'>" + "".join(f"<li>{m}</li>" for m in meta) + "</ul>",
             "<h2>Who wins</h2>" + plot("plot-win-rates") + wins,
             "<h2>How rounds end</h2>" + plot("plot-endings") + rounds,
             "<h2>How long, how many points</h2>" + plot("plot-round-length") + plot("plot-points")]
    if stats.quality is not None:
        parts.append("<h2>Game quality</h2>" + plot("plot-quality")
                     + quality_table([f"{units} games"], [stats.quality]))
    parts.append(stopped)
    parts.append("</body></html>\n")
    return "".join(parts)


def write_simulate_report(stats: Statistics, path: str, seconds: float) -> None:
    """Write the report of ``stats`` to ``path``.

    :raises ReportError: when matplotlib is missing or the file cannot be written.
    """
    write_page(render_simulate_report(stats, seconds), path)
