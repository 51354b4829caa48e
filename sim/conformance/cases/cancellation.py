"""Cancelling a call in flight: the app hears it, and an app that never answers is stopped after
the cancellation timeout.

Android disables a cancelled caller's callback, so the caller receives nothing; a blocking
droidsim call must end, so it raises ERROR_CANCELLED. The cases check that, and
docs/differences.md lists it.
"""

from __future__ import annotations

import threading

from droid.appfunctions.exceptions import AppFunctionException
from droid.os.cancellation import CancellationSignal
from sim.conformance.cases.common import DEADLINE, current_pid, execute
from sim.conformance.expect import Outcome, eventually, fails_with
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import CALLER_PACKAGE, process_alive


class _CallInBackground:
    """One cancellable call on its own thread, so the case can cancel it while it runs."""

    def __init__(self, t, function: str) -> None:
        self.signal = CancellationSignal()
        self._outcome: list[Outcome] = []
        self._thread = threading.Thread(
            target=lambda: self._outcome.append(execute(t.caller, CALLER_PACKAGE, function, self.signal)),
            daemon=True,
        )
        self._thread.start()

    def outcome(self) -> Outcome:
        self._thread.join(DEADLINE)
        if not self._outcome:
            raise Mismatch("the cancelled call to return", f"still blocked {DEADLINE:g} s after the cancel")
        return self._outcome[0]


def _cancel_while_running(t, function: str) -> tuple[int, int]:
    """Start ``function`` as the caller, wait until the app runs it, cancel, and check what the
    caller gets. Returns the app's pid and where its events stood before the call."""
    events_before = len(t.events(CALLER_PACKAGE))
    call = _CallInBackground(t, function)
    started = f"started {function}"
    try:
        eventually(
            f"the app to start {function}",
            lambda: started in t.events(CALLER_PACKAGE)[events_before:],
            DEADLINE,
            lambda: f"events since the call: {t.events(CALLER_PACKAGE)[events_before:]}",
        )
        pid = current_pid(t, CALLER_PACKAGE)
    finally:
        call.signal.cancel()  # also when the case gives up: no call is left running
    # droidsim difference (docs/differences.md): Android's cancelled caller receives nothing.
    fails_with(call.outcome(), AppFunctionException.ERROR_CANCELLED)
    return pid, events_before


def _stopped_after_cancellation_timeout(t, pid: int) -> None:
    eventually(
        f"the app process (pid {pid}) to be stopped after the {t.cancellation_timeout:g} s cancellation timeout",
        lambda: not process_alive(pid),
        t.cancellation_timeout + DEADLINE,
        lambda: f"pid {pid} still runs",
    )


@case("cancel-long-running", "ae.cancel-long-running")
def cancel_long_running(t) -> None:
    """Cancelling longRunningFunction fires the app's cancel listener and the app is stopped;
    the caller gets ERROR_CANCELLED (droidsim; Android sends no callback)."""
    pid, events_before = _cancel_while_running(t, "longRunningFunction")
    eventually(
        "the app's cancel listener to fire",
        lambda: "cancelled longRunningFunction" in t.events(CALLER_PACKAGE)[events_before:],
        DEADLINE,
        lambda: f"events since the call: {t.events(CALLER_PACKAGE)[events_before:]}",
    )
    _stopped_after_cancellation_timeout(t, pid)


@case("cancel-not-invoke-callback", "ae.cancel-not-invoke-callback")
def cancel_not_invoke_callback(t) -> None:
    """Cancelling notInvokeCallback, which never answers, stops the app after the cancellation
    timeout; the caller gets ERROR_CANCELLED (droidsim; Android sends no callback)."""
    pid, _ = _cancel_while_running(t, "notInvokeCallback")
    _stopped_after_cancellation_timeout(t, pid)
