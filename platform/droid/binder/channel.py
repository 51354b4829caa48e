"""Opening a gRPC channel to a device address."""

from __future__ import annotations

import grpc

# Parameters may be several MB (CTS sends 1 MB and echoes 5 MB); the device
# enforces its own, configurable limit and answers with a clear error above it.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024

CHANNEL_OPTIONS = (
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
)


def grpc_target(address: str) -> str:
    """``unix:PATH`` and ``HOST:PORT`` pass through; a bare path is a Unix socket."""
    if address.startswith(("unix:", "unix-abstract:", "dns:", "ipv4:", "ipv6:")):
        return address
    if address.startswith("/") or address.startswith("."):
        return f"unix:{address}"
    return address


def open_channel(address: str) -> grpc.Channel:
    return grpc.insecure_channel(grpc_target(address), options=CHANNEL_OPTIONS)
