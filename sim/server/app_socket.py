"""AppSocket: where app processes reach the device, named by the kernel rather than a secret.

On Android the binder driver stamps each transaction with the caller's uid. Here, on a device
that runs its apps under their own uids, app processes connect to the app socket (an abstract
Unix address with a random name: no folder above it can be out of an app's reach); the device
asks the kernel who connected (SO_PEERCRED) and relays the connection to the gRPC server from
an address it registers for that app's identity. A call arriving from that address is that
app, whatever credential it presents. A peer that is no installed app is refused: processes
outside the device use ``device.sock`` and a credential, as adb's clients use its keys.

The relay's own end is an abstract Unix address with a random name, and the gRPC server's
internal socket is reachable by the device's user only, so no app can pose as a relayed peer.
"""

from __future__ import annotations

import logging
import secrets
import socket
import struct
import threading
from pathlib import Path
from typing import Callable

from droid.os.binder import CallingIdentity

log = logging.getLogger("droidsim.server")

INTERNAL_SOCKET_NAME = ".binder.sock"
_CHUNK = 256 * 1024
_UCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


def peer_uid(connection: socket.socket) -> int:
    """The uid the kernel recorded for the process at the other end of a Unix socket."""
    _pid, uid, _gid = _UCRED.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size))
    return uid


class AppSocket:
    def __init__(
        self,
        internal_path: Path,
        identity_of_uid: Callable[[int], CallingIdentity | None],
        bind_peer: Callable[[str, CallingIdentity], None],
        unbind_peer: Callable[[str], None],
    ) -> None:
        self._internal_path = internal_path
        self._identity_of_uid = identity_of_uid
        self._bind_peer = bind_peer
        self._unbind_peer = unbind_peer
        # Any uid may connect (an abstract address has no file mode); the kernel says which did.
        self._name = f"droidsim-apps-{secrets.token_hex(8)}"
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(b"\0" + self._name.encode())
        self._listener.listen(64)
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept_loop, name="app-socket", daemon=True)

    @property
    def address(self) -> str:
        return f"unix-abstract:{self._name}"

    def start(self) -> None:
        self._thread.start()

    def _accept_loop(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            try:
                self._admit(connection)
            except OSError as error:
                log.warning("app socket: a connection failed: %s", error)
                connection.close()

    def _admit(self, connection: socket.socket) -> None:
        uid = peer_uid(connection)
        identity = self._identity_of_uid(uid)
        if identity is None:
            log.warning("app socket: refused a connection from uid %d, which is no installed app "
                        "(processes outside the device connect to device.sock with a credential)", uid)
            connection.close()
            return
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        name = f"droidsim-app-{uid}-{secrets.token_hex(8)}"
        upstream.bind(b"\0" + name.encode())
        upstream.connect(str(self._internal_path))
        peer = f"unix-abstract:{name}"
        self._bind_peer(peer, identity)
        with self._lock:
            self._connections.update((connection, upstream))
        done = threading.Barrier(2, action=lambda: self._finish(peer, connection, upstream))
        for source, target in ((connection, upstream), (upstream, connection)):
            threading.Thread(target=_pump, args=(source, target, done), name=f"relay:{uid}", daemon=True).start()

    def _finish(self, peer: str, *ends: socket.socket) -> None:
        self._unbind_peer(peer)
        with self._lock:
            for end in ends:
                self._connections.discard(end)
                end.close()

    def close(self) -> None:
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept loop
        except OSError:
            pass
        self._listener.close()
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _pump(source: socket.socket, target: socket.socket, done: threading.Barrier) -> None:
    """Copy one direction until it ends; then end both (HTTP/2 has no use for half a
    connection), so the other direction's pump ends too and the last one out closes."""
    try:
        while data := source.recv(_CHUNK):
            target.sendall(data)
    except OSError:
        pass
    for end in (source, target):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    done.wait()
