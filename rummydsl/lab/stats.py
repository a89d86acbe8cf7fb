"""Streaming statistics: accumulators that keep no per-game lists, and tests of difference.

Every accumulator here takes one observation at a time and keeps a few numbers
(or, for :class:`Histogram`, a bounded table), so a run of a million games uses
the memory of a run of ten.

* :class:`Mean`: Welford's running mean and variance, with a Student t 95% interval.
* :class:`Rate`: successes of trials, with a Wilson 95% interval.
* :class:`Histogram`: counts of integer values, the values above a cap pooled.
* :class:`PairedDifference`: per-game differences ``B - A`` of one figure under two
  variants played from the same seed, with the discordant pairs for 0/1 figures.

The tests return a :class:`Test` (its name and two-sided p-value):
:func:`mcnemar` (exact binomial on discordant pairs), :func:`paired_t`,
:func:`two_proportions` (z), :func:`welch`; :func:`holm` adjusts a family of
p-values for multiple comparisons.

>>> m = Mean()
>>> for x in (1, 2, 3, 4):
...     m.add(x)
>>> m.count, m.mean, round(m.variance, 4)
(4, 2.5, 1.6667)
>>> round(m.interval().low, 3)
0.446
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from ..simulate import Interval, t975, wilson

__all__ = [
    "Mean",
    "Rate",
    "Histogram",
    "PairedDifference",
    "Test",
    "mcnemar",
    "paired_t",
    "two_proportions",
    "welch",
    "holm",
    "t_two_sided",
    "normal_two_sided",
    "Z95",
    "rate_difference_interval",
    "mean_difference_interval",
    "paired_difference_interval",
]

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""

EXACT_LIMIT = 100_000
"""McNemar's test is exact (a binomial sum) up to this many discordant pairs, then normal."""


@dataclass
class Mean:
    """A running mean and variance (Welford's method): one observation at a time, no list kept."""

    count: int = 0
    mean: float = 0.0
    m2: float = 0.0
    """The sum of squared deviations from the running mean."""
    lowest: float = math.inf
    """The least value taken (``inf`` before the first)."""

    def add(self, value: float) -> None:
        """Take one observation."""
        self.count += 1
        self.lowest = min(self.lowest, value)
        delta = value - self.mean
        self.mean += delta / self.count
        self.m2 += delta * (value - self.mean)

    @property
    def variance(self) -> float:
        """The sample variance (``n - 1`` in the denominator; 0 for fewer than two values)."""
        return self.m2 / (self.count - 1) if self.count > 1 else 0.0

    def interval(self, floor: float | None = None) -> Interval:
        """The mean with its Student t 95% interval (no spread known from one value), its low
        end raised to ``floor`` where it falls below (``floor=0`` for a count, whose mean is
        never below 0: docs/lab.md, "Intervals of counts").

        >>> Mean().interval()
        Interval(value=0.0, low=0.0, high=0.0)
        >>> m = Mean()
        >>> m.add(1); m.add(42)
        >>> round(m.interval().low, 2), m.interval(floor=0).low
        (-238.98, 0.0)
        """
        if self.count < 2:
            return Interval(self.mean, self.mean, self.mean)
        half = t975(self.count - 1) * math.sqrt(self.variance / self.count)
        low = self.mean - half
        return Interval(self.mean, low if floor is None or low >= floor else float(floor), self.mean + half)


@dataclass
class Rate:
    """Successes out of trials, with a Wilson 95% interval.

    >>> r = Rate()
    >>> for hit in (True, False, True, True):
    ...     r.add(hit)
    >>> r.successes, r.trials, r.interval().value
    (3, 4, 0.75)
    """

    successes: int = 0
    trials: int = 0

    def add(self, success: bool) -> None:
        """Take one trial."""
        self.trials += 1
        self.successes += bool(success)

    def interval(self) -> Interval:
        """The rate with its Wilson 95% score interval."""
        return wilson(self.successes, self.trials)


@dataclass
class Histogram:
    """Counts of integer values; values above ``cap`` are pooled at ``cap`` (so memory is bounded).

    >>> h = Histogram(cap=5)
    >>> for v in (1, 1, 3, 9):
    ...     h.add(v)
    >>> h.counts, h.overflow
    ({1: 2, 3: 1, 5: 1}, 1)
    """

    cap: int = 1000
    counts: dict[int, int] = field(default_factory=dict)
    overflow: int = 0
    """How many values were above the cap (counted at the cap)."""

    def add(self, value: int) -> None:
        """Count one value (a value below 0 counts at 0)."""
        value = max(0, value)
        if value > self.cap:
            self.overflow += 1
            value = self.cap
        self.counts[value] = self.counts.get(value, 0) + 1

    def sorted_items(self) -> list[tuple[int, int]]:
        """The (value, count) pairs in value order."""
        return sorted(self.counts.items())


@dataclass
class PairedDifference:
    """Per-game differences ``b - a`` of one figure, the same seed under two variants.

    For a 0/1 figure the discordant pairs are kept too: ``only_a`` games where
    only ``a`` was 1, ``only_b`` where only ``b`` was.

    >>> d = PairedDifference()
    >>> for a, b in ((1, 0), (0, 1), (0, 1), (1, 1)):
    ...     d.add(a, b)
    >>> d.only_a, d.only_b, d.differences.mean
    (1, 2, 0.25)
    """

    differences: Mean = field(default_factory=Mean)
    only_a: int = 0
    only_b: int = 0

    def add(self, a: float, b: float) -> None:
        """Take the figure of one game under both variants."""
        self.differences.add(b - a)
        if a and not b:
            self.only_a += 1
        elif b and not a:
            self.only_b += 1


@dataclass(frozen=True)
class Test:
    """A test of difference: which test, and its two-sided p-value (``None``: too little data)."""

    name: str
    p: float | None


def normal_two_sided(z: float) -> float:
    """The two-sided p-value of a standard normal statistic.

    >>> round(normal_two_sided(1.959963984540054), 4)
    0.05
    """
    return math.erfc(abs(z) / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 400):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return result


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """The two-sided p-value of a Student t statistic with ``df`` degrees of freedom.

    >>> round(t_two_sided(2.2281, 10), 4), round(t_two_sided(0.0, 5), 4)
    (0.05, 1.0)
    """
    if df <= 0:
        return 1.0
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def mcnemar(only_a: int, only_b: int) -> Test:
    """McNemar's test on the discordant pairs: exact binomial (normal past :data:`EXACT_LIMIT`).

    Under "no difference" each discordant game is as likely to favour either
    variant, so the count favouring one is binomial(``only_a + only_b``, 1/2).

    >>> round(mcnemar(2, 12).p, 4)
    0.0129
    >>> mcnemar(0, 0)
    Test(name='McNemar exact', p=1.0)
    """
    n = only_a + only_b
    low = min(only_a, only_b)
    if n > EXACT_LIMIT:
        z = (abs(only_a - only_b) - 1) / math.sqrt(n)
        return Test("McNemar (normal)", min(1.0, normal_two_sided(max(z, 0.0))))
    if n == 0 or only_a == only_b:
        return Test("McNemar exact", 1.0)
    log_half = n * math.log(0.5)
    log_n = math.lgamma(n + 1)
    terms = [log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + log_half for k in range(low + 1)]
    top = max(terms)
    tail = math.exp(top) * math.fsum(math.exp(t - top) for t in terms)
    return Test("McNemar exact", min(1.0, 2 * tail))


def paired_t(differences: Mean) -> Test:
    """The paired t test that the per-game differences average 0.

    >>> d = Mean()
    >>> for x in (1, 2, 0, 1, 2, 1):
    ...     d.add(x)
    >>> round(paired_t(d).p, 4)
    0.0127
    """
    n = differences.count
    if n < 2:
        return Test("paired t", None)
    if differences.variance == 0.0:
        return Test("paired t", 1.0 if differences.mean == 0.0 else 0.0)
    t = differences.mean / math.sqrt(differences.variance / n)
    return Test("paired t", t_two_sided(t, n - 1))


def two_proportions(a: Rate, b: Rate) -> Test:
    """The two-proportion z test (pooled), for rates from independent samples.

    >>> round(two_proportions(Rate(40, 100), Rate(55, 100)).p, 4)
    0.0337
    """
    if a.trials == 0 or b.trials == 0:
        return Test("two-proportion z", None)
    pooled = (a.successes + b.successes) / (a.trials + b.trials)
    spread = pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials)
    difference = b.successes / b.trials - a.successes / a.trials
    if spread == 0.0:
        return Test("two-proportion z", 1.0 if difference == 0.0 else 0.0)
    return Test("two-proportion z", normal_two_sided(difference / math.sqrt(spread)))


def welch(a: Mean, b: Mean) -> Test:
    """Welch's t test for means of independent samples (variances not assumed equal).

    >>> a, b = Mean(), Mean()
    >>> for x in (1, 2, 3, 4):
    ...     a.add(x)
    >>> for x in (3, 4, 5, 6):
    ...     b.add(x)
    >>> round(welch(a, b).p, 4)
    0.071
    """
    if a.count < 2 or b.count < 2:
        return Test("Welch t", None)
    va, vb = a.variance / a.count, b.variance / b.count
    if va + vb == 0.0:
        return Test("Welch t", 1.0 if a.mean == b.mean else 0.0)
    t = (b.mean - a.mean) / math.sqrt(va + vb)
    return Test("Welch t", t_two_sided(t, _welch_df(a, b)))


def _welch_df(a: Mean, b: Mean) -> float:
    """The Welch-Satterthwaite degrees of freedom."""
    va, vb = a.variance / a.count, b.variance / b.count
    denominator = va * va / (a.count - 1) + vb * vb / (b.count - 1)
    return (va + vb) ** 2 / denominator if denominator else float(a.count + b.count - 2)


def paired_difference_interval(differences: Mean) -> Interval:
    """The mean per-game difference with its t 95% interval."""
    return differences.interval()


def rate_difference_interval(a: Rate, b: Rate) -> Interval:
    """``rate(b) - rate(a)`` for independent samples, with its Wald 95% interval.

    >>> i = rate_difference_interval(Rate(40, 100), Rate(55, 100))
    >>> round(i.value, 2), round(i.low, 3), round(i.high, 3)
    (0.15, 0.013, 0.287)
    """
    if a.trials == 0 or b.trials == 0:
        return Interval(0.0, -1.0, 1.0)
    pa, pb = a.successes / a.trials, b.successes / b.trials
    half = Z95 * math.sqrt(pa * (1 - pa) / a.trials + pb * (1 - pb) / b.trials)
    return Interval(pb - pa, pb - pa - half, pb - pa + half)


def mean_difference_interval(a: Mean, b: Mean) -> Interval:
    """``mean(b) - mean(a)`` for independent samples, with its Welch 95% interval."""
    difference = b.mean - a.mean
    if a.count < 2 or b.count < 2:
        return Interval(difference, difference, difference)
    half = t975(max(1, int(_welch_df(a, b)))) * math.sqrt(a.variance / a.count + b.variance / b.count)
    return Interval(difference, difference - half, difference + half)


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of a family of p-values (``None`` stays ``None``).

    An adjusted p-value below 0.05 keeps the chance of any false "differs" in the
    whole family under 5%.

    >>> holm([0.01, 0.04, 0.03, None])
    [0.03, 0.06, 0.06, None]
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    m = len(tested)
    for rank, (p, index) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[index] = round(running, 12)
    return adjusted
