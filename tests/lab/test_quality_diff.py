"""Differences of the whole-run quality metrics between two variants (rummydsl/lab/quality_diff.py):
the values by hand from the formulas of docs/lab.md ("Game quality"), and bootstrap intervals
whose ends follow by hand where every replicate is alike or a count is binomial."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from rummydsl.lab.quality import QUALITY, PER_GAME, QualityFigures, decode_outcome, outcome_code
from rummydsl.lab.quality_diff import (
    WHOLE_RUN,
    PairedOutcomes,
    binomial,
    multinomial,
    whole_run_differences,
    whole_run_values,
)

from .test_quality import A, B, C

WON_FIRST = outcome_code(1, True, False, True)   # P2, the first to play, won
WON_SECOND = outcome_code(0, False, False, True)  # P1 won


def test_outcome_codes_round_trip() -> None:
    for winner in (None, 0, 1, 2):
        for flags in ((False, False, False), (True, False, True), (False, True, False), (True, True, True)):
            assert decode_outcome(outcome_code(winner, *flags)) == (winner, *flags)


def test_whole_run_values_are_the_quality_figures_values() -> None:
    figures = QualityFigures(2)
    for played in (A, B, C):
        figures.add(played)
    got = whole_run_values(figures.outcomes, 2)
    estimates = figures.estimates()
    for key in WHOLE_RUN:
        assert got[key] == pytest.approx(estimates[key].value), key
    # by hand: P1 won A and B, P2 (the first to play) won C
    assert got == {"balance": pytest.approx(2 / 3), "advantage": pytest.approx(1 / 3),
                   "fairness": pytest.approx(2 / 3), "drawishness": 0.0, "completion": 1.0}


def test_three_seats_and_a_draw_by_hand() -> None:
    # 4 games: P1 won 2 (one of them drawn on the figures), P2 1, P3 1; the first to play (P2) won 1
    counts = Counter({outcome_code(0, False, False, True): 1, outcome_code(0, False, True, False): 1,
                      outcome_code(1, True, False, True): 1, outcome_code(2, False, False, True): 1})
    got = whole_run_values(counts, 3)
    # balance 1 - (2/4 - 1/4); advantage 1/4 (under 1/3: fairness 3/4); one draw; three complete
    assert got == {"balance": 0.75, "advantage": 0.25, "fairness": 0.75, "drawishness": 0.25, "completion": 0.75}


def pairs(*items: tuple[int, int, int]) -> tuple[Counter[int], Counter[int], PairedOutcomes]:
    """The outcome counts of two variants and their pairs, from (a's outcome, b's, how many seeds)."""
    a: Counter[int] = Counter()
    b: Counter[int] = Counter()
    joint = PairedOutcomes()
    for code_a, code_b, count in items:
        a[code_a] += count
        b[code_b] += count
        for _ in range(count):
            joint.add(code_a, code_b)
    return a, b, joint


def test_the_same_outcomes_seed_by_seed_differ_by_exactly_nothing() -> None:
    a, b, joint = pairs((WON_FIRST, WON_FIRST, 7), (WON_SECOND, WON_SECOND, 5))
    for key, found in whole_run_differences(a, b, 2, paired=joint, seed=1).items():
        # every replicate draws the same games on both sides: its difference is 0
        assert (found.interval.value, found.interval.low, found.interval.high, found.p) == (0.0, 0.0, 0.0, 1.0), key
        assert found.method == "paired bootstrap"
    # unpaired, the same counts leave room for chance: balance and advantage have a wide interval
    alone = whole_run_differences(a, b, 2, paired=None, seed=1)
    assert alone["advantage"].interval.low < -0.2 and alone["advantage"].interval.high > 0.2
    assert alone["advantage"].method == "bootstrap"


def test_a_sure_difference_has_a_point_interval_and_p_zero() -> None:
    # in every pair the first to play won under b and lost under a: advantage +1 in every replicate
    a, b, joint = pairs((WON_SECOND, WON_FIRST, 10))
    found = whole_run_differences(a, b, 2, paired=joint, seed=3)
    assert found["advantage"].interval == found["advantage"].interval.__class__(1.0, 1.0, 1.0)
    assert found["advantage"].p == 0.0
    # balance: P1 won everything under a, P2 under b: 1 - 1 both times, no difference
    assert (found["balance"].interval.low, found["balance"].interval.high) == (0.0, 0.0)
    # fairness 0 under a (rate 0) and 0 under b (rate 1)
    assert found["fairness"].interval.value == 0.0


def test_a_few_discordant_pairs_give_a_binomial_paired_interval() -> None:
    """40 seeds, 4 where only b's first player won: each replicate's advantage difference is
    X / 40 with X ~ Binomial(40, 0.1), never below 0; p is twice P(X = 0) = 2 * 0.9^40."""
    a, b, joint = pairs((WON_SECOND, WON_FIRST, 4), (WON_FIRST, WON_FIRST, 16), (WON_SECOND, WON_SECOND, 20))
    paired = whole_run_differences(a, b, 2, paired=joint, seed=5)["advantage"]
    assert paired.interval.value == pytest.approx(0.1)
    # Binomial(40, 0.1): P(X <= 0) = 0.0148, P(X <= 8) = 0.9845, P(X <= 9) = 0.9949
    assert round(paired.interval.low * 40, 9) in (0, 1) and round(paired.interval.high * 40, 9) in (7, 8, 9)
    assert paired.p == pytest.approx(2 * 0.9 ** 40, abs=0.015)
    unpaired = whole_run_differences(a, b, 2, paired=None, seed=5)["advantage"]
    # independent samples of 40 at 0.5 and 0.6: half width about 1.96 * sqrt(0.25/40 + 0.24/40) = 0.217
    assert unpaired.interval.high - unpaired.interval.low == pytest.approx(2 * 0.217, abs=0.06)
    assert paired.interval.high - paired.interval.low < 0.6 * (unpaired.interval.high - unpaired.interval.low)


def test_the_bootstrap_is_reproducible_from_the_seed() -> None:
    a, b, joint = pairs((WON_SECOND, WON_FIRST, 3), (WON_FIRST, WON_SECOND, 1), (WON_FIRST, WON_FIRST, 9))
    once = whole_run_differences(a, b, 2, paired=joint, seed=11)
    assert once == whole_run_differences(a, b, 2, paired=joint, seed=11)
    assert once != whole_run_differences(a, b, 2, paired=joint, seed=12)


def test_binomial_and_multinomial_draws() -> None:
    rng = random.Random(7)
    draws = [binomial(rng, 1000, 0.3) for _ in range(2000)]  # the beta-splitting path
    mean = sum(draws) / len(draws)
    variance = sum((d - mean) ** 2 for d in draws) / (len(draws) - 1)
    assert mean == pytest.approx(300, abs=3 * math.sqrt(210 / 2000) * 3)
    assert variance == pytest.approx(210, rel=0.15)
    assert binomial(rng, 5, 0.0) == 0 and binomial(rng, 5, 1.0) == 5 and binomial(rng, 0, 0.5) == 0
    split = multinomial(rng, 500, [1, 0, 3])
    assert sum(split) == 500 and split[1] == 0


def test_compare_gives_every_metric_s_difference_paired_or_not() -> None:
    from .conftest import run

    code, out, err = run("compare", "gin_rummy", "oklahoma_gin", "skarney_gin", "--games", "4", "--seed", "2",
                         "--workers", "1", "--json")
    assert code == 0, err
    gin, oklahoma, skarney = json.loads(out)["quality"]
    assert list(oklahoma["differences"]) == list(QUALITY) and skarney["differences"] is None
    assert list(skarney["unpaired_differences"]) == list(QUALITY)
    for item, methods in ((oklahoma["differences"], ("paired t", "paired bootstrap")),
                          (skarney["unpaired_differences"], ("Welch t", "bootstrap"))):
        for key, found in item.items():
            assert found["method"] == methods[key in WHOLE_RUN]
            assert found["value"] == pytest.approx(
                (oklahoma if item is oklahoma["differences"] else skarney)["metrics"][key]["value"]
                - gin["metrics"][key]["value"], abs=1e-5)
            assert 0 <= found["p"] <= 1 or (found["p"] is None and key in PER_GAME)
    again = json.loads(run("compare", "gin_rummy", "oklahoma_gin", "skarney_gin", "--games", "4", "--seed", "2",
                           "--workers", "2", "--json")[1])["quality"]
    assert again == [gin, oklahoma, skarney]
    _, text, _ = run("compare", "gin_rummy", "oklahoma_gin", "--games", "4", "--seed", "2", "--workers", "1")
    assert "oklahoma_gin - gin_rummy: paired by seed" in text

