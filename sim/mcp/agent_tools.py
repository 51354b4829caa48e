"""An app's own agent through the MCP bridge: its tools as its model is offered them.

``droidsim mcp --as PKG`` for an app that declares an agent (sim/agent_app) lists what that
agent may call: its local tools and the AppFunctions it discovers or enables (those it may
call only, as discovery gives them), under the agent's own names, schemas and descriptions.
The tools run in the app's own process, as the agent loop runs them: arguments checked first,
failures as error maps. The agent's confirmation policy holds: a tool its
HitlConfirmationTool guards is confirmed with the client's user (``--confirm``) before it
runs, and the app's own ``on_confirm``, where it gave one, still has its say. The server's
instructions are the agent's. Its model and ``max_turns`` are not used: over MCP, the
client's model runs the loop.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError

from droid.agent.confirmation import CANCELLED_BY_USER, name_words
from droid.agent.errors import is_error_map, make_error_map
from droid.appfunctions.exceptions import AppFunctionException
from droid.content.context import Context
from sim.agent_app.tool_client import AgentProcessGone, ToolClient
from sim.mcp.catalog import Catalog
from sim.mcp.conversion import FUNCTION_ID_META, JSON_SCHEMA_DIALECT, PACKAGE_META, refusal
from sim.mcp.naming import safe_name


class AgentToolShape:
    """One tool of the app's agent, served by its process."""

    def __init__(self, client: ToolClient, described: dict[str, Any]) -> None:
        self._client = client
        self.agent_name = described["name"]  # the name the agent's code knows it by
        self.name = safe_name(self.agent_name)
        self.description = described.get("description") or ""
        self.function_id = described.get("function_id")
        self.package = described.get("package")
        self.destructive = bool(described.get("confirm"))  # ask the client's user first
        self.destructive_hint = self.destructive or bool(described.get("destructive"))
        self.input_schema = {"$schema": JSON_SCHEMA_DIALECT, **(described.get("parameters") or {})}

    def tool(self) -> types.Tool:
        meta = {FUNCTION_ID_META: self.function_id, PACKAGE_META: self.package} if self.function_id else None
        return types.Tool(name=self.name, title=" ".join(name_words(self.agent_name)).capitalize(),
                          description=self.description, input_schema=self.input_schema,
                          annotations=types.ToolAnnotations(destructive_hint=self.destructive_hint), _meta=meta)

    async def invalid(self, args: Any) -> str | None:
        try:
            reply = await self._ask("check", args)
        except AgentProcessGone:
            return None  # the call that follows says so
        return reply.get("problem")

    async def run(self, args: dict[str, Any]) -> types.CallToolResult:
        try:
            reply = await self._ask("call", args, approved=True if self.destructive else None)
        except AgentProcessGone as gone:
            return refusal(make_error_map(AppFunctionException.ERROR_SYSTEM_ERROR, "AgentProcessGone", str(gone)))
        if "interrupt" in reply:
            return refusal(make_error_map(
                AppFunctionException.ERROR_NOT_SUPPORTED, "Interrupted",
                f"{self.agent_name} paused to ask the user something ({json.dumps(reply['interrupt'])}), and an MCP "
                "client cannot answer a tool's interrupt: run it with droidsim agent --as, which asks on the terminal"))
        outcome = reply["outcome"]
        if is_error_map(outcome) or outcome.get("status") == CANCELLED_BY_USER:
            return refusal(outcome)
        text = json.dumps(outcome, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=outcome)

    async def _ask(self, op: str, args: Any, **fields: Any) -> dict[str, Any]:
        reply = await asyncio.wrap_future(self._client.submit(op, name=self.agent_name, args=args, **fields))
        if "failure" in reply:
            raise AgentProcessGone(reply["failure"])
        return reply


class AgentCatalog(Catalog):
    """The catalog of an app with its own agent: what its process lists. The device's observe
    callbacks still tell when to list again (an install, an enabled state)."""

    def __init__(self, context: Context, client: ToolClient) -> None:
        super().__init__(context)
        self._client = client
        self._agent = client.agent or {}

    def _listing(self) -> dict[str, AgentToolShape]:  # type: ignore[override]
        try:
            tools = self._client.request("list", refresh=True)["tools"]
        except AgentProcessGone as gone:  # the client's error says what the app's process did
            raise MCPError(types.INTERNAL_ERROR, str(gone)) from None
        shapes = [AgentToolShape(self._client, described) for described in tools]
        return {shape.name: shape for shape in shapes}

    def describe(self) -> str:
        """The server's instructions: the agent's own."""
        lines = [f"The agent {self._agent.get('name')} of the app {self.agent_package} on a droidsim device."]
        if self._agent.get("instructions"):
            lines.append(self._agent["instructions"])
        return "\n".join(lines)
