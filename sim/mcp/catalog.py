"""Catalog: the functions one agent may call, as MCP tools.

Discovery is the agent runtime's (AppFunctionAgentTools.discover given the agent's Context:
enabled functions the agent may execute, not merely see, droid.agent.access), so the bridge
lists exactly the tools the agent's own model would be offered: its own functions, every
package's when it holds EXECUTE_APP_FUNCTIONS_SYSTEM, else only the targets it has been
granted. What keeps it from the rest is droidsim mcp's diagnosis (droid.agent.diagnosis), said
before it serves. The device still checks every call.
"""

from __future__ import annotations

import difflib
import threading

from droid.agent.appfunction_tools import AppFunctionAgentTools
from droid.agent.confirmation import default_is_destructive
from droid.appfunctions.observe import AppFunctionObservation, AppFunctionObserver, Executor
from droid.content.context import Context
from sim.mcp.conversion import ToolShape
from sim.mcp.naming import ToolNames
from sim.pm.unindexed import not_indexed_words, unindexed_functions


class Catalog:
    def __init__(self, context: Context) -> None:
        self._context = context
        self._manager = context.app_function_manager
        self._names = ToolNames()
        self._lock = threading.Lock()
        self._shapes: dict[str, ToolShape] | None = None

    @property
    def agent_package(self) -> str:
        return self._context.package_name

    def refresh(self) -> dict[str, ToolShape]:
        """The tools as the device has them now (a search, and the agent's access per target)."""
        shapes = self._listing()
        with self._lock:
            self._shapes = shapes
        return shapes

    def _listing(self) -> dict[str, ToolShape]:
        shapes = {}
        for tool in AppFunctionAgentTools.discover(self._context):
            name = self._names.name_for(tool.package_name, tool.function_id, tool.short_id)
            shapes[name] = ToolShape(tool, name, default_is_destructive(tool), tool.components)
        return shapes

    def cached(self, name: str) -> ToolShape | None:
        """A tool by name from the last listing, without asking the device."""
        with self._lock:
            return None if self._shapes is None else self._shapes.get(name)

    def cached_input_schema(self, name: str) -> dict | None:
        """For the SDK's 2026-07-28 header check, which would otherwise list the tools anew on
        every call; None (nothing to check) for a tool not listed yet."""
        shape = self.cached(name)
        return None if shape is None else shape.input_schema

    def find(self, name: str) -> ToolShape | None:
        """A tool by name, from the last listing (refreshed when the name is new to it)."""
        with self._lock:
            shapes = self._shapes
        if shapes is None or name not in shapes:
            shapes = self.refresh()
        return shapes.get(name)

    def unknown(self, name: str) -> str | None:
        """What to say of a tool name the bridge does not list: a function declared but not indexed
        on this device's SDK, and why; else the listed names closest to it."""
        declared = not_indexed_words(unindexed_functions(self._context), name)
        if declared is not None:
            return declared
        close = difflib.get_close_matches(name, list(self._shapes or {}), n=3)
        return f"did you mean {' or '.join(close)}?" if close else None

    def observe(self, executor: Executor, observer: AppFunctionObserver) -> AppFunctionObservation:
        return self._manager.observe_app_functions(executor, observer)

    def invalidate(self) -> None:
        with self._lock:
            self._shapes = None

    def describe(self) -> str:
        """The server's instructions: the description of each app whose functions are listed."""
        lines = [f"App functions on a droidsim device, called as the agent app {self._context.package_name}."]
        described = {}
        for shape in self.refresh().values():
            package = shape.agent_tool.metadata.package_metadata
            described.setdefault(package.package_name, package.app_metadata.description.strip())
        lines += [f"{name}: {text}" for name, text in described.items() if text]
        return "\n".join(lines)
