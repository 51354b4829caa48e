"""Helper processes of the bench: started, awaited until they say they are ready, stopped.

A child prints one JSON line on stdout when it is ready (with its own timings)
and runs until its stdin closes, so a bench that dies never leaves it behind.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sim.processes import reap

READY_TIMEOUT = 60.0
# Children run ``python -m bench...`` from the checkout, wherever the bench was started from.
REPO = Path(__file__).resolve().parents[1]


class ChildProcess:
    def __init__(self, module: str, *args: str, env: dict[str, str] | None = None) -> None:
        self._log = tempfile.TemporaryFile()
        started = time.perf_counter_ns()
        self.process = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env={**os.environ, **(env or {})},
            cwd=REPO,
        )
        self.module = module
        self.ready: dict[str, Any] = self._read_ready_line()
        # From spawn to the ready line, as seen from outside: interpreter start-up included.
        self.spawn_to_ready_ns = time.perf_counter_ns() - started

    def _read_ready_line(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(READY_TIMEOUT):
                self._fail(TimeoutError, f"was not ready within {READY_TIMEOUT:g}s")
        line = self.process.stdout.readline()
        if not line:
            self._fail(RuntimeError, "exited before it was ready")
        return json.loads(line)

    def _fail(self, error: type[Exception], what: str) -> None:
        log = self.log()
        self.stop()
        raise error(f"{self.module} {what}; its output:\n{log}")

    def log(self) -> str:
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    def stop(self, timeout: float = 10.0) -> None:
        """Close stdin (the child's cue to exit) and reap it; kill it if it lingers."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        reap(self.process, timeout)
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._log.close()

    def __enter__(self) -> "ChildProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def announce_ready(**fields: Any) -> None:
    """Child side: the one ready line the parent waits for."""
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def wait_for_parent() -> None:
    """Child side: block until the parent closes our stdin (or dies)."""
    sys.stdin.buffer.read()


def socket_path(directory: Path, name: str) -> Path:
    """A Unix socket path short enough for sun_path (108 bytes)."""
    path = directory / name
    if len(str(path).encode()) > 100:
        raise ValueError(f"socket path too long for a Unix socket: {path}")
    return path
