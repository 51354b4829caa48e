"""Figures of τ²-bench on the device: τ-bench's 200 recorded GPT-4o airline runs, replayed.

Through the device: a device booted with the airline app, then every run on a reset app (its
database written, its calls through the AppFunction pipeline, its end state read back) with each
task's gold database computed once, as `droidsim eval tau2 replay` does; the value is the whole
of it, boot included, against the issue's 60 s. In this process: the same runs, the same app code
and database file and conversions, the functions called directly (sim/tau2/direct.py); the
device's cost is the ratio, against the issue's 2×. The two take turns, twice each; the median
of each side is kept. Both must reproduce the recorded rewards (199 of 200), or the figure is
of a replay that is wrong. The data is read where it is kept (docs/benchmarks.md); without it the
rows are left out and a note says so.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from bench.report import Report, Row, Target

REPLAY_TARGET_NS = 60e9
DEVICE_COST_TARGET = 2.0
RUNS_FILE = "tau-bench-v1/historical_trajectories/gpt-4o-airline.json"


def benchmarks_root() -> Path:
    reference = os.environ.get("DROIDSIM_REFERENCE")
    root = Path(reference) if reference else Path(__file__).resolve().parents[2] / "shared" / "reference"
    return root / "benchmarks"


def run(report: Report, *, rounds: int) -> None:
    from sim.tau2 import DomainDevice, load_domain
    from sim.tau2.direct import DirectApp
    from sim.tau2.replay import Replayer
    from sim.tau2.trajectories import read_runs

    root = benchmarks_root()
    if not (root / RUNS_FILE).is_file():
        report.notes.append(f"τ² replay rows left out: τ-bench's recorded runs are not at {root / RUNS_FILE} "
                            "(set DROIDSIM_REFERENCE)")
        return
    started = time.perf_counter()
    domain = load_domain("airline", root / "tau-bench-v1" / "airline")
    _, runs = read_runs(root / RUNS_FILE, "airline")
    load_ns = (time.perf_counter() - started) * 1e9

    def through_device() -> int:
        with DomainDevice(domain) as device:
            return _agreeing(Replayer(domain, device.app), runs)

    def in_process() -> int:
        app = DirectApp(domain)
        try:
            return _agreeing(Replayer(domain, app), runs)
        finally:
            app.close()

    timings: dict[str, list[tuple[float, float]]] = {"device": [], "direct": []}
    sides = {"device": through_device, "direct": in_process}
    for index in range(rounds):
        for name in sides if index % 2 == 0 else reversed(list(sides)):
            wall, cpu = time.perf_counter(), time.process_time()
            agreeing = sides[name]()
            timings[name].append(((time.perf_counter() - wall) * 1e9, (time.process_time() - cpu) * 1e9))
            if agreeing < 198:
                raise RuntimeError(f"the {name} replay reproduced only {agreeing} of {len(runs)} recorded rewards")
    device_ns = statistics.median(wall for wall, _ in timings["device"])
    direct_ns = statistics.median(wall for wall, _ in timings["direct"])
    detail = {"runs": len(runs), "agreeing": agreeing, "runs_per_second": len(runs) / (device_ns / 1e9),
              "device_cpu_ns": statistics.median(cpu for _, cpu in timings["device"]),
              "direct_cpu_ns": statistics.median(cpu for _, cpu in timings["direct"]),
              "data_load_ns": load_ns, "rounds": rounds}
    report.add(Row(f"τ² replay: {len(runs)} recorded runs through the device (boot included)", device_ns, "ns",
                   target=Target("value_at_most", REPLAY_TARGET_NS), detail=detail))
    baseline = report.baseline("the same runs on the apps' functions in-process", direct_ns, "ns")
    report.add(Row("τ² replay: the device's cost", device_ns, "ns", baseline=baseline,
                   target=Target("ratio_at_most", DEVICE_COST_TARGET), detail=detail))


def _agreeing(replayer, runs) -> int:
    return sum(1 for run in runs if replayer.replay(run).agrees)
