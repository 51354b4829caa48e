"""The bare transports the device is measured against: ``python -m bench.echo_server``.

One process serves both baselines:

- gRPC on a Unix socket, with bytes in and bytes out (no protobuf work):
  ``Echo`` returns the request, ``Load`` stores a payload and ``Fetch`` returns it
  (the same-size stand-in for a search response);
- a raw Unix stream socket that writes back whatever it reads;
- ``Relay``, the device structure floor: a handler that sends the request over a Unix socket
  to another process (bench.floor_app) and returns what comes back.

It times its own boot (first line of this module to serving), the floor any
gRPC process pays and the device's boot is compared with.
"""

import time

STARTED_NS = time.perf_counter_ns()

import argparse  # noqa: E402 - after the clock starts, on purpose
import os  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402

import grpc  # noqa: E402

from bench.child import announce_ready, wait_for_parent  # noqa: E402
from droid.binder.channel import CHANNEL_OPTIONS  # noqa: E402

SERVICE = "bench.Echo"
ECHO, LOAD, FETCH, RELAY = (f"/{SERVICE}/{name}" for name in ("Echo", "Load", "Fetch", "Relay"))


class _Payload:
    def __init__(self) -> None:
        self.value = b""

    def load(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        self.value = request
        return b""

    def fetch(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        return self.value


class _Relay:
    """One connection per handler thread to the floor's app process, as the device holds one
    socket to each app: a round trip there and back per call."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._local = threading.local()

    def relay(self, request: bytes, context: grpc.ServicerContext) -> bytes:
        sock = getattr(self._local, "sock", None)
        if sock is None:
            sock = self._local.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(self._path)
        sock.sendall(request)
        reply = bytearray(len(request))
        view, received = memoryview(reply), 0
        while received < len(reply):
            count = sock.recv_into(view[received:])
            if count == 0:
                raise ConnectionError("the floor's app process closed its socket")
            received += count
        return bytes(reply)


def grpc_server(listen: str, workers: int, relay_to: str) -> grpc.Server:
    payload = _Payload()
    handlers = {
        "Echo": grpc.unary_unary_rpc_method_handler(lambda request, context: request),
        "Load": grpc.unary_unary_rpc_method_handler(payload.load),
        "Fetch": grpc.unary_unary_rpc_method_handler(payload.fetch),
        "Relay": grpc.unary_unary_rpc_method_handler(_Relay(relay_to).relay),
    }
    server = grpc.server(ThreadPoolExecutor(max_workers=workers), options=CHANNEL_OPTIONS)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    if server.add_insecure_port(listen) == 0:
        raise OSError(f"cannot listen on {listen}")
    server.start()
    return server


def raw_echo_server(path: str) -> socket.socket:
    if os.path.exists(path):
        os.unlink(path)  # left by an earlier echo server of this bench run
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen()

    def echo(connection: socket.socket) -> None:
        buffer = bytearray(1 << 16)
        with connection:
            while count := connection.recv_into(buffer):
                connection.sendall(memoryview(buffer)[:count])

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=echo, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--grpc", required=True, help="unix:PATH to serve gRPC on")
    parser.add_argument("--raw", required=True, help="PATH of the raw echo socket")
    parser.add_argument("--workers", type=int, required=True, help="gRPC worker threads (as the device uses)")
    parser.add_argument("--relay-to", required=True, help="PATH of the floor app's raw echo socket (bench.floor_app)")
    args = parser.parse_args()
    server = grpc_server(args.grpc, args.workers, args.relay_to)
    ready_ns = time.perf_counter_ns() - STARTED_NS
    listener = raw_echo_server(args.raw)
    announce_ready(boot_ns=ready_ns)
    wait_for_parent()
    listener.close()
    server.stop(0).wait()


if __name__ == "__main__":
    main()
