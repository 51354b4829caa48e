"""Statistics of timing samples: percentiles, summaries and throughput.

Samples are integer nanoseconds from ``time.perf_counter_ns``; summaries keep
nanoseconds too, so nothing is rounded before the report formats it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence


def percentile(samples: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100), interpolated linearly between ranks (as numpy does)."""
    if not samples:
        raise ValueError("percentile of no samples")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0-100, not {q}")
    ordered = sorted(samples)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Summary:
    """Median and tail of one measurement, in the samples' unit (nanoseconds for times)."""

    p50: float
    p99: float
    count: int

    @classmethod
    def of(cls, samples: Sequence[float]) -> "Summary":
        return cls(percentile(samples, 50), percentile(samples, 99), len(samples))

    def to_json(self) -> dict:
        return {"p50": self.p50, "p99": self.p99, "count": self.count}


@dataclass(frozen=True)
class Throughput:
    """Calls completed in a window of time."""

    calls: int
    elapsed_ns: int

    def __post_init__(self) -> None:
        if self.elapsed_ns <= 0:
            raise ValueError(f"elapsed time must be positive, not {self.elapsed_ns} ns")

    @property
    def per_second(self) -> float:
        return self.calls * 1e9 / self.elapsed_ns

    def cost_per_call_ns(self, cpu_ns: int) -> float | None:
        """CPU time spent per completed call (None if no call completed)."""
        return cpu_ns / self.calls if self.calls else None
