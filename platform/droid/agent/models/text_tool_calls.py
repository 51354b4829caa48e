"""Tool calls that a server left in the text instead of ``tool_calls``.

A server started without a tool-call parser (vLLM without ``--tool-call-parser``,
llama.cpp without ``--jinja``) hands back what the chat template made the model
write. ``parse_text_tool_calls`` reads the formats vLLM's parsers read:

- **Hermes / Qwen** (vLLM ``hermes``): ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``,
  one tag per call; text outside the tags is the answer.
- **Llama 3.x** (vLLM ``llama3_json``): JSON objects with ``name`` and ``arguments`` or
  ``parameters``, after an optional ``<|python_tag|>``, several separated by ``;``;
  like vLLM, every ``{`` outside an object already read starts one, text around them
  is dropped, and one object without a ``name`` makes the whole text an answer.
  A Markdown code fence around them is allowed.
- **Mistral** (vLLM ``mistral``): text, then ``[TOOL_CALLS]`` and a JSON list of calls
  (tokenizers before v11), or ``[TOOL_CALLS]name{...}`` / ``[TOOL_CALLS]name[ARGS]{...}``
  once per call (v11 and later); the text before the first marker is the answer.

Calls are made only when every call names a declared tool, so that an answer that
merely contains JSON stays an answer. ``unparsed_call`` then says whether the text
left over still looks like a call nobody read, so that the agent and eval can warn.
"""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from droid.agent.messages import ToolRequest

TAG_OPEN = "<tool_call>"
PYTHON_TAG = "<|python_tag|>"
MISTRAL_CALLS = "[TOOL_CALLS]"
_MARKERS = (TAG_OPEN, PYTHON_TAG, MISTRAL_CALLS)
_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"```(?:json)?", re.S)
# What a call nobody parsed looks like: a marker of one of the formats, or JSON naming a
# function with its arguments (Llama's and OpenAI's shapes), or Llama's <function=name> tag.
_CALL_SHAPE = re.compile(r'<function=\w+|"name"\s*:\s*"[^"]+"\s*,\s*"(?:arguments|parameters)"\s*:', re.S)
_DECODER = json.JSONDecoder()


def could_be_tool_call(text: str) -> bool:
    """Whether streamed text so far may turn out to be a text tool call (so hold it back)."""
    start = text.lstrip()
    if not start:
        return True
    if start.startswith(("{", "[", "```", *_MARKERS)) or any(m.startswith(start) for m in _MARKERS):
        return True
    return MISTRAL_CALLS in text or TAG_OPEN in text or _partial_marker_at_end(text)


def _partial_marker_at_end(text: str) -> bool:
    """"Let me check. [TOOL_C": the text may still become a call, so hold it."""
    return any(text.endswith(m[:n]) for m in (MISTRAL_CALLS, TAG_OPEN) for n in range(1, len(m)))


def parse_text_tool_calls(text: str, tool_names: Iterable[str]) -> tuple[str, list[ToolRequest]]:
    """(the text without the calls, the calls); ``(text, [])`` when it holds no call to a known tool."""
    names = set(tool_names)
    if not names or not text.strip():
        return text, []
    if MISTRAL_CALLS in text:
        rest, objects = _mistral(text)
    elif TAG_OPEN in text:
        rest, objects = _TAGGED.sub("", text).strip(), [_json(m.group(1)) for m in _TAGGED.finditer(text)]
    else:
        rest, objects = "", _llama(text)
    requests = [_request(o, names) for o in objects]
    if not requests or any(r is None for r in requests):
        return text, []
    return rest, [r for r in requests if r is not None]


def unparsed_call(text: str) -> str | None:
    """Why ``text`` (an answer) looks like a tool call that was not run, or None."""
    for marker in _MARKERS:
        if marker in text:
            return f"it contains {marker}"
    match = _CALL_SHAPE.search(text)
    if match:
        return f"it contains {match.group(0)!r}"
    return None


def _mistral(text: str) -> tuple[str, list[Any]]:
    content, *raw_calls = text.split(MISTRAL_CALLS)
    objects: list[Any] = []
    for raw in raw_calls:
        raw = raw.strip()
        if raw.startswith(("[", "{")):  # before v11: one JSON list (or object) of calls
            value = _first_json(raw)
            objects += value if isinstance(value, list) else [value]
            continue
        name, brace, arguments = raw.replace("[ARGS]", "").partition("{")  # v11 and later: name{arguments}
        objects.append({"name": name.strip(), "arguments": _first_json(brace + arguments)} if brace else None)
    return content.strip(), objects


def _llama(text: str) -> list[Any]:
    body = _FENCE.sub(" ", text).replace(PYTHON_TAG, " ")
    objects: list[Any] = []
    end = -1
    for match in re.finditer(r"\{", body):
        if match.start() <= end:
            continue  # a brace inside an object already read
        try:
            value, length = _DECODER.raw_decode(body[match.start():])
        except json.JSONDecodeError:
            return [None]
        end = match.start() + length
        objects.append(value)
    return objects


def _first_json(text: str) -> Any:
    try:
        return _DECODER.raw_decode(text)[0]  # what follows the value (a stop token, a remark) is ignored
    except json.JSONDecodeError:
        return None


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
