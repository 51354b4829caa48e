"""ReplyChannel: the device's end of the app hop, read by the threads that wait on it.

A reader thread that hands each reply to the waiting caller costs the call two wakes (the
kernel wakes the reader, the reader wakes the caller). Here the waiting threads take turns
reading (leader/follower): one of them, the leader, reads the socket and hands other
callers their replies; when its own arrives it passes the role to another waiting caller.
A call alone costs one wake.

With no thread always reading, two things need care, and each has its test
(tests/faults/test_reply_channel.py):
- a large request must not block forever against a large reply nobody reads: a send that
  the socket cannot take at once reads what has arrived while it waits (``send``);
- a call settled from outside while its thread reads (a cancellation, the app's death)
  wakes that thread through a pipe.
The app's death while idle is its ProcessAppHost's to notice (a thread in ``waitpid``), and a
late reply to a cancelled call is read by ``drain`` before anyone decides the app ignored it.
"""

from __future__ import annotations

import logging
import os
import select
import socket
import threading
from typing import Callable

from google.protobuf.message import Message

from droidsim.v1 import app_function_service_pb2 as app_pb2
from sim.zygote.pending_call import PendingCall
from sim.zygote.wire import FrameDecoder, close_socket, encode_frame, parse_frame

log = logging.getLogger("droidsim.zygote")

# How long a blocked send sleeps between looks at the socket's replies: a slow path, taken
# only when the app's socket buffer is full (frames of megabytes).
_SEND_POLL_SECONDS = 0.005
# How long ``drain`` waits for the rest of a frame the app has started writing.
_PARTIAL_FRAME_SECONDS = 1.0


class ReplyChannel:
    def __init__(
        self,
        sock: socket.socket,
        outcome_of: Callable[[app_pb2.AppReply], object],
        on_broken: Callable[[str], None],
    ) -> None:
        """``outcome_of`` turns a reply into the caller's outcome; ``on_broken`` is told when
        the app closed its end or sent a frame that cannot be read (the host kills it, and
        its death fails the calls in flight)."""
        self._sock = sock
        self._outcome_of = outcome_of
        self._on_broken = on_broken
        self._decoder = FrameDecoder()
        self._lock = threading.Lock()  # guards _pending, _waiting, _leader, _broken, _dead
        self._pending: dict[int, PendingCall] = {}
        self._waiting: set[PendingCall] = set()  # calls whose threads wait in ``wait``
        self._leader: object | None = None  # the PendingCall whose thread reads, or a sender
        self._broken = False
        self._dead = False
        self._write_lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)

    def add(self, call_id: int, call: PendingCall) -> bool:
        """Register a call before its frame is sent; False once the app has died."""
        with self._lock:
            if self._dead:
                return False
            self._pending[call_id] = call
            return True

    def take_all(self) -> list[PendingCall]:
        """The app died: every call in flight, removed, for the host to fail; none is added after."""
        with self._lock:
            self._dead = True
            pending, self._pending = self._pending, {}
        return list(pending.values())

    def wait(self, call: PendingCall) -> object:
        """The call's outcome, reading the socket whenever no other waiting thread does."""
        with self._lock:
            if self._leader is None and not self._broken:
                self._leader = call
            leading = self._leader is call
            self._waiting.add(call)  # from now on, the role may be handed to it
        try:
            if not leading:
                outcome = call.wait()
                with self._lock:
                    leading = self._leader is call
                if not leading:
                    return outcome
            self._lead(call)
        finally:
            with self._lock:
                self._waiting.discard(call)
        # Left without an outcome only when the socket broke: the app's death settles the call.
        while call.outcome is None:
            call.wait()
        return call.outcome

    def send(self, message: Message) -> None:
        """Write one frame; OSError when the app is gone."""
        frame = encode_frame(message)
        with self._write_lock:
            sent = self._send_some(frame, 0)
            while sent < len(frame):
                self.drain()  # the app may be blocked writing a reply nobody else reads
                select.select((), (self._sock,), (), _SEND_POLL_SECONDS)
                sent = self._send_some(frame, sent)

    def drain(self) -> None:
        """Read whatever replies have arrived, and the rest of one the app is still writing, if
        no waiting thread is reading."""
        with self._lock:
            if self._leader is not None or self._broken:
                return
            self._leader = self
        try:
            while self._read_once(_PARTIAL_FRAME_SECONDS if self._decoder.partial else 0):
                pass
        finally:
            self._pass_role()

    def close(self) -> None:
        """Shut the socket (a thread reading it sees the end) and close it and the pipe."""
        close_socket(self._sock)
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def _send_some(self, frame: bytes, offset: int) -> int:
        try:
            return offset + self._sock.send(memoryview(frame)[offset:], socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return offset

    def _lead(self, call: PendingCall) -> None:
        call.interrupt = self._poke
        try:
            while call.outcome is None and self._read_once(None):
                pass
        finally:
            call.interrupt = None
            self._pass_role()

    def _read_once(self, timeout: float | None) -> bool:
        """Read what one recv gives and hand out the replies; False when nothing more will come
        (closed, broken) or nothing arrived within ``timeout`` (None: wait)."""
        ready, _, _ = select.select((self._sock, self._wake_r), (), (), timeout)
        if self._wake_r in ready:
            self._drain_pipe()
        if self._sock not in ready:
            return timeout is None
        try:
            data = self._sock.recv(self._decoder.wanted())
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            data = b""
        if not data:
            self._break("closed its socket")
            return False
        try:
            replies = [parse_frame(app_pb2.AppReply, payload) for payload in self._decoder.feed(data)]
        except ConnectionError as error:
            self._break(f"sent a bad frame: {error}")
            return False
        for reply in replies:
            with self._lock:
                waiting = self._pending.pop(reply.call_id, None)
            if waiting is not None:
                if waiting is self._leader:  # this thread's own call: it is awake, a poke would only
                    waiting.interrupt = None  # make its next read return at once, for nothing
                waiting.deliver(self._outcome_of(reply))
        return True

    def _pass_role(self) -> None:
        """Hand reading to a caller still waiting, if any."""
        with self._lock:
            self._leader = None
            if self._broken:
                return
            for waiting in self._waiting:
                if waiting.promote():
                    self._leader = waiting
                    return

    def _break(self, reason: str) -> None:
        with self._lock:
            self._broken = True
        self._on_broken(reason)

    def _poke(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except OSError:
            pass  # the pipe is full (the reader wakes anyway) or closed

    def _drain_pipe(self) -> None:
        try:
            while os.read(self._wake_r, 512):
                pass
        except OSError:
            pass
