"""The model interface: one async generator per model turn.

A backend implements ``generate(request)``, an async generator that yields any
number of ``TextDelta`` (streamed text) and ends with exactly one
``ModelResponse`` (the whole text plus the tool calls it wants). The runtime does
the rest: running tools, keeping history, events.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import AsyncIterator, Union

from droid.agent.errors import ModelError
from droid.agent.messages import Message, ToolDeclaration, ToolRequest


@dataclass(frozen=True)
class ModelRequest:
    """The system instructions, the conversation so far and the tools on offer.

    ``tool_choice`` (``auto``, ``none``, ``required`` or a tool's name) and
    ``parallel_tool_calls`` are passed to backends that support them; None leaves the
    server's default. The session sets ``tool_choice`` for the first model call of a
    prompt only, so that ``required`` cannot make every later call ask for tools again.
    """

    instructions: str
    messages: tuple[Message, ...]
    tools: tuple[ToolDeclaration, ...] = ()
    tool_choice: str | None = None
    parallel_tool_calls: bool | None = None


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's reasoning (``reasoning_content`` / ``reasoning``), not its answer."""

    text: str


@dataclass
class ModelResponse:
    """A whole model turn. ``truncated``: the model stopped at its token limit (``finish_reason: length``);
    ``usage``: the token counts the backend reported (``prompt_tokens``, ...), if any; ``warnings``: what
    the backend noticed and could not fix, such as an answer that looks like an unparsed tool call."""

    text: str = ""
    tool_requests: list[ToolRequest] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    reasoning: str = ""
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)


ModelChunk = Union[TextDelta, ReasoningDelta, ModelResponse]


class Model(abc.ABC):
    """A model backend. ``supports_tools`` False means it cannot be given tools."""

    name: str = "model"
    supports_tools: bool = True

    @abc.abstractmethod
    def generate(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        """Yield TextDelta pieces, then one ModelResponse."""

    async def complete(self, request: ModelRequest) -> ModelResponse:
        """The final ModelResponse of ``generate``, ignoring the stream."""
        response = None
        async for chunk in self.generate(request):
            if isinstance(chunk, ModelResponse):
                response = chunk
        if response is None:
            raise ModelError(f"model {self.name!r} ended its turn without a response")
        return response

    async def aclose(self) -> None:
        """Release connections; the runner calls it on close."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def stream_words(text: str) -> list[str]:
    """Split text into word-sized pieces that join back to the same text."""
    pieces: list[str] = []
    current = ""
    for char in text:
        current += char
        if char == " ":
            pieces.append(current)
            current = ""
    if current:
        pieces.append(current)
    return pieces
