"""Framing for the device <-> app hop: length-prefixed protobuf over a socketpair.

The hop is internal and hot (every cross-process execute crosses it), so it
skips HTTP/2: a 4-byte big-endian length, then an AppCall or AppReply message.
"""

from __future__ import annotations

import socket
import struct
import threading

from google.protobuf.message import Message

_HEADER = struct.Struct(">I")
MAX_FRAME_BYTES = 256 * 1024 * 1024


class FrameSocket:
    """Thread-safe frame writer and single-reader frame reader on one stream socket."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._write_lock = threading.Lock()

    def send(self, message: Message) -> None:
        payload = message.SerializeToString()
        with self._write_lock:
            self._sock.sendall(_HEADER.pack(len(payload)) + payload)

    def receive(self, message_type: type[Message]) -> Message | None:
        """The next frame, or None when the peer closed the socket."""
        header = self._read_exactly(_HEADER.size)
        if header is None:
            return None
        (length,) = _HEADER.unpack(header)
        if length > MAX_FRAME_BYTES:
            raise ConnectionError(f"frame of {length} bytes exceeds {MAX_FRAME_BYTES}")
        payload = self._read_exactly(length)
        if payload is None:
            return None
        return message_type.FromString(payload)

    def _read_exactly(self, size: int) -> bytes | None:
        if size == 0:
            return b""
        buffer = bytearray(size)
        view = memoryview(buffer)
        received = 0
        while received < size:
            try:
                count = self._sock.recv_into(view[received:])
            except OSError:
                return None
            if count == 0:
                return None
            received += count
        return bytes(buffer)

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
