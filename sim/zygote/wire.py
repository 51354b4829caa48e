"""Framing for the device <-> app hop: length-prefixed protobuf over a socketpair.

The hop is internal and hot (every cross-process execute crosses it), so it
skips HTTP/2: a 4-byte big-endian length, then an AppCall or AppReply message.
``make bench`` measures this against a gRPC hop (docs/performance.md).
"""

from __future__ import annotations

import socket
import struct
import threading
from typing import TypeVar

from google.protobuf.message import DecodeError, Message

_HEADER = struct.Struct(">I")
MAX_FRAME_BYTES = 256 * 1024 * 1024
# One recv asks for at least this much, so small frames arriving together cost one call.
_READ_CHUNK = 64 * 1024

M = TypeVar("M", bound=Message)


class FrameDecoder:
    """Bytes in, whole frame payloads out: frames may arrive split or several at once."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        buffer = self._buffer
        if not buffer and len(data) >= _HEADER.size:
            # The usual case, one whole frame in one recv: no copy through the buffer.
            (length,) = _HEADER.unpack_from(data)
            if len(data) == _HEADER.size + length and length <= MAX_FRAME_BYTES:
                return [data[_HEADER.size:]]
        buffer += data
        payloads = []
        offset = 0
        while len(buffer) - offset >= _HEADER.size:
            (length,) = _HEADER.unpack_from(buffer, offset)
            if length > MAX_FRAME_BYTES:
                raise ConnectionError(f"frame of {length} bytes exceeds {MAX_FRAME_BYTES}")
            end = offset + _HEADER.size + length
            if end > len(buffer):
                break
            payloads.append(bytes(buffer[offset + _HEADER.size:end]))
            offset = end
        del buffer[:offset]
        return payloads

    @property
    def partial(self) -> bool:
        """Whether part of a frame has arrived and the rest has not."""
        return bool(self._buffer)

    def wanted(self) -> int:
        """How much to ask the next recv for: the rest of a large frame in one go."""
        if len(self._buffer) >= _HEADER.size:
            (length,) = _HEADER.unpack_from(self._buffer)
            return max(_READ_CHUNK, _HEADER.size + length - len(self._buffer))
        return _READ_CHUNK


class FrameSocket:
    """The app's end: a thread-safe frame writer, and a reader woken by its event loop when
    the socket is readable (``read_available``), which saves the app a thread switch per call.
    The device's end is a ReplyChannel (sim/zygote/reply_channel.py)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._write_lock = threading.Lock()
        self._decoder = FrameDecoder()

    def fileno(self) -> int:
        return self._sock.fileno()

    def send(self, message: Message) -> None:
        frame = encode_frame(message)
        with self._write_lock:
            self._sock.sendall(frame)

    def read_available(self, message_type: type[M]) -> list[M] | None:
        """One recv, and the messages it completed ([] if none yet); None when the peer closed.

        Call it when the socket is readable: it never waits for more than one recv.
        """
        try:
            data = self._sock.recv(self._decoder.wanted())
        except (BlockingIOError, InterruptedError):
            return []
        except OSError:
            return None
        if not data:
            return None
        return [parse_frame(message_type, payload) for payload in self._decoder.feed(data)]

    def close(self) -> None:
        close_socket(self._sock)


def close_socket(sock: socket.socket) -> None:
    """Shut ``sock`` down (a thread blocked reading it sees the end), then close it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


def encode_frame(message: Message) -> bytes:
    payload = message.SerializeToString()
    return _HEADER.pack(len(payload)) + payload


def parse_frame(message_type: type[M], payload: bytes) -> M:
    try:
        return message_type.FromString(payload)
    except DecodeError as error:
        raise ConnectionError(f"undecodable {message_type.__name__} frame: {error}") from None
