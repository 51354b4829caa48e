"""`execute-app-function --brief-yaml`: the result document as Android's shell prints it.

A port of AOSP's AppSearchDataYamlConverter (convertGenericDocumentToYaml with
keepEmptyValues, keepNullValues and keepGenericDocumentProperties all false) and its
MinimalYamlGenerator: empty strings, empty lists and nulls are left out, a one-item list is
written as its item (a GenericDocument cannot tell one value from a list of one), nested
documents are maps. Bytes, which the Java generator would print as an object reference, are
written as base64.
"""

from __future__ import annotations

import base64
from typing import Any

from droid.appfunctions.data import AppFunctionData

INDENT = "  "
_SPECIAL = set(":#[]{},*&!|>'\"%@`\n\r\t\\")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def brief_yaml(document: AppFunctionData) -> str:
    out: list[str] = []
    _dump(_to_map(document), out, 0, True)
    return "".join(out)


def _to_map(document: AppFunctionData) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for name, value in document.items():
        values = value if isinstance(value, list) else [value]
        kept = [_plain(v) for v in values if v is not None and not _is_empty(v)]
        if kept:
            result[name] = kept[0] if len(kept) == 1 else kept
    return result


def _plain(value: Any) -> Any:
    if isinstance(value, AppFunctionData):
        return _to_map(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


def _is_empty(value: Any) -> bool:
    return value == "" or value == b""


def _dump(data: Any, out: list[str], level: int, indent_first: bool) -> None:
    if isinstance(data, dict):
        indent = INDENT * level
        for i, (key, value) in enumerate(data.items()):
            out.append(indent if i == 0 and indent_first else "" if i == 0 else "\n" + indent)
            out.append(f"{_primitive(key)}:")
            if isinstance(value, (dict, list)):
                out.append("\n")
                _dump(value, out, level + 1, True)
            else:
                out.append(" " + _primitive(value))
    elif isinstance(data, list):
        indent = INDENT * level
        for i, item in enumerate(data):
            out.append(("\n" if i else "") + indent + "- ")
            if isinstance(item, (dict, list)):
                _dump(item, out, level + 1, False)
            else:
                out.append(_primitive(item))
    else:
        out.append(_primitive(data))


def _primitive(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quoted(value) if _needs_quotes(value) else value
    return str(value)


def _needs_quotes(text: str) -> bool:
    if text in ("", "true", "false", "null", "~"):
        return True
    if any(c in _SPECIAL for c in text):
        return True
    return text[0] in "-?" or text[0].isspace() or ": " in text


def _quoted(text: str) -> str:
    body = "".join(_ESCAPES.get(c, f"\\u{ord(c):04x}" if ord(c) < 32 else c) for c in text)
    return f'"{body}"'
