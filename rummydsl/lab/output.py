"""What ``compare`` and ``sweep`` print: a side-by-side text table, or one JSON object.

Rates print as percentages with their Wilson 95% interval, means with their t
interval; each later variant's difference from the first follows with its 95%
interval, the test used and its p-value, and ``*`` when the difference is
significant after Holm's correction over every comparison of the run.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..engine.actions import player_name
from ..simulate import Interval
from .figures import ALPHA, HISTOGRAMS, FigureRow, PairFigures
from .quality import PER_GAME, QUALITY
from .quality_diff import whole_run_differences
from .stats import mean_difference_interval, paired_t, welch
from .run import LabResult

__all__ = ["as_json", "text", "trend", "format_p", "changed_winners", "numeric_values", "quality_json",
           "quality_text", "format_quality", "quality_differences"]

_TEST_NAMES = {"McNemar exact": "McNemar", "McNemar (normal)": "McNemar~", "paired t": "paired t",
               "two-proportion z": "z", "Welch t": "Welch t"}


def format_p(p: float | None) -> str:
    """A p-value for a table.

    >>> format_p(0.04321), format_p(0.00001), format_p(None)
    ('0.043', '<0.001', '-')
    """
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def trend(row: FigureRow, xs: Sequence[float]) -> float | None:
    """The least-squares slope of a figure's estimates against the swept values (per unit of the value).

    >>> from rummydsl.lab.figures import Figure
    >>> row = FigureRow(Figure("k", "k", "mean", "round"), [Interval(v, v, v) for v in (1, 2, 3)], [None] * 3, [])
    >>> trend(row, [0, 5, 10])
    0.2
    """
    if len(xs) < 2 or len(set(xs)) < 2:
        return None
    ys = [e.value for e in row.estimates]
    mx, my = math.fsum(xs) / len(xs), math.fsum(ys) / len(ys)
    spread = math.fsum((x - mx) ** 2 for x in xs)
    return round(math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys)) / spread, 9)


def numeric_values(result: LabResult) -> list[float] | None:
    """The swept values as numbers, for a sweep of one key whose values are all numbers."""
    values = result.extra.get("sweep", {}).get("values")
    if not values or any(len(v) != 1 for v in values):
        return None
    xs = [v[0] for v in values]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs):
        return None
    return [float(x) for x in xs]


def changed_winners(result: LabResult, variant: int) -> int:
    """How many seeds' games had another winner under ``variant`` than under the first (paired runs)."""
    total = 0
    for row in result.rows:
        if row.figure.key.startswith("win.P"):
            discordant = row.comparisons[variant - 1].discordant
            total += discordant[0] if discordant is not None else 0
    return total


def as_json(result: LabResult, command: str, seconds: float) -> dict[str, Any]:
    """The one JSON object of ``compare --json`` and ``sweep --json`` (its shape: docs/lab.md)."""
    names = [player_name(p) for p in range(len(result.agents))]
    xs = numeric_values(result)
    figures = []
    for row in result.rows:
        item = row.as_json()
        if xs is not None:
            item["trend"] = trend(row, xs)
        figures.append(item)
    out: dict[str, Any] = {
        "command": command,
        "seed": result.seed,
        "agents": dict(zip(names, result.agents)),
        "games": result.games,
        "seconds": round(seconds, 3),
        "stop_reason": result.stop_reason,
        "stopped": result.stopped,
        "until": result.until,
        "widest_rate_interval": None if result.widest is None else {
            "width": round(result.widest[0], 6), "figure": result.widest[1], "variant": result.widest[2]},
        "variants": [arm.as_json() for arm in result.arms],
        "baseline": result.arms[0].label,
        "paired": [{"variant": k, "paired": ok,
                    "why": "the same deals from the same seeds" if ok else "the deals differ (deck, seats or hand size)",
                    "changed_winners": changed_winners(result, k) if ok else None}
                   for k, ok in enumerate(result.paired, start=1)],
        "correction": {"method": "holm", "alpha": ALPHA,
                       "family": sum(1 for row in result.rows for c in row.comparisons if c.test.p is not None)},
        "figures": figures,
        "histograms": {key: [[[value, count] for value, count in arm.histograms[key].sorted_items()]
                             for arm in result.figures] for key in HISTOGRAMS},
        "quality": quality_json([arm.label for arm in result.arms], [f.quality for f in result.figures],
                                result.pairs, result.seed),
    }
    out.update(result.extra)
    return out


def quality_differences(pair: PairFigures | None, a: Any = None, b: Any = None, *, seed: int = 0, variant: int = 1,
                        unpaired: bool = False) -> dict[str, tuple[Interval, float | None, str]] | None:
    """A later variant's differences from the first in the game-quality metrics, each the
    difference ``b - a`` with its 95% interval, its p-value and how it was found. Where the
    games pair (``pair``): the per-game metrics of :data:`~rummydsl.lab.quality.PER_GAME` by
    the paired t test (``"paired t"``) and, given the two sets ``a`` and ``b``, the whole-run
    ones of :data:`~rummydsl.lab.quality_diff.WHOLE_RUN` by a paired bootstrap over seeds
    (``"paired bootstrap"``, seeded from ``seed`` and ``variant``). Where they do not (``pair``
    is ``None``): ``None``, unless ``unpaired``, which asks for every metric as independent
    samples (``"Welch t"``; ``"bootstrap"`` of each side)."""
    return _differences(pair, a, b, seed, variant, unpaired)


def _differences(pair: PairFigures | None, a: Any, b: Any, seed: int, variant: int,
                 unpaired: bool) -> dict[str, tuple[Interval, float | None, str]] | None:
    if pair is None and not unpaired:
        return None
    out: dict[str, tuple[Interval, float | None, str]] = {}
    for key in PER_GAME:
        if pair is not None:
            found = pair.differences.get(f"quality.{key}")
            if found is not None:
                out[key] = (found.differences.interval(), paired_t(found.differences).p, "paired t")
        elif a is not None and b is not None:
            out[key] = (mean_difference_interval(a.means[key], b.means[key]), welch(a.means[key], b.means[key]).p,
                        "Welch t")
    if a is not None and b is not None and a.games and b.games:
        whole = whole_run_differences(a.outcomes, b.outcomes, a.players,
                                      paired=None if pair is None else pair.outcomes, seed=seed, variant=variant)
        for key, difference in whole.items():
            out[key] = (difference.interval, difference.p, difference.method)
    return {key: out[key] for key in QUALITY if key in out}


def quality_json(labels: Sequence[str], sets: Sequence[Any],
                 pairs: Sequence[PairFigures | None] = (), seed: int = 0) -> list[dict[str, Any]]:
    """The ``quality`` items of ``--json``: per set of games (a variant, or a tournament's
    games), its label and every metric of :data:`~rummydsl.lab.quality.QUALITY` with its
    interval. Each later variant also has ``differences`` (where its games pair with the
    first's: every metric's paired difference, else ``None``) and ``unpaired_differences``
    (where they do not: every metric's difference as independent samples, else ``None``),
    each metric ``{"value", "low", "high", "p", "method"}`` (docs/lab.md, "Game quality")."""
    items = [{"label": label, "games": figures.games, "metrics": figures.as_json()}
             for label, figures in zip(labels, sets)]

    def entries(found: dict[str, tuple[Interval, float | None, str]] | None) -> dict[str, Any] | None:
        return None if found is None else {
            key: {**interval.as_json(), "p": None if p is None else round(p, 6), "method": method}
            for key, (interval, p, method) in found.items()}

    for k, (item, pair) in enumerate(zip(items[1:], pairs), start=1):
        found = _differences(pair, sets[0], sets[k], seed, k, unpaired=True)
        item["differences"] = entries(found) if pair is not None else None
        item["unpaired_differences"] = entries(found) if pair is None else None
    return items


def format_quality(key: str, interval: Interval) -> str:
    """A metric with its interval for a table (durations as numbers, the rest as shares).

    >>> format_quality("drama", Interval(0.25, 0.2, 0.3)), format_quality("duration_turns", Interval(12, 11, 13))
    ('0.250 [0.200, 0.300]', '12.00 [11.00, 13.00]')
    """
    if key.startswith("duration"):
        return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"
    return f"{interval.value:.3f} [{interval.low:.3f}, {interval.high:.3f}]"


def _signed(key: str, interval: Interval) -> str:
    digits = 2 if key.startswith("duration") else 3
    return f"{interval.value:+.{digits}f} [{interval.low:+.{digits}f}, {interval.high:+.{digits}f}]"


def quality_text(labels: Sequence[str], sets: Sequence[Any], pairs: Sequence[PairFigures | None] = (),
                 seed: int = 0) -> list[str]:
    """The game-quality table: one row a metric, one column a set of games, then each later
    variant's difference from the first (paired where its games pair with the first's, else
    as independent samples; the note under the table says which)."""
    differences: list[tuple[str, dict[str, tuple[Interval, float | None, str]]]] = []
    notes: list[str] = []
    for k, (label, pair) in enumerate(zip(labels[1:], pairs), start=1):
        found = _differences(pair, sets[0], sets[k], seed, k, unpaired=True)
        if found:
            differences.append((label, found))
            notes.append(f"{label} - {labels[0]}: " + ("paired by seed: paired t for the per-game metrics, a paired "
                                                       "bootstrap for the whole-run ones" if pair is not None else
                                                       "the deals differ: Welch t and a bootstrap of each side"))
    header = ["game quality (docs/lab.md)"] + list(labels) + [f"{label} - {labels[0]}" for label, _ in differences]
    cells = [header]
    estimates = [figures.estimates() for figures in sets]
    for key, (name, _meaning, _source) in QUALITY.items():
        row = [name] + [format_quality(key, e[key]) for e in estimates]
        for _label, found in differences:
            row.append(_signed(key, found[key][0]) if key in found else "-")
        cells.append(row)
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    lines = []
    for index, cell in enumerate(cells):
        lines.append("  ".join(v.ljust(widths[i]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(cell)).rstrip())
        if index == 0:
            lines.append("-" * len(lines[-1]))
    if notes:
        lines.append("differences with 95% intervals; " + "; ".join(notes))
    return lines


def _estimate(row: FigureRow, interval: Interval) -> str:
    if row.figure.kind == "rate":
        return f"{interval.value * 100:5.1f}% [{interval.low * 100:4.1f}, {interval.high * 100:4.1f}]"
    return f"{interval.value:.2f} [{interval.low:.2f}, {interval.high:.2f}]"


def _difference(row: FigureRow, interval: Interval) -> str:
    if row.figure.kind == "rate":
        return f"{interval.value * 100:+5.1f} [{interval.low * 100:+.1f}, {interval.high * 100:+.1f}]"
    return f"{interval.value:+.2f} [{interval.low:+.2f}, {interval.high:+.2f}]"


def text(result: LabResult, command: str, seconds: float) -> str:
    """The human-readable table of a run."""
    arms = result.arms
    players = len(result.agents)
    first = arms[0].label
    lines = [f"{command}: {', '.join(arm.label for arm in arms)}: {result.games} game"
             f"{'s' if result.games != 1 else ''} each in {seconds:.1f} s "
             f"(seed {result.seed}; agents {', '.join(result.agents)})",
             f"stopped: {result.stop_reason}"]
    for k, ok in enumerate(result.paired, start=1):
        how = ("paired by seed (the same deals): McNemar for game rates, paired t for game means" if ok else
               "not paired (the deals differ): z for rates, Welch t for means")
        lines.append(f"{arms[k].label} against {first}: {how}; round figures never pair (z, Welch t)")
    lines.append("")
    width = max(len(row.figure.label) for row in result.rows) + 2
    cells: list[list[str]] = []
    header = ["figure"] + [arm.label for arm in arms]
    for arm in arms[1:]:
        header += [f"{arm.label} - {first}", "test", "p (Holm)", ""]
    xs = numeric_values(result)
    if xs is not None:
        header.append("slope/unit")
    for row in result.rows:
        cell = [row.figure.label] + [_estimate(row, e) for e in row.estimates]
        for comparison in row.comparisons:
            cell += [_difference(row, comparison.difference), _TEST_NAMES.get(comparison.test.name, comparison.test.name),
                     format_p(comparison.p_holm), "*" if comparison.significant else ""]
        if xs is not None:
            slope = trend(row, xs)
            cell.append("-" if slope is None else (f"{slope * 100:+.2f} pp" if row.figure.kind == "rate"
                                                    else f"{slope:+.3f}"))
        cells.append(cell)
    widths = [max(len(c[i]) for c in [header] + cells) for i in range(len(header))]
    widths[0] = width
    for index, cell in enumerate([header] + cells):
        lines.append("  ".join(value.ljust(widths[i]) if i == 0 else value.rjust(widths[i])
                               for i, value in enumerate(cell)).rstrip())
        if index == 0:
            lines.append("-" * len(lines[-1]))
    family = sum(1 for row in result.rows for c in row.comparisons if c.test.p is not None)
    lines.append("")
    lines.append(f"rates in %, differences in percentage points; [..] 95% intervals; * significant at "
                 f"{ALPHA:g} after Holm's correction over the {family} comparisons of this run")
    if players == 2:
        lines.append("with two players the first dealer's and the first player's game rates add up to 100%")
    if len(arms) > 2:
        lines.append(f"each variant is compared with the first, {first}")
    for k, ok in enumerate(result.paired, start=1):
        if ok:
            changed = changed_winners(result, k)
            lines.append(f"{arms[k].label}: {changed} of {result.games} seeds "
                         f"({changed / max(result.games, 1):.1%}) had a different winner than under {first}")
    if result.stopped:
        lines.append(f"stopped early: {result.stopped}")
    lines.append("")
    lines += quality_text([arm.label for arm in arms], [f.quality for f in result.figures], result.pairs, result.seed)
    return "\n".join(lines) + "\n"
