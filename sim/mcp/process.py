"""``droidsim mcp --transport http`` in a process of its own, for scripts, tests and the bench.

The bridge prints its URL on stderr once it listens (after any warning about what the agent may
not call), then its bearer token (or the file that holds it); this waits for both, so a client may connect as soon as the constructor returns.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from sim.mcp.http_auth import TOKEN_ANNOUNCEMENT
from sim.processes import reap


def bridge_command(device: Path | str, agent: str, *options: str) -> list[str]:
    return [sys.executable, "-m", "sim.cli", "--device", str(device), "mcp", "--as", agent, *options]


class HttpBridgeProcess:
    def __init__(self, device: Path | str, agent: str, *options: str, cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(
            bridge_command(device, agent, "--transport", "http", "--port", "0", *options),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
        )
        assert self.process.stderr is not None
        self.errors: list[str] = []  # what it logs, kept so its pipe never fills up
        line = self.process.stderr.readline()
        while line.startswith("warning: "):  # what the agent may not call, said before it serves
            self.errors.append(line)
            line = self.process.stderr.readline()
        if " on http://" not in line:
            self.process.kill()
            raise RuntimeError(f"droidsim mcp did not start: {line}{self.process.stderr.read()}")
        self.url = line.rsplit(" on ", 1)[1].strip()
        announced = self.process.stderr.readline().strip()
        if not announced.startswith(TOKEN_ANNOUNCEMENT):
            self.process.kill()
            raise RuntimeError(f"droidsim mcp did not say its token: {announced}{self.process.stderr.read()}")
        where = announced.removeprefix(TOKEN_ANNOUNCEMENT)
        self.token = Path(where.removeprefix("in ")).read_text().strip() if where.startswith("in ") else where
        self._drain = threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True)
        self._drain.start()

    def client_transport(self, token: str | None = None):
        """A streamable HTTP transport for the SDK's ``Client`` that sends the bearer token."""
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        client = create_mcp_http_client(headers={"Authorization": f"Bearer {token or self.token}"})
        return streamable_http_client(self.url, http_client=client)

    def stop(self) -> None:
        self.process.terminate()
        reap(self.process, timeout=30)
        self._drain.join(10)

    def __enter__(self) -> "HttpBridgeProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
