"""The MCP bridge: ``droidsim mcp --as AGENT_PKG`` serves what that agent may call to any MCP
client (docs/mcp.md). Built on the official ``mcp`` SDK; tools come from the same metadata ->
JSON Schema conversion and the same device calls as the agent runtime (droid.agent)."""
