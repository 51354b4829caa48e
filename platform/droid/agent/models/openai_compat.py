"""An OpenAI-compatible chat-completions backend (the ``openai`` SDK).

Works with any server that speaks ``/v1/chat/completions`` with tools: Ollama,
vLLM, llama.cpp server, LM Studio, hosted APIs. Settings come from arguments,
else the environment:

================  ==========================================================
model             ``DROIDSIM_OPENAI_MODEL``, ``OPENAI_MODEL``
base URL          ``DROIDSIM_OPENAI_BASE_URL``, ``OPENAI_BASE_URL`` (else api.openai.com)
API key           ``DROIDSIM_OPENAI_API_KEY``, ``OPENAI_API_KEY``; a local server
                  (a base URL given) needs none, so a placeholder is sent
================  ==========================================================

What it does about real servers' quirks (docs/agent.md, "Model servers"):

- tool calls and text are streamed (SSE) unless ``stream=False``; a stream that
  ends announcing tool calls it never sent, or with nothing at all while tools
  were offered (Ollama has done both), is asked again once without streaming;
- ``connect_timeout`` / ``read_timeout`` bound each connection attempt and each
  wait for data, so a stalled stream ends with a ``ModelError`` after
  ``read_timeout`` seconds;
- a refusal because the conversation is too long raises
  ``ContextLengthExceededError`` (OpenAI, vLLM and llama.cpp word it differently);
- tool calls written as text (Hermes ``<tool_call>``, Llama 3.x ``<|python_tag|>`` or bare
  JSON, Mistral ``[TOOL_CALLS]``) are run as calls unless ``text_tool_calls=False``; an
  answer that still looks like a call is logged and carried in ``ModelResponse.warnings``;
- ``<think>…</think>`` in the content becomes reasoning, not answer text;
- ``finish_reason: length`` marks the response ``truncated``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from dataclasses import dataclass
from typing import Any, AsyncIterator

from droid.agent.agent import TOOL_CHOICES
from droid.agent.errors import AgentError, ContextLengthExceededError, ModelError
from droid.agent.messages import SYSTEM
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, ReasoningDelta, TextDelta
from droid.agent.models.openai_wire import ToolCallAssembler, message_calls, reasoning_of, to_openai_message, usage_of
from droid.agent.models.text_tool_calls import could_be_tool_call, parse_text_tool_calls, unparsed_call
from droid.agent.models.think_tags import ThinkSplitter, split_thinking

try:  # the openai SDK's HTTP library: raised as is while a stream is read
    import httpx2 as _http
except ImportError:  # pragma: no cover - older SDKs
    import httpx as _http

log = logging.getLogger("droid.agent")

_PLACEHOLDER_KEY = "sk-no-key-required"
# How OpenAI, vLLM, llama.cpp and LM Studio say that the prompt does not fit.
_CONTEXT_MARKERS = re.compile(
    r"context_length_exceeded|exceed_context_size|maximum context length|exceeds the available context size"
    r"|longer than the maximum model length|context window|prompt is too long|too many tokens",
    re.I,
)


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


class OpenAICompatibleModel(Model):
    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        stream: bool = True,
        temperature: float | None = None,
        max_tokens: int | None = None,
        supports_tools: bool = True,
        connect_timeout: float = 10.0,
        read_timeout: float = 120.0,
        max_retries: int = 2,
        text_tool_calls: bool = True,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        """``read_timeout``: seconds to wait for the server's next bytes (a first token, or the next
        chunk of a stream); ``connect_timeout``: seconds to open the connection. ``max_retries``:
        retries of a refused or failed request (the SDK's back-off; 5xx, 429, timeouts)."""
        name = model or _env("DROIDSIM_OPENAI_MODEL", "OPENAI_MODEL")
        if not name:
            raise AgentError("no model name: pass one (openai:NAME) or set DROIDSIM_OPENAI_MODEL")
        for label, value in (("connect_timeout", connect_timeout), ("read_timeout", read_timeout)):
            if not value or value <= 0:
                raise AgentError(f"{label} must be a positive number of seconds, not {value!r}")
        self.name = name
        self.base_url = base_url or _env("DROIDSIM_OPENAI_BASE_URL", "OPENAI_BASE_URL")
        key = api_key or _env("DROIDSIM_OPENAI_API_KEY", "OPENAI_API_KEY")
        if not key:
            if not self.base_url:
                raise AgentError(
                    "no API key for the OpenAI API: set OPENAI_API_KEY, or give --base-url for a local "
                    "server (which needs none)"
                )
            key = _PLACEHOLDER_KEY
        self._api_key = key
        self.stream = stream
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.supports_tools = supports_tools
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.max_retries = max_retries
        self.text_tool_calls = text_tool_calls
        self.extra_body = extra_body
        self._client: Any = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    @property
    def where(self) -> str:
        return self.base_url or "the OpenAI API"

    def _get_client(self) -> Any:
        # An HTTP connection pool belongs to one event loop; make a client per loop.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            from openai import AsyncOpenAI, Timeout

            timeout = Timeout(self.read_timeout, connect=self.connect_timeout)
            self._client = AsyncOpenAI(
                api_key=self._api_key, base_url=self.base_url, timeout=timeout, max_retries=self.max_retries
            )
            self._client_loop = loop
        return self._client

    async def aclose(self) -> None:
        if self._client is not None and self._client_loop is asyncio.get_running_loop():
            await self._client.close()
        self._client = None

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        """The chat-completions arguments for a request (public for inspection and tests)."""
        messages: list[dict[str, Any]] = []
        if request.instructions:
            messages.append({"role": SYSTEM, "content": request.instructions})
        messages += [to_openai_message(m) for m in request.messages]
        body: dict[str, Any] = {"model": self.name, "messages": messages}
        if request.tools:
            body["tools"] = [
                {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
                for t in request.tools
            ]
            if request.tool_choice is not None:
                body["tool_choice"] = _wire_tool_choice(request.tool_choice)
            if request.parallel_tool_calls is not None:
                body["parallel_tool_calls"] = request.parallel_tool_calls
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.extra_body:
            body["extra_body"] = self.extra_body
        return body

    async def generate(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        body = self.request_body(request)
        names = [t.name for t in request.tools] if self.text_tool_calls else []
        with _ErrorTranslation(self):
            if not self.stream:
                response = self._finish((await self._complete(body)).response, request, names)
                for chunk in _chunks_of(response):
                    yield chunk
                yield response
                return
            turn = None
            held: list[TextDelta] = []  # text that may yet turn out to be a tool call written as text
            holding = bool(names)
            splitter = ThinkSplitter()
            async for chunk in self._stream(body):
                if isinstance(chunk, _Turn):
                    turn = chunk
                    continue
                for piece in _without_think(chunk, splitter):
                    if holding and isinstance(piece, TextDelta):
                        held.append(piece)
                        holding = could_be_tool_call("".join(c.text for c in held))
                        if not holding:
                            for text in held:
                                yield text
                            held = []
                        continue
                    yield piece
            held += [p for p in _think_pieces(splitter.flush()) if isinstance(p, TextDelta)]
            assert turn is not None
            if request.tools and turn.dropped_tool_calls():
                log.warning("%s at %s ended its stream without the tool calls it announced; asking again "
                            "without streaming", self.name, self.where)
                turn = await self._complete(body)
                held = []
            response = self._finish(turn.response, request, names)
            if turn.response.tool_requests or not response.tool_requests:
                for piece in held:  # no calls were read from the held text: it was the answer
                    yield piece
            if not turn.streamed:
                for piece in _chunks_of(response):
                    yield piece
            yield response

    def _finish(self, response: ModelResponse, request: ModelRequest, tool_names: list[str]) -> ModelResponse:
        """The response with ``<think>`` moved to the reasoning and text tool calls read; warns when
        the answer still looks like a call that no parser read."""
        thought, text = split_thinking(response.text)
        reasoning = "\n".join(p for p in (response.reasoning, thought) if p)
        requests = response.tool_requests
        if not requests and tool_names:
            rest, parsed = parse_text_tool_calls(text, tool_names)
            if parsed:
                text, requests = rest, parsed
        warnings = list(response.warnings)
        why = unparsed_call(text) if request.tools else None
        if why:
            warnings.append(f"the answer of {self.name} at {self.where} looks like a tool call that was not run "
                            f"({why}): start the server with its tool-call parser, or check that the call "
                            "names a declared tool (docs/agent.md, \"Model servers\")")
            log.warning("%s", warnings[-1])
        return ModelResponse(text, requests, response.usage, reasoning, response.truncated, warnings)

    async def _complete(self, body: dict[str, Any]) -> "_Turn":
        completion = await self._get_client().chat.completions.create(**body)
        if not completion.choices:
            raise ModelError(f"{self.name} at {self.where} returned no choices")
        choice = completion.choices[0]
        message = choice.message
        response = ModelResponse(message.content or "", message_calls(message), usage_of(completion),
                                 reasoning=reasoning_of(message), truncated=choice.finish_reason == "length")
        return _Turn(response, choice.finish_reason)

    async def _stream(self, body: dict[str, Any]) -> AsyncIterator["ModelChunk | _Turn"]:
        stream = await self._get_client().chat.completions.create(**body, stream=True)
        text: list[str] = []
        reasoning: list[str] = []
        calls = ToolCallAssembler()
        finish_reason = None
        usage: dict[str, int] = {}
        async for chunk in stream:
            usage = usage_of(chunk) or usage  # servers that report it do so on the last chunk
            if not chunk.choices:
                continue
            choice = chunk.choices[0]
            finish_reason = choice.finish_reason or finish_reason
            delta = choice.delta
            if delta is None:
                continue
            thought = reasoning_of(delta)
            if thought:
                reasoning.append(thought)
                yield ReasoningDelta(thought)
            if delta.content:
                text.append(delta.content)
                yield TextDelta(delta.content)
            for call in delta.tool_calls or []:
                calls.add(call)
        response = ModelResponse("".join(text), calls.requests(), usage, reasoning="".join(reasoning),
                                 truncated=finish_reason == "length")
        yield _Turn(response, finish_reason, streamed=True)


@dataclass
class _Turn:
    """A response as read off the wire, with the finish reason that the stream fallback looks at."""

    response: ModelResponse
    finish_reason: str | None
    streamed: bool = False

    def dropped_tool_calls(self) -> bool:
        """Ollama has streamed ``finish_reason: tool_calls`` without the calls, or nothing at all."""
        response = self.response
        if response.tool_requests:
            return False
        if self.finish_reason == "tool_calls":
            return True
        return not response.text.strip() and not response.reasoning and self.finish_reason != "length"


def _chunks_of(response: ModelResponse) -> list[ModelChunk]:
    chunks: list[ModelChunk] = []
    if response.reasoning:
        chunks.append(ReasoningDelta(response.reasoning))
    if response.text:
        chunks.append(TextDelta(response.text))
    return chunks


def _without_think(chunk: ModelChunk, splitter: ThinkSplitter) -> list[ModelChunk]:
    """A streamed chunk, its ``<think>`` text turned into reasoning."""
    if not isinstance(chunk, TextDelta):
        return [chunk]
    return _think_pieces(splitter.feed(chunk.text))


def _think_pieces(pieces: list[tuple[str, str]]) -> list[ModelChunk]:
    return [ReasoningDelta(text) if kind == "reasoning" else TextDelta(text) for kind, text in pieces]


def _wire_tool_choice(choice: str) -> Any:
    if choice in TOOL_CHOICES:
        return choice
    return {"type": "function", "function": {"name": choice}}


class _ErrorTranslation:
    """Turns the SDK's and the HTTP library's exceptions into ModelErrors that say what happened."""

    def __init__(self, model: OpenAICompatibleModel) -> None:
        self.model = model

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        if exc is None or isinstance(exc, (AgentError, asyncio.CancelledError)) or not isinstance(exc, Exception):
            return False
        raise self.translate(exc) from exc

    def translate(self, exc: Exception) -> ModelError:
        import openai

        model, where = self.model, self.model.where
        cause = exc.__cause__ if isinstance(exc, openai.APITimeoutError) else exc
        if isinstance(cause, _http.ConnectTimeout):
            return ModelError(f"cannot reach {where} for model {model.name}: no connection within "
                              f"connect_timeout ({model.connect_timeout:g}s)")
        if isinstance(exc, openai.APITimeoutError) or isinstance(cause, _http.TimeoutException):
            return ModelError(f"{where} sent nothing for read_timeout ({model.read_timeout:g}s) while model "
                              f"{model.name} was answering: the server stalled or is overloaded")
        if isinstance(exc, openai.APIConnectionError):
            return ModelError(f"cannot reach {where} for model {model.name}: {exc} Is the model server running, "
                              "and is that its address? (base_url=, droidsim --base-url, OPENAI_BASE_URL)")
        if isinstance(exc, openai.APIStatusError):
            if exc.status_code in (400, 413) and _CONTEXT_MARKERS.search(f"{exc.message} {exc.body}"):
                return ContextLengthExceededError(
                    f"the conversation no longer fits the context of model {model.name} at {where}: {exc.message}. "
                    "Start a new session, clear this one, or let the agent drop its oldest turns "
                    '(Agent(context_overflow="drop_oldest"), droidsim agent --trim-history)'
                )
            return ModelError(f"{where} refused the request for model {model.name}: HTTP {exc.status_code}: {exc.message}")
        if isinstance(exc, _http.HTTPError):
            return ModelError(f"the stream from {where} for model {model.name} broke off: {type(exc).__name__}: {exc}")
        if isinstance(exc, openai.OpenAIError):
            return ModelError(f"model {model.name} at {where} failed: {exc}")
        return ModelError(f"model {model.name} at {where} failed: {type(exc).__name__}: {exc}")
