"""The chat-completions wire format, as real servers speak it rather than as the spec says.

- Our messages to the wire: an assistant message always has a string ``content``
  (``""`` when it only calls tools: OpenAI rejects ``null`` there), and the
  model's reasoning is never sent back.
- Streamed tool calls are assembled by ``ToolCallAssembler``. OpenAI numbers the
  calls of a turn with ``index`` 0, 1, 2...; Ollama gives every call ``index: 0``
  (or none) and sends each whole, with its own id. A delta therefore starts a new
  call when its id differs from the current call's, or when it names a function
  while the current call's arguments are already a whole JSON object.
- ``arguments`` may arrive as a JSON object instead of a string (Ollama's native
  shape, passed through by some proxies): accepted as is.
- Reasoning arrives as ``reasoning_content`` (DeepSeek, llama.cpp, vLLM before
  0.9) or ``reasoning`` (vLLM since, Ollama): both are read.
"""

from __future__ import annotations

import json
from typing import Any

from droid.agent.messages import ASSISTANT, SYSTEM, TOOL, USER, Message, ToolRequest

REASONING_FIELDS = ("reasoning_content", "reasoning")


def to_openai_message(message: Message) -> dict[str, Any]:
    if message.role == TOOL and message.tool_response is not None:
        response = message.tool_response
        return {"role": "tool", "tool_call_id": response.id, "content": json.dumps(response.output, default=str)}
    if message.role == ASSISTANT:
        data: dict[str, Any] = {"role": "assistant", "content": message.text or ""}
        if message.tool_requests:
            data["tool_calls"] = [
                {"id": r.id, "type": "function", "function": {"name": r.name, "arguments": json.dumps(r.args)}}
                for r in message.tool_requests
            ]
        return data
    return {"role": message.role if message.role in (USER, SYSTEM) else USER, "content": message.text}


def reasoning_of(part: Any) -> str:
    """The reasoning text of a message or delta, under either field name."""
    for name in REASONING_FIELDS:
        value = getattr(part, name, None)
        if isinstance(value, str) and value:
            return value
    return ""


class ToolCallAssembler:
    """Collects streamed tool-call deltas into whole calls (see the module docstring)."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self._at_index: dict[Any, dict[str, Any]] = {}

    def add(self, delta_call: Any) -> None:
        function = getattr(delta_call, "function", None)
        name = getattr(function, "name", None) or ""
        arguments = getattr(function, "arguments", None)
        call_id = getattr(delta_call, "id", None) or ""
        index = getattr(delta_call, "index", None)
        current = self._at_index.get(index)
        if current is None or self._starts_new(current, call_id, name):
            current = {"id": call_id, "name": name, "arguments": ""}
            self.calls.append(current)
            self._at_index[index] = current
        else:
            if call_id and not current["id"]:
                current["id"] = call_id
            if name and not current["name"]:
                current["name"] = name
            elif name and name != current["name"]:
                current["name"] += name  # a server that streams the name in pieces
        if isinstance(arguments, dict):
            current["arguments"] = arguments
        elif arguments:
            current["arguments"] = (current["arguments"] if isinstance(current["arguments"], str) else "") + arguments

    @staticmethod
    def _starts_new(current: dict[str, Any], call_id: str, name: str) -> bool:
        if call_id and current["id"] and call_id != current["id"]:
            return True
        return bool(name and current["name"] and not call_id and _whole_object(current["arguments"]))

    def requests(self) -> list[ToolRequest]:
        return [tool_request(c) for c in self.calls if c["name"] or c["arguments"]]


def _whole_object(arguments: Any) -> bool:
    if isinstance(arguments, dict):
        return True
    try:
        return isinstance(json.loads(arguments), dict)
    except (json.JSONDecodeError, TypeError):
        return False


def tool_request(call: dict[str, Any]) -> ToolRequest:
    raw = call.get("arguments")
    name, call_id = call.get("name") or "", call.get("id") or ""
    if isinstance(raw, dict):
        return ToolRequest(name, raw, call_id)
    raw = raw or ""
    try:
        args = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as exc:
        return ToolRequest(name, {}, call_id, f"arguments are not valid JSON ({exc.msg}): {raw[:200]}")
    if not isinstance(args, dict):
        return ToolRequest(name, {}, call_id, f"arguments must be a JSON object, got: {raw[:200]}")
    return ToolRequest(name, args, call_id)


def message_calls(message: Any) -> list[ToolRequest]:
    """The tool calls of a whole (non-streamed) assistant message."""
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        function = getattr(call, "function", None)
        if function is not None:
            calls.append({"id": call.id or "", "name": function.name or "", "arguments": function.arguments})
    return [tool_request(c) for c in calls]


def usage_of(reply: Any) -> dict[str, int]:
    """The token counts a reply (or a stream's last chunk) reports, if any."""
    usage = getattr(reply, "usage", None)
    if usage is None:
        return {}
    names = ("prompt_tokens", "completion_tokens", "total_tokens")
    return {n: getattr(usage, n) for n in names if isinstance(getattr(usage, n, None), int)}
