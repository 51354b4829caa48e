"""What many cases do: execute a function as some Context and keep the outcome."""

from __future__ import annotations

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.requests import ExecuteAppFunctionRequest
from droid.content.context import Context
from droid.os.cancellation import CancellationSignal
from sim.conformance.expect import Outcome, attempt
from sim.conformance.registry import Mismatch

# How long a case waits for something the device should do soon: a deadline for a broken
# device, not a performance bound.
DEADLINE = 30.0

# CTS's message fragments (spec/platform-android.md §2 and §4).
DENIED_SUFFIX = "does not have permission to execute the appfunction"
NOT_FOUND = "App function not found."


def execute(context: Context, package: str, function: str, signal: CancellationSignal | None = None, **params) -> Outcome:
    """Execute ``package``/``function`` as ``context``; the outcome's value is the return value."""
    request = ExecuteAppFunctionRequest(package, function, AppFunctionData(params))
    manager = context.app_function_manager
    return attempt(lambda: manager.execute_app_function(request, signal).return_value)


def current_pid(target, package: str) -> int:
    """The pid of the app's running service, from the creation it recorded (testutils.py)."""
    pid = target.app_pid(package)
    if pid is None:
        raise Mismatch(
            f"{package} to record its service creation ('created pid=N') in events.log",
            f"no creation recorded in {target.app_data_dir(package)}",
        )
    return pid
