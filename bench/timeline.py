"""Where one cross-process call spends its wall time: ``python -m bench.timeline``.

``bench.callprofile`` says what each layer costs in CPU; this says how long each leg of a call
takes on the clock, CPU or waiting: the bench process (the agent) and the device process each
note ``time.monotonic_ns()`` (one clock for every process of the machine) at the edges of the
legs, and the calls, made one at a time, are lined up by those notes:

    C0 client's call   C1 gRPC call starts   D1 device handler   D2 app hop starts
    D3 app hop ends    D4 handler returns    C4 gRPC call ends    C5 client's call returns

The notes are wrappers installed by the bench in its own processes (``bench.device_process
--timeline FILE``), so nothing in droidsim carries them. The echo and the structure floor
(docs/performance.md) are timed in the same run, for scale.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

CLIENT_EDGES = ("C0", "C1")
LEGS = (
    ("C0", "C1", "client: request to protobuf"),
    ("C1", "D1", "client to the device's handler (gRPC)"),
    ("D1", "D2", "device: credential, checks, before the app hop"),
    ("D2", "D3", "app hop: frame out, app process, reply in"),
    ("D3", "D4", "device: after the app hop"),
    ("D4", "C4", "handler's return to the client (gRPC)"),
    ("C4", "C5", "client: result from protobuf"),
)


class Marks:
    """Named instants, appended from any thread (a list's append is atomic in CPython)."""

    def __init__(self) -> None:
        self.noted: list[tuple[int, str]] = []

    def note(self, name: str) -> None:
        self.noted.append((time.monotonic_ns(), name))

    def around(self, function: Callable, before: str, after: str) -> Callable:
        """``function`` with a note before it runs and after it returns or raises."""

        @functools.wraps(function)
        def noted(*args: Any, **kwargs: Any) -> Any:
            self.note(before)
            try:
                return function(*args, **kwargs)
            finally:
                self.note(after)

        return noted

    def dump(self, path: Path) -> None:
        path.write_text(json.dumps(self.noted))


def instrument_device(marks: Marks) -> None:
    """Notes around the handler of ExecuteAppFunction and the app hop; before the device serves."""
    from sim.server.servicers import AppFunctionManagerServicer
    from sim.zygote.hosts import ProcessAppHost

    servicer = AppFunctionManagerServicer
    servicer.ExecuteAppFunction = marks.around(servicer.ExecuteAppFunction, "D1", "D4")
    ProcessAppHost.execute = marks.around(ProcessAppHost.execute, "D2", "D3")


def instrument_client(marks: Marks) -> None:
    from droid.binder.remote import RemoteBinder

    RemoteBinder.call = marks.around(RemoteBinder.call, "C1", "C4")


def legs(noted: list[tuple[int, str]]) -> dict[str, list[float]]:
    """Each leg's durations (µs), one per call whose every edge was noted."""
    calls: list[dict[str, int]] = []
    for at, name in sorted(noted):
        if name == "C0":
            calls.append({})
        if calls and name not in calls[-1]:
            calls[-1][name] = at
    edges = {edge for leg in LEGS for edge in leg[:2]}
    whole = [call for call in calls if edges <= call.keys()]
    return {label: [(call[end] - call[start]) / 1000 for call in whole] for start, end, label in LEGS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.timeline", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from bench import appgen, cross_process
    from bench.child import ChildProcess
    from bench.timing import interleaved
    from bench.transport import BareTransports
    from bench.workspace import Workspace
    from droid.binder import wire
    from droid.content.context import connect

    workspace = Workspace()
    try:
        cross_process.prepare(workspace, workspace.generate_apps(1)[0], [])
        request, expected = appgen.sum_request(appgen.package_name(0))
        device_marks, client_marks = workspace.root / "device-marks.json", Marks()
        instrument_client(client_marks)
        with ChildProcess("bench.device_process", "--data", str(workspace.device_data),
                          "--timeline", str(device_marks)) as device:
            credential = (workspace.device_data / "shell.credential").read_text().strip()
            with connect(device.ready["address"], credential) as context:
                manager = context.app_function_manager
                appgen.check_sum(manager.execute_app_function(request), expected)
                for _ in range(300):  # warm-up, not noted
                    manager.execute_app_function(request)
                client_marks.noted.clear()
                for _ in range(args.calls):
                    client_marks.note("C0")
                    manager.execute_app_function(request)
                    client_marks.note("C5")
        noted = [*client_marks.noted, *map(tuple, json.loads(device_marks.read_text()))]
        durations = legs(noted)
        transports = BareTransports(workspace.root, workers=8)
        try:
            payload = wire.request_to_proto(request).SerializeToString()
            scale = interleaved({"echo": transports.grpc_echo(payload), "floor": transports.structure_floor(payload)},
                                warmup=200, rounds=4, per_round=300)
        finally:
            transports.close()
    finally:
        workspace.remove()
    calls = len(next(iter(durations.values())))
    result = {
        "calls": calls, "load_average": os.getloadavg(),
        "legs_us_p50": {label: round(statistics.median(values), 1) for label, values in durations.items()},
        "echo_us_p50": round(statistics.median(scale["echo"]) / 1000, 1),
        "floor_us_p50": round(statistics.median(scale["floor"]) / 1000, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{calls} calls, one at a time; load average {' '.join(f'{x:.2f}' for x in result['load_average'])}")
    for label, micros in result["legs_us_p50"].items():
        print(f"  {label:<48} {micros:8.1f} µs")
    print(f"  {'sum of the legs (p50 each)':<48} {sum(result['legs_us_p50'].values()):8.1f} µs")
    print(f"same run: gRPC echo p50 {result['echo_us_p50']:.1f} µs, structure floor p50 {result['floor_us_p50']:.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
