"""AgentEvent: what ``AgentSession.run`` streams, in the order it happens.

A run yields, for each model turn: ``ReasoningMessage`` pieces and one whole
``ReasoningMessage`` if the model reasons aloud (vLLM, llama.cpp and Ollama send
it apart from the answer), ``TextMessage`` chunks (``partial=True``, one
per token or word as the backend streams them), then one complete
``TextMessage`` (``partial=False``, ``truncated=True`` when the model hit its
token limit) if the model said anything, then a
``FunctionCall`` for each call it requested (before the call starts) and a
``FunctionResponse`` for each, in request order. A run that cannot go on ends
with exactly one of ``MaxTurnsReached``, ``Interrupted`` or
``ToolRequestsReturned``; a run that ends with the model's answer just stops.

``event.to_dict()`` is the JSON form (``{"type": "function_call", ...}``), one
object per line for ``droidsim agent --json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from droid.agent.errors import is_error_map
from droid.agent.interrupts import InterruptRequest
from droid.agent.messages import ToolRequest


@dataclass(frozen=True)
class AgentEvent:
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True)
class TextMessage(AgentEvent):
    """Model text: a streamed piece (``partial``) or the whole message of a turn.

    ``truncated`` (whole messages only): the model stopped at its token limit, so the
    text is cut off.
    """

    text: str
    partial: bool = False
    truncated: bool = False
    type: ClassVar[str] = "text"

    def to_dict(self) -> dict[str, Any]:
        data = {"type": self.type, "text": self.text, "partial": self.partial}
        if self.truncated:
            data["truncated"] = True
        return data


@dataclass(frozen=True)
class ReasoningMessage(AgentEvent):
    """The model's reasoning, kept apart from its answer and never sent back to it."""

    text: str
    partial: bool = False
    type: ClassVar[str] = "reasoning"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text, "partial": self.partial}


@dataclass(frozen=True)
class FunctionCall(AgentEvent):
    """Sent before a tool runs. ``function_id`` is the AppFunction's full id, if any."""

    id: str
    name: str
    args: dict[str, Any]
    function_id: str | None = None
    type: ClassVar[str] = "function_call"

    def to_dict(self) -> dict[str, Any]:
        data = {"type": self.type, "id": self.id, "name": self.name, "args": self.args}
        if self.function_id:
            data["function_id"] = self.function_id
        return data


@dataclass(frozen=True)
class FunctionResponse(AgentEvent):
    """The map the model receives: the tool's result, or an error map."""

    id: str
    name: str
    response: dict[str, Any]
    type: ClassVar[str] = "function_response"

    @property
    def is_error(self) -> bool:
        return is_error_map(self.response)

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "id": self.id, "name": self.name, "response": self.response,
                "is_error": self.is_error}


@dataclass(frozen=True)
class MaxTurnsReached(AgentEvent):
    """The model was called ``max_turns`` times and still wanted tools.

    Its last tool requests (``requested``, by name) were not executed; they were answered
    with an error map so the history stays consistent for the next prompt. ``message``
    says what to check.
    """

    max_turns: int
    requested: tuple[str, ...] = ()
    type: ClassVar[str] = "max_turns_reached"

    @property
    def message(self) -> str:
        wanted = f" (it still asked for {', '.join(self.requested)})" if self.requested else ""
        return (f"the agent reached max_turns ({self.max_turns}) for this prompt{wanted}: check the calls above "
                "(a model that calls the same tool again did not find its answer in the results: an error it "
                "cannot fix, or a tool that returns too little), or allow more rounds with Agent(max_turns=N)")

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "max_turns": self.max_turns, "requested": list(self.requested),
                "message": self.message}


@dataclass(frozen=True)
class Interrupted(AgentEvent):
    """One or more tools paused the loop; resume with ``session.resume``."""

    interrupts: tuple[InterruptRequest, ...] = field(default_factory=tuple)
    type: ClassVar[str] = "interrupted"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "interrupts": [i.to_dict() for i in self.interrupts]}


@dataclass(frozen=True)
class ToolRequestsReturned(AgentEvent):
    """``return_tool_requests=True``: the calls to make yourself, then ``run(tool_responses=...)``."""

    requests: tuple[ToolRequest, ...] = field(default_factory=tuple)
    type: ClassVar[str] = "tool_requests"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "requests": [r.to_dict() for r in self.requests]}
