"""Clients of the bare transports (bench.echo_server), and the in-process protobuf baseline."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Callable

from google.protobuf.message import Message

from bench.child import ChildProcess, socket_path
from bench.echo_server import ECHO, FETCH, LOAD, RELAY
from droid.binder.channel import open_channel


class BareTransports:
    """A running echo server process (and the floor's app process it relays to), and a client
    of each of their transports."""

    def __init__(self, workdir: Path, workers: int) -> None:
        grpc_path = socket_path(workdir, "echo.sock")
        self.raw_path = socket_path(workdir, "raw.sock")
        floor_path = socket_path(workdir, "floor.sock")
        self.floor_app = ChildProcess("bench.floor_app", "--raw", str(floor_path))
        self.server = ChildProcess(
            "bench.echo_server", "--grpc", f"unix:{grpc_path}", "--raw", str(self.raw_path),
            "--workers", str(workers), "--relay-to", str(floor_path),
        )
        self.boot_ns: int = self.server.ready["boot_ns"]
        self.channel = open_channel(f"unix:{grpc_path}")
        self._echo = self.channel.unary_unary(ECHO)
        self._relay = self.channel.unary_unary(RELAY)
        self._load = self.channel.unary_unary(LOAD)
        self._raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._raw.connect(str(self.raw_path))

    def grpc_echo(self, payload: bytes) -> Callable[[], object]:
        """One unary call that sends ``payload`` and gets it back."""
        echo = self._echo
        return lambda: echo(payload)

    def structure_floor(self, payload: bytes) -> Callable[[], object]:
        """A unary call whose handler takes ``payload`` to another process and back: the device's
        structure (client, gRPC handler, app process) with no device code in it."""
        relay = self._relay
        return lambda: relay(payload)

    def grpc_fetch(self, payload: bytes, response_type: type[Message]) -> Callable[[], object]:
        """A call that returns ``payload`` (stored once, untimed), parsed as ``response_type``,
        as a client parses a device's answer of that size."""
        self._load(payload)
        fetch = self.channel.unary_unary(FETCH, response_deserializer=response_type.FromString)
        return lambda: fetch(b"")

    def raw_round_trip(self, payload: bytes) -> Callable[[], object]:
        """Write ``payload`` to the raw socket and read as many bytes back."""
        sock, size = self._raw, len(payload)
        buffer = bytearray(size)
        view = memoryview(buffer)

        def round_trip() -> None:
            sock.sendall(payload)
            received = 0
            while received < size:
                count = sock.recv_into(view[received:])
                if count == 0:
                    raise ConnectionError("the raw echo server closed the socket")
                received += count

        return round_trip

    def close(self) -> None:
        self._raw.close()
        self.channel.close()
        self.server.stop()
        self.floor_app.stop()


def protobuf_round_trip(request: Message, response: Message) -> Callable[[], object]:
    """Encode and decode ``request`` and ``response`` once each: the in-process floor."""
    request_type, response_type = type(request), type(response)

    def round_trip() -> None:
        request_type.FromString(request.SerializeToString())
        response_type.FromString(response.SerializeToString())

    return round_trip
