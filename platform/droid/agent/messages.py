"""The conversation a session keeps: messages, tool requests and tool responses.

Plain dataclasses that round-trip through JSON (``to_dict`` / ``from_dict``), so a
session's history can be stored in the agent app's data folder and read back by
another process. Roles follow the chat-completions convention: ``system``,
``user``, ``assistant`` and ``tool``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from droid.agent.errors import AgentError

SYSTEM = "system"
USER = "user"
ASSISTANT = "assistant"
TOOL = "tool"


def new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:16]}"


@dataclass
class ToolRequest:
    """One call the model asked for. ``id`` is unique within a session (Genkit's ``ref``; ``args``
    is its ``input``); ``respond(output)`` answers it in a manual loop.

    ``argument_error`` is set when the model's arguments could not be parsed
    (e.g. invalid JSON); the runtime then answers with an error map instead of
    calling the tool.
    """

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    id: str = ""
    argument_error: str | None = None

    @property
    def ref(self) -> str:
        return self.id

    @property
    def input(self) -> dict[str, Any]:
        return self.args

    def respond(self, output: Any) -> "ToolResponse":
        """The answer to this request, for ``session.run(tool_responses=[...])``."""
        return ToolResponse(self.id, self.name, output)

    def to_dict(self) -> dict[str, Any]:
        data = {"id": self.id, "name": self.name, "args": self.args}
        if self.argument_error:
            data["argument_error"] = self.argument_error
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ToolRequest":
        return cls(data["name"], dict(data.get("args") or {}), data.get("id", ""), data.get("argument_error"))


@dataclass
class ToolResponse:
    """The answer to one ToolRequest, addressed by the request's id: what a manual loop hands to
    ``session.run(tool_responses=[...])``. Genkit's shape is accepted there too (see ``of``)."""

    id: str
    name: str
    output: dict[str, Any]

    @classmethod
    def of(cls, answer: Any) -> "ToolResponse":
        """A ToolResponse from what a manual loop gives: one, Genkit's tool response
        ``{"name", "ref", "output"}`` (bare or as a part, ``{"toolResponse": {...}}``) or this
        class's dict form ``{"id", "name", "output"}``; AgentError showing the shapes otherwise."""
        if isinstance(answer, cls):
            return answer
        data = answer.get("toolResponse", answer) if isinstance(answer, dict) else None
        if isinstance(data, dict) and "output" in data and ("ref" in data or "id" in data) and isinstance(
                data.get("name"), str):
            return cls(str(data.get("ref", data.get("id"))), data["name"], data["output"])
        raise AgentError(
            f"a tool response is ToolResponse(id, name, output), or Genkit's {{'name': ..., 'ref': ..., 'output': "
            f"...}} (also as {{'toolResponse': {{...}}}}), with the id (ref) and name of the ToolRequest it answers; "
            f"got {answer!r:.200}")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "output": self.output}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ToolResponse":
        return cls(data["id"], data["name"], dict(data.get("output") or {}))


@dataclass
class Message:
    role: str
    text: str = ""
    tool_requests: list[ToolRequest] = field(default_factory=list)
    tool_response: ToolResponse | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"role": self.role, "text": self.text}
        if self.tool_requests:
            data["tool_requests"] = [r.to_dict() for r in self.tool_requests]
        if self.tool_response is not None:
            data["tool_response"] = self.tool_response.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Message":
        response = data.get("tool_response")
        return cls(
            role=data["role"],
            text=data.get("text", ""),
            tool_requests=[ToolRequest.from_dict(r) for r in data.get("tool_requests", [])],
            tool_response=ToolResponse.from_dict(response) if response else None,
        )

    @classmethod
    def user(cls, text: str) -> "Message":
        return cls(USER, text)

    @classmethod
    def tool(cls, response: ToolResponse) -> "Message":
        return cls(TOOL, tool_response=response)


@dataclass(frozen=True)
class ToolDeclaration:
    """What the model is told about a tool: a name, a description, a JSON Schema."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": self.parameters}
