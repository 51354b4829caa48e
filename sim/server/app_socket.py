"""The app socket: where app processes reach the device, named by the kernel rather than a secret.

On Android the binder driver stamps each transaction with the caller's uid. Here, on a device
that runs its apps under their own uids, app processes connect to the app socket (an abstract
Unix address with a random name: no folder above it can be out of an app's reach); the device
asks the kernel who connected (SO_PEERCRED) and relays the connection (sim/server/peer_relay.py),
so a call on it is that app, whatever credential it presents. A peer that is no installed app
is refused: processes outside the device use ``device.sock`` and a credential, as adb's
clients use its keys.
"""

from __future__ import annotations

import secrets
import socket
import struct
from pathlib import Path
from typing import Callable

from droid.os.binder import CallingIdentity
from sim import safe_files
from sim.server.peer_relay import ConnectionCaps, PeerRelay, RefusedPeer

INTERNAL_SOCKET_NAME = ".binder.sock"
# Where an isolating device says its app socket's address, for the processes droidsim starts as
# an app from outside the device (an agent app's own agent: sim/agent_app/launch.py).
ADDRESS_FILE = "apps.address"
_UCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


def peer_uid(connection: socket.socket) -> int:
    """The uid the kernel recorded for the process at the other end of a Unix socket."""
    _pid, uid, _gid = _UCRED.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size))
    return uid


def app_socket(
    internal_path: Path,
    identity_of_uid: Callable[[int], CallingIdentity | None],
    bind_peer: Callable[[str, CallingIdentity], None],
    unbind_peer: Callable[[str], None],
    caps: ConnectionCaps,
) -> tuple[PeerRelay, str]:
    """The relay, and the address app processes are given."""
    # Any uid may connect (an abstract address has no file mode); the kernel says which did.
    name = f"droidsim-apps-{secrets.token_hex(8)}"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(b"\0" + name.encode())
    listener.listen(64)

    def name_peer(connection: socket.socket) -> CallingIdentity:
        uid = peer_uid(connection)
        identity = identity_of_uid(uid)
        if identity is None:
            raise RefusedPeer(f"uid {uid} is no installed app (processes outside the device connect to "
                              "device.sock with a credential)")
        return identity

    relay = PeerRelay(listener, internal_path, name_peer, bind_peer, unbind_peer, caps, "app-socket")
    return relay, f"unix-abstract:{name}"


def publish_address(data_dir: Path, address: str) -> None:
    """The app socket's name is no secret (any process may read /proc/net/unix); the file is
    the device's, in its data directory."""
    safe_files.write_file(data_dir, ADDRESS_FILE, address.encode(), mode=0o644, durable=False)


def published_address(data_dir: Path) -> str | None:
    """The running device's app socket address, or None where the device does not isolate its
    apps (they then reach it where everyone does)."""
    try:
        return safe_files.read_file(data_dir / ADDRESS_FILE, 4096).decode()
    except FileNotFoundError:
        return None
