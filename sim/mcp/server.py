"""The MCP server: what one agent app may call, as tools, over stdio or streamable HTTP.

The catalog is the stock one (the app's callable functions, through the agent runtime's
AppFunctionAgentTool, so calls carry the agent's credential and land in the access history
as that agent) or, for an app with its own agent, that agent's tools as its model is offered
them (sim/mcp/agent_tools.py). Either way the arguments are checked before anything runs, a
tool that asks first is confirmed with the client's user, and a failure comes back as an
``isError`` result holding the agent runtime's error map.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections import OrderedDict
from pathlib import Path
from typing import Any, TextIO

import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import DEFAULT_MAX_SESSIONS
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from droid.agent.confirmation import cancelled_by_user
from droid.appfunctions.exceptions import AppFunctionInvalidArgumentException
from sim.mcp.catalog import Catalog
from sim.mcp.confirmation import Confirmation
from sim.mcp.conversion import error_result, refusal
from sim.mcp.http_auth import TOKEN_ANNOUNCEMENT, BearerTokenGate, DeviceAppUids, PeerVerdicts, rebinding_guard
from sim.mcp.watcher import CatalogWatcher

log = logging.getLogger("droidsim.mcp")

STDIO_CONNECTION = "stdio"
HTTP_PATH = "/mcp"


class _AnnouncingServer(Server):
    """A lowlevel Server that advertises tools.listChanged on every transport (the HTTP
    session manager builds its initialize options without arguments)."""

    def create_initialization_options(self, notification_options=None, *args: Any, **kwargs: Any):
        options = notification_options or NotificationOptions(tools_changed=True)
        return super().create_initialization_options(options, *args, **kwargs)


class Bridge:
    def __init__(self, catalog: Catalog, confirmation: Confirmation, version: str = "") -> None:
        self.catalog = catalog
        self.confirmation = confirmation
        self._bus = InMemorySubscriptionBus()
        # Handshake-era connections get list_changed on their own channel: the latest
        # session proxy of each, by HTTP session id (one stdio connection has none). A send to
        # an ended session is dropped silently, so the oldest go once there are more than the
        # SDK's session manager would keep alive.
        self._connections: OrderedDict[str, Any] = OrderedDict()
        self.server = _AnnouncingServer(
            f"droidsim {catalog.agent_package}",
            version=version,
            instructions=catalog.describe(),
            get_tool_input_schema=catalog.cached_input_schema,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_subscriptions_listen=ListenHandler(self._bus),
        )
        self.watcher = CatalogWatcher(catalog, self.announce_tools_changed)

    async def _list_tools(self, ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        self._remember(ctx)
        shapes = await anyio.to_thread.run_sync(self.catalog.refresh)
        return types.ListToolsResult(tools=[shape.tool() for shape in shapes.values()])

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams):
        self._remember(ctx)
        shape = self.catalog.cached(params.name) or await anyio.to_thread.run_sync(self.catalog.find, params.name)
        if shape is None:
            why = await anyio.to_thread.run_sync(self.catalog.unknown, params.name)
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}" + (f" ({why})" if why else ""))
        args = params.arguments or {}
        problem = await shape.invalid(args)
        if problem is not None:
            return error_result(AppFunctionInvalidArgumentException(problem))
        if shape.destructive:
            decision = await self.confirmation.decide(ctx, shape, args, params)
            if isinstance(decision, types.InputRequiredResult):
                return decision
            if not decision:
                return refusal(cancelled_by_user(self.confirmation.refusal_message(ctx)))
        return await shape.run(args)

    def _remember(self, ctx: Any) -> None:
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return  # these listen on subscriptions/listen instead
        headers = getattr(ctx.request, "headers", None)
        key = headers.get("mcp-session-id", STDIO_CONNECTION) if headers is not None else STDIO_CONNECTION
        self._connections[key] = ctx.session
        self._connections.move_to_end(key)
        while len(self._connections) > DEFAULT_MAX_SESSIONS:
            self._connections.popitem(last=False)

    async def announce_tools_changed(self) -> None:
        self.server.instructions = await anyio.to_thread.run_sync(self.catalog.describe)
        await self._bus.publish(ToolsListChanged())
        for session in list(self._connections.values()):
            await session.send_tool_list_changed()

    async def serve_stdio(self) -> None:
        observation = self.watcher.start(asyncio.get_running_loop())
        try:
            async with stdio_server() as (read_stream, write_stream):
                await self.server.run(read_stream, write_stream, self.server.create_initialization_options())
        finally:
            observation.cancel()

    async def serve_http(self, host: str, port: int, announce_to: TextIO, token: str, token_file: Path | None,
                         data_dir: Path) -> None:
        """Streamable HTTP at http://HOST:PORT/mcp (port 0 picks a free one), for holders of
        ``token`` only, never for an app of the device at ``data_dir``, and only by the name of
        HOST (sim/mcp/http_auth.py). The URL, then where the token is (or, with no token file,
        the token itself, this once), go to ``announce_to`` once the socket listens."""
        import uvicorn

        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        verdicts = PeerVerdicts(DeviceAppUids(data_dir))
        served = self.server.streamable_http_app(streamable_http_path=HTTP_PATH, host=host,
                                                 transport_security=rebinding_guard(host))
        app = BearerTokenGate(served, token, verdicts)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)  # before the URL is out: a client that connects at once waits, not fails
        bound = listener.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host
        observation = self.watcher.start(asyncio.get_running_loop())
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on",
                                              http=verdicts.protocol(AutoHTTPProtocol)))
        print(f"MCP server for {self.catalog.agent_package} on http://{shown}:{bound}{HTTP_PATH}",
              file=announce_to, flush=True)
        where = f"in {token_file.absolute()}" if token_file is not None else token
        print(f"{TOKEN_ANNOUNCEMENT}{where}", file=announce_to, flush=True)
        try:
            await server.serve(sockets=[listener])
        finally:
            observation.cancel()
            listener.close()
