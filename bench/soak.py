"""``python -m bench.soak`` (``make soak``): a long run under faults, with nothing lost.

Eight agent processes (bench/soak_agent.py), each an installed agent app, make 10,000 calls
in total against one device process: echoes of the faulty app (tests/faults/apps/faulty) and
additions of the CTS helper app, while one agent crashes the faulty app every 25th call of
its own (os._exit, SIGKILL, abort, segfault in turn). Every call carries a token its answer
must give back. The soak reports:

- lost answers (no outcome within 30 s) and duplicated or misdelivered ones: must be 0;
- errors by code: only the faulty app's calls may fail, and only with ERROR_APP_UNKNOWN_ERROR
  (a call in flight when the app died); any other error fails the soak;
- the device process's resident memory (VmRSS) after a warm-up and after the run. Memory is
  bounded when the run adds at most MEMORY_GROWTH_LIMIT over the warm-up figure: a leak of
  one 4 KB page per call would add 40 MB over 10,000 calls.

Exit status 0 when all hold, 1 otherwise. docs/reliability.md has the figures of a real run.
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.child import REPO, ChildProcess
from sim.logcat import device_errors_only

AGENT = "com.example.assistant"
APPS = {
    REPO / "tests" / "conformance" / "apps" / "helper": False,
    REPO / "tests" / "faults" / "apps" / "faulty": False,
    REPO / "apps" / "system" / "assistant": True,  # system app: it can be a pregranted agent
}
WARM_UP_CALLS = 200
MEMORY_GROWTH_LIMIT = 32 * 1024 * 1024


def rss_bytes(pid: int) -> int:
    """A process's resident memory, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise ValueError(f"no VmRSS for pid {pid}")


def prepare(data: Path) -> None:
    """The device's data directory: the apps installed, the assistant pregranted every target."""
    from sim.device import Device

    with Device(data) as device:
        for app, system in APPS.items():
            device.install(app, system=system)
        device.pregrant_agent(AGENT)


def warm_up(address: str, credential: str) -> None:
    """Every code path the soak uses, once over, so the memory baseline includes them."""
    from bench.soak_agent import planned_call
    from droid.appfunctions import ExecuteAppFunctionRequest
    from droid.content import connect

    with connect(address, credential) as context:
        for index in range(WARM_UP_CALLS):
            _, target, parameters, expected = planned_call(99, index, crasher=False)
            package, function = target.split("#")
            request = ExecuteAppFunctionRequest(package, function, parameters)
            value = context.app_function_manager.execute_app_function(request).return_value
            if value != expected:
                raise RuntimeError(f"warm-up call {target} answered {value!r}, not {expected!r}")


class MemorySampler:
    """The device's RSS twice a second, for the peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.samples.append(rss_bytes(self.pid))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def run_agents(address: str, credential_file: Path, agents: int, calls: int) -> list[dict]:
    shares = [calls // agents + (1 if i < calls % agents else 0) for i in range(agents)]
    children = [
        ChildProcess("bench.soak_agent", "--address", address, "--credential-file", str(credential_file),
                     "--agent", str(i), "--calls", str(share), *(["--crasher"] if i == 0 else []))
        for i, share in enumerate(shares)
    ]
    try:
        for child in children:
            assert child.process.stdin is not None
            child.process.stdin.write(b"go\n")
            child.process.stdin.flush()
        results = []
        for child in children:
            assert child.process.stdout is not None
            line = child.process.stdout.readline()
            if not line:
                raise RuntimeError(f"an agent exited without its results:\n{child.log()}")
            results.append(json.loads(line))
        return results
    finally:
        for child in children:
            child.stop()


def summarize(results: list[dict]) -> dict:
    outcomes = [o for r in results for o in r["outcomes"]]
    answered = [o["value"] for o in outcomes if o["result"] == "ok"]
    errors = collections.Counter(f"{o['kind']} {o['code']}" for o in outcomes if o["result"] == "error")
    expected_errors = {f"{kind} ERROR_APP_UNKNOWN_ERROR" for kind in ("echo", "crash")}
    return {
        "calls": len(outcomes),
        "answered": len(answered),
        "crashes_injected": sum(o["kind"] == "crash" for o in outcomes),
        "errors_by_code": dict(sorted(errors.items())),
        "unexpected_errors": sum(n for key, n in errors.items() if key not in expected_errors),
        "crash_calls_answered": sum(o["kind"] == "crash" and o["result"] == "ok" for o in outcomes),
        "lost": sum(o["result"] == "lost" for o in outcomes),
        "wrong": sum(o["result"] == "ok" and o["kind"] != "crash" and not o["right"] for o in outcomes),
        "duplicated": len(answered) - len(set(answered)),
        "lost_examples": [o for o in outcomes if o["result"] == "lost"][:3],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--agents", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")
    args = parser.parse_args(argv)

    root = Path(tempfile.mkdtemp(prefix="droidsim-soak-"))
    with device_errors_only():  # the CTS helper's lint findings are not news here
        try:
            data = root / "device"
            prepare(data)
            credential_file = data / "data" / AGENT / "credential"
            with ChildProcess("bench.device_process", "--data", str(data)) as device:
                pid, address = device.process.pid, device.ready["address"]
                started = time.monotonic()
                warm_up(address, credential_file.read_text().strip())
                rss_before = rss_bytes(pid)
                sampler = MemorySampler(pid)
                results = run_agents(address, credential_file, args.agents, args.calls)
                sampler.stop()
                rss_after = rss_bytes(pid)
                elapsed = time.monotonic() - started
        finally:
            shutil.rmtree(root, ignore_errors=True)

    figures = summarize(results)
    figures.update(
        agents=args.agents, seconds=round(elapsed, 1), rss_before_mb=round(rss_before / 2**20, 1),
        rss_after_mb=round(rss_after / 2**20, 1), rss_peak_mb=round(max(sampler.samples + [rss_after]) / 2**20, 1),
        rss_growth_mb=round((rss_after - rss_before) / 2**20, 1),
        rss_growth_limit_mb=MEMORY_GROWTH_LIMIT // 2**20,
    )
    failures = verdict(figures)
    figures["failures"] = failures
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_report(figures)
    return 1 if failures else 0


def verdict(figures: dict) -> list[str]:
    """Why the soak fails, if it does: each figure that must be zero and is not, and memory."""
    failures = [
        f"{figures[key]} {what}"
        for key, what in (
            ("lost", "answers lost"),
            ("duplicated", "answers duplicated"),
            ("wrong", "answers misdelivered"),
            ("unexpected_errors", "unexpected errors"),
            ("crash_calls_answered", "crash calls answered"),
        )
        if figures[key]
    ]
    if figures["rss_growth_mb"] > figures["rss_growth_limit_mb"]:
        failures.append(f"memory grew by {figures['rss_growth_mb']} MB")
    return failures


def print_report(figures: dict) -> None:
    from sim.cli.output import print_table

    rows = [
        ("calls", f"{figures['calls']} by {figures['agents']} agent processes in {figures['seconds']} s"),
        ("answered", figures["answered"]),
        ("crashes injected", figures["crashes_injected"]),
        ("lost", figures["lost"]),
        ("duplicated", figures["duplicated"]),
        ("misdelivered", figures["wrong"]),
        *((f"error: {key}", n) for key, n in figures["errors_by_code"].items()),
        ("unexpected errors", figures["unexpected_errors"]),
        ("device RSS after warm-up", f"{figures['rss_before_mb']} MB"),
        ("device RSS after the run", f"{figures['rss_after_mb']} MB (peak {figures['rss_peak_mb']} MB)"),
        ("growth", f"{figures['rss_growth_mb']} MB (limit {figures['rss_growth_limit_mb']} MB)"),
    ]
    print_table("soak", ["figure", "value"], [(k, str(v)) for k, v in rows])
    for lost in figures["lost_examples"]:
        print(f"lost: {lost}")
    print("PASS" if not figures["failures"] else "FAIL: " + "; ".join(figures["failures"]))


if __name__ == "__main__":
    sys.exit(main())
