"""The MCP baseline: a bare SDK server answering one trivial tool over streamable HTTP.

``python -m bench.mcp_echo_server`` serves it on a free loopback port, with the same SDK,
transport and HTTP server as ``droidsim mcp``, and prints its URL as the ready line.
"""

from __future__ import annotations

import asyncio
import socket
import threading

import mcp_types as types
import uvicorn
from mcp.server.lowlevel.server import Server

from bench.child import announce_ready, wait_for_parent

TOOL = types.Tool(name="echo", description="Returns its text.",
                  input_schema={"type": "object", "properties": {"text": {"type": "string"}}})


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[TOOL])


async def call_tool(ctx, params) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=(params.arguments or {}).get("text", ""))])


def main() -> None:
    schemas = {TOOL.name: TOOL.input_schema}
    server = Server("bench echo", on_list_tools=list_tools, on_call_tool=call_tool, get_tool_input_schema=schemas.get)
    app = server.streamable_http_app(host="127.0.0.1")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    http = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    threading.Thread(target=lambda: asyncio.run(http.serve(sockets=[listener])), daemon=True).start()
    announce_ready(url=f"http://127.0.0.1:{listener.getsockname()[1]}/mcp")
    wait_for_parent()
    http.should_exit = True


if __name__ == "__main__":
    main()
