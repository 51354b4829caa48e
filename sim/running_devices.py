"""Which devices are running, and where: found from anywhere, as adb finds its server.

Each running device holds an exclusive lock on ``DATA/device.pid`` (the kernel drops it when
the process dies, however it dies), so a second device on the same data directory is refused
instead of silently taking over its socket. ``flock`` needs only a descriptor, not write
access, so the file is the device user's alone (0600, never opened through a link): an app
cannot open it to hold the lock after a crash and keep the next boot from starting. A lock
that a process of another uid holds (on a file left readable by an older version) is no
device's: the file is replaced, and the holder keeps a lock on nothing. It also writes an entry in a per-user registry
(``$DROIDSIM_HOME/running``, default ``~/.droidsim/running``), so a command run from any
folder finds it without ``--device``. An entry whose lock is free is stale and is ignored.
Reading the registry is droid.content.running_devices', shared with agents in their own
processes.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
from pathlib import Path

from droid.content.running_devices import LOCK_NAME, RunningDevice, lock_holder, registry_dir, running_devices

__all__ = ["DeviceLock", "DeviceRunningError", "LOCK_NAME", "RunningDevice", "lock_holder", "registry_dir",
           "running_devices"]

log = logging.getLogger("droidsim.device")


class DeviceRunningError(RuntimeError):
    """Another process already runs a device on this data directory."""


class DeviceLock:
    """The data directory's lock, held for as long as its device runs."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._file = _open_private(self.data_dir / LOCK_NAME)
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _flock_holder(os.fstat(self._file.fileno()))
            self._file.close()
            if holder is None or _uid_of(holder) in (None, os.geteuid()):
                pid = lock_holder(self.data_dir)
                raise DeviceRunningError(
                    f"a device is already running on {self.data_dir} (pid {pid}): stop it with "
                    f"`droidsim device stop --data {self.data_dir}`"
                ) from None
            log.warning("%s: pid %d (uid %s) holds the device's lock and is no device: replacing the lock file",
                        self.data_dir / LOCK_NAME, holder, _uid_of(holder))
            (self.data_dir / LOCK_NAME).unlink()
            self._file = _open_private(self.data_dir / LOCK_NAME)
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._file.seek(0)
        self._file.truncate()
        self._file.write(str(os.getpid()))
        self._file.flush()
        self._entry: Path | None = None

    def register(self, address: str) -> None:
        """Make the device findable from any folder (``droidsim`` without ``--device``)."""
        folder = registry_dir()
        folder.mkdir(parents=True, exist_ok=True)
        entry = folder / f"{hashlib.sha1(str(self.data_dir).encode()).hexdigest()[:16]}.json"
        temporary = entry.with_suffix(".tmp")
        temporary.write_text(json.dumps({"data_dir": str(self.data_dir), "address": address, "pid": os.getpid()}))
        os.replace(temporary, entry)
        self._entry = entry

    def release(self) -> None:
        if self._entry is not None:
            self._entry.unlink(missing_ok=True)
            self._entry = None
        if not self._file.closed:
            self._file.close()


def _open_private(path: Path):
    """The lock file, created 0600 and never through a link; an older, readable one made private."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
    os.fchmod(fd, 0o600)
    return os.fdopen(fd, "a+")


def _flock_holder(info: os.stat_result) -> int | None:
    """The pid holding a flock on the file ``info`` describes, as /proc/locks lists it."""
    wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks") as locks:
            for row in locks:
                fields = row.split()
                if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == wanted:
                    return int(fields[4])
    except OSError:
        return None
    return None


def _uid_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("Uid:"))
    except (OSError, StopIteration, ValueError):
        return None
