"""How the offline model words an answer from the results it got.

Each result becomes one sentence: the fields of the returned object, the message
of an error map, or that the user declined. A result that says the action did not
happen (``cancelled: false`` from ``cancel_order``, ``updated: false``...) is
reported as a failure with its message, never as done. Dates and times are said as
people write them (ISO 8601), never as their proxies' fields.
"""

from __future__ import annotations

import json
from typing import Any

from droid.agent.confirmation import CANCELLED_BY_USER, name_words
from droid.agent.errors import is_error_map
from droid.agent.messages import ToolResponse
from droid.appfunctions.json_codec import readable


def humanize(name: str) -> str:
    return " ".join(name_words(name)) or name


def _not_done(result: ToolResponse) -> str | None:
    """The result's message when a flag named after the action is false ("cancel" -> cancelled)."""
    output = result.output
    verb = (name_words(result.name) or [""])[0]
    if not isinstance(output, dict) or not verb:
        return None
    for key, value in output.items():
        words = name_words(key)
        if value is False and words and (words[0].startswith(verb) or verb.startswith(words[0][:4])):
            return str(output.get("message") or output.get("reason") or f"{key} is false")
    return None


def phrase(result: ToolResponse) -> str:
    action = humanize(result.name)
    output = result.output
    if is_error_map(output):
        error = output["error"]
        return f"I couldn't {action}: {error.get('message') or error.get('code_name')} ({error.get('code_name')})."
    if isinstance(output, dict) and output.get("status") == CANCELLED_BY_USER:
        return f"I did not {action}, because you declined it."
    failed = _not_done(result)
    if failed is not None:
        return f"I could not {action}: {failed}"
    if isinstance(output, dict) and set(output) == {"result"}:
        value = output["result"]
        if value is None:
            return f"Done: {action}."
        if isinstance(value, list):
            return f"{action.capitalize()} returned {len(value)} item{'s' if len(value) != 1 else ''}" + (
                ": " + "; ".join(_describe(v) for v in value[:5]) + "." if value else "."
            )
        return f"{action.capitalize()} returned {_describe(value)}."
    if not output:
        return f"Done: {action}."
    return f"Here is what {action} returned: {_describe(output)}."


def _describe(value: Any) -> str:
    value = readable(value, spoken=True)
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            if item is None or item == "" or item == []:
                continue
            parts.append(f"{humanize(key)}: {_describe(item)}")
        return ", ".join(parts) if parts else "nothing"
    if isinstance(value, list):
        return "[" + "; ".join(_describe(v) for v in value[:5]) + (" ..." if len(value) > 5 else "") + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, default=str)
