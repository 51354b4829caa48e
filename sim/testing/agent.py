"""Agent tests: script what the model says, run the real agent loop, check what it did.

The model is droid.agent's ScriptedModel; everything else is real: the agent discovers
the functions its app may see, calls them through the device's pipeline (access rules
and history included) and feeds the results back. In a script, name a function by
method, full id or short id, and its parameters by Python or wire name: the script is
translated to the tool names and wire names the model would produce, its values to JSON.

A destructive function is confirmed as ``droidsim agent`` confirms it (droid.agent's
DestructivePolicy and HitlConfirmationTool): the test scripts the user's answers with
``confirm=``, and a question the script does not answer fails the test.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from droid.agent import Agent, AgentEvent, AgentRunner, FunctionCall, FunctionResponse, ScriptedModel, TextMessage
from droid.agent.appfunction_tools import AppFunctionAgentTools
from droid.agent.confirmation import require_confirmation
from droid.agent.messages import ToolRequest
from droid.agent.tools import AgentTool
from droid.content.context import Context
from sim.testing.functions import FunctionName, FunctionRef

# What names a function for this run: TestDevice.function, whichever app declares it.
Lookup = Callable[[FunctionName], FunctionRef]


def model_call(function: FunctionName, /, **arguments: Any) -> "ScriptedCall":
    """One model turn that calls ``function`` (several in a list: parallel calls)."""
    return ScriptedCall(function, arguments)


@dataclass(frozen=True)
class ScriptedCall:
    function: Any
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Confirmation:
    """The agent asked the user to allow a destructive call; ``approved`` is the answer."""

    function_id: str
    arguments: dict[str, Any]
    approved: bool


class ScriptedUser:
    """The user's answers to the agent's confirmations: a list taken in order, or a callable
    ``(function_id, arguments) -> bool``. Every question is kept, answered or not."""

    def __init__(self, answers: "Sequence[bool] | Callable[[str, dict[str, Any]], bool]",
                 function_ids: dict[str, str]) -> None:
        self._answer = answers if callable(answers) else None
        self._left = [] if callable(answers) else list(answers)
        self._function_ids = function_ids
        self.asked: list[Confirmation] = []
        self.unanswered: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, tool_name: str, arguments: dict[str, Any]) -> bool:
        function_id = self._function_ids.get(tool_name, tool_name)
        if self._answer is not None:
            approved = bool(self._answer(function_id, arguments))
        elif self._left:
            approved = bool(self._left.pop(0))
        else:  # declined, so nothing runs; the run then fails the test
            self.unanswered.append((function_id, arguments))
            approved = False
        self.asked.append(Confirmation(function_id, arguments, approved))
        return approved

    def check_all_answered(self) -> None:
        if self.unanswered:
            function_id, arguments = self.unanswered[0]
            raise AssertionError(
                f"the agent asked the user to allow {function_id} with {arguments}, and the test scripted no "
                f"answer: pass confirm=[True] (allow) or confirm=[False] (decline) to run_agent"
            )
        if self._left:
            raise AssertionError(
                f"confirm= scripted {len(self._left)} answer(s) more than the agent asked for "
                f"(it asked {len(self.asked)} time(s))"
            )


@dataclass
class AgentRun:
    """What one prompt did: every event, the model with every request it was sent, and the
    confirmations the agent asked the user for."""

    events: list[AgentEvent]
    model: ScriptedModel
    lookup: Lookup
    confirmations: list[Confirmation] = field(default_factory=list)

    @property
    def calls(self) -> list[FunctionCall]:
        return [e for e in self.events if isinstance(e, FunctionCall)]

    @property
    def responses(self) -> list[FunctionResponse]:
        return [e for e in self.events if isinstance(e, FunctionResponse)]

    @property
    def function_ids(self) -> list[str]:
        """The full ids of the AppFunctions called, in order."""
        return [c.function_id for c in self.calls if c.function_id]

    @property
    def text(self) -> str:
        """The agent's final answer (its last complete text message)."""
        texts = [e.text for e in self.events if isinstance(e, TextMessage) and not e.partial]
        return texts[-1] if texts else ""

    def assert_called(self, function: FunctionName, /, **arguments: Any) -> FunctionCall:
        """The call of ``function`` whose arguments include ``arguments`` (Python or wire
        names); an AssertionError listing every call otherwise."""
        ref = self.lookup(function)
        wanted = ref.wire_arguments(arguments)
        for call in self.calls:
            if call.function_id == ref.function_id and all(call.args.get(k) == v for k, v in wanted.items()):
                return call
        made = "\n".join(f"  {c.function_id or c.name} {c.args}" for c in self.calls) or "  (none)"
        raise AssertionError(f"the agent did not call {ref.function_id} with {wanted}; it called:\n{made}")

    def assert_not_called(self, function: FunctionName) -> None:
        ref = self.lookup(function)
        if ref.function_id in self.function_ids:
            raise AssertionError(f"the agent called {ref.function_id}, which the test expected it not to")


def run_agent(
    context: Context,
    lookup: Lookup,
    prompt: str,
    script: Sequence[Any],
    *,
    confirm: "Sequence[bool] | Callable[[str, dict[str, Any]], bool]" = (),
    functions: Sequence[FunctionName] | None = None,
    instructions: str = "",
    max_turns: int = 5,
    tools: Sequence[AgentTool] = (),
) -> AgentRun:
    """Run ``prompt`` as the installed agent app whose ``context`` this is, its model answering
    with ``script`` (strings for text, ``model_call(...)`` for calls, lists for parallel calls)
    and the user answering confirmations with ``confirm``; ``lookup`` names the functions of the
    script. ``functions`` limits the AppFunctions declared to the model."""
    ids = None if functions is None else [lookup(f).function_id for f in functions]
    discovered = AppFunctionAgentTools.discover(context.app_function_manager, ids or None)
    user = ScriptedUser(confirm, {tool.name: tool.function_id for tool in discovered})
    agent = Agent(name=context.package_name, instructions=instructions, max_turns=max_turns,
                  tools=[*tools, *require_confirmation(discovered, user)], app_functions_enabled=False)
    model = ScriptedModel()
    with AgentRunner(agent, model, context=context) as runner:
        by_id = {tool.function_id: tool.name for tool in runner.resolve_tools() if tool.function_id}
        model.add(*(_step(lookup, step, by_id) for step in script))
        session = runner.create_session()
        events = asyncio.run(_collect(session.run(prompt)))
    user.check_all_answered()
    return AgentRun(events, model, lookup, user.asked)


async def _collect(stream: Any) -> list[AgentEvent]:
    return [event async for event in stream]


def _step(lookup: Lookup, step: Any, tool_names: dict[str, str]) -> Any:
    if isinstance(step, ScriptedCall):
        ref = lookup(step.function)
        if ref.function_id not in tool_names:
            raise LookupError(f"{ref.function_id} is not among the agent's tools: {', '.join(tool_names) or 'none'}")
        return ToolRequest(tool_names[ref.function_id], ref.wire_arguments(step.arguments))
    if isinstance(step, (list, tuple)):
        return [_step(lookup, s, tool_names) for s in step]
    return step
