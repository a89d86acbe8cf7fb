"""The streaming accumulators agree with two-pass formulas, and the tests with exact references."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummydsl.lab.stats import (
    Histogram,
    Mean,
    PairedDifference,
    Rate,
    holm,
    mcnemar,
    mean_difference_interval,
    normal_two_sided,
    paired_t,
    t_two_sided,
    two_proportions,
    welch,
)
from rummydsl.simulate import mean_interval

values = st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=0, max_size=60)


@given(values)
def test_welford_agrees_with_the_two_pass_interval(xs: list[float]) -> None:
    mean = Mean()
    for x in xs:
        mean.add(x)
    expected = mean_interval(xs)
    got = mean.interval()
    for a, b in ((got.value, expected.value), (got.low, expected.low), (got.high, expected.high)):
        assert a == pytest.approx(b, rel=1e-7, abs=1e-6)


@pytest.mark.parametrize("t,df,p", [
    (12.7062, 1, 0.05), (4.3027, 2, 0.05), (2.2281, 10, 0.05), (2.0423, 30, 0.05),
    (2.7638, 10, 0.02), (3.1693, 10, 0.01), (1.0, 1, 0.5), (0.0, 7, 1.0),
])
def test_t_p_values_match_the_tables(t: float, df: int, p: float) -> None:
    assert t_two_sided(t, df) == pytest.approx(p, abs=2e-4)
    assert t_two_sided(-t, df) == pytest.approx(p, abs=2e-4)


def test_t_tends_to_the_normal() -> None:
    assert t_two_sided(1.96, 10 ** 7) == pytest.approx(normal_two_sided(1.96), abs=1e-6)


def _binomial_two_sided(a: int, b: int) -> float:
    n = a + b
    tail = sum(math.comb(n, k) for k in range(min(a, b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


@pytest.mark.parametrize("a,b", [(0, 1), (1, 0), (3, 9), (10, 10), (0, 25), (17, 40), (200, 260)])
def test_mcnemar_is_the_exact_binomial(a: int, b: int) -> None:
    assert mcnemar(a, b).p == pytest.approx(_binomial_two_sided(a, b), rel=1e-9)


def test_mcnemar_goes_normal_for_huge_counts_and_stays_close() -> None:
    exact = mcnemar(49_000, 50_990).p
    normal = mcnemar(49_500, 51_000).p
    assert mcnemar(49_500, 51_000).name == "McNemar (normal)" and mcnemar(10, 12).name == "McNemar exact"
    assert exact is not None and normal is not None and normal < 0.001 and exact < 0.001


def test_paired_t_of_constant_differences() -> None:
    same, shifted = Mean(), Mean()
    for _ in range(5):
        same.add(0.0)
        shifted.add(2.0)
    assert paired_t(same).p == 1.0 and paired_t(shifted).p == 0.0 and paired_t(Mean()).p is None


def test_paired_difference_counts_discordant_games() -> None:
    pair = PairedDifference()
    for a, b in [(1, 1), (1, 0), (0, 1), (0, 1), (0, 0)]:
        pair.add(a, b)
    assert (pair.only_a, pair.only_b, pair.differences.count) == (1, 2, 5)
    assert pair.differences.mean == pytest.approx(0.2)


def test_two_proportions_and_welch_see_a_real_difference_and_no_false_one() -> None:
    assert two_proportions(Rate(500, 1000), Rate(500, 1000)).p == pytest.approx(1.0)
    p = two_proportions(Rate(450, 1000), Rate(550, 1000)).p
    assert p is not None and p < 1e-5
    a, b = Mean(), Mean()
    for i in range(100):
        a.add(i % 10)
        b.add(i % 10 + 3)
    p = welch(a, b).p
    assert p is not None and p < 1e-6
    assert mean_difference_interval(a, b).low > 2 and mean_difference_interval(a, b).high < 4


def test_holm_is_monotone_and_never_below_the_raw_p() -> None:
    raw = [0.001, 0.2, 0.01, 0.04, 0.03, None]
    adjusted = holm(raw)
    assert adjusted[-1] is None
    pairs = sorted((p, q) for p, q in zip(raw, adjusted) if p is not None and q is not None)
    assert all(q >= p for p, q in pairs)
    assert [q for _, q in pairs] == sorted(q for _, q in pairs)
    assert adjusted[0] == pytest.approx(0.005)


def test_histogram_memory_is_bounded() -> None:
    histogram = Histogram(cap=50)
    for value in range(10_000):
        histogram.add(value)
    assert len(histogram.counts) == 51 and histogram.overflow == 10_000 - 51
    assert sum(histogram.counts.values()) == 10_000


def test_the_lab_s_counts_stop_at_zero_and_negative_points_do_not() -> None:
    from rummydsl.engine import GameResult
    from rummydsl.lab.figures import ArmFigures, figure_specs
    from rummydsl.record import PlayedGame, RoundSummary

    def played(turns: int, points: tuple[int, int]) -> PlayedGame:
        rnd = RoundSummary(0, 1, "knock", 0, False, turns, points, 0)
        return PlayedGame([rnd], GameResult(0, points, points, 1), 0)

    counts = ArmFigures(2)
    for turns, points in ((1, (5, 0)), (60, (90, 0))):
        counts.add(played(turns, points))
    specs = {f.key: f for f in figure_specs(2, ["knock"])}
    turns = counts.estimate(specs["turns_per_round"])
    assert turns.value == 30.5 and turns.low == 0.0 and turns.high > 60  # the plain t interval starts below 0
    assert counts.estimate(specs["points_per_round"]).low == 0.0
    negative = ArmFigures(2)
    for turns, points in ((1, (-50, 0)), (60, (90, 0))):
        negative.add(played(turns, points))
    assert negative.estimate(specs["points_per_round"]).low < 0
