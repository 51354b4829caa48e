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

A run that fails (the model backend raised: HTTP 5xx after retries, 400, a
timeout) leaves the session exactly as it was before the run: its prompt is not
kept, so the next prompt does not follow an unanswered one (templates such as
Mistral's and Gemma's refuse two user messages in a row). Calls that already ran
on the device are not undone; their events were streamed.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterable, Protocol

from droid.agent.agent import CONTEXT_OVERFLOW_DROP_OLDEST, TOOL_CHOICES, Agent, check_tools
from droid.agent.chunks import chunks_of
from droid.agent.errors import AgentError, ContextLengthExceededError, ModelError, make_error_map
from droid.agent.events import (
    AgentEvent,
    FunctionResponse,
    Interrupted,
    MaxTurnsReached,
    ReasoningMessage,
    TextMessage,
    ToolRequestsReturned,
)
from droid.agent.execution import Paused, execute_calls, invoke
from droid.agent.interrupts import InterruptRequest, InterruptResponse, InterruptRestart, cancelled_by_user
from droid.agent.messages import ASSISTANT, USER, Message, ToolRequest, ToolResponse, new_call_id
from droid.agent.response import AgentResponse, EventStream
from droid.agent.models.base import Model, ModelRequest, ModelResponse, ReasoningDelta, TextDelta
from droid.agent.store import SessionStore
from droid.agent.tools import AgentTool, check_unique_names, tool_output
from droid.appfunctions.exceptions import AppFunctionException

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
class _TurnOptions:
    """tool_choice for a run's first model call, and what later calls get."""

    first_choice: str | None
    parallel_tool_calls: bool | None

    @property
    def later_choice(self) -> str | None:
        # After the first call, "auto": a "required" or a named function must not repeat every turn.
        return "auto" if self.first_choice is not None else None


class SessionOwner(Protocol):
    """What a session needs of the runner that made it (the runner imports this module,
    never the other way round)."""

    agent: Agent
    model: Model
    store: SessionStore

    def resolve_tools(self) -> list[AgentTool]: ...

    async def resolve_tools_async(self) -> list[AgentTool]: ...

    def forget_session(self, session: "AgentSession") -> None: ...


class AgentSession:
    """A conversation with an agent. Create it with ``AgentRunner.create_session``."""

    def __init__(self, runner: SessionOwner, session_id: str, state: dict[str, Any] | None = None) -> None:
        self.runner = runner
        self.session_id = session_id
        self._history: list[Message] = []
        self._pending: dict[str, Any] | None = None
        # History messages before this index are no longer sent to the model (context_overflow).
        self._window = 0
        self.status = IDLE
        self._closed = False
        self._running_task: asyncio.Task | None = None
        self._run_tools: list[AgentTool] = []  # tools=[...] of the current or interrupted run
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
            "window": self._window,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        if state.get("version") != STATE_VERSION:
            raise AgentError(f"session {self.session_id!r} was stored in format {state.get('version')!r}, not {STATE_VERSION}")
        self._history = [Message.from_dict(m) for m in state.get("history", [])]
        self._pending = state.get("pending")
        self._window = int(state.get("window", 0))
        self.status = state.get("status", IDLE)

    def _rollback_to(self, state: dict[str, Any]) -> None:
        self._restore(copy.deepcopy(state))
        self._save()

    def _save(self) -> None:
        if not self._closed:
            self.runner.store.save(self.session_id, self._state())

    # -- lifecycle --------------------------------------------------------------------------------

    def clear(self) -> None:
        """Forget the conversation (and pending interrupts); the session stays usable."""
        self._check_idle()
        self._history = []
        self._pending = None
        self._window = 0
        self.status = IDLE
        self._save()

    def close(self) -> None:
        """Let go of the session in this process; its history stays stored."""
        self._closed = True
        self.runner.forget_session(self)

    def delete(self) -> None:
        """Cancel an active run and erase the session and its stored history."""
        task = self._running_task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()
        self._closed = True
        self.runner.store.delete(self.session_id)
        self.runner.forget_session(self)

    def _check_open(self) -> None:
        if self._closed:
            raise AgentError(f"session {self.session_id!r} is closed")

    def _check_idle(self) -> None:
        self._check_open()
        if self._running_task is not None:
            raise AgentError(f"session {self.session_id!r} is running; wait for the run to end")

    # -- running ----------------------------------------------------------------------------------

    def run(
        self,
        prompt: str | None = None,
        *,
        tool_responses: Iterable[ToolResponse | dict[str, Any]] | None = None,
        return_tool_requests: bool = False,
        tools: Iterable[AgentTool] | None = None,
        tool_choice: str | None = None,
        parallel_tool_calls: bool | None = None,
    ) -> EventStream:
        """Send ``prompt`` and stream the agent's events until the turn ends:
        ``async for event in session.run(prompt)``; ``await session.send(prompt)`` gives the
        same run as one response.

        ``tools``: more tools for this run only (Genkit's per-call tools), declared beside
        the agent's. ``tool_choice`` / ``parallel_tool_calls`` override the agent's for this
        run (``tool_choice`` applies to the run's first model call only).

        ``return_tool_requests=True`` is the manual loop: the model's tool calls
        are not executed; the run ends with ``ToolRequestsReturned`` and the next
        ``run(tool_responses=[...])`` (with or without a prompt) hands in the
        results: ``ToolResponse(id, name, output)`` (``request.respond(output)``) or Genkit's
        ``{"name", "ref", "output"}`` (``execute_tool_request`` runs one for you).

        If the model backend fails, the exception propagates and the session is left as
        it was before this call.
        """
        return EventStream(self._run(prompt, tool_responses, return_tool_requests, tools, tool_choice,
                                     parallel_tool_calls), "run")

    async def send(
        self,
        prompt: str | None = None,
        *,
        respond: Iterable[InterruptResponse] | InterruptResponse = (),
        restart: Iterable[InterruptRestart] | InterruptRestart = (),
        **options: Any,
    ) -> AgentResponse:
        """One call for one answer (Genkit's ``chat.send``): the run of ``prompt`` (``run``'s
        options apply), or with ``respond`` / ``restart`` the resumption of its interrupts,
        as an ``AgentResponse`` with ``text``, ``finish_reason``, ``interrupts``,
        ``tool_requests`` and the ``events``."""
        if respond or restart:
            if prompt is not None:
                raise AgentError("answer the pending interrupts (respond=, restart=) and send the next prompt "
                                 "in a call of its own")
            events = self.resume(respond, restart, **options)
        else:
            events = self.run(prompt, **options)
        return AgentResponse.of([event async for event in events], self.history)

    async def _run(
        self,
        prompt: str | None,
        tool_responses: Iterable[ToolResponse | dict[str, Any]] | None,
        return_tool_requests: bool,
        tools: Iterable[AgentTool] | None,
        tool_choice: str | None,
        parallel_tool_calls: bool | None,
    ) -> AsyncIterator[AgentEvent]:
        self._check_idle()
        responses = [ToolResponse.of(answer) for answer in tool_responses or []]
        if self._pending and self._pending["kind"] == "interrupt":
            ids = ", ".join(i["id"] for i in self._pending["interrupts"])
            raise AgentError(
                f"session {self.session_id!r} is interrupted (interrupts {ids}): answer them with "
                "session.send(respond=[...], restart=[...]) (or session.resume(...) for events; a confirmation: "
                "interrupt.confirm() or interrupt.deny()), or drop them with session.cancel_pending()"
            )
        if self._pending and self._pending["kind"] == "tool_requests":
            if not responses:
                raise AgentError("tool requests are pending: pass tool_responses=[...] for every one of them")
            self._check_answers({r.id for r in responses}, [r["id"] for r in self._pending["requests"]])
            self._check_names(responses, self._pending["requests"])
        elif responses:
            raise AgentError("no tool requests are pending; tool_responses are only for return_tool_requests runs")
        if prompt is None and not responses:
            raise AgentError("nothing to run: give a prompt")
        run_tools = self._check_run_tools(tools)
        agent = self.runner.agent
        options = _TurnOptions(
            first_choice=tool_choice if tool_choice is not None else agent.tool_choice,
            parallel_tool_calls=parallel_tool_calls if parallel_tool_calls is not None else agent.parallel_tool_calls,
        )
        if prompt is None:  # carrying on after manual tool responses: not a new prompt
            options.first_choice = options.later_choice
        before = copy.deepcopy(self._state())
        self._begin()
        try:
            self._run_tools = run_tools
            if responses:
                by_id = {r.id: r for r in responses}
                for request in self._pending["requests"]:
                    answer = by_id[request["id"]]
                    output = tool_output(answer.output, f"the tool response to {request['name']} ({answer.id})")
                    self._history.append(Message.tool(ToolResponse(answer.id, request["name"], output)))
                    yield FunctionResponse(answer.id, request["name"], output)
                self._pending = None
            if prompt is not None:
                self._history.append(Message.user(prompt))
            self._save()
            async for event in self._loop(return_tool_requests, options):
                yield event
        except Exception:
            self._rollback_to(before)
            raise
        finally:
            self._end()

    def stream(self, prompt: str | None = None, **options: Any) -> EventStream:
        """``run`` as Genkit-style chunks: text, reasoning and tool requests of the model, tool
        responses, each with its message ``index`` and ``role`` (see ``droid.agent.chunks``)."""
        return EventStream(chunks_of(self.run(prompt, **options)), "stream")

    def resume(
        self,
        respond: Iterable[InterruptResponse] | InterruptResponse = (),
        restart: Iterable[InterruptRestart] | InterruptRestart = (),
        *,
        return_tool_requests: bool = False,
        tools: Iterable[AgentTool] | None = None,
    ) -> EventStream:
        """Answer every pending interrupt, by id, then carry on with the loop.

        ``respond``: the model receives the given output as the tool's result.
        ``restart``: the tool runs again and sees ``resumed_metadata`` (and the
        replaced input) through ``current_tool_context()``. ``tools``: the per-run tools
        of the interrupted run, when resuming in another process (this one remembers them).
        """
        return EventStream(self._resume(respond, restart, return_tool_requests, tools), "resume")

    async def _resume(
        self,
        respond: Iterable[InterruptResponse] | InterruptResponse,
        restart: Iterable[InterruptRestart] | InterruptRestart,
        return_tool_requests: bool,
        tools: Iterable[AgentTool] | None,
    ) -> AsyncIterator[AgentEvent]:
        self._check_idle()
        if not self._pending or self._pending["kind"] != "interrupt":
            raise AgentError(f"session {self.session_id!r} has no pending interrupts")
        respond = [respond] if isinstance(respond, InterruptResponse) else list(respond)
        restart = [restart] if isinstance(restart, InterruptRestart) else list(restart)
        given = [a.id for a in respond] + [a.id for a in restart]
        if len(given) != len(set(given)):
            raise AgentError("each interrupt takes one answer: an id was answered twice")
        self._check_answers(set(given), [i["id"] for i in self._pending["interrupts"]])
        if tools is not None:
            self._run_tools = self._check_run_tools(tools)
        await self._check_restarts(restart)
        agent = self.runner.agent
        options = _TurnOptions("auto" if agent.tool_choice is not None else None, agent.parallel_tool_calls)
        before = copy.deepcopy(self._state())
        self._begin()
        try:
            pending = self._pending
            requests = [ToolRequest.from_dict(r) for r in pending["requests"]]
            outcomes: dict[str, dict[str, Any]] = dict(pending["responses"])
            by_id = {r.id: r for r in requests}
            for answer in respond:
                output = tool_output(answer.output, f"the answer to {by_id[answer.id].name} ({answer.id})")
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
            async for event in self._loop(return_tool_requests, options):
                yield event
        except Exception:
            self._rollback_to(before)
            raise
        finally:
            self._end()

    async def _check_restarts(self, restart: list[InterruptRestart]) -> None:
        """Each restart's resumed_metadata is one its tool reads (a confirmation reads ``approved``):
        a wrong key would otherwise ask the same question again, silently."""
        by_name = {t.name: t for t in await self._tools()}
        names = {i["id"]: i["name"] for i in self._pending["interrupts"]}
        for answer in restart:
            tool = by_name.get(names[answer.id])
            problem = tool.resume_problem(answer.resumed_metadata) if tool is not None else None
            if problem:
                raise AgentError(f"interrupt {answer.id}: {problem}")

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
        outcome = await invoke({t.name: t for t in await self._tools()}, request, self.session_id, None)
        if isinstance(outcome, Paused):
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
        if not self._pending:
            self._run_tools = []

    async def _tools(self) -> list[AgentTool]:
        return await self.runner.resolve_tools_async() + self._run_tools

    def _check_run_tools(self, tools: Iterable[AgentTool] | None) -> list[AgentTool]:
        run_tools = list(tools or [])
        check_tools(run_tools)
        if run_tools:
            check_unique_names(self.runner.resolve_tools() + run_tools)
        return run_tools

    def _model_messages(self) -> tuple[Message, ...]:
        return tuple(Message.from_dict(m.to_dict()) for m in self._history[self._window:])

    def _drop_oldest_turn(self) -> bool:
        """Stop sending the oldest whole turn (a user message and all that answered it), if one
        besides the current turn is left; the instructions and tools are sent apart and stay."""
        starts = [i for i in range(self._window, len(self._history)) if self._history[i].role == USER]
        if len(starts) < 2:
            return False
        self._window = starts[1]
        return True

    async def _model_turn(self, request_for: Any, response_box: list[ModelResponse]) -> AsyncIterator[AgentEvent]:
        """One model call, streamed as events; retried with fewer turns when the context overflows."""
        runner = self.runner
        while True:
            try:
                async for chunk in runner.model.generate(request_for()):
                    if isinstance(chunk, TextDelta):
                        if chunk.text:
                            yield TextMessage(chunk.text, partial=True)
                    elif isinstance(chunk, ReasoningDelta):
                        if chunk.text:
                            yield ReasoningMessage(chunk.text, partial=True)
                    elif isinstance(chunk, ModelResponse):
                        response_box.append(chunk)
                break
            except ContextLengthExceededError:
                if runner.agent.context_overflow != CONTEXT_OVERFLOW_DROP_OLDEST or not self._drop_oldest_turn():
                    raise
                log.warning("session %s: the conversation did not fit the model's context; the oldest turn "
                            "is no longer sent (history from message %d)", self.session_id, self._window)
        if not response_box:
            raise ModelError(f"model {runner.model.name!r} ended its turn without a response")

    async def _loop(self, return_tool_requests: bool, options: "_TurnOptions") -> AsyncIterator[AgentEvent]:
        runner = self.runner
        tools = await self._tools()
        declarations = tuple(t.declaration() for t in tools)
        _check_tool_choice(options.first_choice, [t.name for t in tools])
        max_turns = runner.agent.max_turns
        rounds = 0
        while True:
            choice = options.first_choice if rounds == 0 else options.later_choice

            def request_for() -> ModelRequest:
                return ModelRequest(runner.agent.instructions, self._model_messages(), declarations,
                                    tool_choice=choice, parallel_tool_calls=options.parallel_tool_calls)

            box: list[ModelResponse] = []
            async for event in self._model_turn(request_for, box):
                yield event
            response = box[0]
            requests = self._assign_ids(response.tool_requests)
            self._history.append(Message(ASSISTANT, response.text, requests))
            if response.reasoning:
                yield ReasoningMessage(response.reasoning, partial=False)
            if response.text or response.truncated:
                yield TextMessage(response.text, partial=False, truncated=response.truncated)
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
                yield MaxTurnsReached(max_turns, tuple(dict.fromkeys(r.name for r in requests)))
                return
            rounds += 1
            self._save()
            outcomes: dict[str, dict[str, Any]] = {}
            interrupts: list[InterruptRequest] = []
            async for event in self._execute([(r, None) for r in requests], outcomes, interrupts, tools):
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
        tools: list[AgentTool] | None = None,
    ) -> AsyncIterator[AgentEvent]:
        by_name = {t.name: t for t in (tools if tools is not None else await self._tools())}
        async for event in execute_calls(calls, by_name, self.session_id, outcomes, interrupts):
            yield event

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
    def _check_names(responses: list[ToolResponse], requests: list[dict[str, Any]]) -> None:
        names = {r["id"]: r["name"] for r in requests}
        for response in responses:
            if response.name != names[response.id]:
                raise AgentError(f"tool response {response.id} is named {response.name!r}, but request "
                                 f"{response.id} called {names[response.id]!r}")

    @staticmethod
    def _check_answers(given: set[str], expected: list[str]) -> None:
        unknown = sorted(given - set(expected))
        if unknown:
            raise AgentError(f"no pending call of this session has id {unknown[0]!r} (pending: {', '.join(expected)}): "
                             "answer each interrupt or tool request on the session whose run returned it")
        missing = [i for i in expected if i not in given]
        if missing:
            raise AgentError(f"every pending call needs an answer; missing: {', '.join(missing)}")


def _check_tool_choice(choice: str | None, names: list[str]) -> None:
    if choice is None or choice in TOOL_CHOICES or choice in names:
        return
    raise AgentError(f"tool_choice {choice!r} is neither one of {', '.join(TOOL_CHOICES)} nor a tool's name "
                     f"(tools: {', '.join(names) or 'none'})")
