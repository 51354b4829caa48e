"""An app process that dies in the middle of a call: the caller hears ERROR_APP_UNKNOWN_ERROR,
every other app is served throughout, and the next call starts a fresh process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from droid.appfunctions import AppFunctionAppUnknownException, AppFunctionException
from sim.conformance.target import process_alive
from tests.faults.conftest import DEADLINE, FAULTY, execute, shell
from tests.helpers import HELPER_PACKAGE

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("function", "exit_code"),
    [("exitProcess", "3"), ("sigkill", "-9"), ("abort", "-6"), ("segfault", "-11")],
)
def test_app_dying_mid_call_gives_app_unknown_error_and_a_fresh_process(fault_device, function, exit_code):
    with shell(fault_device) as context, ThreadPoolExecutor(4) as pool:
        old_pid = execute(context, FAULTY, "pid")
        # Another app is in the middle of a call (addAsync answers after 50 ms) when this one dies.
        other = pool.submit(execute, context, HELPER_PACKAGE, "addAsync", a=20, b=22)
        crash = pool.submit(execute, context, FAULTY, function)
        with pytest.raises(AppFunctionAppUnknownException) as caught:
            crash.result(timeout=DEADLINE)
        assert caught.value.error_code == AppFunctionException.ERROR_APP_UNKNOWN_ERROR
        assert caught.value.error_message == (
            f"Failed to connect to AppFunctionService: app process died (exit code {exit_code})"
        )
        assert other.result(timeout=DEADLINE) == 42
        assert execute(context, HELPER_PACKAGE, "add", a=1, b=2) == 3
        new_pid = execute(context, FAULTY, "pid")
        assert new_pid != old_pid and not process_alive(old_pid)
        assert execute(context, FAULTY, "echo", text="still here") == "still here"


def test_the_crash_is_in_the_access_history(fault_device):
    with shell(fault_device) as context:
        with pytest.raises(AppFunctionAppUnknownException):
            execute(context, FAULTY, "sigkill")
        last = context.app_function_manager.get_access_history()[-1]
    assert (last.target_package_name, last.function_identifier) == (FAULTY, "sigkill")
    assert last.result_code == AppFunctionException.ERROR_APP_UNKNOWN_ERROR


def test_every_call_in_flight_when_the_app_dies_gets_the_error(fault_device):
    """Calls queued behind the crashing one, in the same process, are failed, not lost."""
    with shell(fault_device) as context, ThreadPoolExecutor(8) as pool:
        execute(context, FAULTY, "pid")  # the process is up, so the calls below queue in it
        calls = [pool.submit(execute, context, FAULTY, "segfault")]
        calls += [pool.submit(execute, context, FAULTY, "echo", text=str(i)) for i in range(6)]
        outcomes = []
        for call in calls:
            try:
                outcomes.append(call.result(timeout=DEADLINE))
            except AppFunctionAppUnknownException as error:
                outcomes.append(error.error_code)
    # Each echo either ran before the crash or failed with it; none is lost or answered twice.
    assert outcomes[0] == AppFunctionException.ERROR_APP_UNKNOWN_ERROR
    for index, outcome in enumerate(outcomes[1:]):
        assert outcome in (str(index), AppFunctionException.ERROR_APP_UNKNOWN_ERROR)
