"""The spare decoder's pipes, handed by the verifier's zygote to the device.

The zygote forks each spare (sim/pm/spare_decoder.py) and passes the device, over a Unix
socket (SCM_RIGHTS), the write end of the spare's request pipe, the read end of its answer
pipe and a pidfd of it, keeping only its pid. So an APK's bytes go from the device straight
to the spare and its answer straight back: two process wakes, where relaying both through the
zygote took four. What the zygote did with the answer, the device now does with the same code
(sim/pm/verifier_child.py): it reads at most MAX_DECODED_BYTES, ends the spare at the deadline,
and kills it after its one answer; the zygote reaps it and forks the next. The device holds a
pidfd, not a pid: the zygote may reap a spare the device still holds (one a verification's uid
ended), and a pidfd never names another process.
"""

from __future__ import annotations

import array
import json
import os
import select
import signal
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass

from sim.pm.verifier_child import MAX_DECODED_BYTES, collect

# The spare's request: the APK's name and SDK as JSON, then its bytes; each length-prefixed.
HEADER_LENGTH = struct.Struct("!I")
APK_LENGTH = struct.Struct("!Q")
MAX_HEADER = 4096
_FDS = 3  # the pidfd, the request pipe's write end, the answer pipe's read end


@dataclass(frozen=True)
class SpareHandle:
    """The device's hold on one spare, waiting under ``uid``."""

    pid: int
    uid: int | None
    pidfd: int
    request_fd: int  # non-blocking: a spare that stops reading must not hang the device
    answer_fd: int

    def alive(self) -> bool:
        return not select.select([self.pidfd], [], [], 0)[0]  # a pidfd reads ready once it exits

    def send(self, data: bytes, name: str, sdk: int, deadline: float) -> bool:
        """The APK ``data`` (``name`` in errors) given to the spare to decode for ``sdk``;
        False if it died or stopped reading first."""
        header = json.dumps({"apk": name, "sdk": sdk}).encode()
        return self._send([HEADER_LENGTH.pack(len(header)), header, APK_LENGTH.pack(len(data)), data], deadline)

    def answer(self, deadline: float) -> bytes | None:
        """The spare's answer line, b"" if it died or was too slow, None if it wrote more than
        MAX_DECODED_BYTES."""
        return collect(self.pidfd, self.answer_fd, deadline, one_line=True, limit=MAX_DECODED_BYTES)

    def end(self) -> None:
        """Kill the spare (it can have started nothing: RLIMIT_NPROC 0) and let go of it."""
        try:
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        except ProcessLookupError:  # gone already
            pass
        for fd in (self.pidfd, self.request_fd, self.answer_fd):
            os.close(fd)

    def _send(self, parts: list[bytes], deadline: float) -> bool:
        """Write ``parts`` before ``deadline``; False if the spare died or stopped reading."""
        for part in parts:
            view = memoryview(part)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                ended, writable, _ = select.select([self.pidfd], [self.request_fd], [], remaining)
                if ended:
                    return False
                if writable:
                    try:
                        view = view[os.write(self.request_fd, view):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        return False
        return True


def hand_over(channel: socket.socket, pid: int, uid: int | None, request_fd: int, answer_fd: int) -> None:
    """The zygote's side: the spare ``pid`` given to the device (the caller closes its ends)."""
    pidfd = os.pidfd_open(pid)
    try:
        socket.send_fds(channel, [json.dumps({"pid": pid, "uid": uid}).encode()], [pidfd, request_fd, answer_fd])
    finally:
        os.close(pidfd)


def take_over(channel: socket.socket, timeout: float) -> SpareHandle | None:
    """The device's side: the spare the zygote hands over within ``timeout``; None if it sent
    none, or something it never sends (the zygote failed)."""
    if not select.select([channel], [], [], timeout)[0]:
        return None
    try:
        message, fds = _receive_fds(channel)
    except OSError:
        return None
    try:
        spare = json.loads(message) if len(fds) == _FDS else None
    except ValueError:
        spare = None
    if not isinstance(spare, dict):
        for fd in fds:
            os.close(fd)
        return None
    pidfd, request_fd, answer_fd = fds
    os.set_blocking(request_fd, False)
    return SpareHandle(spare["pid"], spare["uid"], pidfd, request_fd, answer_fd)


def _receive_fds(channel: socket.socket) -> tuple[bytes, list[int]]:
    """socket.recv_fds, with the descriptors close-on-exec from the start (3.11's ignores the
    flags it is given): nothing the device starts meanwhile may inherit them."""
    fds = array.array("i")
    message, ancillary, _, _ = channel.recvmsg(MAX_HEADER, socket.CMSG_LEN(_FDS * fds.itemsize), socket.MSG_CMSG_CLOEXEC)
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    return message, list(fds)


class SparePool:
    """The device's spares: those the zygote has handed over, oldest (warmest) first, and the
    uids of those it is forking. ``ask`` asks the zygote for one more (which calls ``asked``);
    False if the zygote could not be asked."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._held: list[SpareHandle] = []
        self._asked: list[int | None] = []

    def uids(self) -> set[int | None]:
        """The uids spares wait under, or will."""
        return {*self._asked, *(spare.uid for spare in self._held)}

    def take(self, channel: socket.socket, ask: Callable[[], bool], timeout: float) -> SpareHandle | None:
        """The oldest spare still alive, waiting up to ``timeout`` for one if none is; those
        found dead are replaced. None if the zygote failed."""
        for _ in range(self._size + 1):
            self._receive(channel, 0.0)
            if not self._held:
                if not self._asked:
                    ask()
                if not self._receive(channel, timeout):
                    return None
            spare = self._held.pop(0)
            if spare.alive():
                return spare
            spare.end()
        return None

    def refill(self, ask: Callable[[], bool]) -> None:
        while len(self._held) + len(self._asked) < self._size and ask():
            pass

    def asked(self, uid: int | None) -> None:
        """The zygote was asked for a spare under ``uid``."""
        self._asked.append(uid)

    def clear(self) -> None:
        """Let go of every spare: the zygote is ending, and its spares with it."""
        for spare in self._held:
            spare.end()
        self._held.clear()
        self._asked.clear()

    def _receive(self, channel: socket.socket, timeout: float) -> bool:
        """Take what the zygote has handed over, waiting ``timeout`` for the first. False if
        nothing came, or a spare nobody asked for (the zygote failed)."""
        received = False
        while self._asked and (spare := take_over(channel, timeout)) is not None:
            if spare.uid not in self._asked:
                spare.end()
                return False
            self._asked.remove(spare.uid)
            self._held.append(spare)
            received, timeout = True, 0.0
        return received
