"""Taking samples: warm-up, interleaved latency samples and concurrent throughput.

Latencies are per call, from ``time.perf_counter_ns``. Figures that are compared
are sampled in alternating batches, so a burst of noise on the machine lands on
both sides of a ratio rather than on one.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from bench.stats import Throughput

Call = Callable[[], object]


def sample(call: Call, count: int) -> list[int]:
    """``count`` timings of ``call``, in nanoseconds."""
    clock = time.perf_counter_ns
    samples = []
    for _ in range(count):
        start = clock()
        call()
        samples.append(clock() - start)
    return samples


def interleaved(calls: dict[str, Call], *, warmup: int, rounds: int, per_round: int) -> dict[str, list[int]]:
    """Warm every call up, then sample them in turns: ``rounds`` batches of ``per_round`` each."""
    for call in calls.values():
        for _ in range(warmup):
            call()
    samples: dict[str, list[int]] = {name: [] for name in calls}
    names = list(calls)
    for index in range(rounds):
        # Alternate the order too, so neither side always runs right after the other.
        for name in names if index % 2 == 0 else reversed(names):
            samples[name].extend(sample(calls[name], per_round))
    return samples


def concurrent_throughput(call: Call, callers: int, duration_s: float, warmup_calls: int = 20) -> Throughput:
    """Calls completed by ``callers`` threads calling as fast as they can for ``duration_s``.

    Every thread warms up, then all start together; the clock stops when the
    last thread has finished its last call, so no call is counted half.
    """
    counts = [0] * callers
    errors: list[BaseException] = []
    window = {"start": 0, "deadline": 0}

    def open_window() -> None:  # runs once, as the barrier releases every thread
        window["start"] = time.perf_counter_ns()
        window["deadline"] = window["start"] + int(duration_s * 1e9)

    barrier = threading.Barrier(callers, action=open_window)

    def caller(slot: int) -> None:
        try:
            for _ in range(warmup_calls):
                call()
        except BaseException as error:  # reported below, after every thread is joined
            errors.append(error)
        barrier.wait()
        done = 0
        try:
            while time.perf_counter_ns() < window["deadline"]:
                call()
                done += 1
        except BaseException as error:
            errors.append(error)
        counts[slot] = done

    threads = [threading.Thread(target=caller, args=(i,), daemon=True) for i in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter_ns() - window["start"]
    if errors:
        raise RuntimeError(f"{len(errors)} of the concurrent calls failed, first: {errors[0]!r}") from errors[0]
    return Throughput(sum(counts), elapsed)
