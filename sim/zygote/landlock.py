"""Landlock: confining an app process without root, where the kernel offers it (Linux 5.13+).

A device that is not root cannot give apps their own uids, but any process may give up access
for itself and its children (landlock(7)). An app process confined here may read and run code
(the interpreter, the platform's packages, its own app folder, the system's /usr, /lib, /bin,
/etc, /dev/urandom), may read and write its own data folder and /dev/null, and nothing else of the file system: not
the device's database, log or credentials, nor another app's folder. From ABI 6 it also may
not signal, nor connect to abstract sockets of, processes outside its own domain (the device,
other apps); ptrace and /proc/PID/mem of them are refused at every ABI.

Three raw system calls through ctypes (their numbers are the same on every architecture);
no library is needed for what is a few structures.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from pathlib import Path

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
# Every file-system right of each ABI (landlock.h): 13 at ABI 1, REFER at 2, TRUNCATE at 3,
# IOCTL_DEV at 5.
_FS_RIGHTS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | (1 << 14) | (1 << 15)  # rights a file rule may hold
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1
_SYSTEM_CODE = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/dev/urandom", "/dev/random")

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def abi_version() -> int:
    """The kernel's Landlock ABI; 0 where it has none (too old, or disabled)."""
    version = _libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(int(version), 0)


def confine(readable: list[Path], writable: list[Path]) -> int:
    """Confine this process (and what it starts) to reading ``readable`` and the system's
    code, and reading and writing ``writable``. Returns the ABI used; 0 (and nothing done)
    where the kernel has no Landlock."""
    abi = abi_version()
    if abi == 0:
        return 0
    fs_rights = _FS_RIGHTS_BY_ABI[max(v for v in _FS_RIGHTS_BY_ABI if v <= abi)]
    scoped = _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = struct.pack("=QQQ", fs_rights, 0, scoped) if abi >= 6 else struct.pack("=Q", fs_rights)
    ruleset = _check(_libc.syscall(_CREATE_RULESET, attr, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0)), "create")
    try:
        code = [*readable, *map(Path, _SYSTEM_CODE), Path(sys.executable).parent,
                Path(os.path.realpath(sys.executable)).parent]
        for path in code:
            _allow(ruleset, path, _EXECUTE | _READ_FILE | _READ_DIR)
        for path in [*writable, Path("/dev/null")]:
            _allow(ruleset, path, fs_rights)
        if _libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
        _check(_libc.syscall(_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)), "restrict_self")
    finally:
        os.close(ruleset)
    return abi


def _allow(ruleset: int, path: Path, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a folder this system lacks (/lib32) needs no rule
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = struct.pack("=Qi", rights, fd)
        _check(_libc.syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), rule,
                             ctypes.c_uint32(0)), f"add_rule {path}")
    finally:
        os.close(fd)


def _check(result: int, what: str) -> int:
    if result < 0:
        error = ctypes.get_errno()
        raise OSError(error, f"landlock {what} failed: {os.strerror(error)}")
    return int(result)
