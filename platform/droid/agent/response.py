"""One call for one answer: ``await session.send(prompt)`` returns an ``AgentResponse``.

Genkit's ``generate()`` and ``chat.send()`` return one response with the answer's
``text``, a ``finish_reason``, the ``interrupts`` to answer and, in a manual loop, the
``tool_requests`` to run; ``AgentResponse`` is that, built from the run's events (kept in
``events``), with ``messages``, the conversation after the run (Genkit's ``response.messages``:
the request's history and the answer). ``finish_reason`` is Genkit's where Genkit has one: ``stop`` (the model
answered, or returned tool requests), ``length`` (cut off at the token limit) and
``interrupted``; ``max_turns`` where Genkit raises instead ("Exceeded maximum tool call
iterations"), because here the session stays usable: ``finish_message`` says what to check.

``run``, ``resume`` and ``stream`` return an ``EventStream``: it is iterated with ``async
for``; awaiting it is a mistake, refused with the way to do either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterable

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
from droid.agent.interrupts import InterruptRequest
from droid.agent.messages import Message, ToolRequest

STOP = "stop"
LENGTH = "length"
INTERRUPTED = "interrupted"
MAX_TURNS = "max_turns"

TRUNCATED_MESSAGE = ("the answer was cut off: the model reached its token limit (finish_reason: length); "
                     "raise the server's max tokens or ask for less")


@dataclass(frozen=True)
class AgentResponse:
    """What one prompt (or one resume) came to; ``events`` is everything the run streamed."""

    text: str
    finish_reason: str
    finish_message: str = ""
    interrupts: tuple[InterruptRequest, ...] = ()
    tool_requests: tuple[ToolRequest, ...] = ()
    reasoning: str = ""
    events: tuple[AgentEvent, ...] = ()
    messages: tuple[Message, ...] = ()

    @property
    def function_calls(self) -> list[FunctionCall]:
        return [e for e in self.events if isinstance(e, FunctionCall)]

    @property
    def function_responses(self) -> list[FunctionResponse]:
        return [e for e in self.events if isinstance(e, FunctionResponse)]

    @classmethod
    def of(cls, events: Iterable[AgentEvent], messages: Iterable[Message] = ()) -> "AgentResponse":
        """The response a run's ``events`` make; ``messages``: the session's history after it."""
        events = tuple(events)
        text, reasoning, reason, message = "", "", STOP, ""
        interrupts: tuple[InterruptRequest, ...] = ()
        requests: tuple[ToolRequest, ...] = ()
        for event in events:
            if isinstance(event, (FunctionCall, FunctionResponse)):
                text, reasoning = "", ""  # the answer is the last model turn's
            elif isinstance(event, TextMessage) and not event.partial:
                text = event.text
                if event.truncated:
                    reason, message = LENGTH, TRUNCATED_MESSAGE
            elif isinstance(event, ReasoningMessage) and not event.partial:
                reasoning = event.text
            elif isinstance(event, Interrupted):
                reason, interrupts = INTERRUPTED, event.interrupts
                message = f"{len(interrupts)} call(s) wait for an answer: session.send(respond=[...], restart=[...])"
            elif isinstance(event, MaxTurnsReached):
                reason, message = MAX_TURNS, event.message
            elif isinstance(event, ToolRequestsReturned):
                requests = event.requests
        return cls(text, reason, message, interrupts, requests, reasoning, events, tuple(messages))

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text, "finish_reason": self.finish_reason, "finish_message": self.finish_message,
            "interrupts": [i.to_dict() for i in self.interrupts],
            "tool_requests": [r.to_dict() for r in self.tool_requests],
            "reasoning": self.reasoning, "events": [e.to_dict() for e in self.events],
            "messages": [m.to_dict() for m in self.messages],
        }


class EventStream:
    """A run's events: ``async for event in session.run(prompt)``. Awaiting it raises an
    ``AgentError`` that says to iterate it, or to ``await session.send(...)`` instead."""

    def __init__(self, events: AsyncIterator[Any], method: str) -> None:
        self._events = events
        self._method = method

    def __aiter__(self) -> "EventStream":
        return self

    async def __anext__(self) -> Any:
        return await self._events.__anext__()

    async def aclose(self) -> None:
        close = getattr(self._events, "aclose", None)
        if close is not None:
            await close()

    def __await__(self) -> Any:
        raise AgentError(
            f"session.{self._method}() streams events and cannot be awaited: iterate it "
            f"(`async for event in session.{self._method}(...)`), or `await session.send(...)` "
            "for one response with text, finish_reason, interrupts and tool_requests"
        )
