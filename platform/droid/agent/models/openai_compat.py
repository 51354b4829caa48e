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

- ``tool_choice: auto`` is sent with the tools whenever the caller sets none: it is every
  server's default (OpenAI's, vLLM's and llama.cpp's ``llama-server``'s; Ollama ignores the
  field), but llama-cpp-python's ``chatml-function-calling`` leaves the tools out of the
  prompt without it;
- tool calls and text are streamed (SSE) unless ``stream=False``; a stream that
  ends announcing tool calls it never sent, or with nothing at all while tools
  were offered (Ollama has done both; llama-cpp-python answers HTTP 200 with an empty
  stream when its model calls), is asked again once without streaming, saying which it saw;
- ``max_tokens`` is sent to bound each answer (CLI ``--max-tokens``); a call cut at that limit
  has arguments that are not JSON, and the error the model gets back says it was cut. Not every
  server honours it (llama-cpp-python's chatml-function-calling ignores it for automatic tool
  calls): an answer the server counts longer than the bound is warned about;
- warnings (logged, and in ``ModelResponse.warnings``) when a call's arguments carry HTML
  entities (``&#34;``: the server's chat template escaped the conversation) or when the
  tool results of the last round did not reach the model's prompt: by the server's own token
  counts, the prompt grew by what the model wrote in that round and not by its results (a
  chat template without a ``tool`` role): both point at the server;
- ``connect_timeout`` / ``read_timeout`` bound each connection attempt and each
  wait for data, so a stalled stream ends with a ``ModelError`` after
  ``read_timeout`` seconds;
- a refusal because the conversation is too long raises ``ContextOverflow``, a
  ``ContextLengthExceededError`` (OpenAI, vLLM and llama.cpp word it differently) that says
  how many tokens the server counted against how many droidsim sent: far more means the
  model's own output filled the context inside the server;
- tool calls written as text (Hermes ``<tool_call>``, Llama 3.x ``<|python_tag|>`` or bare
  JSON, Mistral ``[TOOL_CALLS]``) are run as calls unless ``text_tool_calls=False``; an
  answer that still looks like a call is logged and carried in ``ModelResponse.warnings``;
- ``<think>…</think>`` in the content becomes reasoning, not answer text;
- ``finish_reason: length`` marks the response ``truncated``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any, AsyncIterator

from droid.agent.agent import TOOL_CHOICES
from droid.agent.errors import AgentError, ContextLengthExceededError, ModelError
from droid.agent.messages import ASSISTANT, SYSTEM, TOOL, USER
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
DEFAULT_CONNECT_TIMEOUT = 10.0
DEFAULT_READ_TIMEOUT = 120.0
# How OpenAI, vLLM, llama.cpp and LM Studio say that the prompt does not fit.
_CONTEXT_MARKERS = re.compile(
    r"context_length_exceeded|exceed_context_size|maximum context length|exceeds the available context size"
    r"|longer than the maximum model length|context window|prompt is too long|too many tokens",
    re.I,
)
# The tokens a server says it was asked for: llama-cpp-python and OpenAI "you requested N tokens",
# vLLM "you requested N tokens in the messages", llama.cpp "request (N tokens) exceeds".
_REQUESTED = re.compile(r"requested (\d+) tokens|request \((\d+) tokens\)|resulted in (\d+) tokens", re.I)
_CONTEXT = re.compile(r"maximum context length is (\d+)|context size \((\d+) tokens\)", re.I)
# HTML entities a chat template's autoescape puts into text: &#34; &#x27; &quot; &amp; &lt; &gt; &apos;
HTML_ENTITY = re.compile(r"&(#\d{2,4}|#x[0-9a-fA-F]{2,4}|quot|amp|lt|gt|apos);")
CHARS_PER_TOKEN = 4  # a rough average, for estimates only


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def _whole_url(base_url: str) -> str:
    """The URL a base URL given without its scheme (a port, HOST:PORT/v1) was most likely meant as."""
    if base_url.isdigit():
        return f"http://127.0.0.1:{base_url}/v1"
    return f"http://{base_url}" + ("" if "/" in base_url else "/v1")


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
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        read_timeout: float = DEFAULT_READ_TIMEOUT,
        max_retries: int = 2,
        text_tool_calls: bool = True,
        extra_body: dict[str, Any] | None = None,
        transport: Any = None,
    ) -> None:
        """``read_timeout``: seconds to wait for the server's next bytes (a first token, or the next
        chunk of a stream); ``connect_timeout``: seconds to open the connection. ``max_retries``:
        retries of a refused or failed request (the SDK's back-off; 5xx, 429, timeouts).
        ``transport``: the HTTP transport requests go through (an agent app's process under
        ``droidsim agent --as`` reaches the server through the command, which holds the key)."""
        name = model or _env("DROIDSIM_OPENAI_MODEL", "OPENAI_MODEL")
        if not name:
            raise AgentError("no model name: pass one (openai:NAME) or set DROIDSIM_OPENAI_MODEL")
        for label, value in (("connect_timeout", connect_timeout), ("read_timeout", read_timeout)):
            if not value or value <= 0:
                raise AgentError(f"{label} must be a positive number of seconds, not {value!r}")
        self.name = name
        self.base_url = base_url or _env("DROIDSIM_OPENAI_BASE_URL", "OPENAI_BASE_URL")
        if self.base_url and urllib.parse.urlsplit(self.base_url).scheme not in ("http", "https"):
            raise AgentError(f"base URL {self.base_url!r} is not an http:// or https:// URL: give it whole, "
                             f"for example {_whole_url(self.base_url)}")
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
        self._transport = transport
        self._client: Any = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._last_prompt: _PromptSize | None = None  # for noticing tool results that never reach the model

    @property
    def where(self) -> str:
        return self.base_url or "the OpenAI API"

    def _get_client(self) -> Any:
        # An HTTP connection pool belongs to one event loop; make a client per loop.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            from openai import AsyncOpenAI, Timeout

            timeout = Timeout(self.read_timeout, connect=self.connect_timeout)
            http_client = _http.AsyncClient(transport=self._transport, timeout=timeout) if self._transport else None
            self._client = AsyncOpenAI(api_key=self._api_key, base_url=self.base_url, timeout=timeout,
                                       max_retries=self.max_retries, http_client=http_client)
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
            # Every server's default, sent because llama-cpp-python's chatml-function-calling
            # otherwise leaves the tools out of the prompt (vLLM sets the same when it is absent).
            body["tool_choice"] = _wire_tool_choice(request.tool_choice or "auto")
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
        with _ErrorTranslation(self, body, request):
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
            seen = turn.dropped_tool_calls() if request.tools else None
            if seen:
                log.warning("%s at %s %s; asking again without streaming", self.name, self.where, seen)
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
        if response.truncated:
            for call in requests:
                if call.argument_error:  # cut mid-call: say why its arguments are no JSON
                    call.argument_error += f" (the answer was cut at the token limit{self._limit()})"
        warnings = list(response.warnings)
        why = unparsed_call(text) if request.tools else None
        if why:
            warnings.append(f"the answer of {self.name} at {self.where} looks like a tool call that was not run "
                            f"({why}): start the server with its tool-call parser, or check that the call "
                            "names a declared tool (docs/agent.md, \"Model servers\")")
        warnings += [w for w in (self._escaped_arguments(requests), self._unseen_tool_results(request, response),
                                 self._unbounded(response)) if w]
        for warning in warnings[len(response.warnings):]:
            log.warning("%s", warning)
        return ModelResponse(text, requests, response.usage, reasoning, response.truncated, warnings)

    def _limit(self) -> str:
        return f" of max_tokens {self.max_tokens}" if self.max_tokens else ""

    def _unbounded(self, response: ModelResponse) -> str | None:
        """An answer the server counts longer than the max_tokens it was sent: the server ignored
        the bound (llama-cpp-python's chatml-function-calling does for automatic tool calls)."""
        written = response.usage.get("completion_tokens")
        if not self.max_tokens or not isinstance(written, int) or written <= self.max_tokens:
            return None
        return (f"{self.name} at {self.where} wrote {written} tokens in one answer where max_tokens was "
                f"{self.max_tokens}: the server does not bound this answer (llama-cpp-python's chatml-function-calling "
                "ignores max_tokens for automatic tool calls), so a model that runs on fills its context; serve "
                "the model with a chat template that renders tools (docs/agent.md, \"llama-cpp-python\")")

    def _escaped_arguments(self, requests: list[Any]) -> str | None:
        """A call whose arguments carry HTML entities: the server's chat template escaped the
        conversation (llama-cpp-python's chatml-function-calling does) and the model copied it."""
        for call in requests:
            found = HTML_ENTITY.search(f"{json.dumps(call.args, ensure_ascii=False)} {call.argument_error or ''}")
            if found:
                return (f"the arguments of {call.name} from {self.name} at {self.where} carry the HTML entity "
                        f"{found.group(0)}: the server's chat template escapes the conversation and the model "
                        "copies what it sees; serve the model with a template that does not escape HTML "
                        "(docs/agent.md, \"llama-cpp-python\")")
        return None

    def _unseen_tool_results(self, request: ModelRequest, response: ModelResponse) -> str | None:
        """Tool results sent since the last request that the prompt the server rendered does not
        hold. By the server's own counts the prompt grew by what the model wrote in the last round
        (its completion tokens, the assistant turn) and by the results; a template without a
        ``tool`` role (llama-cpp-python's chatml-function-calling) renders only the former, so the
        growth left after the model's own turn falls short of half what the results take, however
        short they are."""
        now = _PromptSize.of(request, response.usage)
        before, self._last_prompt = self._last_prompt, now
        if now is None or before is None or now.count <= before.count:
            return None
        if _fingerprint(request.messages[:before.count]) != before.fingerprint:
            return None  # another conversation, or one whose oldest turns are no longer sent
        added = request.messages[before.count:]
        results = [m for m in added if m.role == TOOL and m.tool_response is not None]
        if not results or any(m.role == USER for m in added):
            return None
        own_turn = before.completion or sum(_tokens(_said(m)) for m in added if m.role == ASSISTANT)
        left = now.tokens - before.tokens - own_turn - _TURN_FRAME_TOKENS
        size = sum(len(json.dumps(m.tool_response.output, default=str)) for m in results)
        expected = sum(_tokens(json.dumps(m.tool_response.output, default=str)) + _TURN_FRAME_TOKENS for m in results)
        if left * 2 >= expected:
            return None
        return (f"the tool results sent to {self.name} at {self.where} did not reach the model: after the "
                f"{own_turn} tokens it wrote, its prompt grew by {max(left, 0)} tokens for {len(results)} result(s) "
                f"of {size} characters (about {expected} tokens); the server's chat template drops the tool role "
                "(llama-cpp-python's chatml-function-calling does), so the model answers without them "
                "(docs/agent.md, \"llama-cpp-python\")")

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
        chunks = 0
        async for chunk in stream:
            chunks += 1
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
        yield _Turn(response, finish_reason, streamed=True, chunks=chunks)


@dataclass
class _Turn:
    """A response as read off the wire, with the finish reason that the stream fallback looks at."""

    response: ModelResponse
    finish_reason: str | None
    streamed: bool = False
    chunks: int = 0

    def dropped_tool_calls(self) -> str | None:
        """What a stream that lost its tool calls looked like, or None: Ollama has streamed
        ``finish_reason: tool_calls`` without the calls, or nothing at all; llama-cpp-python answers
        HTTP 200 and ends the stream without a chunk when its model calls with ``tool_choice: auto``."""
        response = self.response
        if response.tool_requests:
            return None
        if self.finish_reason == "tool_calls":
            return "announced tool calls (finish_reason: tool_calls) but its stream held none"
        if response.text.strip() or response.reasoning or self.finish_reason == "length":
            return None
        if not self.chunks:
            return "answered HTTP 200 with an empty stream (not one chunk) while tools were offered"
        return (f"ended its stream with no text and no tool calls (finish_reason: {self.finish_reason or 'none'}) "
                "while tools were offered")


@dataclass(frozen=True)
class _PromptSize:
    """A request's message count, a fingerprint of its messages, the prompt tokens the server
    counted and the tokens it counted for the answer (0 when it did not say)."""

    count: int
    fingerprint: int
    tokens: int
    completion: int = 0

    @classmethod
    def of(cls, request: ModelRequest, usage: dict[str, int]) -> "_PromptSize | None":
        tokens = usage.get("prompt_tokens")
        if not isinstance(tokens, int) or not tokens:
            return None
        completion = usage.get("completion_tokens")
        return cls(len(request.messages), _fingerprint(request.messages), tokens,
                   completion if isinstance(completion, int) else 0)


# What a chat template adds around one message (its role's start and end markers), in tokens:
# ChatML's "<|im_start|>tool\n...<|im_end|>\n" is about five.
_TURN_FRAME_TOKENS = 5


def _tokens(text: str) -> int:
    return max(1, len(text) // CHARS_PER_TOKEN)


def _said(message: Any) -> str:
    """What the model wrote in an assistant message: its text and its calls' names and arguments."""
    return (message.text or "") + "".join(f"{r.name}{json.dumps(r.args, default=str)}" for r in message.tool_requests)


def _fingerprint(messages: tuple[Any, ...]) -> int:
    return hash(json.dumps([m.to_dict() for m in messages], sort_keys=True, default=str))


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


class ContextOverflow(ContextLengthExceededError):
    """The server refused a request that does not fit the model's context.

    ``requested``: the tokens the server says it was asked for (None when it does not say);
    ``context``: the model's context, likewise; ``sent``: droidsim's estimate of the tokens it sent.
    ``by_own_output`` is true when the server counted far more than was sent: the model's own
    output, generated inside the server (llama-cpp-python's chatml-function-calling generates
    call after call into one prompt), is what filled the context.
    """

    def __init__(self, message: str, requested: int | None, context: int | None, sent: int,
                 counted: int | None = None) -> None:
        super().__init__(message)
        self.requested, self.context, self.sent, self.counted = requested, context, sent, counted

    @property
    def by_own_output(self) -> bool:
        """The server counted more than the request could hold: far more than droidsim estimates
        it sent, or more than the context where the request fits it with room to spare (by the
        server's own count of the conversation so far, where it gave one: the estimate alone is
        off by a third on JSON, and 12 tool declarations already take half of a 4096 context, so
        "twice what was sent" can never be reached there)."""
        if self.requested is None:
            return False
        if self.requested > 2 * self.sent:
            return True
        if self.context is None or self.requested <= self.context:
            return False
        # The estimate (4 characters a token) is off by up to a third on JSON; the server's count
        # of the conversation so far by what a template adds around the new messages.
        fits = self.counted * 1.1 if self.counted is not None else self.sent * 1.4
        return fits < self.context

    @classmethod
    def of(cls, model: "OpenAICompatibleModel", exc: Any, body: dict[str, Any],
           request: ModelRequest | None = None) -> "ContextOverflow":
        said = f"{exc.message} {exc.body}"
        requested, context = _first_number(_REQUESTED, said), _first_number(_CONTEXT, said)
        sent = len(json.dumps(body, default=str)) // CHARS_PER_TOKEN
        counted = _counted(model._last_prompt, request)
        if cls("", requested, context, sent, counted).by_own_output:
            cause = (f"the server counted {requested} tokens for a request of about {counted or sent}: the model's own "
                     f"output filled its context{f' of {context}' if context else ''}. Bound each answer with "
                     "--max-tokens (max_tokens); a server that generates calls into its own prompt "
                     "(llama-cpp-python's chatml-function-calling) may not honour it")
        else:
            cause = ("Start a new session, clear this one, or let the agent drop its oldest turns "
                     '(Agent(context_overflow="drop_oldest"), droidsim agent --trim-history)')
        return cls(f"the conversation no longer fits the context of model {model.name} at {model.where}: "
                   f"{exc.message}. {cause}", requested, context, sent, counted)


def _counted(last: "_PromptSize | None", request: ModelRequest | None) -> int | None:
    """The tokens of ``request`` by the server's count of the last request of the same conversation
    (its prompt and its answer) and droidsim's estimate of what came after; None without one."""
    if last is None or request is None or len(request.messages) < last.count:
        return None
    if _fingerprint(request.messages[:last.count]) != last.fingerprint:
        return None
    tail = request.messages[last.count:]
    return last.tokens + last.completion + sum(
        _tokens(json.dumps(m.to_dict(), default=str)) + _TURN_FRAME_TOKENS for m in tail)


# How Ollama, vLLM and llama.cpp refuse tools for a model served without tool support.
_NO_TOOLS = re.compile(r"does not support tools|--enable-auto-tool-choice|requires --jinja", re.I)


def _status_advice(model: "OpenAICompatibleModel", status: int, said: str) -> str:
    """What to change when a server refuses: a base URL without its /v1, a model it does not
    have, a model served without tool support."""
    if _NO_TOOLS.search(said):
        return (f". The server cannot give model {model.name} tools as it serves it: on Ollama pick a model "
                "with tool support (its page lists 'tools'; qwen2.5, llama3.1); start vLLM with "
                "--enable-auto-tool-choice --tool-call-parser NAME; start llama.cpp's llama-server with --jinja "
                "(docs/agent.md, \"Model servers\")")
    if status == 404:
        path = urllib.parse.urlparse(model.base_url or "").path.rstrip("/")
        if model.base_url and not path.endswith("/v1"):
            return (f". No chat-completions endpoint at {model.base_url.rstrip('/')}/chat/completions: "
                    f"OpenAI-compatible servers serve it under /v1, so try --base-url "
                    f"{model.base_url.rstrip('/')}/v1 (base_url=, OPENAI_BASE_URL)")
        if "model" in said.lower():
            return f". The server has no model named {model.name!r}: check the name (--model openai:NAME), or pull it"
    return ""


def _first_number(pattern: re.Pattern, text: str) -> int | None:
    found = pattern.search(text)
    return int(next(g for g in found.groups() if g)) if found else None


class _ErrorTranslation:
    """Turns the SDK's and the HTTP library's exceptions into ModelErrors that say what happened."""

    def __init__(self, model: OpenAICompatibleModel, body: dict[str, Any], request: ModelRequest | None = None) -> None:
        self.model = model
        self.body = body
        self.request = request

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
                return ContextOverflow.of(model, exc, self.body, self.request)
            refused = f"{where} refused the request for model {model.name}: HTTP {exc.status_code}: {exc.message}"
            return ModelError(refused + _status_advice(model, exc.status_code, f"{exc.message} {exc.body}"))
        if isinstance(exc, _http.HTTPError):
            return ModelError(f"the stream from {where} for model {model.name} broke off: {type(exc).__name__}: {exc}")
        if isinstance(exc, openai.OpenAIError):
            return ModelError(f"model {model.name} at {where} failed: {exc}")
        return ModelError(f"model {model.name} at {where} failed: {type(exc).__name__}: {exc}")
