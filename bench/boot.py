"""Install time per app, and device boot to ready with 0, 50 and 200 installed apps.

Apps are installed once (each install timed), then the device process is
started on the already-installed data directory several times and reports its
own boot time (bench.device_process). The bare gRPC server's boot, timed the
same way by bench.echo_server, is the baseline: the floor any gRPC process pays.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from bench.child import ChildProcess
from bench.report import Report, Row, Target
from bench.stats import Summary
from bench.workspace import BOOT_APP_COUNTS, Workspace

BOOT_BUDGET_MS = 150
BOOT_BUDGET_PER_APP_MS = 1


def boot_budget_ns(apps: int) -> float:
    """The issue's target: 150 ms plus 1 ms per installed app."""
    return (BOOT_BUDGET_MS + BOOT_BUDGET_PER_APP_MS * apps) * 1e6


def install_apps(device, app_dirs: list[Path]) -> list[int]:
    """Install each app, returning each install's duration."""
    durations = []
    for app_dir in app_dirs:
        start = time.perf_counter_ns()
        device.install(app_dir)
        durations.append(time.perf_counter_ns() - start)
    return durations


def boot_once(data_dir: Path) -> dict:
    """One device boot; the device's own report of it (boot_ns, phases_ns, packages)."""
    with ChildProcess("bench.device_process", "--data", str(data_dir)) as device:
        return {**device.ready, "spawn_to_ready_ns": device.spawn_to_ready_ns}


def boot_figures(data_dirs: dict[int, Path], repeats: int) -> dict[int, dict]:
    """Per app count, the median of ``repeats`` boots, after one untimed boot of each that
    warms the caches. The counts take turns, so whatever else the machine does at one moment
    (the end of the bench's previous section) falls on every figure alike."""
    for data_dir in data_dirs.values():
        boot_once(data_dir)
    boots: dict[int, list[dict]] = {count: [] for count in data_dirs}
    for _ in range(repeats):
        for count, data_dir in data_dirs.items():
            boot = boot_once(data_dir)
            if boot["packages"] != count:
                raise RuntimeError(f"the device restored {boot['packages']} packages, expected {count}")
            boots[count].append(boot)
    return {count: _median_boot(runs) for count, runs in boots.items()}


def _median_boot(boots: list[dict]) -> dict:
    return {
        "boot_ns": statistics.median(b["boot_ns"] for b in boots),
        "phases_ns": {
            phase: statistics.median(b["phases_ns"][phase] for b in boots) for phase in boots[0]["phases_ns"]
        },
        "spawn_to_ready_ns": statistics.median(b["spawn_to_ready_ns"] for b in boots),
        "repeats": len(boots),
    }


def bare_grpc_boot(workspace: Workspace, repeats: int, workers: int) -> float:
    """Median boot of the bare echo server, as the device's boot baseline."""
    from bench.transport import BareTransports

    workdir = workspace.root / "bare-boot"
    workdir.mkdir(exist_ok=True)

    def once() -> int:
        transports = BareTransports(workdir, workers)
        try:
            return transports.boot_ns
        finally:
            transports.close()

    once()
    return statistics.median(once() for _ in range(repeats))


def prepare(workspace: Workspace, apps: list[Path]) -> tuple[list[int], list[int]]:
    """Fill one data directory per boot figure, timing every install.

    Returns the first install of each device (it starts the code verifier
    process) apart from the others, so the per-app figure is not one start-up
    cost spread over the apps.
    """
    from sim.device import Device

    first: list[int] = []
    rest: list[int] = []
    for count in BOOT_APP_COUNTS:
        with Device(workspace.boot_data(count)) as device:  # created even when empty
            durations = install_apps(device, apps[:count])
        first += durations[:1]
        rest += durations[1:]
    return first, rest


def run(report: Report, workspace: Workspace, installs: tuple[list[int], list[int]], *,
        repeats: int, workers: int) -> None:
    baseline = report.baseline("bare gRPC server boot", bare_grpc_boot(workspace, repeats, workers), "ns")
    boots = boot_figures({count: workspace.boot_data(count) for count in BOOT_APP_COUNTS}, repeats)
    for count, figures in boots.items():
        report.add(Row(f"boot to ready, {count} apps", figures["boot_ns"], "ns", baseline,
                       Target("value_at_most", boot_budget_ns(count)), detail=figures))
    first, rest = installs
    summary = Summary.of(rest)
    detail = {"apps": summary.count, "first_install_after_boot_ns": statistics.median(first)}
    report.add(Row("install per app p50", summary.p50, "ns", detail=detail))
    report.add(Row("install per app p99", summary.p99, "ns", detail=detail))
