"""Figures of `droidsim eval`: what a case costs besides the model, and what workers buy.

Overhead per single-turn case: the shipped suite's one-turn cases run with the
scripted model, and each case's time minus the model's own time is what eval
adds (device reset, discovery, agent set-up, the loop, scoring, state checks).
The baseline is one in-process execute of the same device's function.

Workers: the same suite with the offline model, ``--workers 2`` against
``--workers 1``, in cases per second from the first finished case to the last;
the time to the first (spawning the workers, their imports and devices) is
reported beside it, as boot times are separate figures elsewhere in the bench.

Offline model at 600 tools: the model's own time per case (``model_seconds``) on
the shipped suite's single-turn cases with 200 distractor apps installed (612
tools), against the same cases on the 12 sample-app tools: the offline model
must stay near-linear in the catalog (BM25 picks the few tools worth weighing).
"""

from __future__ import annotations

import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path

from bench.report import Report, Row, Target
from bench.stats import Summary
from bench.timing import interleaved

OVERHEAD_TARGET_NS = 20e6
SPEEDUP_TARGET = 1.7
OFFLINE_TARGET_NS = 100e6
OFFLINE_DISTRACTORS = 200  # 612 tools with the sample apps
RUN_DATE = dt.date(2026, 3, 14)


def run(report: Report, *, overhead_rounds: int, speedup_trials: int,
        offline_distractors: int = OFFLINE_DISTRACTORS) -> None:
    from droid.appfunctions import ExecuteAppFunctionRequest
    from sim.eval.devices import DeviceCache, DeviceSpec
    from sim.eval.execution import Work, execute
    from sim.eval.runner import RunSettings
    from sim.eval.suite import load_suite

    suite = load_suite(Path(__file__).resolve().parents[1] / "sim" / "eval" / "suites" / "sample-apps.yaml")
    single = [c for c in suite.cases if len(c.turns) == 1 and c.turns[0].calls and len(c.turns[0].calls) == 1]
    spec = DeviceSpec(suite.app_sources(), suite.agent)
    settings = RunSettings("scripted", RUN_DATE)
    overheads: list[float] = []
    for _ in range(overhead_rounds):
        for case in single:
            record = execute(suite, Work("bench", spec, case, 0), settings)
            if not record["passed"]:
                raise RuntimeError(f"the oracle failed {case.id}: {record['failures']}")
            overheads.append((record["seconds"] - record["model_seconds"]) * 1e9)
    cache = DeviceCache()
    device = cache.get(spec)
    manager = device.shell.app_function_manager
    request = ExecuteAppFunctionRequest("com.example.orders", "com.example.orders.OrderFunctionService#fetch_order_details",
                                        _order_parameters(device))
    samples = interleaved({"execute": lambda: manager.execute_app_function(request)}, warmup=50, rounds=4,
                          per_round=200)
    cache.close()
    execute_p50 = report.baseline("execute, in-process p50 (eval device)", Summary.of(samples["execute"]).p50, "ns")
    report.add(Row("eval overhead per single-turn case (scripted)", statistics.median(overheads), "ns", execute_p50,
                   Target("value_at_most", OVERHEAD_TARGET_NS),
                   detail={"cases": len(single), "runs": len(overheads),
                           "p90_ns": sorted(overheads)[int(0.9 * (len(overheads) - 1))]}))
    _workers(report, suite, speedup_trials)
    offline_per_case(report, suite, single, offline_distractors)


def offline_per_case(report: Report, suite, cases: list, distractors: int) -> None:
    """The offline model's median time per case with ``distractors`` apps, against none."""
    from sim.eval.devices import DeviceSpec
    from sim.eval.execution import Work, close_devices, execute, local_device
    from sim.eval.runner import RunSettings

    settings = RunSettings("offline", RUN_DATE)
    medians, tools = {}, {}
    for count in (0, distractors):
        spec = DeviceSpec(suite.app_sources(), suite.agent, distractors=count)
        tools[count] = len(local_device(spec).shell.app_function_manager.search_app_functions())
        execute(suite, Work("bench", spec, cases[0], 0), settings)  # the index and the caches, built once
        medians[count] = statistics.median(execute(suite, Work("bench", spec, c, 0), settings)["model_seconds"] * 1e9
                                           for c in cases)
        close_devices()
    small = report.baseline(f"offline model per case, {tools[0]} tools", medians[0], "ns")
    report.add(Row(f"offline model per case, {tools[distractors]} tools", medians[distractors], "ns", small,
                   Target("value_at_most", OFFLINE_TARGET_NS), detail={"cases": len(cases), "distractors": distractors}))


def _order_parameters(device):
    from droid.appfunctions.json_codec import parameters_from_json

    function = next(f for f in device.shell.app_function_manager.search_app_functions()
                    if f.id == "com.example.orders.OrderFunctionService#fetch_order_details")
    return parameters_from_json(function, {"orderId": "ORD-8492"}, function.package_metadata.components)


def _workers(report: Report, suite, trials: int) -> None:
    """Cases per second once the workers are up (first result to last), each worker count in turn;
    the start-up (to the first result: spawning, imports, booting the devices) is in the detail."""
    from sim.eval.run import EvalOptions, run_eval

    rates, startups, scores = {}, {}, {}
    for workers in (1, 2):
        finished: list[float] = []
        with tempfile.TemporaryDirectory(prefix="droidsim-bench-eval-") as out:
            started = time.perf_counter()
            summary = run_eval(suite, EvalOptions(model="offline", trials=trials, workers=workers, out=Path(out),
                                                  run_date=RUN_DATE),
                               lambda record, done, total: finished.append(time.perf_counter()))
        rates[workers] = (len(finished) - 1) / (finished[-1] - finished[0])
        startups[workers] = round(finished[0] - started, 3)
        scores[workers] = summary["configs"]["base"]["scores"]
    if scores[1] != scores[2]:
        raise RuntimeError("--workers 2 scored differently from --workers 1")
    one = report.baseline("eval --workers 1, cases/s", rates[1], "calls/s")
    report.add(Row("eval --workers 2, cases/s", rates[2], "calls/s", one, Target("ratio_at_least", SPEEDUP_TARGET),
                   detail={"cases": len(suite.cases), "trials": trials, "startup_s": startups}))
