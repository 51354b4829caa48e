"""AgentSession: one conversation and the observe -> reason -> act -> evaluate loop.

``run(prompt)`` is an async iterator of AgentEvents. Each model turn: the model
sees the instructions, the history and the tool declarations (observe), answers
or asks for tool calls (reason); the calls run, concurrently when there are
several (act); their results, or error maps, go back into the history for the
next turn (evaluate). The run ends when the model answers without calling a
tool, or with a ``MaxTurnsReached``, ``Interrupted`` or ``ToolRequestsReturned``
event.

The history (and any pending interrupt or manual tool requests) is saved to the
runner's store after every step, so a new process with a runner on the same
folder carries on where this one stopped.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, AsyncIterator, Iterable

from droid.agent.confirmation import cancelled_by_user
from droid.agent.errors import AgentError, ModelError, error_map, make_error_map
from droid.agent.events import (
    AgentEvent,
    FunctionCall,
    FunctionResponse,
    Interrupted,
    MaxTurnsReached,
    TextMessage,
    ToolRequestsReturned,
)
from droid.agent.interrupts import (
    Interrupt,
    InterruptRequest,
    InterruptResponse,
    InterruptRestart,
    ToolContext,
    _set_tool_context,
)
from droid.agent.messages import ASSISTANT, Message, ToolRequest, ToolResponse, new_call_id
from droid.agent.models.base import ModelRequest, ModelResponse, TextDelta
from droid.agent.tools import AgentTool, as_output, call_tool
from droid.appfunctions.exceptions import AppFunctionException

if TYPE_CHECKING:
    from droid.agent.runner import AgentRunner

log = logging.getLogger("droid.agent")

STATE_VERSION = 1

# Session status values.
IDLE = "idle"
RUNNING = "running"
COMPLETED = "completed"
INTERRUPTED = "interrupted"
MAX_TURNS = "max_turns"
AWAITING_TOOL_RESPONSES = "awaiting_tool_responses"


@dataclass
class _Paused:
    metadata: dict[str, Any]


class AgentSession:
    """A conversation with an agent. Create it with ``AgentRunner.create_session``."""

    def __init__(self, runner: "AgentRunner", session_id: str, state: dict[str, Any] | None = None) -> None:
        self.runner = runner
        self.session_id = session_id
        self._history: list[Message] = []
        self._pending: dict[str, Any] | None = None
        self.status = IDLE
        self._closed = False
        self._running_task: asyncio.Task | None = None
        if state:
            self._restore(state)

    # -- state ------------------------------------------------------------------------------------

    @property
    def history(self) -> list[Message]:
        """A copy of the conversation so far (user, assistant and tool messages)."""
        return [Message.from_dict(m.to_dict()) for m in self._history]

    @property
    def pending_interrupts(self) -> list[InterruptRequest]:
        if not self._pending or self._pending["kind"] != "interrupt":
            return []
        return [InterruptRequest.from_dict(i) for i in self._pending["interrupts"]]

    @property
    def pending_tool_requests(self) -> list[ToolRequest]:
        if not self._pending or self._pending["kind"] != "tool_requests":
            return []
        return [ToolRequest.from_dict(r) for r in self._pending["requests"]]

    @property
    def is_running(self) -> bool:
        return self._running_task is not None

    def _state(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "session_id": self.session_id,
            "agent": self.runner.agent.name,
            "status": self.status if self.status != RUNNING else IDLE,
            "history": [m.to_dict() for m in self._history],
            "pending": self._pending,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        if state.get("version") != STATE_VERSION:
            raise AgentError(f"session {self.session_id!r} was stored in format {state.get('version')!r}, not {STATE_VERSION}")
        self._history = [Message.from_dict(m) for m in state.get("history", [])]
        self._pending = state.get("pending")
        self.status = state.get("status", IDLE)

    def _save(self) -> None:
        if not self._closed:
            self.runner.store.save(self.session_id, self._state())

    # -- lifecycle --------------------------------------------------------------------------------

    def clear(self) -> None:
        """Forget the conversation (and pending interrupts); the session stays usable."""
        self._check_idle()
        self._history = []
        self._pending = None
        self.status = IDLE
        self._save()

    def close(self) -> None:
        """Let go of the session in this process; its history stays stored."""
        self._closed = True
        self.runner._forget(self)

    def delete(self) -> None:
        """Cancel an active run and erase the session and its stored history."""
        task = self._running_task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()
        self._closed = True
        self.runner.store.delete(self.session_id)
        self.runner._forget(self)

    def _check_open(self) -> None:
        if self._closed:
            raise AgentError(f"session {self.session_id!r} is closed")

    def _check_idle(self) -> None:
        self._check_open()
        if self._running_task is not None:
            raise AgentError(f"session {self.session_id!r} is running; wait for the run to end")

    # -- running ----------------------------------------------------------------------------------

    async def run(
        self,
        prompt: str | None = None,
        *,
        tool_responses: Iterable[ToolResponse] | None = None,
        return_tool_requests: bool = False,
    ) -> AsyncIterator[AgentEvent]:
        """Send ``prompt`` and stream the agent's events until the turn ends.

        ``return_tool_requests=True`` is the manual loop: the model's tool calls
        are not executed; the run ends with ``ToolRequestsReturned`` and the next
        ``run(tool_responses=[...])`` (with or without a prompt) hands in the
        results (``execute_tool_request`` runs one for you).
        """
        self._check_idle()
        responses = list(tool_responses or [])
        if self._pending and self._pending["kind"] == "interrupt":
            ids = ", ".join(i["id"] for i in self._pending["interrupts"])
            raise AgentError(
                f"session {self.session_id!r} is interrupted (interrupts {ids}): call resume(), or cancel_pending()"
            )
        if self._pending and self._pending["kind"] == "tool_requests":
            if not responses:
                raise AgentError("tool requests are pending: pass tool_responses=[...] for every one of them")
            self._check_answers({r.id for r in responses}, [r["id"] for r in self._pending["requests"]])
        elif responses:
            raise AgentError("no tool requests are pending; tool_responses are only for return_tool_requests runs")
        if prompt is None and not responses:
            raise AgentError("nothing to run: give a prompt")
        self._begin()
        try:
            if responses:
                by_id = {r.id: r for r in responses}
                for request in self._pending["requests"]:
                    answer = by_id[request["id"]]
                    output = _json_safe(as_output(answer.output))
                    self._history.append(Message.tool(ToolResponse(answer.id, request["name"], output)))
                    yield FunctionResponse(answer.id, request["name"], output)
                self._pending = None
            if prompt is not None:
                self._history.append(Message.user(prompt))
            self._save()
            async for event in self._loop(return_tool_requests):
                yield event
        finally:
            self._end()

    async def resume(
        self,
        respond: Iterable[InterruptResponse] | InterruptResponse = (),
        restart: Iterable[InterruptRestart] | InterruptRestart = (),
        *,
        return_tool_requests: bool = False,
    ) -> AsyncIterator[AgentEvent]:
        """Answer every pending interrupt, by id, then carry on with the loop.

        ``respond``: the model receives the given output as the tool's result.
        ``restart``: the tool runs again and sees ``resumed_metadata`` (and the
        replaced input) through ``current_tool_context()``.
        """
        self._check_idle()
        if not self._pending or self._pending["kind"] != "interrupt":
            raise AgentError(f"session {self.session_id!r} has no pending interrupts")
        respond = [respond] if isinstance(respond, InterruptResponse) else list(respond)
        restart = [restart] if isinstance(restart, InterruptRestart) else list(restart)
        given = [a.id for a in respond] + [a.id for a in restart]
        if len(given) != len(set(given)):
            raise AgentError("each interrupt takes one answer: an id was answered twice")
        self._check_answers(set(given), [i["id"] for i in self._pending["interrupts"]])
        self._begin()
        try:
            pending = self._pending
            requests = [ToolRequest.from_dict(r) for r in pending["requests"]]
            outcomes: dict[str, dict[str, Any]] = dict(pending["responses"])
            by_id = {r.id: r for r in requests}
            for answer in respond:
                output = _json_safe(as_output(answer.output))
                outcomes[answer.id] = output
                yield FunctionResponse(answer.id, by_id[answer.id].name, output)
            reruns = []
            for answer in restart:
                request = by_id[answer.id]
                if answer.replace_input is not None:
                    request.args = dict(answer.replace_input)
                    self._replace_args(request)
                reruns.append((request, answer.resumed_metadata))
            interrupts: list[InterruptRequest] = []
            async for event in self._execute(reruns, outcomes, interrupts):
                yield event
            if interrupts:
                pending["requests"] = [r.to_dict() for r in requests]
                pending["responses"] = outcomes
                pending["interrupts"] = [i.to_dict() for i in interrupts]
                self.status = INTERRUPTED
                self._save()
                yield Interrupted(tuple(interrupts))
                return
            self._pending = None
            for request in requests:
                self._history.append(Message.tool(ToolResponse(request.id, request.name, outcomes[request.id])))
            self._save()
            async for event in self._loop(return_tool_requests):
                yield event
        finally:
            self._end()

    def cancel_pending(self, message: str = "Action was declined by the user.") -> None:
        """Answer every pending interrupt or tool request with CANCELLED_BY_USER, without running it."""
        self._check_idle()
        if not self._pending:
            return
        outcomes = dict(self._pending.get("responses", {}))
        for request in self._pending["requests"]:
            output = outcomes.get(request["id"], cancelled_by_user(message))
            self._history.append(Message.tool(ToolResponse(request["id"], request["name"], output)))
        self._pending = None
        self.status = IDLE
        self._save()

    async def execute_tool_request(self, request: ToolRequest) -> ToolResponse:
        """Run one tool request yourself (manual loop); errors come back as error maps."""
        tools = await self.runner._tools_async()
        outcome = await self._invoke({t.name: t for t in tools}, request, None)
        if isinstance(outcome, _Paused):
            raise AgentError(f"tool {request.name} interrupted; in a manual loop, answer it yourself")
        return ToolResponse(request.id, request.name, outcome)

    # -- the loop ---------------------------------------------------------------------------------

    def _begin(self) -> None:
        self._running_task = asyncio.current_task()
        self.status = RUNNING

    def _end(self) -> None:
        self._running_task = None
        if self.status == RUNNING:  # stopped early: cancelled, or the consumer stopped reading
            self.status = IDLE
            self._repair_history()
            self._save()

    async def _loop(self, return_tool_requests: bool) -> AsyncIterator[AgentEvent]:
        runner = self.runner
        tools = await runner._tools_async()
        declarations = tuple(t.declaration() for t in tools)
        max_turns = runner.agent.max_turns
        rounds = 0
        while True:
            request = ModelRequest(runner.agent.instructions, tuple(self.history), declarations)
            response: ModelResponse | None = None
            async for chunk in runner.model.generate(request):
                if isinstance(chunk, TextDelta):
                    if chunk.text:
                        yield TextMessage(chunk.text, partial=True)
                elif isinstance(chunk, ModelResponse):
                    response = chunk
            if response is None:
                raise ModelError(f"model {runner.model.name!r} ended its turn without a response")
            requests = self._assign_ids(response.tool_requests)
            self._history.append(Message(ASSISTANT, response.text, requests))
            if response.text:
                yield TextMessage(response.text, partial=False)
            if not requests:
                self.status = COMPLETED
                self._save()
                return
            if return_tool_requests:
                self._pending = {"kind": "tool_requests", "requests": [r.to_dict() for r in requests]}
                self.status = AWAITING_TOOL_RESPONSES
                self._save()
                yield ToolRequestsReturned(tuple(requests))
                return
            if rounds >= max_turns:
                # Not executed; answered so that every call in the history has a response.
                for r in requests:
                    output = make_error_map(
                        AppFunctionException.ERROR_LIMIT_EXCEEDED, "MaxTurnsReached",
                        f"not executed: the agent reached max_turns ({max_turns}) for this prompt",
                    )
                    self._history.append(Message.tool(ToolResponse(r.id, r.name, output)))
                self.status = MAX_TURNS
                self._save()
                yield MaxTurnsReached(max_turns)
                return
            rounds += 1
            self._save()
            outcomes: dict[str, dict[str, Any]] = {}
            interrupts: list[InterruptRequest] = []
            async for event in self._execute([(r, None) for r in requests], outcomes, interrupts):
                yield event
            if interrupts:
                self._pending = {
                    "kind": "interrupt",
                    "requests": [r.to_dict() for r in requests],
                    "responses": outcomes,
                    "interrupts": [i.to_dict() for i in interrupts],
                }
                self.status = INTERRUPTED
                self._save()
                yield Interrupted(tuple(interrupts))
                return
            for r in requests:
                self._history.append(Message.tool(ToolResponse(r.id, r.name, outcomes[r.id])))
            self._save()

    async def _execute(
        self,
        calls: list[tuple[ToolRequest, dict[str, Any] | None]],
        outcomes: dict[str, dict[str, Any]],
        interrupts: list[InterruptRequest],
    ) -> AsyncIterator[AgentEvent]:
        """Run calls concurrently; yield their responses in request order."""
        if not calls:
            return
        tools = await self.runner._tools_async()
        by_name = {t.name: t for t in tools}
        for request, _ in calls:  # FunctionCall comes before any call starts
            tool = by_name.get(request.name)
            yield FunctionCall(request.id, request.name, dict(request.args), tool.function_id if tool else None)
        tasks = [asyncio.create_task(self._invoke(by_name, request, resumed)) for request, resumed in calls]
        try:
            for (request, _), task in zip(calls, tasks):
                outcome = await task
                if isinstance(outcome, _Paused):
                    interrupts.append(InterruptRequest(request.id, request.name, dict(request.args), outcome.metadata))
                else:
                    outcomes[request.id] = outcome
                    yield FunctionResponse(request.id, request.name, outcome)
        finally:
            for task in tasks:
                if not task.done():
                    task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _invoke(
        self, by_name: dict[str, AgentTool], request: ToolRequest, resumed_metadata: dict[str, Any] | None
    ) -> dict[str, Any] | _Paused:
        if request.argument_error:
            return make_error_map(AppFunctionException.ERROR_INVALID_ARGUMENT, "InvalidToolArguments", request.argument_error)
        tool = by_name.get(request.name)
        if tool is None:
            available = ", ".join(sorted(by_name)) or "none"
            return make_error_map(
                AppFunctionException.ERROR_FUNCTION_NOT_FOUND, "UnknownTool",
                f"there is no tool named {request.name!r}; available tools: {available}",
            )
        _set_tool_context(ToolContext(request.id, self.session_id, resumed_metadata is not None, dict(resumed_metadata or {})))
        try:
            return _json_safe(await call_tool(tool, dict(request.args)))
        except Interrupt as interrupt:
            return _Paused(interrupt.metadata)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the model
            if not isinstance(exc, AppFunctionException):
                log.warning("tool %s raised %s: %s", request.name, type(exc).__name__, exc, exc_info=True)
            return error_map(exc)

    # -- helpers ----------------------------------------------------------------------------------

    def _assign_ids(self, requests: list[ToolRequest]) -> list[ToolRequest]:
        """Every call gets an id unique in the session (a model may repeat or omit them)."""
        used = {r.id for m in self._history for r in m.tool_requests}
        result = []
        for request in requests:
            request = ToolRequest(request.name, dict(request.args), request.id, request.argument_error)
            if not request.id or request.id in used:
                request.id = new_call_id()
            used.add(request.id)
            result.append(request)
        return result

    def _replace_args(self, request: ToolRequest) -> None:
        for message in reversed(self._history):
            for r in message.tool_requests:
                if r.id == request.id:
                    r.args = dict(request.args)
                    return

    def _repair_history(self) -> None:
        """After an aborted run, answer calls left without a response (a dangling call breaks models)."""
        if self._pending:
            return
        answered = {m.tool_response.id for m in self._history if m.tool_response}
        last = next((m for m in reversed(self._history) if m.role == ASSISTANT), None)
        if last is None:
            return
        for r in last.tool_requests:
            if r.id not in answered:
                output = make_error_map(AppFunctionException.ERROR_CANCELLED, "RunCancelled", "the run was stopped before this call finished")
                self._history.append(Message.tool(ToolResponse(r.id, r.name, output)))

    @staticmethod
    def _check_answers(given: set[str], expected: list[str]) -> None:
        unknown = sorted(given - set(expected))
        if unknown:
            raise AgentError(f"no pending call has id {unknown[0]!r}; pending: {', '.join(expected)}")
        missing = [i for i in expected if i not in given]
        if missing:
            raise AgentError(f"every pending call needs an answer; missing: {', '.join(missing)}")


def _json_safe(output: dict[str, Any]) -> dict[str, Any]:
    """Outputs are stored and sent to models as JSON: make sure they are."""
    try:
        return json.loads(json.dumps(output))
    except (TypeError, ValueError):
        return json.loads(json.dumps(output, default=str))
