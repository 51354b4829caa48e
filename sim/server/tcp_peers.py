"""Who is at the other end of a loopback TCP connection, asked of the kernel.

TCP has no SO_PEERCRED, but for a peer on this machine the kernel lists every socket with its
owner's uid (/proc/net/tcp, tcp6): the row whose local address is the peer's address is the
peer's socket. A device that isolates its apps uses it so that an app reaching a TCP listener
is that app, whatever credential it presents, as on the app socket (docs/security.md).
"""

from __future__ import annotations

import ipaddress
import struct

_TABLES = {4: "/proc/net/tcp", 6: "/proc/net/tcp6"}
_ESTABLISHED = "01"


def loopback_peer_uid(peer: str) -> int | None:
    """The uid owning the socket behind gRPC's ``ipv4:127.0.0.1:PORT`` / ``ipv6:[::1]:PORT``
    peer; None for any other peer, or one the kernel does not list."""
    kind, _, rest = peer.partition(":")
    if kind not in ("ipv4", "ipv6"):
        return None
    host, _, port = rest.rpartition(":")
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    if not address.is_loopback:
        return None
    # A v4 client of a v6 listener is listed in tcp; a v6 one, or a mapped form, in tcp6.
    forms = [(4, address), (6, ipaddress.IPv6Address(f"::ffff:{address}"))] if address.version == 4 else [(6, address)]
    for version, form in forms:
        uid = _owner(_TABLES[version], f"{_kernel_hex(form)}:{int(port):04X}")
        if uid is not None:
            return uid
    return None


def _kernel_hex(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """An address as /proc/net/tcp writes it: each 32-bit word as the host reads it."""
    packed = address.packed
    return "".join(f"{word:08X}" for word in struct.unpack(f"={len(packed) // 4}I", packed))


def _owner(table: str, local: str) -> int | None:
    try:
        with open(table) as rows:
            next(rows)
            for row in rows:
                fields = row.split()
                if fields[1] == local and fields[3] == _ESTABLISHED:
                    return int(fields[7])
    except OSError:
        return None
    return None
