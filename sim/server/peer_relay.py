"""PeerRelay: a listener whose every connection the kernel names once, relayed to the gRPC server.

gRPC tells a servicer only a peer string, per call, and nothing when a connection ends. So
where the device must know who connected (its app socket; a TCP listener on a device that
isolates its apps), it accepts the connection itself, asks the kernel who is at the other end
once, and relays the connection to the gRPC server's internal socket from an abstract Unix
address with a random name. A connection named as an installed app is registered under its
address for its lifetime: a call arriving from there **is** that app, whatever credential it
presents. An unnamed connection is relayed from an unregistered address, so its credential
decides. The internal socket is the device's user's only, so no app can pose as a relay.

Each relayed connection costs two threads and two descriptors, so what apps may hold is
bounded (``ConnectionCaps``): per app, and all apps together.
"""

from __future__ import annotations

import logging
import secrets
import socket
import threading
from pathlib import Path
from typing import Callable

from droid.os.binder import FIRST_APPLICATION_UID, CallingIdentity

log = logging.getLogger("droidsim.server")

_CHUNK = 256 * 1024
# An app process keeps one channel to the device; an agent app a few more.
MAX_CONNECTIONS_PER_APP = 32
MAX_APP_CONNECTIONS = 256


class RefusedPeer(Exception):
    """The connection is closed unserved; the message says why, for the device's log."""


NamePeer = Callable[[socket.socket], "CallingIdentity | None"]


class ConnectionCaps:
    """How many relayed connections each app, and all apps together, may hold open."""

    def __init__(self, per_app: int = MAX_CONNECTIONS_PER_APP, total: int = MAX_APP_CONNECTIONS) -> None:
        self._per_app = per_app
        self._total = total
        self._lock = threading.Lock()
        self._held: dict[int, int] = {}

    def take(self, identity: CallingIdentity | None) -> None:
        """Count one more connection of ``identity``; raises RefusedPeer beyond a cap."""
        if identity is None or identity.uid < FIRST_APPLICATION_UID:
            return
        with self._lock:
            mine, everyone = self._held.get(identity.uid, 0), sum(self._held.values())
            if mine >= self._per_app:
                raise RefusedPeer(f"{identity.package_name} already holds {mine} connections, "
                                  f"this device's limit per app")
            if everyone >= self._total:
                raise RefusedPeer(f"installed apps already hold {everyone} connections, "
                                  f"this device's limit for all apps together")
            self._held[identity.uid] = mine + 1

    def give_back(self, identity: CallingIdentity | None) -> None:
        if identity is None or identity.uid < FIRST_APPLICATION_UID:
            return
        with self._lock:
            left = self._held.get(identity.uid, 0) - 1
            if left > 0:
                self._held[identity.uid] = left
            else:
                self._held.pop(identity.uid, None)


class PeerRelay:
    def __init__(
        self,
        listener: socket.socket,
        internal_path: Path,
        name_peer: NamePeer,
        bind_peer: Callable[[str, CallingIdentity], None],
        unbind_peer: Callable[[str], None],
        caps: ConnectionCaps,
        label: str,
    ) -> None:
        self._listener = listener
        self._internal_path = internal_path
        self._name_peer = name_peer
        self._bind_peer = bind_peer
        self._unbind_peer = unbind_peer
        self._caps = caps
        self._label = label
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept_loop, name=label, daemon=True)

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
            except RefusedPeer as refusal:
                log.warning("%s: refused a connection: %s", self._label, refusal)
                connection.close()
            except OSError as error:
                log.warning("%s: a connection failed: %s", self._label, error)
                connection.close()

    def _admit(self, connection: socket.socket) -> None:
        identity = self._name_peer(connection)
        self._caps.take(identity)
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        name = f"droidsim-relay-{secrets.token_hex(12)}"
        try:
            upstream.bind(b"\0" + name.encode())
            upstream.connect(str(self._internal_path))
        except OSError:
            upstream.close()
            self._caps.give_back(identity)
            raise
        peer = f"unix-abstract:{name}"
        if identity is not None:
            self._bind_peer(peer, identity)
        with self._lock:
            self._connections.update((connection, upstream))
        done = threading.Barrier(2, action=lambda: self._finish(peer, identity, connection, upstream))
        for source, target in ((connection, upstream), (upstream, connection)):
            threading.Thread(target=_pump, args=(source, target, done), name=f"{self._label}:relay", daemon=True).start()

    def _finish(self, peer: str, identity: CallingIdentity | None, *ends: socket.socket) -> None:
        if identity is not None:
            self._unbind_peer(peer)
        self._caps.give_back(identity)
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
