"""Who is at the other end of an accepted TCP connection, asked of the kernel.

TCP has no SO_PEERCRED, but for a peer on this machine the kernel knows every socket's owner
(inet_diag, sim/server/sock_diag.py; /proc/net/tcp and tcp6 where netlink is not to be had).
The peer's socket is the one whose local end is the peer's address and port **and** whose
remote end is this connection's own address and port: the whole connection, since a port
number alone may be shared by sockets of different apps connected to different places. A device that isolates its apps names each TCP connection so, once, when it
accepts it (sim/server/peer_relay.py), as on the app socket (docs/security.md).
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from typing import Iterable

from sim.server import sock_diag

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Endpoint = tuple[Address, int]

TABLES = {4: "/proc/net/tcp", 6: "/proc/net/tcp6"}
_ESTABLISHED = "01"


def connection_owner(connection: socket.socket, tables: dict[int, str] | None = None) -> int | None:
    """The uid owning the other end of ``connection``; None for a peer not on this machine
    (or, should two rows ever match, for a peer the kernel does not name unambiguously)."""
    uids = {uid for uid, _inode in peer_sockets(connection.getpeername(), connection.getsockname(), tables)}
    return uids.pop() if len(uids) == 1 else None


def peer_sockets(peer: tuple, local: tuple, tables: dict[int, str] | None = None) -> list[tuple[int, int]]:
    """(uid, inode) of each established socket whose local end is ``peer`` and remote end ``local``
    (socket addresses as getpeername()/getsockname() give them). ``tables``: read those files in
    /proc/net/tcp's format instead of asking the kernel."""
    found = []
    for version, (peer_form, local_form) in _forms(_endpoint(peer), _endpoint(local)):
        if tables is None:
            try:
                owner = sock_diag.owner(socket.AF_INET if version == 4 else socket.AF_INET6, peer_form, local_form)
            except sock_diag.SockDiagUnavailable:
                pass
            else:
                found += [owner] if owner is not None else []
                continue
        wanted = (_kernel_form(peer_form), _kernel_form(local_form))
        found += [(uid, inode) for row_local, row_remote, uid, inode in _rows((tables or TABLES)[version])
                  if (row_local, row_remote) == wanted]
    return list(dict.fromkeys(found))  # inet_diag finds a v4 socket by its v6-mapped form too


def _endpoint(address: tuple) -> Endpoint:
    host, port = address[0], address[1]
    parsed = ipaddress.ip_address(host.split("%")[0])
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped:
        parsed = parsed.ipv4_mapped
    return parsed, port


def _forms(peer: Endpoint, local: Endpoint) -> Iterable[tuple[int, tuple[Endpoint, Endpoint]]]:
    """The tables the peer's socket may be in, with the ends as that table writes them: a v4
    client of a v6 listener is in tcp, a v6 socket speaking to a v4 address in tcp6 (mapped)."""
    if peer[0].version == 6 or local[0].version == 6:
        yield 6, (peer, local)
        return
    yield 4, (peer, local)
    yield 6, tuple((ipaddress.IPv6Address(f"::ffff:{address}"), port) for address, port in (peer, local))


def _kernel_form(endpoint: Endpoint) -> str:
    """An endpoint as /proc/net/tcp writes it: each 32-bit word as the host reads it, then the port."""
    address, port = endpoint
    packed = address.packed
    words = "".join(f"{word:08X}" for word in struct.unpack(f"={len(packed) // 4}I", packed))
    return f"{words}:{port:04X}"


def _rows(table: str) -> Iterable[tuple[str, str, int, int]]:
    """(local, remote, uid, inode) of each established socket in ``table``."""
    try:
        with open(table) as rows:
            next(rows, None)
            for row in rows:
                fields = row.split()
                if len(fields) > 9 and fields[3] == _ESTABLISHED:
                    yield fields[1], fields[2], int(fields[7]), int(fields[9])
    except OSError:
        return
