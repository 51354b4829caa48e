"""``droidsim mcp --transport http`` in a process of its own, for scripts, tests and the bench.

The bridge prints its URL on stderr once it listens; this waits for that line, so a client
may connect as soon as the constructor returns.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path


def bridge_command(device: Path | str, agent: str, *options: str) -> list[str]:
    return [sys.executable, "-m", "sim.cli", "--device", str(device), "mcp", "--as", agent, *options]


class HttpBridgeProcess:
    def __init__(self, device: Path | str, agent: str, *options: str, cwd: Path | None = None) -> None:
        self.process = subprocess.Popen(
            bridge_command(device, agent, "--transport", "http", "--port", "0", *options),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        if " on http://" not in line:
            self.process.kill()
            raise RuntimeError(f"droidsim mcp did not start: {line}{self.process.stderr.read()}")
        self.url = line.rsplit(" on ", 1)[1].strip()
        self.errors: list[str] = []  # what it logs later, kept so its pipe never fills up
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

    def __enter__(self) -> "HttpBridgeProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
