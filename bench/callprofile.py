"""Where one cross-process call spends its CPU: ``python -m bench.callprofile``.

It sets up what the bench's cross-process figures call (a device process with
one generated app), drives it with N callers, and samples the device and the
app process with py-spy (``pip install -e '.[profile]'``) while they serve.
Each sample is filed under the first layer of the call path found in its stack,
innermost first, and the table gives each layer's CPU per call: samples / rate
/ calls completed. ``--gil`` counts only samples holding the GIL (what limits a
process's throughput), ``--idle`` adds threads that wait (what a call waits for).

The layers are the issue's breakdown (docs/performance.md): gRPC server,
credential lookup, pipeline checks, data conversion, history write, app hop, and
the app side's decode, app code and encode.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from bench.cpu import descendants
from bench.workspace import Workspace

# (layer, frames that mark it): a sample goes to the layer of its innermost marked frame.
# Frames are matched as "function (file)" prefixes of py-spy's raw output.
DEVICE_LAYERS = (
    ("data conversion", ("data_from_proto", "data_to_proto", "request_from_proto", "request_to_proto",
                         "result_from_proto", "result_to_proto", "check_data", "forward")),
    ("history write", ("record (sim/appfunctions/access_history", "_write_batch", "_writer")),
    ("credential lookup", ("authenticate (sim/server", "identify (sim/identity")),
    ("app hop", ("execute (sim/zygote/hosts", "(sim/zygote/reply_channel", "wait (sim/zygote/hosts", "_outcome_of")),
    ("pipeline checks", ("_execute (sim/appfunctions/service_impl", "execute_app_function (sim/appfunctions",
                         "shape_violation", "oversized_request")),
    ("servicer", ("ExecuteAppFunction (sim/server", "handler (sim/server", "run (sim/server/decode_guard")),
    ("gRPC server", ("(grpc/", "(concurrent/futures/thread", "(threading")),
)
APP_LAYERS = (
    ("app-side decode", ("request_from_proto", "data_from_proto")),
    ("app-side encode", ("result_to_proto", "data_to_proto", "_reply (sim/zygote/app_main")),
    ("app code", ("execute (sim/zygote/runtime", "on_execute_function")),
    ("app socket", ("_on_readable", "read_available", "send (sim/zygote/wire")),
    ("app event loop", ("(asyncio/",)),
)


def layer_of(stack: str, layers) -> str:
    frames = stack.split(";")
    for frame in reversed(frames):
        for layer, marks in layers:
            if any(mark in frame for mark in marks):
                return layer
    return "other"


def breakdown(raw: Path, layers) -> Counter:
    counts: Counter = Counter()
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack:
            counts[layer_of(stack, layers)] += int(count)
    return counts


def drive(execute, callers: int, seconds: float) -> int:
    done = [0] * callers
    deadline = time.monotonic() + seconds

    def caller(slot: int) -> None:
        while time.monotonic() < deadline:
            execute()
            done[slot] += 1

    threads = [threading.Thread(target=caller, args=(i,)) for i in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done)


def py_spy_path() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(found).exists():
        raise SystemExit("bench.callprofile needs py-spy: pip install -e '.[profile]'")
    return found


def py_spy(pid: int, out: Path, seconds: float, rate: int, gil: bool, idle: bool) -> subprocess.Popen:
    command = [py_spy_path(), "record", "--pid", str(pid),
               "--rate", str(rate), "--duration", str(int(seconds)), "--format", "raw", "--output", str(out),
               "--nonblocking", "--threads"]
    command += ["--gil"] if gil else []
    command += ["--idle"] if idle else []
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.callprofile", description=__doc__.splitlines()[0])
    parser.add_argument("--callers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=500, help="py-spy samples per second per thread")
    parser.add_argument("--gil", action="store_true", help="Count only samples that hold the GIL.")
    parser.add_argument("--idle", action="store_true", help="Count waiting threads too.")
    parser.add_argument("--keep", type=Path, help="Copy the raw py-spy stacks into this folder.")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from bench import cross_process

    py_spy_path()
    workspace = Workspace()
    try:
        app = workspace.generate_apps(1)[0]
        cross_process.prepare(workspace, app, [])
        with cross_process.served_device(workspace) as served:
            device_pid = served.process.process.pid
            drive(served.execute, args.callers, 1.0)  # warm-up
            app_pid = next(p for p in descendants(device_pid) if p != device_pid)
            outs = {"device": workspace.root / "device.txt", "app": workspace.root / "app.txt"}
            spies = [py_spy(pid, outs[name], args.seconds, args.rate, args.gil, args.idle)
                     for name, pid in (("device", device_pid), ("app", app_pid))]
            time.sleep(0.5)  # py-spy attaches
            calls = drive(served.execute, args.callers, args.seconds)
            for spy in spies:
                _, err = spy.communicate(timeout=60)
                if spy.returncode != 0:
                    raise RuntimeError(f"py-spy failed: {err.decode(errors='replace')}")
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for name, path in outs.items():
                shutil.copy(path, args.keep / f"{name}.txt")
        result = {"callers": args.callers, "calls": calls, "seconds": args.seconds, "rate": args.rate,
                  "gil": args.gil, "idle": args.idle, "load_average": os.getloadavg(), "layers_us_per_call": {}}
        for name, layers in (("device", DEVICE_LAYERS), ("app", APP_LAYERS)):
            counts = breakdown(outs[name], layers)
            # py-spy samples for the whole duration, the calls ran for about as long.
            result["layers_us_per_call"][name] = {
                layer: round(count / args.rate / calls * 1e6, 1) for layer, count in counts.most_common()
            }
    finally:
        workspace.remove()
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{calls} calls by {args.callers} callers in {args.seconds:g} s "
              f"({calls / args.seconds:,.0f}/s); load average {' '.join(f'{x:.2f}' for x in result['load_average'])}")
        for name, layers in result["layers_us_per_call"].items():
            total = sum(layers.values())
            print(f"{name}: {total:.0f} µs per call" + (" (GIL held)" if args.gil else ""))
            for layer, micros in layers.items():
                print(f"  {layer:<20} {micros:8.1f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
