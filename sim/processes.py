"""Ending a child process without ever blocking on one that will not end, and finding what
runs below a process (from /proc, Linux). Standard library only: the agent's keeper
(sim/agent_app/keeper.py) imports it before it forks."""

from __future__ import annotations

import os
import subprocess


def reap(process: subprocess.Popen, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for ``process`` to exit, then kill it: a child told to stop
    (stdin or its socket closed, SIGTERM) may be hung, and its parent must still get past it."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def descendants(root: int) -> list[int]:
    """Every process below ``root`` now (its children, theirs, and so on)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                parent = int(stat.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # it ended meanwhile
            continue
        children.setdefault(parent, []).append(int(name))
    found, queue = [], [root]
    while queue:
        below = children.get(queue.pop(), [])
        found += below
        queue += below
    return found
