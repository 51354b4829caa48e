"""Which droidsim devices run on this machine, and where: found from any folder, as adb finds
its server.

Each running device holds an exclusive lock on ``DATA/device.pid`` and writes an entry in a
per-user registry (``$DROIDSIM_HOME/running``, default ``~/.droidsim/running``); an entry
whose lock is free is stale, and is removed as it is read. The device's side (taking the
lock, registering) is sim/running_devices.py; this is the reading side, which a command and
an agent in its own process (droid.agent.connect_as) share.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path

LOCK_NAME = "device.pid"


def registry_dir() -> Path:
    return Path(os.environ.get("DROIDSIM_HOME") or Path.home() / ".droidsim") / "running"


@dataclass(frozen=True)
class RunningDevice:
    data_dir: Path
    address: str
    pid: int


def lock_holder(data_dir: Path) -> int | None:
    """The pid of the device running on ``data_dir``; None when none runs there."""
    path = Path(data_dir) / LOCK_NAME
    try:
        with open(path) as probe:
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                text = probe.read().strip()
                return int(text) if text.isdigit() else -1
            fcntl.flock(probe, fcntl.LOCK_UN)
            return None
    except FileNotFoundError:
        return None


def running_devices() -> list[RunningDevice]:
    """Every device of this user that is running now; stale entries are removed."""
    found = []
    for entry in sorted(registry_dir().glob("*.json")):
        try:
            facts = json.loads(entry.read_text())
            data_dir = Path(facts["data_dir"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        pid = lock_holder(data_dir)
        if pid is None:
            entry.unlink(missing_ok=True)
            continue
        found.append(RunningDevice(data_dir, str(facts.get("address", "")), pid))
    return found
