"""Cancelling a call, however the caller does it, reaches the app's cancel listener; an app
that ignores it is killed after the cancellation timeout; an optional execution timeout ends
calls that run too long. docs/reliability.md says what each caller receives."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import CancelledError, Future
from typing import Callable

import grpc
import pytest

from droid.appfunctions import AppFunctionCancelledException, AppFunctionException, ExecuteAppFunctionRequest
from droid.binder import wire
from droid.binder.channel import open_channel
from droid.binder.remote import CREDENTIAL_KEY
from droid.os import CancellationSignal
from droidsim.v1 import app_function_manager_pb2_grpc as afm_grpc
from sim.conformance.expect import eventually
from sim.conformance.target import process_alive
from tests.faults.conftest import DEADLINE, FAULTY, events, execute, shell, start_device
from tests.helpers import HELPER_PACKAGE

pytestmark = pytest.mark.e2e

CANCELLED_BY_CALLER = "The call was cancelled by the caller."


def in_background(call) -> Future:
    future: Future = Future()

    def run() -> None:
        try:
            future.set_result(call())
        except BaseException as error:
            future.set_exception(error)

    threading.Thread(target=run, daemon=True).start()
    return future


def app_pid(device, package: str) -> int:
    """The pid of the app's current process, from the trace its service leaves when created."""
    created = [line for line in events(device, package) if line.startswith("created pid=")]
    return int(created[-1].split("=", 1)[1])


def started(device, package: str, function: str, before: int) -> None:
    eventually(f"{package} to start {function}", lambda: f"started {function}" in events(device, package)[before:],
               DEADLINE, lambda: f"its events: {events(device, package)[before:]}")


def stopped(pid: int) -> None:
    """The app process ``pid`` goes, once the 1 s cancellation timeout has passed."""
    eventually(f"pid {pid} to be stopped after the cancellation timeout", lambda: not process_alive(pid),
               DEADLINE, lambda: f"pid {pid} still runs")


def cancel_with_signal(device) -> tuple[Future, Callable[[], None]]:
    signal = CancellationSignal()
    call = in_background(lambda: execute(shell(device), HELPER_PACKAGE, "longRunningFunction", signal))
    return call, signal.cancel


def raw_grpc_call(device) -> tuple[grpc.Channel, grpc.Future]:
    """longRunningFunction from a bare gRPC client, as a future."""
    channel = open_channel(f"unix:{device.data / 'device.sock'}")
    message = wire.request_to_proto(ExecuteAppFunctionRequest(HELPER_PACKAGE, "longRunningFunction"))
    credential = (device.data / "shell.credential").read_text()
    future = afm_grpc.AppFunctionManagerStub(channel).ExecuteAppFunction.future(
        message, metadata=((CREDENTIAL_KEY, credential),)
    )
    return channel, future


def cancel_grpc_call(device) -> tuple[grpc.Future, Callable[[], None]]:
    """The client gives up on its call."""
    _, future = raw_grpc_call(device)
    return future, future.cancel


def close_the_channel(device) -> tuple[grpc.Future, Callable[[], None]]:
    """The client goes away in the middle of its call."""
    channel, future = raw_grpc_call(device)
    return future, channel.close


def cancel_the_awaiting_task(device) -> tuple[Future, Callable[[], None]]:
    """An asyncio caller (an agent, the MCP bridge) cancels the task awaiting the call."""
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    request = ExecuteAppFunctionRequest(HELPER_PACKAGE, "longRunningFunction")
    manager = shell(device).app_function_manager
    call = asyncio.run_coroutine_threadsafe(manager.execute_app_function_async(request), loop)
    return call, lambda: loop.call_soon_threadsafe(call.cancel)


@pytest.mark.parametrize("cancel_how", [cancel_with_signal, cancel_grpc_call, close_the_channel, cancel_the_awaiting_task],
                         ids=["CancellationSignal", "grpc-future-cancel", "channel-closed", "asyncio-task-cancel"])
def test_a_cancel_reaches_the_app_and_the_app_is_stopped(fault_device, cancel_how):
    before = len(events(fault_device, HELPER_PACKAGE))
    call, cancel = cancel_how(fault_device)
    started(fault_device, HELPER_PACKAGE, "longRunningFunction", before)
    pid = app_pid(fault_device, HELPER_PACKAGE)
    cancel()
    eventually("the app's cancel listener to fire",
               lambda: "cancelled longRunningFunction" in events(fault_device, HELPER_PACKAGE)[before:],
               DEADLINE, lambda: f"its events: {events(fault_device, HELPER_PACKAGE)[before:]}")
    # longRunningFunction never answers: after the 1 s cancellation timeout its process goes.
    stopped(pid)
    if cancel_how is cancel_with_signal:
        with pytest.raises(AppFunctionCancelledException) as caught:
            call.result(DEADLINE)
        assert caught.value.error_message == CANCELLED_BY_CALLER
    elif cancel_how is cancel_the_awaiting_task:
        with pytest.raises(CancelledError):
            call.result(DEADLINE)
    else:
        with pytest.raises((grpc.FutureCancelledError, grpc.RpcError)):
            call.result(DEADLINE)
        assert call.cancelled() or call.code() == grpc.StatusCode.CANCELLED
    with shell(fault_device) as context:
        assert execute(context, HELPER_PACKAGE, "add", a=2, b=2) == 4


def test_an_app_that_ignores_the_cancel_is_killed_and_restarted(fault_device):
    with shell(fault_device) as context:
        pid = execute(context, FAULTY, "pid")
        before = len(events(fault_device, FAULTY))
        signal = CancellationSignal()
        call = in_background(lambda: execute(context, FAULTY, "hang", signal))
        started(fault_device, FAULTY, "hang", before)
        signal.cancel()
        with pytest.raises(AppFunctionCancelledException):
            call.result(DEADLINE)
        stopped(pid)
        assert execute(context, FAULTY, "pid") != pid


@pytest.fixture(scope="module")
def timed_device(tmp_path_factory):
    """An execution timeout of 3 s: a call's time includes starting the app's process, which on a
    loaded 2-core machine took more than 1 s (the first call then timed out before the app ran)."""
    device = start_device(tmp_path_factory.mktemp("timeout"), "--execution-timeout", "3", "--cancellation-timeout", "1")
    yield device
    device.stop()


TIMED_OUT = ("The call ran longer than this device's execution timeout of 3 s "
             "(droidsim device start --execution-timeout) and was cancelled.")


def test_the_execution_timeout_cancels_a_long_call_with_a_clear_error(timed_device):
    before = len(events(timed_device, HELPER_PACKAGE))
    with shell(timed_device) as context:
        assert execute(context, HELPER_PACKAGE, "addAsync", a=1, b=2) == 3  # quick calls are untouched
        with pytest.raises(AppFunctionCancelledException) as caught:
            in_background(lambda: execute(context, HELPER_PACKAGE, "longRunningFunction")).result(DEADLINE)
        assert caught.value.error_code == AppFunctionException.ERROR_CANCELLED
        assert caught.value.error_message == TIMED_OUT
        eventually("the app's cancel listener to fire",
                   lambda: "cancelled longRunningFunction" in events(timed_device, HELPER_PACKAGE)[before:],
                   DEADLINE, lambda: f"its events: {events(timed_device, HELPER_PACKAGE)[before:]}")
        last = context.app_function_manager.get_access_history()[-1]
        assert (last.function_identifier, last.result_code, last.result_message) == (
            "longRunningFunction", AppFunctionException.ERROR_CANCELLED, TIMED_OUT)


def test_the_execution_timeout_ends_a_hung_app_which_is_then_killed(timed_device):
    with shell(timed_device) as context:
        pid = execute(context, FAULTY, "pid")
        with pytest.raises(AppFunctionCancelledException) as caught:
            in_background(lambda: execute(context, FAULTY, "hang")).result(DEADLINE)
        assert caught.value.error_message == TIMED_OUT
        stopped(pid)
        assert execute(context, FAULTY, "echo", text="back") == "back"
