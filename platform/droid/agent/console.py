"""The agent process's terminal front-end (``droidsim agent --as PKG ...``).

``run_agent_console(context, prompt, agent=...)`` runs the app's own agent, as it built
it; without one, the stock agent: it discovers the AppFunctions the app may call and
wraps the destructive ones in a y/n confirmation read from stdin. It streams the run:
the model's text as it comes, each function call with its arguments, each result or
error; a tool's interrupt is asked on stdin (a confirmation as y/n, a question as a line).
With ``prompt=None`` it is an interactive chat (``/clear`` forgets the conversation,
``/exit`` or end of input leaves). ``json_output=True`` writes the event stream as JSON
lines on stdout instead (prompts and questions then go to stderr). Colour only on a terminal.

A confirmation that gets no answer (end of input) counts as "no". What the app holds and
lacks as an agent is said once per session, each missing step with its command
(droid.agent.diagnosis, the words ``droidsim mcp --as`` says too).

Exit codes: 0 when the agent answered; 1 when the run ended in an error (the model
backend failed, max_turns was reached, the answer was cut off at the model's token limit,
the app may call no app function, of its own or of another app, and a single prompt was
given, or, with
``--json``, a call was refused for want of an answer: ERROR_NOT_SUPPORTED from a code-less
app whose cassette or double has none); 130 on ^C.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
from typing import Any, Sequence, TextIO

from droid.agent.agent import DEFAULT_MAX_TURNS, Agent
from droid.agent.appfunction_tools import AppFunctionAgentTools
from droid.agent.confirmation import DestructivePredicate, default_is_destructive, require_confirmation
from droid.agent.diagnosis import diagnose
from droid.agent.errors import AgentError
from droid.agent.events import (
    AgentEvent,
    FunctionCall,
    FunctionResponse,
    Interrupted,
    MaxTurnsReached,
    ReasoningMessage,
    TextMessage,
    ToolRequestsReturned,
)
from droid.agent.models import model_from_spec
from droid.agent.response import TRUNCATED_MESSAGE
from droid.agent.runner import AgentRunner
from droid.agent.session import AgentSession
from droid.agent.tools import AgentTool
from droid.appfunctions.exceptions import AppFunctionException
from droid.appfunctions.json_codec import readable

DEFAULT_INSTRUCTIONS = (
    "You are an assistant on an Android device. Use the available app functions to do what the user "
    "asks. Ask for any detail you need instead of guessing. If a function returns an error or the user "
    "declines an action, explain that plainly. Answer briefly."
)
SESSIONS_FOLDER = "agent_sessions"
_YES = {"y", "yes"}
_EXIT = {"/exit", "/quit", "exit", "quit"}


def run_agent_console(
    context: Any,
    prompt: str | None = None,
    *,
    agent: Agent | None = None,
    model: str = "offline",
    base_url: str | None = None,
    api_key: str | None = None,
    json_output: bool = False,
    session_dir: str | os.PathLike[str] | None = None,
    session_id: str | None = None,
    app_function_ids: Sequence[str] | None = None,
    instructions: str | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    is_destructive: DestructivePredicate = default_is_destructive,
    model_options: dict[str, Any] | None = None,
    agent_options: dict[str, Any] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the agent as ``context``'s app; returns the process exit code (see the module docstring).

    ``agent``: the app's own agent (its instructions, tools, limits and confirmations, as it
    built them); None runs the stock console agent, which ``app_function_ids``,
    ``instructions``, ``max_turns`` and ``is_destructive`` shape.
    ``model``: ``offline`` or ``openai:NAME`` (``base_url`` / ``api_key`` or the environment).
    ``model_options``: more settings for the backend (``stream``, ``connect_timeout``,
    ``read_timeout``, ``text_tool_calls``); ``agent_options``: fields of the Agent to set
    (``tool_choice``, ``parallel_tool_calls``, ``context_overflow``), over the app's own
    where it has an agent. None values are ignored.
    ``session_dir``: where the conversation is kept; by default ``agent_sessions`` in the
    app's data folder (``context.data_dir``), else in memory. With ``session_id`` a stored
    conversation continues; without, each call starts a new one.
    """
    if session_dir is None and getattr(context, "data_dir", None):
        session_dir = os.path.join(context.data_dir, SESSIONS_FOLDER)
    ui = _Ui(json_output, stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr)
    options = {k: v for k, v in (agent_options or {}).items() if v is not None}

    def build(tools: list[AgentTool] | None) -> Agent:
        if agent is not None:
            return dataclasses.replace(agent, **options)
        return Agent(name=getattr(context, "package_name", "agent"),
                     instructions=instructions if instructions is not None else DEFAULT_INSTRUCTIONS,
                     tools=tools, max_turns=max_turns, **options)

    async def discover() -> list[AgentTool] | None:
        if agent is not None:  # its tools are its own; the runner finds what it enabled
            return None
        found = await asyncio.to_thread(AppFunctionAgentTools.discover, context, app_function_ids)
        return require_confirmation(found, ui.confirm, is_destructive=is_destructive)

    try:
        return asyncio.run(_main(ui, context, prompt, build, discover, session_dir, session_id,
                                 lambda: model_from_spec(model, base_url=base_url, api_key=api_key,
                                                         **dict(model_options or {}))))
    except KeyboardInterrupt:
        ui.error("interrupted")
        return 130


async def _main(
    ui: "_Ui", context: Any, prompt: str | None, build: Any, discover: Any, session_dir: Any,
    session_id: str | None, make_model: Any,
) -> int:
    try:
        model = make_model()
        agent = build(await discover())
        runner = AgentRunner(agent, model, context=context, session_dir=session_dir)
        tools = await runner.resolve_tools_async()
        diagnosis = await asyncio.to_thread(diagnose, context)
    except (AgentError, ValueError, TypeError) as exc:
        ui.error(str(exc))
        return 1
    except Exception as exc:  # noqa: BLE001 - the device refused or is unreachable: say so, no traceback
        ui.error(f"cannot discover the app functions: {type(exc).__name__}: {exc}")
        return 1
    try:
        functions = [t for t in tools if t.function_id]
        session = runner.create_session(session_id)
        if not session.history:  # once per session: a stored one continued has heard it
            for line in diagnosis.lines():
                ui.warning(line)
        if diagnosis.refusal and prompt is not None:  # one prompt (a script, CI): nothing it could do
            ui.error(diagnosis.refusal)
            return 1
        if prompt is not None:
            return await _turn(ui, session, prompt)
        own = sum(t.package_name == context.package_name for t in functions)
        others = len(tools) - len(functions)
        ui.notice(f"Chatting as {agent.name} with {model.name} ({len(functions)} functions"
                  f"{f', {own} of them its own' if own else ''}{f', {others} other tools' if others else ''}). "
                  "/clear, /exit.")
        status = 0
        while True:
            line = await ui.read_line("you> ")
            if line is None:
                break
            line = line.strip()
            if not line:
                continue
            if line in _EXIT:
                break
            if line == "/clear":
                session.clear()
                ui.notice("Conversation cleared.")
                continue
            await _refresh_tools(ui, agent, runner, discover)
            status = await _turn(ui, session, line)
        return status
    finally:
        await runner.aclose()


async def _refresh_tools(ui: "_Ui", agent: Agent, runner: AgentRunner, discover: Any) -> None:
    """A chat outlives installs: each turn sees the functions the app can see now."""
    try:
        before = [t.function_id for t in runner.resolve_tools()]
        tools = await discover()
        if tools is None:  # the app's own agent: what it enabled is discovered again
            if agent.app_functions_enabled:
                await asyncio.to_thread(runner.resolve_tools, True)
        elif [t.function_id for t in tools] != [t.function_id for t in agent.tools]:
            agent.tools = tools
            runner.resolve_tools(refresh=True)
    except Exception as exc:  # noqa: BLE001 - keep the tools of the last turn; say why
        ui.notice(f"(could not refresh the app functions: {type(exc).__name__}: {exc})")
        return
    now = [t.function_id for t in runner.resolve_tools()]
    if now != before:
        ui.notice(f"({len([f for f in now if f])} functions now.)")


async def _turn(ui: "_Ui", session: AgentSession, prompt: str) -> int:
    try:
        if session.pending_interrupts or session.pending_tool_requests:
            session.cancel_pending()
        events = session.run(prompt)
        status = 0
        unanswered: list[str] = []
        while events is not None:
            resume = None
            async for event in events:
                ui.show(event)
                if isinstance(event, Interrupted):
                    resume = await _answer_interrupts(ui, event)
                elif isinstance(event, MaxTurnsReached) or (isinstance(event, TextMessage) and event.truncated):
                    status = 1
                elif isinstance(event, FunctionResponse) and _refused_for_want_of_an_answer(event):
                    unanswered.append(event.name)
            events = session.resume(**resume) if resume else None
        if unanswered:
            message = (f"{len(unanswered)} call(s) were refused for want of an answer (ERROR_NOT_SUPPORTED: "
                       f"{', '.join(dict.fromkeys(unanswered))}): the app's own code does not run on droidsim; "
                       "give it a cassette or a double that answers them (docs/responses.md)")
            if ui.json:  # a script or CI step fails on it
                ui.error(message)
                status = 1
            else:
                ui.warning(message)
        return status
    except AgentError as exc:
        ui.error(str(exc))
        return 1


def _refused_for_want_of_an_answer(event: FunctionResponse) -> bool:
    return event.is_error and event.response["error"].get("code") == AppFunctionException.ERROR_NOT_SUPPORTED


async def _answer_interrupts(ui: "_Ui", event: Interrupted) -> dict[str, list]:
    """A tool asked to pause: ask the user; yes restarts it approved, no answers CANCELLED_BY_USER."""
    respond, restart = [], []
    for interrupt in event.interrupts:
        if not interrupt.metadata.get("confirmation_required") and "question" in interrupt.metadata:
            answer = await ui.read_line(f"{interrupt.metadata['question']} ")  # the tool asks the user something
            respond.append(interrupt.respond({"answer": (answer or "").strip()}))
        elif await ui.confirm(interrupt.name, interrupt.args, interrupt.metadata.get("message")):
            restart.append(interrupt.confirm())
        else:
            respond.append(interrupt.deny())
    return {"respond": respond, "restart": restart}


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _Ui:
    def __init__(self, json_output: bool, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        from rich.console import Console

        self.json = json_output
        self.stdin = stdin
        self.stdout = stdout
        self.out = Console(file=stdout, highlight=False, soft_wrap=True)
        self.err = Console(file=stderr, highlight=False, soft_wrap=True, stderr=True)
        # Questions go where the person is looking: stderr when stdout carries JSON.
        self.ask_console = self.err if json_output else self.out
        self._streaming = False
        self._reasoning = False
        self._confirm_lock = asyncio.Lock()

    # -- output -----------------------------------------------------------------------------------

    def emit_json(self, data: dict[str, Any]) -> None:
        self.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        self.stdout.flush()

    def _end_stream(self) -> None:
        if self._streaming:
            self.out.print()
            self._streaming = False

    def show(self, event: AgentEvent) -> None:
        if self.json:
            self.emit_json(event.to_dict())
            return
        if isinstance(event, ReasoningMessage):
            self._show_reasoning(event)
            return
        if isinstance(event, TextMessage):
            self._end_reasoning()
            if event.partial:
                self.out.print(event.text, end="", markup=False)
                self._streaming = True
            elif self._streaming:
                self._end_stream()
            else:
                self.out.print(event.text, markup=False)
            if event.truncated:
                self.error(TRUNCATED_MESSAGE)
            return
        self._end_reasoning()
        self._end_stream()
        if isinstance(event, FunctionCall):
            self.out.print(f"-> {event.name} {json.dumps(event.args, ensure_ascii=False)}", style="cyan", markup=False)
        elif isinstance(event, FunctionResponse):
            if event.is_error:
                error = event.response["error"]
                self.out.print(
                    f"<- {event.name} failed: {error.get('code_name')} ({error.get('type')}): {error.get('message')}",
                    style="red", markup=False,
                )
            else:
                # Dates and times as people write them (ISO 8601), not as their proxies' fields; --json keeps the wire form.
                self.out.print(f"<- {event.name} {json.dumps(readable(event.response), ensure_ascii=False)}",
                               style="green", markup=False)
        elif isinstance(event, MaxTurnsReached):
            self.out.print(f"Stopped: {event.message}.", style="yellow", markup=False)
        elif isinstance(event, Interrupted):
            names = ", ".join(i.name for i in event.interrupts)
            self.out.print(f"Paused: {names} needs your answer.", style="yellow", markup=False)
        elif isinstance(event, ToolRequestsReturned):
            self.out.print(f"Tool requests returned: {[r.name for r in event.requests]}", markup=False)

    def _show_reasoning(self, event: ReasoningMessage) -> None:
        """The model's reasoning, dim and apart from its answer; streamed pieces, else the whole."""
        if event.partial:
            if not self._reasoning:
                self.out.print("thinking: ", end="", style="dim", markup=False)
            self.out.print(event.text, end="", style="dim", markup=False)
            self._reasoning = True
        elif self._reasoning:
            self._end_reasoning()
        else:
            self.out.print(f"thinking: {event.text}", style="dim", markup=False)

    def _end_reasoning(self) -> None:
        if self._reasoning:
            self.out.print()
            self._reasoning = False

    def notice(self, text: str) -> None:
        (self.err if self.json else self.out).print(text, style="dim", markup=False)

    def error(self, message: str) -> None:
        self._end_stream()
        if self.json:
            self.emit_json({"type": "error", "message": message})
        self.err.print(f"error: {message}", style="bold red", markup=False)

    def warning(self, message: str) -> None:
        self._end_stream()
        if self.json:
            self.emit_json({"type": "warning", "message": message})
        self.err.print(f"warning: {message}", style="yellow", markup=False)

    # -- input ------------------------------------------------------------------------------------

    async def read_line(self, prompt: str) -> str | None:
        self._end_stream()
        self.ask_console.print(prompt, end="", style="bold", markup=False)
        line = await asyncio.to_thread(self.stdin.readline)
        if not _isatty(self.stdin):
            self.ask_console.print()  # the answer was not echoed: end the question's line
        return line if line else None

    async def confirm(self, name: str, args: dict[str, Any], message: str | None = None) -> bool:
        """y/n before a destructive call; end of input means no."""
        async with self._confirm_lock:
            question = message or f"Allow {name} {json.dumps(args, ensure_ascii=False)}?"
            line = await self.read_line(f"{question} [y/N] ")
            approved = bool(line) and line.strip().lower() in _YES
            if self.json:
                self.emit_json({"type": "confirmation", "name": name, "args": args, "approved": approved})
            elif not approved:
                self.out.print(f"Declined: {name} was not run.", style="yellow", markup=False)
            return approved
