"""Figures across processes: an agent process calls the device process, which calls the app process.

The bench process plays the agent: it connects to a device process
(bench.device_process) over its Unix socket with the shell's credential, as
``droidsim shell`` does, so access checks cannot fail for reasons other than
performance. Every figure is sampled alternately with its bare-transport
baseline (bench.transport) served by another process over the same kind of socket.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from bench import appgen
from bench.child import ChildProcess
from bench.cpu import process_cpu_ns, tree_cpu_ns
from bench.report import Report, Row, Target
from bench.stats import Summary
from bench.timing import concurrent_throughput, interleaved
from bench.transport import BareTransports
from bench.workspace import SEARCH_SIZES, Workspace, search_packages
from droid.binder import wire
from droidsim.v1 import app_function_manager_pb2 as afm_pb2

# Guards, not goals (bench/report.py Target): the rest is the Python of three processes a call.
EXECUTE_P50_GUARD = Target("ratio_at_most", 2.3, guard=True)
EXECUTE_OVER_FLOOR_GUARD = Target("ratio_at_most", 2.0, guard=True)
THROUGHPUT_8_GUARD = Target("ratio_at_least", 0.35, guard=True)
SEARCH_5000_TARGET = 2.0


def samples_per_round(call: Callable[[], object], seconds: float, low: int, high: int) -> int:
    """How many samples of ``call`` fit in ``seconds``, within [low, high]."""
    start = time.perf_counter_ns()
    call()
    single = max(time.perf_counter_ns() - start, 1)
    return max(low, min(high, int(seconds * 1e9 / single)))


def prepare(workspace: Workspace, app_dir: Path, search_apps: list[Path]) -> None:
    """The device these figures call: one generated app, and the search apps."""
    from sim.device import Device

    with Device(workspace.device_data) as device:
        for app in (app_dir, *search_apps):
            device.install(app)


@dataclass(frozen=True)
class ServedDevice:
    """The device process these figures call, the shell's manager on it, and the sum call."""

    process: ChildProcess
    manager: Any
    request: Any
    execute: Callable[[], object]


@contextmanager
def served_device(workspace: Workspace) -> Iterator[ServedDevice]:
    """A device process on the prepared data, whose sum call has been checked once."""
    from droid.content.context import connect

    request, expected = appgen.sum_request(appgen.package_name(0))
    with ChildProcess("bench.device_process", "--data", str(workspace.device_data)) as device:
        credential = (workspace.device_data / "shell.credential").read_text().strip()
        with connect(device.ready["address"], credential) as context:
            manager = context.app_function_manager
            execute = lambda: manager.execute_app_function(request)  # noqa: E731
            appgen.check_sum(execute(), expected)
            yield ServedDevice(device, manager, request, execute)


def run(report: Report, workspace: Workspace, transports: BareTransports, *,
        rounds: int, per_round: int, throughput_seconds: float,
        parts: frozenset[str] = frozenset({"latency", "throughput", "search"})) -> None:
    with served_device(workspace) as served:
        device, manager, execute = served.process, served.manager, served.execute
        request_bytes = wire.request_to_proto(served.request).SerializeToString()
        echo = transports.grpc_echo(request_bytes)
        if "latency" in parts:
            _latency(report, echo, transports.structure_floor(request_bytes), execute, rounds, per_round)
        if "throughput" in parts:
            _throughput(report, echo, execute, transports.server.process.pid, device.process.pid,
                        throughput_seconds)
        if "search" in parts:
            _search(report, transports, manager, rounds)


def _latency(report: Report, echo, floor, execute, rounds: int, per_round: int) -> None:
    """Against the echo (what any gRPC service costs) and against the structure floor (what a
    gRPC handler that asks another process costs): the second says what the device's code adds."""
    samples = interleaved({"echo": echo, "floor": floor, "execute": execute},
                          warmup=per_round, rounds=rounds, per_round=per_round)
    bare, floor_summary, device = (Summary.of(samples[key]) for key in ("echo", "floor", "execute"))
    p50 = report.baseline("gRPC echo p50", bare.p50, "ns")
    p99 = report.baseline("gRPC echo p99", bare.p99, "ns")
    floor_p50 = report.baseline("device structure floor p50", floor_summary.p50, "ns")
    report.add(Row("execute, cross-process p50", device.p50, "ns", p50,
                   EXECUTE_P50_GUARD, detail={"samples": device.count}))
    report.add(Row("execute, cross-process p50 / floor", device.p50, "ns", floor_p50,
                   EXECUTE_OVER_FLOOR_GUARD, detail={"samples": device.count}))
    report.add(Row("execute, cross-process p99", device.p99, "ns", p99, detail={"samples": device.count}))


def _throughput(report: Report, echo, execute, echo_pid: int, device_pid: int, seconds: float,
                rounds: int = 3) -> None:
    """Calls per second, and what each side spent in CPU per call (the limit on 2 cores)."""
    for callers in (8, 32):
        runs: dict[str, list[dict]] = {"echo": [], "device": []}
        for _ in range(rounds):
            runs["echo"].append(_measured_run(echo, callers, seconds, echo_pid))
            runs["device"].append(_measured_run(execute, callers, seconds, device_pid))
        bare, device = ({key: _median(r, key) for key in r[0]} for r in (runs["echo"], runs["device"]))
        baseline = report.baseline(f"gRPC echo, {callers} callers", bare["per_second"], "calls/s")
        target = THROUGHPUT_8_GUARD if callers == 8 else None
        detail = {"rounds": rounds, "seconds_per_round": seconds,
                  "server_cpu_ns_per_call": {"device_and_app": device["server_cpu_ns"], "echo_server": bare["server_cpu_ns"]},
                  "client_cpu_ns_per_call": {"device": device["client_cpu_ns"], "echo": bare["client_cpu_ns"]}}
        report.add(Row(f"throughput, {callers} callers", device["per_second"], "calls/s", baseline, target, detail))


def _measured_run(call, callers: int, seconds: float, server_pid: int) -> dict:
    client_before, server_before = process_cpu_ns(os.getpid()), tree_cpu_ns(server_pid)
    result = concurrent_throughput(call, callers, seconds)
    client_after, server_after = process_cpu_ns(os.getpid()), tree_cpu_ns(server_pid)
    cpu = lambda before, after: None if before is None or after is None else result.cost_per_call_ns(after - before)  # noqa: E731
    return {"per_second": result.per_second, "server_cpu_ns": cpu(server_before, server_after),
            "client_cpu_ns": cpu(client_before, client_after)}


def _median(runs: list[dict], key: str) -> float | None:
    values = [r[key] for r in runs if r[key] is not None]
    return statistics.median(values) if values else None


def _search(report: Report, transports: BareTransports, manager, rounds: int) -> None:
    from droid.appfunctions.requests import AppFunctionSearchSpec

    for size in SEARCH_SIZES:
        spec = AppFunctionSearchSpec(package_names=search_packages(size))
        search = lambda spec=spec: manager.search_app_functions(spec)  # noqa: E731
        functions = search()
        if len(functions) != size:
            raise RuntimeError(f"search returned {len(functions)} functions, expected {size}")
        payload = afm_pb2.SearchAppFunctionsResponse(app_functions=functions).SerializeToString()
        fetch = transports.grpc_fetch(payload, afm_pb2.SearchAppFunctionsResponse)
        count = samples_per_round(search, 0.4, low=5, high=200)
        samples = interleaved({"fetch": fetch, "search": search}, warmup=2, rounds=rounds, per_round=count)
        bare, device = Summary.of(samples["fetch"]), Summary.of(samples["search"])
        baseline = report.baseline(f"gRPC reply of {len(payload):,} B p50", bare.p50, "ns")
        target = Target("ratio_at_most", SEARCH_5000_TARGET) if size == max(SEARCH_SIZES) else None
        report.add(Row(f"search, {size:,} functions p50", device.p50, "ns", baseline, target,
                       detail={"payload_bytes": len(payload), "samples": device.count}))
