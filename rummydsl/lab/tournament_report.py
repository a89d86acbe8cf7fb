"""``tournament --report FILE.html``: one self-contained page of a tournament's ratings, pairs and game quality.

Drawn as the lab's report is (:mod:`rummydsl.lab.report`): matplotlib's Agg backend,
the plots embedded as base64 PNG ``data:`` images, the style inline, no URL. Each plot
is an ``<img>`` with an ``id`` from :data:`TOURNAMENT_PLOTS` and an ``alt`` text.
"""

from __future__ import annotations

import html

from .report import STYLE, _colour, _new, _png, quality_table, require_matplotlib, write_page
from .tournament import TournamentResult

__all__ = ["TOURNAMENT_PLOTS", "render_tournament_report", "write_tournament_report"]

TOURNAMENT_PLOTS: dict[str, str] = {
    "plot-ratings": "Each agent's Bradley-Terry rating on the Elo scale, with its bootstrap 95% interval",
    "plot-pairs": "Each pair's score (the first agent's wins plus half the draws) with its paired and "
                  "unpaired 95% intervals, against an even share",
}
"""The id and alt text of every plot a tournament report has."""


def _ratings(result: TournamentResult) -> str:
    agents = sorted(result.agents, key=lambda a: a.rating)
    figure, (ax,) = _new(8.5, 0.9 + 0.45 * len(agents))
    for k, agent in enumerate(agents):
        ax.errorbar([agent.rating], [k], xerr=[[max(0.0, agent.rating - agent.low)], [max(0.0, agent.high - agent.rating)]],
                    fmt="o", color=_colour(k), capsize=3, markersize=6)
    ax.set_yticks(range(len(agents)))
    ax.set_yticklabels([a.name for a in agents])
    ax.axvline(0, color="#555555", linestyle="--", linewidth=1)
    ax.set_xlabel("rating (Elo scale, mean 0), 95% bootstrap interval over deals")
    ax.set_title("Ratings", loc="left", fontsize=11)
    return _png(figure)


def _pairs(result: TournamentResult) -> str:
    pairs = result.pairs
    figure, (ax,) = _new(8.5, 1.0 + 0.6 * len(pairs))
    for k, pair in enumerate(pairs):
        y = len(pairs) - 1 - k
        for shift, interval, colour, label in ((0.12, pair.interval(), "#1f77b4", "paired (over deals)"),
                                               (-0.12, pair.unpaired(), "#ff7f0e", "unpaired (Wilson)")):
            ax.errorbar([100 * pair.score], [y + shift], fmt="o", color=colour, capsize=3, markersize=5,
                        xerr=[[max(0.0, 100 * (pair.score - interval.low))], [max(0.0, 100 * (interval.high - pair.score))]],
                        label=label if k == 0 else None)
    ax.set_yticks(range(len(pairs)))
    ax.set_yticklabels([f"{p.a} vs {p.b}" for p in reversed(pairs)])
    ax.axvline(50, color="#555555", linestyle="--", linewidth=1)
    ax.set_xlabel("the first agent's score (%), 95% intervals; dashed: an even share")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title("Pairs", loc="left", fontsize=11)
    return _png(figure)


def render_tournament_report(result: TournamentResult, seconds: float) -> str:
    """The HTML text of a tournament's report.

    :raises ReportError: when matplotlib is not installed.
    """
    require_matplotlib()
    images = {"plot-ratings": _ratings(result), "plot-pairs": _pairs(result)}
    title = f"rummydsl tournament: {html.escape(result.variant)}, {html.escape(', '.join(a.name for a in result.agents))}"
    narrowing = result.narrowing()
    meta = [f"{result.games} games on {result.deals} deals, seed {result.seed}, {result.players} seats, {seconds:.1f} s",
            f"why it stopped: {html.escape(result.stop_reason)}",
            "every pair meets in every seating of every deal (the same cards, the seats swapped)"]
    if narrowing is not None:
        meta.append(f"paired deals make the pairs' intervals {abs(100 * narrowing):.0f}% "
                    f"{'narrower' if narrowing >= 0 else 'wider'} than unpaired ones (summed over the pairs)")
    if result.budget is not None:
        meta.append(f"budget: {result.budget:g} s of thinking a seat a game; the seat that runs over forfeits")

    def plot(key: str) -> str:
        return (f"<figure><img id='{key}' alt='{html.escape(TOURNAMENT_PLOTS[key])}' src='{images[key]}'>"
                f"<figcaption>{html.escape(TOURNAMENT_PLOTS[key])}</figcaption></figure>")

    agents = "".join(
        f"<tr><td class='name'>{html.escape(a.name)}</td><td>{a.rating:.0f}</td><td>{a.low:.0f} to {a.high:.0f}</td>"
        f"<td>{a.moves}</td><td>{a.ms_per_move:.2f}</td><td>{a.most_seconds:.2f}</td><td>{a.forfeits}</td></tr>"
        for a in sorted(result.agents, key=lambda a: -a.rating))
    pairs = "".join(
        f"<tr><td class='name'>{html.escape(p.a)}</td><td class='name'>{html.escape(p.b)}</td><td>{p.games}</td>"
        f"<td>{p.a_wins}</td><td>{p.b_wins}</td><td>{p.draws}</td><td>{p.score:.1%}</td>"
        f"<td>{p.interval().low:.1%} to {p.interval().high:.1%}</td>"
        f"<td>{p.unpaired().low:.1%} to {p.unpaired().high:.1%}</td></tr>" for p in result.pairs)
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{title}</h1><ul class='meta'>" + "".join(f"<li>{m}</li>" for m in meta) + "</ul>",
             "<h2>Ratings</h2>" + plot("plot-ratings"),
             "<div class='wide'><table><thead><tr><th>agent</th><th>rating</th><th>95% interval</th><th>moves</th>"
             "<th>ms a move</th><th>most s in a game</th><th>forfeits</th></tr></thead>"
             f"<tbody>{agents}</tbody></table></div>",
             "<h2>Pairs</h2>" + plot("plot-pairs"),
             "<div class='wide'><table><thead><tr><th>a</th><th>b</th><th>games</th><th>a wins</th><th>b wins</th>"
             "<th>draws</th><th>a's score</th><th>95% paired</th><th>95% unpaired</th></tr></thead>"
             f"<tbody>{pairs}</tbody></table></div>"]
    if result.quality is not None:
        parts.append("<h2>Game quality</h2>" + quality_table(["every game"], [result.quality]))
    parts.append("</body></html>\n")
    return "".join(parts)


def write_tournament_report(result: TournamentResult, path: str, seconds: float) -> None:
    """Write the report of ``result`` to ``path``.

    :raises ReportError: when matplotlib is missing or the file cannot be written.
    """
    write_page(render_tournament_report(result, seconds), path)
