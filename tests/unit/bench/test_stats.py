"""Percentiles, summaries and throughput: the arithmetic every bench figure goes through."""

from __future__ import annotations

import pytest

from bench.stats import Summary, Throughput, percentile


def test_percentile_interpolates_between_ranks_like_numpy():
    samples = [4, 1, 3, 2]  # unsorted on purpose
    assert percentile(samples, 0) == 1
    assert percentile(samples, 50) == 2.5
    assert percentile(samples, 100) == 4
    assert percentile(samples, 99) == pytest.approx(3.97)


def test_percentile_of_one_sample_is_that_sample():
    assert percentile([7], 50) == 7
    assert percentile([7], 99) == 7


@pytest.mark.parametrize("samples, q, message", [
    ([], 50, "no samples"),
    ([1, 2], -1, "within 0-100"),
    ([1, 2], 100.5, "within 0-100"),
])
def test_percentile_refuses_what_has_no_answer(samples, q, message):
    with pytest.raises(ValueError, match=message):
        percentile(samples, q)


def test_summary_keeps_median_tail_and_count():
    summary = Summary.of(list(range(1, 101)))
    assert summary.p50 == 50.5
    assert summary.p99 == pytest.approx(99.01)
    assert summary.count == 100
    assert summary.to_json() == {"p50": 50.5, "p99": pytest.approx(99.01), "count": 100}


def test_throughput_is_calls_per_second_and_cpu_per_call():
    run = Throughput(calls=500, elapsed_ns=250_000_000)
    assert run.per_second == 2000
    assert run.cost_per_call_ns(1_000_000) == 2000
    assert Throughput(0, 1).cost_per_call_ns(10) is None


def test_throughput_needs_a_positive_window():
    with pytest.raises(ValueError, match="positive"):
        Throughput(10, 0)
