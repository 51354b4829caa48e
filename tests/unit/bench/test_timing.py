"""How samples are taken: warm-up, alternating batches, concurrent callers (no timing asserted)."""

from __future__ import annotations

import threading

import pytest

from bench.timing import concurrent_throughput, interleaved, sample


def test_sample_times_each_call():
    calls = []
    samples = sample(lambda: calls.append(1), 5)
    assert len(calls) == 5
    assert len(samples) == 5 and all(isinstance(s, int) and s >= 0 for s in samples)


def test_interleaved_warms_up_then_alternates_batches_and_their_order():
    log: list[str] = []
    samples = interleaved({"a": lambda: log.append("a"), "b": lambda: log.append("b")},
                          warmup=2, rounds=3, per_round=2)
    assert log == ["a", "a", "b", "b",  # warm-up
                   "a", "a", "b", "b",  # round 1
                   "b", "b", "a", "a",  # round 2: the other order
                   "a", "a", "b", "b"]
    assert {name: len(s) for name, s in samples.items()} == {"a": 6, "b": 6}


def test_concurrent_throughput_counts_every_completed_call_of_every_caller():
    lock = threading.Lock()
    callers_seen: set[int] = set()
    count = [0]

    def call() -> None:
        with lock:
            count[0] += 1
            callers_seen.add(threading.get_ident())

    result = concurrent_throughput(call, callers=4, duration_s=0.05, warmup_calls=3)
    assert len(callers_seen) == 4
    assert result.calls == count[0] - 4 * 3  # warm-up calls are not counted
    assert result.calls > 0 and result.elapsed_ns > 0


def test_a_failing_call_fails_the_throughput_run():
    def call() -> None:
        raise ConnectionError("device went away")

    with pytest.raises(RuntimeError, match="device went away"):
        concurrent_throughput(call, callers=2, duration_s=0.01, warmup_calls=0)
