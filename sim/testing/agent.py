"""Agent tests: script what the model says, run the real agent loop, check what it did.

The model is droid.agent's ScriptedModel; everything else is real: the agent discovers
the functions its app may see, calls them through the device's pipeline (access rules
and history included) and feeds the results back. In a script, name a function by
method, full id or short id, and its parameters by Python or wire name: the script is
translated to the tool names and wire names the model would produce.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from droid.agent import Agent, AgentEvent, AgentRunner, FunctionCall, FunctionResponse, ScriptedModel, TextMessage
from droid.agent.messages import ToolRequest
from droid.agent.tools import AgentTool

if TYPE_CHECKING:
    from sim.testing.device import FunctionName, TestDevice


def model_call(function: "FunctionName", /, **arguments: Any) -> "ScriptedCall":
    """One model turn that calls ``function`` (several in a list: parallel calls)."""
    return ScriptedCall(function, arguments)


@dataclass(frozen=True)
class ScriptedCall:
    function: Any
    arguments: dict[str, Any]


@dataclass
class AgentRun:
    """What one prompt did: every event, and the model with every request it was sent."""

    events: list[AgentEvent]
    model: ScriptedModel
    device: "TestDevice"

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

    def assert_called(self, function: "FunctionName", /, **arguments: Any) -> FunctionCall:
        """The call of ``function`` whose arguments include ``arguments`` (Python or wire
        names); an AssertionError listing every call otherwise."""
        ref = self.device.function(function)
        wanted = _wire_arguments(ref, arguments)
        for call in self.calls:
            if call.function_id == ref.function_id and all(call.args.get(k) == v for k, v in wanted.items()):
                return call
        made = "\n".join(f"  {c.function_id or c.name} {c.args}" for c in self.calls) or "  (none)"
        raise AssertionError(f"the agent did not call {ref.function_id} with {wanted}; it called:\n{made}")

    def assert_not_called(self, function: "FunctionName") -> None:
        ref = self.device.function(function)
        if ref.function_id in self.function_ids:
            raise AssertionError(f"the agent called {ref.function_id}, which the test expected it not to")


def run_agent(
    device: "TestDevice",
    agent_package: str,
    prompt: str,
    script: Sequence[Any],
    *,
    functions: Sequence["FunctionName"] | None = None,
    instructions: str = "",
    max_turns: int = 5,
    tools: Sequence[AgentTool] = (),
) -> AgentRun:
    """Run ``prompt`` as the installed agent app ``agent_package``, its model answering with
    ``script`` (strings for text, ``model_call(...)`` for calls, lists for parallel calls).
    ``functions`` limits the AppFunctions declared to the model."""
    context = device.device.create_context(agent_package)
    ids = None if functions is None else [device.function(f).function_id for f in functions]
    agent = Agent(name=agent_package, instructions=instructions, tools=list(tools), max_turns=max_turns,
                  app_functions_enabled=True, app_function_ids=ids)
    model = ScriptedModel()
    with AgentRunner(agent, model, context=context) as runner:
        by_id = {tool.function_id: tool.name for tool in runner.resolve_tools() if tool.function_id}
        model.add(*(_step(device, step, by_id) for step in script))
        session = runner.create_session()
        events = asyncio.run(_collect(session.run(prompt)))
    return AgentRun(events, model, device)


async def _collect(stream: Any) -> list[AgentEvent]:
    return [event async for event in stream]


def _step(device: "TestDevice", step: Any, tool_names: dict[str, str]) -> Any:
    if isinstance(step, ScriptedCall):
        ref = device.function(step.function)
        if ref.function_id not in tool_names:
            raise LookupError(f"{ref.function_id} is not among the agent's tools: {', '.join(tool_names) or 'none'}")
        return ToolRequest(tool_names[ref.function_id], _wire_arguments(ref, step.arguments))
    if isinstance(step, (list, tuple)):
        return [_step(device, s, tool_names) for s in step]
    return step


def _wire_arguments(ref: Any, arguments: dict[str, Any]) -> dict[str, Any]:
    """Argument names as the model sends them (the metadata's wire names); values as JSON."""
    if ref.spec is None:
        return dict(arguments)
    wire = {p.py_name: p.wire_name for p in ref.spec.parameters}
    return {wire.get(key, key): value for key, value in arguments.items()}
