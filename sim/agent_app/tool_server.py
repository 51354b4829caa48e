"""The app's agent serving its tools to the MCP bridge (in the app's own process).

One JSON object a line over a socket the bridge handed over. The process says first what
agent the app has (``{"agent": {...}}``; ``{"agent": null}`` for none, with ``error`` when the
one it declares could not be built); then each request
``{"id": N, "op": ...}`` is answered by one reply with the same id, concurrently, so the calls
of one client overlap:

- ``list`` (``refresh``: discover the enabled AppFunctions again): the tools the agent's model
  would be offered, each with ``confirm`` (a confirmation wrapper guards it: the bridge asks
  the client's user before it runs) and ``destructive`` (the confirmation policy's verdict, the
  MCP annotation);
- ``check``: why ``args`` cannot be the tool's arguments (``{"problem": text}``), else nothing;
- ``call``: the tool run as the agent loop runs it (``droid.agent.execution.invoke``: arguments
  checked, failures as error maps), with ``approved`` as the confirmation's answer; an
  interrupt that is no confirmation comes back as ``{"interrupt": metadata}``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from typing import Any

from droid.agent.agent import Agent
from droid.agent.confirmation import default_is_destructive, is_confirmed
from droid.agent.execution import Paused, invoke
from droid.agent.messages import ToolRequest
from droid.agent.models.scripted import ScriptedModel
from droid.agent.runner import AgentRunner
from droid.agent.tools import AgentTool

log = logging.getLogger("droidsim.agent_app")
SESSION = "mcp"  # the session id a tool sees through current_tool_context()
MAX_LINE = 64 * 1024 * 1024


def describe_agent(agent: Agent | None) -> dict[str, Any] | None:
    if agent is None:
        return None
    return {"name": agent.name, "instructions": agent.instructions, "max_turns": agent.max_turns}


def describe_tool(tool: AgentTool) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "parameters": tool.parameters,
            "function_id": tool.function_id, "package": tool.package_name,
            "confirm": is_confirmed(tool), "destructive": default_is_destructive(tool)}


async def refuse(connection: socket.socket, error: str) -> None:
    """The app's agent could not be built: the bridge is told why instead of an agent."""
    _, writer = await asyncio.open_unix_connection(sock=connection, limit=MAX_LINE)
    writer.write(json.dumps({"agent": None, "error": error}, ensure_ascii=False).encode() + b"\n")
    await writer.drain()
    writer.close()


async def serve_tools(connection: socket.socket, context: Any, agent: Agent | None) -> None:
    """Serve until the bridge closes its end."""
    reader, writer = await asyncio.open_unix_connection(sock=connection, limit=MAX_LINE)

    def send(message: dict[str, Any]) -> None:
        writer.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")

    send({"agent": describe_agent(agent)})
    await writer.drain()
    if agent is None:
        writer.close()
        return
    server = _ToolServer(AgentRunner(agent, ScriptedModel(), context=context))
    tasks: set[asyncio.Task] = set()
    while line := await reader.readline():
        request = json.loads(line)

        async def answer(request: dict[str, Any] = request) -> None:
            try:
                reply = await server.handle(request)
            except Exception as error:  # noqa: BLE001 - the bridge gets the failure, the process goes on
                log.exception("%s failed", request.get("op"))
                reply = {"failure": f"{type(error).__name__}: {error}"}
            send({"id": request.get("id"), **reply})
            await writer.drain()

        task = asyncio.create_task(answer())
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    for task in list(tasks):
        task.cancel()
    writer.close()


class _ToolServer:
    def __init__(self, runner: AgentRunner) -> None:
        self._runner = runner

    async def _tools(self, refresh: bool = False) -> dict[str, AgentTool]:
        tools = await asyncio.to_thread(self._runner.resolve_tools, refresh)
        return {tool.name: tool for tool in tools}

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "list":
            tools = await self._tools(bool(request.get("refresh")))
            return {"tools": [describe_tool(tool) for tool in tools.values()]}
        tools = await self._tools()
        name, args = request.get("name"), request.get("args") or {}
        if op == "check":
            tool = tools.get(name)
            error = tool.argument_error(args) if tool is not None else None
            return {"problem": error.error_message} if error is not None else {}
        if op == "call":
            approved = request.get("approved")
            resumed = {"approved": bool(approved)} if approved is not None else None
            outcome = await invoke(tools, ToolRequest(name, dict(args), f"mcp_{request.get('id')}"), SESSION, resumed)
            if isinstance(outcome, Paused):
                return {"interrupt": outcome.metadata}
            return {"outcome": outcome}
        return {"failure": f"unknown op {op!r}"}
