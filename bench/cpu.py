"""CPU time of a process and its descendants, from /proc (Linux; None elsewhere).

Throughput on a small machine is CPU-bound, so the bench reports how much CPU
each side spends per call: it tells a slow transport from a busy one.
"""

from __future__ import annotations

import os
from pathlib import Path

from sim import processes

PROC = Path("/proc")
_TICK_NS = 1e9 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.0


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces; the fields after its ')' are plain.
    return text[text.rindex(")") + 2:].split()


def parent_of(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return int(fields[1]) if fields else None


def process_cpu_ns(pid: int) -> int | None:
    """User plus system time of one process, or None if it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    # After the name: state(0) ppid(1) ... utime(11) stime(12).
    return int((int(fields[11]) + int(fields[12])) * _TICK_NS)


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    return [pid, *processes.descendants(pid)]


def tree_cpu_ns(pid: int) -> int | None:
    """CPU time of ``pid`` and its descendants now alive; None without /proc."""
    if not PROC.is_dir():
        return None
    return sum(cpu for p in descendants(pid) if (cpu := process_cpu_ns(p)) is not None)
