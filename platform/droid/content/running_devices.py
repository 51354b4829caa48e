"""Which droidsim devices run on this machine, and where: found from any folder, as adb finds
its server.

Each running device holds an exclusive lock on ``DATA/device.pid`` and writes an entry in a
per-user registry (``$DROIDSIM_HOME/running``, default ``~/.droidsim/running``); an entry
whose lock is free is stale, and is removed as it is read. The device's side (taking the
lock, registering) is sim/running_devices.py; this is the reading side, which a command and
an agent in its own process (droid.agent.connect_as) share.

A device found without being named is used only if it is this user's, as git uses a
repository only where the user owns it (``safe.directory``): another local account may have
put a data directory (or a registry) where it would be found, to have its apps' code run with
this user's settings and terminal (``foreign_owner``).
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from droid.content.safe_read import read_file

LOCK_NAME = "device.pid"
MAX_ENTRY_BYTES = 64 * 1024


def registry_dir() -> Path:
    return Path(os.environ.get("DROIDSIM_HOME") or Path.home() / ".droidsim") / "running"


@dataclass(frozen=True)
class RunningDevice:
    data_dir: Path
    address: str
    pid: int


def foreign_owner(path: Path) -> int | None:
    """The uid owning ``path`` (itself, never a link's target) where that is not this
    process's; None where it is this user's or does not exist."""
    try:
        owner = os.lstat(path).st_uid
    except OSError:
        return None
    return None if owner == os.geteuid() else owner


def lock_holder(data_dir: Path) -> int | None:
    """The pid of the device running on ``data_dir``; None when none runs there (or what is
    there is no lock file: a FIFO, a link)."""
    try:
        fd = os.open(Path(data_dir) / LOCK_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd) as probe:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            text = probe.read(32).strip()
            return int(text) if text.isdigit() else -1
        fcntl.flock(probe, fcntl.LOCK_UN)
        return None


def running_devices() -> list[RunningDevice]:
    """Every device of this user that is running now; stale entries are removed. A registry,
    entry or data directory of another account's is no device of this user's."""
    folder = registry_dir()
    if foreign_owner(folder) is not None or foreign_owner(folder.parent) is not None:
        return []
    found = []
    for entry in sorted(folder.glob("*.json")):
        try:
            facts = json.loads(read_file(entry, MAX_ENTRY_BYTES, reader="droidsim"))
            data_dir = Path(facts["data_dir"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if foreign_owner(data_dir) is not None:
            continue
        pid = lock_holder(data_dir)
        if pid is None:
            entry.unlink(missing_ok=True)
            continue
        found.append(RunningDevice(data_dir, str(facts.get("address", "")), pid))
    return found
