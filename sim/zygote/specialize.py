"""Giving a child process an app's identity, as Android's zygote specializes a forked child.

The child starts as the device's user, loads the platform, then gives up that user for good
(setgroups, setgid, setuid to the app's uid, no new privileges) before any app code runs.
Only root can do this, so only a device run as root isolates its apps (``os_isolation()``).

An interpreter or checkout the app's uid cannot reach (a pyenv under /root, a clone in a
private folder) stays importable through folder descriptors opened before the drop, as the
zygote keeps what it preloaded: ``/proc/self/fd/N/...`` names an open folder without walking
the folders above it. Only code is reachable that way; nothing of the device's data is opened.
"""

from __future__ import annotations

import ctypes
import logging
import os
import pwd
import stat
import subprocess
import sys
from pathlib import Path

from sim import safe_files
from sim.zygote.child_start import interpreter_folders
from sim.zygote.os_user import PER_USER_RANGE

log = logging.getLogger("droidsim.zygote")

# prctl(PR_SET_NO_NEW_PRIVS): exec of a setuid program (su, sudo) gains nothing.
_PR_SET_NO_NEW_PRIVS = 38


def os_isolation() -> bool:
    """Whether this process may start others under their own uids (it runs as root)."""
    return os.geteuid() == 0


def specialize(uid: int, own: tuple[Path, ...] = ()) -> dict[Path, Path]:
    """Become ``uid`` (and gid ``uid``, no supplementary groups) irrevocably. Code stays
    importable; so do the folders in ``own`` (the app's code and data), whose names the
    returned map gives (a folder's own name where the uid can reach it)."""
    descriptors = {}
    for root in [*import_roots(), *map(str, own)]:
        try:
            descriptors[root] = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            continue
    drop_to(uid)
    rerouted = _reroute_unreachable(descriptors)
    return {path: Path(rerouted.get(str(path), str(path))) for path in own}


def drop_to(uid: int) -> None:
    """Become ``uid`` irrevocably, and nothing more: for a process that imports nothing after
    (the verifier's spare decoder), which so skips the milliseconds ``specialize`` spends
    keeping every import root reachable."""
    libc = ctypes.CDLL(None, use_errno=True)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    try:
        os.setuid(0)
    except PermissionError:
        pass
    else:  # never run app code with a way back to root
        raise RuntimeError(f"the process could become root again after dropping to uid {uid}")


def import_roots() -> list[str]:
    """Every folder imports come from: sys.path, and the folders holding imported packages."""
    roots = [p for p in sys.path if p and os.path.isdir(p)]
    for module in list(sys.modules.values()):
        for entry in _package_path(module):
            root = os.path.dirname(entry)
            if root not in roots and os.path.isdir(root):
                roots.append(root)
    return roots


def code_folders() -> list[str]:
    """What a process confined without root may read as code: the interpreter's own folders
    and the folders of the packages it has imported, never a ``sys.path`` entry as such (a
    checkout's root, or a working folder, would grant everything below it: a data directory
    too)."""
    folders = interpreter_folders()
    for module in list(sys.modules.values()):
        for entry in _package_path(module):
            if os.path.isdir(entry) and not any(_within(entry, folder) for folder in folders):
                folders.append(entry)
    return folders


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _package_path(module: object) -> list[str]:
    path = getattr(module, "__path__", None)
    return list(path) if isinstance(path, list) else []


def _reroute_unreachable(descriptors: dict[str, int]) -> dict[str, str]:
    """Replace each folder this uid cannot reach with its /proc/self/fd name; close the rest."""
    rerouted = {}
    for root, fd in descriptors.items():
        if os.access(root, os.R_OK | os.X_OK):
            os.close(fd)
        else:
            rerouted[root] = f"/proc/self/fd/{fd}"
    if not rerouted:
        return rerouted
    sys.path[:] = [rerouted.get(p, p) for p in sys.path]
    for module in list(sys.modules.values()):
        path = _package_path(module)
        if path:
            module.__path__[:] = [_rerouted_entry(entry, rerouted) for entry in path]  # type: ignore[attr-defined]
    sys.path_importer_cache.clear()
    return rerouted


def _rerouted_entry(entry: str, rerouted: dict[str, str]) -> str:
    parent = os.path.dirname(entry)
    return os.path.join(rerouted[parent], os.path.basename(entry)) if parent in rerouted else entry


def is_named_account(uid: int) -> bool:
    """A uid this machine already gives to someone (in /etc/passwd)."""
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def uids_running() -> set[int]:
    """The uids that own a process now: one pass over /proc, so that a boot with many apps
    starts a killer only for the uids a crashed device really left something running under."""
    uids = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                uids.add(os.stat(f"/proc/{name}").st_uid)
            except FileNotFoundError:  # it ended meanwhile
                pass
    return uids


def kill_every_process_of(uid: int, *, single_threaded: bool = False) -> None:
    """SIGKILL everything running as ``uid``, however it detached (setsid, double fork): what a
    cgroup kill does on Android. Only for uids no account of this machine uses.

    A child becomes ``uid`` and kills all it may signal (``kill(-1)``). In a multi-threaded
    process (the device) that child is a fresh interpreter: forking without exec, as Popen's
    own ``user=`` does, is what gRPC's fork handlers do not survive. A ``single_threaded``
    caller (the verifier's zygote) forks, which is much faster."""
    if not os_isolation() or uid == 0 or is_named_account(uid):
        return
    if single_threaded:
        pid = os.fork()
        if pid == 0:
            try:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                os.kill(-1, 9)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        return
    code = f"import os; os.setgroups([]); os.setresgid({uid}, {uid}, {uid}); os.setresuid({uid}, {uid}, {uid}); os.kill(-1, 9)"
    subprocess.run([sys.executable, "-I", "-S", "-c", code], env={}, cwd="/", stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=10)


def reclaim_for_app(folder: Path, uid: int) -> None:
    """Hand to ``uid`` what the same app left in ``folder`` under another user's uid (its
    device restarted while another device held its user: os_user.py), so the app can still
    read and write its own files. Each entry is re-owned on what the device opened in the
    folder it opened: links re-owned, never followed; another app's file, a file with a second
    hard link (the other name may be anyone's) and anything but a folder, file or link stay
    as they are."""
    if not os_isolation() or folder.lstat().st_uid == uid:
        return
    app_id = uid % PER_USER_RANGE
    for root, folders, files, root_fd in os.fwalk(folder, follow_symlinks=False):
        for name in (*folders, *files):
            status = os.stat(name, dir_fd=root_fd, follow_symlinks=False)
            if status.st_uid == uid or status.st_uid % PER_USER_RANGE != app_id:
                continue
            if stat.S_ISLNK(status.st_mode):
                os.chown(name, uid, uid, dir_fd=root_fd, follow_symlinks=False)
                continue
            try:
                safe_files.own(Path(root, name), mode=stat.S_IMODE(status.st_mode), owner=uid, dir_fd=root_fd)
            except safe_files.RefusedFileError as refused:
                log.warning("in %s, not handed to uid %d: %s", root, uid, refused)


def own_for_app(path: Path, uid: int, mode: int) -> None:
    """``path`` belongs to the app's uid with ``mode`` (its owner stays where the device
    cannot chown): on its descriptor, refused for a link or a hard link (sim/safe_files.py)."""
    safe_files.own(path, mode=mode, owner=uid if os_isolation() else None)


def isolation_status(processes: bool, os_isolated: bool, landlock_abi: int) -> list[str]:
    """What this device's isolation holds and what it does not, said plainly (boot, dumpsys)."""
    if os_isolated:
        return ["OS isolation: on (the device runs as root): each app runs under its own uid (10000 + n) "
                "with its own 0700 data folder; it cannot read other apps' files, credentials, device.db "
                "or the log, and a connection from an app uid is that app whatever it presents."]
    if processes and landlock_abi:
        signals = "nor signal or trace the device" if landlock_abi >= 6 else "nor trace the device (it can signal it)"
        return [f"OS isolation: partial (the device runs as uid {os.geteuid()}, not root): each app process is "
                f"confined by Landlock (ABI {landlock_abi}) to its code and its own data folder, so it cannot read "
                f"other apps' files, credentials, device.db or the log, {signals}; but it runs as the device's "
                "user, so a child it detaches (setsid) outlives it. Run the device as root for per-app uids "
                "(docs/security.md)."]
    why = ("apps run on threads of the device process" if not processes
           else f"the device runs as uid {os.geteuid()}, not root, and this kernel has no Landlock")
    return [f"OS isolation: OFF ({why}). App code runs as the device's own user: an app can read every "
            "credential, the shell's and device.db, and so act as any package or the shell. Access rules "
            "hold only against callers that do not run code on this machine's account. Run the device "
            "as root (as containers and CI do) for per-app uids (docs/security.md)."]


def restrict_to_owner(path: Path) -> None:
    """A file of the device's (database, log, its WAL) readable and writable by its user only."""
    for candidate in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if candidate.exists():
            candidate.chmod(0o600)
