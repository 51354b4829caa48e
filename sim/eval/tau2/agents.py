"""The agent's model in a τ² run: a chat model, the oracle, or a script.

- ``openai:NAME``: any chat-completions server (docs/agent.md, "Model servers").
- ``scripted``: the oracle. It makes the task's gold calls, one per answer as the policies ask,
  then tells the user what the task says must be told; it must earn reward 1 on every task
  whose gold actions raise no error, so a task it fails says the run cannot be passed.
- ``scripted:FILE``: the steps FILE gives the task (sim/eval/tau2/tasks.py), in τ²'s names.

A script that has run out ends the conversation as τ²'s agent may: with ``###STOP###``.
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Callable

from droid.agent import ScriptedModel, tool_call
from droid.agent.models import Model, ModelRequest, model_from_spec

AGENT_STOP = "###STOP###"
ORACLE_TOLD = "Here is what you asked about: {}."
ORACLE_DONE = "Is there anything else I can help you with?"


class _Script(ScriptedModel):
    """A ScriptedModel that, once its steps are spent, stops the conversation."""

    async def generate(self, request: ModelRequest) -> AsyncIterator[Any]:
        if len(self.requests) >= len(self.steps):
            self.steps.append(AGENT_STOP)
        async for chunk in super().generate(request):
            yield chunk


def agent_model(spec: str, case: Any, to_tool: Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]],
                base_url: str | None = None, api_key: str | None = None,
                options: dict[str, Any] | None = None) -> Model:
    """``to_tool``: a call in τ²'s names as the agent's tool name and arguments."""
    if spec == "scripted":
        return _Script(oracle_steps(case, to_tool), name="scripted")
    if spec.startswith("scripted:"):
        steps = [step if isinstance(step, str) else [tool_call(*to_tool(c["name"], c.get("arguments") or {}))
                                                      for c in step]
                 for step in case.agent_steps or ()]
        return _Script(steps, name=spec)
    return model_from_spec(spec, base_url=base_url, api_key=api_key, **(options or {}))


def oracle_steps(case: Any, to_tool: Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]]) -> list[Any]:
    steps: list[Any] = [[tool_call(*to_tool(a.name, a.arguments))] for a in case.criteria.actions]
    info = case.criteria.communicate_info
    return steps + [ORACLE_TOLD.format("; ".join(info)) if info else ORACLE_DONE]
