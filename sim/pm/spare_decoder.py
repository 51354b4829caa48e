"""The verifier's spare decoder: the child for the next APK, forked and warmed up before it comes.

Android's zygote keeps a pool of forked, not yet specialized processes (USAP) so that an app
starts without waiting for a fork. The verifier's zygote keeps one such child for APKs, since
a child fresh from a fork decodes three to five times slower than a warm one (its caches are
cold; every object it touches is a copy-on-write fault). When the device asks for one (at its
first APK, then after each decode), the zygote forks it under the uid the device reserved for
it (never given to a verification meanwhile) and hands its pipes to the device
(sim/pm/spare_channel.py). That child at once drops to that uid (or, without root, confines
itself with Landlock to code alone), so it can reach no app's folder; it dies with the zygote
(PR_SET_PDEATHSIG, and its request pipe closing); it decodes an APK shipped with droidsim
(trusted, package data) to warm up, and waits. The device writes an APK's bytes down its pipe,
reads its one answer and kills it. It can start no process or thread (RLIMIT_NPROC 0, which
binds every uid but root), so killing it ends all that decoding the APK ran: no sweep of its
uid is needed, as a code verification's child needs.

So each APK is still decoded by a process nothing of an earlier decode reached, and a decode
that crashes or hangs costs that child alone. Once warm, the spare is bounded
(``bound_decoding``): an APK whose decode passes DECODE_CPU_SECONDS of CPU or
DECODE_MEMORY_BYTES of memory is refused, the answer naming the bound it hit. A spare the
device finds dead when its APK comes
(killed by a process of the device's user, without root, or ended because a verification took
its uid) is replaced by a fresh fork.
"""

from __future__ import annotations

import ctypes
import gc
import json
import math
import os
import resource
import signal
import socket
import struct
from importlib.resources import files
from pathlib import Path

from sim.apk.archive import MAX_APK_BYTES
from sim.apk.errors import ApkError
from sim.platform_version import NEWEST
from sim.pm.spare_channel import APK_LENGTH, HEADER_LENGTH, MAX_HEADER, hand_over
from sim.pm.verifier_child import (
    DECODE_CPU_SECONDS,
    DECODE_MEMORY_BYTES,
    UNEXPECTED,
    end_group,
    leave_zygote,
    write_answer,
)

WARMUP_APK = Path(str(files("sim.apk").joinpath("warmup.apk")))
_PR_SET_PDEATHSIG = 1


class DecodeBoundHit(BaseException):
    """The decode passed its CPU bound (a BaseException: no reader's ``except Exception``
    takes it for malformed input)."""


def warm_up(warmup: bytes) -> None:
    """Decode the shipped APK's bytes, so that a process forked after it starts with the
    reader's code and caches in place: the zygote does it once, each spare once more."""
    from sim.apk.decode import decode_apk

    try:
        decode_apk(warmup, WARMUP_APK.name, NEWEST.sdk_int)
    except ApkError:  # the reader is not installed: the decode answers with what to install
        pass


class SpareDecoder:
    """The zygote's side: spares forked and handed to the device over ``channel``. Made once
    the zygote has loaded the APK reader: ``code_folders`` is what a spare without root may
    read (sim/zygote/landlock.py), computed once."""

    def __init__(self, channel: socket.socket) -> None:
        from sim.apk.folder import read_apk
        from sim.zygote.specialize import code_folders

        try:  # read here: a spare's uid may not reach the package's folder
            self._warmup = read_apk(WARMUP_APK)
        except ApkError:  # an install without its package data: APKs decode, only cold
            self._warmup = b""
        warm_up(self._warmup)
        self._channel = channel
        self._code_folders = [*map(Path, code_folders())]
        self._unreaped: dict[int, int | None] = {}  # spares handed out, by pid: their uids

    def hand_out(self, uid: int | None) -> None:
        """Fork a spare under ``uid`` and give it to the device. Spares the device has killed
        since are reaped first, without waiting for one still being torn down."""
        for pid in list(self._unreaped):
            if os.waitpid(pid, os.WNOHANG)[0]:
                del self._unreaped[pid]
        pid, request_fd, answer_fd = _fork_spare(uid, self._code_folders, self._warmup)
        self._unreaped[pid] = uid
        try:
            hand_over(self._channel, pid, uid, request_fd, answer_fd)
        finally:
            os.close(request_fd)
            os.close(answer_fd)

    def release(self, uid: int | None) -> None:
        """End the spare waiting under ``uid``: a verification is to run app code under it,
        which could trace or signal the spare and so tamper with the next APK's decode."""
        for pid, spare_uid in list(self._unreaped.items()):
            if uid is not None and spare_uid == uid:
                end_group(pid)
                os.waitpid(pid, 0)
                del self._unreaped[pid]


def _fork_spare(uid: int | None, code_folders: list[Path], warmup: bytes) -> tuple[int, int, int]:
    """The spare's pid, the write end of its request pipe and the read end of its answer pipe."""
    request_read, request_write = os.pipe()
    answer_read, answer_write = os.pipe()
    zygote = os.getpid()
    pid = os.fork()
    if pid == 0:  # the spare
        try:
            os.close(request_write)
            os.close(answer_read)
            _serve(uid, code_folders, warmup, zygote, request_read, answer_write)
        finally:
            os._exit(1)
    os.close(request_read)
    os.close(answer_write)
    return pid, request_write, answer_read


def _serve(uid: int | None, code_folders: list[Path], warmup: bytes, zygote: int, request_fd: int,
           answer_fd: int) -> None:
    """The spare's life: confined at once, warm, then bounded, one APK decoded and answered."""
    leave_zygote(request_fd, answer_fd)
    statm = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)  # before Landlock, which leaves /proc out
    if uid is not None:
        from sim.zygote.specialize import drop_to

        drop_to(uid)
    else:  # without root: read-only to code, no app's folder, where the kernel has Landlock
        from sim.zygote import landlock

        landlock.confine(code_folders, [])
    # No process or thread of its own, ever: killing the spare ends all that the APK's decode ran.
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    # After the uid drop, which clears it; a zygote gone before it was set is seen as a new parent.
    if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != zygote:
        os._exit(1)
    warm_up(warmup)
    gc.freeze()  # what the warm-up left is never traversed again: the decode's collections stay small
    header = _read_framed(request_fd, MAX_HEADER, HEADER_LENGTH)
    framed = _read_framed(request_fd, MAX_APK_BYTES, APK_LENGTH)
    if header is None or framed is None:  # the device let go of it, or sent what it never sends
        os._exit(1)
    request, data = json.loads(header), bytes(framed)
    del framed
    bound_decoding(statm)
    write_answer(answer_fd, apk_answer(data, request["apk"], request["sdk"]))


def bound_decoding(statm: int | None = None) -> None:
    """From now on, with the APK's bytes in hand: DECODE_MEMORY_BYTES more address space
    (past it, allocations fail with MemoryError) and DECODE_CPU_SECONDS more of CPU (past it,
    SIGXCPU raises DecodeBoundHit; a second later, if the decode is stuck where no Python runs,
    the kernel's SIGKILL). More than the spare has, not a total: what it holds before (the
    reader, the APK of up to 256 MiB) is not the decode's to spend. ``statm``: this process's
    /proc/self/statm, opened before it was confined."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime) + DECODE_CPU_SECONDS

    def past_cpu_bound(signum: int, frame: object) -> None:
        raise DecodeBoundHit(f"used more than {DECODE_CPU_SECONDS} s of CPU")

    signal.signal(signal.SIGXCPU, past_cpu_bound)
    _lower(resource.RLIMIT_CPU, soft, soft + 1)
    address_space = _address_space(statm) + DECODE_MEMORY_BYTES
    _lower(resource.RLIMIT_AS, address_space, address_space)


def _address_space(statm: int | None) -> int:
    """This process's virtual size now (what RLIMIT_AS counts)."""
    fd = os.open("/proc/self/statm", os.O_RDONLY) if statm is None else statm
    try:
        return int(os.pread(fd, 128, 0).split()[0]) * resource.getpagesize()
    finally:
        os.close(fd)


def _lower(kind: int, soft: int, hard: int) -> None:
    """The limit ``kind`` set to ``soft`` and ``hard``, or kept where it is lower already (a
    user who runs droidsim under a tighter limit)."""
    old_soft, old_hard = resource.getrlimit(kind)
    if old_hard != resource.RLIM_INFINITY:
        hard = min(hard, old_hard)
    if old_soft != resource.RLIM_INFINITY:
        soft = min(soft, old_soft)
    resource.setrlimit(kind, (min(soft, hard), hard))


def apk_answer(data: bytes, name: str, sdk: int) -> dict:
    """The APK ``data`` (``name`` in errors) decoded for ``sdk``, or why it is refused; run
    where hostile input may be read, bounded."""
    from sim.apk.decode import decode_apk

    try:
        return {"decoded": decode_apk(data, name, sdk).to_json()}
    except ApkError as error:
        return {"refused": [error.reason, error.detail]}
    except MemoryError:
        return {"refused": [UNEXPECTED, f"decoding {name} needed more than {DECODE_MEMORY_BYTES >> 20} MiB of memory, "
                                        "the decoder's bound"]}
    except DecodeBoundHit as hit:
        return {"refused": [UNEXPECTED, f"decoding {name} {hit}, the decoder's bound"]}
    except Exception as error:  # the reader failed on this input: the install refuses, naming it
        return {"error": f"{type(error).__name__}: {error}"}


def _read_framed(fd: int, limit: int, length: struct.Struct) -> bytearray | None:
    """One length-prefixed message; None at the end of the pipe or past ``limit`` bytes."""
    prefix = _read_exactly(fd, length.size)
    if prefix is None or (size := length.unpack(prefix)[0]) > limit:
        return None
    return _read_exactly(fd, size)


def _read_exactly(fd: int, size: int) -> bytearray | None:
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, min(size - len(data), 1 << 20))
        if not chunk:
            return None
        data += chunk
    return data
