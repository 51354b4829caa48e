"""Running `droidsim mcp` in its own process for the SDK's client (tests/e2e/test_mcp*.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from mcp import StdioServerParameters

from tests.helpers import REPO


def bridge_command(data: Path, agent: str, *options: str) -> list[str]:
    return [sys.executable, "-m", "sim.cli", "--device", str(data), "mcp", "--as", agent, *options]


def stdio_server(data: Path, agent: str, *options: str) -> StdioServerParameters:
    """What an MCP client that starts its server (Claude Desktop, Claude Code) runs."""
    command, *args = bridge_command(data, agent, *options)
    return StdioServerParameters(command=command, args=args, cwd=str(REPO), env=dict(os.environ))


class HttpBridge:
    """`droidsim mcp --transport http --port 0`, its URL read from the line it prints."""

    def __init__(self, data: Path, agent: str, *options: str) -> None:
        self.process = subprocess.Popen(
            bridge_command(data, agent, "--transport", "http", "--port", "0", *options),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        if " on http://" not in line:
            self.process.kill()
            raise RuntimeError(f"droidsim mcp did not start: {line}{self.process.stderr.read()}")
        self.url = line.rsplit(" on ", 1)[1].strip()
        self.errors: list[str] = []
        self._drain = threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True)
        self._drain.start()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._drain.join(10)
