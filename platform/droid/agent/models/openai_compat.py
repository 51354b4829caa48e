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

Tool calls and text are streamed (SSE) by default; ``stream=False`` asks for a
whole response instead.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, AsyncIterator

from droid.agent.errors import AgentError, ModelError
from droid.agent.messages import ASSISTANT, SYSTEM, TOOL, USER, Message, ToolRequest
from droid.agent.models.base import Model, ModelChunk, ModelRequest, ModelResponse, TextDelta

_PLACEHOLDER_KEY = "sk-no-key-required"


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
        timeout: float = 120.0,
        max_retries: int = 2,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        name = model or _env("DROIDSIM_OPENAI_MODEL", "OPENAI_MODEL")
        if not name:
            raise AgentError("no model name: pass one (openai:NAME) or set DROIDSIM_OPENAI_MODEL")
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
        self.timeout = timeout
        self.max_retries = max_retries
        self.extra_body = extra_body
        self._client: Any = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    def _get_client(self) -> Any:
        # An HTTP connection pool belongs to one event loop; make a client per loop.
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            from openai import AsyncOpenAI

            self._client = AsyncOpenAI(
                api_key=self._api_key, base_url=self.base_url, timeout=self.timeout, max_retries=self.max_retries
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
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if self.extra_body:
            body["extra_body"] = self.extra_body
        return body

    async def generate(self, request: ModelRequest) -> AsyncIterator[ModelChunk]:
        import openai

        client = self._get_client()
        body = self.request_body(request)
        where = self.base_url or "the OpenAI API"
        try:
            if not self.stream:
                completion = await client.chat.completions.create(**body)
                if not completion.choices:
                    raise ModelError(f"{self.name} at {where} returned no choices")
                message = completion.choices[0].message
                calls = [
                    {"id": c.id or "", "name": c.function.name or "", "arguments": c.function.arguments or ""}
                    for c in (message.tool_calls or [])
                    if getattr(c, "function", None) is not None
                ]
                if message.content:
                    yield TextDelta(message.content)
                yield ModelResponse(message.content or "", [_tool_request(c) for c in calls],
                                    _usage(completion))
                return
            stream = await client.chat.completions.create(**body, stream=True)
            text: list[str] = []
            slots: dict[int, dict[str, str]] = {}
            usage: dict[str, int] = {}
            async for chunk in stream:
                usage = _usage(chunk) or usage  # servers that report it do so on the last chunk
                if not chunk.choices:
                    continue
                delta = chunk.choices[0].delta
                if delta is None:
                    continue
                if delta.content:
                    text.append(delta.content)
                    yield TextDelta(delta.content)
                for call in delta.tool_calls or []:
                    slot = slots.setdefault(call.index or 0, {"id": "", "name": "", "arguments": ""})
                    if call.id:
                        slot["id"] = call.id
                    function = call.function
                    if function is not None:
                        if function.name and function.name != slot["name"]:
                            slot["name"] += function.name
                        if function.arguments:
                            slot["arguments"] += function.arguments
            yield ModelResponse("".join(text), [_tool_request(slots[i]) for i in sorted(slots)], usage)
        except openai.APIConnectionError as exc:
            raise ModelError(f"cannot reach {where} for model {self.name}: {exc}") from exc
        except openai.APIStatusError as exc:
            raise ModelError(f"{where} refused the request for model {self.name}: HTTP {exc.status_code}: {exc.message}") from exc
        except openai.OpenAIError as exc:
            raise ModelError(f"model {self.name} at {where} failed: {exc}") from exc


def to_openai_message(message: Message) -> dict[str, Any]:
    if message.role == TOOL and message.tool_response is not None:
        response = message.tool_response
        return {"role": "tool", "tool_call_id": response.id, "content": json.dumps(response.output, default=str)}
    if message.role == ASSISTANT:
        data: dict[str, Any] = {"role": "assistant", "content": message.text or None}
        if message.tool_requests:
            data["tool_calls"] = [
                {"id": r.id, "type": "function", "function": {"name": r.name, "arguments": json.dumps(r.args)}}
                for r in message.tool_requests
            ]
        return data
    return {"role": message.role if message.role in (USER, SYSTEM) else USER, "content": message.text}


def _usage(reply: Any) -> dict[str, int]:
    usage = getattr(reply, "usage", None)
    if usage is None:
        return {}
    names = ("prompt_tokens", "completion_tokens", "total_tokens")
    return {n: getattr(usage, n) for n in names if isinstance(getattr(usage, n, None), int)}


def _tool_request(call: dict[str, str]) -> ToolRequest:
    raw = call.get("arguments") or ""
    try:
        args = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as exc:
        return ToolRequest(call["name"], {}, call.get("id", ""), f"arguments are not valid JSON ({exc.msg}): {raw[:200]}")
    if not isinstance(args, dict):
        return ToolRequest(call["name"], {}, call.get("id", ""), f"arguments must be a JSON object, got: {raw[:200]}")
    return ToolRequest(call["name"], args, call.get("id", ""))
