"""Running cases: one result per case, whatever the device does.

A case that raises something other than a Mismatch fails with that exception as what came; a
case that hangs (a device that never answers) fails after CASE_TIMEOUT and the run goes on.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from typing import Callable, Iterable, Literal

from sim.conformance.expect import Outcome
from sim.conformance.registry import Case, Mismatch
from sim.conformance.target import ConformanceTarget

# A deadline for a device that stops answering, far above any case's normal run.
CASE_TIMEOUT = 120.0

Status = Literal["pass", "fail"]


@dataclass(frozen=True)
class CaseResult:
    id: str
    spec: str
    summary: str
    status: Status
    expected: str = ""
    actual: str = ""
    seconds: float = 0.0

    def explain(self) -> str:
        """One line for a failure message: the case, its spec row, what was expected and what came."""
        return f"{self.id} ({self.spec}): expected {self.expected}; came {self.actual}"


def run_case(case: Case, target: ConformanceTarget, timeout: float = CASE_TIMEOUT) -> CaseResult:
    def result(status: Status, expected: str = "", actual: str = "") -> CaseResult:
        return CaseResult(case.id, case.spec, case.summary, status, expected, actual, time.monotonic() - started)

    started = time.monotonic()
    box: list[BaseException | None] = []

    def body() -> None:
        try:
            case.body(target)
            box.append(None)
        except BaseException as error:  # reported below, whatever it is
            box.append(error)

    thread = threading.Thread(target=body, name=f"conformance:{case.id}", daemon=True)
    thread.start()
    thread.join(timeout)
    if not box:
        return result("fail", f"the case to finish within {timeout:g} s", "still running; abandoned")
    error = box[0]
    if error is None:
        return result("pass")
    if isinstance(error, Mismatch):
        return result("fail", error.expected, error.actual)
    return result("fail", case.summary, Outcome(error=error).describe())


def run_cases(
    cases: Iterable[Case], target: ConformanceTarget, on_result: Callable[[CaseResult], None] = lambda r: None
) -> list[CaseResult]:
    results = []
    for case in cases:
        results.append(run_case(case, target))
        on_result(results[-1])
    return results


def summary(results: list[CaseResult]) -> dict[str, int]:
    return {status: sum(r.status == status for r in results) for status in ("pass", "fail")}


def results_to_json(results: list[CaseResult], device: str, sdk_int: int) -> dict:
    """What ``droidsim conformance --json`` writes: the device and the SDK it runs, the table's
    rows, and the totals."""
    return {
        "device": device,
        "sdk": sdk_int,
        "summary": summary(results),
        "cases": [asdict(r) | {"seconds": round(r.seconds, 3)} for r in results],
    }
