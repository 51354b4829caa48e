"""One TCP socket's owner, asked of the kernel by its exact four-tuple (NETLINK_SOCK_DIAG).

/proc/net/tcp answers the same question, but the kernel writes a row for every socket of the
machine to answer it (milliseconds on a busy one); an inet_diag request for one connection is
looked up in the kernel's socket hash, microseconds. The MCP bridge asks once per HTTP
connection, and MCP clients commonly open one per request (sim/mcp/http_auth.py).
"""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import struct

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST = 1
NLMSG_ERROR = 2
_HEADER = struct.Struct("=IHHII")  # nlmsghdr: len, type, flags, seq, pid
# inet_diag_req_v2: family, protocol, ext, pad, states; then inet_diag_sockid
_REQUEST = struct.Struct("=BBBBI")
_SOCKID = struct.Struct("!HH16s16s")  # sport, dport, src, dst (network order); then if, cookie
_SOCKID_TAIL = struct.Struct("=III")
_NO_COOKIE = 0xFFFFFFFF
# inet_diag_msg: family, state, timer, retrans, sockid (48 bytes), expires, rqueue, wqueue, uid, inode
_MESSAGE = struct.Struct("=BBBB48sIIIII")
_ESTABLISHED = 1


class SockDiagUnavailable(OSError):
    """The kernel (or a sandbox) offers no inet_diag: ask /proc/net/tcp instead."""


def owner(family: int, local: tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int],
          remote: tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]) -> tuple[int, int] | None:
    """(uid, inode) of the established TCP socket of ``family`` whose local end is ``local`` and
    remote end ``remote``; None when there is none."""
    request = _REQUEST.pack(family, socket.IPPROTO_TCP, 0, 0, 1 << _ESTABLISHED) + _sockid(local, remote)
    message = _HEADER.pack(_HEADER.size + len(request), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 1, 0) + request
    try:
        netlink = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG)
    except OSError as error:
        raise SockDiagUnavailable(error.errno, f"no NETLINK_SOCK_DIAG here: {error.strerror}") from None
    with netlink:
        netlink.sendto(message, (0, 0))
        answer = netlink.recv(8192)
    _length, kind, _flags, _seq, _pid = _HEADER.unpack_from(answer)
    if kind == NLMSG_ERROR:
        (code,) = struct.unpack_from("=i", answer, _HEADER.size)
        if code in (0, -errno.ENOENT):  # no such connection
            return None
        raise SockDiagUnavailable(-code, f"inet_diag refused the lookup: {os.strerror(-code)}")
    if kind != SOCK_DIAG_BY_FAMILY:
        return None
    *_, uid, inode = _MESSAGE.unpack_from(answer, _HEADER.size)
    return uid, inode


def _sockid(local, remote) -> bytes:
    (local_address, local_port), (remote_address, remote_port) = local, remote
    return _SOCKID.pack(local_port, remote_port, local_address.packed.ljust(16, b"\0"),
                        remote_address.packed.ljust(16, b"\0")) + _SOCKID_TAIL.pack(0, _NO_COOKIE, _NO_COOKIE)
