"""The kernel names a TCP peer by the whole connection: its socket is found by both ends,
never by a port number another socket shares (sim/server/tcp_peers.py)."""

from __future__ import annotations

import os
import socket

import pytest

from sim.server.tcp_peers import connection_owner, peer_sockets


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


needs_ipv6 = pytest.mark.skipif(not _has_ipv6_loopback(), reason="needs an IPv6 loopback (::1) on this machine")


@pytest.fixture
def sockets():
    opened: list[socket.socket] = []

    def open_socket(family: int = socket.AF_INET) -> socket.socket:
        opened.append(socket.socket(family, socket.SOCK_STREAM))
        return opened[-1]

    yield open_socket
    for s in opened:
        s.close()


def listener(open_socket, host: str, family: int = socket.AF_INET) -> socket.socket:
    server = open_socket(family)
    server.bind((host, 0))
    server.listen(8)
    return server


def named_peers(at_device: socket.socket) -> list[tuple[int, int]]:
    """What the kernel says is at the other end of the accepted connection ``at_device``."""
    return peer_sockets(at_device.getpeername(), at_device.getsockname())


def mine(client: socket.socket) -> list[tuple[int, int]]:
    """``client`` as the kernel names it: this process's uid and the socket's inode."""
    return [(os.getuid(), os.fstat(client.fileno()).st_ino)]


def connect_from(open_socket, family: int, local: tuple, target: socket.socket) -> socket.socket:
    """A client socket bound to ``local`` (sharing its port: SO_REUSEADDR) connected to ``target``."""
    client = open_socket(family)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    client.bind(local)
    client.connect(target.getsockname()[:2])
    return client


def accepted(server: socket.socket) -> socket.socket:
    connection, _ = server.accept()
    return connection


def test_two_sockets_sharing_a_port_are_told_apart_by_where_they_connect(sockets):
    device, decoy = listener(sockets, "127.0.0.1"), listener(sockets, "127.0.0.1")
    first = connect_from(sockets, socket.AF_INET, ("127.0.0.1", 0), decoy)
    port = first.getsockname()[1]
    second = connect_from(sockets, socket.AF_INET, ("127.0.0.1", port), device)  # the same local port
    assert second.getsockname() == first.getsockname()
    at_device = accepted(device)
    # Only the socket connected to the device is the device's peer: found by its inode.
    assert named_peers(at_device) == mine(second)
    at_decoy = accepted(decoy)
    assert named_peers(at_decoy) == mine(first)
    assert connection_owner(at_device) == os.getuid()


@needs_ipv6
def test_an_ipv6_peer_is_named(sockets):
    device = listener(sockets, "::1", socket.AF_INET6)
    client = connect_from(sockets, socket.AF_INET6, ("::1", 0), device)
    at_device = accepted(device)
    assert named_peers(at_device) == mine(client)
    assert connection_owner(at_device) == os.getuid()


@needs_ipv6
def test_an_ipv4_client_of_a_dual_stack_listener_is_named(sockets):
    device = listener(sockets, "::", socket.AF_INET6)
    client = sockets(socket.AF_INET)
    client.connect(("127.0.0.1", device.getsockname()[1]))
    at_device = accepted(device)
    assert at_device.getpeername()[0] == "::ffff:127.0.0.1"
    assert named_peers(at_device) == mine(client)


def test_a_peer_the_kernel_does_not_list_is_nobody(tmp_path):
    empty = tmp_path / "tcp"
    empty.write_text("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n")
    assert peer_sockets(("127.0.0.1", 40000), ("127.0.0.1", 50000), {4: str(empty), 6: str(empty)}) == []
    assert peer_sockets(("127.0.0.1", 40000), ("127.0.0.1", 50000), {4: str(tmp_path / "absent"), 6: str(empty)}) == []


def test_without_inet_diag_the_socket_tables_name_the_same_peer(sockets, monkeypatch):
    """Where netlink is not to be had (a sandbox), /proc/net/tcp answers, by the whole connection too."""
    from sim.server import sock_diag

    def unavailable(*args):
        raise sock_diag.SockDiagUnavailable(1, "no NETLINK_SOCK_DIAG here")

    device = listener(sockets, "127.0.0.1")
    client = connect_from(sockets, socket.AF_INET, ("127.0.0.1", 0), device)
    at_device = accepted(device)
    asked = named_peers(at_device)
    monkeypatch.setattr(sock_diag, "owner", unavailable)
    assert named_peers(at_device) == asked == mine(client)
