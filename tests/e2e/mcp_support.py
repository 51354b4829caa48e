"""Running `droidsim mcp` in its own process for the SDK's client (tests/e2e/test_mcp*.py)."""

from __future__ import annotations

import os
from pathlib import Path

from mcp import StdioServerParameters

from sim.mcp.process import HttpBridgeProcess, bridge_command
from tests.helpers import REPO


def stdio_server(data: Path, agent: str, *options: str) -> StdioServerParameters:
    """What an MCP client that starts its server (Claude Desktop, Claude Code) runs."""
    command, *args = bridge_command(data, agent, *options)
    return StdioServerParameters(command=command, args=args, cwd=str(REPO), env=dict(os.environ))


def http_bridge(data: Path, agent: str, *options: str) -> HttpBridgeProcess:
    return HttpBridgeProcess(data, agent, *options, cwd=REPO)
