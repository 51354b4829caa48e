"""ScriptedModel: a deterministic model for tests and examples.

Each step of the script is one model turn:

- a string: the model answers with that text (streamed word by word);
- a ``ToolRequest`` (see ``tool_call``) or a list of them: the model calls those
  tools, in parallel when there are several;
- a ``ModelResponse``: text and tool calls together;
- a callable ``step(request) -> any of the above``: to answer from what the model
  was sent (e.g. echo a tool result).

Every request the model receives is kept in ``requests``, so a test can check
what the model was told (e.g. that it got ``CANCELLED_BY_USER``). Running past
the end of the script raises ``ModelError``.
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Callable, Iterable, Union

from droid.agent.errors import ModelError
from droid.agent.messages import ToolRequest
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, TextDelta, stream_words

Step = Union[str, ToolRequest, list, ModelResponse, Callable[[ModelRequest], Any]]


def tool_call(name: str, args: dict[str, Any] | None = None, /, *, call_id: str = "", **kwargs: Any) -> ToolRequest:
    """A tool request for a script: ``tool_call("fetch_order_details", orderId="ORD-8492")``.

    Arguments come from ``args`` and/or keywords; ``call_id`` sets the call's id (the
    runtime replaces a missing or repeated one).
    """
    return ToolRequest(name, {**(args or {}), **kwargs}, call_id)


class ScriptedModel(Model):
    def __init__(self, steps: Iterable[Step] = (), *, name: str = "scripted", supports_tools: bool = True) -> None:
        self.steps = list(steps)
        self.name = name
        self.supports_tools = supports_tools
        self.requests: list[ModelRequest] = []

    def add(self, *steps: Step) -> "ScriptedModel":
        self.steps.extend(steps)
        return self

    async def generate(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        turn = len(self.requests)
        self.requests.append(request)
        if turn >= len(self.steps):
            raise ModelError(f"ScriptedModel {self.name!r} has no step for turn {turn + 1} ({len(self.steps)} scripted)")
        response = _as_response(self.steps[turn], request)
        for piece in stream_words(response.text):
            yield TextDelta(piece)
        yield response


def _as_response(step: Step, request: ModelRequest) -> ModelResponse:
    if callable(step) and not isinstance(step, (ToolRequest, ModelResponse)):
        step = step(request)
    if isinstance(step, ModelResponse):
        return ModelResponse(step.text, [_copy(r) for r in step.tool_requests])
    if isinstance(step, str):
        return ModelResponse(step)
    if isinstance(step, ToolRequest):
        return ModelResponse("", [_copy(step)])
    if isinstance(step, (list, tuple)):
        return ModelResponse("", [_copy(r) for r in step])
    raise TypeError(f"not a script step: {step!r}")


def _copy(request: ToolRequest) -> ToolRequest:
    return ToolRequest(request.name, dict(request.args), request.id, request.argument_error)
