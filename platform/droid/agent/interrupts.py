"""Genkit-style interrupts: a tool pauses the loop to ask the user something.

A tool raises ``Interrupt(metadata)``. The run ends with an ``Interrupted``
event listing one ``InterruptRequest`` per paused call, each addressed by the
id of its own tool call (unique even when several calls of one turn interrupt).
The caller answers every one of them, in any combination::

    await session.send(respond=[first.respond({"answer": "M"})], restart=[second.confirm()])

(``session.resume(respond=..., restart=...)`` streams the same as events.) A confirmation
(HitlConfirmationTool without ``on_confirm``) is answered with ``interrupt.confirm()`` (run it)
or ``interrupt.deny()`` (the model gets ``CANCELLED_BY_USER``).

``respond`` gives the model ``output`` as if the tool had returned it;
``restart`` runs the tool again, and the tool sees ``resumed_metadata`` (and the
replaced input, if any) through ``current_tool_context()``. A restarted tool may
interrupt again; the run then ends interrupted once more.
"""

from __future__ import annotations

import contextvars
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from droid.agent.tools import EMPTY_SCHEMA, AgentTool


CANCELLED_BY_USER = "CANCELLED_BY_USER"
APPROVED = "approved"  # the resumed_metadata key a confirmation reads


def cancelled_by_user(message: str = "Action was declined by the user.") -> dict[str, Any]:
    return {"status": CANCELLED_BY_USER, "message": message}


class Interrupt(Exception):
    """Raise from a tool's ``execute`` to pause the loop and hand control to the caller."""

    def __init__(self, metadata: dict[str, Any] | None = None) -> None:
        if metadata is not None and not isinstance(metadata, Mapping):
            raise TypeError(f"Interrupt(metadata) takes a dict of what the tool asks, not a {type(metadata).__name__} "
                            f"({metadata!r}): raise Interrupt({{'question': {metadata!r}}}), for example")
        self.metadata = dict(metadata or {})
        super().__init__(f"tool interrupted: {self.metadata}")


@dataclass(frozen=True)
class InterruptRequest:
    """A paused call: the tool, its arguments and what the tool asked (``metadata``)."""

    id: str
    name: str
    args: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)

    def respond(self, output: Any) -> "InterruptResponse":
        return InterruptResponse(self.id, output)

    def restart(
        self, resumed_metadata: dict[str, Any] | None = None, replace_input: dict[str, Any] | None = None
    ) -> "InterruptRestart":
        return InterruptRestart(self.id, dict(resumed_metadata or {}), replace_input)

    def confirm(self) -> "InterruptRestart":
        """Yes to a confirmation: the tool runs again, approved, with the arguments the user saw."""
        return self.restart(resumed_metadata={APPROVED: True})

    def deny(self, message: str = "Action was declined by the user.") -> "InterruptResponse":
        """No to a confirmation: nothing runs and the model gets ``CANCELLED_BY_USER`` with ``message``."""
        return self.respond(cancelled_by_user(message))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "args": self.args, "metadata": self.metadata}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "InterruptRequest":
        return cls(data["id"], data["name"], dict(data.get("args") or {}), dict(data.get("metadata") or {}))


@dataclass(frozen=True)
class InterruptResponse:
    id: str
    output: Any


@dataclass(frozen=True)
class InterruptRestart:
    id: str
    resumed_metadata: dict[str, Any] = field(default_factory=dict)
    replace_input: dict[str, Any] | None = None


@dataclass(frozen=True)
class ToolContext:
    """What a running tool can know about its call (``current_tool_context()``)."""

    call_id: str
    session_id: str
    resumed: bool = False
    resumed_metadata: dict[str, Any] = field(default_factory=dict)


_CURRENT: contextvars.ContextVar[ToolContext | None] = contextvars.ContextVar("droid_agent_tool_context", default=None)


def current_tool_context() -> ToolContext | None:
    """The context of the tool call running in this task, or None outside one."""
    return _CURRENT.get()


def set_tool_context(context: ToolContext) -> contextvars.Token:
    """Set by the runtime for each tool call, in the call's own task."""
    return _CURRENT.set(context)


class InterruptTool(AgentTool):
    """A tool that always pauses the loop (Genkit's ``defineInterrupt``); see ``define_interrupt``."""

    def __init__(
        self,
        name: str,
        description: str,
        parameters: dict[str, Any] | None = None,
        request_metadata: dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(name=name, description=description, parameters=parameters or dict(EMPTY_SCHEMA),
                         destructive=False)
        self.request_metadata = request_metadata

    async def execute(self, args: dict[str, Any]) -> dict[str, Any]:
        context = current_tool_context()
        if context is not None and context.resumed:
            # Restarted: the caller's resumed_metadata is the answer.
            return dict(context.resumed_metadata)
        metadata = self.request_metadata
        if callable(metadata):
            metadata = metadata(dict(args))
        raise Interrupt({**dict(args), **dict(metadata or {})})


def define_interrupt(
    name: str,
    description: str,
    parameters: dict[str, Any] | None = None,
    *,
    request_metadata: dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> InterruptTool:
    """A tool the model calls to ask the user something; the run ends ``Interrupted``.

    The interrupt's metadata is the model's arguments plus ``request_metadata`` (a dict,
    or a function of the arguments). Answer with ``interrupt.respond(output)`` (the model
    gets ``output`` as the tool's result) or ``interrupt.restart(resumed_metadata=...)``
    (the model gets ``resumed_metadata``)::

        ask = define_interrupt("ask_user", "Ask the user a question.",
                               {"type": "object", "properties": {"question": {"type": "string"}}})
    """
    return InterruptTool(name, description, parameters, request_metadata)
