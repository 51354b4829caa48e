"""OsUser: which Linux uids one running device's apps get, as Android's users split uids.

On Android an app's Linux uid is ``userId * 100000 + appId``: the appId (10000 + n) is what
the package manager assigns, and each user of the device has its own range. Several devices
may run as root on one machine (a test suite's, side by side); each claims a free user here
(a lock held for its lifetime), so no two running devices ever share an OS uid, and killing
every process of one of a device's uids can never reach another device's apps. The first
device on a machine claims user 0, whose OS uids are the assigned uids themselves. A restarted
device asks for the user it had, so its apps keep their OS uids, and other devices take the
user claimed least recently; where another device holds it all the same, its apps' folders are
handed to their new uids at their next start (specialize.py).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import weakref
from pathlib import Path

PER_USER_RANGE = 100_000  # UserHandle.PER_USER_RANGE
# Process.FIRST_ISOLATED_UID / LAST_ISOLATED_UID, the verifier's uids.
FIRST_ISOLATED_UID = 99_000
LAST_ISOLATED_UID = 99_999
MAX_USERS = 100
LOCK_DIR = Path("/run/lock" if os.path.isdir("/run/lock") else tempfile.gettempdir()) / "droidsim-users"


class OsUser:
    def __init__(self, user_id: int, lock_fd: int | None) -> None:
        self.user_id = user_id
        # A device dropped without shutdown() frees its user when it is collected.
        self._release = weakref.finalize(self, os.close, lock_fd) if lock_fd is not None else None

    def os_uid(self, app_uid: int) -> int:
        return self.user_id * PER_USER_RANGE + app_uid

    def app_uid(self, os_uid: int) -> int | None:
        """The assigned uid an OS uid of this user stands for; None for any other uid."""
        user, app_uid = divmod(os_uid, PER_USER_RANGE)
        return app_uid if user == self.user_id else None

    def isolated_uids(self) -> range:
        return range(self.os_uid(FIRST_ISOLATED_UID), self.os_uid(LAST_ISOLATED_UID) + 1)

    def release(self) -> None:
        if self._release is not None:
            self._release()


def claim_os_user(preferred: int | None = None) -> OsUser:
    """``preferred`` if no other running device holds it, else the free user claimed least
    recently, so that a user a device just had (and will ask for when it restarts) is the last
    one another device takes. The lock goes when this process does."""
    LOCK_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
    status = LOCK_DIR.stat()
    if status.st_uid != os.geteuid() or status.st_mode & 0o077:
        raise PermissionError(f"{LOCK_DIR} must belong to uid {os.geteuid()} with mode 0700: someone else made it")
    for user_id in _in_order_of_preference(preferred):
        fd = os.open(_lock_file(user_id), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        os.utime(fd)  # claimed now: the last choice of the next device with no preference
        return OsUser(user_id, fd)
    raise OSError(f"{MAX_USERS} devices already run as root on this machine: no user is free for another")


def _lock_file(user_id: int) -> Path:
    return LOCK_DIR / f"user-{user_id}.lock"


def _last_claimed(user_id: int) -> float:
    try:
        return _lock_file(user_id).stat().st_mtime
    except FileNotFoundError:
        return 0.0  # never claimed


def _in_order_of_preference(preferred: int | None) -> list[int]:
    others = sorted((user for user in range(MAX_USERS) if user != preferred), key=lambda user: (_last_claimed(user), user))
    return [preferred, *others] if preferred in range(MAX_USERS) else others


def unclaimed_user() -> OsUser:
    """For a device that does not isolate: its OS uids are the assigned uids, unused."""
    return OsUser(0, None)
