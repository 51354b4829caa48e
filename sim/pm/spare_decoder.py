"""The verifier's spare decoder: the child for the next APK, forked and warmed up before it comes.

Android's zygote keeps a pool of forked, not yet specialized processes (USAP) so that an app
starts without waiting for a fork. The verifier's zygote keeps one such child for APKs, since
a child fresh from a fork decodes three to five times slower than a warm one (its caches are
cold; every object it touches is a copy-on-write fault). Once it has answered an APK (and when
it first loads the APK reader), the zygote forks the child for the next one, under the uid the
device reserved for it (``spare_uid``, never given to a verification meanwhile). That child at
once drops to that uid (or, without root, confines itself with Landlock to code alone), so it
can reach no app's folder; it dies with the zygote (PR_SET_PDEATHSIG, and its request pipe
closing); it decodes an APK shipped with droidsim (trusted, package data) to warm up, and
waits. An install then costs the zygote reading the staged APK and writing its bytes down the
spare's pipe, length-prefixed; the spare decodes them, answers, and is killed. It can start
no process or thread (RLIMIT_NPROC 0, which binds every uid but root), so killing it ends all
that decoding the APK ran: no sweep of its uid is needed, as a code verification's child needs.

So each APK is still decoded by a process nothing of an earlier decode reached, and a decode
that crashes or hangs costs that child alone. A spare found dead when its APK comes (killed by
a process of the device's user, without root) is replaced by a fresh fork, and one whose uid a
request does not match (the device restarted its count) is ended first.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import select
import signal
import struct
import time
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from sim.apk.archive import MAX_APK_BYTES
from sim.apk.errors import ApkError
from sim.platform_version import NEWEST
from sim.pm.verifier_child import VERIFY_TIMEOUT, answer_of, collect, end_group, leave_zygote, write_answer

WARMUP_APK = Path(str(files("sim.apk").joinpath("warmup.apk")))
_LENGTH = struct.Struct("!I")
# The spare's request: the APK's name and SDK as JSON, then its bytes; both length-prefixed.
_MAX_HEADER = 4096
_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class Spare:
    pid: int
    uid: int | None
    request_fd: int  # the zygote writes the APK here (non-blocking)
    answer_fd: int  # and reads the answer here

    def alive(self) -> bool:
        return os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None  # not reaped

    def close(self) -> None:
        os.close(self.request_fd)
        os.close(self.answer_fd)


def warm_up(warmup: bytes) -> None:
    """Decode the shipped APK's bytes, so that a process forked after it starts with the
    reader's code and caches in place: the zygote does it once, each spare once more."""
    from sim.apk.decode import decode_apk

    try:
        decode_apk(warmup, WARMUP_APK.name, NEWEST.sdk_int)
    except ApkError:  # the reader is not installed: the decode answers with what to install
        pass


class SpareDecoder:
    """The zygote's one spare. Made once the zygote has loaded the APK reader: ``code_folders``
    is what a spare without root may read (sim/zygote/landlock.py), computed once."""

    def __init__(self) -> None:
        from sim.apk.folder import read_apk
        from sim.zygote.specialize import code_folders

        try:  # read here: a spare's uid may not reach the package's folder
            self._warmup = read_apk(WARMUP_APK)
        except ApkError:  # an install without its package data: APKs decode, only cold
            self._warmup = b""
        warm_up(self._warmup)
        self._code_folders = [*map(Path, code_folders())]
        self._spare: Spare | None = None
        self._ended: list[int] = []  # spares killed, not reaped yet: after the answer

    def decode(self, request: dict) -> dict:
        """Decode ``request["app_dir"]/request["apk"]`` in the spare for ``request["uid"]``."""
        from sim.apk.folder import read_apk

        try:
            data = read_apk(Path(request["app_dir"]) / request["apk"])
        except ApkError as error:
            return {"refused": [error.reason, error.detail]}
        spare = self._take(request.get("uid"))
        deadline = time.monotonic() + request.get("timeout", VERIFY_TIMEOUT)
        header = json.dumps({"apk": request["apk"], "sdk": request["sdk"]}).encode()
        try:
            sent = _send(spare, [_LENGTH.pack(len(header)), header, struct.pack("!Q", len(data)), data], deadline)
            output = collect(spare.pid, spare.answer_fd, deadline, one_line=True) if sent else b""
        finally:
            spare.close()
            end_group(spare.pid)
            self._ended.append(spare.pid)
        return answer_of(None, output)

    def prepare(self, uid: int | None) -> None:
        """Fork the spare for the next APK, under ``uid``, unless one is waiting under it."""
        while self._ended:
            os.waitpid(self._ended.pop(), 0)
        if self._spare is not None and self._spare.uid == uid and self._spare.alive():
            return
        self.discard()
        self._spare = _fork_spare(uid, self._code_folders, self._warmup)

    def release(self, uid: int | None) -> None:
        """End the spare if it waits under ``uid``: a verification is to run app code under
        it, which could trace or signal the spare and so tamper with the next APK's decode."""
        if uid is not None and self._spare is not None and self._spare.uid == uid:
            self.discard()

    def discard(self) -> None:
        spare = self._spare
        if spare is None:
            return
        self._spare = None
        spare.close()
        end_group(spare.pid)
        os.waitpid(spare.pid, 0)

    def _take(self, uid: int | None) -> Spare:
        self.prepare(uid)
        spare, self._spare = self._spare, None
        assert spare is not None
        return spare


def _fork_spare(uid: int | None, code_folders: list[Path], warmup: bytes) -> Spare:
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
    os.set_blocking(request_write, False)  # a spare that hangs must not hang the zygote
    return Spare(pid, uid, request_write, answer_read)


def _serve(uid: int | None, code_folders: list[Path], warmup: bytes, zygote: int, request_fd: int,
           answer_fd: int) -> None:
    """The spare's life: confined at once, warm, then one APK decoded and answered."""
    from sim.pm.code_verifier import apk_answer

    leave_zygote(request_fd, answer_fd)
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
    header = _read_framed(request_fd, _MAX_HEADER)
    data = _read_framed(request_fd, MAX_APK_BYTES, struct.Struct("!Q"))
    if header is None or data is None:  # the zygote ended, or sent what it never sends
        os._exit(1)
    request = json.loads(header)
    write_answer(answer_fd, apk_answer(bytes(data), request["apk"], request["sdk"]))


def _read_framed(fd: int, limit: int, length: struct.Struct = _LENGTH) -> bytearray | None:
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


def _send(spare: Spare, parts: list[bytes], deadline: float) -> bool:
    """Write ``parts`` to the spare before ``deadline``; False if it died or stopped reading."""
    exited = os.pidfd_open(spare.pid)
    try:
        for part in parts:
            view = memoryview(part)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                ended, writable, _ = select.select([exited], [spare.request_fd], [], remaining)
                if ended:
                    return False
                if writable:
                    try:
                        view = view[os.write(spare.request_fd, view):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        return False
    finally:
        os.close(exited)
    return True
