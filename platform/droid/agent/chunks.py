"""Genkit-style stream chunks: what a chat UI draws, one message at a time.

``session.stream(prompt)`` turns the events of ``session.run`` into ``AgentChunk``s,
as Genkit's ``GenerateResponseChunk``: each has the ``index`` of the message it
belongs to (0 for the model's first message of the run, 1 for the tool results
that answer it, and so on), its ``role`` (``model`` or ``tool``), the new
``text`` / ``reasoning``, the message's ``accumulated_text``, and the
``tool_requests`` or ``tool_responses`` it carries. ``event`` is the event the
chunk came from, so the run's end (``MaxTurnsReached``, ``Interrupted``...) is
visible too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import AsyncIterator

from droid.agent.events import AgentEvent, FunctionCall, FunctionResponse, ReasoningMessage, TextMessage
from droid.agent.messages import ToolRequest, ToolResponse

MODEL = "model"
TOOL = "tool"


@dataclass(frozen=True)
class AgentChunk:
    index: int
    role: str
    event: AgentEvent
    text: str = ""
    reasoning: str = ""
    accumulated_text: str = ""
    tool_requests: tuple[ToolRequest, ...] = ()
    tool_responses: tuple[ToolResponse, ...] = ()


async def chunks_of(events: AsyncIterator[AgentEvent]) -> AsyncIterator[AgentChunk]:
    """The chunks of a run; whole ``TextMessage``s are skipped (their pieces came before)."""
    index, role, accumulated = 0, MODEL, ""
    async for event in events:
        wanted = TOOL if isinstance(event, FunctionResponse) else MODEL
        if wanted != role:
            index, role, accumulated = index + 1, wanted, ""
        if isinstance(event, ReasoningMessage) and not event.partial:
            continue
        if isinstance(event, TextMessage) and not event.partial:
            if event.truncated:  # the pieces came before; the chunk says they were cut off
                yield AgentChunk(index, role, event, accumulated_text=accumulated)
            continue
        if isinstance(event, TextMessage):
            accumulated += event.text
            yield AgentChunk(index, role, event, text=event.text, accumulated_text=accumulated)
        elif isinstance(event, ReasoningMessage):
            yield AgentChunk(index, role, event, reasoning=event.text, accumulated_text=accumulated)
        elif isinstance(event, FunctionCall):
            request = ToolRequest(event.name, dict(event.args), event.id)
            yield AgentChunk(index, role, event, accumulated_text=accumulated, tool_requests=(request,))
        elif isinstance(event, FunctionResponse):
            yield AgentChunk(index, role, event, tool_responses=(ToolResponse(event.id, event.name, event.response),))
        else:
            yield AgentChunk(index, role, event, accumulated_text=accumulated)
