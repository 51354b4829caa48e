"""Keeping every process of an app's agent in one process group, so that one ``killpg`` ends
them all at once (sim/agent_app/keeper.py).

Ending a process tree by walking /proc loses to a process that forks its successor and exits
for ever: each pass finds a generation that has already gone. A signal to a process group is
atomic against fork (the kernel restarts a fork that a group signal interrupts), so the agent's
process makes a group of its own and a seccomp filter then refuses it, and all it starts,
``setsid`` and ``setpgid`` (EPERM): nothing it starts can leave the group. The filter is
installed after no-new-privileges is set, as the kernel requires of a process without
CAP_SYS_ADMIN, and before anything of the app's is loaded; it binds whatever uid the process
takes. Known machines: x86-64 and AArch64; elsewhere, or on a kernel without seccomp filters,
the group is made but not enforced (``pin`` says why), and the keeper's walk of /proc is what
remains.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_ALLOW = 0x7FFF0000
_REFUSE = 0x00050000 | errno.EPERM  # SECCOMP_RET_ERRNO
_LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JUMP_IF_EQUAL = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JUMP_IF_SET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RETURN = 0x06  # BPF_RET | BPF_K
_X32_BIT = 0x40000000
# The machine's audit architecture, and its numbers of setsid and setpgid.
_SYSCALLS = {"x86_64": (0xC000003E, 112, 109), "aarch64": (0xC00000B7, 157, 154)}


class _Program(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


def pin() -> str | None:
    """Make this process a group of its own, and refuse it and everything it starts any way
    out of that group; where that cannot be enforced, why."""
    os.setpgid(0, 0)
    known = _SYSCALLS.get(platform.machine())
    if known is None:
        return f"droidsim knows no seccomp numbers for {platform.machine()}"
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    code = _filter(*known)
    program = _Program(len(code) // 8, code)
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0:
        return f"this kernel refuses a seccomp filter ({os.strerror(ctypes.get_errno())})"
    return None


def _filter(arch: int, setsid: int, setpgid: int) -> bytes:
    """Another architecture's calls (i386's int 0x80, x32) are refused whole: nothing of
    Python's uses them, and their numbers differ."""
    steps = [
        (_LOAD_WORD, 0, 0, 4),  # seccomp_data.arch
        (_JUMP_IF_EQUAL, 1, 0, arch),
        (_RETURN, 0, 0, _REFUSE),
        (_LOAD_WORD, 0, 0, 0),  # seccomp_data.nr
        (_JUMP_IF_SET, 2, 0, _X32_BIT),
        (_JUMP_IF_EQUAL, 1, 0, setsid),
        (_JUMP_IF_EQUAL, 0, 1, setpgid),
        (_RETURN, 0, 0, _REFUSE),
        (_RETURN, 0, 0, _ALLOW),
    ]
    return b"".join(struct.pack("HBBI", *step) for step in steps)
