"""Ending a child process without ever blocking on one that will not end."""

from __future__ import annotations

import subprocess


def reap(process: subprocess.Popen, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for ``process`` to exit, then kill it: a child told to stop
    (stdin or its socket closed, SIGTERM) may be hung, and its parent must still get past it."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
