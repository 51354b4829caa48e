"""What the app's process may answer on its tool socket (tool_server.py writes it, the
bridge reads it): the shape of its hello and of the reply to each op.

The app's process is the app's code, so a reply is checked before the bridge reads a field of
it: a tool without a name, an outcome that is a list, a failure that is no text would
otherwise fail deep in the bridge (a ``KeyError`` where the client waits for an answer).
"""

from __future__ import annotations

from typing import Any

import jsonschema

_TEXT = {"type": "string"}
_MAYBE_TEXT = {"type": ["string", "null"]}
_OBJECT = {"type": "object"}

HELLO = {"type": "object", "required": ["agent"], "properties": {
    "agent": {"type": ["object", "null"], "required": ["name"], "properties": {
        "name": _TEXT, "instructions": _MAYBE_TEXT, "max_turns": {"type": ["integer", "null"]}}},
    "error": _TEXT}}

_TOOL = {"type": "object", "required": ["name"], "properties": {
    "name": _TEXT, "description": _MAYBE_TEXT, "parameters": {"type": ["object", "null"]},
    "function_id": _MAYBE_TEXT, "package": _MAYBE_TEXT,
    "confirm": {"type": "boolean"}, "destructive": {"type": "boolean"}}}

_FAILURE = {"required": ["failure"], "properties": {"failure": _TEXT}}

REPLIES = {
    "list": {"required": ["tools"], "properties": {"tools": {"type": "array", "items": _TOOL}}},
    "check": {"properties": {"problem": _TEXT}},
    # a paused tool's interrupt (any JSON: the app's metadata), else the tool's outcome map
    "call": {"if": {"required": ["interrupt"]}, "else": {"required": ["outcome"], "properties": {"outcome": _OBJECT}}},
}

_VALIDATORS = {op: jsonschema.Draft202012Validator(schema) for op, schema in {**REPLIES, "hello": HELLO}.items()}
_FAILURE_VALIDATOR = jsonschema.Draft202012Validator(_FAILURE)
_JSON_TYPES = {dict: "an object", list: "an array", str: "text", bool: "a boolean", int: "a number",
               float: "a number", type(None): "null"}


def reply_problem(op: str, reply: dict[str, Any]) -> str | None:
    """Why ``reply`` cannot be the answer to ``op`` (``hello`` for the first line), in words
    that quote nothing of it but its field names (``with no 'name' in ['tools'][0]``); None
    when it can."""
    validator = _FAILURE_VALIDATOR if "failure" in reply else _VALIDATORS[op]
    error = jsonschema.exceptions.best_match(validator.iter_errors(reply))
    return None if error is None else _said(error)


def _said(error: jsonschema.ValidationError) -> str:
    where = "".join(f"[{step!r}]" for step in error.absolute_path)
    if error.validator == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return f"with {where} as {_JSON_TYPES.get(type(error.instance), 'no JSON')}, not {' or '.join(wanted)}"
    if error.validator == "required":
        missing = next(name for name in error.validator_value if name not in error.instance)
        return f"with no {missing!r}" + (f" in {where}" if where else "")
    return f"with {where or 'the reply'} breaking its {error.validator!r} rule"
