"""Calling an entry point as the device does: on_execute_function inside a running
event loop, with a callback that records the one outcome."""

from __future__ import annotations

import asyncio
from typing import Any

from droid.appfunctions import AppFunctionData, AppFunctionException
from droid.appfunctions.requests import ExecuteAppFunctionRequest, ExecuteAppFunctionResponse
from droid.os import CancellationSignal


class RecordingCallback:
    """An OutcomeReceiver that resolves a future (from any thread) and counts calls."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.outcome: asyncio.Future = loop.create_future()
        self.calls = 0

    def _settle(self, value: Any) -> None:
        self.calls += 1
        if not self.outcome.done():
            self.outcome.set_result(value)

    def on_result(self, result: ExecuteAppFunctionResponse) -> None:
        self.loop.call_soon_threadsafe(self._settle, result)

    def on_error(self, error: AppFunctionException) -> None:
        self.loop.call_soon_threadsafe(self._settle, error)


async def execute(
    service: Any,
    function_id: str,
    parameters: dict[str, Any] | AppFunctionData | None = None,
    signal: CancellationSignal | None = None,
    timeout: float = 5.0,
) -> ExecuteAppFunctionResponse | AppFunctionException:
    """The response, or the AppFunctionException reported to the callback."""
    loop = asyncio.get_running_loop()
    callback = RecordingCallback(loop)
    params = parameters if isinstance(parameters, AppFunctionData) else AppFunctionData(parameters or {})
    request = ExecuteAppFunctionRequest("com.example.test", function_id, params)
    service.on_execute_function(request, "com.example.caller", signal or CancellationSignal(), callback)
    outcome = await asyncio.wait_for(callback.outcome, timeout)
    await asyncio.sleep(0.01)  # let a second (wrong) callback show up, if any
    assert callback.calls == 1, f"the callback was called {callback.calls} times"
    return outcome


async def returns(service: Any, function_id: str, parameters: dict[str, Any] | None = None) -> Any:
    """The return value; fails the test with the error if the call failed."""
    outcome = await execute(service, function_id, parameters)
    assert isinstance(outcome, ExecuteAppFunctionResponse), f"{function_id} failed: {outcome!r}"
    return outcome.return_value


async def fails(service: Any, function_id: str, parameters: dict[str, Any] | None = None) -> AppFunctionException:
    outcome = await execute(service, function_id, parameters)
    assert isinstance(outcome, AppFunctionException), f"{function_id} did not fail: {outcome!r}"
    return outcome
