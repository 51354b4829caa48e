"""Tool names: inside MCP's rules, unique, and stable for the life of a server.

A function is named by its short id (``fetch_order_details``) when no other listed function
has taken that name, else by its package and short id (``com.example.notes.fetch_order_details``).
A name, once given, stays with its function while the server runs: installing another app
never renames a tool a client already knows. The full id is in the tool's ``_meta``.
"""

from __future__ import annotations

import hashlib
import re

MAX_NAME_LENGTH = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def safe_name(text: str) -> str:
    """``text`` inside MCP's rules (1-64 of [A-Za-z0-9_.-]); a long one keeps its start and
    ends in a hash of the whole, so two long names that share a start still differ."""
    name = _UNSAFE.sub("_", text) or "tool"
    if len(name) <= MAX_NAME_LENGTH:
        return name
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{name[:MAX_NAME_LENGTH - 9]}_{digest}"


class ToolNames:
    def __init__(self) -> None:
        self._names: dict[tuple[str, str], str] = {}

    def name_for(self, package_name: str, function_id: str, short_id: str) -> str:
        key = (package_name, function_id)
        if key not in self._names:
            taken = set(self._names.values())
            for candidate in (short_id, f"{package_name}.{short_id}", f"{package_name}.{function_id}"):
                name = safe_name(candidate)
                if name not in taken:
                    break
            self._names[key] = name
        return self._names[key]
