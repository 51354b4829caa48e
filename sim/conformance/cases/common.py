"""What many cases do: execute a function as some Context and keep the outcome, list the
functions a Context can see, and check that an app's service was never created."""

from __future__ import annotations

from droid.appfunctions.data import AppFunctionData
from droid.appfunctions.requests import AppFunctionSearchSpec, ExecuteAppFunctionRequest
from droid.content.context import Context
from droid.os.cancellation import CancellationSignal
from sim.conformance.expect import Outcome, attempt, equal
from sim.conformance.registry import Mismatch

# How long a case waits for something the device should do soon: a deadline for a broken
# device, not a performance bound.
DEADLINE = 30.0

# CTS's message fragments (spec/platform-android.md §2 and §4).
DENIED_SUFFIX = "does not have permission to execute the appfunction"
NOT_FOUND = "App function not found."
# The whole ERROR_DENIED message of §2: the same whether or not the package or function exists.
DENIED_MESSAGE = "Caller does not have permission to execute the appfunction"


def denied(reason: str) -> str:
    """droidsim's ERROR_DENIED message: §2's, then what the caller lacks and the command that
    fixes it (droid.appfunctions.access_fixes; docs/differences.md), never whether the target
    exists."""
    return f"{DENIED_MESSAGE}: {reason}"


def execute(context: Context, package: str, function: str, signal: CancellationSignal | None = None, **params) -> Outcome:
    """Execute ``package``/``function`` as ``context``; the outcome's value is the return value."""
    request = ExecuteAppFunctionRequest(package, function, AppFunctionData(params))
    manager = context.app_function_manager
    return attempt(lambda: manager.execute_app_function(request, signal).return_value)


def listed_function_ids(context: Context, package: str) -> set[str]:
    """The ids of ``package``'s functions that a search by ``context`` returns."""
    spec = AppFunctionSearchSpec(package_names=frozenset({package}))
    return {f.id for f in context.app_function_manager.search_app_functions(spec)}


def current_pid(target, package: str) -> int:
    """The pid of the app's running service, from the creation it recorded (testutils.py)."""
    pid = target.app_pid(package)
    if pid is None:
        raise Mismatch(
            f"{package} to record its service creation ('created pid=N') in events.log",
            f"no creation recorded in {target.app_data_dir(package)}",
        )
    return pid


def no_service_created(target, package: str) -> None:
    """Since the app's last ``pm clear`` (which stops it), its service was never created."""
    created = [line for line in target.events(package) if line.startswith("created")]
    equal(f"service creations in {package}", [], created)
