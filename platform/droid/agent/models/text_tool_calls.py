"""Tool calls that a server left in the text instead of ``tool_calls``.

Models served without a tool-call parser write their calls as text: Qwen and
Hermes templates wrap each in ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
Llama 3.x templates answer with a bare JSON object (``"parameters"`` instead of
``"arguments"``), sometimes inside a Markdown code fence. ``parse_text_tool_calls``
turns those into ToolRequests, but only when every object names a declared tool,
so that an answer that merely contains JSON stays an answer.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from droid.agent.messages import ToolRequest

TAG_OPEN = "<tool_call>"
_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


def could_be_tool_call(text: str) -> bool:
    """Whether streamed text so far may turn out to be a text tool call (so hold it back)."""
    start = text.lstrip()
    if not start:
        return True
    return start.startswith(("{", "[", "```", TAG_OPEN)) or TAG_OPEN.startswith(start)


def parse_text_tool_calls(text: str, tool_names: Iterable[str]) -> tuple[str, list[ToolRequest]]:
    """(the text without the calls, the calls); ``(text, [])`` when it holds no call to a known tool."""
    names = set(tool_names)
    if not names or not text.strip():
        return text, []
    if TAG_OPEN in text:
        objects = [_json(m.group(1)) for m in _TAGGED.finditer(text)]
        rest = _TAGGED.sub("", text).strip()
    else:
        body = text.strip()
        fenced = _FENCE.match(body)
        parsed = _json(fenced.group(1) if fenced else body)
        objects = parsed if isinstance(parsed, list) else [parsed]
        rest = ""
    requests = [_request(o, names) for o in objects]
    if not requests or any(r is None for r in requests):
        return text, []
    return rest, [r for r in requests if r is not None]


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return None


def _request(data: Any, names: set[str]) -> ToolRequest | None:
    if not isinstance(data, dict) or data.get("name") not in names:
        return None
    args = data.get("arguments", data.get("parameters", {}))
    if isinstance(args, str):
        args = _json(args) if args.strip() else {}
    if not isinstance(args, dict):
        return None
    return ToolRequest(data["name"], args, str(data.get("id") or ""))
