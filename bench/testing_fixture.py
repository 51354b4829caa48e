"""The droid_device fixture as a test pays for it: a fresh TestDevice, the orders app
installed and its first call, with every import warm (as for every test but a session's
first). Teardown is not counted: pytest runs it after the test has its answer.

The baseline is the floor of any install, measured in the same rounds: copying the same
app folder (install copies it under the data directory).

``python -m bench.testing_fixture`` prints this row alone.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from bench.report import Report, Row, Target
from bench.stats import Summary

ORDERS = Path(__file__).resolve().parent.parent / "apps" / "orders"
TARGET_NS = 50e6  # the budget: set-up plus first call within 50 ms


def run(report: Report, *, rounds: int = 6, per_round: int = 5) -> None:
    from sim.testing import TestDevice

    root = Path(tempfile.mkdtemp(prefix="bench-fixture-"))
    clock = time.perf_counter_ns
    fixture: list[int] = []
    copies: list[int] = []
    try:
        def one_test(index: int) -> None:
            start = clock()
            device = TestDevice(root / f"device-{index}")
            device.install(ORDERS)
            details = device.call("fetch_order_details", order_id="ORD-8492")
            fixture.append(clock() - start)
            device.close()
            if details.status != "SHIPPED":
                raise AssertionError(f"the first call answered {details!r}")

        def one_copy(index: int) -> None:
            start = clock()
            shutil.copytree(ORDERS, root / f"copy-{index}", ignore=shutil.ignore_patterns("__pycache__"))
            copies.append(clock() - start)

        one_test(-1)  # warm: imports and caches, as for every test but the first
        fixture.clear()
        for index in range(rounds):
            for step in (one_test, one_copy) if index % 2 == 0 else (one_copy, one_test):
                for k in range(per_round):
                    step(index * per_round + k)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    floor = report.baseline("app folder copy p50", Summary.of(copies).p50, "ns")
    summary = Summary.of(fixture)
    report.add(Row("droid_device set-up + first call p50", summary.p50, "ns", floor,
                   Target("value_at_most", TARGET_NS), detail={"samples": summary.count, "p99": summary.p99}))


if __name__ == "__main__":
    from bench.__main__ import table_console

    result = Report()
    run(result)
    result.render(table_console())
