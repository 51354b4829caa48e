"""Executing functions: results, error codes and messages (AccessEnabledTest rows that hold in
every access mode: the caller's own functions, and callers without EXECUTE_APP_FUNCTIONS)."""

from __future__ import annotations

from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.manager import ACCESS_FLAG_OTHER_GRANTED
from droid.appfunctions.requests import APP_FUNCTION_STATE_DEFAULT, APP_FUNCTION_STATE_DISABLED
from sim.conformance.cases.common import (
    DEADLINE,
    DENIED_SUFFIX,
    NOT_FOUND,
    current_pid,
    execute,
    no_service_created,
)
from sim.conformance.expect import equal, eventually, fails_with, returns
from sim.conformance.registry import Mismatch, case
from sim.conformance.target import (
    CALLER_PACKAGE,
    HELPER_PACKAGE,
    MULTI_SERVICES_PACKAGE,
    NONEXISTENT_PACKAGE,
    process_alive,
)


@case("own-function-with-permission", "ae.own-package")
def own_function_with_permission(t) -> None:
    """The caller (EXECUTE_APP_FUNCTIONS) runs its own add(1, 2) and gets 3."""
    returns(execute(t.caller, CALLER_PACKAGE, "add", a=1, b=2), 3)


@case("own-function-without-permission", "ae.own-package")
def own_function_without_permission(t) -> None:
    """The helper, without EXECUTE_APP_FUNCTIONS, runs its own add(1, 2) and gets 3."""
    returns(execute(t.helper, HELPER_PACKAGE, "add", a=1, b=2), 3)


@case("noop-reports-calling-package", "ae.calling-package")
def noop_reports_calling_package(t) -> None:
    """noOp returns the calling package the service was given: the caller's."""
    returns(execute(t.caller, CALLER_PACKAGE, "noOp"), CALLER_PACKAGE)


@case("service-sees-real-calling-package", "service.v2-off")
def service_sees_real_calling_package(t) -> None:
    """Another app calling its own noOp is reported as itself, not as a fixed name."""
    returns(execute(t.helper, HELPER_PACKAGE, "noOp"), HELPER_PACKAGE)


@case("other-package-without-permission", "ae.other-package-no-permission")
def other_package_without_permission(t) -> None:
    """Without EXECUTE_APP_FUNCTIONS, another package's function is ERROR_DENIED, with the same
    message whether or not that package exists."""
    existing = fails_with(execute(t.helper, CALLER_PACKAGE, "noOp"), AppFunctionException.ERROR_DENIED, DENIED_SUFFIX)
    missing = fails_with(
        execute(t.helper, NONEXISTENT_PACKAGE, "noOp"), AppFunctionException.ERROR_DENIED, DENIED_SUFFIX
    )
    equal("the message for a nonexistent package", existing.error_message, missing.error_message)


@case("uncaught-client-exception", "ae.uncaught-client-exception")
def uncaught_client_exception(t) -> None:
    """An IllegalArgumentException escaping the service is ERROR_INVALID_ARGUMENT with its message."""
    fails_with(
        execute(t.caller, CALLER_PACKAGE, "uncaughtClientException"),
        AppFunctionException.ERROR_INVALID_ARGUMENT,
        "Function does not exist",
    )


@case("callback-invoked-twice", "ae.invoke-callback-twice")
def callback_invoked_twice(t) -> None:
    """A service that reports 3 and then 4 delivers only the first result."""
    returns(execute(t.caller, CALLER_PACKAGE, "add_invokeCallbackTwice", a=1, b=2), 3)


@case("add-async", "ae.async-and-empty-package")
def add_async(t) -> None:
    """A result reported later, from another thread, reaches the caller: addAsync(1, 2) is 3."""
    returns(execute(t.caller, CALLER_PACKAGE, "addAsync", a=1, b=2), 3)


@case("empty-package-name", "ae.async-and-empty-package")
def empty_package_name(t) -> None:
    """An empty target package is ERROR_INVALID_ARGUMENT."""
    fails_with(
        execute(t.caller, "", "add", a=1, b=2),
        AppFunctionException.ERROR_INVALID_ARGUMENT,
        "Target package name cannot be empty.",
    )


@case("throw-exception", "ae.throw-and-kill")
def throw_exception(t) -> None:
    """Any other exception escaping the service is ERROR_APP_UNKNOWN_ERROR."""
    fails_with(execute(t.caller, CALLER_PACKAGE, "throwException"), AppFunctionException.ERROR_APP_UNKNOWN_ERROR)


@case("kill", "ae.throw-and-kill")
def kill(t) -> None:
    """An app process that dies mid-call is ERROR_APP_UNKNOWN_ERROR; the process is gone, and a
    later call starts the app again."""
    returns(execute(t.caller, CALLER_PACKAGE, "noOp"), CALLER_PACKAGE)
    pid = current_pid(t, CALLER_PACKAGE)
    fails_with(execute(t.caller, CALLER_PACKAGE, "kill"), AppFunctionException.ERROR_APP_UNKNOWN_ERROR)
    eventually(f"app process {pid} to be gone", lambda: not process_alive(pid), DEADLINE, lambda: f"pid {pid} still runs")
    returns(execute(t.caller, CALLER_PACKAGE, "add", a=2, b=3), 5)
    if t.app_pid(CALLER_PACKAGE) == pid:
        raise Mismatch("the call after the kill to create the service in a new process", f"the latest creation is still pid {pid}")


@case("disabled-by-default", "ae.disabled")
def disabled_by_default(t) -> None:
    """add_disabledByDefault is ERROR_DISABLED, and the app's service is not created."""
    t.clear_package_data(CALLER_PACKAGE)  # stops the app, so a creation would show
    fails_with(execute(t.caller, CALLER_PACKAGE, "add_disabledByDefault", a=1, b=2), AppFunctionException.ERROR_DISABLED)
    no_service_created(t, CALLER_PACKAGE)


@case("disabled-at-runtime", "ae.disabled")
def disabled_at_runtime(t) -> None:
    """add after setEnabled(DISABLED) is ERROR_DISABLED, and the app's service is not created."""
    t.clear_package_data(CALLER_PACKAGE)
    manager = t.caller.app_function_manager
    manager.set_app_function_enabled("add", APP_FUNCTION_STATE_DISABLED)
    try:
        fails_with(execute(t.caller, CALLER_PACKAGE, "add", a=1, b=2), AppFunctionException.ERROR_DISABLED)
        no_service_created(t, CALLER_PACKAGE)
    finally:
        manager.set_app_function_enabled("add", APP_FUNCTION_STATE_DEFAULT)


@case("large-parameter", "ae.large-payloads")
def large_parameter(t) -> None:
    """A request carrying a 1 MB parameter succeeds."""
    returns(execute(t.caller, CALLER_PACKAGE, "noOp", payload="x" * (1024 * 1024)), CALLER_PACKAGE)


@case("echo-bytes-5mb", "ae.large-payloads")
def echo_bytes_5mb(t) -> None:
    """5 MB of bytes go to echoBytes and come back unchanged."""
    data = bytes(range(256)) * (5 * 1024 * 1024 // 256)
    returns(execute(t.caller, CALLER_PACKAGE, "echoBytes", data=data), data)


@case("unknown-function-own-package", "ae.unknown-function")
def unknown_function_own_package(t) -> None:
    """An id the caller's own package does not declare is ERROR_FUNCTION_NOT_FOUND."""
    fails_with(
        execute(t.caller, CALLER_PACKAGE, "nonExistentFunction"),
        AppFunctionException.ERROR_FUNCTION_NOT_FOUND,
        NOT_FOUND,
    )


@case("service-lives-on-after-a-call", "ae.permission-and-grant")
def service_lives_on_after_a_call(t) -> None:
    """The caller, with a grant, runs the helper's add(1, 2) and gets 3; the helper's service is
    created once and stays created after the call (droidsim keeps it until the app stops; Android
    unbinds, so CTS sees it destroyed)."""
    t.clear_package_data(HELPER_PACKAGE)  # stops the app, so its creation shows
    with t.access_flags(CALLER_PACKAGE, HELPER_PACKAGE, ACCESS_FLAG_OTHER_GRANTED):
        returns(execute(t.caller, HELPER_PACKAGE, "add", a=1, b=2), 3)
    lifecycle = [line.split(" ")[0] for line in t.events(HELPER_PACKAGE) if line.startswith(("created", "destroyed"))]
    equal("the helper's service lifecycle after the call", ["created"], lifecycle)


@case("multi-service-call-binds-first-service", "multi-service", sdks=frozenset({36}))
def multi_service_call_binds_first_service(t) -> None:
    """Android 16 resolves one AppFunctionService per package (the manifest's first), so echo,
    declared by TestAppFunctionService2, reaches TestAppFunctionService."""
    owner = t.context(MULTI_SERVICES_PACKAGE)
    returns(execute(owner, MULTI_SERVICES_PACKAGE, "echo"), "TestAppFunctionService:echo")


@case("multi-service-call-binds-declaring-service", "multi-service", sdks=frozenset({37}))
def multi_service_call_binds_declaring_service(t) -> None:
    """Android 17 binds the service whose XML declared the function: add reaches
    TestAppFunctionService, echo TestAppFunctionService2."""
    owner = t.context(MULTI_SERVICES_PACKAGE)
    returns(execute(owner, MULTI_SERVICES_PACKAGE, "add"), "TestAppFunctionService:add")
    returns(execute(owner, MULTI_SERVICES_PACKAGE, "echo"), "TestAppFunctionService2:echo")
