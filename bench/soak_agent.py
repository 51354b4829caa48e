"""One agent of the soak: ``python -m bench.soak_agent`` (started by bench/soak.py).

It connects to the device as an installed agent app, says it is ready, waits for "go" on
stdin, makes its share of calls one after another, and prints one JSON line: per call, its
token and how it ended. Each call carries a token its answer must give back, so the soak can
tell a lost answer (no outcome within the deadline) from a misdelivered or repeated one.
The crasher agent makes every CRASH_EVERY-th call one that kills the faulty app.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from bench.child import announce_ready, wait_for_parent
from droid.appfunctions import AppFunctionException, ExecuteAppFunctionRequest
from droid.appfunctions.data import AppFunctionData
from droid.content import connect
from droid.os import CancellationSignal

FAULTY = "com.example.faulty"
HELPER = "android.app.appfunctions.cts.helper"
CRASH_EVERY = 25
CRASHES = ("exitProcess", "sigkill", "abort", "segfault")
# A call with no outcome after this long counts as lost (it is cancelled so the agent goes on).
CALL_DEADLINE = 30.0


def planned_call(agent: int, index: int, crasher: bool) -> tuple[str, str, AppFunctionData, object]:
    """(kind, function's package#id, parameters, the answer it must give)."""
    if crasher and index % CRASH_EVERY == CRASH_EVERY - 1:
        return "crash", f"{FAULTY}#{CRASHES[index // CRASH_EVERY % len(CRASHES)]}", AppFunctionData(), None
    if index % 2:
        token = f"{agent}:{index}"
        return "echo", f"{FAULTY}#echo", AppFunctionData(text=token), token
    a = agent * 1_000_000 + index
    return "add", f"{HELPER}#add", AppFunctionData(a=a, b=7), a + 7


def run(address: str, credential: str, agent: int, calls: int, crasher: bool) -> list[dict]:
    outcomes = []
    with connect(address, credential) as context:
        manager = context.app_function_manager
        announce_ready(agent=agent)
        sys.stdin.readline()  # "go"
        for index in range(calls):
            kind, target, parameters, expected = planned_call(agent, index, crasher)
            package, function = target.split("#")
            signal = CancellationSignal()
            deadline = threading.Timer(CALL_DEADLINE, signal.cancel)
            deadline.start()
            outcome = {"kind": kind, "index": index}
            try:
                value = manager.execute_app_function(ExecuteAppFunctionRequest(package, function, parameters), signal).return_value
                outcome.update(result="ok", right=value == expected, value=repr(value)[:80])
            except AppFunctionException as error:
                lost = signal.is_canceled
                outcome.update(result="lost" if lost else "error", code=error.error_name, message=error.error_message)
            except Exception as error:  # a transport failure: the call got no outcome
                outcome.update(result="lost", code=type(error).__name__, message=str(error)[:200])
            finally:
                deadline.cancel()
            outcomes.append(outcome)
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--credential-file", type=Path, required=True)
    parser.add_argument("--agent", type=int, required=True)
    parser.add_argument("--calls", type=int, required=True)
    parser.add_argument("--crasher", action="store_true", help="Crash the faulty app every CRASH_EVERY-th call.")
    args = parser.parse_args()
    outcomes = run(args.address, args.credential_file.read_text().strip(), args.agent, args.calls, args.crasher)
    sys.stdout.write(json.dumps({"agent": args.agent, "outcomes": outcomes}) + "\n")
    sys.stdout.flush()
    wait_for_parent()


if __name__ == "__main__":
    main()
