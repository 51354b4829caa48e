"""Running the tool calls of one model turn: concurrently, each answered by a result or an error map.

``execute_calls`` yields a ``FunctionCall`` for every call before any starts, then the
``FunctionResponse``s in request order. A call that raises ``Interrupt`` is collected as an
``InterruptRequest`` instead; any other exception becomes the error map the model receives.
Outputs are JSON objects (droid.agent.tools.tool_output), since they are stored and sent to
models as JSON.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, AsyncIterator

from droid.agent.errors import ToolResultError, error_map, make_error_map
from droid.agent.events import AgentEvent, FunctionCall, FunctionResponse
from droid.agent.interrupts import Interrupt, InterruptRequest, ToolContext, set_tool_context
from droid.agent.messages import ToolRequest
from droid.agent.tools import AgentTool, call_tool
from droid.appfunctions.exceptions import AppFunctionException

log = logging.getLogger("droid.agent")


@dataclass
class Paused:
    """A call that interrupted, with what the tool asked."""

    metadata: dict[str, Any]


async def execute_calls(
    calls: list[tuple[ToolRequest, dict[str, Any] | None]],
    by_name: dict[str, AgentTool],
    session_id: str,
    outcomes: dict[str, dict[str, Any]],
    interrupts: list[InterruptRequest],
) -> AsyncIterator[AgentEvent]:
    """Run ``(request, resumed_metadata)`` calls concurrently; fill ``outcomes`` and ``interrupts``."""
    if not calls:
        return
    for request, _ in calls:  # FunctionCall comes before any call starts
        tool = by_name.get(request.name)
        yield FunctionCall(request.id, request.name, dict(request.args), tool.function_id if tool else None)
    tasks = [asyncio.create_task(invoke(by_name, request, session_id, resumed)) for request, resumed in calls]
    try:
        for (request, _), task in zip(calls, tasks):
            outcome = await task
            if isinstance(outcome, Paused):
                interrupts.append(InterruptRequest(request.id, request.name, dict(request.args), outcome.metadata))
            else:
                outcomes[request.id] = outcome
                yield FunctionResponse(request.id, request.name, outcome)
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def invoke(
    by_name: dict[str, AgentTool], request: ToolRequest, session_id: str, resumed_metadata: dict[str, Any] | None
) -> dict[str, Any] | Paused:
    """One call: its result, an error map, or Paused."""
    if request.argument_error:
        return make_error_map(AppFunctionException.ERROR_INVALID_ARGUMENT, "InvalidToolArguments", request.argument_error)
    tool = by_name.get(request.name)
    if tool is None:
        available = ", ".join(sorted(by_name)) or "none"
        return make_error_map(
            AppFunctionException.ERROR_FUNCTION_NOT_FOUND, "UnknownTool",
            f"there is no tool named {request.name!r}; available tools: {available}",
        )
    invalid = tool.argument_error(request.args)
    if invalid is not None:  # before the tool runs, and before a confirmation asks anyone
        return error_map(invalid)
    set_tool_context(ToolContext(request.id, session_id, resumed_metadata is not None, dict(resumed_metadata or {})))
    try:
        return await call_tool(tool, dict(request.args))
    except Interrupt as interrupt:
        return Paused(interrupt.metadata)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the model
        if isinstance(exc, ToolResultError):  # the runtime's own refusal: its message is the whole story
            log.warning("%s", exc)
        elif not isinstance(exc, AppFunctionException):
            log.warning("tool %s raised %s: %s", request.name, type(exc).__name__, exc, exc_info=True)
        return error_map(exc)

